"""`ask dra [--operator V] --k8s V [--feature F] [--install operator|standalone] [--dra-driver V]`: can NVIDIA's
DRA driver be used; details.maturity.

NVIDIA's DRA driver comes two ways, with requirements of their own (catalog: methods/dra `requirements` and
`standalone_requirements`): managed by the GPU Operator (GPUCluster, from the release in
`requirements.min_operator` on; the driver version is the operator release's `dra-driver` component) or installed
on its own with its Helm chart. `--install` picks one; without it the answer is about the operator-managed driver
where the asked operator release manages it, else about the standalone one. `--dra-driver V` names a release of
the standalone driver (catalog/releases/dra-driver.yaml, `standalone: true`): its own Kubernetes and driver
minimums, feature gates and kubelet plugins decide (a feature whose gate the release lacks: no; a release without
feature gates: unconfirmed; GPU allocation its README calls not yet officially supported: conditional).

Facts (one, kind `dra`): operator, k8s, feature, install, maturity (for a standalone release: the gate's stage,
`not-supported` for a GPU feature its README does not support officially, `not-in-release` where the release lacks it),
min_kubernetes / min_driver / min_driver_compute_domains, `req` (the catalog reference of those requirements),
k8s_vs_min_kubernetes, release_given, dra_driver (the driver version, where known), gate, gate_status
(present | missing | no-gates | none-needed), gate_first, plugin, plugin_status, min_driver_known, maturity_from
(`release` where a standalone release's own feature gates or kubelet plugins decide the maturity; `maturity_ref` names
the gate or plugin entry of releases/dra-driver where one does; else `documents`: the DRA method's capabilities).
"""

from __future__ import annotations

from kb import versions
from kb.errors import UnusableInput
from kb.questions import base, words
from kb.questions.release import part
from kb.text import Text

#: the parts of the compiled catalog this question reads, and the questions it asks in turn
DATA = ("methods", "releases", "sources")
USES = ()
TITLE = Text("DRA", "DRA")
HELP = Text(
    "Can NVIDIA's DRA driver be used here, and how mature is the feature?\n\n\b\nExample:\n"
    "  gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig\n"
    "  gpukb ask dra --install standalone --k8s 1.33.4\n"
    "  gpukb ask dra --dra-driver 25.8.0 --k8s 1.33.4 --feature mps",
    "Lässt sich NVIDIAs DRA-Treiber hier nutzen, und wie reif ist die Funktion?\n\n\b\nBeispiel:\n"
    "  gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig --lang de\n"
    "  gpukb ask dra --dra-driver 25.8.0 --k8s 1.33.4 --feature mps --lang de")

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
    base.Param("dra_driver", metavar="V", values_from="dra_driver_releases", help=Text(
        "A release of the DRA driver installed on its own, e.g. 25.8.0 (implies --install standalone; default: the "
        "driver as its current documentation describes it).",
        "Ein Release des eigenständig installierten DRA-Treibers, z. B. 25.8.0 (setzt --install standalone; Standard: "
        "der Treiber, wie seine aktuelle Dokumentation ihn beschreibt).")),
)


