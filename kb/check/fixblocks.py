"""Fixes built from the object a finding speaks about (kb.check.fixes dispatches here): the corrected block of a
device-plugin configuration, the standalone chart's values, a GPUCluster's feature gates, a container; and, where no
YAML block can fix it (a driver or Kubernetes upgrade, a GPU reset, NVIDIA's support statement), the command or the
step to take, said as such.

Each block is the user's own object as written — their names, namespace and values — with only the wrong part changed.
"""

from __future__ import annotations

import difflib

from kb.text import Text

T = Text


def _yaml(data) -> str:
    from kb.check.fixes import _yaml as dump

    return dump(data)


def _label(node: str, label: str, value: str) -> Text:
    return T("kubectl label node {n} {l}={v} --overwrite").format(n=node or "<node>", l=label, v=value)


def _mig_off(node: str) -> Text:
    return _label(node, "nvidia.com/mig.config", "all-disabled")


# --- device-plugin configurations ---------------------------------------------------------------------------------

def dp_config(ctx, fact: dict) -> dict | None:
    """The dp_config fact of the configuration a fact names (its `config` label), else the one a node selects."""
    label = fact.get("config")
    if fact.get("kind") == "node":  # the configuration the node selects: key dp_config of the policy's ConfigMap
        policy = ctx.policies[0] if ctx.policies else {}
        names = {policy.get("dp_config_name")} - {None, ""}
        for c in ctx.dp_configs:
            if c.get("key") == fact.get("dp_config") and (not names or c.get("configmap") in names):
                return c
        return None
    return next((c for c in ctx.dp_configs if c.get("config") == label), None)


def config_block(ctx, cfg: dict | None, change, note: Text | None = None) -> Text | None:
    """The configuration as written, corrected by `change(data)`, headed by where it lives and how to edit it."""
    from kb.check.fixes import _config_block

    if cfg is None:
        return None
    found = _config_block(ctx, cfg, change)
    return found + note if found is not None and note is not None else found


def _sharing(data: dict) -> dict:
    sharing = data.get("sharing")
    return sharing if isinstance(sharing, dict) else {}


def fix_mps_on_mig(ctx, fact: dict) -> Text | None:
    """CHK-003: MIG instances are shared by time-slicing, not MPS: the selected configuration's MPS block becomes a
    time-slicing block; or MIG goes off on the node."""
    def change(data):
        sharing = _sharing(data)
        if "mps" not in sharing or "timeSlicing" in sharing:
            return False
        sharing["timeSlicing"] = sharing.pop("mps")
        return True

    alt = T("\nOr keep MPS and turn MIG off on the node: {c}", "\nOder MPS behalten und MIG auf dem Node abschalten: {c}"
            ).format(c=_mig_off(fact.get("name")))
    found = config_block(ctx, dp_config(ctx, fact), change, alt)
    return found if found is not None else T("Turn MIG off on the node: {c}", "MIG auf dem Node abschalten: {c}").format(
        c=_mig_off(fact.get("name")))


def fix_both_methods(ctx, fact: dict) -> Text | None:
    """CHK-004: one method per configuration — the MPS block goes (time-slicing also shares MIG instances); the
    other way round is said."""
    def change(data):
        _sharing(data).pop("mps", None)
        return True

    return config_block(ctx, fact, change, T("\n(Or keep sharing.mps and remove sharing.timeSlicing.)",
                                             "\n(Oder sharing.mps behalten und sharing.timeSlicing entfernen.)"))


def fix_rename_by_default(ctx, fact: dict) -> Text | None:
    """CHK-061: renameByDefault goes, so the shared resources keep their names (or the pods request <name>.shared)."""
    kind = fact.get("sharing")

    def change(data):
        block = _sharing(data).get(kind)
        if not isinstance(block, dict) or "renameByDefault" not in block:
            return False
        del block["renameByDefault"]
        return True

    return config_block(ctx, dp_config(ctx, fact), change, T(
        "\n(Or keep it and let every pod request the .shared name, e.g. nvidia.com/gpu.shared.)",
        "\n(Oder beibehalten und in jedem Pod den .shared-Namen anfordern, z. B. nvidia.com/gpu.shared.)"))


