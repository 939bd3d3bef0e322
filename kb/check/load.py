"""From input texts to documents: each text is recognised (YAML/JSON, a Helm template, nvidia-smi output, a
label list) and parsed, or refused with its reason — one text never stops the others."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.check.documents import Doc, InputProblem, parse_text
from kb.check.inputs import Input, Inputs
from kb.text import Text

#: Helm template actions: `{{ .Values.x }}`, `{{- if … }}`, `{{ include "…" . }}`, `{{ toYaml … }}` …
_HELM = re.compile(r"\{\{-?\s*(?:if\b|else\b|end\b|range\b|with\b|define\b|include\b|template\b|tpl\b|toYaml\b|"
                   r"\.Values\b|\.Release\b|\.Chart\b|\.Capabilities\b|\.Files\b|\$|/\*|-?\s*\}\})")


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

    @property
    def nothing(self) -> bool:
        return not self.docs and not self.extras


def load_text(item: Input, out: Loaded) -> None:
    line = helm_template(item.text)
    if line is not None:
        out.problems.append(InputProblem(item.name, line, "", Text(
            "not read: a Helm template — render it with `helm template` first and check the output",
            "nicht gelesen: eine Helm-Vorlage — erst mit `helm template` rendern und die Ausgabe prüfen"), "refused"))
        return
    docs, problems = parse_text(item.text, item.name)
    out.problems += problems
    if not docs and not problems:
        out.problems.append(InputProblem(item.name, None, "", Text(
            "no YAML or JSON document in this file", "kein YAML- oder JSON-Dokument in dieser Datei"), "refused"))
    out.docs += docs
    if docs:
        out.read.append(item.name)


def load(inputs: Inputs) -> Loaded:
    out = Loaded(problems=list(inputs.problems))
    for item in inputs.texts:
        load_text(item, out)
    rank = {name: i for i, name in enumerate(inputs.names)}
    out.problems.sort(key=lambda p: rank.get(p.file, len(rank)))  # in the order the inputs were given
    return out
