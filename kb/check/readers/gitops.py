"""Helm values inside GitOps objects: Flux `HelmRelease`, Argo CD `Application`, the k3s/RKE2 `HelmChart`.

Each carries the values a chart is installed with; which chart decides how they are read:
- `gpu-operator` (NVIDIA's GPU Operator chart): kb.check.readers.helmvalues — a ClusterPolicy and the
  ConfigMaps the chart creates;
- `nvidia-device-plugin` (the standalone device-plugin chart): kb.check.readers.dpchart;
- an umbrella chart whose values nest the operator's under `gpu-operator:` (or the plugin's under
  `nvidia-device-plugin:`): the nested values, as the subchart receives them.
Any other chart is ignored ("kind not checked" would be wrong: the object is read, its chart is not ours).

Where the values come from:
- Flux HelmRelease (helm.toolkit.fluxcd.io): `spec.values`, merged over `spec.valuesFrom` ConfigMaps that are in
  the input (their `valuesKey`, default `values.yaml`); the chart is `spec.chart.spec.chart` (or the name of
  `spec.chartRef`); the namespace is `spec.targetNamespace`, else the object's.
- Argo CD Application (argoproj.io): `spec.source` or each of `spec.sources`: `helm.valuesObject` (a mapping),
  `helm.values` (YAML text), then `helm.parameters` ({name: dotted.path, value}) on top; the chart is
  `source.chart`; the namespace `spec.destination.namespace`.
- HelmChart (helm.cattle.io): `spec.valuesContent` (YAML text), `spec.set` on top; `spec.chart`,
  `spec.targetNamespace`.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.check.documents import Doc, parse_embedded
from kb.text import Text

#: chart name → reader id
CHARTS = {"gpu-operator": "operator", "nvidia-device-plugin": "device-plugin"}
#: umbrella values: the key a parent chart nests a subchart's values under → reader id
SUBCHART_KEYS = {"gpu-operator": "operator", "nvidia-device-plugin": "device-plugin"}


@dataclass
class Values:
    """Chart values found in a GitOps object (or nested in an umbrella chart's values)."""

    doc: Doc  # the values as a document (located in the file)
    chart: str  # reader id: operator | device-plugin
    source: Text  # what carries them, in words ("HelmRelease flux-system/gpu-operator")
    namespace: str | None
    release: str | None = None


def _group(api_version) -> str:
    return api_version.split("/", 1)[0] if isinstance(api_version, str) else ""


def is_gitops(doc: Doc) -> bool:
    data = doc.data
    return (isinstance(data, dict) and (
        (data.get("kind") == "HelmRelease" and _group(data.get("apiVersion")) == "helm.toolkit.fluxcd.io")
        or (data.get("kind") in ("Application", "ApplicationSet") and _group(data.get("apiVersion")) == "argoproj.io")
        or (data.get("kind") == "HelmChart" and _group(data.get("apiVersion")) == "helm.cattle.io")))


def _chart_id(name) -> str | None:
    if not isinstance(name, str):
        return None
    short = name.rsplit("/", 1)[-1].split(":", 1)[0]
    return CHARTS.get(short)


def _set_dotted(data: dict, dotted: str, value) -> None:
    """Helm's --set path (a.b.c, escaped dots `a\\.b`) into a values mapping."""
    parts, cur = [], ""
    i = 0
    while i < len(dotted):
        c = dotted[i]
        if c == "\\" and i + 1 < len(dotted):
            cur += dotted[i + 1]
            i += 2
            continue
        if c == ".":
            parts.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    parts.append(cur)
    node = data
    for p in parts[:-1]:
        if not isinstance(node.get(p), dict):
            node[p] = {}
        node = node[p]
    node[parts[-1]] = value


def _typed(value):
    """A --set / parameters value as Helm reads it: true/false, integers, else text."""
    if not isinstance(value, str):
        return value
    if value in ("true", "false"):
        return value == "true"
    try:
        return int(value)
    except ValueError:
        return value


def merge(base, over):
    """Helm's values merge: mappings merged key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v) if k in base else v
        return out
    return over


def _with_overrides(doc: Doc, overrides: list[tuple[str, object]]) -> Doc:
    """The values with `--set`-style overrides applied (in place: what they leave alone keeps its line; what they
    set is located at the nearest parent that was written)."""
    if overrides and isinstance(doc.data, dict):
        for dotted, value in overrides:
            _set_dotted(doc.data, dotted, _typed(value))
    return doc


def _nested(values: Values) -> list[Values]:
    """Umbrella values: the subchart values under `gpu-operator:` / `nvidia-device-plugin:`."""
    out = []
    if isinstance(values.doc.data, dict):
        for key, chart in SUBCHART_KEYS.items():
            if isinstance(values.doc.data.get(key), dict):
                out.append(Values(values.doc.sub((key,)), chart, values.source + Text(", values under {k}:",
                                  ", Werte unter {k}:").format(k=key), values.namespace, values.release))
    return out


def read(doc: Doc, configmaps: dict) -> list[Values]:
    """The chart values of one GitOps object (nothing where its chart is neither NVIDIA chart nor an umbrella
    of one). `configmaps`: name → Doc of the ConfigMaps in the input (Flux valuesFrom)."""
    data = doc.data
    kind = data.get("kind")
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name, ns = str(meta.get("name", "")), meta.get("namespace")
    found: list[Values] = []
    if kind == "HelmRelease":
        spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
        chart = doc.get("spec", "chart", "spec", "chart") or doc.get("spec", "chartRef", "name")
        target = spec.get("targetNamespace") or ns
        source = Text("HelmRelease {n}", "HelmRelease {n}").format(n=f"{ns}/{name}" if ns else name)
        values = doc.sub(("spec", "values")) if isinstance(spec.get("values"), dict) else None
        merged = None
        for ref in spec.get("valuesFrom") or []:
            if isinstance(ref, dict) and ref.get("kind") == "ConfigMap" and ref.get("name") in configmaps:
                cm = configmaps[ref["name"]]
                key = ref.get("valuesKey") or "values.yaml"
                text = cm.get("data", key)
                if isinstance(text, str):
                    inner, _ = parse_embedded(cm, ("data", key), text)
                    if inner is not None and isinstance(inner.data, dict):
                        merged = inner if merged is None else Doc(inner.file, inner.index, merge(merged.data, inner.data))
        if merged is not None:
            values = merged if values is None else Doc(values.file, values.index, merge(merged.data, values.data),
                                                       outer_line=values.line(()), line_offset=None,
                                                       prefix=values.shown(()))
        if values is not None:
            found.append(Values(values, _chart_id(chart) or "", source, target if isinstance(target, str) else None,
                                spec.get("releaseName") or name))
    elif kind in ("Application", "ApplicationSet"):
        spec = doc.get("spec", "template", "spec") if kind == "ApplicationSet" else data.get("spec")
        base = ("spec", "template", "spec") if kind == "ApplicationSet" else ("spec",)
        spec = spec if isinstance(spec, dict) else {}
        target = (spec.get("destination") or {}).get("namespace") if isinstance(spec.get("destination"), dict) else None
        source = Text("Argo CD {k} {n}", "Argo-CD-{k} {n}").format(k=kind, n=name)
        sources = [base + ("source",)] if isinstance(spec.get("source"), dict) else []
        if isinstance(spec.get("sources"), list):
            sources += [base + ("sources", i) for i, s in enumerate(spec["sources"]) if isinstance(s, dict)]
        for path in sources:
            src = doc.get(*path)
            helm = src.get("helm") if isinstance(src.get("helm"), dict) else {}
            values = None
            if isinstance(helm.get("valuesObject"), dict):
                values = doc.sub(path + ("helm", "valuesObject"))
            elif isinstance(helm.get("values"), str):
                values, _ = parse_embedded(doc, path + ("helm", "values"), helm["values"])
            params = [(p["name"], p.get("value")) for p in helm.get("parameters") or []
                      if isinstance(p, dict) and isinstance(p.get("name"), str)]
            if values is None and params:
                values = Doc(doc.file, doc.index, {}, outer_line=doc.line(path + ("helm",)), line_offset=None,
                             prefix=doc.shown(path + ("helm", "parameters")))
            if values is not None:
                found.append(Values(_with_overrides(values, params), _chart_id(src.get("chart")) or "", source,
                                    target if isinstance(target, str) else None, helm.get("releaseName") or name))
    elif kind == "HelmChart":
        spec = data.get("spec") if isinstance(data.get("spec"), dict) else {}
        source = Text("HelmChart {n}", "HelmChart {n}").format(n=f"{ns}/{name}" if ns else name)
        values = None
        if isinstance(spec.get("valuesContent"), str):
            values, _ = parse_embedded(doc, ("spec", "valuesContent"), spec["valuesContent"])
        sets = [(k, v) for k, v in (spec.get("set") or {}).items()] if isinstance(spec.get("set"), dict) else []
        if values is None and sets:
            values = Doc(doc.file, doc.index, {}, outer_line=doc.line(("spec", "set")), line_offset=None,
                         prefix=doc.shown(("spec", "set")))
        if values is not None:
            target = spec.get("targetNamespace")
            found.append(Values(_with_overrides(values, sets), _chart_id(spec.get("chart")) or "", source,
                                target if isinstance(target, str) else None, name))
    out = []
    for v in found:
        if not v.chart and doc.partial:  # a Kustomize patch of a HelmRelease: its chart is in the object patched
            v.chart = _by_content(v.doc.data)
            v.source = v.source + Text(" (a patch)", " (ein Patch)")
        out += [v] if v.chart else _nested(v)
    return out


def names_our_chart(doc: Doc) -> bool:
    """Does the object install one of NVIDIA's two charts (whatever its values)?"""
    candidates = [doc.get("spec", "chart", "spec", "chart"), doc.get("spec", "chartRef", "name"),
                  doc.get("spec", "source", "chart"), doc.get("spec", "chart")]
    sources = doc.get("spec", "sources")
    if isinstance(sources, list):
        candidates += [s.get("chart") for s in sources if isinstance(s, dict)]
    return any(_chart_id(c) for c in candidates)


def _by_content(values) -> str:
    from kb.check.readers import dpchart, helmvalues

    if dpchart.looks_like_values(values):
        return "device-plugin"
    return "operator" if helmvalues.looks_like_values(values) else ""
