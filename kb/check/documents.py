"""Parsed documents: the data of each YAML/JSON document, and where each of its fields was written.

`parse_text(text, file)` reads every document of one text (YAML through libyaml, JSON through `json`; see
kb.check.yamlread and kb.check.jsonread) and returns `Doc`s plus the problems that made a document
unusable. A `Doc` is a view on one document or on a part of it (an item of a `kind: List`, a YAML text
embedded in a ConfigMap value); `doc.where(path)` is a `Where` whose line is looked up only when it is shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from kb.check import jsonread, yamlread
from kb.text import Text
from kb.wording import quoted

#: what a YAML value is, in words: {type id: Text}
TYPE_WORDS = {
    "missing": Text("missing", "fehlt"), "boolean": Text("boolean", "Wahrheitswert"),
    "integer": Text("integer", "ganze Zahl"), "huge-integer": Text("integer beyond 2^63", "ganze Zahl über 2^63"),
    "number": Text("number", "Zahl"), "text": Text("text", "Text"), "list": Text("list", "Liste"),
    "mapping": Text("mapping", "Zuordnung"), "null": Text("null", "null"), "other": Text("other value", "anderer Wert"),
    "unresolved": Text("a substitution left open", "eine offene Ersetzung"),
}
#: a value that is only a Flux/envsubst substitution nobody resolved (`${REPLICAS}`): unknown, not text
UNRESOLVED = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*\}$")
#: Go reads the device plugin's and the operator's integers into 64 bits: a larger one does not load
_GO_INT = 2**63


def yaml_type(value) -> str:
    """The type id of a parsed YAML value (a key of TYPE_WORDS)."""
    if type(value) is int and not -_GO_INT <= value < _GO_INT:
        return "huge-integer"
    if type(value) is str and value.startswith("${") and UNRESOLVED.match(value):
        return "unresolved"
    return {bool: "boolean", int: "integer", float: "number", str: "text", list: "list", dict: "mapping",
            type(None): "null"}.get(type(value), "other")


@dataclass
class InputProblem:
    """Why a file (or one document of it) was not read: file, line where known, field path, the reason."""

    file: str
    line: int | None
    path: str
    text: Text
    kind: str = "yaml"  # yaml | json | io | refused

    @property
    def message(self) -> str:
        return self.text.en

    def message_in(self, lang: str) -> str:
        return self.text(lang)

    def show(self, lang: str = "en") -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path + ': ' if self.path else ''}{self.text(lang)}"

    __str__ = show

    def as_dict(self, lang: str = "en") -> dict:
        return {"file": self.file, "line": self.line, "path": self.path, "kind": self.kind,
                "message": self.text(lang)}


def field_path(path: tuple) -> str:
    """("metadata", "labels", "nvidia.com/mig.config") → 'metadata.labels["nvidia.com/mig.config"]'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part) or any(c in str(part) for c in './[] "'):
            out += f"[{json.dumps(str(part), ensure_ascii=False)}]"
        else:
            out += f".{part}" if out else str(part)
    return out


