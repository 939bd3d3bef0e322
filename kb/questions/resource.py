"""`ask resource CARD (--profile P [--mig-strategy single|mixed] | --time-slicing N | --mps N)`:
what a pod requests, and how the node's labels change.

details.resource is the extended resource name a pod requests; details.labels the node labels the
device plugin / GPU Feature Discovery set for it.
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.questions import base
from kb.text import Text
from kb.versions import shown

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "sources")
USES = ("mig",)

#: the device plugin reads `replicas` into a Go int (64 bits): a larger count does not load
MAX_REPLICAS = 2**63 - 1


def _bad(en: str, de: str) -> UnusableInput:
    return UnusableInput(Text(en,
                              de))


def resolve(index: dict, card: str, operator: str | None = None, profile: str | None = None,
            mig_strategy: str | None = None, time_slicing: int | None = None, rename_by_default: bool = False,
            mps: int | None = None) -> dict:
    cid = base.card_id(index, card)
    if time_slicing is not None and mps is not None:
        raise _bad("choose one of --time-slicing and --mps", "wählen Sie entweder --time-slicing oder --mps")
    if profile is None and time_slicing is None and mps is None:
        raise _bad("say what the pod gets: --profile P (MIG), --time-slicing N or --mps N",
                   "sagen Sie, was der Pod bekommt: --profile P (MIG), --time-slicing N oder --mps N")
    if mig_strategy is not None and profile is None:
        raise _bad("--mig-strategy needs --profile", "--mig-strategy braucht --profile")
    if rename_by_default and time_slicing is None and mps is None:
        raise _bad("--rename-by-default needs --time-slicing or --mps", "--rename-by-default braucht --time-slicing oder --mps")
    if mig_strategy not in (None, "single", "mixed"):
        raise _bad(f"unknown MIG strategy {mig_strategy!r}; known: single, mixed",
                   f"unbekannte MIG-Strategie {mig_strategy!r}; bekannt: single, mixed")
    replicas = time_slicing if time_slicing is not None else mps
    if replicas is not None and (not isinstance(replicas, int) or isinstance(replicas, bool)
                                 or not 1 <= replicas <= MAX_REPLICAS):
        raise _bad(f"replicas must be a whole number of at least 1 and below 2^63, not {replicas!r}",
                   f"Replikate müssen eine ganze Zahl ab 1 und unter 2^63 sein, nicht {replicas!r}")
    if profile is not None:
        known = index["cards"][cid]["profiles"]
        name = index["cards"][cid]["short_name"]
        if not known:
            raise _bad(f"{name} has no MIG profiles (see gpukb ask mig {cid!r})",
                       f"Die {name} hat keine MIG-Profile (siehe gpukb ask mig {cid!r})")
        profile = base.profile_name(index, cid, profile) or profile
        if profile not in known:
            raise UnusableInput(Text(f"unknown MIG profile {shown(profile)} for {name}; known: {', '.join(known)}",
                                     f"unbekanntes MIG-Profil {shown(profile)} für die {name}; bekannt: {', '.join(known)}"), suggestions=known)
    return {"card": cid, "operator": base.operator_version(index, operator), "profile": profile,
            "mig_strategy": (mig_strategy or "single") if profile else None,
            "mode": "time-slicing" if time_slicing is not None else "mps" if mps is not None else "mig",
            "replicas": replicas, "rename_by_default": bool(rename_by_default)}


def defaults(index: dict) -> list[dict]:
    """Per card and operator release: every MIG profile under both strategies, time-slicing and MPS ×4."""
    out = []
    for cid, card in index["cards"].items():
        for op in index["operator_releases"]:
            common = {"card": cid, "operator": op, "rename_by_default": False}
            for profile in card["profiles"]:
                for strategy in ("single", "mixed"):
                    out.append({**common, "profile": profile, "mig_strategy": strategy, "mode": "mig", "replicas": None})
            for mode in ("time-slicing", "mps"):
                out.append({**common, "profile": None, "mig_strategy": None, "mode": mode, "replicas": 4})
    return out


def product_label(card: dict) -> str:
    """The GPU Feature Discovery product label value, where the catalog gives one (an 'NVIDIA-…' alias)."""
    labels = [a for a in card.get("aliases", []) if a.startswith("NVIDIA-")]
    return labels[0] if labels else card["name"].replace(" ", "-")


def facts(asker, inputs: dict) -> list[dict]:
    card = asker.data["cards"][inputs["card"]]
    fact = {"kind": "request", "card": card["id"], "name": card["short_name"], "product": product_label(card),
            "operator": inputs["operator"], "mode": inputs["mode"], "on_mig": inputs["profile"] is not None,
            "rename": inputs["rename_by_default"]}
    if inputs["replicas"] is not None:
        fact["replicas"] = inputs["replicas"]
    if inputs["profile"] is not None:
        profile = next(p for p in card["mig"]["profiles"] if p["name"] == inputs["profile"])
        mig = asker.answer("mig", {"card": card["id"], "operator": inputs["operator"], "driver": None})
        fact.update(profile=profile["name"], profile_count=profile["max_count"], profile_memory_gb=profile["memory_gb"],
                    strategy=inputs["mig_strategy"], mig_verdict=mig["verdict"])
    return [fact]


_SUMMARY = {
    "yes": ("A pod on {name} requests {resource}.", "Ein Pod auf der {name} fordert {resource} an."),
    "conditional": ("A pod on {name} requests {resource}, if the conditions below hold.",
                    "Ein Pod auf der {name} fordert {resource} an, wenn die Bedingungen unten erfüllt sind."),
    "unconfirmed": ("A pod on {name} would request {resource}, but NVIDIA does not document this setup well enough.",
                    "Ein Pod auf der {name} würde {resource} anfordern, aber NVIDIA dokumentiert dieses Setup nicht ausreichend."),
    "no": ("This does not work on {name}.", "Das geht auf der {name} nicht."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    card = asker.data["cards"][inputs["card"]]
    verdict = base.fold_verdict(conclusions)
    resource = next((c["details"]["resource"] for c in conclusions if "resource" in c["details"]), None)
    labels = [label for c in conclusions for label in c["details"].get("labels", [])]
    details = {"mode": inputs["mode"], "resource": resource if verdict != "no" else None,
               "labels": labels if verdict != "no" else [], "replicas": inputs["replicas"],
               "profile": inputs["profile"], "mig_strategy": inputs["mig_strategy"]}
    en, de = _SUMMARY[verdict]
    fill = {"name": card["short_name"], "resource": resource}
    return base.build("resource", inputs, conclusions, verdict=verdict,
                      summary={"en": en.format(**fill), "de": de.format(**fill)}, details=details, data=asker.data)
