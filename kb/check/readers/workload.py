"""Pods and the objects that carry a pod template: what GPU resources each container requests, and where it runs."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import Doc

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


@dataclass
class Request:
    """One GPU resource one container asks for (its limit, else its request), as written."""

    container: str
    resource: str
    count: object
    where: dict


@dataclass
class Workload:
    kind: str
    name: str
    doc: Doc
    where: dict
    requests: list[Request] = field(default_factory=list)
    containers: int = 0
    node_name: str | None = None
    node_selector: dict = field(default_factory=dict)
    gpu_hints: list[str] = field(default_factory=list)  # why the pod is placed on GPU nodes
    runtime_class: str | None = None
    sets_visible_devices: bool = False
    uses_resource_claims: bool = False


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
        env = c.get("env")
        if isinstance(env, list) and any(isinstance(e, dict) and e.get("name") == "NVIDIA_VISIBLE_DEVICES" for e in env):
            w.sets_visible_devices = True
    node_name = doc.get(*spec, "nodeName")
    w.node_name = str(node_name) if isinstance(node_name, str) else None
    selector = doc.get(*spec, "nodeSelector")
    if isinstance(selector, dict):
        w.node_selector = {str(k): str(v) for k, v in selector.items()}
        w.gpu_hints += [f"nodeSelector {k}" for k in w.node_selector if k.startswith("nvidia.com/")]
    tolerations = doc.get(*spec, "tolerations")
    if isinstance(tolerations, list):
        w.gpu_hints += [f"toleration {t['key']}" for t in tolerations
                        if isinstance(t, dict) and isinstance(t.get("key"), str) and t["key"].startswith("nvidia.com/")]
    terms = doc.get(*spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                    "nodeSelectorTerms")
    if isinstance(terms, list):
        for term in terms:
            exprs = term.get("matchExpressions") if isinstance(term, dict) else None
            for e in exprs if isinstance(exprs, list) else []:
                if isinstance(e, dict) and isinstance(e.get("key"), str) and e["key"].startswith("nvidia.com/"):
                    w.gpu_hints.append(f"node affinity {e['key']}")
    rc = doc.get(*spec, "runtimeClassName")
    w.runtime_class = str(rc) if isinstance(rc, str) else None
    w.uses_resource_claims = bool(doc.get(*spec, "resourceClaims"))
    return w
