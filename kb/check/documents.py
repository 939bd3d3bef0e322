"""Read the customer's files: multi-document YAML, JSON, `-` for stdin — keeping the line of every field.

Every document remembers its file, its 1-based position in the file and, per field path, the line
it starts on. Text that cannot be read (bad YAML/JSON, duplicate keys, undecodable bytes) raises
`UnreadableInput` listing every problem with file and line: the caller reports those and checks nothing.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

import yaml

from kb.catalog.yamlsafe import Problem

STDIN = "-"
STDIN_NAME = "<stdin>"
#: A document expanding to more values than this (YAML alias bombs) is refused as unreadable.
MAX_NODES = 200_000


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
                    self.problems.append(Problem(
                        self.file, key_node.start_mark.line + 1, field_path(path + (key,)),
                        f"duplicate key {key!r} (first at line {self.lines.get(path + (key,))}): "
                        "Kubernetes rejects this, and YAML readers would silently keep only one value",
                        kind="yaml"))
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
    return Problem(file, line, "", f"not valid YAML: {msg}" + (f" ({ctx})" if ctx else ""), kind="yaml")


def _json(text: str, file: str) -> tuple[list[Doc], list[Problem]]:
    try:
        return [Doc(file, 1, json.loads(text), {(): 1})], []
    except (ValueError, RecursionError) as exc:
        return [], [Problem(file, getattr(exc, "lineno", None), "", f"not valid JSON: {exc}", kind="yaml")]


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
        return [], [Problem(file, None, "", f"not valid YAML: {exc}", kind="yaml")]
    for i, node in enumerate(nodes, start=1):
        if node is None:
            continue
        builder = _Builder(file, problems)
        try:
            data = builder.build(node, ())
        except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
            problems.append(_yaml_error(file, exc) if isinstance(exc, yaml.YAMLError)
                            else Problem(file, node.start_mark.line + 1, "", f"not valid YAML: {exc}", kind="yaml"))
            continue
        if data is None:
            continue
        docs.append(Doc(file, i, data, builder.lines, builder.styles))
    return docs, problems


def parse_embedded(outer: Doc, path: tuple, text: str) -> tuple[Doc | None, str | None]:
    """A YAML text stored in a string field (a ConfigMap value). Returns (doc, None) or (None, error).

    Lines of a block scalar (`|`, `>`) map back to the file; other strings point at their key's line.
    """
    style = outer.styles.get(tuple(path))
    key_line = outer.line(path)
    offset = key_line if (style in ("|", ">") and key_line is not None and outer.line_offset is not None) else None
    docs, problems = parse_text(text, outer.file)
    prefix = outer.where(path)["path"]
    if problems:
        p = problems[0]
        where = f" (line {p.line + offset})" if (p.line and offset is not None) else ""
        return None, p.message + where
    if not docs:
        return None, "empty"
    d = docs[0]
    return Doc(outer.file, outer.index, d.data, d.lines, d.styles, prefix=prefix,
               line_offset=offset, outer_line=key_line), None


def read_inputs(names: list[str], stdin=None) -> list[Doc]:
    """Read every named file ('-' = stdin). Raises UnreadableInput with every problem found."""
    docs: list[Doc] = []
    problems: list[Problem] = []
    for name in names:
        display = STDIN_NAME if name == STDIN else name
        try:
            if name == STDIN:
                raw = (stdin or sys.stdin.buffer).read()
                if isinstance(raw, str):
                    raw = raw.encode("utf-8", "surrogateescape")
            else:
                with open(name, "rb") as fh:
                    raw = fh.read()
        except OSError as exc:
            problems.append(Problem(display, None, "", f"cannot read file: {exc.strerror or exc}", kind="io"))
            continue
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            problems.append(Problem(display, line, "", "not UTF-8 text", kind="io"))
            continue
        if "\x00" in text:
            problems.append(Problem(display, text[: text.index("\x00")].count("\n") + 1, "",
                                    "binary data (NUL byte), not YAML or JSON", kind="io"))
            continue
        found, errs = parse_text(text, display)
        problems += errs
        if not found and not errs:
            problems.append(Problem(display, None, "", "no YAML or JSON document in this file", kind="yaml"))
        docs += found
    if problems:
        raise UnreadableInput(problems)
    return docs
