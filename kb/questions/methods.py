"""`ask methods CARD [--operator V] [--driver V] [--mig-enabled]`: which sharing methods work on the card.

details.methods maps every method id to its verdict (the most restrictive verdict of the rules that
concluded about it). The answer's verdict is the best verdict of the methods that share a card (all but
`whole`): can this card be shared at all, and how surely.
"""

from __future__ import annotations

from kb import versions
from kb.errors import UnusableInput
from kb.questions import base, behaviour
from kb.questions.release import part
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "releases", "sources")
USES = ("mig",)
TITLE = Text("Sharing methods", "Sharing-Methoden")
HELP = Text(
    "Which sharing methods work on CARD ({methods})?\n\n\b\n"
    'Example:\n  gpukb ask methods "H200 NVL" --mig-enabled',
    "Welche Sharing-Methoden gehen auf KARTE ({methods})?\n\n\b\n"
    'Beispiel:\n  gpukb ask methods "H200 NVL" --mig-enabled --lang de')
PARAMS = (base.CARD, base.OPERATOR, base.DRIVER,
          base.Param("mig_enabled", "flag", Text("The GPU has MIG enabled.", "MIG ist auf der GPU aktiviert.")))
#: what `facts` reads of the driver asked about (kb.questions.release parts), besides the card's MIG verdict under it
#: (`gpukb ask mig`): drivers equal in these get the same facts but for their version (the ask page asks one of them:
#: kb.site.askdata.driver_classes; tests/test_release_parts.py keeps this true)
DRIVER_PARTS = ("issues",)
#: what `facts` reads of the GPU Operator release asked about (kb.questions.release), besides the card's MIG verdict
#: under it, and the only behaviour facts (component, statement) it reads itself (all of them go to the rules):
#: kb.site.askdata.question_classes (tests/test_release_parts.py keeps this true)
RELEASE_PARTS = ("behaviour", "dra", "kubevirt_vgpu", "listed", "issues")
STATEMENTS = (behaviour.MPS_SHARING,)



def resolve(index: dict, card: str, operator: str | None = None, driver: str | None = None,
            mig_enabled: bool = False) -> dict:
    cid = base.card_id(index, card)
    if mig_enabled and index["cards"][cid]["mig_status"] == "not-listed":
        name = index["cards"][cid]["short_name"]
        raise UnusableInput(Text(f"--mig-enabled does not fit {name}: it is not on NVIDIA's list of MIG-capable GPUs "
                              f"(see gpukb ask mig {cid})",
                                 f"--mig-enabled passt nicht zur {name}: Sie steht nicht auf NVIDIAs Liste der MIG-fähigen GPUs "
                              f"(siehe gpukb ask mig {cid})"))
    return {"card": cid, "operator": base.operator_version(index, operator),
            "driver": base.driver_version(driver), "mig_enabled": bool(mig_enabled)}


def defaults(index: dict) -> list[dict]:
    return [{"card": c, "operator": op, "driver": None, "mig_enabled": False}
            for c in index["cards"] for op in index["operator_releases"]]


def method_fact(method: dict) -> dict:
    """The method's own properties (shared with `recommend`)."""
    iso = method["isolation"]
    return {"kind": "method", "method": method["id"], "method_name_en": method["name"]["en"],
            "method_name_de": method["name"]["de"], "requires_mig": method.get("requires_mig", False),
            "excludes_mig": method.get("excludes_mig", False), "memory_isolation": iso["memory"]["value"],
            "fault_isolation": iso["fault"]["value"], "compute_isolation": iso["compute"]["value"]}


def dra_requirements(data: dict, operator: str) -> dict:
    """The DRA requirements as fact properties; whether this operator release manages the DRA driver."""
    req = data["methods"].get("dra", {}).get("requirements") or {}
    out = {key: req[key]["value"] for key in ("min_kubernetes", "min_operator", "driver_version") if key in req}
    if "min_operator" in out:
        out["operator_manages_dra"] = versions.compare(operator, out["min_operator"]) == "meets"
    return out


