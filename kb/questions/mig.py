"""`ask mig CARD [--operator V] [--driver V]`: can the card run MIG here."""

from __future__ import annotations

from kb import versions
from kb.questions import base
from kb.questions.release import part
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "releases", "sources")
USES = ()
#: what `facts` and the fold read of the GPU Operator release asked about (kb.questions.release): releases equal in
#: these get the same facts but for their version (the ask page asks one of them: kb.site.askdata.question_classes;
#: tests/test_release_parts.py keeps this true)
RELEASE_PARTS = ("listed", "layouts", "issues")
TITLE = Text("MIG", "MIG")
HELP = Text(
    'Can CARD run MIG (with this operator release and driver)?\n\n\b\nExample:\n'
    '  gpukb ask mig "RTX PRO 6000 Server Edition" --driver 575.57.08',
    'Kann KARTE MIG nutzen (mit diesem Operator-Release und Treiber)?\n\n\b\nBeispiel:\n'
    '  gpukb ask mig "RTX PRO 6000 Server Edition" --driver 575.57.08 --lang de')
PARAMS = (base.CARD, base.OPERATOR, base.DRIVER)


def resolve(index: dict, card: str, operator: str | None = None, driver: str | None = None) -> dict:
    return {"card": base.card_id(index, card), "operator": base.operator_version(index, operator),
            "driver": base.driver_version(driver)}


def defaults(index: dict) -> list[dict]:
    return [{"card": c, "operator": op, "driver": None} for c in index["cards"] for op in index["operator_releases"]]


def _value(node: dict | None, *path):
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node.get("value") if isinstance(node, dict) else node


def listed_since(card: dict) -> str | None:
    """The first GPU Operator release whose support list names the card (None: every release the catalog knows)."""
    return (card["operator_support"].get("since") or {}).get("value")


def listed_at(card: dict, operator: str) -> bool:
    """Is the card on the operator's support list of this release (the list entry holds `since` on)?"""
    support = card["operator_support"]
    return bool(support["listed"]["value"]) and versions.in_range(operator, listed_since(card))


def card_facts(card: dict, operator: str, driver: str | None = None, *, listed: bool) -> list[dict]:
    """The card fact and its driver exceptions, as of the operator release (`listed`: its support list names the
    card, kb.questions.release) and driver. Version comparisons are done here: rules compare properties with
    constants only."""
    mig, support = card["mig"], card["operator_support"]
    fact = {
        "kind": "card", "card": card["id"], "name": card["short_name"], "operator": operator,
        "mig_status": mig["status"]["value"], "availability": (card.get("availability") or {}).get("value", "unknown"),
        "operator_listed": listed,
        "prerequisites_published": bool(_value(mig, "prerequisites", "prerequisites_published")),
        "display_mode_switch": bool(_value(mig, "prerequisites", "display_mode_switch")),
        "written_confirmation": bool(_value(mig, "prerequisites", "written_confirmation")),
        "driver_given": driver is not None,
    }
    if driver is not None:
        fact["driver"] = driver
    for key, value in (("mig_min_driver", _value(mig, "prerequisites", "min_driver")),
                       ("op_min_driver", _value(support, "min_driver"))):
        if value:
            fact[key] = value
            if driver is not None:
                fact[f"driver_vs_{key}"] = versions.compare(driver, value)
    if _value(mig, "max_instances"):
        fact["max_instances"] = mig["max_instances"]["value"]
    out = [fact]
    for exc in support.get("driver_exceptions", []):
        if exc["feature"] in ("mig", "all"):
            out.append({"kind": "driver_exception", "card": card["id"], "name": card["short_name"],
                        "mig_status": fact["mig_status"], "feature": exc["feature"], "driver": exc["driver"],
                        "text_en": exc["fact"]["value"]["en"], "text_de": exc["fact"]["value"]["de"],
                        "driver_given": driver is not None,
                        "applies": driver is not None and versions.key(driver) == versions.key(exc["driver"])})
    return out


