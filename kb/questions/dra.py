"""`ask dra [--operator V] --k8s V [--feature F]`: can NVIDIA's DRA driver be used; details.maturity."""

from __future__ import annotations

from kb import versions
from kb.errors import UnusableInput
from kb.questions import base, words
from kb.questions.methods import dra_requirements
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("methods", "sources")
USES = ()

DEFAULT_FEATURE = "whole-gpu"


def resolve(index: dict, k8s: str | None = None, operator: str | None = None, feature: str | None = None) -> dict:
    if k8s is None:
        raise UnusableInput(Text("say which Kubernetes version the cluster runs: --k8s 1.34.2",
                                 "sagen Sie, welche Kubernetes-Version der Cluster hat: --k8s 1.34.2"))
    feature = feature or DEFAULT_FEATURE
    known = index["dra_features"]
    if feature not in known:
        raise UnusableInput(Text(f"unknown DRA feature {feature!r}; known: {', '.join(known)}",
                                 f"unbekannte DRA-Funktion {feature!r}; bekannt: {', '.join(known)}"), suggestions=known)
    k8s_version = base.kubernetes_version(k8s, index.get("dra_min_kubernetes"))
    return {"operator": base.operator_version(index, operator), "k8s": k8s_version, "feature": feature}


def defaults(index: dict) -> list[dict]:
    """Per operator release and feature, at the lowest Kubernetes version the DRA driver accepts."""
    minimum = index.get("dra_min_kubernetes")
    if not minimum:
        return []
    return [{"operator": op, "k8s": minimum, "feature": f} for op in index["operator_releases"] for f in index["dra_features"]]


def facts(asker, inputs: dict) -> list[dict]:
    dra = asker.data["methods"]["dra"]
    capability = next(c for c in dra["capabilities"] if c["id"] == inputs["feature"])
    maturity = capability["maturity"]["value"]
    fact = {"kind": "dra", "operator": inputs["operator"], "k8s": inputs["k8s"], "feature": inputs["feature"],
            "feature_name_en": words.word(words.DRA_FEATURE, inputs["feature"], "en"),
            "feature_name_de": words.word(words.DRA_FEATURE, inputs["feature"], "de"),
            "maturity": maturity, "maturity_en": words.word(words.MATURITY, maturity, "en"),
            "maturity_de": words.word(words.MATURITY, maturity, "de"), **dra_requirements(asker.data, inputs["operator"])}
    if "min_kubernetes" in fact:
        fact["k8s_vs_min_kubernetes"] = versions.compare(inputs["k8s"], fact["min_kubernetes"])
    if capability.get("since"):
        fact["feature_since"] = capability["since"]
    return [fact]


_SUMMARY = {
    "yes": ("Yes: NVIDIA's DRA driver can be used on Kubernetes {k8s} with GPU Operator {operator} for {feature}.",
            "Ja: NVIDIAs DRA-Treiber lässt sich auf Kubernetes {k8s} mit dem GPU Operator {operator} für {feature} nutzen."),
    "conditional": ("Conditional: NVIDIA's DRA driver can be used on Kubernetes {k8s} for {feature} if the conditions below hold.",
                    "Bedingt: NVIDIAs DRA-Treiber lässt sich auf Kubernetes {k8s} für {feature} nutzen, wenn die Bedingungen unten erfüllt sind."),
    "unconfirmed": ("Unconfirmed: NVIDIA does not document DRA for {feature} well enough to say yes.",
                    "Unbestätigt: NVIDIA dokumentiert DRA für {feature} nicht ausreichend für ein Ja."),
    "no": ("No: NVIDIA's DRA driver cannot be used on Kubernetes {k8s}.",
           "Nein: NVIDIAs DRA-Treiber lässt sich auf Kubernetes {k8s} nicht nutzen."),
}


def fold(asker, inputs: dict, conclusions: list[dict]) -> dict:
    fact = facts(asker, inputs)[0]
    verdict = base.fold_verdict(conclusions)
    en, de = _SUMMARY[verdict]
    details = {"feature": inputs["feature"], "maturity": fact["maturity"], "min_kubernetes": fact.get("min_kubernetes"),
               "driver_version": fact.get("driver_version"), "operator_manages_dra": fact.get("operator_manages_dra")}
    summary = {lang: text.format(**{**inputs, "feature": fact[f"feature_name_{lang}"]}) for lang, text in (("en", en), ("de", de))}
    return base.build("dra", inputs, conclusions, verdict=verdict, summary=summary, details=details, data=asker.data)
