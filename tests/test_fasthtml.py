"""kb/site/fasthtml.py: the anchors mkdocs collects from a page's raw HTML, collected by md_in_html's parse instead of
a parse of its own, are mkdocs' own, and the HTML is the same.

Compared on every hand-written page, one page of each kind of generated page (tests/fixtures/site-expected) and texts
with anchors in every kind of tag, and the texts on which the two parsers differ (left to mkdocs' own pass)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.pages import _RawHTMLPreprocessor

from kb.site import fasthtml
from site_markdown import hand_written_pages, site_markdown

EXPECTED = Path(__file__).resolve().parent / "fixtures" / "site-expected"

SAMPLES = [
    '<span id="s">inline</span> and <a name="n">a name</a>, <div name="not-an-anchor">x</div>\n',
    '<div id="block">\n<p id="inner">text</p>\n</div>\n\nafter <SPAN ID="Upper">u</SPAN> <a NAME="N2">x</a>\n',
    '<hr id="rule">\n\n<hr id>\n\ntext <br id="br"/> <img id=\'img\' src="x.png" /> <span id/>\n',
    '<div markdown="1" id="md">\n*x* <span id="in-md">y</span>\n\n<hr id="hr-md">\n</div>\n',
    '| a | b |\n|---|---|\n| <span id="cell" data-x="1">c</span> | `<span id="code">` |\n',
    '<p id="a&amp;b" class="x">entity in a value</p> &amp; &copy; AT&T <b>bold</b> </> </ x> a < b\n',
    "```\n<span id=\"fenced\">in a fence</span>\n```\n\n<details id=\"d\"><summary>S</summary>t</details>\n",
    # left to mkdocs' own pass (the parsers differ on these)
    'text <? pi <span id="pi"> ?> <span id="after-pi">x</span>\n',
    'text <!-- <span id="commented"> --> <span id="after">x</span>\n',
    '&#38; &#x26; &#xZZ; <span id="after-ref">x</span>\n',
    'a <script>var s = "<span id=\'js\'>";</script> <span id="after-script">x</span>\n',
    "",
]


def _anchors(text: str, without: tuple[str, ...] = ()) -> tuple[set, bool, str]:
    """The anchors as the site's Markdown (less `without`) collects them with mkdocs' pass registered (as mkdocs
    does for a page), whether that pass was left out, and the HTML."""
    md = site_markdown(without)
    mkdocs_pass = _RawHTMLPreprocessor()
    mkdocs_pass._register(md)
    html = md.convert(text)
    return mkdocs_pass.present_anchor_ids, "run" in vars(mkdocs_pass), html


def test_same_anchors_and_html_on_the_pages_and_samples():
    pages = [p.read_text(encoding="utf-8") for p in hand_written_pages() + sorted(EXPECTED.rglob("*.md"))]
    assert len(pages) >= 40
    texts = SAMPLES + pages
    taken = 0
    for text in texts:
        anchors, left_out, html = _anchors(text)
        mkdocs_anchors, mkdocs_left_out, mkdocs_html = _anchors(text, ("kb.site.fasthtml",))  # mkdocs' own pass
        assert not mkdocs_left_out
        assert anchors == mkdocs_anchors, text[:200]
        assert html == mkdocs_html, text[:200]
        taken += left_out
    assert taken >= len(texts) - 8  # mkdocs' own pass left out on all but the texts the parsers differ on
    assert _anchors(SAMPLES[2])[0] == {"rule", None, "br", "img"}


def test_texts_the_parsers_differ_on_keep_mkdocs_pass():
    for text in SAMPLES[7:11]:
        assert fasthtml._DIFFERS.search(text)
        assert not _anchors(text)[1]
    for text in SAMPLES[:7]:
        assert _anchors(text)[1]


def test_the_site_uses_it():
    md = site_markdown()
    assert type(md.preprocessors["html_block"]) is fasthtml._HtmlBlock
