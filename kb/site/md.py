"""Markdown building blocks. Catalog text is always escaped: it is shown as text, never as HTML."""

from __future__ import annotations

import re

# Characters that Markdown (or HTML inside Markdown) would interpret. `&`, `<`, `>` become entities;
# the others get a backslash, which Python-Markdown turns back into the literal character.
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_BACKSLASHED = set("\\`*_[]{}|#!+")
_ESCAPED = str.maketrans({**_ENTITIES, **{ch: "\\" + ch for ch in _BACKSLASHED}})
_WS = re.compile(r"\s+")
_NUMBERED = re.compile(r"^(\d+)\.(\s)")


def esc(text: object) -> str:
    """Catalog text as inline Markdown that renders to exactly that text (one line)."""
    text = " ".join(str(text).split()).translate(_ESCAPED)  # a page generation calls this ~18,000 times
    # never let the text start a block (list item, numbered list) where it begins a line
    if text.startswith("-"):
        text = "\\" + text
    return _NUMBERED.sub(r"\1\\.\2", text)


def code(text: object) -> str:
    """Inline code for identifiers (resource names, keys, versions). Backticks inside are impossible."""
    s = _WS.sub(" ", str(text)).strip()
    if "`" in s:
        return esc(s)
    return f"`{s}`"


def pick(text: dict | None, lang: str) -> str:
    """The `lang` side of a bilingual text ({en, de}); empty for None."""
    if not text:
        return ""
    return text[lang]


#: the scheme of an absolute URL ("https:", "javascript:"); a relative link ("cards/h200.md", "#a") has none
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def link(label: str, url: str | None) -> str:
    """A link whose label is already Markdown; `url` must not contain spaces or parentheses. Without an address
    (unset in publication.toml) the label alone: nothing is linked to a placeholder."""
    if not url:
        return label
    if re.search(r"[\s()<>]", url) or (_SCHEME.match(url) and not url.lower().startswith(("https://", "http://"))):
        raise ValueError(f"URL not usable in a Markdown link: {url!r}")  # a javascript: or data: link runs script
    return f"[{label}]({url})"


def quote_html(text: object, lang: str | None = None) -> str:
    """A source's own words (escaped) marked as a quote: the house-style checks of the built site read our words,
    not NVIDIA's (a quote may name a flag or a field NVIDIA's way). `lang`: the quote's language where it is not
    the page's (a German quote on an English page), for screen readers and hyphenation."""
    lang_attr = f' lang="{esc(lang)}"' if lang else ""
    return f'<span class="gpukb-quote"{lang_attr}>{esc(text)}</span>'


def translation_html(text: object) -> str:
    """Our English translation of a German quote (escaped), marked apart from the quote: it is our text."""
    return f'<span class="gpukb-translation">{esc(text)}</span>'


def link_or_text(label: str, url: str | None) -> str:
    """A link where the address is known, else the label alone (an unset address is never linked)."""
    return link(label, url) if url else label


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A pipe table; cells are Markdown already (escape catalog text with `esc`)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def slug(text: str) -> str:
    """An anchor id from an identifier: lower case, runs of other characters become '-'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
