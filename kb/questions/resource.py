"""`ask resource CARD (--profile P [--mig-strategy single|mixed] | --time-slicing N | --mps N)`:
what a pod requests, and how the node's labels change.

details.resource is the extended resource name a pod requests under the device plugin that the asked
GPU Operator release ships; details.labels the node labels the device plugin / GPU Feature Discovery set
for it. A MIG profile's own resource is `mig_resource_name(profile)` (the device plugin's rule: "mig-" +
profile with every "+" replaced by "."); whether a variant profile (-me, +me.all, +gfx) is a resource of
its own depends on the device plugin's version (catalog: releases/device-plugin features
`mig-suffix-profiles-as-resources`, read through kb.questions.behaviour).
"""

from __future__ import annotations

import shlex

from kb.errors import UnusableInput
from kb.questions import base, behaviour
from kb.questions.release import part
from kb.text import Text
from kb.versions import shown_text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("cards", "methods", "releases", "sources")
USES = ("mig",)
TITLE = Text("Resource request", "Ressourcenanforderung")
HELP = Text(
    "What does a pod on CARD request, and how do the node labels change?\n\n\b\nExample:\n"
    '  gpukb ask resource "H200 NVL" --profile 1g.18gb --mig-strategy mixed\n'
    "  gpukb ask resource L4 --time-slicing 4 --rename-by-default",
    "Was fordert ein Pod auf KARTE an, und wie ändern sich die Node-Labels?\n\n\b\nBeispiel:\n"
    '  gpukb ask resource "H200 NVL" --profile 1g.18gb --mig-strategy mixed --lang de\n'
    "  gpukb ask resource L4 --time-slicing 4 --rename-by-default --lang de")
PARAMS = (
    base.CARD, base.OPERATOR,
    base.Param("profile", metavar="P", help=Text("MIG profile, e.g. 1g.18gb.", "MIG-Profil, z. B. 1g.18gb.")),
    base.Param("mig_strategy", choices=("single", "mixed"),
               help=Text("mig.strategy (default: single).", "mig.strategy (Standard: single).")),
    base.Param("time_slicing", "int", metavar="N",
               help=Text("Time-slicing with N replicas per GPU.", "Time-Slicing mit N Replikaten je GPU.")),
    base.Param("mps", "int", metavar="N", help=Text("MPS with N replicas per GPU.", "MPS mit N Replikaten je GPU.")),
    base.Param("rename_by_default", "flag", Text("renameByDefault: true (resource name gets .shared).",
                                                 "renameByDefault: true (der Ressourcenname bekommt .shared).")),
)

#: the device plugin reads `replicas` into a Go int (64 bits): a larger count does not load
MAX_REPLICAS = 2**63 - 1
#: fewer replicas are refused by the device plugin ("number of replicas must be >= 2",
#: api/config/v1/replicas.go; catalog: releases/device-plugin features replicas-at-least-two)
MIN_REPLICAS = 2

#: what `facts` reads of the GPU Operator release asked about (kb.questions.release), besides the card's MIG verdict
#: under it without a driver (`gpukb ask mig`): releases equal in these get the same facts but for their version
#: (the ask page asks one of them: kb.site.askdata.resource_classes; tests/test_release_parts.py keeps this true)
RELEASE_PARTS = ("listed", "behaviour")

#: the device plugin's version-bound statement that makes variant profiles resources of their own
VARIANT_RESOURCES = ("device-plugin", "mig-suffix-profiles-as-resources")
#: the only behaviour facts (component, statement) of the release that `facts` reads itself (all of them go to the
#: rules): kb.site.askdata.resource_classes compares releases by these and those a resource rule can match
STATEMENTS = (VARIANT_RESOURCES, behaviour.MPS_SHARING)


def _bad(text: Text, suggestions: list[str] | None = None) -> UnusableInput:
    return UnusableInput(text, suggestions=suggestions)


def mig_resource_name(profile: str) -> str:
    """The extended resource of a MIG profile under the mixed strategy, as the device plugin names it:
    `strings.ReplaceAll("mig-"+p.String(), "+", ".")` (internal/rm/rm.go) → '1g.24gb+gfx' →
    'nvidia.com/mig-1g.24gb.gfx'; '1g.24gb-me' stays 'nvidia.com/mig-1g.24gb-me'."""
    return "nvidia.com/" + ("mig-" + profile).replace("+", ".")


def base_profile(profile: dict) -> str:
    """The plain profile a variant belongs to ('1g.24gb+gfx' → '1g.24gb'); the name itself for a plain one."""
    variant = profile.get("variant")
    return profile["name"][: -len(variant)] if variant and profile["name"].endswith(variant) else profile["name"]


