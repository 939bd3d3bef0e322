"""From input texts to documents: each text is recognised (YAML/JSON, a Helm template, nvidia-smi output, a
label list) and parsed, or refused with its reason — one text never stops the others."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.check.documents import Doc, InputProblem, parse_text
from kb.check.inputs import Input, Inputs
from kb.text import Text

#: Helm template actions: `{{ .Values.x }}`, `{{- if … }}`, `{{ include "…" . }}`, `{{ toYaml … }}` … — also as a
#: YAML formatter leaves them (`{ { .Chart.Name } }`), which YAML would otherwise read as nested flow mappings
_HELM = re.compile(r"\{\s?\{-?[^}\n]*?(?:\$?\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|\binclude\s+\"|"
                   r"\btoYaml\b|\btpl\s|\bdefine\s+\"|\btemplate\s+\"|\bnindent\b|\bindent\s+\d)")


def helm_template(text: str) -> int | None:
    """The line of the first Helm template action, or None where the text holds none."""
    m = _HELM.search(text)
    return text[: m.start()].count("\n") + 1 if m else None


@dataclass
class Loaded:
    """The documents read, the other things read (nvidia-smi reports, label lists), and every refusal."""

    docs: list[Doc] = field(default_factory=list)
    extras: list = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)
    read: list[str] = field(default_factory=list)  # names of the inputs that gave something
    substituted: list[dict] = field(default_factory=list)  # Flux substitutions made: {file, line, variable, value, default}
    notes: list[dict] = field(default_factory=list)  # what Kustomize did: {file, text}
    builds: list = field(default_factory=list)  # (root folder or None, docs) per `kustomize build`; [] = one, all docs
    operator_version: str | None = None  # the GPU Operator's version where the input states it (must-gather)
    operator_unknown: str | None = None  # that version, where the catalog does not know it
    generated: dict = field(default_factory=dict)  # ConfigMaps kustomize generates with a name hash: name → generated

    @property
    def nothing(self) -> bool:
        return not self.docs and not self.extras


def load_text(item: Input, out: Loaded, variables: dict | None = None) -> None:
    if "${" in item.text:
        text, done = substitute(item.text, variables or {})
        if done:
            item = Input(item.name, text, item.path, item.folder, item.must_gather)
            out.substituted += [{"file": item.name, **d} for d in done]
    from kb.check.inputs import looks_like_smi
    from kb.check.readers import mustgather

    if item.must_gather and item.name.endswith("/version") or item.name == "version":
        version = mustgather.operator_version(item.text)
        if version:
            out.operator_version = version
            out.read.append(item.name)
            return
    if mustgather.looks_like_labels_file(item.text, item.name) and not item.text.lstrip().startswith(("{", "[", "apiVersion")):
        nodes = mustgather.read_labels(item.text, item.name)
        if nodes:
            out.extras += nodes
            out.read.append(item.name)
            return
    if looks_like_smi(item.text):
        from kb.check.readers import smi

        nodes = smi.to_nodes(smi.parse(item.text, item.name))
        if nodes:
            out.extras += nodes
            out.read.append(item.name)
            return
    line = helm_template(item.text)
    if line is not None:
        out.problems.append(InputProblem(item.name, line, "", Text(
            "not read: a Helm template — render it with `helm template` first and check the output",
            "nicht gelesen: eine Helm-Vorlage — erst mit `helm template` rendern und die Ausgabe prüfen"), "refused"))
        return
    docs, problems = parse_text(item.text, item.name)
    if not any(isinstance(d.data, (dict, list)) for d in docs):
        from kb.check.readers import shell

        # manifests a script applies from here-documents (not a README's examples: documentation is not state)
        embedded = None if item.name.lower().endswith((".md", ".rst", ".adoc")) else shell.manifest_text(item.text)
        applied = [d for d in parse_text(embedded, item.name)[0] if isinstance(d.data, dict)] if embedded else []
        if shell.looks_like_commands(item.text) or applied:  # a setup script or pasted kubectl/helm commands
            patches, nodes = shell.read(item.text, item.name) if shell.looks_like_commands(item.text) else ([], [])
            release = shell.helm_release(item.text)
            if release and out.operator_version is None:
                out.operator_version = release
            if patches or nodes or release or applied:
                out.docs += applied + patches
                out.extras += nodes
                out.read.append(item.name)
                return
    out.problems += problems
    if not docs and not problems:
        out.problems.append(InputProblem(item.name, None, "", Text(
            "no YAML or JSON document in this file", "kein YAML- oder JSON-Dokument in dieser Datei"), "refused"))
    out.docs += docs
    if docs:
        out.read.append(item.name)


def _kustomize(out: Loaded, inputs: Inputs, variables: dict) -> None:
    """Build the Kustomizations of the input (kb.check.kustomize): one build per root. Files are parsed afresh for
    each build (from the text already read, or read with the same bounds and refusals as the input)."""
    import os

    from kb.check import kustomize
    from kb.check.inputs import _read_file, decode

    if not any(kustomize.is_kustomization(d) for d in out.docs):
        return
    texts = {os.path.normpath(t.path or t.name): t for t in inputs.texts}
    seen_subs: set = set()

    def parse(path: str):
        item = texts.get(os.path.normpath(path))
        if item is None:
            raw = _read_file(path)
            text = raw if isinstance(raw, InputProblem) else decode(path, raw)
            if isinstance(text, InputProblem):
                return [], [text]
            item = texts[os.path.normpath(path)] = Input(path, text, path)
        part = Loaded()
        load_text(item, part, variables)
        for sub in part.substituted:
            key = (sub["file"], sub["line"], sub["variable"])
            if key not in seen_subs and not any((d["file"], d["line"], d["variable"]) == key for d in out.substituted):
                seen_subs.add(key)
                out.substituted.append(sub)
        return part.docs, [p for p in part.problems if p.file != item.name or item.name not in out.read]

    result = kustomize.apply(out.docs, parse)
    folders = [t.folder for t in inputs.texts if t.folder]

    def shown(root):
        if root is None:
            return None
        for folder in folders:
            rel = os.path.relpath(root, folder)
            if not rel.startswith(".."):
                return os.path.join(os.path.basename(os.path.normpath(folder)), rel) if rel != "." else folder
        return root

    out.builds = [(shown(b.root), b.docs) for b in result.builds]
    out.docs = [d for b in result.builds for d in b.docs]
    for p in result.problems:
        if p not in out.problems:
            out.problems.append(p)
    out.notes += result.notes
    out.generated.update(result.generated)


def load(inputs: Inputs) -> Loaded:
    out = Loaded(problems=list(inputs.problems))
    variables = flux_variables(inputs.texts)
    for item in inputs.texts:
        load_text(item, out, variables)
    _kustomize(out, inputs, variables)
    rank = {name: i for i, name in enumerate(inputs.names)}
    out.problems.sort(key=lambda p: rank.get(p.file, len(rank)))  # in the order the inputs were given
    return out


#: Flux post-build substitutions (drone/envsubst): ${var}, ${var:=default}, ${var:-default}, ${var=default}, ${var-default}
_SUBST = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[=-])([^}]*))?\}")


def flux_variables(texts: list[Input]) -> dict:
    """Variables of Flux Kustomizations in the input (`spec.postBuild.substitute`), by name."""
    out: dict = {}
    for item in texts:
        if "postBuild" not in item.text:
            continue
        docs, _ = parse_text(item.text, item.name)
        for d in docs:
            data = d.data
            if (isinstance(data, dict) and data.get("kind") == "Kustomization"
                    and str(data.get("apiVersion", "")).startswith("kustomize.toolkit.fluxcd.io/")):
                subst = d.get("spec", "postBuild", "substitute")
                if isinstance(subst, dict):
                    out.update({str(k): str(v) for k, v in subst.items() if v is not None})
    return out


def substitute(text: str, variables: dict) -> tuple[str, list[dict]]:
    """The text with Flux's substitutions made as Flux makes them: a variable the input defines takes its
    value, else a written default; a variable with neither stays as written (its value is unknown).
    Returns the new text and what was substituted ({line, variable, value, default})."""
    done: list[dict] = []

    def one(m: re.Match) -> str:
        name, op, default = m.group(1), m.group(2), m.group(3)
        if name in variables:
            value, is_default = variables[name], False
        elif op is not None:
            value, is_default = default, True
        else:
            return m.group(0)
        if "\n" in value:
            return m.group(0)
        done.append({"line": text.count("\n", 0, m.start()) + 1, "variable": name, "value": value,
                     "default": is_default})
        return value

    return _SUBST.sub(one, text), done
