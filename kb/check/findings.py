"""Fold the fired conclusions of the `check` rules into located, cited findings and a summary.

A finding is reported where its rule's first fact was written; a rule that names a property in
`then.details.at` is reported where that property stands (e.g. a node's label) when it is known.
"""

from __future__ import annotations

from kb.check.facts import FactSet
from kb.check.readers import REASONS, Inventory

SEVERITIES = ("error", "warning", "info")


def fold(conclusions: list[dict], facts: FactSet, lang: str) -> list[dict]:
    """One finding per distinct (rule, place, message)."""
    out: list[dict] = []
    seen: set = set()
    for c in conclusions:
        subject = c["facts"][0] if c["facts"] else {}
        where = facts.location(subject, (c.get("details") or {}).get("at"))
        where = {"file": where.get("file", ""), "document": where.get("document", 0),
                 "path": where.get("path", ""), "line": where.get("line")}
        message = c["text"][lang]
        key = (c["rule"], where["file"], where["document"], where["path"], message)
        if key in seen:
            continue
        seen.add(key)
        out.append({"rule": c["rule"], "severity": c["severity"], "title": c["title"][lang],
                    "message": message, "where": where, "citations": c["cites"]})
    return out


def order(findings: list[dict], files: list[str]) -> list[dict]:
    """By input file (in the order given), most severe first, then document, line and rule."""
    rank = {f: i for i, f in enumerate(files)}
    return sorted(findings, key=lambda f: (rank.get(f["where"]["file"], len(rank)), SEVERITIES.index(f["severity"]),
                                           f["where"]["document"], f["where"]["line"] or 0, f["rule"],
                                           f["where"]["path"], f["message"]))


def summary(findings: list[dict], inv: Inventory, files: list[str], documents: int, inputs: dict,
            data_version: str, lang: str) -> dict:
    counts = {s: sum(1 for f in findings if f["severity"] == s) for s in SEVERITIES}
    checked = {"ClusterPolicy": len(inv.policies), "GPUCluster": len(inv.gpu_clusters),
               "device-plugin config": len(inv.dp_configs), "MIG Manager config": len(inv.mig_configs),
               "Node": len(inv.nodes), "workload": len(inv.workloads)}
    return {
        "files": files,
        "documents": documents,
        "checked": {k: v for k, v in checked.items() if v},
        "ignored": [{"kind": i.kind, "name": i.name, "file": i.where.get("file"), "document": i.where.get("document"),
                     "line": i.where.get("line"), "reason": REASONS[i.reason][lang]} for i in inv.ignored],
        "errors": counts["error"], "warnings": counts["warning"], "infos": counts["info"],
        "inputs": inputs,
        "data_version": data_version,
    }
