"""Card name resolution shared by every command: official names, aliases, spelling variants.

Names are the id, official name, short name, aliases, the names the driver reports (`product_names`, which
GPU Feature Discovery writes with hyphens into nvidia.com/gpu.product), the systems built from the card
(`systems`: "DGX H100") and the PCI device ids ("0x2335", "2335", "0x233510DE", "10de:2335"). A product
label's suffixes "-SHARED" (time-slicing or MPS renamed the resource) and "-MIG-<profile>" (mixed strategy)
are dropped before resolving.

Order: (1) the whole name as typed, ignoring case, spaces, hyphens and a leading "NVIDIA"; (2) the typed
distinguishing words are those of one of a card's names, in any order ("6000 rtx pro server"); (3) a name
naming several cards ("L4 L40S", "H200 NVL or L4", "RTX PRO 6000 Server Edition Max-Q") is refused listing
them (`NameError_.several`); (4) the typed words are a part of card names: ambiguous ("H100 SXM5": the 80GB
and the 94GB card) or "did you mean"; (5) anything else: "did you mean" the closest names, the names the typed
words hold, or — where neither finds one — the cards the name would be with each word it misspells read as the
closest word of a card name ("H101" → the H100 cards; a letter O after a digit read as a zero: "A1OO" → A100).
Nothing is guessed: neither a part of a name ("H200 NV" is not the H200 SXM, "L40" not the L40S), nor more words
than a name, nor a misspelt word: these are suggestions only.
"""

from __future__ import annotations

import copy
import difflib
import re
import unicodedata
from dataclasses import dataclass, field

#: words that do not distinguish one card from another
FILLER = {"nvidia", "blackwell", "edition", "gpu"}
#: words and signs joining two names ("H200 NVL or L4", "L4, L40S")
CONNECTORS = {"or", "and", "oder", "und", "vs", "versus"}
_SPLIT = re.compile(r"(?i)\s*(?:[,;&]|\b(?:or|and|oder|und|vs\.?|versus)\b)\s*")


def normalise(name: str) -> str:
    """Case, spaces, hyphens, underscores, full-width forms and a leading 'NVIDIA' do not matter:
    'NVIDIA-H200-NVL' → 'h200nvl'."""
    s = re.sub(r"[\s\-_/.,()]+", "", unicodedata.normalize("NFKC", name).lower())
    return s[6:] if s.startswith("nvidia") and len(s) > 6 else s


_LABEL_SUFFIX = re.compile(r"(?i)(?:-SHARED|-MIG-INVALID|-MIG-\d+g\.\d+gb(?:[+-][a-z.]+)*(?:-SHARED)?)$")
_PCI = re.compile(r"(?i)^(?:0x|10de:)?([0-9a-f]{4})(?:10de)?$")


def product_name(label: str) -> str:
    """The card part of a nvidia.com/gpu.product label: without '-SHARED', '-MIG-<profile>' and '-MIG-INVALID' (GPU
    Feature Discovery's mark of a MIG setup the single strategy cannot serve)
    ('NVIDIA-A100-SXM4-40GB-MIG-1g.5gb' → 'NVIDIA-A100-SXM4-40GB')."""
    return _LABEL_SUFFIX.sub("", label.strip())


def pci_key(name: str) -> str | None:
    """'0x2335', '2335', '0x233510DE', '10de:2335' → 'pci:2335'; None for anything else."""
    m = _PCI.match(name.strip())
    return f"pci:{m.group(1).lower()}" if m and any(c.isdigit() for c in m.group(1)) else None


_GLUED = re.compile(r"[a-z]*(\d+)[a-z]+")
#: _GLUED's matches found in linear time: `_GLUED.finditer` tries every start inside a run of letters or digits and
#: runs to the run's end from each (a name of 5,000 letters: ~1.3 s). A match starting after a letter or a digit also
#: starts one character earlier, so the leftmost match from `pos` starts at `pos` or where neither precedes: _AT is
#: tried at `pos`, _AFTER searched beyond it (its lookbehind refuses a start inside a run at once). The quantifiers
#: are possessive: a letter or digit given back could never match what follows it.
_AT = re.compile(r"[a-z]*+(\d++)[a-z]+")
_AFTER = re.compile(r"(?<![a-z0-9])[a-z]*+(\d++)[a-z]+")


def glued(name: str) -> frozenset[str]:
    """Tokens with a letter suffix glued to a model number ('a10g', 'l40s', 'h200nvl'): a different product than
    the number without it (the A10G is no A10, the L40G no L40)."""
    text = re.sub(r"[^a-z0-9]+", " ", unicodedata.normalize("NFKC", name).lower())
    return frozenset(_glued_tokens(text))


