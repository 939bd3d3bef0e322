"""kb/site/fastblocks.py: the block processors' line-start expressions give the same HTML, answering "no" faster."""

from __future__ import annotations

import re

import markdown
import pytest

from kb.site.fastblocks import LineStartPattern, line_start_parts
from site_markdown import convert, extensions, hand_written_pages, with_and_without

SAMPLES = [
    "# Title\n\nText\nmore ## not a header\n\n## Header ##\n\nSetext\n======\n\nSetext 2\n---\n",
    "> quote\ncontinued\n\n  > indented quote\n\ntext > not a quote\n",
    "Term\n:   definition\n\nTerm 2\n: x\n\n:not a definition\n",
    "!!! note \"Title\"\n    body\n\ntext !!! not\n\n??? info \"Closed\"\n    hidden\n\n???+ tip\n    open\n",
    "a\n\n---\n\n* * *\n\n___\n\ntext --- no rule\n",
    "Text[^1] and *[GB]\n\n[^1]: a note\n    continued\n\n*[GB]: Gigabyte\n\nGB here\n",
    "| a | b |\n|:--|--:|\n| `x` | # no header |\n| > no quote | : no def |\n",
    "- item\n    > quote in item\n\n    # header in item\n1. one\n2. two\n",
    "",
    "line\n#",
    "# A\n\n[TOC]\n\n## B\n\n  [TOC]  \n\ntext [TOC]\n\n| [TOC] |\n|---|\n| x |\n\n    [TOC]\n\n*[TOC]*\n",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_same_html(text):
    fast, original = with_and_without([text], "kb.site.fastblocks")
    assert fast == original


def test_same_html_on_the_hand_written_pages():
    texts = [p.read_text(encoding="utf-8") for p in hand_written_pages()]
    assert len(texts) >= 10
    fast, original = with_and_without(texts, "kb.site.fastblocks")
    assert fast == original


def test_which_expressions_are_line_start_ones():
    assert line_start_parts(re.compile(r"(^|\n)[ ]{0,3}>[ ]?(.*)")) == r"[ ]{0,3}>[ ]?(.*)"
    assert line_start_parts(re.compile(r"(?:^|\n)!!! ?(\w+)")) == r"!!! ?(\w+)"
    assert line_start_parts(re.compile(r"^[ ]{0,3}x$", re.M)) == r"[ ]{0,3}x$"
    assert line_start_parts(re.compile(r"^[ ]{0,3}x$")) is None  # without MULTILINE "^" is the text's start only
    assert line_start_parts(re.compile(r"(^|\n)(['\"])x\2")) is None  # a numbered back-reference would shift
    assert line_start_parts(re.compile(r"x(^|\n)")) is None


@pytest.mark.parametrize("pattern,flags", [(r"(^|\n)[ ]{0,3}>[ ]?(.*)", 0), (r"^[ ]{0,3}:[ ]+(.*)$", re.M),
                                           (r"(?:^|\n)(?<![a-z])#+ (x)", 0)])
@pytest.mark.parametrize("text", ["> a", "x\n> a", "x > a", ">", "\n", "", "b\n  : c", ": d", "# x", "a\n# x", "a# x"])
def test_search_is_the_originals(pattern, flags, text):
    regex = re.compile(pattern, flags)
    fast = LineStartPattern(regex, line_start_parts(regex))
    found, expected = fast.search(text), regex.search(text)
    assert (found and (found.span(), found.groups())) == (expected and (expected.span(), expected.groups()))
    assert fast.pattern == regex.pattern  # everything but search is the original's


def test_the_table_of_contents_replaces_its_marker():
    html = convert(["# A\n\n[TOC]\n\n## B\n"])[0]
    assert '<div class="toc">' in html and "[TOC]" not in html


def test_the_site_uses_it():
    names, _ = extensions()
    assert "kb.site.fastblocks" in names
    md = markdown.Markdown(extensions=names)
    wrapped = {p.__class__.__name__ for p in md.parser.blockprocessors
               if any(isinstance(getattr(p, n, None), LineStartPattern) for n in ("RE", "START", "SEARCH_RE"))}
    assert {"BlockQuoteProcessor", "HashHeaderProcessor", "DefListProcessor"} <= wrapped
