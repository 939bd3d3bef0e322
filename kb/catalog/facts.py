"""Plain catalog data: walk every cited value, and resolve references to facts and their citations.

A reference names an entity and a path inside it: ``cards/h200-nvl#mig.status`` (rules, seed coverage), or
``cards/h200-nvl mig.status`` (the guide's markers). The path walks fields with dots; in a list it picks
items by index (``disputed_by[0]``) or by their id, version, name, key, workload, component or driver —
in brackets (``releases[26.7.0].changes[dra-managed]``, ``config_keys[sharing.mps.resources[].replicas]``)
or after a dot (``limits.no-nccl``, ``settings.toolkit.enabled``: the longest key that fits). Where several
items share the key, the path may end there and names all of them. The engine, the site, the card
renderer, lint and the seed-coverage test all resolve references here; a reference that does not resolve
raises `FactError`, whose message says what is missing and suggests the closest name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Iterator

KINDS = ("cards", "releases", "methods")
SELECT_KEYS = ("id", "version", "name", "key", "workload", "component", "driver")


class FactError(KeyError):
    """A reference that names nothing in the catalog: `reason`, and the reference `ref` where known.
    A KeyError (callers of `get_path` catch that), shown as "ref: reason" without KeyError's quotes.
    `near` = (word, the dict or list searched): the closest name is added to the reason only when it is
    read (the engine's optional cites miss often and never show why)."""

    def __init__(self, reason: str, ref: str | None = None, near: tuple | None = None):
        super().__init__(reason)
        self.ref, self._reason, self._near = ref, reason, near

    @property
    def reason(self) -> str:
        if self._near is not None:
            self._reason, self._near = self._reason + _closest(*self._near), None
        return self._reason

    def __str__(self) -> str:
        return f"{self.ref}: {self.reason}" if self.ref else self.reason


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
    """("mig", "profiles", 2) → "mig.profiles[2]" (a path `get_path` reads back)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _closest(word: str, within) -> str:
    """"; did you mean …?" with the field (`within` a dict) or item key (a list) closest to `word`."""
    import difflib

    names = list(within) if isinstance(within, (dict, Mapping)) else [
        str(item[k]) for item in within if isinstance(item, dict) for k in SELECT_KEYS if k in item]
    close = difflib.get_close_matches(word, names, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _bracket(path: str, pos: int) -> int:
    """Index just after the `]` that closes the `[` at `pos` (selectors may hold brackets: `resources[]`)."""
    depth = 0
    for i in range(pos, len(path)):
        depth += {"[": 1, "]": -1}.get(path[i], 0)
        if depth == 0:
            return i + 1
    raise FactError(f"unclosed [ in {path!r}")


def _select(items: list, key: str, prefix: bool) -> tuple[list, int]:
    """The items whose selector key is `key` (prefix=False), or the longest one `key` starts with, followed
    by '.', '[' or the end (prefix=True); with the length of that key."""
    best, best_len = [], -1
    for item in items:
        if not isinstance(item, dict):
            continue
        for k in SELECT_KEYS:
            v = item.get(k)
            if v is None:
                continue
            v = str(v)
            if v == key or prefix and key.startswith(v) and key[len(v)] in ".[":
                if len(v) > best_len:
                    best, best_len = [item], len(v)
                elif len(v) == best_len and item not in best:
                    best.append(item)
    return best, best_len


def _where(path: str, pos: int) -> str:
    done = path[:pos].rstrip(".")
    return f" in {done!r}" if done else ""


def _item(node: list, path: str, pos: int) -> tuple[object, int]:
    """The item(s) the step at `pos` selects from the list `node`, and where the path goes on."""
    if path[pos] == "[":
        close = _bracket(path, pos)
        key = path[pos + 1:close - 1]
        if key.isdigit():
            if int(key) >= len(node):
                raise FactError(f"no item [{key}]{_where(path, pos)} (it has {len(node)})")
            return node[int(key)], close
        hits, _ = _select(node, key, prefix=False)
        shown, after = f"[{key}]", close
    else:
        key = path[pos:]
        hits, n = _select(node, key, prefix=True)
        shown, after = repr(key[:n] if hits else key), pos + n
    if not hits:
        raise FactError(f"no item {shown}{_where(path, pos)}", near=(key, node))
    if len(hits) == 1:
        return hits[0], after
    if after < len(path):
        raise FactError(f"{len(hits)} items{_where(path, pos)} have the key {shown}: the path cannot go on from them")
    return hits, after


def _field(node: dict, path: str, pos: int) -> tuple[object, int]:
    """The value of the field the step at `pos` names, and where the path goes on."""
    if path[pos] == "[":
        raise FactError(f"{path[pos:_bracket(path, pos)]} selects from {path[:pos]!r}, which is not a list")
    stop = pos
    while stop < len(path) and path[stop] not in ".[]":
        stop += 1
    name = path[pos:stop]
    if not name:
        raise FactError(f"cannot read {path!r} at {path[pos:]!r}")
    if name not in node:
        raise FactError(f"no field {name!r}{_where(path, pos)}", near=(name, node))
    return node[name], stop


def get_path(entity, path: str):
    """The node at `path` inside one entity (see the module docstring). Items that share the key the path
    ends with are returned as a list of them. Raises FactError where nothing matches."""
    node, pos = entity, 0
    while pos < len(path):
        if isinstance(node, list):
            node, pos = _item(node, path, pos)
        elif isinstance(node, (dict, Mapping)):  # a Mapping: a release file or method read lazily (kb.catalog.compiled)
            node, pos = _field(node, path, pos)
        else:
            raise FactError(f"{path[:pos].rstrip('.')!r} is a single value: nothing to select with {path[pos:]!r}")
        if path[pos:pos + 1] == "." and path[pos + 1:pos + 2] not in ("", ".", "[", "]"):
            pos += 1
        elif path[pos:pos + 1] not in ("", "["):
            raise FactError(f"cannot read {path!r} at {path[pos:]!r}")
    return node


def split_ref(ref: str) -> tuple[str, str]:
    """"cards/l4#mig.status" (or the guide's "cards/l4 mig.status") → ("cards/l4", "mig.status")."""
    entity, sep, path = ref.partition("#")
    if not sep:
        entity, _, path = ref.strip().partition(" ")
    return entity.strip(), path.strip()


def resolve_ref(data: dict, ref: str):
    """The node a reference names in the plain catalog data (`kb.catalog.compiled.load_data()`).
    Raises FactError with the reference and what is wrong with it."""
    entity, path = split_ref(ref)
    kind, _, ident = entity.partition("/")
    if kind not in KINDS:
        raise FactError(f"unknown entity kind {kind!r} (use one of {', '.join(KINDS)})", ref)
    if ident not in data[kind]:
        raise FactError(f"no {kind[:-1]} {ident!r} in the catalog", ref, near=(ident, data[kind]))
    try:
        return get_path(data[kind][ident], path)
    except FactError as exc:
        exc.ref = ref
        raise


def citation(data: dict, cite: dict, pub=None) -> dict:
    """A citation as written in the catalog ({source, section?, quote, snapshot?}) with its source's title
    and URL: {source, title, url, section, quote} (section None where the citation gives none). `pub`: the
    kb.publication settings where the caller has them."""
    from kb.publication import source_url

    source = data["sources"].get(cite["source"], {})
    url = source_url(source, pub)
    if url and cite.get("page"):
        url = url.rstrip("/") + "/" + cite["page"]
    return {"source": cite["source"], "title": source.get("title", cite["source"]), "url": url,
            "section": cite.get("section"), "quote": cite["quote"],
            **({"translation": cite["translation"]} if cite.get("translation") else {})}


def citations(data: dict, node, path: str = "") -> list[dict]:
    """The citations a reader sees for a resolved node — a fact, or a list of facts (profiles, config keys, …) —
    each once, NVIDIA's first, our own article only for our own statements or as the only source
    (`kb.wording.shown`; `path` is the node's field path); [] where the node carries none."""
    from kb.publication import publication
    from kb.wording import shown as shown_cites

    pub = publication(resolve_ref=False)
    out: list[dict] = []
    for item in node if isinstance(node, list) else [node]:
        if isinstance(item, dict):
            for cite in shown_cites(data, item.get("cite", ()), path, pub.publisher):
                shown = citation(data, cite, pub)
                if cite.get("only_source"):
                    shown["only_source"] = True
                if shown not in out:
                    out.append(shown)
    return out
