"""DRA prerequisites against the methods' requirements (min_kubernetes, min_driver).

The value the catalog attributes to this source is compared: the fact's value where the fact cites it,
else the value of a disputing claim that cites it (sources disagree, e.g. the upstream README's 1.32).
"""

from __future__ import annotations

from kb import versions
from kb.drift.compare import Change, cites
from kb.text import Text

WHAT = {"min_kubernetes": ("Kubernetes", "Kubernetes"), "min_driver": ("the NVIDIA driver", "den NVIDIA-Treiber")}


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    out = []
    for mid, method in sorted(data.get("methods", {}).items()):
        for key, (en, de) in WHAT.items():
            fact = (method.get("requirements") or {}).get(key)
            if not fact:
                continue
            theirs = extracted.get(key)
            for path, item in [((), fact)] + [(("disputed_by", j), c) for j, c in enumerate(fact.get("disputed_by", []))]:
                if not cites(item, sid) or same(item["value"], theirs):
                    continue
                ref = f"methods/{mid} requirements.{key}" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
                if theirs:
                    text = Text(f"{sid} now requires {en} {theirs} or later for {mid} (catalog: {item['value']})",
                               f"{sid} verlangt für {mid} jetzt {de} {theirs} oder neuer (Katalog: {item['value']})")
                else:
                    text = Text(f"{sid} no longer states a minimum for {en} (catalog, {mid}: {item['value']})",
                               f"{sid} nennt kein Minimum mehr für {de} (Katalog, {mid}: {item['value']})")
                patch = [{"entity": f"methods/{mid}", "path": ["requirements", key, "value"], "value": theirs}]
                out.append(Change(sid, "requirement-changed", text, touches=[ref],
                                  patch=patch if theirs and not path else []))
    return out


def same(ours: str, theirs: str | None) -> bool:
    """Equal versions, missing parts counting as 0 (the catalog writes "580.0" where a page says "580")."""
    if theirs is None:
        return False
    try:
        return versions.key(ours) == versions.key(theirs)
    except versions.VersionError:
        return ours == theirs