def _glued_tokens(text: str) -> list[str]:
    """`[m.group(0) for m in _GLUED.finditer(text)]`, in linear time (see _AT)."""
    out, pos = [], 0
    while pos < len(text):
        m = _AT.match(text, pos) or _AFTER.search(text, pos + 1)
        if m is None:
            break
        out.append(m.group(0))
        pos = m.end()
    return out


def _qualified(card_glued: frozenset[str], typed: frozenset[str], typed_glued: frozenset[str]) -> bool:
    """Whether the card's model number carries a letter the typed name lacks ('A100X' for 'A100', 'RTX PRO 6000D'
    for 'RTX PRO 6000'): then it is another product than the one typed."""
    return any(_GLUED.fullmatch(g).group(1) in typed and g not in typed_glued for g in card_glued)


def runs(name: str) -> list[str]:
    """Runs of letters and digits as typed ('H100 SXM5-80GB' → h100, sxm5, 80gb): the words a slip misspells."""
    return re.findall(r"[a-z0-9]+", unicodedata.normalize("NFKC", name).lower())


#: a run longer than this is no misspelt card word (and difflib's "autojunk" would start at 200 characters)
RUN_MAX = 40
_O_AFTER_DIGIT = re.compile(r"(\d)(o+)")


def digits_for_o(run: str) -> str:
    """Letters O typed for zeros after a digit read as zeros: 'a1oo' → 'a100', 'h2o0' → 'h200'."""
    return _O_AFTER_DIGIT.sub(lambda m: m.group(1) + "0" * len(m.group(2)), run)


def words(name: str) -> frozenset[str]:
    """Distinguishing words: letters and digits split apart ('72GB' → 72, gb), filler words dropped."""
    return frozenset(re.findall(r"[a-z]+|\d+", unicodedata.normalize("NFKC", name).lower())) - FILLER


class NameError_(LookupError):
    """A name that is unknown or fits several cards; `candidates` are card ids to suggest."""

    def __init__(self, name: str, candidates: list[str], ambiguous: bool, several: bool = False):
        super().__init__(name)
        self.name = name
        self.candidates = candidates
        self.ambiguous = ambiguous  # the name fits several cards (`candidates`): one answer where all agree
        self.several = several      # the name names several cards ("L4 L40S"): always refused, listing them


