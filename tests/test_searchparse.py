"""kb/site/searchparse.py: the search plugin's sections read by FastParser are material's own.

Compared with material's Parser on the hand-written pages (as Markdown and our page hook make them) and on HTML
that exercises what the parser decides: headings with and without ids, nesting, excluded blocks, kept tags
emptied, pre, permalinks, entities, and the markup FastParser leaves to HTMLParser."""

from __future__ import annotations

import pytest
from material.plugins.search.plugin import Parser, SearchIndex

from kb import docs_hooks
from kb.site import searchparse
from site_markdown import hand_written_pages, site_markdown

SAMPLES = [
    "",
    "plain text &amp; more &lt;b&gt; &#x26; &copy",
    "<p>Preface</p><h2 id='a'>Title <a class=\"headerlink\" href=\"#a\">¶</a></h2><p>Text <code>x</code></p>",
    "<h1>No id</h1><p>a</p><h3 id=\"deep\">Deep</h3><ul><li>one</li><li> </li></ul><p><sup></sup></p>",
    "<div class=\"footnote\" data-search-exclude><ol><li>note <sup>1</sup></li></ol></div><p>after</p>",
    "<div data-search-exclude><div>inner</div><p>still out</p></div><div>back in</div>",
    "<table class=\"linenodiv\"><tr><td>1</td></tr></table><div class=\"linenodiv\">2</div><p>x</p>",
    "<pre><code>line 1\n\n  line 2\n</code></pre><p>a\nb</p><p>  \n  </p>",
    "<pre>x<b>\n</b>\n  </pre><p>y<b> </b> </p>",  # white space after white space: kept in pre only
    "<details><summary>S</summary><h2 id=\"in\">Inside</h2><p>t</p></details><p>out</p><h2 id=\"b\">B</h2>",
    "<p>a<br>b<br/>c<br />d<img src=\"x.png\" alt=\"a &amp; b\"/><p/>e</p>",
    "<P CLASS='Up'>Upper <B>case</B></P><h2 ID=\"x\" data-x=''>H</h2>",
    "<h2 id=\"a&amp;b\" title='&quot;q&quot;'>Entities in attributes</h2><p>t</p>",
    "<div class=\"linenod&#105;v\">escaped linenodiv</div><p>y</p><DIV DATA-SEARCH-EXCLUDE>upper</DIV><p>z</p>",
    "<span class=\"x\" id=\"s\">attributes of other tags</span><table><tr><td class=\"linenodiv\">1</td></tr></table>",
    "<h2 id=\"t\"><sup>1</sup> title <code>c</code></h2><p>body</p></h2></p>",
    # left to HTMLParser: comments, scripts, a bare '<', unquoted values, a Unicode space inside a tag
    "<!-- c --><p>a</p>", "<script>if (a < b) {}</script><p>x</p>", "<p>a < b</p>", "<p class=x>y</p>",
    "<style>p{}</style><h2 id=\"s\">S</h2>", "<span\u202fclass=\"x\">nnbsp</span>", "<p>&</p>", "<p>x</p><",
]


def _sections(parser_class, html: str):
    parser = parser_class()
    parser.feed(html)
    parser.close()
    return [(s.el.tag, s.el.attrs, s.depth, s.id, s.title, s.text, s.is_excluded()) for s in parser.data]


@pytest.mark.parametrize("html", SAMPLES)
def test_same_sections_as_material(html):
    assert _sections(searchparse.FastParser, html) == _sections(Parser, html)


def test_plain_markup_is_read_without_htmlparser():
    assert searchparse._plain(SAMPLES[2]) is not None
    assert searchparse._plain("<p class=x>y</p>") is None
    assert searchparse._plain("<script>x</script>") is None


def test_same_sections_on_the_hand_written_pages():
    md = site_markdown()
    pages = hand_written_pages()
    assert len(pages) >= 10
    fast = 0
    for path in pages:
        md.reset()
        html = docs_hooks.on_page_content(md.convert(path.read_text(encoding="utf-8")), None, None, None)
        fast += searchparse._plain(html) is not None
        assert _sections(searchparse.FastParser, html) == _sections(Parser, html), path
    assert fast >= len(pages) // 2  # most pages are read without HTMLParser


def test_install_replaces_only_materials_index():
    class Plugin:
        search_index = SearchIndex()

    class Other:
        search_index = object()

    class Config:
        plugins = {"material/search": Plugin(), "other": Other()}

    assert searchparse.install(Config) is True
    assert type(Config.plugins["material/search"].search_index) is searchparse.FastSearchIndex
    assert searchparse.install(type("C", (), {"plugins": {"other": Other()}})) is False
