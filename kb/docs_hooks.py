"""MkDocs hook: writes the generated pages into docs/generated/ before the build, and replaces the
`{{ cite: … }}` / `{{ value: … }}` / `{{ table: … }}` markers of the guide pages.

mkdocs-gen-files does not work with mkdocs-static-i18n (which rebuilds the site once per language), so
pages are written as real files first. A generator that meets an unknown marker or a missing fact raises
PluginError: the build fails, naming the page and line.

GPUKB_SKIP_GENERATE=1 reuses the files already in docs/generated/ (for timing the build without
generation; markers are still expanded from the compiled catalog).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

STAMP = ".generated"
#: the input hash docs/generated/ was last written for in this process. mkdocs-static-i18n builds once
#: per language in one process; `mkdocs serve` rebuilds after every edit: generate again only when the
#: catalog or the rules changed.
_STATE: dict = {}


def _data() -> dict:
    from kb.catalog.compiled import load_data
    from kb.catalog.loader import CatalogError

    try:
        return load_data()  # memoised by the catalog's hash
    except CatalogError as exc:
        problems = "\n".join(f"  {p}" for p in exc.problems)
        raise PluginError(f"gpukb: the catalog is not usable (run 'gpukb lint'):\n{problems}") from None


def _inputs_hash() -> str:
    from kb.catalog.compiled import catalog_dir, input_hash, rules_dir

    return input_hash(catalog_dir(), rules_dir())


def generate(repo_url: str) -> dict[str, str | bytes]:
    """Every generated file, path relative to docs/generated/ → content."""
    from kb import __version__
    from kb.cli.main import cli
    from kb.site.cliref import command_help
    from kb.catalog.facts import FactError
    from kb.site.pages import catalog_pages, cli_pages

    data = _data()
    try:
        files: dict[str, str | bytes] = dict(catalog_pages(data, repo_url))
    except FactError as exc:
        raise PluginError(f"gpukb: a generated page needs a fact the catalog does not have: {exc}") from None
    files.update(cli_pages(data, command_help(cli), __version__, repo_url))
    files.update(_engine_pages(data, repo_url))
    return files


def _engine_pages(data: dict, repo_url: str) -> dict[str, str]:
    """The matrices, rule reference and ask page: the same engine `gpukb ask` uses."""
    from kb.catalog.compiled import read_cache, write_cache
    from kb.engine.rules import RuleError, load_rules
    from kb.questions import Asker, export_all
    from kb.site.pages import engine_pages, known_drivers

    try:
        rules = load_rules()
        export = export_all()
    except RuleError as exc:
        raise PluginError(f"gpukb: the rules are not usable:\n{exc}") from None
    if export["data_version"] != data["data_version"]:
        raise PluginError("gpukb: the engine answered for another catalog than the site shows")
    mig = [a for a in export["answers"] if a["question"] == "mig"]
    key = _inputs_hash()
    cached = read_cache("site-ask", key)
    if cached is None:
        asker = Asker(data)
        with_driver = []
        for driver in known_drivers(data):  # one batch per driver: large durable-rules batches slow down a lot
            with_driver += asker.answer_many("mig", [{**a["inputs"], "driver": driver} for a in mig])
        cached = {"answers": with_driver}
        write_cache("site-ask", key, cached)
    ask = mig + cached["answers"]
    try:
        return engine_pages(data, export, rules, ask, repo_url)
    except KeyError as exc:
        raise PluginError(f"gpukb: {exc.args[0]}") from None


def write_tree(folder: Path, files: dict[str, str | bytes]) -> None:
    """Write files whose content changed and delete files no longer generated (keeps mtimes stable)."""
    folder.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = folder / rel
        raw = content.encode("utf-8") if isinstance(content, str) else content
        if not path.is_file() or path.read_bytes() != raw:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(raw)
    keep = set(files) | {STAMP}
    for path in sorted(folder.rglob("*"), reverse=True):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    (folder / STAMP).write_text(_data()["hash"] + "\n", encoding="utf-8")


def on_config(config):
    folder = Path(config.docs_dir) / "generated"
    key = _inputs_hash()
    if _STATE.get(str(folder)) != key:
        skip = os.environ.get("GPUKB_SKIP_GENERATE") == "1"
        if skip and not (folder / STAMP).is_file():
            raise PluginError("gpukb: GPUKB_SKIP_GENERATE=1 but docs/generated/ was never generated: build once without it")
        if not skip:
            write_tree(folder, generate(config.extra["repo_url"]))
        _STATE[str(folder)] = key
    config.nav = _expand_nav(config.nav, folder)
    return config


def _expand_nav(nav, folder: Path):
    """Replace the entry 'generated/cards/index.md' with the index followed by one entry per card page."""
    if nav is None:
        return nav
    if isinstance(nav, list):
        out = []
        for item in nav:
            new = _expand_nav(item, folder)
            out += new if isinstance(item, str) and isinstance(new, list) else [new]
        return out
    if isinstance(nav, dict):
        return {k: _expand_nav(v, folder) for k, v in nav.items()}
    if nav == "generated/cards/index.md":
        cards = sorted({p.name.split(".")[0] for p in (folder / "cards").glob("*.md")} - {"index"})
        return [nav, *(f"generated/cards/{c}.md" for c in cards)]
    return nav


_LANG = re.compile(r"\.(de|en)\.md$")


def on_page_markdown(markdown, page, config, files):
    """Expand the markers of hand-written pages; generated pages are final already."""
    src = page.file.src_uri
    if src.startswith("generated/"):
        return markdown
    from kb.site.markers import MarkerError, expand
    from kb.site.page import Ctx

    m = _LANG.search(src)
    lang = m.group(1) if m else "de"
    try:
        return expand(markdown, Ctx(_data(), lang, config.extra["repo_url"]))
    except MarkerError as exc:
        raise PluginError(f"gpukb: docs/{src}: {exc}") from None
