"""Text from outside (manifests, file names, upstream documents) made safe to print on a terminal.

A ConfigMap named "\\x1b[2J\\x1b[H…" would clear the screen and could hide an error line; an OSC sequence
could set the window title or write a hyperlink; a bidi override could reorder what is shown (Trojan Source).
`safe(text)` shows every such character as a visible escape: C0 controls except newline and tab as `\\xNN`
(ESC as `\\x1b`), DEL and the C1 controls (U+0080–U+009F, which some terminals also obey) as `\\u0080`…,
bidi controls and other invisible format characters as `\\u202e`… Newlines are kept where `keep_newlines`
(for whole reports whose lines we wrote); inside one field they are shown as `\\n` too.

`safe_json(text)` does the same for a JSON document: JSON escapes C0 controls itself, but not DEL, C1 or
bidi characters when written with ensure_ascii=False.
"""

from __future__ import annotations

import re

#: C0 controls but \t and \n, DEL, C1, bidi embeddings/overrides/isolates, LRM/RLM/ALM, line/paragraph
#: separators, zero-width and other invisible format characters
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")
_UNSAFE_FIELD = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")


def _escape(m: re.Match) -> str:
    c = m.group(0)
    code = ord(c)
    if c == "\n":
        return "\\n"
    if c == "\r":
        return "\\r"
    if code < 0x20:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def safe(text: str, *, keep_newlines: bool = True) -> str:
    """`text` with every control or invisible format character shown as an escape (see the module doc)."""
    pattern = _UNSAFE if keep_newlines else _UNSAFE_FIELD
    return pattern.sub(_escape, text)


def safe_json(text: str) -> str:
    """A JSON document with DEL, C1 and bidi/format characters written as \\u escapes (still the same JSON)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
