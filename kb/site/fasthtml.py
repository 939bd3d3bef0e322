"""Python-Markdown extension: mkdocs' pass over a page's raw HTML done by md_in_html's, one HTML parse less per page.

mkdocs registers, for every page it renders, a preprocessor (`mkdocs_raw_html`, priority 21) that feeds the whole
Markdown text to an HTMLParser only to collect the anchors its raw HTML defines (`id="…"`, `<a name="…">`: the
page's `present_anchor_ids`, for mkdocs' anchor validation); right after it (priority 20) md_in_html's `html_block`
feeds the same text to its own HTMLParser. On our table pages (thousands of `<span>`s in the matrices) mkdocs' pass
was ≈ 0.22–0.26 s CPU of a build. Here md_in_html's parser collects the anchors as it meets the start tags, and
mkdocs' pass is left out — only where both parsers report the same start tags, which holds for a text with no
comment, declaration or processing instruction (`<!`, `<?`; md_in_html reads those as text where they do not
start a line), no numeric character reference (`&#`; read by md_in_html, which leaves them unconverted, up to a
bad one that makes HTMLParser give up on the rest) and no element HTMLParser reads as raw text (`<script>`,
`<style>`, …: md_in_html reads such a tag inside a paragraph as text). Any other text keeps mkdocs' own pass.

tests/test_fasthtml.py: the same anchors as mkdocs' pass on every page of the site and on texts for each case, and
the same HTML. Used by mkdocs.yml (`markdown_extensions: - kb.site.fasthtml`), after md_in_html.
"""

from __future__ import annotations

import re

from markdown import Extension
from markdown.extensions.md_in_html import HTMLExtractorExtra, HtmlBlockPreprocessor
from markdown.htmlparser import htmlparser
from markdown.preprocessors import Preprocessor
from mkdocs.structure.pages import _RawHTMLPreprocessor

#: what makes the two parsers differ (above); the elements HTMLParser reads as raw text are those of the running
#: Python (newer versions add RCDATA elements such as textarea and title)
_DIFFERS = re.compile(
    r"<[!?]|&#|<(?:%s)(?![a-z0-9])" % "|".join(sorted({*htmlparser.HTMLParser.CDATA_CONTENT_ELEMENTS,
                                                         "script", "style", "textarea", "title"})),
    re.IGNORECASE)


def _collect(anchors: set, tag: str, attrs) -> None:
    """mkdocs' _HTMLHandler.handle_starttag: the anchors a start tag defines."""
    for k, v in attrs:
        if k == "id" or (k == "name" and tag == "a"):
            anchors.add(v)


class _Extractor(HTMLExtractorExtra):
    """md_in_html's parser, collecting the anchors of every start tag it reads (into `anchors`)."""

    def __init__(self, md, anchors: set):
        self.anchors = anchors
        super().__init__(md)

    # parse_starttag reports each start tag once, with the attributes as a list of pairs; md_in_html's own calls
    # between these two methods pass them on as a dict (and valueless ones with their name as value): not collected
    def handle_starttag(self, tag, attrs):
        if type(attrs) is list:
            _collect(self.anchors, tag, attrs)
        super().handle_starttag(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        if type(attrs) is list:
            _collect(self.anchors, tag, attrs)
        super().handle_startendtag(tag, attrs)


class _HtmlBlock(HtmlBlockPreprocessor):
    """md_in_html's html_block; where `_TakeOver` handed it mkdocs' pass for this text, it collects the anchors."""

    pending: tuple[str, set] | None = None  # (the text, the set mkdocs reads the anchors from)

    def run(self, lines: list[str]) -> list[str]:
        pending, self.pending = self.pending, None
        source = "\n".join(lines)
        if pending is None or pending[0] != source:
            if pending is not None:  # not the text mkdocs' pass was to read: its anchors as mkdocs finds them
                pending[1].update(_mkdocs_anchors(pending[0]))
            return super().run(lines)
        parser = _Extractor(self.md, pending[1])
        parser.feed(source)
        parser.close()
        return "".join(parser.cleandoc).split("\n")


def _mkdocs_anchors(text: str) -> set:
    raw = _RawHTMLPreprocessor()
    raw.run(text.split("\n"))
    return raw.present_anchor_ids


class _TakeOver(Preprocessor):
    """Runs right before mkdocs' pass (where mkdocs registered it for this page): hands it to html_block."""

    def run(self, lines: list[str]) -> list[str]:
        registry = self.md.preprocessors
        names = [registry.get_index_for_name(n) if n in registry else None
                 for n in ("gpukb_html_anchors", "mkdocs_raw_html", "html_block")]
        if names[1] is None or names != [names[0], names[0] + 1, names[0] + 2]:
            return lines  # mkdocs' pass not registered, or not between this step and html_block
        mkdocs_pass, html_block = registry["mkdocs_raw_html"], registry["html_block"]
        if type(mkdocs_pass) is not _RawHTMLPreprocessor or type(html_block) is not _HtmlBlock:
            return lines
        source = "\n".join(lines)
        if _DIFFERS.search(source):
            return lines
        mkdocs_pass.present_anchor_ids = set()  # what mkdocs reads after the conversion
        mkdocs_pass.run = _unchanged  # this page's instance only (mkdocs makes one per page)
        html_block.pending = (source, mkdocs_pass.present_anchor_ids)
        return lines


def _unchanged(lines: list[str]) -> list[str]:
    return lines


class FastHtmlExtension(Extension):
    def extendMarkdown(self, md):
        if "html_block" in md.preprocessors and type(md.preprocessors["html_block"]) is HtmlBlockPreprocessor:
            md.preprocessors.register(_HtmlBlock(md), "html_block", 20)  # md_in_html's name and priority
            md.preprocessors.register(_TakeOver(md), "gpukb_html_anchors", 21.5)  # mkdocs' pass: 21


def makeExtension(**kwargs):
    return FastHtmlExtension(**kwargs)
