"""kubectl and helm commands pasted into a ticket or kept in a setup script, read for what they change.

NVIDIA's own guides configure the GPU Operator this way: `kubectl patch clusterpolicies.nvidia.com/cluster-policy
--type merge -p '{"spec": {"devicePlugin": {"config": {"name": …, "default": …}}}}'` and `kubectl label node <n>
nvidia.com/device-plugin.config=<key>`. A patch becomes a partial ClusterPolicy (what it leaves out is unknown),
a label command a node known by that label only. `helm install|upgrade … gpu-operator … --set k=v` (as in NVIDIA's
install guide) gives the chart's values it sets — partial values: what the command leaves out comes from its `-f`
files or the chart — and `--version` the GPU Operator release. Continued lines (`\\` at the end) are joined first;
the line reported is the command's first.
"""

from __future__ import annotations

import json
import re
import shlex

from kb.check.documents import Doc, Where
from kb.check.readers.node import LABELS, Label, Node
from kb.text import Text

_PATCH = re.compile(r"kubectl\s+(?:-n\s+\S+\s+|--namespace[ =]\S+\s+)?patch\s+(?:clusterpolic(?:y|ies)(?:\.nvidia\.com)?)"
                    r"(?:/|\s+)([\w.-]+)(.*?)(?:-p|--patch)[ =](['\"])([{\[].*?[}\]])\3", re.S)
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


_HELM = re.compile(r"(?m)\bhelm\s+(?:install|upgrade)\b[^\n]*")
_TRUE_FALSE = {"true": True, "false": False}


def looks_like_commands(text: str) -> bool:
    return ("kubectl" in text and ("patch" in text or "label" in text) and bool(
        re.search(r"clusterpolic|nvidia\.com/", text))) or bool(_HELM.search(text) and "gpu-operator" in text)


def _set_value(text: str, string: bool):
    """A --set value typed as Helm's strvals types it (--set-string: always text)."""
    if string:
        return text
    if text in _TRUE_FALSE:
        return _TRUE_FALSE[text]
    if text == "null":
        return None
    if re.fullmatch(r"-?[0-9]+", text) and not (len(text) > 1 and text.lstrip("-").startswith("0")):
        return int(text)
    return text


_ASSIGN = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"\n]*\"|'[^'\n]*'|[^\s#;]*)")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def variables(text: str) -> dict:
    """The shell variables a script sets plainly (`NAME=value`, `export NAME=value`); later ones win."""
    return {m.group(1): m.group(2).strip("\"'") for m in _ASSIGN.finditer(text)}


def _expand(command: str, known: dict) -> str:
    """$NAME, ${NAME} and ${NAME:-default} replaced where the script sets them (or a default is written); others
    are left as written — a value holding `$` is then not known and not read."""
    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(3)
        if name in known:
            return known[name]
        return m.group(2) if m.group(2) is not None else m.group(0)

    return _VAR.sub(one, command)


def _helm_command(command: str, known: dict | None = None) -> dict | None:
    """{values, version, namespace, release} of a `helm install|upgrade` of the gpu-operator chart, else None."""
    try:
        words = shlex.split(_expand(command, known or {}), comments=True)
    except ValueError:
        return None
    out: dict = {"values": {}, "version": None, "namespace": None, "release": None, "chart": False}
    positional: list[str] = []
    i = 2
    while i < len(words):
        word = words[i]
        name, eq, inline = word.partition("=")
        takes = name in ("--set", "--set-string", "--version", "-n", "--namespace", "-f", "--values", "--timeout",
                         "--repo", "--kube-context", "--set-file", "--set-json", "--description", "--post-renderer")
        value = inline if eq else (words[i + 1] if takes and i + 1 < len(words) else None)
        if takes and not eq:
            i += 1
        if name in ("--set", "--set-string") and value is not None:
            for pair in value.split(","):
                key, eq2, raw = pair.partition("=")
                if not eq2 or "[" in key or "\\" in key or "$" in raw or "$" in key:
                    continue  # a list index, an escape, or a shell variable the script does not set
                node = out["values"]
                parts = key.split(".")
                for part in parts[:-1]:
                    node = node.setdefault(part, {})
                    if not isinstance(node, dict):
                        break
                else:
                    node[parts[-1]] = _set_value(raw, name == "--set-string")
        elif name == "--version" and value and "$" not in value:
            out["version"] = value
        elif name in ("-n", "--namespace") and value and "$" not in value:
            out["namespace"] = value
        elif not word.startswith("-"):
            positional.append(word)
        i += 1
    out["chart"] = any(p.rstrip("/").rsplit("/", 1)[-1] == "gpu-operator" for p in positional)
    out["release"] = positional[0] if len(positional) > 1 else None
    return out if out["chart"] else None


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1")


