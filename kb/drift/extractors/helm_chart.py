"""A Helm chart's Chart.yaml (e.g. kubernetes-sigs/dra-driver-nvidia-gpu `deployments/helm/dra-driver-nvidia-gpu/
Chart.yaml`): the chart's name, version and appVersion (a pre-release such as "0.5.0-dev" or "0.4.1-rc.1" marked)
and the lowest Kubernetes version its `kubeVersion` constraint admits (">=1.32.0-0" → "1.32.0")."""

from __future__ import annotations

import re

import yaml

from kb.drift.extractors import ExtractError

ID = "helm-chart"

_LOWEST = re.compile(r">=?\s*v?(\d+\.\d+(?:\.\d+)?)")
_VERSION = re.compile(r"^v?(\d+\.\d+\.\d+)(-[\w.]+)?$")


def extract(text: str) -> dict:
    try:
        chart = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ExtractError(f"not valid YAML: {exc}") from None
    if not isinstance(chart, dict) or "apiVersion" not in chart or "name" not in chart or "version" not in chart:
        raise ExtractError("not a Helm Chart.yaml (apiVersion, name and version needed)")
    m = _VERSION.match(str(chart["version"]))
    if not m:
        raise ExtractError(f"the chart version {chart['version']!r} is not a version")
    out = {"name": str(chart["name"]), "version": m.group(1) + (m.group(2) or ""), "prerelease": bool(m.group(2)),
           "app_version": str(chart.get("appVersion", "")).lstrip("v") or None}
    kube = chart.get("kubeVersion")
    if kube:
        low = _LOWEST.search(str(kube))
        if not low:
            out["unreadable"] = [{"part": "kubeVersion", "error": f"no lowest version in {kube!r}"}]
        else:
            out["min_kubernetes"] = low.group(1)
            out["kube_version"] = str(kube)
    return out
