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
from itertools import accumulate
from operator import itemgetter

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
        self._at: tuple | None = None

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

    def _words_at(self) -> tuple[dict[str, list[int]], list[int]]:
        """(each lowercased word → its positions in the document, the characters of the first i words for each i),
        made at the first approximate search of this document."""
        if self._at is None:
            at: dict[str, list[int]] = {}
            for i, w in enumerate(self.lower_words):
                at.setdefault(w, []).append(i)
            self._at = (at, list(accumulate(map(len, self.lower_words), initial=0)))
        return self._at

    def _fuzzy(self, q: str) -> tuple[float, str] | None:
        """The best stretch of at least THRESHOLD similarity: windows of the quote's word count ± 2 whose
        words overlap the quote's enough to be able to reach it (a cheap filter before difflib).

        The same result as sliding the window word by word and asking difflib for every candidate's ratio, for a
        fraction of the work: the window's overlap with the quote's words only changes where one of them enters
        or leaves it, so only those places are visited; and difflib's two upper bounds of `ratio()` are computed
        without a SequenceMatcher (it indexes the candidate's characters when made) — from the lengths
        (`real_quick_ratio`) and from the characters the two texts share (`quick_ratio`). A candidate whose bound
        is below THRESHOLD, or not above the best ratio found so far, cannot become the best."""
        ql = q.lower()
        qw = ql.split(" ")
        n = len(qw)
        need = Counter(qw)
        la = len(ql)
        qchars = Counter(ql)
        best: tuple[float, str] | None = None
        # a window at THRESHOLD similarity shares most of the quote's words
        floor = max(1, int(n * 0.6))
        words_ = self.lower_words
        count = len(words_)
        at, ends = self._words_at()
        last = max(0, count - n)  # the last window's start
        events = []  # (window start, +1/-1, word): a word of the quote enters or leaves the window of n words
        for w in need:
            for pos in at.get(w, ()):
                events.append((max(0, pos - n + 1), 1, w))
                if pos + 1 <= last:
                    events.append((pos + 1, -1, w))
        events.sort(key=itemgetter(0))
        have = dict.fromkeys(need, 0)
        shared = 0  # sum over the quote's words of min(need, occurrences in the window)
        k, total_events = 0, len(events)
        while k < total_events:
            first = events[k][0]
            while k < total_events and events[k][0] == first:
                _, step, w = events[k]
                k += 1
                if step > 0:
                    have[w] += 1
                    shared += have[w] <= need[w]
                else:
                    shared -= have[w] <= need[w]
                    have[w] -= 1
            if shared < floor:
                continue
            for start in range(first, events[k][0] if k < total_events else last + 1):
                for size in range(max(1, n - 2), n + 3):
                    took = min(size, count - start)
                    if took <= 0:
                        continue
                    lb = ends[start + took] - ends[start] + took - 1
                    total = la + lb
                    bound = 2.0 * min(la, lb) / total if total else 1.0  # difflib's real_quick_ratio
                    if bound < THRESHOLD or (best is not None and bound <= best[0]):
                        continue
                    text = " ".join(words_[start:start + took])
                    common = lb - sum((Counter(text) - qchars).values())
                    bound = 2.0 * common / total if total else 1.0  # difflib's quick_ratio
                    if bound < THRESHOLD or (best is not None and bound <= best[0]):
                        continue
                    ratio = SequenceMatcher(None, ql, text, autojunk=False).ratio()
                    if ratio >= THRESHOLD and (best is None or ratio > best[0]):
                        best = (ratio, " ".join(self.words[start:start + size]))
        return best
