"""Compare what an extractor read with the catalog: a list of changes, each in plain words (en/de), with the
catalog facts it touches and, where the change is mechanical, the catalog edit it implies (`patch`).

One comparison module per document kind lives in kb/drift/comparisons/; every source also gets the quote
check: each quote of the catalog that cites the source (and is not pinned to an older snapshot) must
still occur in the document, markup and whitespace normalised as `gpukb lint` does.
"""

from __future__ import annotations

import importlib
import copy
from dataclasses import dataclass, field, fields
from typing import Iterator

from kb.catalog.facts import fact_ref
from kb.drift.quotes import Finder
from kb.text import Text
from kb.wording import quoted

#: extractor id → module of kb.drift.comparisons ("quotes-only" has none: quotes are checked for all)
COMPARISONS = {
    "release-notes": "releases",
    "device-plugin-changelog": "releases",
    "platform-support": "platform",
    "component-matrix": "matrix",
    "device-plugin-readme": "readme",
    "mig-parted-config": "mig_config",
    "dra-prerequisites": "dra",
    "dra-feature-gates": "dra_gates",
    "helm-chart": "chart",
}


#: how much a change matters: a fact changed (fails the run); only the wording of a quote (reported,
#: offered as a catalog patch, does not fail the run); a note (e.g. a pre-release: reported only)
RANKS = ("fact", "reworded", "note")


@dataclass
class Change:
    """One difference between a watched document and the catalog."""

    source: str
    kind: str  # e.g. "product-removed", "release-newer", "quote-gone", "quote-reworded"
    text: Text
    touches: list[str] = field(default_factory=list)  # catalog facts: "cards/<id> operator_support.listed"
    patch: list[dict] = field(default_factory=list)  # [{"entity": "cards/<id>", "path": [...], "value": …}]
    details: dict = field(default_factory=dict)  # e.g. {"quote": the catalog's quote as written}
    answers: list[dict] = field(default_factory=list)  # set by kb.drift.impact: answers it changes / relies on
    rank: str = "fact"  # one of RANKS
    read_by: list[dict] = field(default_factory=list)  # set by kb.drift.impact: rules that read a touched fact

    def as_dict(self) -> dict:
        """Plain JSON-able data (dataclasses.asdict cannot rebuild a Text)."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) if f.name != "text" else dict(self.text)
                for f in fields(self)}


def compare(source: dict, extracted: dict, text: str, data: dict) -> list[Change]:
    """Every change for one watched source: its kind's comparison, then the quotes."""
    module = COMPARISONS.get(source["watch"]["extractor"])
    changes = []
    if module:
        changes += importlib.import_module(f"kb.drift.comparisons.{module}").compare(source, extracted, data)
    touched = {ref for c in changes for ref in c.touches}
    # a quote of a fact the kind's comparison already reports (profile gone, release gone) adds nothing
    changes += [c for c in quotes_gone(source, text, data, extracted) if not _within(c.touches[0], touched)]
    return changes


def _within(ref: str, touched: set[str]) -> bool:
    """Whether a fact reference is, or lies inside, one of the touched ones."""
    return any(ref == t or ref.startswith((t + ".", t + "[")) for t in touched)


def entities(data: dict) -> Iterator[tuple[str, dict]]:
    """("cards/<id>", card), ("releases/<component>", file), ("methods/<id>", method)."""
    for kind in ("cards", "releases", "methods"):
        for ident, entity in sorted(data.get(kind, {}).items()):
            yield f"{kind}/{ident}", entity


def component_name(data: dict, component: str) -> str:
    """A component as a reader knows it: its releases file's name, else NVIDIA's name from the component matrix."""
    from kb.questions import words

    return (data.get("releases", {}).get(component) or {}).get("name") or words.COMPONENT.get(component, component)


def entity_name(data: dict, entity: str, path: tuple = ()) -> Text:
    """What an entity ("cards/l4", "releases/device-plugin", "methods/mps") is called in a finding sentence: the
    card's short name, the component's name (with the release a path into its releases names), the method's name
    (its id stays in the finding's reference part)."""
    kind, _, ident = entity.partition("/")
    node = data.get(kind, {}).get(ident) or {}
    if kind == "cards":
        return Text(node.get("short_name") or ident)
    if kind == "releases":
        name = component_name(data, ident)
        if len(path) > 1 and path[0] == "releases" and isinstance(path[1], int) and path[1] < len(node.get("releases", [])):
            name += f" {node['releases'][path[1]].get('version', '')}".rstrip()
        return Text(name)
    name = node.get("name")
    return Text.of(name) if isinstance(name, dict) else Text(name or ident)


