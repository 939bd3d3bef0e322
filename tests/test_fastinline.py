"""kb/site/fastinline.py: Python-Markdown's inline pass with less overhead gives the same HTML as the original.

Compared on the hand-written pages of docs/ and on texts that exercise every inline pattern, their nesting and
the matches a pattern's expression finds but its handler rejects."""

from __future__ import annotations

import pytest

from kb.site import fastinline
from site_markdown import convert, hand_written_pages, site_markdown

SAMPLES = [
    "plain words only, 24 GB and 580.65.06",
    "`code` and ``a `tick` inside`` and \\`escaped\\` and \\\\`after backslashes`",
    "*em* **strong** ***both*** _em_ __strong__ snake_case_name a * b * c 2*3*4 **unclosed",
    "[link](https://example.org \"title\") ![img](a.png) [ref][r] [r] ![iref][r] [not a link] [^1] [^missing]",
    "<https://example.org/x> <mail@example.org> <span class=\"x\">*html*</span> a < b > c <!-- note -->",
    "&amp; &#38; &#x26; &copy; & alone &unknown; AT&T",
    "line one  \nline two\\\nthree",
    "| a | `b|c` | [^1] |\n|---|---|---|\n| *x* | <br> | **y** `z` |",
    "- item *one* [link](x)\n    - nested `code` **b**\n\n> quote _q_ &amp;\n\nTerm\n:   def *d*",
    "!!! note \"Title *t*\"\n    body `c` [^1]\n\n??? info\n    details **b**",
    "{ .cls }\n\nA paragraph {: #id .c } with *attr*\n\n## Heading *h* {: #h2 }",
    "<div markdown>\n*inside* `html` [x](y)\n</div>",
    "*a **b** c* **a *b* c** _a __b__ c_ ***a** b* `a *b* c` [a *b* `c`](d) [`x`][r]",
    "\\* \\_ \\[ \\] \\< \\& \\! ![](empty) [](empty) [x]() <a href=\"x\">[y](z)</a>",
    # one pattern's character alone in a text
    "only `code`", "only \\*", "only [x](y)", "only ![a](b)", "only <b>bold</b>", "only <https://x.org>",
    # matches of a pattern handled all at once: in a row, rejected between accepted ones, inside each other
    "<b>x</b><i>y</i>\\*\\a\\_ [^1][^missing][^1] <span class=\"a\">`c` \\` [^1]</span><br/>[x](<b>)",
    "only <m@x.org>", "only &copy;", "only a  \nbreak", "only *em*", "only _em_", "only [^1]", "only [r]",
]
REFS = "\n\n[r]: https://example.org/r\n*[GB]: Gigabyte\n[^1]: a note with *em* and `code`"


def _convert(texts: list[str], fast: bool) -> list[str]:
    return convert(texts, () if fast else ("kb.site.fastinline",))


def test_the_site_uses_it():
    md = site_markdown()
    assert type(md.treeprocessors["inline"]) is fastinline.FastInlineProcessor


@pytest.mark.parametrize("text", SAMPLES)
def test_same_html_as_python_markdown(text):
    fast, plain = _convert([text + REFS], True), _convert([text + REFS], False)
    assert fast == plain
    assert "<" in fast[0]


def test_same_html_on_the_hand_written_pages():
    pages = hand_written_pages()
    assert len(pages) >= 10
    texts = [p.read_text(encoding="utf-8") for p in pages]
    assert _convert(texts, True) == _convert(texts, False)


def test_every_pattern_of_the_site_has_known_needs():
    """Where a pattern's needed characters are not known the text skip is off (still correct, slower): this
    fails when an extension or a Python-Markdown upgrade brings a pattern the table does not know."""
    md = site_markdown()
    patterns = list(md.inlinePatterns)
    unknown = [type(p).__name__ for p in patterns if fastinline.required(p) is None]
    assert unknown == []
    assert len(patterns) >= 10


def test_the_patterns_handled_all_at_once_are_the_sites():
    """Each pattern `_all_matches` handles is in the site's Markdown with the expression it was checked for (else
    it silently goes the slow way)."""
    md = site_markdown()
    active = {type(p) for p in md.inlinePatterns
              if fastinline._ALL_AT_ONCE.get(type(p)) == getattr(p, "pattern", None)}
    assert active == set(fastinline._ALL_AT_ONCE)