def fix_unreadable(ctx, fact: dict) -> Text:
    """CHK-012: text that is not YAML has no mechanical correction: where it breaks, and the command to edit it."""
    error = fact.get("error_en", "")
    line = error.rsplit("(line ", 1)[1].rstrip(")") if "(line " in error else ""
    at = T(" at line {l}", " in Zeile {l}").format(l=line) if line else ""
    if fact.get("configmap"):
        return T("No corrected block can be derived from text that is not YAML: correct the indentation or quoting{at} "
                 "in key {k} of ConfigMap {cm}: kubectl edit configmap {cm} -n {ns}",
                 "Aus Text, der kein YAML ist, lässt sich kein korrigierter Block ableiten: Einrückung oder Anführungszeichen"
                 "{at} im Schlüssel {k} der ConfigMap {cm} korrigieren: kubectl edit configmap {cm} -n {ns}").format(
            at=at, k=fact.get("key"), cm=fact["configmap"], ns=fact.get("namespace") or ctx.operator_namespace)
    return T("No corrected block can be derived from text that is not YAML: correct the indentation or quoting{at} "
             "in {c}.", "Aus Text, der kein YAML ist, lässt sich kein korrigierter Block ableiten: Einrückung oder "
             "Anführungszeichen{at} in {c} korrigieren.").format(at=at, c=fact.get("config"))


# --- mig-parted configurations --------------------------------------------------------------------------------------

def fix_mig_config(ctx, fact: dict) -> Text | None:
    """CHK-045: the problems mig-parted refuses that have one reading (a layout written as a mapping instead of a list
    of device entries, a missing or wrong `version`, a misspelt field with one close match) corrected in the
    configuration as written; otherwise where to edit it."""
    import copy

    from kb.check.facts.mig import label

    cfg = next((c for c in (ctx.inv.mig_configs if ctx.inv else []) if label(c) == fact.get("config")), None)
    if cfg is None:
        return None
    ns = cfg.namespace or ctx.operator_namespace
    edit = T("kubectl edit configmap {cm} -n {ns}").format(cm=cfg.configmap, ns=ns) if cfg.configmap else None
    fixed = copy.deepcopy(cfg.data) if isinstance(cfg.data, dict) else None
    done = fixed is not None and bool(cfg.problems) and all(_correct_mig(fixed, p) for p in cfg.problems)
    if not done:
        where = T("key {k} of ConfigMap {cm}; {e}", "Schlüssel {k} der ConfigMap {cm}; {e}").format(
            k=cfg.key, cm=cfg.configmap, e=edit) if edit else T(fact.get("config", ""))
        return T("No corrected block can be derived for this problem: correct it as stated above ({w}).",
                 "Für dieses Problem lässt sich kein korrigierter Block ableiten: wie oben beschrieben korrigieren ({w})."
                 ).format(w=where)
    head = T("Corrected configuration (key {k} of ConfigMap {cm}; {e}):",
             "Korrigierte Konfiguration (Schlüssel {k} der ConfigMap {cm}; {e}):").format(
        k=cfg.key, cm=cfg.configmap, e=edit) if edit else T("Corrected configuration:", "Korrigierte Konfiguration:")
    return head + "\n" + _yaml(fixed)


def _correct_mig(data: dict, problem) -> bool:
    import re

    path, text = list(problem.path), problem.text.en
    parent = data
    for part in path[:-1]:
        parent = parent.get(part) if isinstance(parent, dict) else None
    last = path[-1] if path else None
    if "expects a list of device entries" in text and isinstance(parent, dict) and isinstance(parent.get(last), dict):
        parent[last] = [parent[last]]
        return True
    if "without `version: v1`" in text:
        items = dict(data)
        data.clear()
        data.update({"version": "v1", **items})
        return True
    if path == ["version"] and "knows only v1" in text:
        data["version"] = "v1"
        return True
    meant = re.search(r"did you mean `([^`]+)`", text)
    if meant and isinstance(parent, dict) and last in parent:
        keys = list(parent)
        value = parent.pop(last)
        items = {(meant.group(1) if k == last else k): (value if k == last else parent[k]) for k in keys}
        parent.clear()
        parent.update(items)
        return True
    return False


# --- the standalone device-plugin chart ---------------------------------------------------------------------------

