"""Card name resolution shared by every command: official names, aliases, spelling variants.

Order: (1) the whole name as typed, ignoring case, spaces, hyphens and a leading "NVIDIA";
(2) the typed words contain every distinguishing word of one card's name ("rtx pro 6000 workstation"),
the most specific card winning; (3) the typed words are only part of card names: ambiguous or
"did you mean" — never a guess ("H200" is not the H200 NVL, "L40" not the L40S).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

#: words that do not distinguish one card from another
FILLER = {"nvidia", "blackwell", "edition", "gpu"}


def normalise(name: str) -> str:
    """Case, spaces, hyphens, underscores, full-width forms and a leading 'NVIDIA' do not matter:
    'NVIDIA-H200-NVL' → 'h200nvl'."""
    s = re.sub(r"[\s\-_/.,()]+", "", unicodedata.normalize("NFKC", name).lower())
    return s[6:] if s.startswith("nvidia") and len(s) > 6 else s


def words(name: str) -> frozenset[str]:
    """Distinguishing words: letters and digits split apart ('72GB' → 72, gb), filler words dropped."""
    return frozenset(re.findall(r"[a-z]+|\d+", unicodedata.normalize("NFKC", name).lower())) - FILLER


class NameError_(LookupError):
    """A name that is unknown or fits several cards; `candidates` are card ids to suggest."""

    def __init__(self, name: str, candidates: list[str], ambiguous: bool):
        super().__init__(name)
        self.name = name
        self.candidates = candidates
        self.ambiguous = ambiguous


@dataclass
class NameIndex:
    """Maps names to card ids."""

    cards: dict  # id -> plain card data
    exact: dict = field(default_factory=dict)
    wordsets: list = field(default_factory=list)  # (frozenset of words, card id)

    def __post_init__(self):
        for cid, card in self.cards.items():
            for n in self._names(card):
                self.exact.setdefault(normalise(n), set()).add(cid)
                if words(n):
                    self.wordsets.append((words(n), cid))

    def resolve(self, name: str) -> str:
        """The card id for `name`, or NameError_ with the closest matches."""
        key = normalise(name)
        if not key:
            raise NameError_(name, [], ambiguous=False)
        hits = self.exact.get(key, set())
        if not hits:
            typed = words(name)
            covered: dict[str, int] = {}
            for ws, cid in self.wordsets:
                if ws <= typed:
                    covered[cid] = max(covered.get(cid, 0), len(ws))
            if covered:
                best = max(covered.values())
                hits = {cid for cid, n in covered.items() if n == best}
        if len(hits) == 1:
            return next(iter(hits))
        if len(hits) > 1:
            return self._one_or_ambiguous(name, hits)
        typed = words(name)
        partial = sorted({cid for ws, cid in self.wordsets if typed and typed < ws})
        if len(partial) > 1:
            raise NameError_(name, partial, ambiguous=True)
        raise NameError_(name, partial or self._close(key), ambiguous=False)

    def _one_or_ambiguous(self, name: str, hits: set) -> str:
        plain = [cid for cid in hits if self.cards[cid].get("plain_product")]
        if len(plain) == 1:
            return plain[0]
        raise NameError_(name, sorted(hits), ambiguous=True)

    def _close(self, key: str) -> list[str]:
        suggestions: list[str] = []
        for c in difflib.get_close_matches(key, list(self.exact), n=5, cutoff=0.6):
            for cid in sorted(self.exact[c]):
                if cid not in suggestions:
                    suggestions.append(cid)
        return suggestions[:3]

    @staticmethod
    def _names(card: dict) -> list[str]:
        return [card["id"], card["name"], card["short_name"], *card.get("aliases", [])]
