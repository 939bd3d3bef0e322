"""The component matrix against catalog/releases/gpu-operator.yaml.

The matrix describes one operator release. Newer than the catalog's newest is drift; for a release the
catalog has, every component the catalog lists for it must have the matrix's version (the driver: the
one marked D, the default).
"""

from __future__ import annotations

from kb.drift.compare import Change, say
from kb.models.common import version_key


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    rfile = data.get("releases", {}).get("gpu-operator")
    if not rfile:
        return []
    release = extracted["release"]
    ours = {r["version"]: (i, r) for i, r in enumerate(rfile["releases"])}
    newest = max(ours, key=version_key)
    if release not in ours:
        if version_key(release) > version_key(newest):
            return [Change(sid, "release-newer", say(
                f"the component matrix describes GPU Operator {release}, newer than the catalog's newest ({newest})",
                f"Die Komponenten-Matrix beschreibt GPU Operator {release}, neuer als das neueste im Katalog ({newest})"),
                touches=["releases/gpu-operator releases"])]
        return []
    i, rel = ours[release]
    matrix = {c["component"]: c for c in extracted["components"] if c["component"]}
    out = []
    for k, comp in enumerate(rel.get("components", [])):
        theirs = matrix.get(comp["component"])
        if theirs and theirs["version"] != comp["version"]:
            out.append(Change(sid, "component-changed", say(
                f"the component matrix gives {comp['component']} {theirs['version']} for {release} "
                f"(catalog: {comp['version']})",
                f"Die Komponenten-Matrix nennt {comp['component']} {theirs['version']} für {release} "
                f"(Katalog: {comp['version']})"),
                touches=[f"releases/gpu-operator releases[{i}].components[{k}]"],
                patch=[{"entity": "releases/gpu-operator", "path": ["releases", i, "components", k, "version"],
                        "value": theirs["version"]}]))
    return out
