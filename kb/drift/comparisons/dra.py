"""DRA prerequisites against the methods' requirements (min_kubernetes, min_driver) — the operator-managed
`requirements` and the standalone driver's `standalone_requirements` alike.

The value the catalog attributes to this source is compared: the fact's value where the fact cites it,
else the value of a disputing claim that cites it (sources disagree, e.g. the upstream README's 1.32).
"""

from __future__ import annotations

from kb import versions
from kb.drift.compare import Change, cites, entity_name
from kb.text import Text

WHAT = {"min_kubernetes": Text("Kubernetes", "Kubernetes"), "min_driver": Text("the NVIDIA driver", "den NVIDIA-Treiber")}
#: the requirement blocks of a method (under the GPU Operator, and the standalone driver's own), in words
SETUP = {"requirements": Text(" under the GPU Operator", " unter dem GPU Operator"),
         "standalone_requirements": Text(", installed on its own", ", eigenständig installiert")}
BLOCKS = tuple(SETUP)


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    out = []
    for mid, method in sorted(data.get("methods", {}).items()):
        for block in BLOCKS:
            for key, what in WHAT.items():
                fact = (method.get(block) or {}).get(key)
                if fact:
                    out += _fact(sid, mid, block, key, what, fact, extracted.get(key), entity_name(data, f"methods/{mid}"))
    return out


def _fact(sid: str, mid: str, block: str, key: str, what: Text, fact: dict, theirs: str | None,
          name: Text) -> list[Change]:
    out = []
    for path, item in [((), fact)] + [(("disputed_by", j), c) for j, c in enumerate(fact.get("disputed_by", []))]:
        if not cites(item, sid) or same(item["value"], theirs):
            continue
        ref = f"methods/{mid} {block}.{key}" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        if theirs:
            text = Text("the document now requires {what} {theirs} or later for {name}{setup} (our data: {ours})",
                        "Das Dokument verlangt für {name}{setup} jetzt {what} {theirs} oder neuer (unsere Daten: {ours})")
        else:
            text = Text("the document no longer states a minimum for {what} (our data on {name}{setup}: {ours})",
                        "Das Dokument nennt kein Minimum mehr für {what} (unsere Daten zu {name}{setup}: {ours})")
        patch = [{"entity": f"methods/{mid}", "path": [block, key, "value"], "value": theirs}]
        out.append(Change(sid, "requirement-changed",
                          text.format(what=what, theirs=theirs or "", name=name, setup=SETUP[block], ours=item["value"]),
                          touches=[ref], patch=patch if theirs and not path else []))
    return out


def same(ours: str, theirs: str | None) -> bool:
    """Equal versions, missing parts counting as 0 (the catalog writes "580.0" where a page says "580")."""
    if theirs is None:
        return False
    try:
        return versions.key(ours) == versions.key(theirs)
    except versions.VersionError:
        return ours == theirs
