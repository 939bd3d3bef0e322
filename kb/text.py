"""Bilingual text: the one type for every user-facing string (answers, labels, findings, drift
reports, site pages). No `(en, de)` tuples, no `t(lang, en, de)` helpers, no translating English by
string replacement: build a `Text(en, de)` where the words are written, pick a language at the edge.

`Text` is a dict `{"en": …, "de": …}`, so answers and findings stay plain JSON as they are; a dict
read back from JSON becomes a Text again with `Text.of(value)`.

    >>> t = Text("{n} GPUs", "{n} GPUs")
    >>> t.format(n=2)("de")
    '2 GPUs'
    >>> Text("Card {c} is {v}", "Karte {c} ist {v}").format(c="L4", v=Text("listed", "gelistet")).de
    'Karte L4 ist gelistet'
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

#: the languages of the knowledge base; the first is the fallback
LANGS = ("en", "de")


class Text(dict):
    """A text in English and German. Placeholders filled by `format` may themselves be Texts: each
    language gets its own words."""

    __slots__ = ()

    def __init__(self, en: str, de: str | None = None):
        """`Text(en, de)`; `Text(same)` for words that are equal in both languages (names, versions).
        `Text(pairs)` from (key, value) pairs, as `dict` takes them: copies such as dataclasses.asdict()
        rebuild a dict subclass that way."""
        if de is None and not isinstance(en, str):
            pairs = dict(en)
            en, de = pairs["en"], pairs["de"]
        super().__init__(en=en, de=en if de is None else de)

    # --- reading ----------------------------------------------------------------------------------------
    @property
    def en(self) -> str:
        return self["en"]

    @property
    def de(self) -> str:
        return self["de"]

    def __call__(self, lang: str) -> str:
        """The text in `lang` (English for a language the knowledge base does not have)."""
        return self[lang] if lang in LANGS else self["en"]

    # --- building ---------------------------------------------------------------------------------------
    def format(self, *args: Any, **kwargs: Any) -> "Text":
        """str.format in each language; an argument that is a Text gives each language its own words."""
        if _LEAVES.issuperset(map(type, kwargs.values())) and _LEAVES.issuperset(map(type, args)):  # (no Text)
            return Text(self["en"].format(*args, **kwargs), self["de"].format(*args, **kwargs))
        return Text(*(self[lang].format(*(_in(a, lang) for a in args),
                                        **{k: _in(v, lang) for k, v in kwargs.items()}) for lang in LANGS))

    def map(self, fn: Callable[[str, str], str]) -> "Text":
        """A new Text with fn(text, lang) applied to each language."""
        return Text(fn(self["en"], "en"), fn(self["de"], "de"))

    def __add__(self, other: "Text | str") -> "Text":
        return Text(*(self[lang] + _in(other, lang) for lang in LANGS))

    def __radd__(self, other: str) -> "Text":
        return Text(*(_in(other, lang) + self[lang] for lang in LANGS))

    def __repr__(self) -> str:
        return f"Text({self['en']!r}, {self['de']!r})"

    @classmethod
    def of(cls, value: "Text | dict | str") -> "Text":
        """A Text from a Text, an {en, de} dict (e.g. read back from JSON) or a str equal in both languages."""
        if isinstance(value, Text):
            return value
        if isinstance(value, dict):
            return cls(value["en"], value["de"])
        if isinstance(value, str):
            return cls(value)
        raise TypeError(f"not a text: {value!r}")

    @staticmethod
    def join(separator: "Text | str", items: Iterable["Text | str"]) -> "Text":
        items = list(items)
        return Text(*(_in(separator, lang).join(_in(i, lang) for i in items) for lang in LANGS))

    def __reduce__(self):
        return (Text, (self["en"], self["de"]))

    def __copy__(self) -> "Text":
        return self

    def __deepcopy__(self, memo) -> "Text":
        return self

    # the dict must not change under a Text's readers
    def _frozen(self, *args, **kwargs):
        raise TypeError("a Text is immutable: build a new one")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _frozen  # type: ignore[assignment]


def is_text(value: Any) -> bool:
    """A Text, or a dict of exactly the keys en and de (a Text after a JSON round trip)."""
    return isinstance(value, dict) and len(value) == len(LANGS) and all(k in value for k in LANGS)


#: values pick() returns as they are without looking further (the leaves of JSON-like data)
_LEAVES = frozenset({str, int, float, bool, type(None)})


def pick(value: Any, lang: str) -> Any:
    """`value` with every Text inside it (dicts and lists, any depth) replaced by its words in `lang`. (Leaves are
    taken as they are without a call per leaf: every answer a test or the CLI localises passes through here.)"""
    if type(value) in _LEAVES:
        return value
    if isinstance(value, dict):
        if len(value) == len(LANGS) and all(map(value.__contains__, LANGS)):  # is_text
            return value[lang] if lang in LANGS else value["en"]
        return {k: v if type(v) in _LEAVES else pick(v, lang) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAVES else pick(v, lang) for v in value]
    return value


def _in(value: Any, lang: str) -> Any:
    return value(lang) if isinstance(value, Text) else (value[lang] if is_text(value) else value)
