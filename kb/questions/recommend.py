"""`ask recommend --workload W [--card CARD] [--isolation required]`: sharing methods ranked for a workload.

details.ranking lists the methods suited to the workload (catalog `suited_for`), best first, each with its
verdict, why and the risk for its neighbours; methods the rules rule out are in details.excluded.
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.questions import base, words
from kb.questions.methods import method_fact
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "sources")
USES = ("methods", "mig")

TITLE = Text("Recommendation", "Empfehlung")
HELP = Text(
    "Which sharing method suits a workload (ranked, with the risk for neighbours)?\n\n\b\nExample:\n"
    '  gpukb ask recommend --workload multi-tenant --isolation required --card "RTX PRO 6000 Server Edition"',
    "Welche Sharing-Methode passt zu einem Workload (gereiht, mit dem Risiko für Nachbarn)?\n\n\b\nBeispiel:\n"
    '  gpukb ask recommend --workload multi-tenant --isolation required --card "RTX PRO 6000 Server Edition" --lang de')
PARAMS = (
    base.Param("workload", required=True, metavar="W", values_from="workloads",
               help=Text("What runs on the GPUs.", "Was auf den GPUs läuft.")),
    base.Param("card", metavar="CARD", help=Text("Only methods that work on this card.",
                                                 "Nur Methoden, die auf dieser Karte gehen.")),
    base.Param("isolation", choices=("required",), help=Text("Consumers must be isolated from each other.",
                                                             "Die Nutzer müssen voneinander isoliert sein.")),
)


def resolve(index: dict, workload: str | None = None, card: str | None = None, isolation: str | None = None,
            operator: str | None = None) -> dict:
    workload = base.known_value(index, "workloads", workload, Text("workload", "Der Workload"))
    if isolation not in (None, "required"):
        raise UnusableInput(Text(f"--isolation takes 'required', not {isolation!r}",
                                 f"--isolation kennt nur 'required', nicht {isolation!r}"))
    given = card is not None
    return {"workload": workload, "card": base.card_id(index, card) if given else None,
            "isolation": isolation, "operator": base.operator_version(index, operator) if given else None}


def defaults(index: dict) -> list[dict]:
    """Every workload, without a card and for every card (newest operator release), with and without isolation."""
    out = []
    for workload in index["workloads"]:
        for isolation in (None, "required"):
            out.append({"workload": workload, "card": None, "isolation": isolation, "operator": None})
            out += [{"workload": workload, "card": c, "isolation": isolation, "operator": index["operator_releases"][0]}
                    for c in index["cards"]]
    return out


def _suitability(method: dict, workload: str) -> dict | None:
    return next((s for s in method.get("suited_for", []) if s["workload"] == workload), None)


def facts(asker, inputs: dict) -> list[dict]:
    data = asker.data
    card_verdicts = {}
    if inputs["card"]:
        methods = asker.answer("methods", {"card": inputs["card"], "operator": inputs["operator"], "driver": None,
                                           "mig_enabled": False}, cited=False)
        card_verdicts = methods["details"]["methods"]
    out = []
    for m in asker.index["methods"]:
        method = data["methods"].get(m)
        fit = _suitability(method, inputs["workload"]) if method else None
        if fit is None:
            continue
        fact = {**method_fact(method), "workload": inputs["workload"],
                "workload_name_en": words.word(words.WORKLOAD, inputs["workload"], "en"),
                "workload_name_de": words.word(words.WORKLOAD, inputs["workload"], "de"), "rank": fit["rank"],
                "why_en": fit["text"]["en"], "why_de": fit["text"]["de"],
                "isolation_required": inputs["isolation"] == "required", "card_given": bool(inputs["card"])}
        if inputs["card"]:
            card = data["cards"][inputs["card"]]
            fact.update(card=card["id"], name=card["short_name"], card_verdict=card_verdicts[m])
        out.append(fact)
    return sorted(out, key=lambda f: f["rank"])  # the reasons follow the ranking


def _conclusions_by_method(conclusions: list[dict], ranked: list[str], excluded: list[str]) -> list[dict]:
    """The conclusions the answer shows: an excluded method keeps only the reasons that rule it out (its "suits"
    reason and its conditions are dropped), the others follow the ranking's order — so reasons, conditions and
    details name the methods in one order."""
    def method(c):
        return c["details"].get("method")

    kept = [c for c in conclusions if method(c) not in excluded or c.get("verdict") == "no"]
    order = {m: i for i, m in enumerate(ranked)}
    return sorted(kept, key=lambda c: order.get(method(c), len(order)))


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    data = asker.data
    ranking, excluded = [], []
    for fact in facts(asker, inputs):
        m = fact["method"]
        about = [c for c in conclusions if c["details"].get("method") == m]
        verdict = base.fold_verdict(about)
        if verdict == "no":
            excluded.append(m)
            continue
        ranking.append({"method": m, "rank": fact["rank"], "verdict": verdict,
                        "why": {"en": fact["why_en"], "de": fact["why_de"]},
                        "risk": data["methods"][m]["neighbour_risk"],
                        "conditions": [c["condition"] for c in about if c.get("condition")]})
    ranking.sort(key=lambda r: (r["rank"], base.RANK[r["verdict"]], r["method"]))
    for place, r in enumerate(ranking, 1):
        r["rank"] = place  # the place in this answer's ranking: an excluded method never takes a place
    conclusions = _conclusions_by_method(conclusions, [r["method"] for r in ranking], excluded)
    verdict = ranking[0]["verdict"] if ranking else "no"
    names = {lang: [data["methods"][r["method"]]["name"][lang] for r in ranking] for lang in ("en", "de")}
    work = {lang: words.word(words.WORKLOAD, inputs["workload"], lang) for lang in ("en", "de")}
    if ranking:
        summary = {"en": f"For {work['en']}, in this order: {'; '.join(names['en'])}.",
                   "de": f"Für {work['de']}, in dieser Reihenfolge: {'; '.join(names['de'])}."}
    else:
        summary = {"en": f"No sharing method fits {work['en']} with these requirements.",
                   "de": f"Keine Sharing-Methode passt mit diesen Anforderungen zu {work['de']}."}
    return base.build("recommend", inputs, conclusions, verdict=verdict, summary=summary,
                      details={"ranking": ranking, "excluded": excluded}, data=data)