def resolve(index: dict, k8s: str | None = None, operator: str | None = None, feature: str | None = None,
            install: str | None = None, dra_driver: str | None = None) -> dict:
    if k8s is None:
        raise UnusableInput(Text("say which Kubernetes version the cluster runs: --k8s 1.34.2",
                                 "sagen Sie, welche Kubernetes-Version der Cluster hat: --k8s 1.34.2"))
    feature = base.known_value(index, "dra_features", feature or DEFAULT_FEATURE, Text("DRA feature", "Die DRA-Funktion"))
    if install not in (None, *INSTALLS):
        raise UnusableInput(Text("unknown way to install the DRA driver {i}; known: operator, standalone",
                                 "unbekannte Installationsart des DRA-Treibers {i}; bekannt: operator, standalone")
                            .format(i=repr(install)), suggestions=list(INSTALLS))
    operator = base.operator_version(index, operator)
    if dra_driver is not None:
        if install == "operator":
            raise UnusableInput(Text(
                "--dra-driver names a release of the DRA driver installed on its own; the driver the GPU Operator "
                "manages is the one of its release (leave out --install operator, or --dra-driver)",
                "--dra-driver nennt ein Release des eigenständig installierten DRA-Treibers; der vom GPU Operator "
                "verwaltete Treiber ist der seines Releases (lassen Sie --install operator oder --dra-driver weg)"))
        dra_driver = base.known_value(index, "dra_driver_releases", str(dra_driver).strip().removeprefix("v"),
                                      Text("standalone DRA driver release", "Das Release des eigenständigen DRA-Treibers"))
        install = "standalone"
    if install is None:
        managed = index.get("dra_min_operator") and versions.compare(operator, index["dra_min_operator"]) == "meets"
        install = "operator" if managed else "standalone"
    k8s_version = base.kubernetes_version(k8s, index.get("dra_min_kubernetes"))
    out = {"operator": operator, "k8s": k8s_version, "feature": feature, "install": install}
    if dra_driver is not None:
        out["dra_driver"] = dra_driver
    return out


def defaults(index: dict) -> list[dict]:
    """Per operator release and feature, at the lowest Kubernetes version the DRA driver accepts, installed the
    way the release allows by default."""
    minimum = index.get("dra_min_kubernetes")
    if not minimum:
        return []
    out = [resolve(index, k8s=minimum, operator=op, feature=f)
           for op in index["operator_releases"] for f in index["dra_features"]]
    newest = index["operator_releases"][0]
    return out + [resolve(index, k8s=minimum, operator=newest, feature=f, dra_driver=v)
                  for v in index.get("dra_driver_releases", []) for f in index["dra_features"]]


def standalone_release(data: dict, version: str) -> dict:
    """The entry of a standalone DRA driver release (catalog/releases/dra-driver.yaml)."""
    rel = data["releases"].get("dra-driver", {}).get("releases", [])
    return next(r for r in rel if r["version"] == version and r.get("standalone"))


def managed_version(data: dict, operator: str) -> str | None:
    """The DRA driver version the GPU Operator release deploys (its `dra-driver` component), where it has one."""
    rel = data["releases"].get("gpu-operator", {}).get("releases", [])
    key = versions.key(operator)  # by value: the ask page asks with a sentinel that compares like the release
    found = next((r for r in rel if versions.key(r["version"]) == key), {})
    return next((c["version"] for c in found.get("components", []) if c["component"] == "dra-driver"), None)


def release_facts(data: dict, version: str, capability: dict) -> dict:
    """What one standalone release says about the asked capability: requirements, gate, kubelet plugin."""
    rel = standalone_release(data, version)
    req = rel.get("requirements") or {}
    out = {key: req[key]["value"] for key in ("min_kubernetes", "min_driver", "min_driver_compute_domains") if key in req}
    out.update({"req": f"releases[{version}].requirements", "release_given": True,
                "dra_driver": version, "min_driver_known": "min_driver" in req})
    gates = {g["name"]: g for g in rel.get("feature_gates", [])}
    gate = capability.get("gate")
    plugin = capability.get("plugin", "gpu")
    plugins = {p["id"]: p["status"]["value"] for p in rel.get("kubelet_plugins", [])}
    out.update({"plugin": plugin, "plugin_status": plugins.get(plugin, "unknown"),
                "gate": gate or "", "gate_status": "none-needed"})
    if gate and not gates:
        out.update(gate_status="no-gates", maturity="not-in-release", maturity_from="release")
    elif gate and gate not in gates:
        out.update(gate_status="missing", maturity="not-in-release", maturity_from="release")
        having = [r for r in data["releases"]["dra-driver"]["releases"] if r.get("standalone")
                  and any(g["name"] == gate for g in r.get("feature_gates", []))]
        if having:
            out["gate_first"] = min(having, key=lambda r: str(r.get("date", {}).get("value")))["version"]
    elif gate:
        out.update(gate_status="present", maturity=gates[gate]["maturity"], maturity_from="release",
                   maturity_ref=f"releases[{version}].feature_gates[{gate}]")
    elif out["plugin_status"] == "not-officially-supported":
        out.update(maturity="not-supported", maturity_from="release",
                   maturity_ref=f"releases[{version}].kubelet_plugins[{plugin}].status")
    elif out["plugin_status"] == "supported":
        out.update(maturity="ga", maturity_from="release",
                   maturity_ref=f"releases[{version}].kubelet_plugins[{plugin}].status")
    return out


