"""Python-Markdown extension: the block processors' line-start expressions answer "no" faster, same result.

Before a block (a whole table is one) is handled, each block processor tests it, most with an expression of the
form `(^|\\n)X` or, in MULTILINE mode, `^X`: "X at the start of some line". Python's regular expressions try such
an expression at every character of the block (≈ 0.4 s CPU per build on our table pages). The same question is
answered by `\\nX` (found from newline to newline, like a literal) or X at position 0. Here each such expression is
given a quick "no": where neither finds anything the answer is None, as the original's would be; otherwise the
original expression is asked, so every match the processors see is the original's own.

The table of contents' search for its marker ("[TOC]") gets the same treatment: it joined the whole text below
every element of the page (a table's text once per row, cell and the table) only to skip empty elements, which a
paragraph that is the marker never is.

Used by mkdocs.yml (`markdown_extensions: - kb.site.fastblocks`), after the extensions that add processors.
"""

from __future__ import annotations

import re
import sys

import types

from markdown import Extension
from markdown.extensions.toc import TocTreeprocessor

_PREFIXES = ("(?:^|\\n)", "(^|\\n)")
_NUMBERED_BACKREF = re.compile(r"\\[1-9]|\(\?\(\d")  # \1 … or (?(1)…): numbers shift without the prefix group


def line_start_parts(regex: re.Pattern) -> str | None:
    """X of an expression "X at a line start", None for any other."""
    pattern = regex.pattern
    if not isinstance(pattern, str):
        return None
    for prefix in _PREFIXES:
        if pattern.startswith(prefix):
            rest = pattern[len(prefix):]
            break
    else:
        if not (pattern.startswith("^") and regex.flags & re.MULTILINE):
            return None
        rest = pattern[1:]
    if _NUMBERED_BACKREF.search(rest):
        return None
    return rest


class LineStartPattern:
    """A compiled line-start expression that says None quickly where nothing starts a line; else the original."""

    def __init__(self, regex: re.Pattern, rest: str):
        self.original = regex
        self._after_newline = re.compile("\n" + rest, regex.flags)
        self._at_start = re.compile(rest, regex.flags)

    def search(self, string, pos=0, endpos=sys.maxsize):
        if (pos == 0 and endpos >= len(string) and self._after_newline.search(string) is None
                and self._at_start.match(string) is None):
            return None
        return self.original.search(string, pos, endpos)

    def __getattr__(self, name):  # match, finditer, pattern, … as the original
        return getattr(self.original, name)


def replace_marker(self, root, elem) -> None:
    """TocTreeprocessor.replace_marker without joining each element's whole text: an element whose own text is the
    (non-empty) marker has a non-empty text, so the original's skip of empty elements never decides anything. The
    walk of the tree (a generator per level, to leave out headings and code) only where some element is the marker
    at all."""
    if not self.marker:
        return TocTreeprocessor.replace_marker(self, root, elem)
    marker = self.marker
    if not any(el.text and len(el) == 0 and el.text.strip() == marker for el in root.iter()):
        return None  # no element is the marker alone (the page's usual case): the tree walk below would find none
    for parent, child in self.iterparent(root):
        if child.text and child.text.strip() == self.marker and len(child) == 0:
            for i in range(len(parent)):
                if parent[i] == child:
                    parent[i] = elem
                    break
    return None


class FastBlocksExtension(Extension):
    def extendMarkdown(self, md):
        toc = md.treeprocessors["toc"] if "toc" in md.treeprocessors else None
        if isinstance(toc, TocTreeprocessor):
            toc.replace_marker = types.MethodType(replace_marker, toc)
        for processor in md.parser.blockprocessors:
            for name in ("RE", "START", "SEARCH_RE"):
                regex = getattr(processor, name, None)
                if isinstance(regex, re.Pattern) and (rest := line_start_parts(regex)) is not None:
                    setattr(processor, name, LineStartPattern(regex, rest))


def makeExtension(**kwargs):
    return FastBlocksExtension(**kwargs)
