"""Find a cited fact in the plain catalog data by a reference, and turn its citations into footnotes.

A reference names an entity and a path inside it: ``cards/h200-nvl mig.max_instances``,
``releases/gpu-operator releases[26.7.0].changes[dra-managed]``, ``methods/mig isolation.fault``.
A `[key]` selects the list item whose id (or version, name, key, workload, component, driver) is `key`.
A reference that does not resolve to something with citations raises `FactError`: the build fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.site.labels import L, date
from kb.site.md import esc, link

KINDS = ("cards", "releases", "methods")
_SELECT_KEYS = ("id", "version", "name", "key", "workload", "component", "driver")
# a selector may itself contain "[]" (config keys such as sharing.mps.resources[].replicas)
_SELECTOR = r"\[(?:[^\[\]]|\[\])+\]"
_SEGMENT = re.compile(rf"([A-Za-z_][A-Za-z0-9_]*)((?:{_SELECTOR})*)(?:\.|$)")


class FactError(LookupError):
    """A reference that names no cited fact of the catalog."""


def parse_path(path: str) -> list[str]:
    """'releases[26.7.0].changes[x]' → ['releases', '[26.7.0]', 'changes', '[x]']."""
    parts: list[str] = []
    pos = 0
    while pos < len(path):
        m = _SEGMENT.match(path, pos)
        if not m or m.end() == pos:
            raise FactError(f"cannot read path {path!r} at {path[pos:]!r}")
        parts.append(m.group(1))
        parts += re.findall(_SELECTOR, m.group(2))
        pos = m.end()
    if not parts or path.endswith("."):
        raise FactError(f"cannot read path {path!r}")
    return parts


def resolve(data: dict, entity: str, path: str) -> dict:
    """The object at `path` inside `entity` ('cards/h200-nvl'); it must carry citations (`cite`)."""
    kind, _, ident = entity.partition("/")
    if kind not in KINDS:
        raise FactError(f"unknown entity kind {kind!r} in {entity!r} (use one of {', '.join(KINDS)})")
    node = data[kind].get(ident)
    if node is None:
        raise FactError(f"no {kind[:-1]} {ident!r} in the catalog ({entity})")
    for part in parse_path(path):
        if part.startswith("["):
            key = part[1:-1]
            if not isinstance(node, list):
                raise FactError(f"{entity} {path}: {part} selects from something that is not a list")
            hits = [item for item in node if isinstance(item, dict) and any(str(item.get(k)) == key for k in _SELECT_KEYS)]
            if len(hits) != 1:
                raise FactError(f"{entity} {path}: {len(hits)} items match {part}")
            node = hits[0]
        else:
            if not isinstance(node, dict) or part not in node:
                raise FactError(f"{entity} {path}: no field {part!r}")
            node = node[part]
    if not isinstance(node, dict) or not node.get("cite"):
        raise FactError(f"{entity} {path}: not a cited fact")
    return node


@dataclass
class Footnotes:
    """Numbered citation footnotes of one page. Equal citations share one footnote."""

    data: dict
    lang: str
    repo_url: str
    prefix: str = "c"
    _labels: dict = field(default_factory=dict)  # citation key -> label
    _where: dict = field(default_factory=dict)  # label -> [(file, path)]
    _cites: dict = field(default_factory=dict)  # label -> citation

    def refs(self, cites: list[dict], entity: str, path: str) -> str:
        """Footnote references for `cites` of the fact at `entity`/`path`."""
        out = []
        for cite in cites:
            key = (cite["source"], cite.get("section"), cite["quote"], cite.get("snapshot"))
            label = self._labels.get(key)
            if label is None:
                if cite["source"] not in self.data["sources"]:
                    raise FactError(f"{entity} {path}: cites unknown source {cite['source']!r}")
                label = f"{self.prefix}{len(self._labels) + 1}"
                self._labels[key] = label
                self._cites[label] = cite
                self._where[label] = []
            where = (entity, path)
            if where not in self._where[label]:
                self._where[label].append(where)
            if f"[^{label}]" not in out:
                out.append(f"[^{label}]")
        return "".join(out)

    def fact_refs(self, entity: str, path: str) -> tuple[dict, str]:
        """Resolve a fact and return it with its footnote references."""
        node = resolve(self.data, entity, path)
        return node, self.refs(node["cite"], entity, path)

    def render(self) -> str:
        """The footnote definitions, in order of first use ('' when there are none)."""
        lines = []
        for label, cite in self._cites.items():
            src = self.data["sources"][cite["source"]]
            text = link(esc(src["title"]), src["url"])
            if cite.get("section"):
                text += f", {esc(cite['section'])}"
            text += f": „{esc(cite['quote'])}“" if self.lang == "de" else f": “{esc(cite['quote'])}”"
            dates = []
            if cite.get("snapshot"):
                dates.append(f"{L('doc_date', self.lang)} {date(cite['snapshot'], self.lang)}")
            elif src.get("document_date"):
                dates.append(f"{L('doc_date', self.lang)} {date(src['document_date'], self.lang)}")
            dates.append(f"{L('retrieved', self.lang)} {date(src['retrieved'], self.lang)}")
            text += f" ({', '.join(dates)})"
            text += f". {L('catalog', self.lang)}: {self._fact_links(self._where[label])}"
            lines.append(f"[^{label}]: {text}")
        return "\n".join(lines)

    def _fact_links(self, where: list[tuple[str, str]]) -> str:
        """'cards/l4.yaml › `a`, `b`; methods/mig.yaml › `c`', each file linked to the repository."""
        by_file: dict[str, list[str]] = {}
        for entity, path in where:
            by_file.setdefault(self.data["files"][entity], []).append(f"`{path}`")
        return "; ".join(
            link(esc(file), f"{self.repo_url}/blob/main/catalog/{file}") + " › " + ", ".join(paths)
            for file, paths in by_file.items()
        )
