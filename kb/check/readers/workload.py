"""Pods and the objects that carry a pod template: what GPU resources each container requests, and where it runs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.check.documents import Doc, Where

#: kind → path of the pod spec inside the object
POD_SPEC = {
    "Pod": ("spec",),
    "PodTemplate": ("template", "spec"),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "ReplicationController": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
GPU_PREFIXES = ("nvidia.com/", "deviceclass.resource.kubernetes.io/")
#: the DaemonSets the GPU Operator deploys (NVIDIA/gpu-operator assets/state-*, read at commit a22dbf67): their pods
#: see every GPU by design, whatever their images are called
OPERANDS = {"gpu-feature-discovery", "nvidia-cc-manager", "nvidia-container-toolkit-daemonset", "nvidia-dcgm",
            "nvidia-dcgm-exporter", "nvidia-device-plugin-daemonset", "nvidia-device-plugin-mps-control-daemon",
            "nvidia-driver-daemonset", "nvidia-kata-manager", "nvidia-kata-sandbox-device-plugin-daemonset",
            "nvidia-mig-manager", "nvidia-node-status-exporter", "nvidia-operator-validator",
            "nvidia-sandbox-device-plugin-daemonset", "nvidia-sandbox-validator", "nvidia-vfio-manager",
            "nvidia-vgpu-device-manager", "nvidia-vgpu-manager-daemonset", "nvidia-gpu-operator", "gpu-operator"}
#: NVIDIA's own images (GPU Operator operands and the standalone plugins): these pods see every GPU by design
_NVIDIA_IMAGE = re.compile(r"(^|/)(nvcr\.io/nvidia/|nvidia/)(cloud-native/)?(k8s-device-plugin|gpu-feature-discovery|"
                           r"k8s/dcgm-exporter|dcgm-exporter|k8s-mig-manager|mig-manager|gpu-operator-validator|"
                           r"gpu-operator|driver|container-toolkit|k8s/container-toolkit|k8s-driver-manager|"
                           r"k8s-cc-manager|k8s-kata-manager|vgpu-device-manager|k8s-dra-driver-gpu|dcgm|"
                           r"k8s-sandbox-device-plugin|kubevirt-gpu-device-plugin|nvidia-fs|gdrdrv|mofed)(:|@|$)")


@dataclass
class Request:
    """One GPU resource one container asks for (its limit, else its request), as written."""

    container: str
    resource: str
    count: object
    where: Where


@dataclass
class Workload:
    kind: str
    name: str
    doc: Doc
    where: Where
    requests: list[Request] = field(default_factory=list)
    containers: int = 0
    node_name: str | None = None
    node_selector: dict = field(default_factory=dict)
    gpu_hints: list[str] = field(default_factory=list)  # why the pod is placed on GPU nodes
    runtime_class: str | None = None
    sets_visible_devices: bool = False
    uses_resource_claims: bool = False
    namespace: str | None = None
    products: list = field(default_factory=list)  # (value, Where) the pod requires of nvidia.com/gpu.product
    owner: str = ""  # "ReplicaSet/web-5d8f" of the first controller owner, if any
    nvidia_component: str = ""  # the NVIDIA image it runs, for NVIDIA's own pods and DaemonSets
    nvidia_version: str = ""  # that image's tag (v25.3.0)
    privileged: list = field(default_factory=list)  # (container, Where of its securityContext.privileged: true)
    configmap_volumes: list = field(default_factory=list)  # the ConfigMaps the pod mounts as volumes
    mps_root: bool = False  # a container sets the device plugin's MPS root (MPS_ROOT or --mps-root)
    mps_control_daemon: bool = False  # a container runs the device plugin's MPS control daemon
    plugin_container: str = ""  # the first container of the pod (where a device plugin's settings go)


def _containers(doc: Doc, spec: tuple):
    for section in ("initContainers", "containers"):
        items = doc.get(*spec, section)
        if isinstance(items, list):
            for i, c in enumerate(items):
                if isinstance(c, dict):
                    yield spec + (section, i), c


def read(doc: Doc, kind: str) -> Workload:
    spec = POD_SPEC[kind]
    name = doc.get("metadata", "name")
    w = Workload(kind, str(name) if name is not None else "", doc, doc.where(("metadata", "name")))
    for path, c in _containers(doc, spec):
        w.containers += 1
        cname = str(c.get("name", path[-1]))
        resources = c.get("resources") if isinstance(c.get("resources"), dict) else {}
        seen = set()
        for section in ("limits", "requests"):
            block = resources.get(section)
            if not isinstance(block, dict):
                continue
            for res, count in block.items():
                if isinstance(res, str) and res.startswith(GPU_PREFIXES) and res not in seen:
                    seen.add(res)
                    w.requests.append(Request(cname, res, count, doc.where(path + ("resources", section, res))))
        image = c.get("image")
        if isinstance(image, str) and not w.nvidia_component:
            m = _NVIDIA_IMAGE.search(image)
            if m:
                w.nvidia_component = m.group(4)
                tag = image[m.end(4):]
                w.nvidia_version = tag[1:] if tag.startswith(":") else ""
        if not w.plugin_container and path[-2] == "containers":
            w.plugin_container = cname
        words = [str(x) for part in (c.get("command"), c.get("args")) if isinstance(part, list) for x in part]
        if any("mps-control-daemon" in x for x in words):
            w.mps_control_daemon = True
        if any(x == "--mps-root" or x.startswith("--mps-root=") for x in words):
            w.mps_root = True
        context = c.get("securityContext")
        if isinstance(context, dict) and context.get("privileged") is True:
            w.privileged.append((cname, doc.where(path + ("securityContext", "privileged"))))
        env = c.get("env")
        if isinstance(env, list) and any(isinstance(e, dict) and e.get("name") == "NVIDIA_VISIBLE_DEVICES" for e in env):
            w.sets_visible_devices = True
        if isinstance(env, list) and any(isinstance(e, dict) and e.get("name") == "MPS_ROOT"
                                         and (e.get("value") or e.get("valueFrom")) for e in env):
            w.mps_root = True
    volumes = doc.get(*spec, "volumes")
    for v in volumes if isinstance(volumes, list) else []:
        cm = v.get("configMap") if isinstance(v, dict) else None
        if isinstance(cm, dict) and isinstance(cm.get("name"), str):
            w.configmap_volumes.append(cm["name"])
    node_name = doc.get(*spec, "nodeName")
    w.node_name = str(node_name) if isinstance(node_name, str) else None
    selector = doc.get(*spec, "nodeSelector")
    if isinstance(selector, dict):
        w.node_selector = {str(k): str(v) for k, v in selector.items()}
        w.gpu_hints += [f"nodeSelector {k}" for k in w.node_selector if k.startswith("nvidia.com/")]
        if "nvidia.com/gpu.product" in w.node_selector:
            w.products.append((w.node_selector["nvidia.com/gpu.product"],
                               doc.where(spec + ("nodeSelector", "nvidia.com/gpu.product"))))
    tolerations = doc.get(*spec, "tolerations")
    if isinstance(tolerations, list):
        w.gpu_hints += [f"toleration {t['key']}" for t in tolerations
                        if isinstance(t, dict) and isinstance(t.get("key"), str) and t["key"].startswith("nvidia.com/")]
    terms = doc.get(*spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                    "nodeSelectorTerms")
    if isinstance(terms, list):
        for t, term in enumerate(terms):
            exprs = term.get("matchExpressions") if isinstance(term, dict) else None
            for i, e in enumerate(exprs if isinstance(exprs, list) else []):
                if isinstance(e, dict) and isinstance(e.get("key"), str) and e["key"].startswith("nvidia.com/"):
                    w.gpu_hints.append(f"node affinity {e['key']}")
                    if e["key"] == "nvidia.com/gpu.product" and e.get("operator") == "In" and isinstance(e.get("values"), list):
                        path = spec + ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                                       "nodeSelectorTerms", t, "matchExpressions", i, "values")
                        w.products += [(str(v), doc.where(path + (j,))) for j, v in enumerate(e["values"])]
    rc = doc.get(*spec, "runtimeClassName")
    w.runtime_class = str(rc) if isinstance(rc, str) else None
    w.uses_resource_claims = bool(doc.get(*spec, "resourceClaims"))
    ns = doc.get("metadata", "namespace")
    w.namespace = str(ns) if isinstance(ns, str) else None
    owners = doc.get("metadata", "ownerReferences")
    if isinstance(owners, list):
        first = next((o for o in owners if isinstance(o, dict) and o.get("controller")), owners[0] if owners else None)
        if isinstance(first, dict):
            w.owner = f"{first.get('kind', '')}/{first.get('name', '')}"
    if not w.nvidia_component:
        app = doc.get("metadata", "labels", "app")
        named = {w.name if kind == "DaemonSet" else "", w.owner.split("/", 1)[-1] if w.owner.startswith("DaemonSet/") else "",
                 app if isinstance(app, str) else ""}
        found = next((n for n in named if n in OPERANDS), None)
        if found:
            w.nvidia_component = found
    return w
