"""`ask strategy --gpu CARD[:LAYOUT] …`: which mig.strategy a node with these GPUs needs.

A GPU without a layout (or `none`, `all-disabled`) stays out of MIG; a layout is `all-<profile>` or
profiles joined by commas (`1g.18gb,1g.18gb,2g.35gb`). details.strategy is `single` or `mixed`.
"""

from __future__ import annotations

from kb.questions import base

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "releases", "sources")
USES = ("mig",)

_NO_MIG = ("", "none", "whole", "disabled", "all-disabled")


def parse_gpu(index: dict, spec: str) -> dict:
    """'H200 NVL:all-1g.18gb' → {"card": "h200-nvl", "profiles": ["1g.18gb"]}."""
    name, _, layout = str(spec).partition(":")
    cid = base.card_id(index, name)
    layout = layout.strip()
    if layout.lower() in _NO_MIG:
        return {"card": cid, "profiles": []}
    wanted = [p.strip() for p in (layout[4:] if layout.startswith("all-") else layout).split(",") if p.strip()]
    known = index["cards"][cid]["profiles"]
    short = index["cards"][cid]["short_name"]
    for p in wanted:
        if p not in known:
            listed = ", ".join(known) if known else "none (the card has no MIG profiles)"
            gelistet = ", ".join(known) if known else "keine (die Karte hat keine MIG-Profile)"
            raise base.InputError(
                f"unknown MIG profile {p!r} for {short} in {spec!r}; known: {listed}; layouts: all-<profile>, "
                "<profile>,<profile>,… or all-disabled",
                f"unbekanntes MIG-Profil {p!r} für die {short} in {spec!r}; bekannt: {gelistet}; Layouts: "
                "all-<Profil>, <Profil>,<Profil>,… oder all-disabled", known)
    return {"card": cid, "profiles": wanted}


def resolve(index: dict, gpus: list[str] | tuple = (), operator: str | None = None) -> dict:
    if not gpus:
        raise base.InputError("name the node's GPUs: --gpu CARD[:LAYOUT] (once per GPU)",
                              "nennen Sie die GPUs des Nodes: --gpu KARTE[:LAYOUT] (einmal je GPU)")
    return {"gpus": [parse_gpu(index, g) if isinstance(g, str) else g for g in gpus],
            "operator": base.operator_version(index, operator)}


def defaults(index: dict) -> list[dict]:
    """Per card with MIG profiles and operator release: one GPU with all instances of its first profile."""
    return [{"gpus": [{"card": cid, "profiles": [card["profiles"][0]]}], "operator": op}
            for cid, card in index["cards"].items() if card["profiles"] for op in index["operator_releases"]]


def facts(asker, inputs: dict) -> list[dict]:
    cards = asker.data["cards"]
    gpus = inputs["gpus"]
    used = sorted({p for g in gpus for p in g["profiles"]})
    mig_gpus = sum(1 for g in gpus if g["profiles"])
    node = {"kind": "node", "gpus": len(gpus), "mig_gpus": mig_gpus, "whole_gpus": len(gpus) - mig_gpus,
            "distinct_profiles": len(used), "profiles": ", ".join(used)}
    if len(used) == 1:
        node["profile"] = used[0]
    out = [node]
    for i, g in enumerate(gpus, 1):
        card = cards[g["card"]]
        fact = {"kind": "gpu", "index": i, "card": card["id"], "name": card["short_name"], "mig": bool(g["profiles"]),
                "node_uses_mig": mig_gpus > 0, "profiles": ", ".join(g["profiles"])}
        if g["profiles"]:
            mig = asker.answer("mig", {"card": card["id"], "operator": inputs["operator"], "driver": None})
            fact["mig_verdict"] = mig["verdict"]
        out.append(fact)
    return out


_SUMMARY = {
    "single": ("This node needs mig.strategy single (the default).", "Dieser Node braucht mig.strategy single (Standard)."),
    "mixed": ("This node needs mig.strategy mixed.", "Dieser Node braucht mig.strategy mixed."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    verdict = base.fold_verdict(conclusions)
    strategy = "mixed" if any(c["details"].get("strategy") == "mixed" for c in conclusions) else "single"
    en, de = _SUMMARY[strategy]
    if verdict != "yes":
        word = base.VERDICT_WORD[verdict]
        en = f"{word['en']}: {en[0].lower()}{en[1:]} MIG on one of its GPUs is {word['en'].lower()} (see below)."
        de = f"{word['de']}: {de[0].lower()}{de[1:]} MIG auf einer seiner GPUs ist {word['de'].lower()} (siehe unten)."
    return base.build("strategy", inputs, conclusions, verdict=verdict, summary={"en": en, "de": de},
                      details={"strategy": strategy}, data=asker.data)