def resolve(index: dict, card: str, operator: str | None = None, profile: str | None = None,
            mig_strategy: str | None = None, time_slicing: int | None = None, rename_by_default: bool = False,
            mps: int | None = None) -> dict:
    cid = base.card_id(index, card)
    if time_slicing is not None and mps is not None:
        raise _bad(Text("choose one of --time-slicing and --mps", "wählen Sie entweder --time-slicing oder --mps"))
    if profile is None and time_slicing is None and mps is None:
        raise _bad(Text("say what the pod gets: --profile P (MIG), --time-slicing N or --mps N",
                        "sagen Sie, was der Pod bekommt: --profile P (MIG), --time-slicing N oder --mps N"))
    if mig_strategy is not None and profile is None:
        raise _bad(Text("--mig-strategy needs --profile", "--mig-strategy braucht --profile"))
    if rename_by_default and time_slicing is None and mps is None:
        raise _bad(Text("--rename-by-default needs --time-slicing or --mps",
                        "--rename-by-default braucht --time-slicing oder --mps"))
    if mig_strategy not in (None, "single", "mixed"):
        raise _bad(Text("unknown MIG strategy {s}; known: single, mixed",
                        "unbekannte MIG-Strategie {s}; bekannt: single, mixed").format(s=repr(mig_strategy)))
    replicas = time_slicing if time_slicing is not None else mps
    if replicas is not None and (not isinstance(replicas, int) or isinstance(replicas, bool) or replicas > MAX_REPLICAS):
        raise _bad(Text("replicas must be a whole number below 2^63, not {r}",
                        "Replikate müssen eine ganze Zahl unter 2^63 sein, nicht {r}").format(r=repr(replicas)))
    if replicas is not None and replicas < MIN_REPLICAS:
        raise _bad(Text("replicas must be at least 2, not {r}: the device plugin refuses a shared resource with fewer "
                        "(\"number of replicas must be >= 2\") and does not start",
                        "Replikate müssen mindestens 2 sein, nicht {r}: Das Device-Plugin lehnt eine geteilte Ressource "
                        "mit weniger ab („number of replicas must be >= 2“) und startet nicht").format(r=replicas))
    if profile is not None:
        known = index["cards"][cid]["profiles"]
        name = index["cards"][cid]["short_name"]
        if not known:
            raise _bad(Text("{name} has no MIG profiles (see gpukb ask mig {cid})",
                            "Die {name} hat keine MIG-Profile (siehe gpukb ask mig {cid})").format(name=name, cid=shlex.quote(name)))
        profile = base.profile_name(index, cid, profile) or profile
        if profile not in known:
            raise _bad(Text("unknown MIG profile {p} for {name}; known: {known}",
                            "unbekanntes MIG-Profil {p} für die {name}; bekannt: {known}").format(
                p=shown_text(profile), name=name, known=", ".join(known)), known)
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


def _mig_names(profile: dict, variant_status: str) -> dict:
    """The profile's resource names: its own (`own_resource`) and, where the device plugin of this release
    does not yet tell variants apart, the plain profile's name it is advertised under (`mig_resource`)."""
    own = mig_resource_name(profile["name"])
    out = {"own_resource": own, "mig_resource": own}
    if profile.get("variant"):
        plain = base_profile(profile)
        out.update(variant=profile["variant"], base_profile=plain, base_resource=mig_resource_name(plain),
                   variant_resources=variant_status)
        if variant_status == "not-yet":
            out["mig_resource"] = out["base_resource"]
    return out


def facts(asker, inputs: dict) -> list[dict]:
    data = asker.data
    card = data["cards"][inputs["card"]]
    fact = {"kind": "request", "card": card["id"], "name": card["short_name"], "product": product_label(card),
            "operator": inputs["operator"], "mode": inputs["mode"], "on_mig": inputs["profile"] is not None,
            "rename": inputs["rename_by_default"], "operator_listed": part("listed", data, inputs["operator"], card)}
    if inputs["replicas"] is not None:
        fact["replicas"] = inputs["replicas"]
    shipped = part("behaviour", data, inputs["operator"])
    if inputs["profile"] is not None:
        profile = next(p for p in card["mig"]["profiles"] if p["name"] == inputs["profile"])
        mig = asker.answer("mig", {"card": card["id"], "operator": inputs["operator"], "driver": None}, cited=False)
        variant_status = next((b["status"] for b in shipped if (b["component"], b["statement"]) == VARIANT_RESOURCES), "unknown")
        fact.update(profile=profile["name"], profile_count=profile["max_count"], profile_memory_gb=profile["memory_gb"],
                    strategy=inputs["mig_strategy"], mig_verdict=mig["verdict"], **_mig_names(profile, variant_status))
    if inputs["mode"] == "mps":
        fact["plugin_mps"] = behaviour.status_of(shipped, *behaviour.MPS_SHARING)
    if inputs["mode"] == "mps" and inputs["replicas"]:
        memory = (card.get("memory_gb") or {}).get("value")
        if memory:
            fact["memory_gb"] = memory
            fact["client_memory_gb"] = round(memory / inputs["replicas"], 1)
        fact["client_thread_percentage"] = 100 // inputs["replicas"]
    return [fact, *shipped]


_SUMMARY = {
    "yes": Text("A pod on {name} requests {resource}.", "Ein Pod auf der {name} fordert {resource} an."),
    "conditional": Text("A pod on {name} requests {resource}, if the conditions below hold.",
                        "Ein Pod auf der {name} fordert {resource} an, wenn die Bedingungen unten erfüllt sind."),
    "unconfirmed": Text("A pod on {name} would request {resource}, but NVIDIA does not document this setup well enough.",
                        "Ein Pod auf der {name} würde {resource} anfordern, aber NVIDIA dokumentiert dieses Setup nicht ausreichend."),
    "no": Text("This does not work on {name}.", "Das geht auf der {name} nicht."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    card = asker.data["cards"][inputs["card"]]
    verdict = base.fold_verdict(conclusions)
    resource = next((c["details"]["resource"] for c in conclusions if "resource" in c["details"]), None)
    labels = [label for c in conclusions for label in c["details"].get("labels", [])]
    details = {"mode": inputs["mode"], "resource": resource if verdict != "no" else None,
               "labels": labels if verdict != "no" else [], "replicas": inputs["replicas"],
               "profile": inputs["profile"], "mig_strategy": inputs["mig_strategy"]}
    summary = _SUMMARY[verdict].format(name=card["short_name"], resource=resource)
    return base.build("resource", inputs, conclusions, verdict=verdict, summary=summary, details=details, data=asker.data)