def fix_chart(ctx, fact: dict) -> Text | None:
    """CHK-018: the chart's values corrected as its validation wants them."""
    chart = next((c for c in ctx.inv.charts if c.source.en == fact.get("source_en")), None) if ctx.inv else None
    data = chart.doc.data if chart is not None else None
    if not isinstance(data, dict):
        return None
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    fixed: dict
    text = fact.get("text_en", "")
    if text.startswith("config.name and config.map"):
        name = config.get("name")
        if name in (ctx.inv.configmaps if ctx.inv else {}):  # the ConfigMap it names is there: it is meant
            fixed = {"config": {k: v for k, v in config.items() if k != "map"}}
        else:  # the configurations written here are meant: the chart creates their ConfigMap
            fixed = {"config": {k: v for k, v in config.items() if k != "name"}}
    elif text.startswith("config.map holds"):
        keys = list(config.get("map") or {})
        fixed = {"config": {**config, "default": keys[0]}}
        fixed["config"] = {k: fixed["config"][k] for k in ["default", *[k for k in config if k != "default"]]}
    elif text.startswith("a `namespace` value"):
        release = chart.release or "nvidia-device-plugin"
        return T("Remove namespace: {ns} from the values and install with: helm upgrade --install {r} "
                 "nvdp/nvidia-device-plugin --namespace {ns}",
                 "namespace: {ns} aus den Werten entfernen und so installieren: helm upgrade --install {r} "
                 "nvdp/nvidia-device-plugin --namespace {ns}").format(ns=data.get("namespace"), r=release)
    else:
        return None
    return T("Corrected values ({s}):\n{y}", "Korrigierte Werte ({s}):\n{y}").format(
        s=T(fact.get("source_en", ""), fact.get("source_de", "")), y=_yaml(fixed))


# --- nodes: MIG layouts and what no YAML can change ----------------------------------------------------------------

def fix_profile(ctx, fact: dict) -> Text | None:
    """CHK-039: the layout named after the card's closest profile."""
    missing, layout = fact.get("layout_profile_missing", ""), fact.get("mig_config", "")
    profiles = [p for p in fact.get("card_mig_profiles", "").split(", ") if p and "+" not in p and "-me" not in p]
    if not profiles or not missing:
        return None
    best = min(profiles, key=lambda p: (not p.startswith(missing.split(".")[0] + "."),
                                        -difflib.SequenceMatcher(None, p, missing).ratio()))
    if layout == f"all-{missing}":
        return _label(fact.get("name"), "nvidia.com/mig.config", f"all-{best}")
    return T("In layout {l} of the MIG configuration, use {b} instead of {m} (the {c} offers: {all}).",
             "Im Layout {l} der MIG-Konfiguration {b} statt {m} verwenden (die {c} bietet: {all}).").format(
        l=layout, b=best, m=missing, c=fact.get("card_name"), all=fact.get("card_mig_profiles"))


def fix_layout_missing(ctx, fact: dict) -> Text:
    """CHK-036: a layout of the named configuration on the node, or the layout added to that configuration."""
    cfg = next((c for c in (ctx.inv.mig_configs if ctx.inv else []) if c.configmap == fact.get("layout_missing_in")),
               None)
    ns = (cfg.namespace if cfg is not None else None) or ctx.operator_namespace
    value = fact.get("layout_closest") or "<{}>".format(" | ".join(fact.get("named_layouts", "").split(", ")))
    return _label(fact.get("name"), "nvidia.com/mig.config", value) + T(
        "\nOr add layout {l} to key {k} of ConfigMap {cm}: kubectl edit configmap {cm} -n {ns}",
        "\nOder das Layout {l} im Schlüssel {k} der ConfigMap {cm} ergänzen: kubectl edit configmap {cm} -n {ns}").format(
        l=fact.get("mig_config"), k=fact.get("layout_missing_key"), cm=fact.get("layout_missing_in"), ns=ns)


def fix_unconfirmed(ctx, fact: dict) -> Text:
    """CHK-034: no setting confirms MIG; until NVIDIA documents it, the node runs without MIG."""
    return T("No setting changes what NVIDIA documents for the {c}. Until NVIDIA documents MIG for it (or confirms it to "
             "you in writing), run the node without MIG: {cmd}",
             "Keine Einstellung ändert, was NVIDIA für die {c} dokumentiert. Bis NVIDIA MIG dafür dokumentiert (oder "
             "Ihnen schriftlich bestätigt), den Node ohne MIG betreiben: {cmd}").format(c=fact.get("card_name"), cmd=_mig_off(fact.get("name")))


