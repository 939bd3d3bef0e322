"""A Helm chart against the releases of its component and the requirements that cite it.

The chart's version is a release of the component (CHARTS maps chart names to catalog components): newer
than the catalog's newest is drift; a pre-release ("0.5.0-dev" on a main branch, "-rc.1") is noted, never
drift. Its `kubeVersion` is a Kubernetes minimum: compared like the DRA prerequisites, where a catalog
requirement (or a disputing claim) cites the chart.
"""

from __future__ import annotations

from kb.drift.comparisons import dra
from kb.drift.compare import Change
from kb.text import Text
from kb.versions import key as version_key

#: chart name → catalog component (catalog/releases/<component>.yaml)
CHARTS = {"dra-driver-nvidia-gpu": "dra-driver", "nvidia-dra-driver-gpu": "dra-driver", "gpu-operator": "gpu-operator"}


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    out = dra.compare(source, {"min_kubernetes": extracted.get("min_kubernetes")}, data) if extracted.get(
        "min_kubernetes") or "kube_version" in extracted else []
    component = CHARTS.get(extracted["name"])
    rfile = data.get("releases", {}).get(component) if component else None
    if not rfile or not rfile.get("releases"):
        return out
    # newest first (lint): by date where the numbering restarted (DRA driver v25.12.0 → 0.4.0), so the first entry
    newest = rfile["releases"][0]["version"]
    version = extracted["version"]
    base = version.split("-", 1)[0]
    known = {version_key(r["version"]) for r in rfile["releases"]}
    if version_key(base) in known or version_key(base) <= version_key(newest):  # the catalog has it (or newer)
        return out
    name = rfile.get("name", component)
    if extracted["prerelease"]:
        out.append(Change(sid, "prerelease", Text(
            f"the {extracted['name']} chart is at the pre-release {version} (not a release; the newest "
            f"{name} in our data: {newest})",
            f"Das Chart {extracted['name']} steht auf der Vorabversion {version} (kein Release; neuestes {name} in "
            f"unseren Daten: {newest})"), touches=[f"releases/{component} releases"], rank="note"))
    else:
        out.append(Change(sid, "release-newer", Text(
            f"the {extracted['name']} chart is at {version}, newer than the newest {name} in our data ({newest})",
            f"Das Chart {extracted['name']} steht auf {version}, neuer als das neueste {name} in unseren Daten ({newest})"),
            touches=[f"releases/{component} releases"]))
    return out
