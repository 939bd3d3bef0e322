"""`ask dra [--operator V] --k8s V [--feature F] [--install operator|standalone]`: can NVIDIA's DRA driver be
used; details.maturity.

NVIDIA's DRA driver comes two ways, with requirements of their own (catalog: methods/dra `requirements` and
`standalone_requirements`): managed by the GPU Operator (GPUCluster, from the release in
`requirements.min_operator` on) or installed on its own with its Helm chart. `--install` picks one; without it
the answer is about the operator-managed driver where the asked operator release manages it, else about the
standalone one.
"""

from __future__ import annotations

from kb import versions
from kb.errors import UnusableInput
from kb.questions import base, words
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("methods", "sources")
USES = ()
TITLE = Text("DRA", "DRA")
HELP = Text(
    "Can NVIDIA's DRA driver be used here, and how mature is the feature?\n\n\b\nExample:\n"
    "  gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig\n"
    "  gpukb ask dra --install standalone --k8s 1.33.4",
    "Lässt sich NVIDIAs DRA-Treiber hier nutzen, und wie reif ist die Funktion?\n\n\b\nBeispiel:\n"
    "  gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig --lang de")

DEFAULT_FEATURE = "whole-gpu"
INSTALLS = ("operator", "standalone")
#: which requirements of methods/dra each way of installing reads
REQUIREMENTS = {"operator": "requirements", "standalone": "standalone_requirements"}
PARAMS = (
    base.OPERATOR,
    base.Param("k8s", metavar="V", help=Text("Kubernetes version of the cluster, e.g. 1.34.2.",
                                             "Kubernetes-Version des Clusters, z. B. 1.34.2.")),
    base.Param("feature", metavar="F", values_from="dra_features",
               help=Text(f"DRA capability (default: {DEFAULT_FEATURE}).", f"DRA-Funktion (Standard: {DEFAULT_FEATURE}).")),
    base.Param("install", choices=INSTALLS, help=Text(
        "The DRA driver managed by the GPU Operator (GPUCluster) or installed on its own with its Helm chart "
        "(default: operator where the release manages it).",
        "Der DRA-Treiber, vom GPU Operator verwaltet (GPUCluster) oder eigenständig mit seinem Helm-Chart "
        "installiert (Standard: operator, wo das Release ihn verwaltet).")),
)


def resolve(index: dict, k8s: str | None = None, operator: str | None = None, feature: str | None = None,
            install: str | None = None) -> dict:
    if k8s is None:
        raise UnusableInput(Text("say which Kubernetes version the cluster runs: --k8s 1.34.2",
                                 "sagen Sie, welche Kubernetes-Version der Cluster hat: --k8s 1.34.2"))
    feature = base.known_value(index, "dra_features", feature or DEFAULT_FEATURE, Text("DRA feature", "DRA-Funktion"))
    if install not in (None, *INSTALLS):
        raise UnusableInput(Text("unknown way to install the DRA driver {i}; known: operator, standalone",
                                 "unbekannte Installationsart des DRA-Treibers {i}; bekannt: operator, standalone")
                            .format(i=repr(install)), suggestions=list(INSTALLS))
    operator = base.operator_version(index, operator)
    if install is None:
        managed = index.get("dra_min_operator") and versions.compare(operator, index["dra_min_operator"]) == "meets"
        install = "operator" if managed else "standalone"
    k8s_version = base.kubernetes_version(k8s, index.get("dra_min_kubernetes"))
    return {"operator": operator, "k8s": k8s_version, "feature": feature, "install": install}


def defaults(index: dict) -> list[dict]:
    """Per operator release and feature, at the lowest Kubernetes version the DRA driver accepts, installed the
    way the release allows by default."""
    minimum = index.get("dra_min_kubernetes")
    if not minimum:
        return []
    return [resolve(index, k8s=minimum, operator=op, feature=f)
            for op in index["operator_releases"] for f in index["dra_features"]]


