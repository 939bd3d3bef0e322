"""Walk plain catalog data: every cited value with its field path (for `gpukb card`, the site and lint)."""

from __future__ import annotations

from typing import Iterator


def iter_facts(node, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """Yield (path, fact) for every cited item: facts ({value, cite}), statements ({text, cite}),
    profiles and other objects with their own `cite`. `fact["value"]` is always set."""
    if isinstance(node, dict):
        if "cite" in node:
            if "value" in node:
                yield path, node
            else:
                value = node.get("text") if "text" in node else {k: v for k, v in node.items() if k != "cite"}
                yield path, {**node, "value": value}
            for key, child in node.items():
                if key not in {"cite", "value", "disputed_by"}:
                    yield from iter_facts(child, path + (key,))
            return
        for key, child in node.items():
            yield from iter_facts(child, path + (key,))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from iter_facts(child, path + (i,))


def fact_ref(path: tuple) -> str:
    """("mig", "profiles", 2) → "mig.profiles[2]"; statements with an id use it: "limits.no-nccl"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def get_path(node, path: str):
    """Resolve a fact reference inside one entity: "mig.status", "limits.no-nccl" (by id) or "profiles[0]"."""
    import re

    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            node = node[int(part[1:-1])]
        elif isinstance(node, list):
            matches = [item for item in node if isinstance(item, dict) and part in (item.get("id"), item.get("key"), item.get("name"), item.get("component"), item.get("version"))]
            if not matches:
                raise KeyError(part)
            node = matches[0]
        else:
            node = node[part]
    return node
