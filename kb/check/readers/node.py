"""`Node` objects: the GPU Feature Discovery and operator labels, advertised GPU resources, kubelet version."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import Doc, Where

#: Labels the checks read (set by GPU Feature Discovery, the operator, MIG Manager or the user).
LABELS = (
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.count",
    "nvidia.com/gpu.mode",
    "nvidia.com/mig.capable",
    "nvidia.com/mig.config",
    "nvidia.com/mig.config.state",
    "nvidia.com/mig.strategy",
    "nvidia.com/device-plugin.config",
    "nvidia.com/gpu.workload.config",
    "nvidia.com/gpu.sharing-strategy",
    "nvidia.com/cuda.driver-version.full",
    "nvidia.com/cuda.driver.major",
    "nvidia.com/cuda.driver.minor",
    "nvidia.com/cuda.driver.rev",
    "nvidia.com/gpu.compute.major",
    "nvidia.com/gpu.compute.minor",
    "nvidia.com/gpu.family",
)


@dataclass
class Label:
    value: str
    where: Where


@dataclass
class Node:
    name: str
    doc: Doc
    where: Where
    labels: dict = field(default_factory=dict)  # key → Label (only LABELS that are present)
    resources: dict = field(default_factory=dict)  # advertised GPU resource → count as written
    kubelet_version: Label | None = None
    os_image: Label | None = None  # status.nodeInfo.osImage, e.g. "Red Hat Enterprise Linux 8.10 (Ootpa)"

    def label(self, key: str) -> str | None:
        lab = self.labels.get(key)
        return lab.value if lab else None


_LABEL_PREFIXES = ("nvidia.com/", "feature.node.kubernetes.io/")


def looks_like_labels(data) -> bool:
    """A node's labels on their own: a flat mapping of label keys to texts, some of them NVIDIA's or NFD's."""
    if not isinstance(data, dict) or not data:
        return False
    keys = [k for k in data if isinstance(k, str)]
    return (len(keys) == len(data) and all(isinstance(v, (str, int, bool)) or v is None for v in data.values())
            and any(k.startswith(_LABEL_PREFIXES) for k in keys)
            and sum(1 for k in keys if "/" in k or "." in k) >= len(keys) / 2)


def from_labels(doc: Doc) -> Node:
    """A Node known only by its labels (its name from kubernetes.io/hostname, where present)."""
    data = doc.data
    name = data.get("kubernetes.io/hostname")
    node = Node(name=str(name) if name else "", doc=doc, where=doc.where())
    for key in LABELS:
        if key in data and data[key] is not None:
            node.labels[key] = Label(str(data[key]), doc.where((key,)))
    return node


def read(doc: Doc) -> Node:
    name = doc.get("metadata", "name")
    node = Node(name=str(name) if name is not None else "", doc=doc, where=doc.where(("metadata", "name")))
    labels = doc.get("metadata", "labels")
    if isinstance(labels, dict):
        for key in LABELS:
            if key in labels and labels[key] is not None:
                node.labels[key] = Label(str(labels[key]), doc.where(("metadata", "labels", key)))
    for section in ("capacity", "allocatable"):
        res = doc.get("status", section)
        if isinstance(res, dict):
            for k, v in res.items():
                if isinstance(k, str) and k.startswith("nvidia.com/"):
                    node.resources.setdefault(k, v)
    kv = doc.get("status", "nodeInfo", "kubeletVersion")
    if isinstance(kv, str):
        node.kubelet_version = Label(kv, doc.where(("status", "nodeInfo", "kubeletVersion")))
    os_image = doc.get("status", "nodeInfo", "osImage")
    if isinstance(os_image, str):
        node.os_image = Label(os_image, doc.where(("status", "nodeInfo", "osImage")))
    return node