def citations(node, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """(path of the cited item, citation) for every citation below node, disputed claims included."""
    for at, _k, cit in _citations_at(node, path):
        yield at, cit


def cited_items(data: dict, source_id: str) -> Iterator[tuple[str, tuple, dict, dict]]:
    """(entity, path of the cited item, the item, citation) for every citation of a source (quotes pinned to an
    older snapshot left out)."""
    for entity, node in entities(data):
        for path, _k, cit in _citations_at(node):
            if cit.get("source") == source_id and not cit.get("snapshot"):
                item = node
                for p in path:
                    item = item[p]
                yield entity, path, item, cit


class Sections(dict):
    """Section → catalog facts ("<entity> <path>") whose citations of one source name that section."""

    def __init__(self):
        super().__init__()
        self._quotes: dict[str, list[str]] = {}

    def add(self, section: str, ref: str, quote: str) -> None:
        refs = self.setdefault(section, [])
        if ref not in refs:
            refs.append(ref)
        self._quotes.setdefault(section, []).append(quote)

    def quotes(self, section: str) -> list[str]:
        return self._quotes.get(section, [])


def cited_sections(data: dict, source_id: str) -> Sections:
    """The sections of a source the catalog cites, with the facts citing each (quotes pinned to an older
    snapshot left out)."""
    out = Sections()
    for entity, node in entities(data):
        for path, _k, cit in _citations_at(node):
            if cit.get("source") == source_id and cit.get("section") and not cit.get("snapshot"):
                out.add(cit["section"], f"{entity} {fact_ref(path)}", str(cit.get("quote", "")))
    return out


def cites(node: dict | None, source_id: str) -> bool:
    """Whether an item's own citations name the source."""
    return bool(node) and any(c.get("source") == source_id for c in node.get("cite", []))


def quotes_gone(source: dict, text: str, data: dict, extracted: dict | None = None) -> list[Change]:
    """Quotes citing this source that the document no longer contains (compared as `gpukb lint` compares,
    and also against the text of each table cell, so a re-wrapped cell still holds its quote). A quote
    whose wording changed a little (a case-insensitive fuzzy match of at least quotes.THRESHOLD) is
    "reworded": reported with the new wording as the catalog patch, not as a changed fact."""
    finder = Finder(text, (extracted or {}).get("cells", []))
    out = []
    for entity, node in entities(data):
        for path, k, cit in _citations_at(node):
            if cit.get("source") != source["id"] or cit.get("snapshot"):
                continue
            quote = str(cit.get("quote", ""))
            found = finder.find(quote)
            if found.exact:
                continue
            # the sentence names what the quote backs in the reader's words; the fact path is the reference part's
            ref = f"{entity} {fact_ref(path)}"
            about = entity_name(data, entity, path)
            short = Text(quoted(_short(found.quote), "en"), quoted(_short(found.quote), "de"))
            if found.match is not None and not found.reworded:
                new = Text(quoted(_short(found.match), "en"), quoted(_short(found.match), "de"))
                out.append(Change(
                    source["id"], "quote-changed",
                    Text("the quote {short} behind our data on {about} now reads {new} in the document (another "
                         "number, name or negation)",
                         "Das Zitat {short}, das unsere Daten zu {about} belegt, lautet im Dokument jetzt {new} "
                         "(andere Zahl, anderer Name oder eine Verneinung)").format(short=short, about=about, new=new),
                    touches=[ref], details={"quote": cit["quote"], "new_quote": found.match,
                                           "similarity": found.ratio}))
                continue
            if found.match is not None:
                new = Text(quoted(_short(found.match), "en"), quoted(_short(found.match), "de"))
                out.append(Change(
                    source["id"], "quote-reworded",
                    Text("the quote {short} behind our data on {about} is worded differently in the document now: "
                         "{new}",
                         "Das Zitat {short}, das unsere Daten zu {about} belegt, lautet im Dokument jetzt anders: "
                         "{new}").format(short=short, about=about, new=new),
                    touches=[ref], rank="reworded",
                    patch=[{"entity": entity, "path": [*path, "cite", k, "quote"], "value": found.match}],
                    details={"quote": cit["quote"], "new_quote": found.match, "similarity": found.ratio}))
                continue
            out.append(Change(
                source["id"], "quote-gone",
                Text("the quote {short} behind our data on {about} is gone from the document",
                     "Das Zitat {short}, das unsere Daten zu {about} belegt, fehlt jetzt im Dokument").format(
                    short=short, about=about),
                touches=[ref], details={"quote": cit["quote"]}))
    return out


def _short(quote: str) -> str:
    return quote if len(quote) <= 90 else quote[:87] + "…"


def _citations_at(node, path: tuple = ()) -> Iterator[tuple[tuple, int, dict]]:
    """(path of the cited item, index in its `cite` list, citation), disputed claims included."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cite" and isinstance(value, list):
                yield from ((path, k, c) for k, c in enumerate(value) if isinstance(c, dict))
            else:
                yield from _citations_at(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _citations_at(item, path + (i,))
