"""The files behind the compiled data, found ONE way for the loader, the hash and the stamp.

    catalog_files(root) -> {kind: [InputFile, …]}   # sources, cards, releases, methods, platform
    rule_files(root)    -> {question: [InputFile, …]}
    code_files()        -> [InputFile, …]            # the kb package's modules: code identity by content
    unread(root, kind)  -> [InputFile, …]            # files in those folders that are NOT read (lint names them)

Folders are walked with symlinks followed (each real folder once, so a link loop ends), hidden names
(".git", ".#x.yaml", ".x.swp") and __pycache__ skipped; a YAML file is `*.yaml` or `*.yml` — both are read, so a rule
renamed to `.yml` still counts. Nothing here imports yaml or pydantic: the CLI's fast path uses it.
"""

from __future__ import annotations

import os
from pathlib import Path

YAML = (".yaml", ".yml")

#: catalog file kinds: (kind, folder or "" for the catalog's top level, file stem or None for "every YAML file")
CATALOG = (
    ("sources", "", "sources"),
    ("cards", "cards", None),
    ("releases", "releases", None),
    ("methods", "methods", None),
    ("platform", "", "platform-support"),
)
#: files of the catalog that are not catalog data (read by lint and the site, not by the loader)
CATALOG_OTHER = ("seed-coverage.yaml", "verdict-changes.yaml", "schema/")
#: files of the rule base that are not rules
RULES_OTHER = ("README.md", "rule.schema.json")


class InputFile:
    """One file behind the compiled data (a plain class: creating a NamedTuple class costs every `gpukb ask`
    more than the lookup it serves)."""

    __slots__ = ("rel", "path")

    def __init__(self, rel: str, path: str):
        self.rel = rel    # path relative to the root, "/"-separated, as reached (through symlinked folders)
        self.path = path  # the path to open

    def __eq__(self, other) -> bool:
        return isinstance(other, InputFile) and (self.rel, self.path) == (other.rel, other.path)

    def __hash__(self) -> int:
        return hash((self.rel, self.path))

    def __repr__(self) -> str:
        return f"InputFile(rel={self.rel!r}, path={self.path!r})"

    @property
    def stem(self) -> str:
        name = self.rel.rsplit("/", 1)[-1]
        return name.rsplit(".", 1)[0]

    def read(self) -> bytes:
        with open(self.path, "rb") as fh:
            return fh.read()


def walk(root: str | os.PathLike, dirs: list | None = None) -> list[InputFile]:
    """Every regular file below `root` (sorted by relative path), symlinked folders followed once. The
    relative path of every folder visited is appended to `dirs` where given ("" for `root`)."""
    out: list[InputFile] = []
    seen: set[str] = set()

    def visit(folder: str, prefix: str) -> None:
        real = os.path.realpath(folder)
        if real in seen:
            return
        seen.add(real)
        if dirs is not None:
            dirs.append(prefix.rstrip("/"))
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith(".") or entry.name == "__pycache__":
                continue
            try:
                if entry.is_dir():
                    visit(entry.path, f"{prefix}{entry.name}/")
                elif entry.is_file():
                    out.append(InputFile(prefix + entry.name, entry.path))
            except OSError:
                continue

    visit(os.fspath(root), "")
    return sorted(out, key=lambda f: f.rel)


def _is_yaml(f: InputFile) -> bool:
    return f.rel.endswith(YAML)


def catalog_files(root: str | os.PathLike, dirs: list | None = None) -> dict[str, list[InputFile]]:
    """The catalog's data files by kind (see CATALOG); a kind may have none. (`dirs`: see walk.)"""
    out: dict[str, list[InputFile]] = {kind: [] for kind, _, _ in CATALOG}
    for f in walk(root, dirs):
        if not _is_yaml(f):
            continue
        folder, _, name = f.rel.rpartition("/")
        for kind, where, stem in CATALOG:
            if folder == where and (stem is None or f.stem == stem):
                out[kind].append(f)
                break
    return out


def rule_files(root: str | os.PathLike, dirs: list | None = None) -> dict[str, list[InputFile]]:
    """The rule files by question: `<question>/<file>.yaml|.yml`. (`dirs`: see walk.)"""
    out: dict[str, list[InputFile]] = {}
    for f in walk(root, dirs):
        parts = f.rel.split("/")
        if len(parts) == 2 and _is_yaml(f):
            out.setdefault(parts[0], []).append(f)
    return out


def unread(root: str | os.PathLike, kind: str) -> list[InputFile]:
    """Files below a catalog (`kind` "catalog") or rule base ("rules") that the loader does not read and
    that are not known non-data files: a `card.json`, `cards/x.yaml.bak`, `rules/mig/notes.txt`."""
    if kind == "catalog":
        read = {f.rel for fs in catalog_files(root).values() for f in fs}
        other = CATALOG_OTHER
    else:
        read = {f.rel for fs in rule_files(root).values() for f in fs}
        other = RULES_OTHER
    return [f for f in walk(root)
            if f.rel not in read and not any(f.rel == o or (o.endswith("/") and f.rel.startswith(o)) for o in other)]


def package_dir() -> Path:
    return Path(__file__).resolve().parent.parent


#: the parts of the kb package that build the compiled data (loader, models, rule compiler, the inputs'
#: index, what they import): their content is part of the cache key. Other modules (CLI, site, checker,
#: drift) do not change what is compiled. A test checks that building imports nothing outside these.
BUILD_CODE = ("__init__.py", "catalog/", "models/", "engine/", "questions/__init__.py", "questions/base.py",
              "questions/words.py",
              "text.py", "errors.py", "versions.py", "wording.py")  # wording: the loader's problem messages


def code_files(dirs: list | None = None) -> list[InputFile]:
    """The modules of the kb package that build the compiled data (BUILD_CODE). (`dirs`: see walk.)"""
    root = package_dir()
    out = []
    for item in BUILD_CODE:
        if item.endswith("/"):
            visited: list = []
            out += [InputFile(f"{item}{f.rel}", f.path) for f in walk(root / item, visited) if f.rel.endswith(".py")]
            if dirs is not None:
                dirs += [f"{item}{d}".rstrip("/") for d in visited]
        else:
            out.append(InputFile(item, str(root / item)))
    return sorted(out, key=lambda f: f.rel)