class Where:
    """Where a field stands: file, document (1-based), field path as shown, line — resolved when read."""

    __slots__ = ("doc", "at", "_fixed")

    def __init__(self, doc: Doc | None, at: tuple = (), fixed: dict | None = None):
        self.doc = doc
        self.at = tuple(at)
        self._fixed = fixed

    @classmethod
    def nowhere(cls) -> Where:
        return cls(None, fixed={"file": "", "document": 0, "path": "", "line": None})

    def as_dict(self) -> dict:
        if self._fixed is not None:
            return dict(self._fixed)
        d = self.doc
        out = {"file": d.file_of(self.at), "document": d.document_of(self.at), "path": d.shown(self.at), "line": d.line(self.at)}
        if out["file"] != d.file:  # the value comes from a Kustomize patch: the object it patches is named too
            out["patches"] = {"file": d.file, "line": d.base_line(self.at)}
        elif d.patched:
            out["patches"] = dict(d.patched)
        return out

    def __getitem__(self, key: str):
        if self._fixed is not None:
            return self._fixed[key]
        d = self.doc
        if key == "file":
            return d.file_of(self.at)
        if key == "document":
            return d.document_of(self.at)
        if key == "line":
            return d.line(self.at)
        if key == "path":
            return d.shown(self.at)
        raise KeyError(key)

    def get(self, key: str, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __eq__(self, other) -> bool:
        if isinstance(other, Where):
            other = other.as_dict()
        return isinstance(other, dict) and self.as_dict() == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Where({self.as_dict()!r})"


@dataclass(eq=False)
class Doc:
    """One parsed document, or a part of one (`root` is the path of `data` inside the document's `top`).

    `prefix` shows where an embedded text stands in its outer document ("data.any"); `line_offset` is added
    to the lines of an embedded text (None where its lines cannot be mapped: then `outer_line` is used).
    """

    file: str
    index: int
    data: Any
    lines: Any = None  # yamlread.YamlLines | jsonread.JsonLines | None
    top: Any = None
    root: tuple = ()
    prefix: str = ""
    line_offset: int | None = 0
    outer_line: int | None = None
    partial: bool = False  # a Kustomize patch read without its target: what it leaves out is unknown
    #: fields a Kustomize patch wrote: (id(container), key) → (container, patch Doc, the key's path in the patch)
    origins: dict | None = None
    #: an embedded text a Kustomize patch wrote: {file, line} of the object it patches
    patched: dict | None = None

    def __post_init__(self):
        if self.top is None and not self.root:
            self.top = self.data

    def source_of(self, path: tuple = ()) -> tuple[Doc, tuple]:
        """The document that wrote the field at `path` and the field's path there: a Kustomize patch (the deepest
        one along the path) where one set it, else this document and `path`."""
        if not self.origins:
            return self, tuple(path)
        full = self.root + tuple(path)
        found = None
        node = self.top
        for n, part in enumerate(full):
            o = self.origins.get((id(node), part))
            if o is not None and o[0] is node:
                found = (o[1], o[2] + full[n + 1:])
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
        if found is None:
            return self, tuple(path)
        return found

    def file_of(self, path: tuple = ()) -> str:
        """The file the user edits to change the field at `path` (a Kustomize patch's where one set it)."""
        src, at = self.source_of(path)
        return self.file if src is self else src.file_of(at)

    def document_of(self, path: tuple = ()) -> int:
        src, at = self.source_of(path)
        return self.index if src is self else src.document_of(at)

    def line(self, path: tuple = ()) -> int | None:
        """Line of a field path (or of its nearest parent that has one), in `file_of(path)`."""
        src, at = self.source_of(path)
        return self.base_line(path) if src is self else src.line(at)

    def base_line(self, path: tuple = ()) -> int | None:
        """Line of a field path in this document's own file (for a patched field: of the nearest field the file
        holds)."""
        if self.line_offset is None or self.lines is None:
            return self.outer_line
        found = self.lines.line(self.top, self.root + tuple(path))
        return None if found is None else found + self.line_offset

    def style(self, path: tuple) -> str | None:
        """'|' or '>' where the value at `path` is a YAML block scalar."""
        src, at = self.source_of(path)
        if src is not self:
            return src.style(at)
        return self.lines.style(self.top, self.root + tuple(path)) if self.lines is not None else None

    def shown(self, path: tuple = ()) -> str:
        parts = [self.prefix, field_path(self.root), field_path(tuple(path))]
        return " → ".join(p for p in parts if p)

    def where(self, path: tuple = ()) -> Where:
        """Where a field stands (its line is looked up only when shown)."""
        return Where(self, path)

    def get(self, *path, default=None):
        """The value at a field path, or `default` where a part is missing or of the wrong type."""
        node = self.data
        for part in path:
            if isinstance(node, dict):
                if part not in node:
                    return default
                node = node[part]
            elif isinstance(part, int) and isinstance(node, list) and -len(node) <= part < len(node):
                node = node[part]
            else:
                return default
        return node

    def sub(self, path: tuple) -> Doc:
        """The same document seen from a sub-tree (e.g. one item of a `kind: List`)."""
        return Doc(self.file, self.index, self.get(*path), self.lines, self.top, self.root + tuple(path),
                   self.prefix, self.line_offset, self.outer_line, self.partial, self.origins, self.patched)


def _problem(file: str, line, message: Text, kind: str = "yaml", path: str = "") -> InputProblem:
    return InputProblem(file, line, path, message, kind)


def _yaml_error(file: str, exc: yaml.YAMLError) -> InputProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark else None
    msg = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    ctx = getattr(exc, "context", None)
    detail = msg + (f" ({ctx})" if ctx else "")
    return _problem(file, line, Text(f"not valid YAML: {detail}", f"kein gültiges YAML (der Parser meldet: {quoted(detail, 'de')})"))


def _json(text: str, file: str) -> tuple[list[Doc], list[InputProblem]]:
    try:
        data, lines, dups = jsonread.loads(text)
    except (ValueError, RecursionError) as exc:
        detail = str(exc) if not isinstance(exc, RecursionError) else "nested too deeply"
        return [], [_problem(file, getattr(exc, "lineno", None), Text(f"not valid JSON: {detail}", f"kein gültiges JSON (der Parser meldet: {quoted(detail, 'de')})"), "json")]
    if dups:
        key = dups[0]
        return [], [_problem(file, lines.key_line(key), Text(f"duplicate key {key!r}: Kubernetes rejects this, and JSON "
                             "readers would silently keep only one value", f"doppelter Schlüssel {key!r}: Kubernetes lehnt das ab, und JSON-Leser behielten "
                             "stillschweigend nur einen Wert"), "json")]
    return [Doc(file, 1, data, lines)], []


def looks_like_json(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")


def parse_text(text: str, file: str) -> tuple[list[Doc], list[InputProblem]]:
    """All documents of one text. Empty documents are skipped; positions count every document.

    A document with a problem (duplicate key, alias bomb, bad value) is left out and named; the documents
    before a syntax error are kept (libyaml stops there)."""
    if looks_like_json(text):
        docs, problems = _json(text.lstrip("\ufeff"), file)
        if not problems:
            return docs, problems
        ydocs, yproblems = _yaml(text, file)
        return (ydocs, yproblems) if not yproblems else (docs, problems)
    return _yaml(text, file)


def _yaml(text: str, file: str) -> tuple[list[Doc], list[InputProblem]]:
    problems: list[InputProblem] = []
    docs: list[Doc] = []
    possible = yamlread.aliases_possible(text)
    try:
        for i, node in enumerate(yamlread.compose_all(text), start=1):
            if node is None:
                continue
            lines = yamlread.YamlLines(node.start_mark.line + 1)
            builder = yamlread.Builder(lines, possible)
            try:
                data = builder.build(node)
            except yamlread.AliasBomb as exc:
                problems.append(InputProblem(file, node.start_mark.line + 1, "",
                                             Text("not read: ", "nicht gelesen: ") + exc.text))
                continue
            except RecursionError:
                problems.append(_problem(file, node.start_mark.line + 1, Text("not read: nested too deeply", "nicht gelesen: zu tief verschachtelt")))
                continue
            if builder.duplicates:
                path, line, first = builder.duplicates[0]
                key = path[-1]
                problems.append(_problem(
                    file, line, Text(f"duplicate key {key!r} (first at line {first}): Kubernetes rejects this, and YAML "
                    "readers would silently keep only one value", f"doppelter Schlüssel {key!r} (zuerst in Zeile {first}): Kubernetes lehnt das ab, und YAML-Leser "
                    "behielten stillschweigend nur einen Wert"), path=field_path(path)))
                continue
            if data is None:
                continue
            docs.append(Doc(file, i, data, lines))
    except yaml.YAMLError as exc:
        problems.append(_yaml_error(file, exc))
    except (ValueError, TypeError, RecursionError) as exc:  # e.g. a scalar libyaml accepts but no constructor can read
        problems.append(_problem(file, None, Text(f"not valid YAML: {exc}", f"kein gültiges YAML (der Parser meldet: {quoted(str(exc), 'de')})")))
    return docs, problems


def parse_embedded(outer: Doc, path: tuple, text: str) -> tuple[Doc | None, Text | None]:
    """A YAML text stored in a string field (a ConfigMap value). Returns (doc, None) or (None, error).

    Lines of a block scalar (`|`, `>`) map back to the file; other strings point at their key's line.
    """
    src, at = outer.source_of(path)  # a value a Kustomize patch wrote maps to the patch's lines
    key_line = src.line(at)
    block = src.style(at) in ("|", ">")
    offset = key_line if (block and key_line is not None and src.line_offset is not None) else None
    file = src.file_of(at)
    docs, problems = parse_text(text, file)
    prefix = outer.shown(path)
    if problems:
        p = problems[0]
        line = p.line + offset if (p.line and offset is not None) else None
        return None, p.text.map(lambda s, lang: s + (f" ({Text('line', 'Zeile')(lang)} {line})" if line else ""))
    if not docs:
        return None, Text("empty", "leer")
    d = docs[0]
    patched = outer.patched or ({"file": outer.file, "line": outer.base_line(path)} if src is not outer else None)
    return Doc(file, src.document_of(at), d.data, d.lines, d.top, d.root, prefix=prefix,
               line_offset=offset if offset is not None else None, outer_line=key_line, patched=patched), None
