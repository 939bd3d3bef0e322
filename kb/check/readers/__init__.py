"""Turn parsed documents into the objects the checks understand; everything else is listed as ignored.

One module per object kind. `kind: List` (and `…List` kinds, as `kubectl get -o yaml` prints them)
is unpacked item by item; documents without `kind` are read as device-plugin configurations,
MIG Manager configurations or the operator's Helm values, by their keys (see `helmvalues`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from kb.check.documents import Doc, Where, parse_text
from kb.check.readers import (clusterpolicy, deviceplugin, dpchart, gitops, gpucluster, helmvalues, migparted, node,
                              workload)
from kb.check.readers.clusterpolicy import ClusterPolicy
from kb.check.readers.deviceplugin import DevicePluginConfig
from kb.check.readers.dpchart import DevicePluginChart
from kb.check.readers.gpucluster import GPUCluster
from kb.check.readers.migparted import MigPartedConfig
from kb.check.readers.node import Node
from kb.check.readers.workload import Workload
from kb.text import Text


#: why an object is not checked, by code
REASONS = {
    "kind": Text("kind not checked", "Art wird nicht geprüft"),
    "not-object": Text("not a Kubernetes object (a mapping was expected)",
                       "kein Kubernetes-Objekt (erwartet war eine Zuordnung)"),
    "configmap": Text("holds no device-plugin or MIG configuration", "enthält keine Device-Plugin- oder MIG-Konfiguration"),
    "no-kind": Text("not a Kubernetes object, device-plugin or MIG configuration, or GPU Operator Helm values",
                    "weder Kubernetes-Objekt noch Device-Plugin- oder MIG-Konfiguration noch Helm-Werte des GPU Operators"),
    "other-chart": Text("installs a chart other than NVIDIA's GPU Operator or device plugin",
                        "installiert ein anderes Chart als NVIDIAs GPU Operator oder Device-Plugin"),
    "chart-yaml": Text("a Helm chart's description (Chart.yaml): its values are read from values.yaml; the GPU "
                       "Operator release a dependency pins is taken as the release in use",
                       "Beschreibung eines Helm-Charts (Chart.yaml): seine Werte stehen in values.yaml; die GPU-"
                       "Operator-Version einer Abhängigkeit gilt als die eingesetzte"),
    "no-values": Text("installs NVIDIA's chart, but its values are not in the object (a placeholder filled in "
                      "elsewhere, or a values file it names): check those values",
                      "installiert NVIDIAs Chart, seine Werte stehen aber nicht im Objekt (ein Platzhalter, der "
                      "anderswo gefüllt wird, oder eine Werte-Datei, die es nennt): diese Werte prüfen"),
}


@dataclass
class Ignored:
    kind: str
    name: str
    where: Where
    reason: str  # a key of REASONS


@dataclass
class Inventory:
    """Everything read from the input, by kind."""

    policies: list[ClusterPolicy] = field(default_factory=list)
    gpu_clusters: list[GPUCluster] = field(default_factory=list)
    dp_configs: list[DevicePluginConfig] = field(default_factory=list)
    mig_configs: list[MigPartedConfig] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    workloads: list[Workload] = field(default_factory=list)
    charts: list[DevicePluginChart] = field(default_factory=list)
    configmaps: dict = field(default_factory=dict)  # name → list of data keys (every ConfigMap read)
    ignored: list[Ignored] = field(default_factory=list)
    operator_namespace: str | None = None  # where the input shows the GPU Operator's namespace
    #: the namespace NVIDIA's components run in as the input shows it (their DaemonSets or pods, the Helm release's
    #: namespace) — not inferred from a ConfigMap: the one a ConfigMap must be in to be mounted by them
    components_namespace: str | None = None

    def add(self, obj) -> None:
        store = {ClusterPolicy: self.policies, GPUCluster: self.gpu_clusters, DevicePluginConfig: self.dp_configs,
                 MigPartedConfig: self.mig_configs, Node: self.nodes, Workload: self.workloads,
                 DevicePluginChart: self.charts, Ignored: self.ignored}
        kind = next(k for k in store if isinstance(obj, k))  # subclasses too (a Node read from nvidia-smi)
        store[kind].append(obj)
        if kind is DevicePluginConfig and obj.origin == "Helm values" and obj.configmap:
            # a ConfigMap the chart creates from its values (devicePlugin.config.create): its keys are known
            self.configmaps.setdefault(obj.configmap, []).append(obj.key)

    def merged(self, other: "Inventory") -> "Inventory":
        """What several builds read, for the summary: per kind the larger count, what was ignored once."""
        out = Inventory()
        for name in ("policies", "gpu_clusters", "dp_configs", "mig_configs", "nodes", "workloads", "charts"):
            a, b = getattr(self, name), getattr(other, name)
            setattr(out, name, a if len(a) >= len(b) else b)
        seen = set()
        for i in self.ignored + other.ignored:
            key = (i.kind, i.name, i.where["file"], i.where["document"])
            if key not in seen:
                seen.add(key)
                out.ignored.append(i)
        out.configmaps = {**other.configmaps, **self.configmaps}
        out.operator_namespace = self.operator_namespace or other.operator_namespace
        out.components_namespace = self.components_namespace or other.components_namespace
        return out

    @property
    def checked(self) -> int:
        return (len(self.policies) + len(self.gpu_clusters) + len(self.dp_configs) + len(self.mig_configs)
                + len(self.nodes) + len(self.workloads) + len(self.charts))


def chart_yaml(data: dict) -> bool:
    """A Helm chart's Chart.yaml: apiVersion v1/v2, a name and a version, no kind."""
    return (data.get("apiVersion") in ("v1", "v2") and isinstance(data.get("name"), str) and "version" in data
            and "kind" not in data)