@dataclass
class NameIndex:
    """Maps names to card ids."""

    cards: dict  # id -> plain card data
    exact: dict = field(default_factory=dict)
    wordsets: list = field(default_factory=list)  # (frozenset of words, card id)
    gluedsets: dict = field(default_factory=dict)  # card id -> glued tokens and normalised forms of all its names
    qualifiers: dict = field(default_factory=dict)  # card id -> glued tokens of its names ('a100x', '6000d')
    vocab: dict = field(default_factory=dict)  # card id -> every distinguishing word of its names
    known_runs: set = field(default_factory=set)  # every run of letters and digits of every card name (`runs`)

    def __post_init__(self):
        for cid, card in self.cards.items():
            for n in self._names(card):
                self.exact.setdefault(normalise(n), set()).add(cid)
                if words(n):
                    self.wordsets.append((words(n), cid))
                    self.vocab[cid] = self.vocab.get(cid, frozenset()) | words(n)
                self.gluedsets[cid] = self.gluedsets.get(cid, frozenset()) | glued(n) | {normalise(n)}
                self.qualifiers[cid] = self.qualifiers.get(cid, frozenset()) | glued(n)
                self.known_runs.update(r for r in runs(n) if len(r) <= RUN_MAX)
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
            hits = self._by_words(name)
        if len(hits) == 1:
            return next(iter(hits))
        if len(hits) > 1:
            return self._one_or_ambiguous(name, hits)
        several = self._several(name)
        if several:
            raise NameError_(name, several, ambiguous=True, several=True)
        typed, suffixed = words(name), glued(name)
        partial = sorted({cid for ws, cid in self.wordsets if typed and typed < ws})
        # a card whose model number carries a letter the name lacks is another product, unless only such remain
        plain = [cid for cid in partial if not _qualified(self.qualifiers.get(cid, frozenset()), typed, suffixed)]
        partial = plain or partial
        if len(partial) > 1:
            raise NameError_(name, partial, ambiguous=True)
        raise NameError_(name, partial or self._close(key) or self._within(typed) or self._respelled(name),
                         ambiguous=False)

    def _by_words(self, name: str) -> set:
        """Cards one of whose names has exactly the typed distinguishing words, in any order ("6000 rtx pro server
        edition"). More words than a name are no name either ("NVIDIA Jetson Thor (T" is not the Jetson Thor, whose
        other name "Jetson T5000" has a "T"): they get a "did you mean"."""
        typed, suffixed = words(name), glued(name)
        return {cid for ws, cid in self.wordsets if typed and ws == typed and suffixed <= self.gluedsets[cid]}

    def _several(self, name: str) -> list[str]:
        """The cards a name names where it names more than one: names joined by "or", "and", a comma … ("H200 NVL
        or L4"), or the words of two cards' names side by side and nothing else ("L4 L40S", "RTX PRO 6000 Server
        Edition Max-Q"); [] otherwise."""
        parts = [p for p in _SPLIT.split(name) if p and p.strip()]
        if len(parts) > 1:
            found: list[str] = []
            for part in parts:
                try:
                    found.append(self.resolve(part))
                except NameError_ as exc:
                    if not exc.ambiguous:
                        return []
                    found.extend(exc.candidates)
            found = list(dict.fromkeys(found))
            return sorted(found) if len(found) > 1 else []
        typed, suffixed = words(name), glued(name)
        best: dict[str, frozenset] = {}
        for ws, cid in self.wordsets:
            if ws <= typed and len(ws) > len(best.get(cid, ())):
                best[cid] = ws
        keep = [c for c in best if not any(best[c] < best[d] for d in best)]
        if len(keep) < 2:
            return []
        vocab = frozenset().union(*(self.vocab[c] for c in keep)) | CONNECTORS
        glue = frozenset().union(*(self.gluedsets[c] for c in keep))
        return sorted(keep) if typed <= vocab and suffixed <= glue else []

    def _one_or_ambiguous(self, name: str, hits: set) -> str:
        plain = [cid for cid in hits if self.cards[cid].get("plain_product")]
        if len(plain) == 1:
            return plain[0]
        raise NameError_(name, sorted(hits), ambiguous=True)

    def _within(self, typed: frozenset) -> list[str]:
        """Cards one of whose names the typed words hold ("H100 SXM5 80GB HBM3" holds "H100 SXM5 80GB"), the
        longest name first."""
        held = sorted({(-len(ws), cid) for ws, cid in self.wordsets if ws <= typed})
        return list(dict.fromkeys(cid for _, cid in held))[:3]

    def _respelled(self, name: str) -> list[str]:
        """The cards `name` would name (or be close to) with each run of letters and digits that is in no card name
        read as the closest one that is ("h101" → "h100", "sxm6" → "sxm5"; a letter O after a digit as a zero:
        "a1oo" → "a100"; difflib's ratio ≥ 0.7, the larger run on a tie): its card, or what resolving it suggests.
        [] where no run changes."""
        known, typed = sorted(self.known_runs), runs(name)
        fixed = []
        for run in typed:
            if run in self.known_runs or len(run) > RUN_MAX:
                fixed.append(run)
                continue
            zeros = digits_for_o(run)
            close = [zeros] if zeros in self.known_runs else difflib.get_close_matches(zeros, known, n=1, cutoff=0.7)
            fixed.append(close[0] if close else run)
        if fixed == typed:
            return []
        try:
            return [self.resolve(" ".join(fixed))]
        except NameError_ as exc:
            return list(exc.candidates)

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
                *(p["name"] if isinstance(p, dict) else p for p in card.get("product_names", [])),
                *(s["name"] if isinstance(s, dict) else s for s in card.get("systems", []))]

    @staticmethod
    def _pci(card: dict) -> list[str]:
        """Device ids from the index's list or the card's fact."""
        ids = card.get("pci_device_ids") or []
        return ids.get("value", []) if isinstance(ids, dict) else ids


#: name indexes built in this process, by what they read of the cards (see `name_index`)
_INDEXES: dict = {}


def name_index(cards: dict) -> NameIndex:
    """`NameIndex(cards)`, built once per process for cards with the same names and device ids (what it indexes);
    the index handed out holds `cards` itself (where it reads more of a card: the plain product). `gpukb check`
    resolves every node's product with it, a question its card's name."""
    key = tuple((cid, tuple(NameIndex._names(card)), tuple(NameIndex._pci(card))) for cid, card in cards.items())
    found = _INDEXES.get(key)
    if found is None:
        if len(_INDEXES) >= 16:
            _INDEXES.clear()
        found = _INDEXES[key] = NameIndex(cards)
    out = copy.copy(found)
    out.cards = cards
    return out
