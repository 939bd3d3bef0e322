"""kb/site/fasttree.py: the tree and footnote steps after the inline pass give the same HTML with less work."""

from __future__ import annotations

from pathlib import Path

import markdown

from site_markdown import convert, extensions, hand_written_pages, with_and_without

EXPECTED = Path(__file__).resolve().parent / "fixtures" / "site-expected"  # one of each kind of generated page

SAMPLES = [
    # a footnote cited many times, before and after others, in a table and a list; one cited once; one never;
    # a reference to a footnote that does not exist
    "| a | b |\n|---|---|\n| x[^s] | y[^t][^s] |\n| z[^s] | w[^nope] |\n\n- [^s] again\n- [^t][^s][^s]\n\n"
    "Text[^u].\n\n[^s]: Source S\n[^t]: Source T\n[^u]: Source U\n[^v]: never cited\n",
    # footnote ids that look like the numbered ids Python-Markdown makes for repeated references
    "a[^fnref2] b[^2] c[^fnref2] d[^2] e[^x:y] f[^x:y]\n\n[^fnref2]: odd id\n[^2]: two\n[^x:y]: colon\n",
    # attribute lists: heading, paragraph's last line, a link's tail, list items, a table cell, none at all
    "## Title { #anchor .cls }\n\nText\n{: .para }\n\n[link](x.md){ .button title=\"T\" }\n\n"
    "- item { .li }\n- item\n    - nested\n\n| h { .th } |\n|---|\n| c { .td } |\n\nbraces \\{ escaped \\} and {not}\n",
    "# Plain page\n\nNo braces, no footnotes, *emphasis*, `code` and <span class=\"x\">html</span> &amp; entities.\n",
    "Escapes: \\* \\_ \\` \\[ \\] \\# \\! \\+ \\| \\\\ in <em>html</em>\n\n```\ncode \\* block\n```\n",
    "",
]


def test_same_html_on_the_samples_and_on_the_hand_written_and_generated_pages():
    pages = [p.read_text(encoding="utf-8") for p in hand_written_pages() + sorted(EXPECTED.rglob("*.md"))]
    assert len(pages) >= 40 and sum("[^" in t for t in pages) >= 20
    fast, original = with_and_without(SAMPLES + pages, "kb.site.fasttree")
    for text, one, other in zip(SAMPLES + pages, fast, original):
        assert one == other, text[:200]


def test_repeated_references_get_numbered_ids_and_back_links():
    html = convert([SAMPLES[0]])[0]
    for ref in ("fnref:s", "fnref2:s", "fnref3:s", "fnref4:s", "fnref5:s", "fnref:t", "fnref2:t"):
        assert f'id="{ref}"' in html and f'href="#{ref}"' in html
    assert html.count('class="footnote-ref"') == 9 and "[^nope]" in html
    assert '<a class="footnote-ref" href="#fn:u">3</a>' in html  # numbered by definition order


def test_the_site_uses_it():
    names, _ = extensions()
    assert names[-1] == "kb.site.fasttree"
    md = markdown.Markdown(extensions=names)
    assert {type(md.treeprocessors[n]).__module__ for n in ("attr_list", "unescape")} == {"kb.site.fasttree"}
    assert type(md.inlinePatterns["footnote"]).__module__ == "kb.site.fasttree"
    md.convert("x")
    assert md.is_block_level("DIV") and md.is_block_level("p/") and not md.is_block_level("span")
