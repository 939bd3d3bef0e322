"""What the GPU Operator's must-gather bundle holds beyond YAML (NVIDIA/gpu-operator hack/must-gather.sh, read at
commit a22dbf67): `gpu_nodes.labels` — for each node with an NVIDIA PCI device its name, then one `- key=value`
line per label (written by `kubectl get node -ojsonpath={.metadata.labels}` piped through sed and tr, which also
turns every ':' into '='), and `version` — "NVIDIA GPU Operator" and the operator's version. The YAML files of
the bundle (cluster_policy.yaml, gpu_operand_ds.yaml, gpu_operand_pods.yaml, gpu_operator_pod.yaml, …) are read
as YAML; nvidia-smi output in gpu_device_usage_<node>.log by kb.check.readers.smi.
"""

from __future__ import annotations

import re

from kb.check.documents import Doc, Where
from kb.check.readers.node import LABELS, Label, Node

_LABEL = re.compile(r"^- ([A-Za-z0-9][\w./-]*)=(.*)$")


def looks_like_labels_file(text: str, name: str) -> bool:
    return name.endswith(".labels") or bool(re.search(r"^[\w.-]+\n- [\w./-]+=", text, re.M))


def read_labels(text: str, file: str) -> list[Node]:
    """The nodes of a gpu_nodes.labels file, with the labels gpukb reads."""
    nodes: list[Node] = []
    current: Node | None = None
    doc = Doc(file, 1, {}, line_offset=None)
    for n, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip()
        if not line:
            continue
        m = _LABEL.match(line)
        if m is None:
            current = Node(name=line.strip(), doc=doc, where=_at(file, n))
            nodes.append(current)
            continue
        if current is None:
            current = Node(name="", doc=doc, where=_at(file, n))
            nodes.append(current)
        key, value = m.group(1), m.group(2)
        if key in LABELS:
            current.labels[key] = Label(value, _at(file, n))
    return nodes


def operator_version(text: str) -> str | None:
    """The version in must-gather's `version` file ("NVIDIA GPU Operator" / "v25.3.0"), where it is one."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(lines) >= 2 and lines[0] == "NVIDIA GPU Operator" and re.match(r"^v?\d+\.\d+(\.\d+)?$", lines[1]):
        return lines[1].lstrip("v")
    return None


def _at(file: str, line: int) -> Where:
    return Where(None, fixed={"file": file, "document": 1, "path": "", "line": line})