def fix_condition(ctx, fact: dict) -> Text:
    """CHK-035: the condition is met on the machine (no Kubernetes object sets it), or MIG goes off."""
    return T("The condition above is met outside the manifests (on the machine, or by NVIDIA), so no corrected block "
             "is shown. Until it is met, run the node without MIG: {cmd}",
             "Die Bedingung oben wird außerhalb der Manifeste erfüllt (auf der Maschine oder durch NVIDIA), daher gibt "
             "es keinen korrigierten Block. Bis sie erfüllt ist, den Node ohne MIG betreiben: {cmd}").format(
        cmd=_mig_off(fact.get("name")))


def fix_not_listed(ctx, fact: dict) -> Text:
    """CHK-037: NVIDIA's support statement, not a setting."""
    return T("No setting changes this: it is NVIDIA's support statement. Ask NVIDIA or your server vendor to confirm "
             "the {c} with the GPU Operator before relying on it in production.",
             "Keine Einstellung ändert das: Es ist NVIDIAs Supportaussage. Lassen Sie sich die {c} mit dem GPU Operator "
             "von NVIDIA oder Ihrem Serverhersteller bestätigen, bevor Sie sich im Betrieb darauf verlassen.").format(
        c=fact.get("card_name"))


def fix_pending(ctx, fact: dict) -> Text:
    """CHK-047: a GPU reset, not YAML."""
    return T("No YAML applies a pending MIG mode: stop the GPU's clients on the machine, then reset the GPU "
             "(sudo nvidia-smi --gpu-reset) or reboot the machine; check with nvidia-smi --query-gpu=mig.mode.current "
             "--format=csv.",
             "Kein YAML wendet einen ausstehenden MIG-Modus an: die Clients der GPU auf der Maschine beenden, dann die GPU "
             "zurücksetzen (sudo nvidia-smi --gpu-reset) oder die Maschine neu starten; prüfen mit nvidia-smi "
             "--query-gpu=mig.mode.current --format=csv.")


def _branch_version(versions: str, have: str) -> str:
    """The version of `versions` ("570.172.08, 580.65.06") on the branch of `have`, else the first."""
    items = [v.strip() for v in versions.split(",") if v.strip()]
    same = [v for v in items if v.split(".")[0] == str(have).split(".")[0]]
    return (same or items or ["<version>"])[0]


def fix_driver(ctx, version: str) -> Text:
    """A driver upgrade: where the GPU Operator installs the driver, its version in the ClusterPolicy."""
    from kb.check.fixes import set_policy

    return T("Where the GPU Operator installs the driver: {p}\nA driver installed on the host is upgraded there "
             "(no YAML changes it).",
             "Wo der GPU Operator den Treiber installiert: {p}\nEin auf dem Host installierter Treiber wird dort "
             "aktualisiert (keine YAML-Änderung).").format(p=set_policy(ctx, {"driver.version": version}))


def fix_known_issue(ctx, fact: dict) -> Text:
    """CHK-046: the fixed driver on the branch the node runs."""
    return fix_driver(ctx, _branch_version(fact.get("fixed_in", ""), fact.get("version", "")))


def fix_card_minimum(ctx, fact: dict) -> Text:
    """CHK-049: the card's minimum driver."""
    return fix_driver(ctx, fact.get("card_min_driver", "<version>"))


# --- GPUCluster (DRA) -----------------------------------------------------------------------------------------------

def _cluster(ctx, name: str):
    return next((g for g in (ctx.inv.gpu_clusters if ctx.inv else []) if g.name == name), None)


def _gates_block(ctx, name: str, change) -> Text | None:
    """The GPUCluster's (or the Helm values') featureGates as written, corrected by `change(gates)`."""
    g = _cluster(ctx, name)
    if g is None:
        return None
    path = ("spec", "draDriver", "featureGates") if g.origin == "GPUCluster" else ("draDriver", "featureGates")
    gates = g.doc.get(*path)
    if not isinstance(gates, dict):
        return None
    fixed = dict(gates)
    change(fixed)
    tree: dict = fixed
    for part in reversed(path):
        tree = {part: tree}
    if g.origin == "GPUCluster":
        return T("In GPUCluster {n} (kubectl edit gpuclusters.nvidia.com/{n}):\n{y}",
                 "Im GPUCluster {n} (kubectl edit gpuclusters.nvidia.com/{n}):\n{y}").format(n=name, y=_yaml(tree))
    return T("In the GPU Operator's Helm values:\n{y}", "In den Helm-Werten des GPU Operators:\n{y}").format(y=_yaml(tree))