def requirements(data: dict, install: str, operator: str) -> dict:
    """The requirements of one way to install as fact properties (`req` = the catalog reference they come from)."""
    dra = data["methods"].get("dra", {})
    field = REQUIREMENTS[install]
    req = dra.get(field) or {}
    out = {key: req[key]["value"] for key in ("min_kubernetes", "min_driver", "driver_version") if key in req}
    out["req"] = field
    out["release_given"] = False
    operator_req = dra.get("requirements") or {}
    if "min_operator" in operator_req:
        out["min_operator"] = operator_req["min_operator"]["value"]
        out["operator_manages_dra"] = part("dra", data, operator)["operator_manages_dra"]  # (the same minimum)
    return out


def facts(asker, inputs: dict) -> list[dict]:
    dra = asker.data["methods"]["dra"]
    capability = next(c for c in dra["capabilities"] if c["id"] == inputs["feature"])
    maturity = capability["maturity"]["value"]
    fact = {"kind": "dra", "operator": inputs["operator"], "k8s": inputs["k8s"], "feature": inputs["feature"],
            "install": inputs["install"],
            "feature_name_en": words.word(words.DRA_FEATURE, inputs["feature"], "en"),
            "feature_name_de": words.word(words.DRA_FEATURE, inputs["feature"], "de"),
            "maturity": maturity, "maturity_from": "documents",
            **requirements(asker.data, inputs["install"], inputs["operator"])}
    shipped = part("dra_driver", asker.data, inputs["operator"]) if inputs["install"] == "operator" else None
    if shipped:
        fact["dra_driver"] = shipped
    if inputs.get("dra_driver"):  # the release's own requirements replace the documents' current ones
        for key in ("min_kubernetes", "min_driver", "driver_version"):
            fact.pop(key, None)
        fact.update(release_facts(asker.data, inputs["dra_driver"], capability))
    fact["maturity_en"] = words.word(words.MATURITY, fact["maturity"], "en")
    fact["maturity_de"] = words.word(words.MATURITY, fact["maturity"], "de")
    if "min_kubernetes" in fact:
        fact["k8s_vs_min_kubernetes"] = versions.compare(inputs["k8s"], fact["min_kubernetes"])
    if capability.get("since"):
        fact["feature_since"] = capability["since"]
    return [fact]


_WHO = {
    "operator": Text("NVIDIA's DRA driver{version}, managed by GPU Operator {operator},",
                     "NVIDIAs DRA-Treiber{version}, verwaltet vom GPU Operator {operator},"),
    "standalone": Text("NVIDIA's DRA driver{version}, installed on its own with its Helm chart,",
                       "NVIDIAs DRA-Treiber{version}, eigenständig mit seinem Helm-Chart installiert,"),
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
    if fact.get("dra_driver"):
        details["dra_driver"] = fact["dra_driver"]
    version = f" {fact['dra_driver']}" if fact.get("dra_driver") else ""
    who = _WHO[inputs["install"]].format(operator=inputs["operator"], version=version)
    summary = _SUMMARY[verdict].format(who=who, k8s=inputs["k8s"],
                                       feature=Text(fact["feature_name_en"], fact["feature_name_de"]))
    return base.build("dra", inputs, conclusions, verdict=verdict, summary=summary, details=details, data=asker.data)
