"""The page hook's text passes (kb/docs_hooks.py): units and footnote marks, found without visiting every part
of a page — the same result as the definitions they replace (an expression per text part)."""

from __future__ import annotations

import re

import pytest

from kb import docs_hooks
from kb.style import tighten_units

N = "\u202f"


def _by_parts(html: str) -> str:
    """The definition: kb.style.tighten_units on each text part between tags and code/pre/script/style elements."""
    parts = docs_hooks._CODE_OR_TAG.split(html)
    return "".join(tighten_units(p) if i % 3 == 0 else (p if i % 3 == 1 else "") for i, p in enumerate(parts))


UNITS = [
    ("<p>24 GB and 1.5 GHz, 300 W</p>", f"<p>24{N}GB and 1.5{N}GHz, 300{N}W</p>"),
    ('<p title="24 GB">24 GB</p>', f'<p title="24 GB">24{N}GB</p>'),
    ("<code>24 GB</code> 24 GB <pre><code>8 GB</code></pre>", f"<code>24 GB</code> 24{N}GB <pre><code>8 GB</code></pre>"),
    ("<script>var a = '2 GB';</script><p>v1.2 GB a24 GB +3 W -3 W 12 GBs</p>",
     "<script>var a = '2 GB';</script><p>v1.2 GB a24 GB +3 W -3 W 12 GBs</p>"),
    ("24 GB<br>48 GB", f"24{N}GB<br>48{N}GB"),
    ("no unit at all", "no unit at all"),
    ("<b>3</b> W (2,5 GHz)", f"<b>3</b> W (2,5{N}GHz)"),
]


@pytest.mark.parametrize("html,expected", UNITS)
def test_units_in_the_text_only(html, expected):
    assert docs_hooks.tighten_units_html(html) == expected == _by_parts(html)


MARKS = [
    '575.51.03<sup id="fnref:1">x</sup>',
    '<code>575.51.03</code><span class="gpukb-fnrefs"><sup id="fnref:2">y</sup></span>',
    '<a href="#"><strong>12</strong></a><sup id="fnref2:1">z</sup> and word<sup id="fnref:3">w</sup>',
    '1<span class="gpukb-fnrefs"><sup id="fnref:1">1</sup><sup class="gpukb-fnsep">,</sup><sup id="fnref:2">2</sup></span>',
    '5</sup><sup id="fnref:4">no: a closing sup is not a closer</sup>',
    '\u0665<sup id="fnref:5">an Arabic-Indic digit is a digit</sup>',
    '<sup id="fnref:6">at the start</sup>',
    "7</em></code></span>" + '<sup id="fnref:7">',
]


@pytest.mark.parametrize("html", MARKS)
def test_marks_after_a_number_as_the_expression_says(html):
    assert docs_hooks.set_off_marks(html) == docs_hooks._GLUED_MARK.sub("\\1\u202f\\2", html)


def test_marks_set_off():
    assert docs_hooks.set_off_marks(MARKS[0]) == f'575.51.03{N}<sup id="fnref:1">x</sup>'
    assert docs_hooks.set_off_marks(MARKS[6]) == MARKS[6]


def test_long_code_found_outside_pre_only():
    long = "sharing.timeSlicing.failRequestsGreaterThanOne"
    html = f"<pre><code>{long}</code></pre><p><code>{long}</code></p>"
    out = docs_hooks._LONG_CODE.sub(docs_hooks._breakable, html)
    assert out.startswith(f"<pre><code>{long}</code></pre>")
    assert '<code class="gpukb-key">sharing.<wbr>timeSlicing.<wbr>' in out
    assert out == re.compile(r"(?<!<pre>)<code>([^<]{30,})</code>").sub(docs_hooks._breakable, html)