def fix_alpha_gate(ctx, fact: dict) -> Text | None:
    """CHK-052: the alpha gate off (for production)."""
    gate = fact.get("gate")

    def change(gates):
        for k in gates:
            if k == gate:
                gates[k] = False

    return _gates_block(ctx, fact.get("cluster", ""), change)


#: gates DynamicMIG cannot be combined with (k8s-dra-driver-gpu featuregates.go)
_CONFLICTS = ("PassthroughSupport", "NVMLDeviceHealthCheck", "MPSSupport")


def fix_gate_conflict(ctx, fact: dict) -> Text | None:
    """CHK-054: DynamicMIG kept, the gates it conflicts with off (or the other way round, said)."""
    def change(gates):
        for k, v in gates.items():
            if k in _CONFLICTS and v is True:
                gates[k] = False

    found = _gates_block(ctx, fact.get("name", ""), change)
    return found + T("\n(Or keep {o} and set DynamicMIG: false.)", "\n(Oder {o} behalten und DynamicMIG: false setzen.)"
                     ).format(o=", ".join(g for g in fact.get("enabled_gates", "").split(", ") if g in _CONFLICTS)
                              ) if found is not None else None


def fix_both_crs(ctx, fact: dict) -> Text:
    """CHK-050: one of the two custom resources."""
    if fact.get("origin") == "Helm values" or fact.get("policy_origin_en") == "Helm values":
        return T("In the GPU Operator's Helm values (DRA: the GPUCluster only):\n{y}",
                 "In den Helm-Werten des GPU Operators (DRA: nur der GPUCluster):\n{y}").format(
            y=_yaml({"clusterPolicy": {"deployCR": False}, "gpuCluster": {"deployCR": True}}))
    return T("Keep one of them: kubectl delete clusterpolicies.nvidia.com/{p} (DRA), or kubectl delete "
             "gpuclusters.nvidia.com/{g} (device plugin).",
             "Eine der beiden behalten: kubectl delete clusterpolicies.nvidia.com/{p} (DRA) oder kubectl delete "
             "gpuclusters.nvidia.com/{g} (Device-Plugin).").format(p=fact.get("policy_name"), g=fact.get("name"))


def fix_k8s(ctx, fact: dict) -> Text:
    """CHK-051: a Kubernetes upgrade."""
    return T("No YAML fixes this: upgrade Kubernetes to v{m} or later (control plane, then every node's kubelet); "
             "the versions the nodes run: kubectl get nodes -o custom-columns=NODE:.metadata.name,"
             "KUBELET:.status.nodeInfo.kubeletVersion. Until then, stay with the device plugin (ClusterPolicy).",
             "Keine YAML-Änderung behebt das: Kubernetes auf v{m} oder neuer aktualisieren (Control Plane, dann das "
             "Kubelet jedes Nodes); welche Versionen die Nodes haben: kubectl get nodes -o custom-columns="
             "NODE:.metadata.name,KUBELET:.status.nodeInfo.kubeletVersion. Bis dahin beim Device-Plugin (ClusterPolicy) "
             "bleiben.").format(m=fact.get("min_k8s"))


def fix_dra_driver(ctx, fact: dict) -> Text:
    """CHK-053: an NVIDIA driver upgrade to the DRA driver's minimum branch."""
    return T("No YAML fixes this: upgrade the NVIDIA driver on the GPU nodes to {m} or later (where the GPU Operator "
             "installs it, set its driver version to a {m} release); the drivers the nodes run: kubectl get nodes "
             "-L nvidia.com/cuda.driver-version.full.",
             "Keine YAML-Änderung behebt das: den NVIDIA-Treiber auf den GPU-Nodes auf {m} oder neuer aktualisieren (wo "
             "der GPU Operator ihn installiert, seine Treiberversion auf ein {m}er-Release setzen); welche Treiber die "
             "Nodes haben: kubectl get nodes -L nvidia.com/cuda.driver-version.full.").format(m=fact.get("min_driver"))


def fix_operator(ctx, fact: dict) -> Text:
    """CHK-055: a GPU Operator upgrade, with the customer's namespace."""
    return T("Upgrade the GPU Operator: helm upgrade gpu-operator nvidia/gpu-operator -n {ns} --version v{v} "
             "--reuse-values (the release name as installed: helm list -n {ns}).",
             "Den GPU Operator aktualisieren: helm upgrade gpu-operator nvidia/gpu-operator -n {ns} --version v{v} "
             "--reuse-values (der Release-Name wie installiert: helm list -n {ns}).").format(
        ns=ctx.operator_namespace, v=fact.get("min_operator"))


