"""Safe YAML reading that keeps line numbers, rejects duplicate keys and remembers the raw text of scalars."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.text import Text
from kb.wording import quoted

#: A file expanding to more values than this is refused: YAML aliases can make a 1 KB file expand to
#: billions of values ("billion laughs"); the largest file of the real catalog has about a thousand.
MAX_VALUES = 50_000


@dataclass
class Problem:
    """One thing wrong with the input, located as precisely as we can. `message` is a Text (a str for
    words that are the same in both languages)."""

    file: str
    line: int | None
    path: str
    message: Text | str
    kind: str = "schema"

    def text(self, lang: str = "en") -> str:
        """'file:line: path: message' in `lang`."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path + ': ' if self.path else ''}{Text.of(self.message)(lang)}"

    def __str__(self) -> str:
        return self.text("en")

    def as_dict(self) -> dict:
        """{file, line, path, kind, message}; `message` stays a Text (kb.text.pick gives one language)."""
        return {"file": self.file, "line": self.line, "path": self.path, "kind": self.kind, "message": self.message}


def parser_said(what: Text, detail: str) -> Text:
    """A message of a parser (PyYAML, pydantic: English only) wrapped in a sentence of each language."""
    return Text(f"{what.en}: {detail}", f"{what.de} (der Parser meldet: {quoted(detail, 'de')})")


@dataclass
class Document:
    """A parsed YAML file: its data and, per field path, the line and raw text of its value."""

    file: str
    data: Any
    lines: dict = field(default_factory=dict)
    raw: dict = field(default_factory=dict)

    def line_of(self, path: tuple) -> int | None:
        """Line of a field path, or of its nearest parent that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)


def dotted(path: tuple) -> str:
    """("mig", "profiles", 0, "name") → "mig.profiles[0].name"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _TooBig(Exception):
    pass


#: the default tags of a mapping and a sequence (another tag: yaml.safe_load builds another type, a set or pairs)
_PLAIN_TAGS = frozenset({"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"})


class _Builder:
    def __init__(self, file: str):
        self.doc = Document(file=file, data=None)
        self.constructor = yaml.SafeLoader("")
        self.problems: list[Problem] = []
        self.budget = MAX_VALUES
        # whether the data is what yaml.safe_load makes of the text: no key made a str, no merge key ("<<"), no
        # collection of another tag (a problem aside: duplicate keys are reported, the catalog refused)
        self.plain = True

    def build(self, node: yaml.Node, path: tuple) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise _TooBig
        self.doc.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            if node.tag not in _PLAIN_TAGS:
                self.plain = False
            out: dict = {}
            for key_node, value_node in node.value:
                key = self.constructor.construct_object(key_node, deep=True)
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.plain = False
                if not isinstance(key, (str, int)):
                    self.plain = False
                    key = str(key)
                if key in out:
                    first = self.doc.lines.get(path + (key,))
                    self.problems.append(Problem(
                        self.doc.file, key_node.start_mark.line + 1, dotted(path + (key,)),
                        Text(f"duplicate key {key!r} (first at line {first}); YAML would silently keep only the last",
                             f"doppelter Schlüssel {key!r} (zuerst in Zeile {first}); YAML behielte stillschweigend "
                             "nur den letzten"),
                        kind="duplicate"))
                    continue
                out[key] = self.build(value_node, path + (key,))
                self.doc.lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(node, yaml.SequenceNode):
            if node.tag not in _PLAIN_TAGS:
                self.plain = False
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        self.doc.raw[path] = node.value
        return self.constructor.construct_object(node, deep=True)


NOT_YAML = Text("not valid YAML", "kein gültiges YAML")


def _libyaml_first(step, text: str):
    """`step` (yaml.compose or yaml.load) with libyaml where PyYAML has it (10–14× faster on the catalog, the
    same values: the scanner and parser in C, the same resolver and safe constructor); a file libyaml refuses
    is read again in pure Python, whose error (wording, line) is the one reported."""
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return step(text, Loader=fast)
        except yaml.YAMLError:
            pass
    return step(text, Loader=yaml.SafeLoader)


def _compose(text: str) -> yaml.Node | None:
    """The node tree (see _libyaml_first)."""
    return _libyaml_first(yaml.compose, text)


def safe_load(text: str):
    """yaml.safe_load's values, read by libyaml where PyYAML has it (see _libyaml_first); no line numbers, no
    duplicate-key check (read_yaml has them): for files the catalog's validation has read already."""
    return _libyaml_first(yaml.load, text)


#: while `keeping` (the site build's generation): file text → the data read_yaml made of it, where that is what
#: yaml.safe_load makes of it (`_Builder.plain`, no problem); `already_read` hands it out once
_KEPT: dict[str, Any] | None = None


class keeping:
    """Within it, read_yaml keeps what it read (text → data) for a later reader of the same file in the same process
    (`already_read`): the site build compiles the catalog from nothing and then reads every file again for the
    changes page's facts (kb.site.changes.catalog_facts). Forgotten on leaving it."""

    def __enter__(self):
        global _KEPT
        self.outer = _KEPT
        if _KEPT is None:
            _KEPT = {}
        return self

    def __exit__(self, *exc):
        global _KEPT
        _KEPT = self.outer
        return False


def already_read(text: str):
    """What read_yaml read from exactly this text while `keeping` — equal to yaml.safe_load(text) and shared with
    the catalog's Document: read it, never change it —, handed out once; None where it was not kept."""
    return _KEPT.pop(text, None) if _KEPT else None


def read_yaml(path: Path, display: str | None = None, data: bytes | None = None) -> tuple[Document | None, list[Problem]]:
    """Parse one YAML file (one document) — from `data`, the bytes already read, where given (so what is
    hashed is what is parsed). Returns the document, or None with the problems."""
    name = display or str(path)
    try:
        text = (Path(path).read_bytes() if data is None else data).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return None, [Problem(name, None, "", parser_said(Text("cannot read file", "Datei nicht lesbar"), why), kind="io")]
    try:
        node = _compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        msg = getattr(exc, "problem", None) or str(exc)
        return None, [Problem(name, line, "", parser_said(NOT_YAML, msg), kind="yaml")]
    if node is None:
        return None, [Problem(name, 1, "", Text("file is empty", "Datei ist leer"), kind="yaml")]
    builder = _Builder(name)
    try:
        builder.doc.data = builder.build(node, ())
    except _TooBig:
        return None, [Problem(name, None, "", Text(
            f"more than {MAX_VALUES} values (aliases expanding without end?): not read",
            f"mehr als {MAX_VALUES} Werte (Aliasse, die sich ohne Ende entfalten?): nicht gelesen"), kind="yaml")]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return None, [Problem(name, mark.line + 1 if mark else None, "", parser_said(NOT_YAML, str(exc)), kind="yaml")]
    if _KEPT is not None and builder.plain and not builder.problems:
        _KEPT[text] = builder.doc.data
    return builder.doc, builder.problems