def kubevirt_vgpu(card: dict, operator: str | None = None) -> str:
    """listed | later | not-listed | unknown: whether the operator supports KubeVirt with NVIDIA vGPU on the card
    (its device list names it, or its code configures it); `later` where that support starts with a release after
    `operator` (`kubevirt_vgpu_since`); unknown where the catalog does not record it."""
    fact = card["operator_support"].get("kubevirt_vgpu")
    if fact is None:
        return "unknown"
    if not fact["value"]:
        return "not-listed"
    since = (card["operator_support"].get("kubevirt_vgpu_since") or {}).get("value")
    return "later" if operator and not versions.in_range(operator, since) else "listed"


def facts(asker, inputs: dict) -> list[dict]:
    """One fact per method, carrying what the rules need about the card and the query."""
    data = asker.data
    card = data["cards"][inputs["card"]]
    mig_inputs = {"card": inputs["card"], "operator": inputs["operator"], "driver": inputs["driver"]}
    context = {"card": card["id"], "name": card["short_name"], "operator": inputs["operator"],
               "mig_enabled": inputs["mig_enabled"], "mig_verdict": asker.answer("mig", mig_inputs, cited=False)["verdict"]}
    op = inputs["operator"]
    shipped = part("behaviour", data, op)
    out = []
    for m in asker.index["methods"]:
        if m in data["methods"]:
            fact = {**method_fact(data["methods"][m]), **context}
            if m == "dra":
                fact.update(part("dra", data, op))
            elif m == "vgpu":
                fact["kubevirt_vgpu"] = part("kubevirt_vgpu", data, op, card)
                if fact["kubevirt_vgpu"] == "later":
                    fact["kubevirt_vgpu_since"] = card["operator_support"]["kubevirt_vgpu_since"]["value"]
            elif m == "mps":
                fact["plugin_mps"] = behaviour.status_of(shipped, *behaviour.MPS_SHARING)
            out.append(fact)
    support = {"kind": "support", "card": card["id"], "name": card["short_name"], "operator": op,
               "operator_listed": part("listed", data, op, card)}
    issues = part("issues", data, op, card, driver=inputs["driver"])
    return [*out, support, *shipped, *issues]


def per_method(methods: list[str], conclusions: list[dict]) -> dict[str, str]:
    """Each method's verdict (in the order of `methods`): the most restrictive of the conclusions about it (a
    rule names one method in `details.method` or several in `details.methods`); unconfirmed if none."""
    named = [(c, c["details"].get("method"), c["details"].get("methods", ())) for c in conclusions]  # (read once)
    return {m: base.fold_verdict([c for c, one, several in named if one == m or m in several]) for m in methods}


_SUMMARY = {
    "yes": Text("{name} can be shared; see each method's verdict below.",
            "Die {name} lässt sich teilen; das Urteil je Methode steht unten."),
    "conditional": Text("{name} can be shared only under conditions; see each method below.",
                    "Die {name} lässt sich nur unter Bedingungen teilen; siehe die Methoden unten."),
    "unconfirmed": Text("NVIDIA does not document how {name} can be shared well enough to say yes.",
                    "NVIDIA dokumentiert nicht ausreichend, wie sich die {name} teilen lässt."),
    "no": Text("{name} cannot be shared here; only whole GPUs.", "Die {name} lässt sich hier nicht teilen; nur ganze GPUs."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    card = asker.data["cards"][inputs["card"]]
    methods = per_method(asker.index["methods"], conclusions)
    sharing = [v for m, v in methods.items() if m != "whole"]
    verdict = min(sharing, key=base.RANK.__getitem__)
    said = _SUMMARY[verdict]
    name = card["short_name"]
    return base.build("methods", inputs, conclusions, verdict=verdict,
                      summary={"en": said.en.format(name=name), "de": said.de.format(name=name)},
                      details={"methods": methods}, data=asker.data)
