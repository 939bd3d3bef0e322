"""`ask strategy --gpu CARD[:LAYOUT] …`: which mig.strategy a node with these GPUs needs.

A GPU without a layout (or `none`, `all-disabled`) stays out of MIG; a layout is `all-<profile>` or
profiles joined by commas (`1g.18gb,1g.18gb,2g.35gb`). details.strategy is `single` or `mixed`.
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.questions import base, words
from kb.questions.release import part
from kb.text import Text
from kb.versions import shown

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "releases", "sources")
USES = ("mig",)
TITLE = Text("MIG strategy", "MIG-Strategie")
HELP = Text(
    "Which mig.strategy does a node with these GPUs need?\n\n\b\nExample:\n"
    '  gpukb ask strategy --gpu "H200 NVL:all-1g.18gb" --gpu "H200 NVL" --driver 570.148.08',
    "Welche mig.strategy braucht ein Node mit diesen GPUs?\n\n\b\nBeispiel:\n"
    '  gpukb ask strategy --gpu "H200 NVL:all-1g.18gb" --gpu "H200 NVL" --driver 570.148.08 --lang de')
PARAMS = (
    base.Param("gpus", option="--gpu", multiple=True, metavar="CARD[:LAYOUT]", help=Text(
        "A GPU of the node with its MIG layout (all-<profile>, p1,p2,…, or none); once per GPU.",
        "Eine GPU des Nodes mit ihrem MIG-Layout (all-<Profil>, p1,p2,… oder none); einmal je GPU.")),
    base.OPERATOR, base.DRIVER,
)

#: what `facts` reads of the driver asked about (kb.questions.release parts), besides the MIG verdict of each card
#: under it: drivers equal in these get the same facts but for their version (kb.site.askdata.driver_classes;
#: tests/test_release_parts.py keeps this true)
DRIVER_PARTS = ("issues",)

_NO_MIG = ("none", "whole", "disabled", "all-disabled")


def _layout_error(spec: str, short: str, known: list[str], what: Text) -> UnusableInput:
    listed = ", ".join(known) if known else "none (the card has no MIG profiles)"
    gelistet = ", ".join(known) if known else "keine (die Karte hat keine MIG-Profile)"
    return UnusableInput(Text(f"{what.en} in {shown(spec)}; profiles of {short}: {listed}; layouts: all-<profile>, <profile>,<profile>,… or none",
                              f"{what.de} in {shown(spec, lang='de')}; Profile der {short}: {gelistet}; Layouts: all-<Profil>, <Profil>,<Profil>,… oder none"), suggestions=known)


def _fits(index: dict, cid: str, spec: str, profiles: list[str]) -> None:
    """A layout must fit on one GPU: no profile more often than the card holds it, no more compute slices
    than the card has (NVIDIA's placement rules can forbid more; this catches the impossible)."""
    card = index["cards"][cid]
    counts = card["profile_counts"]
    short = card["short_name"]
    for p in dict.fromkeys(profiles):
        if profiles.count(p) > counts[p]:
            raise UnusableInput(Text(f"{shown(spec)} does not fit on one {short}: {profiles.count(p)} × {p}, but the card holds at most {counts[p]}",
                                     f"{shown(spec, lang='de')} passt nicht auf eine {short}: {profiles.count(p)} × {p}, die Karte fasst höchstens {counts[p]}"))
    total = max(base.slices(p) * n for p, n in counts.items())
    used = sum(base.slices(p) for p in profiles)
    if used > total:
        raise UnusableInput(Text(f"{shown(spec)} does not fit on one {short}: its profiles need {used} compute slices, the card has {total}",
                                 f"{shown(spec, lang='de')} passt nicht auf eine {short}: Die Profile brauchen {used} Compute-Slices, die Karte hat {total}"))


def parse_gpu(index: dict, spec: str) -> dict:
    """'H200 NVL:all-1g.18gb' → {"card": "h200-nvl", "profiles": ["1g.18gb"]} (all instances of one profile);
    'H200 NVL:1g.18gb,2g.35gb' → the instances listed; 'H200 NVL' or 'H200 NVL:none' → no MIG."""
    name, colon, layout = str(spec).partition(":")
    cid = base.card_id(index, name)
    layout = layout.strip()
    known = index["cards"][cid]["profiles"]
    short = index["cards"][cid]["short_name"]
    if not colon or layout.lower() in _NO_MIG:
        return {"card": cid, "profiles": []}
    every = layout.lower().startswith("all-")
    wanted = [p.strip() for p in (layout[4:] if every else layout).split(",")]
    if not layout or any(not p for p in wanted) or (every and len(wanted) != 1):
        raise _layout_error(spec, short, known, Text("incomplete MIG layout", "unvollständiges MIG-Layout"))
    profiles = []
    for p in wanted:
        found = base.profile_name(index, cid, p)
        if found is None:
            raise _layout_error(spec, short, known, Text(f"unknown MIG profile {shown(p)} for {short}",
                                                         f"unbekanntes MIG-Profil {shown(p, lang='de')} für die {short}"))
        profiles.append(found)
    if not every:
        _fits(index, cid, spec, profiles)
    return {"card": cid, "profiles": profiles}


def resolve(index: dict, gpus: list[str] | tuple = (), operator: str | None = None, driver: str | None = None) -> dict:
    if not gpus:
        raise UnusableInput(Text("name the node's GPUs: --gpu CARD[:LAYOUT] (once per GPU)",
                                 "nennen Sie die GPUs des Nodes: --gpu KARTE[:LAYOUT] (einmal je GPU)"))
    return {"gpus": [parse_gpu(index, g) if isinstance(g, str) else g for g in gpus],
            "operator": base.operator_version(index, operator), "driver": base.driver_version(driver)}


def defaults(index: dict) -> list[dict]:
    """Per card with MIG profiles and operator release: one GPU with all instances of its first profile."""
    return [{"gpus": [{"card": cid, "profiles": [card["profiles"][0]]}], "operator": op, "driver": None}
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
            mig = asker.answer("mig", {"card": card["id"], "operator": inputs["operator"], "driver": inputs.get("driver")},
                               cited=False)
            fact["mig_verdict"] = mig["verdict"]
        out.append(fact)
    return out + [f for f in part("issues", asker.data, inputs["operator"], driver=inputs.get("driver"))
                  if f["trigger"] == "node-mixes-mig-and-full-gpus"]


_SUMMARY = {
    "single": Text("This node needs mig.strategy single (the default).", "Dieser Node braucht mig.strategy single (Standard)."),
    "mixed": Text("This node needs mig.strategy mixed.", "Dieser Node braucht mig.strategy mixed."),
}
#: what the verdict adds where it is not a plain yes
_BUT = {
    "conditional": Text("{word}: {summary} MIG on one of its GPUs is conditional (see below).",
                        "{word}: {summary} MIG auf einer seiner GPUs ist bedingt (siehe unten)."),
    "unconfirmed": Text("{word}: {summary} MIG on one of its GPUs is unconfirmed (see below).",
                        "{word}: {summary} MIG auf einer seiner GPUs ist unbestätigt (siehe unten)."),
    "no": Text("{word}: {summary} But this node does not work as asked (see below).",
               "{word}: {summary} So funktioniert dieser Node aber nicht (siehe unten)."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    verdict = base.fold_verdict(conclusions)
    strategy = "mixed" if any(c["details"].get("strategy") == "mixed" for c in conclusions) else "single"
    summary = _SUMMARY[strategy]
    if verdict != "yes":
        word = Text.of(words.VERDICT[verdict]).map(lambda w, _: words.capital(w))
        summary = _BUT[verdict].format(word=word, summary=summary.map(lambda t, lang: t[0].lower() + t[1:] if lang == "en" else t))
    return base.build("strategy", inputs, conclusions, verdict=verdict, summary=summary,
                      details={"strategy": strategy}, data=asker.data)