def chart_operator_version(data) -> str | None:
    """The GPU Operator release a chart's Chart.yaml pins as a dependency (an umbrella chart), else None."""
    if not isinstance(data, dict) or not chart_yaml(data) or not isinstance(data.get("dependencies"), list):
        return None
    for dep in data["dependencies"]:
        if isinstance(dep, dict) and dep.get("name") == "gpu-operator" and isinstance(dep.get("version"), str):
            return dep["version"]
    return None


def _group(api_version) -> str:
    return api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def _objects(doc: Doc):
    """The document, or the items of a List, each seen as its own sub-document. A document that is a
    list holding mappings (a JSON array of objects, as `jq -s` writes it) counts as a List too."""
    data = doc.data
    if isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List") \
            and isinstance(data.get("items"), list):
        for i in range(len(data["items"])):
            yield from _objects(doc.sub(("items", i)))
    elif isinstance(data, list) and any(isinstance(item, dict) for item in data):
        for i in range(len(data)):
            yield from _objects(doc.sub((i,)))
    else:
        yield doc


def _name(doc: Doc) -> str:
    name = doc.get("metadata", "name")
    return str(name) if name is not None else ""


def _kind_of_value(doc: Doc, value) -> str | None:
    """'dp' or 'mig' where a ConfigMap value is a device-plugin or MIG Manager configuration."""
    if not isinstance(value, str) or not ("sharing" in value or "flags" in value or "mig-configs" in value):
        return None
    docs, errors = parse_text(value, doc.file)
    if errors or not docs:
        return None
    if deviceplugin.looks_like_config(docs[0].data):
        return "dp"
    return "mig" if migparted.looks_like_config(docs[0].data) else None


def _read_configmap(doc: Doc, inv: Inventory, dp_names: set, mig_names: set) -> None:
    """A ConfigMap named by the ClusterPolicy, or holding such configurations; other ConfigMaps are ignored.

    In a device-plugin ConfigMap every key is a configuration a node may select, so every key is read.
    """
    name = _name(doc)
    ns = doc.get("metadata", "namespace")
    ns = ns if isinstance(ns, str) else None
    data = doc.get("data")
    data = data if isinstance(data, dict) else {}
    inv.configmaps[name] = [str(k) for k in data]
    kinds = {k: _kind_of_value(doc, v) for k, v in data.items()}
    if name in dp_names or "dp" in kinds.values():
        for k, v in data.items():
            cfg = deviceplugin.from_configmap_value(doc, ("data", k), v, "ConfigMap", name, doc.where(("metadata", "name")))
            cfg.namespace = ns
            inv.add(cfg)
        if name in dp_names and ns and not inv.operator_namespace:
            inv.operator_namespace = ns
    elif name in mig_names or "mig" in kinds.values():
        for k, v in data.items():
            if name in mig_names or kinds[k] == "mig":
                cfg = migparted.from_configmap_value(doc, ("data", k), v, "ConfigMap", name)
                cfg.namespace = ns
                inv.add(cfg)
    else:
        inv.add(Ignored("ConfigMap", name, doc.where(("kind",)), "configmap"))


def _values(values: gitops.Values, inv: Inventory) -> None:
    """Chart values found in a GitOps object or nested in an umbrella chart's values."""
    if values.chart == "operator":
        objs = helmvalues.read(values.doc, values.source, values.namespace)
        if values.namespace and not inv.operator_namespace:
            inv.operator_namespace = values.namespace
        if values.namespace and not inv.components_namespace:
            inv.components_namespace = values.namespace
    else:
        objs = dpchart.read(values.doc, values.source, values.namespace, values.release)
    for obj in objs:
        inv.add(obj)


