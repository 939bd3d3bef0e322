"""Python-Markdown extension: the inline pass with the same result, without its per-pattern overhead.

Python-Markdown's inline treeprocessor offers every text node of a page to each of its ~15 inline patterns in
turn, through a method call that looks the pattern up in a Registry (which re-sorts on every index), checks the
pattern's excluded ancestors and starts a regex iterator. On our table pages (tens of thousands of cells) that
overhead was ≈ 4 s CPU of the ≈ 14 s a site build with generation skipped took. Here a pattern whose regular
expression finds nothing in the text from the current position is passed over at once — exactly what the
original does after its iterator comes back empty (next pattern, from position 0). Whenever the expression
does find something, the original method decides as before (it may still reject the match). The output is
byte for byte the same (checked on the whole site: docs-dev/site-build.md, "mkdocs' own time").

Used by mkdocs.yml (`markdown_extensions: - kb.site.fastinline`), after every extension that adds patterns.
"""

from __future__ import annotations


from markdown import Extension, inlinepatterns as ip, util
from markdown.inlinepatterns import DelimiterProcessor, InlineProcessor as NewStylePattern
from markdown.treeprocessors import InlineProcessor

from kb.site.fasttree import _FootnoteNumbers

#: Python-Markdown's own inline expressions → characters one of which a text must contain for them to match: of the
#: characters an expression requires, the rarest in our texts (an image needs "!" and "[", a footnote reference "[",
#: "^" and "]", an autolink "<", "://" and ">", …). Never a letter, digit or ":": the placeholders a match leaves
#: in the text are made of those, so the characters named here can only disappear from a text being worked on.
REQUIRED = {
    ip.BACKTICK_RE: "`", ip.ESCAPE_RE: "\\", ip.LINK_RE: "[", ip.IMAGE_LINK_RE: "!", ip.AUTOLINK_RE: "/",
    ip.AUTOMAIL_RE: "@", ip.HTML_RE: "<", ip.ENTITY_RE: "&", ip.LINE_BREAK_RE: "\n",
    r"\[\^([^\]]*)\]": "^",  # markdown.extensions.footnotes
}


#: the patterns whose matches are handled all at once (`_all_matches`), with the expressions that makes exact
#: (read from where they start on; the footnote reference's is kb.site.fasttree's, Python-Markdown's own): raw
#: HTML tags (the matrices' cells), footnote references, backslash escapes
_ALL_AT_ONCE = {ip.HtmlInlineProcessor: ip.HTML_RE, ip.EscapeInlineProcessor: ip.ESCAPE_RE,
                _FootnoteNumbers: r"\[\^([^\]]*)\]"}  # markdown.extensions.footnotes: FOOTNOTE_RE


def required(pattern) -> str | None:
    """The characters one of which a text needs for `pattern` to match, None where not known."""
    if isinstance(pattern, DelimiterProcessor):  # '*' and '_' (emphasis): its expression is its tokens, escaped
        return "".join(token[0] for token in pattern.tokens)
    return REQUIRED.get(pattern.pattern) if isinstance(pattern, NewStylePattern) else None


class FastInlineProcessor(InlineProcessor):
    """InlineProcessor whose text loop passes over the patterns that cannot match the text."""

    def run(self, tree, ancestors=None):
        # per pattern, in the registry's order (the order the original indexes by position): the pattern, its
        # compiled expression (None for an old-style pattern: always tried) and the characters it needs (None:
        # not known, the expression decides)
        self._patterns = [
            (p, p.getCompiledRegExp() if isinstance(p, NewStylePattern) else None, required(p))
            for p in self.inlinePatterns
        ]
        needs = [n for _, _, n in self._patterns]
        # every character some pattern needs, or None where a pattern's needs are not known (an extension's own)
        self._triggers = None if None in needs else frozenset("".join(needs))
        return super().run(tree, ancestors)

    # the base class calls self.__handleInline, i.e. this name (also from __applyPattern, for a match's children)
    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        if isinstance(data, util.AtomicString):
            return data
        triggers = self._triggers
        # the characters of interest in the text; matches only take characters out (their placeholders have
        # none of them), so this stays a superset while the text is worked on
        present = None if triggers is None else triggers.intersection(data)
        if present is not None and not present:
            return data  # no pattern can match: what the original returns after trying each
        patterns = self._patterns
        apply = self._InlineProcessor__applyPattern
        start = 0
        count = len(patterns)
        while patternIndex < count:
            pattern, regex, needs = patterns[patternIndex]
            if regex is not None and (
                (present is not None and present.isdisjoint(needs)) or regex.search(data, start) is None
            ):
                patternIndex += 1  # what __applyPattern answers when finditer yields nothing: (data, False, 0)
                start = 0
                continue
            if type(pattern) in _ALL_AT_ONCE and pattern.pattern == _ALL_AT_ONCE[type(pattern)]:
                data = self._all_matches(pattern, regex, data, patternIndex, start)
                patternIndex += 1  # what the original does once the pattern finds nothing more
                start = 0
                continue
            data, matched, start = apply(pattern, data, patternIndex, start)
            if not matched:
                patternIndex += 1
        return data

    def _all_matches(self, pattern, regex, data: str, index: int, start: int) -> str:
        """Every match of `pattern` from `start` on, each as __applyPattern handles one: the same nodes stashed in
        the same order. The original applies the pattern once per match, each time from just after the placeholder
        it put in; as the expression reads nothing before where it starts (no look-behind, no anchor) and the text
        after a match is unchanged, it finds the matches `finditer` finds in the text as it was."""
        for exclude in pattern.ANCESTOR_EXCLUDES:
            if exclude.lower() in self.ancestors:
                return data
        stash, kind = self._InlineProcessor__stashNode, pattern.type()
        out, done = [], 0
        for m in regex.finditer(data, start):
            node, begin, end = pattern.handleMatch(m, data)
            if begin is None or end is None or node is None:
                continue  # rejected, or (an escape of a character that is not escapable) left as it is
            if not isinstance(node, str) and not isinstance(node.text, util.AtomicString):
                handle = self._InlineProcessor__handleInline
                for child in [node, *node]:
                    if child.text:
                        self.ancestors.append(child.tag.lower())
                        child.text = handle(child.text, index + 1)
                        self.ancestors.pop()
                    if child.tail:
                        child.tail = handle(child.tail, index)
            out += [data[done:begin], stash(node, kind)]
            done = end
        return "".join(out) + data[done:] if out else data


class FastInlineExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(FastInlineProcessor(md), "inline", 20)  # the priority markdown gives 'inline'


def makeExtension(**kwargs):
    return FastInlineExtension(**kwargs)
