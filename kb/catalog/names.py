"""Card name resolution shared by every command: official names, aliases, spelling variants."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field


def normalise(name: str) -> str:
    """Case, spaces, hyphens, underscores and a leading 'NVIDIA' do not matter: 'NVIDIA-H200-NVL' → 'h200nvl'."""
    s = re.sub(r"[\s\-_/.,()]+", "", name.lower())
    return s[6:] if s.startswith("nvidia") and len(s) > 6 else s


class NameError_(LookupError):
    """A name that is unknown or fits several cards; `candidates` are card ids to suggest."""

    def __init__(self, name: str, candidates: list[str], ambiguous: bool):
        super().__init__(name)
        self.name = name
        self.candidates = candidates
        self.ambiguous = ambiguous


@dataclass
class NameIndex:
    """Maps normalised names to card ids."""

    cards: dict  # id -> plain card data
    exact: dict = field(default_factory=dict)

    def __post_init__(self):
        for cid, card in self.cards.items():
            for n in [cid, card["name"], card["short_name"], *card.get("aliases", [])]:
                self.exact.setdefault(normalise(n), set()).add(cid)

    def resolve(self, name: str) -> str:
        """The card id for `name`, or NameError_ with the closest matches."""
        key = normalise(name)
        if not key:
            raise NameError_(name, [], ambiguous=False)
        hits = self.exact.get(key, set())
        if len(hits) == 1:
            return next(iter(hits))
        if not hits:
            # a name that is a prefix/part of several names: ambiguous; of exactly one: that card
            hits = {cid for n, ids in self.exact.items() if key in n for cid in ids}
            tokens = [t for t in re.split(r"[\s\-_]+", name.lower()) if t and t != "nvidia"]
            if not hits and len(tokens) > 1:
                hits = {cid for cid, c in self.cards.items()
                        if all(any(t in normalise(n) for n in self._names(c)) for t in tokens)}
        if len(hits) == 1:
            return next(iter(hits))
        if len(hits) > 1:
            plain = [cid for cid in hits if self.cards[cid].get("plain_product")]
            if len(plain) == 1:
                return plain[0]
            raise NameError_(name, sorted(hits), ambiguous=True)
        close = difflib.get_close_matches(key, list(self.exact), n=5, cutoff=0.6)
        suggestions: list[str] = []
        for c in close:
            for cid in sorted(self.exact[c]):
                if cid not in suggestions:
                    suggestions.append(cid)
        raise NameError_(name, suggestions[:3], ambiguous=False)

    @staticmethod
    def _names(card: dict) -> list[str]:
        return [card["id"], card["name"], card["short_name"], *card.get("aliases", [])]

    def shared_aliases(self) -> dict[str, list[str]]:
        """Normalised names that point at more than one card (a lint finding)."""
        return {n: sorted(ids) for n, ids in self.exact.items() if len(ids) > 1}