def _read_plain(doc: Doc, inv: Inventory) -> None:
    """A document without kind: a device-plugin config, a MIG Manager config, the values of NVIDIA's GPU
    Operator chart, of the standalone device-plugin chart or of an umbrella chart that nests them, or a node's
    labels (`kubectl get node … -o jsonpath='{.metadata.labels}'`)."""
    data = doc.data
    stem = PurePath(doc.file).name
    carried = getattr(doc, "helm", None)  # values a `helm install --set …` command gives
    if carried is not None:
        _values(gitops.Values(doc, "operator", carried[0], carried[1]), inv)
        return
    if deviceplugin.looks_like_config(data):
        inv.add(deviceplugin.from_doc(doc, "file", None, stem, doc.where()))
    elif migparted.looks_like_config(data):
        inv.add(migparted.from_doc(doc, "file", None, stem, doc.where()))
    elif dpchart.looks_like_values(data, doc.file):
        for obj in dpchart.read(doc):
            inv.add(obj)
    elif helmvalues.looks_like_values(data):
        for obj in helmvalues.read(doc):
            inv.add(obj)
    elif isinstance(data, dict) and set(gitops.SUBCHART_KEYS) & set(data):
        for key, chart in gitops.SUBCHART_KEYS.items():
            if isinstance(data.get(key), dict):
                _values(gitops.Values(doc.sub((key,)), chart, Text("values under {k}:", "Werte unter {k}:")
                                      .format(k=key), None), inv)
    elif node.looks_like_labels(data):
        inv.add(node.from_labels(doc))
    else:
        inv.add(Ignored("(no kind)", "", doc.where(), "no-kind"))


def read_objects(docs: list[Doc], extras: list | None = None) -> Inventory:
    inv = Inventory()
    for obj in extras or []:
        inv.add(obj)
    objects = [o for d in docs for o in _objects(d)]
    configmaps = []
    by_name = {}
    for doc in objects:
        if isinstance(doc.data, dict) and doc.data.get("kind") == "ConfigMap" and _name(doc):
            by_name.setdefault(_name(doc), doc)
    for doc in objects:
        data = doc.data
        kind = data.get("kind") if isinstance(data, dict) else None
        group = _group(data.get("apiVersion")) if isinstance(data, dict) else ""
        if not isinstance(data, dict):
            inv.add(Ignored("(no kind)", "", doc.where(), "not-object"))
        elif kind is not None and not isinstance(kind, str):
            inv.add(Ignored(str(kind), _name(doc), doc.where(("kind",)), "kind"))
        elif kind is None and "apiVersion" not in data:
            _read_plain(doc, inv)
        elif gitops.is_gitops(doc):
            found = gitops.read(doc, by_name)
            for values in found:
                _values(values, inv)
            if not found:
                reason = "no-values" if gitops.names_our_chart(doc) else "other-chart"
                inv.add(Ignored(str(kind), _name(doc), doc.where(("kind",)), reason))
        elif kind == "ClusterPolicy" and group in ("nvidia.com", ""):
            inv.add(clusterpolicy.read(doc))
        elif kind == "GPUCluster" and group in ("nvidia.com", ""):
            inv.add(gpucluster.read(doc))
        elif kind == "ConfigMap" and group == "":
            configmaps.append(doc)
        elif kind == "Node" and group == "":
            inv.add(node.read(doc))
        elif kind in workload.POD_SPEC:
            w = workload.read(doc, kind)
            inv.add(w)
            if w.nvidia_component and w.namespace and not inv.operator_namespace:
                inv.operator_namespace = w.namespace
            if w.nvidia_component and w.namespace and not inv.components_namespace:
                inv.components_namespace = w.namespace
        elif kind is None and chart_yaml(data):
            inv.add(Ignored("Chart.yaml", str(data.get("name", "")), doc.where(), "chart-yaml"))
        else:
            inv.add(Ignored(str(kind) if kind is not None else "(no kind)", _name(doc), doc.where(("kind",)), "kind"))
    dp_names = {str(p.value("devicePlugin.config.name")) for p in inv.policies if p.value("devicePlugin.config.name")}
    mig_names = {str(p.value("migManager.config.name")) for p in inv.policies if p.value("migManager.config.name")}
    for doc in configmaps:
        _read_configmap(doc, inv, dp_names, mig_names)
    return inv
