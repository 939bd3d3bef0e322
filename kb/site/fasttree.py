"""Python-Markdown extension: the tree and footnote steps after the inline pass, with the same result and less work.

Measured on the site's 164 pages (docs-dev/site-build.md, fifth round), each of these was work repeated per
element or per footnote reference that answers the same:

- `Markdown.is_block_level(tag)` lower-cases the tag and searches a list of ~50 names, ~220,000 times a build
  (the prettifier asks it for every element): answered from a memo of the tags seen, taken from the list as it is
  when the page's conversion starts (no extension changes the list during a conversion);
- the footnote reference's number is the footnote's position among the definitions, which Python-Markdown finds
  by building the list of all definitions again for every reference; and the id of the n-th reference to one
  footnote (`fnref:x`, `fnref2:x`, `fnref3:x`, …) is found by trying every earlier one: both quadratic on the
  matrices, whose rows cite the same few sources hundreds of times. Here the position comes from an index of
  the definitions and the id from how often the reference was used so far (the same ids in the same order);
- `attr_list` looks at every element of the page for a `{…}` at the end of its text: only the elements with a "{"
  in their text or tails are given to it (after the inline pass, escaped braces are placeholders);
- the unescape step runs a regular expression over every text; a text without the placeholder's start character
  has nothing to unescape.

tests/test_fasttree.py: the same HTML with and without this extension (every page of the site, and fixtures for
each case). Used by mkdocs.yml (`markdown_extensions: - kb.site.fasttree`), after the extensions it speeds up.
"""

from __future__ import annotations

from markdown import Extension, util
from markdown.extensions.attr_list import AttrListTreeprocessor
from markdown.extensions.footnotes import FootnoteExtension, FootnoteInlineProcessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import UnescapeTreeprocessor


class _BlockLevel(Preprocessor):
    """Run first in every conversion: `md.is_block_level` answers from a memo made for the list as it is now."""

    def run(self, lines):
        md, blocks, memo = self.md, frozenset(self.md.block_level_elements), {}

        def is_block_level(tag) -> bool:
            try:
                return memo[tag]
            except KeyError:
                found = memo[tag] = isinstance(tag, str) and tag.lower().rstrip("/") in blocks
                return found
        md.is_block_level = is_block_level
        return lines


class _FootnoteNumbers(FootnoteInlineProcessor):
    """A footnote reference numbered by the footnote's position among the definitions (USE_DEFINITION_ORDER, the
    default), from an index of the definitions made once they are all read (the inline pass starts after the
    block pass has read them; the index is made again if their number changed)."""

    def handleMatch(self, m, data):
        ext = self.footnotes
        if not ext.getConfig("USE_DEFINITION_ORDER"):
            return super().handleMatch(m, data)
        footnotes = ext.footnotes
        index = getattr(ext, "_gpukb_index", None)
        if index is None or index[0] is not footnotes or index[1] != len(footnotes):
            index = ext._gpukb_index = (footnotes, len(footnotes), {k: n for n, k in enumerate(footnotes, 1)})
        number = index[2].get(m.group(1))
        if number is None:
            return None, None, None
        ext.addFootnoteRef(m.group(1))
        return self._element(m, number)

    def _element(self, m, number: int):
        from xml.etree import ElementTree as etree

        ext, id_ = self.footnotes, m.group(1)
        sup = etree.Element("sup")
        a = etree.SubElement(sup, "a")
        sup.set("id", ext.makeFootnoteRefId(id_, found=True))
        a.set("href", "#" + ext.makeFootnoteId(id_))
        a.set("class", "footnote-ref")
        a.text = ext.getConfig("SUPERSCRIPT_TEXT").format(number)
        return sup, m.start(0), m.end(0)


def _unique_ref(ext: FootnoteExtension):
    """FootnoteExtension.unique_ref without trying every earlier id: the n-th use of `fnref<sep>x` gets `fnref<sep>x`,
    then `fnref2<sep>x`, `fnref3<sep>x`, … — what the original's loop finds, since only this method adds to
    `used_refs` and ids of different footnotes never meet (they differ after the separator). Anything else (a
    reference not made by makeFootnoteRefId, an id already taken) goes to the original."""
    original = ext.unique_ref

    def unique_ref(reference: str, found: bool = False) -> str:
        if not found:
            return reference
        head = "fnref" + ext.get_separator()
        if not reference.startswith(head):
            return original(reference, found)
        used = ext.found_refs.get(reference, 0)
        candidate = reference if not used else f"fnref{used + 1}{ext.get_separator()}{reference[len(head):]}"
        if candidate in ext.used_refs:
            return original(reference, found)
        ext.used_refs.add(candidate)
        ext.found_refs[reference] = used + 1
        return candidate
    return unique_ref


class _AttrList(AttrListTreeprocessor):
    """attr_list on the elements that can hold an attribute list: those with a "{" in their text, their tail or a
    child's tail (the only strings it searches, each expression needing a "{"). What it does to one element reads
    and changes only these strings and the element's attributes, so the elements left out are those it would
    have left unchanged, and the others are handled in the same order."""

    def run(self, doc):
        def braced(elem) -> bool:
            return "{" in (elem.text or "") or "{" in (elem.tail or "") or any("{" in (c.tail or "") for c in elem)
        return super().run(_Elements([elem for elem in doc.iter() if braced(elem)]))


class _Elements:
    """What AttrListTreeprocessor.run reads of the document: `iter()`."""

    def __init__(self, elems: list):
        self.elems = elems

    def iter(self):
        return iter(self.elems)


class _Unescape(UnescapeTreeprocessor):
    """The unescape step, passing over a text without the placeholder's start character (util.STX)."""

    def unescape(self, text: str) -> str:
        return self.RE.sub(self._unescape, text) if util.STX in text else text


class FastTreeExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(_BlockLevel(md), "gpukb_block_level", 1000)
        md.treeprocessors.register(_Unescape(md), "unescape", 0)  # the name and priority Python-Markdown gives it
        if "attr_list" in md.treeprocessors:
            md.treeprocessors.register(_AttrList(md), "attr_list", 8)  # markdown.extensions.attr_list's priority
        footnotes = next((e for e in md.registeredExtensions if isinstance(e, FootnoteExtension)), None)
        if footnotes is not None and "footnote" in md.inlinePatterns:
            old = md.inlinePatterns["footnote"]
            md.inlinePatterns.register(_FootnoteNumbers(old.pattern, footnotes), "footnote", 175)
            footnotes.unique_ref = _unique_ref(footnotes)


def makeExtension(**kwargs):
    return FastTreeExtension(**kwargs)
