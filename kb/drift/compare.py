"""Compare what an extractor read with the catalog: a list of changes, each in plain words (en/de), with the
catalog facts it touches and, where the change is mechanical, the catalog edit it implies (`patch`).

One comparison module per document kind lives in kb/drift/comparisons/; every source also gets the quote
check: each quote of the catalog that cites the source (and is not pinned to an older snapshot) must
still occur in the document, markup and whitespace normalised as `gpukb lint` does.
"""

from __future__ import annotations

import importlib
from dataclasses import asdict, dataclass, field
from typing import Iterator

from kb.catalog.facts import fact_ref
from kb.lint.snapshots import normalise

#: extractor id → module of kb.drift.comparisons ("quotes-only" has none: quotes are checked for all)
COMPARISONS = {
    "release-notes": "releases",
    "device-plugin-changelog": "releases",
    "platform-support": "platform",
    "component-matrix": "matrix",
    "device-plugin-readme": "readme",
    "mig-parted-config": "mig_config",
    "dra-prerequisites": "dra",
}


@dataclass
class Change:
    """One difference between a watched document and the catalog."""

    source: str
    kind: str  # e.g. "product-removed", "release-newer", "quote-gone"
    text: dict  # {"en": …, "de": …}
    touches: list[str] = field(default_factory=list)  # catalog facts: "cards/<id> operator_support.listed"
    patch: list[dict] = field(default_factory=list)  # [{"entity": "cards/<id>", "path": [...], "value": …}]
    details: dict = field(default_factory=dict)  # e.g. {"quote": the catalog's quote as written}
    answers: list[dict] = field(default_factory=list)  # set by kb.drift.impact: answers it changes / relies on

    def as_dict(self) -> dict:
        return asdict(self)


def say(en: str, de: str) -> dict:
    return {"en": en, "de": de}


def compare(source: dict, extracted: dict, text: str, data: dict) -> list[Change]:
    """Every change for one watched source: its kind's comparison, then the quotes."""
    module = COMPARISONS.get(source["watch"]["extractor"])
    changes = []
    if module:
        changes += importlib.import_module(f"kb.drift.comparisons.{module}").compare(source, extracted, data)
    touched = {ref for c in changes for ref in c.touches}
    # a quote of a fact the kind's comparison already reports (profile gone, release gone) adds nothing
    changes += [c for c in quotes_gone(source, text, data) if not _within(c.touches[0], touched)]
    return changes


def _within(ref: str, touched: set[str]) -> bool:
    """Whether a fact reference is, or lies inside, one of the touched ones."""
    return any(ref == t or ref.startswith((t + ".", t + "[")) for t in touched)


def entities(data: dict) -> Iterator[tuple[str, dict]]:
    """("cards/<id>", card), ("releases/<component>", file), ("methods/<id>", method)."""
    for kind in ("cards", "releases", "methods"):
        for ident, entity in sorted(data.get(kind, {}).items()):
            yield f"{kind}/{ident}", entity


def citations(node, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """(path of the cited item, citation) for every citation below node, disputed claims included."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cite" and isinstance(value, list):
                yield from ((path, c) for c in value if isinstance(c, dict))
            else:
                yield from citations(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from citations(item, path + (i,))


def cites(node: dict | None, source_id: str) -> bool:
    """Whether an item's own citations name the source."""
    return bool(node) and any(c.get("source") == source_id for c in node.get("cite", []))


def quotes_gone(source: dict, text: str, data: dict) -> list[Change]:
    """Quotes citing this source that the document no longer contains. The platform-support file is left
    out: its rows are compared product by product (kb.drift.comparisons.platform)."""
    doc = normalise(text)
    out = []
    for entity, node in entities(data):
        for path, cit in citations(node):
            if cit.get("source") != source["id"] or cit.get("snapshot"):
                continue
            quote = normalise(str(cit.get("quote", "")))
            if quote and quote not in doc:
                ref = f"{entity} {fact_ref(path)}"
                short = quote if len(quote) <= 90 else quote[:87] + "…"
                out.append(Change(
                    source["id"], "quote-gone",
                    say(f"quote “{short}” of {ref} is gone from {source['id']}",
                        f"Zitat „{short}“ von {ref} fehlt jetzt in {source['id']}"),
                    touches=[ref], details={"quote": cit["quote"]}))
    return out
