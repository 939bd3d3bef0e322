"""Read the customer's files: multi-document YAML, JSON, `-` for stdin — keeping the line of every field.

Every document remembers its file, its 1-based position in the file and, per field path, the line
it starts on. Text that cannot be read (bad YAML/JSON, duplicate keys, undecodable bytes) raises
`UnreadableInput` listing every problem with file and line: the caller reports those and checks nothing.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.catalog.yamlsafe import Problem

STDIN = "-"
STDIN_NAME = "<stdin>"
#: A document expanding to more values than this (YAML alias bombs) is refused as unreadable.
MAX_NODES = 200_000


#: what a YAML value is, in words: {type id: (en, de)}
TYPE_WORDS = {
    "missing": ("missing", "fehlt"), "boolean": ("boolean", "Wahrheitswert"), "integer": ("integer", "ganze Zahl"),
    "huge-integer": ("integer beyond 2^63", "ganze Zahl über 2^63"), "number": ("number", "Zahl"),
    "text": ("text", "Text"), "list": ("list", "Liste"), "mapping": ("mapping", "Zuordnung"),
    "null": ("null", "null"), "other": ("other value", "anderer Wert"),
}
#: Go reads the device plugin's and the operator's integers into 64 bits: a larger one does not load
_GO_INT = 2**63


def yaml_type(value) -> str:
    """The type id of a parsed YAML value (a key of TYPE_WORDS)."""
    if type(value) is int and not -_GO_INT <= value < _GO_INT:
        return "huge-integer"
    return {bool: "boolean", int: "integer", float: "number", str: "text", list: "list", dict: "mapping",
            type(None): "null"}.get(type(value), "other")


def both(en: str, de: str) -> dict:
    """A message in both languages (reader errors become finding texts)."""
    return {"en": en, "de": de}


@dataclass
class InputProblem(Problem):
    """A Problem with its message in German too (the JSON output keeps `message` in English)."""

    message_de: str = ""

    def message_in(self, lang: str) -> str:
        return self.message_de if lang == "de" and self.message_de else self.message

    def text(self, lang: str) -> str:
        return str(Problem(self.file, self.line, self.path, self.message_in(lang), self.kind))


def _problem(file: str, line, path: str, en: str, de: str, kind: str) -> InputProblem:
    return InputProblem(file, line, path, en, kind, message_de=de)


class UnreadableInput(Exception):
    """Input that cannot be parsed; `problems` says where and why, all at once."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} unreadable input(s)")
        self.problems = problems


