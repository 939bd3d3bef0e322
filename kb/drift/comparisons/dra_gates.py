"""DRA feature gates against the catalog's DRA capabilities (methods/<id> capabilities[…].maturity).

A capability whose maturity cites this page rests on one gate: the gate whose description holds the cited
quote. Its stage must equal the catalog's maturity (Alpha → Beta is a changed fact, offered as the patch),
and a gate the catalog calls alpha must still be off by default (Kubernetes' convention; the catalog says
so). A gate the catalog rests on that is gone from the table is a changed fact. Gates the catalog does not
rest on are not compared (the page lists ComputeDomain gates the knowledge base does not cover).
"""

from __future__ import annotations

from kb.catalog.facts import fact_ref
from kb.drift.compare import Change, cited_items
from kb.lint.snapshots import normalise
from kb.questions import words
from kb.text import Text
from kb.wording import quoted

WORDS = {"alpha": "Alpha", "beta": "Beta", "ga": "GA", "deprecated": "Deprecated"}


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    gates = extracted["gates"]
    out: list[Change] = []
    for entity, path, node, cit in cited_items(data, sid):
        if not path or path[-1] != "maturity":
            continue
        quote = normalise(str(cit.get("quote", "")))
        gate = next((g for g in gates if quote and quote in normalise(g["description"])), None)
        ref = f"{entity} {fact_ref(path)}"
        cap = _capability(data, entity, path)
        if gate is None:
            out.append(Change(sid, "gate-removed", Text(
                f"the feature gate our data on DRA for {cap.en} rest on is gone from the document "
                f"(its description {quoted(cit.get('quote', ''), 'en')} is not in the table)",
                f"Das Feature-Gate, auf dem unsere Daten zu DRA für {cap.de} beruhen, fehlt im Dokument "
                f"(seine Beschreibung {quoted(cit.get('quote', ''), 'de')} steht nicht mehr in der Tabelle)"),
                touches=[ref], details={"quote": cit.get("quote")}))
            continue
        ours = node.get("value")
        if gate["stage"] != ours:
            out.append(Change(sid, "gate-maturity", Text(
                f"feature gate {gate['gate']} is {WORDS.get(gate['stage'], gate['stage'])} now "
                f"(our data on DRA for {cap.en}: {WORDS.get(ours, ours)})",
                f"Feature-Gate {gate['gate']} ist jetzt {WORDS.get(gate['stage'], gate['stage'])} "
                f"(unsere Daten zu DRA für {cap.de}: {WORDS.get(ours, ours)})"),
                touches=[ref], patch=[{"entity": entity, "path": [*path, "value"], "value": gate["stage"]}],
                details={"gate": gate["gate"], "quote": cit.get("quote")}))
        elif ours == "alpha" and gate["default"]:
            out.append(Change(sid, "gate-default", Text(
                f"feature gate {gate['gate']} is on by default now, though still Alpha (our data on DRA for {cap.en}: "
                "off by default)",
                f"Feature-Gate {gate['gate']} ist jetzt standardmäßig an, obwohl noch Alpha (unsere Daten zu DRA für "
                f"{cap.de}: standardmäßig aus)"),
                touches=[ref], details={"gate": gate["gate"], "quote": cit.get("quote")}))
    return out


def _capability(data: dict, entity: str, path: tuple) -> Text:
    """The DRA capability the cited maturity belongs to, in words ("whole GPUs"; its id where we have no words)."""
    kind, ident = entity.split("/", 1)
    node = data.get(kind, {}).get(ident, {})
    for p in path[:-1]:
        node = node[p]
    cid = node.get("id", ident) if isinstance(node, dict) else ident
    return Text(words.word(words.DRA_FEATURE, cid, "en"), words.word(words.DRA_FEATURE, cid, "de"))