def requirements(data: dict, install: str, operator: str) -> dict:
    """The requirements of one way to install as fact properties (`req` = the catalog field they come from)."""
    dra = data["methods"].get("dra", {})
    field = REQUIREMENTS[install]
    req = dra.get(field) or {}
    out = {key: req[key]["value"] for key in ("min_kubernetes", "min_driver", "driver_version") if key in req}
    out["req"] = field
    operator_req = dra.get("requirements") or {}
    if "min_operator" in operator_req:
        out["min_operator"] = operator_req["min_operator"]["value"]
        out["operator_manages_dra"] = versions.compare(operator, out["min_operator"]) == "meets"
    return out


def facts(asker, inputs: dict) -> list[dict]:
    dra = asker.data["methods"]["dra"]
    capability = next(c for c in dra["capabilities"] if c["id"] == inputs["feature"])
    maturity = capability["maturity"]["value"]
    fact = {"kind": "dra", "operator": inputs["operator"], "k8s": inputs["k8s"], "feature": inputs["feature"],
            "install": inputs["install"],
            "feature_name_en": words.word(words.DRA_FEATURE, inputs["feature"], "en"),
            "feature_name_de": words.word(words.DRA_FEATURE, inputs["feature"], "de"),
            "maturity": maturity, "maturity_en": words.word(words.MATURITY, maturity, "en"),
            "maturity_de": words.word(words.MATURITY, maturity, "de"),
            **requirements(asker.data, inputs["install"], inputs["operator"])}
    if "min_kubernetes" in fact:
        fact["k8s_vs_min_kubernetes"] = versions.compare(inputs["k8s"], fact["min_kubernetes"])
    if capability.get("since"):
        fact["feature_since"] = capability["since"]
    return [fact]


_WHO = {
    "operator": Text("NVIDIA's DRA driver, managed by GPU Operator {operator},",
                     "NVIDIAs DRA-Treiber, verwaltet vom GPU Operator {operator},"),
    "standalone": Text("NVIDIA's DRA driver, installed on its own with its Helm chart,",
                       "NVIDIAs DRA-Treiber, eigenständig mit seinem Helm-Chart installiert,"),
}
_SUMMARY = {
    "yes": Text("Yes: {who} can be used on Kubernetes {k8s} for {feature}.",
                "Ja: {who} lässt sich auf Kubernetes {k8s} für {feature} nutzen."),
    "conditional": Text("Conditional: {who} can be used on Kubernetes {k8s} for {feature} if the conditions below hold.",
                        "Bedingt: {who} lässt sich auf Kubernetes {k8s} für {feature} nutzen, wenn die Bedingungen unten erfüllt sind."),
    "unconfirmed": Text("Unconfirmed: NVIDIA does not document DRA for {feature} well enough to say yes.",
                        "Unbestätigt: NVIDIA dokumentiert DRA für {feature} nicht ausreichend für ein Ja."),
    "no": Text("No: {who} cannot be used on Kubernetes {k8s} for {feature}.",
               "Nein: {who} lässt sich auf Kubernetes {k8s} für {feature} nicht nutzen."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    fact = facts(asker, inputs)[0]
    verdict = base.fold_verdict(conclusions)
    details = {"install": inputs["install"], "feature": inputs["feature"], "maturity": fact["maturity"],
               "min_kubernetes": fact.get("min_kubernetes"), "min_driver": fact.get("min_driver"),
               "driver_version": fact.get("driver_version"), "operator_manages_dra": fact.get("operator_manages_dra")}
    summary = _SUMMARY[verdict].format(who=_WHO[inputs["install"]].format(operator=inputs["operator"]), k8s=inputs["k8s"],
                                       feature=Text(fact["feature_name_en"], fact["feature_name_de"]))
    return base.build("dra", inputs, conclusions, verdict=verdict, summary=summary, details=details, data=asker.data)
