"""One card with every fact and its citations: as a JSON-ready dict and as footnoted text."""

from __future__ import annotations

from kb.catalog.facts import citation, fact_ref, iter_facts
from kb.render.labels import label, value_text
from kb.text import Text
from kb.wording import citation_text, dash, shown


def _citation(data: dict, cit: dict) -> dict:
    """A citation as `gpukb card --json` shows it: section only where given, the snapshot it pins, the English
    translation of a German quote, and whether our article is the only source."""
    full = citation(data, cit)
    out = {k: full[k] for k in ("source", "title", "url", "quote")}
    for key in ("section", "snapshot", "translation", "only_source"):
        if cit.get(key):
            out[key] = cit[key]
    return out


def _shown(data: dict, cites: list[dict], path: str) -> list[dict]:
    """The citations a reader sees (kb.wording.shown: NVIDIA first, our article only where it belongs)."""
    return [_citation(data, c) for c in shown(data, cites, path)]


def card_facts(data: dict, card_id: str) -> list[dict]:
    """Every cited fact of a card, in file order."""
    card = data["cards"][card_id]
    out = []
    for path, fact in iter_facts(card):
        ref = fact_ref(path)
        item = {"path": ref, "value": fact["value"], "citations": _shown(data, fact["cite"], ref)}
        if fact.get("note"):
            item["note"] = fact["note"]
        if fact.get("inferred"):
            item["inferred"] = fact["inferred"]
        if fact.get("disputed_by"):
            item["disputed_by"] = [{"value": c["value"], "note": c["note"],
                                    "citations": _shown(data, c["cite"], ref)} for c in fact["disputed_by"]]
        out.append(item)
    return out


def card_json(data: dict, card_id: str) -> dict:
    card = data["cards"][card_id]
    return {
        "id": card_id,
        "name": card["name"],
        "short_name": card["short_name"],
        "aliases": card.get("aliases", []),
        "group": card["group"],
        "product_names": [p["name"] for p in card.get("product_names", [])],
        "systems": [s["name"] for s in card.get("systems", [])],
        "file": f"catalog/{data['files'][f'cards/{card_id}']}",
        "facts": card_facts(data, card_id),
        "data_version": data["data_version"],
    }


def card_text(data: dict, card_id: str, lang: str) -> str:
    doc = card_json(data, card_id)
    notes: list[str] = []
    index: dict[tuple, int] = {}

    def mark(cit: dict) -> str:
        key = (cit["source"], cit["quote"])
        if key not in index:
            index[key] = len(index) + 1
            text = citation_text(cit, lang, source={"language": data["sources"].get(cit["source"], {}).get("language")})
            notes.append(f"[{index[key]}] {text} {cit['url'] or ''}".rstrip())
        return f"[{index[key]}]"

    lines = [doc["name"], "=" * len(doc["name"])]
    if doc["aliases"]:
        lines.append(Text("Also: ", "Auch: ")(lang) + ", ".join(doc["aliases"]))
    if doc["product_names"]:
        lines.append(Text("Reported by the driver as: ", "Vom Treiber gemeldet als: ")(lang) + ", ".join(doc["product_names"]))
    if doc["systems"]:
        lines.append(Text("In the systems: ", "In den Systemen: ")(lang) + ", ".join(doc["systems"]))
    lines.append("")
    for fact in doc["facts"]:
        marks = "".join(mark(c) for c in fact["citations"])
        lines.append(f"{label(fact['path'], lang)}: {value_text(fact['value'], lang, fact['path'])} {marks}")
        if fact.get("note"):
            lines.append(f"    {fact['note'][lang]}")
        if fact.get("inferred"):
            lines.append(f"    {Text('Inferred, not quoted: ', 'Abgeleitet, nicht zitiert: ')(lang)}{fact['inferred'][lang]}")
        for other in fact.get("disputed_by", []):
            omarks = "".join(mark(c) for c in other["citations"])
            lead = Text("Disputed: ", "Abweichend: ")(lang)
            lines.append(f"    {lead}{value_text(other['value'], lang, fact['path'])} {omarks} {dash(lang)} {other['note'][lang]}")
    lines += ["", Text("Sources:", "Quellen:")(lang)] + notes
    lines.append(Text("Data version {version}", "Datenversion {version}").format(version=data["data_version"])(lang))
    return "\n".join(lines)
