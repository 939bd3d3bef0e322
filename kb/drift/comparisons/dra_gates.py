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
from kb.text import Text

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
        cap = _capability_id(data, entity, path)
        if gate is None:
            out.append(Change(sid, "gate-removed", Text(
                f"the feature gate our data's {cap} capability rests on is gone from the document "
                f"(its description “{cit.get('quote')}” is not in the table)",
                f"Das Feature-Gate, auf dem die Fähigkeit {cap} in unseren Daten beruht, fehlt im Dokument "
                f"(seine Beschreibung „{cit.get('quote')}“ steht nicht mehr in der Tabelle)"),
                touches=[ref], details={"quote": cit.get("quote")}))
            continue
        ours = node.get("value")
        if gate["stage"] != ours:
            out.append(Change(sid, "gate-maturity", Text(
                f"feature gate {gate['gate']} is {WORDS.get(gate['stage'], gate['stage'])} now "
                f"(our data, capability {cap}: {WORDS.get(ours, ours)})",
                f"Feature-Gate {gate['gate']} ist jetzt {WORDS.get(gate['stage'], gate['stage'])} "
                f"(unsere Daten, Fähigkeit {cap}: {WORDS.get(ours, ours)})"),
                touches=[ref], patch=[{"entity": entity, "path": [*path, "value"], "value": gate["stage"]}],
                details={"gate": gate["gate"], "quote": cit.get("quote")}))
        elif ours == "alpha" and gate["default"]:
            out.append(Change(sid, "gate-default", Text(
                f"feature gate {gate['gate']} is on by default now, though still Alpha (our data, capability {cap}: "
                "off by default)",
                f"Feature-Gate {gate['gate']} ist jetzt standardmäßig an, obwohl noch Alpha (unsere Daten, Fähigkeit "
                f"{cap}: standardmäßig aus)"),
                touches=[ref], details={"gate": gate["gate"], "quote": cit.get("quote")}))
    return out


def _capability_id(data: dict, entity: str, path: tuple) -> str:
    kind, ident = entity.split("/", 1)
    node = data.get(kind, {}).get(ident, {})
    for p in path[:-1]:
        node = node[p]
    return node.get("id", ident) if isinstance(node, dict) else ident