def layout_ids(card: dict, index: dict | None) -> list[str]:
    """The PCI device ids whose MIG layouts serve the card: its own, and those of every card of the index with the
    very same MIG profiles and counts (mig-parted's layouts name profiles, so a layout written for the RTX PRO 6000
    Server Edition's id applies to the Max-Q's GPU, which has the same profiles, wherever it has no device filter).
    Empty where the card has no profiles or no device id of its own is recorded."""
    profiles = card["mig"].get("profiles")
    own = (card.get("pci_device_ids") or {}).get("value") or []
    if not profiles or not own:
        return []
    counts = {p["name"]: p["max_count"] for p in profiles}
    same = [i for cid, c in ((index or {}).get("cards") or {}).items()
            if cid != card["id"] and c.get("profile_counts") == counts for i in c.get("pci_device_ids", [])]
    return [*own, *(i for i in same if i not in own)]


def layouts_fact(data: dict, card: dict, operator: str, index: dict | None = None) -> dict:
    """Whether the release's MIG Manager has layouts for the card's PCI device id or for a GPU with the same MIG
    profiles (kb.questions.behaviour)."""
    return {"kind": "mig_layouts", "card": card["id"], "name": card["short_name"], "operator": operator,
            "operator_listed": part("listed", data, operator, card),
            **part("layouts", data, operator, card, index)}


def facts(asker, inputs: dict) -> list[dict]:
    data, op = asker.data, inputs["operator"]
    card = data["cards"][inputs["card"]]
    return [*card_facts(card, op, inputs["driver"], listed=part("listed", data, op, card)),
            layouts_fact(data, card, op, asker.index),
            *part("issues", data, op, card, driver=inputs["driver"])]


_SUMMARY = {
    "yes": Text("Yes: {name} can run MIG with GPU Operator {op}{drv}.",
                "Ja: Die {name} kann MIG mit dem GPU Operator {op}{drv_de} nutzen."),
    "conditional": Text("Conditional: {name} can run MIG with GPU Operator {op}{drv} only if the conditions below "
                        "hold.",
                        "Bedingt: Die {name} kann MIG mit dem GPU Operator {op}{drv_de} nur nutzen, wenn die "
                        "Bedingungen unten erfüllt sind."),
    "unconfirmed": Text("Unconfirmed: NVIDIA does not document MIG on {name} well enough to say yes.",
                        "Unbestätigt: NVIDIA dokumentiert MIG auf der {name} nicht ausreichend für ein Ja."),
    "no": Text("No: {name} cannot run MIG with GPU Operator {op}{drv}.",
               "Nein: Die {name} kann MIG mit dem GPU Operator {op}{drv_de} nicht nutzen."),
}


def details(data: dict, card: dict, inputs: dict) -> dict:
    mig, support = card["mig"], card["operator_support"]
    prereq = {k: v["value"] for k, v in (mig.get("prerequisites") or {}).items() if isinstance(v, dict)}
    return {
        "mig_status": mig["status"]["value"],
        "max_instances": _value(mig, "max_instances"),
        "smallest_profile": _value(mig, "smallest_profile"),
        "profiles": [p["name"] for p in mig.get("profiles", [])],
        "prerequisites": prereq,
        "operator_listed": part("listed", data, inputs["operator"], card),
        "operator_min_driver": _value(support, "min_driver"),
    }


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    card = asker.data["cards"][inputs["card"]]
    verdict = base.fold_verdict(conclusions)
    drv = inputs["driver"]
    said = _SUMMARY[verdict]
    fill = {"name": card["short_name"], "op": inputs["operator"],
            "drv": f" and driver {drv}" if drv else "", "drv_de": f" und Treiber {drv}" if drv else ""}
    return base.build("mig", inputs, conclusions, verdict=verdict,
                      summary={"en": said.en.format(**fill), "de": said.de.format(**fill)},
                      details=details(asker.data, card, inputs), data=asker.data)
