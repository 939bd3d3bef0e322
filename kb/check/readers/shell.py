"""kubectl commands pasted into a ticket or kept in a setup script, read for what they change.

NVIDIA's own guides configure the GPU Operator this way: `kubectl patch clusterpolicies.nvidia.com/cluster-policy
--type merge -p '{"spec": {"devicePlugin": {"config": {"name": …, "default": …}}}}'` and `kubectl label node <n>
nvidia.com/device-plugin.config=<key>`. A patch becomes a partial ClusterPolicy (what it leaves out is unknown),
a label command a node known by that label only. Continued lines (`\\` at the end) are joined first; the line
reported is the command's first.
"""

from __future__ import annotations

import json
import re

from kb.check.documents import Doc, Where
from kb.check.readers.node import LABELS, Label, Node

_PATCH = re.compile(r"kubectl\s+(?:-n\s+\S+\s+|--namespace[ =]\S+\s+)?patch\s+(?:clusterpolic(?:y|ies)(?:\.nvidia\.com)?)"
                    r"(?:/|\s+)([\w.-]+)(.*?)(?:-p|--patch)[ =](['\"])(\{.*?\})\3", re.S)
_LABEL = re.compile(r"kubectl\s+label\s+(?:--overwrite\s+)?(?:nodes?/|nodes?\s+)([\w.-]+)((?:\s+[\w./-]+=[\w.-]*|\s+--overwrite)+)")
_PAIR = re.compile(r"([\w./-]+)=([\w.-]*)")


def _joined(text: str) -> tuple[str, list[int]]:
    """The text with line continuations joined, and for each character the 1-based line it came from."""
    out, lines, line = [], [], 1
    i = 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1:i + 2] == "\n":
            i += 2
            line += 1
            continue
        out.append(text[i])
        lines.append(line)
        if text[i] == "\n":
            line += 1
        i += 1
    return "".join(out), lines


def looks_like_commands(text: str) -> bool:
    return "kubectl" in text and ("patch" in text or "label" in text) and bool(
        re.search(r"clusterpolic|nvidia\.com/", text))


def read(text: str, file: str) -> tuple[list[Doc], list[Node]]:
    """Partial ClusterPolicies (as documents) and nodes from the kubectl commands of a text."""
    # commented-out commands are not commands (their continuation lines neither)
    text = re.sub(r"(?m)^[ \t]*#.*$", "", text)
    joined, lines = _joined(text)
    docs: list[Doc] = []
    nodes: dict[str, Node] = {}
    for m in _PATCH.finditer(joined):
        try:
            patch = json.loads(m.group(4))
        except ValueError:
            continue
        if not isinstance(patch, dict):
            continue
        line = lines[m.start()] if m.start() < len(lines) else None
        data = {"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": {"name": m.group(1)}, **patch}
        doc = Doc(file, len(docs) + 1, data, line_offset=None, outer_line=line, prefix=f"kubectl patch (line {line})")
        doc.partial = True
        docs.append(doc)
    for m in _LABEL.finditer(joined):
        line = lines[m.start()] if m.start() < len(lines) else None
        where = Where(None, fixed={"file": file, "document": 1, "path": "", "line": line})
        node = nodes.get(m.group(1)) or Node(name=m.group(1), doc=Doc(file, 1, {}, line_offset=None, outer_line=line),
                                              where=where)
        for key, value in _PAIR.findall(m.group(2)):
            if key in LABELS:
                node.labels[key] = Label(value, where)  # a later command overwrites (--overwrite) an earlier one
        if node.labels:
            nodes[node.name] = node
    return docs, list(nodes.values())
