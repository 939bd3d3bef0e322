"""Find a catalog quote in a document: exactly (markup and whitespace normalised, as `gpukb lint`
compares), in a table cell's joined text, or approximately — the "reworded" case.

A quote is "reworded" when a stretch of the document of about the quote's length matches it
case-insensitively with a similarity of at least THRESHOLD (difflib's ratio over characters) and holds the
same material words (numbers, names with digits, negations): a typo fixed ("DGCM" → "DCGM"), a word added,
a capital letter changed. The stretch, as the document writes it, is offered as the new quote. A close
match whose material words differ ("7" → "4", "L4" dropped, "not" added) is a changed fact; anything less
similar is "gone".
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from kb.lint.snapshots import normalise

THRESHOLD = 0.9

_MATERIAL = re.compile(r"[\w.+-]*\d[\w.+-]*|\b(?:not|no|never|cannot|none|only|nicht|kein\w*)\b", re.IGNORECASE)


def material(text: str) -> list[str]:
    """The words whose change is a change of fact, not of wording: anything with a digit (versions, counts,
    product names such as L4 or H200) and negations. "7 instances" → "4 instances" is never "reworded"."""
    return sorted(m.group().lower().rstrip(".,;:") for m in _MATERIAL.finditer(text))


@dataclass
class Found:
    quote: str  # the catalog's quote, normalised
    exact: bool
    match: str | None = None  # the document's closest wording, as the document writes it
    ratio: float = 0.0

    @property
    def reworded(self) -> bool:
        """Only the wording changed: a close match with the same numbers, names with digits and negations."""
        return self.match is not None and material(self.quote) == material(self.match)


def table_rows(text: str) -> list[list[str]]:
    """Every RST grid-table row as its cells' texts (wrapped lines joined, normalised), so a quote survives a
    re-wrapped cell or a widened table (the page itself interleaves the columns line by line, and a quote
    taken from one line of a row holds pieces of several cells)."""
    if "+-" not in text:
        return []
    from kb.drift.extractors import ExtractError, rst

    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if not rst.is_border(lines[i]):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].strip().startswith(("+", "|")):
            j += 1
        try:
            table = rst.parse_grid(lines[i:j], i)
        except ExtractError:
            table = None
        for row in table.rows if table else []:
            cells = [normalise(" ".join(x.strip() for x in cell if x.strip())) for cell in row.cells]
            if any(cells):
                out.append([c for c in cells if c])
        i = j
    return out


def in_row(words: list[str], cells: list[list[str]]) -> bool:
    """Whether the quote's words are pieces of the row's cells, in column order, one piece per cell, each
    piece whole words in a row within its cell ("NVIDIA RTX PRO 6000 NVIDIA Blackwell" in a row whose cells
    are "NVIDIA RTX PRO 6000 Blackwell Server Edition" and "NVIDIA Blackwell")."""
    if not words:
        return True
    if not cells:
        return False
    first = cells[0]
    for take in range(len(words), 0, -1):
        piece = words[:take]
        if any(first[k:k + take] == piece for k in range(len(first) - take + 1)) and in_row(words[take:], cells[1:]):
            return True
    return in_row(words, cells[1:])


#: (normalised document, normalised quote) → Finder._fuzzy's result
_FUZZY: dict = {}


class Finder:
    """One document, many quotes."""

    def __init__(self, text: str, cells: list[str] = ()):
        self.doc = normalise(text)
        self.cells = [normalise(c) for c in cells]
        self.rows = [[c.split(" ") for c in row] for row in table_rows(text)]
        self.lower = self.doc.lower()
        self.words = self.doc.split(" ")
        self.lower_words = [w.lower() for w in self.words]

    def find(self, quote: str) -> Found:
        q = normalise(quote)
        if not q or q in self.doc or any(q in c for c in self.cells):
            return Found(q, True)
        words = q.split(" ")
        if any(in_row(words, row) for row in self.rows):
            return Found(q, True)
        at = self.lower.find(q.lower())
        if at >= 0:  # only the case differs
            return Found(q, False, self.doc[at:at + len(q)], 1.0)
        best = self._fuzzy_once(q)
        if best:
            return Found(q, False, best[1], round(best[0], 3))
        return Found(q, False)

    def _fuzzy_once(self, q: str) -> tuple[float, str] | None:
        """_fuzzy, remembered per document text and quote in this process (a drift check of many sources, the
        replay of a document's history and the test suite look for the same lost quotes in the same text again)."""
        key = (self.doc, q)
        if key not in _FUZZY:
            if len(_FUZZY) >= 4096:
                _FUZZY.clear()
            _FUZZY[key] = self._fuzzy(q)
        return _FUZZY[key]

    def _fuzzy(self, q: str) -> tuple[float, str] | None:
        """The best stretch of at least THRESHOLD similarity: windows of the quote's word count ± 2 whose
        words overlap the quote's enough to be able to reach it (a cheap filter before difflib)."""
        qw = q.lower().split(" ")
        n = len(qw)
        need = Counter(qw)
        ql = q.lower()
        best: tuple[float, str] | None = None
        # a window at THRESHOLD similarity shares most of the quote's words
        floor = max(1, int(n * 0.6))
        words_ = self.lower_words
        window: Counter = Counter()
        shared = 0  # sum over words of min(need, window): kept up to date as the window slides

        def add(w: str, step: int) -> int:
            before = min(need[w], window[w]) if w in need else 0
            window[w] += step
            return (min(need[w], window[w]) if w in need else 0) - before

        for w in words_[:n]:
            shared += add(w, 1)
        for start in range(0, max(1, len(words_) - n + 1)):
            if start:
                shared += add(words_[start - 1], -1)
                if start + n - 1 < len(words_):
                    shared += add(words_[start + n - 1], 1)
            if shared < floor:
                continue
            for size in range(max(1, n - 2), n + 3):
                words = self.lower_words[start:start + size]
                if not words:
                    continue
                matcher = SequenceMatcher(None, ql, " ".join(words), autojunk=False)
                if matcher.real_quick_ratio() < THRESHOLD or matcher.quick_ratio() < THRESHOLD:
                    continue
                ratio = matcher.ratio()
                if ratio >= THRESHOLD and (best is None or ratio > best[0]):
                    best = (ratio, " ".join(self.words[start:start + size]))
        return best