def fix_mps_fail_honoured(ctx, fact: dict) -> Text:
    """CHK-064: a GPU Operator release whose device plugin honours failRequestsGreaterThanOne: false under MPS."""
    operator = fact.get("honoured_operator")
    if not operator:
        return T("No YAML fixes this: request one shared GPU per container (a limit of 1), or use device "
                 "plugin v{p} or later.", "Keine YAML-Änderung behebt das: je Container eine geteilte GPU anfordern "
                 "(ein Limit von 1), oder Device-Plugin v{p} oder neuer nutzen.").format(
            p=fact.get("honoured_since"))
    return T("Request one shared GPU per container (a limit of 1), or upgrade the GPU Operator to a release "
             "with device plugin v{p}: helm upgrade gpu-operator nvidia/gpu-operator -n {ns} --version v{v} "
             "--reuse-values (the release name as installed: helm list -n {ns}).",
             "Je Container eine geteilte GPU anfordern (ein Limit von 1), oder den GPU Operator auf ein "
             "Release mit Device-Plugin v{p} aktualisieren: helm upgrade gpu-operator nvidia/gpu-operator -n {ns} "
             "--version v{v} --reuse-values (der Release-Name wie installiert: helm list -n {ns}).").format(
        p=fact.get("honoured_since"), ns=ctx.operator_namespace, v=operator)


# --- workloads ------------------------------------------------------------------------------------------------------

def _pod_spec(data) -> dict | None:
    if not isinstance(data, dict):
        return None
    spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
    if data.get("kind") == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec") or {})
    if data.get("kind") != "Pod":
        spec = ((spec.get("template") or {}).get("spec") or {}) if isinstance(spec.get("template"), dict) else spec
    return spec if isinstance(spec, dict) else None


def fix_no_request(ctx, fact: dict) -> Text | None:
    """CHK-073: the containers hide the GPUs (NVIDIA_VISIBLE_DEVICES=void: the runtime mounts none); with CDI off,
    enabling CDI stops the runtime exposing GPUs to every container."""
    from kb.check.fixes import set_policy

    kind, _, name = fact.get("workload", "").partition("/")
    w = next((w for w in (ctx.inv.workloads if ctx.inv else []) if w.kind == kind and w.name == name), None)
    spec = _pod_spec(w.doc.data) if w is not None else None
    containers = spec.get("containers") if spec else None
    if not isinstance(containers, list) or not all(isinstance(c, dict) for c in containers):
        return None
    fixed = []
    for c in containers:
        env = [e for e in (c.get("env") or []) if isinstance(e, dict) and e.get("name") != "NVIDIA_VISIBLE_DEVICES"]
        fixed.append({"name": c.get("name"), "env": env + [{"name": "NVIDIA_VISIBLE_DEVICES", "value": "void"}]})
    out = T("In {w} (its containers see no GPU):\n{y}",
            "In {w} (seine Container sehen keine GPU):\n{y}").format(
        w=fact.get("workload"), y=_yaml({"containers": fixed}))
    if fact.get("cdi_enabled") is False:
        out = out + T("\nOr, for every pod of the cluster, enable CDI: {p}", "\nOder, für alle Pods des Clusters, CDI "
                      "einschalten: {p}").format(p=set_policy(ctx, {"cdi.enabled": True}))
    return out


#: rule → fix builder
FIXES = {"CHK-003": fix_mps_on_mig, "CHK-004": fix_both_methods, "CHK-012": fix_unreadable, "CHK-018": fix_chart,
         "CHK-034": fix_unconfirmed, "CHK-036": fix_layout_missing, "CHK-035": fix_condition, "CHK-037": fix_not_listed, "CHK-039": fix_profile,
         "CHK-045": fix_mig_config,
         "CHK-046": fix_known_issue, "CHK-047": fix_pending, "CHK-049": fix_card_minimum, "CHK-050": fix_both_crs,
         "CHK-051": fix_k8s, "CHK-052": fix_alpha_gate, "CHK-053": fix_dra_driver, "CHK-054": fix_gate_conflict,
         "CHK-055": fix_operator, "CHK-061": fix_rename_by_default, "CHK-064": fix_mps_fail_honoured,
         "CHK-073": fix_no_request}
