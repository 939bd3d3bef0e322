"""The component matrix against catalog/releases/gpu-operator.yaml, release column by release column.

A release newer than the catalog's newest is drift (named once, the newest of them). For every release of
the matrix the catalog has, each component the catalog lists for that release must have the matrix's
version there (the driver: the one marked D, the default). A release the catalog has but the matrix no
longer shows is not drift: the matrix shows the current minor release only. The one-release form of
before December 2025 (`${version}`) is compared with the catalog's newest release.
"""

from __future__ import annotations

from kb.drift.compare import Change, component_name
from kb.text import Text
from kb.versions import key as version_key


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    rfile = data.get("releases", {}).get("gpu-operator")
    if not rfile:
        return []
    ours = {r["version"]: (i, r) for i, r in enumerate(rfile["releases"])}
    newest = max(ours, key=version_key)
    columns = extracted.get("columns") or {extracted["release"]: extracted["components"]}
    out = []
    newer = sorted((r for r in columns if r and r not in ours and version_key(r) > version_key(newest)),
                   key=version_key)
    if newer:
        shown = ", ".join(newer)
        out.append(Change(sid, "release-newer", Text(
            f"the component matrix describes GPU Operator {shown}, newer than the newest in our data ({newest})",
            f"Die Komponenten-Matrix beschreibt GPU Operator {shown}, neuer als das neueste in unseren Daten ({newest})"),
            touches=["releases/gpu-operator releases"]))
    for release, components in columns.items():
        key = release or newest
        if key in ours:
            out += _release(sid, key, *ours[key], components, data)
    return out


def _release(sid: str, release: str, i: int, rel: dict, components: list[dict], data: dict) -> list[Change]:
    matrix = {c["component"]: c for c in components if c["component"]}
    out = []
    for k, comp in enumerate(rel.get("components", [])):
        theirs = matrix.get(comp["component"])
        if theirs and theirs["version"] != comp["version"]:
            out.append(Change(sid, "component-changed", Text(
                f"the component matrix gives {component_name(data, comp['component'])} {theirs['version']} for "
                f"GPU Operator {release} (our data: {comp['version']})",
                f"Die Komponenten-Matrix nennt {component_name(data, comp['component'])} {theirs['version']} für "
                f"GPU Operator {release} (unsere Daten: {comp['version']})"),
                touches=[f"releases/gpu-operator releases[{i}].components[{k}]"],
                patch=[{"entity": "releases/gpu-operator", "path": ["releases", i, "components", k, "version"],
                        "value": theirs["version"]}]))
    return out
