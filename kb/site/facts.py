"""Turn the citations of catalog facts into the numbered footnotes of a page.

Facts are named as in the guide's markers, ``cards/h200-nvl mig.max_instances`` or
``releases/gpu-operator releases[26.7.0].changes[dra-managed]``, and resolved by `kb.catalog.facts.resolve_ref`.
A reference that does not name a fact with citations raises `FactError`: the build fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.catalog.facts import FactError, resolve_ref
from kb.site.labels import L, date
from kb.site.md import esc, link


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
                    raise FactError(f"cites unknown source {cite['source']!r}", f"{entity} {path}")
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
        """Resolve a fact (it must carry citations) and return it with its footnote references."""
        ref = f"{entity} {path}"
        node = resolve_ref(self.data, ref)
        if not isinstance(node, dict) or not node.get("cite"):
            raise FactError("not a cited fact", ref)
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
