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


SELECT_KEYS = ("id", "version", "name", "key", "workload", "component", "driver")


def _match_item(items: list, rest: str):
    """The list item(s) whose id/version/name/key/… is the longest prefix of `rest`; returns (items, rest after it)."""
    best, best_len = [], -1
    for item in items:
        if not isinstance(item, dict):
            continue
        for k in SELECT_KEYS:
            v = item.get(k)
            if v is None:
                continue
            v = str(v)
            if rest == v or rest[len(v):len(v) + 1] in {".", "[", "]"} and rest.startswith(v):
                if len(v) > best_len:
                    best, best_len = [item], len(v)
                elif len(v) == best_len and item not in best:
                    best.append(item)
    if not best:
        raise KeyError(f"no item {rest!r}")
    return (best[0] if len(best) == 1 else best), rest[best_len:]


def get_path(node, path: str):
    """Resolve a reference inside one entity: "mig.status", "releases[26.7.0].date", "profiles[0]",
    "limits.no-nccl", "settings.toolkit.enabled" or "config_keys[sharing.mps.resources[].replicas]"
    (list items by index, id, version, name, key, …; several items with one key: the list of them).
    Raises KeyError where nothing matches."""
    import re

    rest = path
    while rest:
        rest = rest[1:] if rest.startswith(".") else rest
        if isinstance(node, list):
            if rest.startswith("["):
                m = re.match(r"\[(\d+)\]", rest)
                if m:
                    node, rest = node[int(m.group(1))], rest[m.end():]
                    continue
                node, tail = _match_item(node, rest[1:])
                if not tail.startswith("]"):
                    raise KeyError(f"unclosed selector in {path!r}")
                rest = tail[1:]
            else:
                node, rest = _match_item(node, rest)
            continue
        m = re.match(r"[^.\[]+", rest)
        if not m or not isinstance(node, dict) or m.group(0) not in node:
            raise KeyError(f"no field {rest!r}")
        node, rest = node[m.group(0)], rest[m.end():]
    return node
