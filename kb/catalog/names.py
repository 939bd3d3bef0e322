"""Card name resolution shared by every command: official names, aliases, spelling variants.

Names are the id, official name, short name, aliases, the names the driver reports (`product_names`, which
GPU Feature Discovery writes with hyphens into nvidia.com/gpu.product), the systems built from the card
(`systems`: "DGX H100") and the PCI device ids ("0x2335", "2335", "0x233510DE", "10de:2335"). A product
label's suffixes "-SHARED" (time-slicing or MPS renamed the resource) and "-MIG-<profile>" (mixed strategy)
are dropped before resolving.

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


_LABEL_SUFFIX = re.compile(r"(?i)(?:-SHARED|-MIG-\d+g\.\d+gb(?:[+-][a-z.]+)*(?:-SHARED)?)$")
_PCI = re.compile(r"(?i)^(?:0x|10de:)?([0-9a-f]{4})(?:10de)?$")


def product_name(label: str) -> str:
    """The card part of a nvidia.com/gpu.product label: without '-SHARED' and '-MIG-<profile>'
    ('NVIDIA-A100-SXM4-40GB-MIG-1g.5gb' → 'NVIDIA-A100-SXM4-40GB')."""
    return _LABEL_SUFFIX.sub("", label.strip())


def pci_key(name: str) -> str | None:
    """'0x2335', '2335', '0x233510DE', '10de:2335' → 'pci:2335'; None for anything else."""
    m = _PCI.match(name.strip())
    return f"pci:{m.group(1).lower()}" if m and any(c.isdigit() for c in m.group(1)) else None


_GLUED = re.compile(r"[a-z]*(\d+)[a-z]+")


def glued(name: str) -> frozenset[str]:
    """Tokens with a letter suffix glued to a model number ('a10g', 'l40s', 'h200nvl'): a different product than
    the number without it (the A10G is no A10, the L40G no L40)."""
    text = re.sub(r"[^a-z0-9]+", " ", unicodedata.normalize("NFKC", name).lower())
    return frozenset(m.group(0) for m in _GLUED.finditer(text))


def _qualified(card_glued: frozenset[str], typed: frozenset[str], typed_glued: frozenset[str]) -> bool:
    """Whether the card's model number carries a letter the typed name lacks ('A100X' for 'A100', 'RTX PRO 6000D'
    for 'RTX PRO 6000'): then it is another product than the one typed."""
    return any(_GLUED.fullmatch(g).group(1) in typed and g not in typed_glued for g in card_glued)


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
    gluedsets: dict = field(default_factory=dict)  # card id -> glued tokens and normalised forms of all its names
    qualifiers: dict = field(default_factory=dict)  # card id -> glued tokens of its names ('a100x', '6000d')

    def __post_init__(self):
        for cid, card in self.cards.items():
            for n in self._names(card):
                self.exact.setdefault(normalise(n), set()).add(cid)
                if words(n):
                    self.wordsets.append((words(n), cid))
                self.gluedsets[cid] = self.gluedsets.get(cid, frozenset()) | glued(n) | {normalise(n)}
                self.qualifiers[cid] = self.qualifiers.get(cid, frozenset()) | glued(n)
            for dev in self._pci(card):
                key = pci_key(dev)
                if key:
                    self.exact.setdefault(key, set()).add(cid)

    def resolve(self, name: str) -> str:
        """The card id for `name`, or NameError_ with the closest matches."""
        key = normalise(name)
        if not key:
            raise NameError_(name, [], ambiguous=False)
        hits = self.exact.get(key, set()) or self.exact.get(pci_key(name) or "", set())
        if not hits and product_name(name) != name.strip():
            name = product_name(name)  # a GPU Feature Discovery label with its -MIG-… or -SHARED suffix
            key = normalise(name)
            hits = self.exact.get(key, set())
        if not hits:
            typed, suffixed = words(name), glued(name)
            covered: dict[str, int] = {}
            for ws, cid in self.wordsets:
                if ws <= typed and suffixed <= self.gluedsets[cid]:
                    covered[cid] = max(covered.get(cid, 0), len(ws))
            if covered:
                best = max(covered.values())
                hits = {cid for cid, n in covered.items() if n == best}
        if len(hits) == 1:
            return next(iter(hits))
        if len(hits) > 1:
            return self._one_or_ambiguous(name, hits)
        typed, suffixed = words(name), glued(name)
        partial = sorted({cid for ws, cid in self.wordsets if typed and typed < ws})
        # a card whose model number carries a letter the name lacks is another product, unless only such remain
        plain = [cid for cid in partial if not _qualified(self.qualifiers.get(cid, frozenset()), typed, suffixed)]
        partial = plain or partial
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
        return [card["id"], card["name"], card["short_name"], *card.get("aliases", []),
                *card.get("product_names", []),
                *(s["name"] if isinstance(s, dict) else s for s in card.get("systems", []))]

    @staticmethod
    def _pci(card: dict) -> list[str]:
        """Device ids from the index's list or the card's fact."""
        ids = card.get("pci_device_ids") or []
        return ids.get("value", []) if isinstance(ids, dict) else ids