def manifest_text(text: str) -> str | None:
    """The manifests a script applies from here-documents (`cat <<EOF | kubectl apply -f -`), as one YAML text whose
    lines are the script's lines (everything else blanked, each here-document its own document); None where the
    script has none."""
    lines = text.split("\n")
    out = [""] * len(lines)
    found = False
    i = 0
    while i < len(lines):
        m = _HEREDOC.search(lines[i])
        if m is None or lines[i].lstrip().startswith("#"):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != m.group(2):
            j += 1
        body = lines[i + 1:j]
        if j < len(lines) and any(b.startswith(("apiVersion:", "kind:")) for b in body):
            out[i] = "---"
            out[i + 1:j] = body
            found = True
        i = j + 1
    return "\n".join(out) if found else None


def _json_patch(ops: list) -> dict:
    """A JSON patch (RFC 6902, `kubectl patch --type json`) as the partial object it writes: `add` and `replace`
    of a path ("/spec/mig/strategy") set that value; other operations (remove, move, test) are not read."""
    out: dict = {}
    for op in ops:
        if not isinstance(op, dict) or op.get("op") not in ("add", "replace") or "value" not in op:
            continue
        parts = [p.replace("~1", "/").replace("~0", "~") for p in str(op.get("path", "")).split("/")[1:]]
        if not parts or any(p.isdigit() or p == "-" for p in parts):
            continue
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                break
        else:
            node[parts[-1]] = op["value"]
    return out


def helm_release(text: str) -> str | None:
    """The GPU Operator release a `helm install|upgrade … gpu-operator --version X` of the text installs."""
    joined, _ = _joined(re.sub(r"(?m)^[ \t]*#.*$", "", text))
    known = variables(joined)
    for m in _HELM.finditer(joined):
        found = _helm_command(m.group(0), known)
        if found and found["version"]:
            return found["version"]
    return None


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
        if isinstance(patch, list):  # --type json: the operations that set a value, as the object they make
            patch = _json_patch(patch)
        if not isinstance(patch, dict) or not patch:
            continue
        line = lines[m.start()] if m.start() < len(lines) else None
        data = {"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": {"name": m.group(1)}, **patch}
        doc = Doc(file, len(docs) + 1, data, line_offset=None, outer_line=line, prefix=f"kubectl patch (line {line})")
        doc.partial = True
        docs.append(doc)
    known = variables(joined)
    for m in _HELM.finditer(joined):
        found = _helm_command(m.group(0), known)
        if not found or not found["values"]:
            continue
        line = lines[m.start()] if m.start() < len(lines) else None
        doc = Doc(file, len(docs) + 1, found["values"], line_offset=None, outer_line=line,
                  prefix=f"helm --set (line {line})")
        doc.partial = True
        doc.helm = (Text("helm command (line {n})", "Helm-Befehl (Zeile {n})").format(n=line), found["namespace"])
        docs.append(doc)
    # a later command overrides an earlier one: the latest is read first (the first policy writing a key wins)
    docs.sort(key=lambda d: -(d.outer_line or 0))
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