def field_path(path: tuple) -> str:
    """("metadata", "labels", "nvidia.com/mig.config") → 'metadata.labels["nvidia.com/mig.config"]'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part) or any(c in str(part) for c in './[] "'):
            out += f"[{json.dumps(str(part))}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@dataclass
class Doc:
    """One parsed document (or a YAML text embedded in one, such as a ConfigMap value).

    `prefix` is the field path of the embedded text inside its outer document ("" for a whole document);
    `line_offset` is added to the lines of an embedded text (None where its lines cannot be known).
    """

    file: str
    index: int
    data: Any
    lines: dict = field(default_factory=dict)
    styles: dict = field(default_factory=dict)
    prefix: str = ""
    line_offset: int | None = 0
    outer_line: int | None = None

    def line(self, path: tuple = ()) -> int | None:
        """Line of a field path (or of its nearest parent that has one)."""
        if self.line_offset is None:
            return self.outer_line
        path = tuple(path)
        while path and path not in self.lines:
            path = path[:-1]
        found = self.lines.get(path)
        return None if found is None else found + self.line_offset

    def where(self, path: tuple = ()) -> dict:
        """Location of a field: file, document index, field path and line."""
        inner = field_path(tuple(path))
        shown = f"{self.prefix} → {inner}" if self.prefix and inner else (self.prefix or inner)
        return {"file": self.file, "document": self.index, "path": shown, "line": self.line(path)}

    def get(self, *path, default=None):
        """The value at a field path, or `default` where a part is missing or of the wrong type."""
        node = self.data
        for part in path:
            if isinstance(part, int) and isinstance(node, list) and -len(node) <= part < len(node):
                node = node[part]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return default
        return node

    def sub(self, path: tuple) -> Doc:
        """The same document seen from a sub-tree (e.g. one item of a `kind: List`)."""
        n = len(path)
        lines = {p[n:]: ln for p, ln in self.lines.items() if p[:n] == tuple(path)}
        styles = {p[n:]: s for p, s in self.styles.items() if p[:n] == tuple(path)}
        prefix = field_path(tuple(path))
        return Doc(self.file, self.index, self.get(*path), lines, styles,
                   prefix=f"{self.prefix} → {prefix}" if self.prefix else prefix,
                   line_offset=self.line_offset, outer_line=self.outer_line)


class _Builder:
    """Turns a composed YAML node into plain data, recording lines; duplicate keys are problems."""

    def __init__(self, file: str, problems: list[Problem]):
        self.file = file
        self.problems = problems
        self.constructor = yaml.SafeLoader("")
        self.lines: dict = {}
        self.styles: dict = {}
        self.budget = MAX_NODES

    def build(self, node: yaml.Node, path: tuple) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise ValueError(f"more than {MAX_NODES} values (aliases expanding without end?)")
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            self.constructor.flatten_mapping(node)
            out: dict = {}
            for key_node, value_node in node.value:
                key = self.constructor.construct_object(key_node, deep=True)
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key)
                if key in out:
                    first = self.lines.get(path + (key,))
                    self.problems.append(_problem(
                        self.file, key_node.start_mark.line + 1, field_path(path + (key,)),
                        f"duplicate key {key!r} (first at line {first}): "
                        "Kubernetes rejects this, and YAML readers would silently keep only one value",
                        f"doppelter Schlüssel {key!r} (zuerst in Zeile {first}): Kubernetes lehnt das ab, "
                        "und YAML-Leser behielten stillschweigend nur einen Wert", "yaml"))
                    continue
                self.lines[path + (key,)] = key_node.start_mark.line + 1
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        self.styles[path] = node.style
        value = self.constructor.construct_object(node, deep=True)
        # dates/timestamps and binary stay text: facts are plain scalars
        return value if isinstance(value, (str, int, float, bool, type(None))) else node.value


def _yaml_error(file: str, exc: yaml.YAMLError, line_offset: int = 0) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 + line_offset if mark else None
    msg = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    ctx = getattr(exc, "context", None)
    detail = msg + (f" ({ctx})" if ctx else "")
    return _problem(file, line, "", f"not valid YAML: {detail}", f"kein gültiges YAML: {detail}", "yaml")


def _json(text: str, file: str) -> tuple[list[Doc], list[Problem]]:
    try:
        return [Doc(file, 1, json.loads(text), {(): 1})], []
    except (ValueError, RecursionError) as exc:
        return [], [_problem(file, getattr(exc, "lineno", None), "", f"not valid JSON: {exc}", f"kein gültiges JSON: {exc}",
                             "yaml")]


def parse_text(text: str, file: str) -> tuple[list[Doc], list[Problem]]:
    """All documents of one text. Empty documents are skipped; positions count every document."""
    problems: list[Problem] = []
    docs: list[Doc] = []
    stripped = text.lstrip("\ufeff \t\r\n")
    looks_json = stripped[:1] in ("{", "[")
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError as exc:
        # JSON that YAML cannot read (tab indentation, "\/" escapes): read as JSON, lines known per document only
        return _json(stripped, file) if looks_json else ([], [_yaml_error(file, exc)])
    except (ValueError, RecursionError) as exc:  # e.g. unhashable keys, absurd nesting
        return [], [_problem(file, None, "", f"not valid YAML: {exc}", f"kein gültiges YAML: {exc}", "yaml")]
    for i, node in enumerate(nodes, start=1):
        if node is None:
            continue
        builder = _Builder(file, problems)
        try:
            data = builder.build(node, ())
        except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
            problems.append(_yaml_error(file, exc) if isinstance(exc, yaml.YAMLError)
                            else _problem(file, node.start_mark.line + 1, "", f"not valid YAML: {exc}",
                                          f"kein gültiges YAML: {exc}", "yaml"))
            continue
        if data is None:
            continue
        docs.append(Doc(file, i, data, builder.lines, builder.styles))
    return docs, problems


def parse_embedded(outer: Doc, path: tuple, text: str) -> tuple[Doc | None, dict | None]:
    """A YAML text stored in a string field (a ConfigMap value). Returns (doc, None) or (None, error {en, de}).

    Lines of a block scalar (`|`, `>`) map back to the file; other strings point at their key's line.
    """
    style = outer.styles.get(tuple(path))
    key_line = outer.line(path)
    offset = key_line if (style in ("|", ">") and key_line is not None and outer.line_offset is not None) else None
    docs, problems = parse_text(text, outer.file)
    prefix = outer.where(path)["path"]
    if problems:
        p = problems[0]
        line = p.line + offset if (p.line and offset is not None) else None
        return None, both(p.message + (f" (line {line})" if line else ""),
                          (p.message_de or p.message) + (f" (Zeile {line})" if line else ""))
    if not docs:
        return None, both("empty", "leer")
    d = docs[0]
    return Doc(outer.file, outer.index, d.data, d.lines, d.styles, prefix=prefix,
               line_offset=offset, outer_line=key_line), None


#: the operating system's reasons, in German
_OS_DE = {"No such file or directory": "Datei oder Verzeichnis nicht gefunden", "Permission denied": "Zugriff verweigert",
          "Is a directory": "ist ein Verzeichnis"}


#: file endings read from a directory
SUFFIXES = (".yaml", ".yml", ".json")


def expand(names: list[str]) -> list[str]:
    """Each directory replaced by the YAML and JSON files below it (sorted; hidden ones skipped), so a
    customer's folder of manifests can be checked at once. A directory without such files stays (and
    read_inputs says so)."""
    out: list[str] = []
    for name in names:
        if name != STDIN and os.path.isdir(name):
            found = sorted(str(p) for p in Path(name).rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES
                           and not any(part.startswith(".") for part in p.relative_to(name).parts))
            out += found or [name]
        else:
            out.append(name)
    return list(dict.fromkeys(out))  # a file named twice (or '-' twice: stdin is read once) counts once


def read_inputs(names: list[str], stdin=None) -> list[Doc]:
    """Read every named file ('-' = stdin). Raises UnreadableInput with every problem found."""
    docs: list[Doc] = []
    problems: list[Problem] = []
    for name in names:
        display = STDIN_NAME if name == STDIN else name
        if name != STDIN and os.path.isdir(name):
            problems.append(_problem(display, None, "", f"no YAML or JSON file ({', '.join(SUFFIXES)}) in this directory",
                                     f"keine YAML- oder JSON-Datei ({', '.join(SUFFIXES)}) in diesem Verzeichnis", "io"))
            continue
        try:
            if name == STDIN:
                raw = (stdin or sys.stdin.buffer).read()
                if isinstance(raw, str):
                    raw = raw.encode("utf-8", "surrogateescape")
            else:
                with open(name, "rb") as fh:
                    raw = fh.read()
        except OSError as exc:
            why = exc.strerror or str(exc)
            problems.append(_problem(display, None, "", f"cannot read file: {why}",
                                     f"Datei nicht lesbar: {_OS_DE.get(why, why)}", "io"))
            continue
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            problems.append(_problem(display, line, "", "not UTF-8 text", "kein UTF-8-Text", "io"))
            continue
        if "\x00" in text:
            problems.append(_problem(display, text[: text.index("\x00")].count("\n") + 1, "",
                                     "binary data (NUL byte), not YAML or JSON", "Binärdaten (NUL-Byte), weder YAML noch JSON",
                                     "io"))
            continue
        found, errs = parse_text(text, display)
        problems += errs
        if not found and not errs:
            problems.append(_problem(display, None, "", "no YAML or JSON document in this file",
                                     "kein YAML- oder JSON-Dokument in dieser Datei", "yaml"))
        docs += found
    if problems:
        raise UnreadableInput(problems)
    return docs
