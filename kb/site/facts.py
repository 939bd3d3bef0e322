"""Turn the citations of catalog facts into the numbered footnotes of a page.

Facts are named as in the guide's markers, ``cards/h200-nvl mig.max_instances`` or
``releases/gpu-operator releases[26.7.0].changes[dra-managed]``, and resolved by `kb.catalog.facts.resolve_ref`.
A reference that does not name a fact with citations raises `FactError`: the build fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.catalog.facts import FactError, citation, resolve_ref
from kb.publication import Publication
from kb.site.md import esc, link_or_text, quote_html, translation_html
from kb.wording import citation_text, shown, title_text


@dataclass
class Footnotes:
    """Numbered citation footnotes of one page. Equal citations share one footnote. Which citations a reader sees
    and how each reads (NVIDIA first, our article only for our own statements, dates and places in the page's
    language) is `kb.wording`'s."""

    data: dict
    lang: str
    repo_url: str | None = None
    prefix: str = "c"
    pub: Publication | None = None  # the page's settings (kb.publication), read once, not per citation
    _labels: dict = field(default_factory=dict)  # citation key -> label
    _cites: dict = field(default_factory=dict)  # label -> citation

    def refs(self, cites: list[dict], entity: str, path: str) -> str:
        """Footnote references for the shown `cites` of the fact at `entity`/`path`."""
        out = []
        for cite in shown(self.data, cites, path, self.pub.publisher if self.pub is not None else None):
            key = (cite["source"], cite.get("section"), cite["quote"], cite.get("snapshot"), cite.get("page"),
                   bool(cite.get("only_source")))
            label = self._labels.get(key)
            if label is None:
                if cite["source"] not in self.data["sources"]:
                    raise FactError(f"cites unknown source {cite['source']!r}", f"{entity} {path}")
                label = f"{self.prefix}{len(self._labels) + 1}"
                self._labels[key] = label
                self._cites[label] = cite
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
            shown_cite = {**citation(self.data, cite, self.pub), "snapshot": cite.get("snapshot"),
                          "only_source": cite.get("only_source")}
            title = link_or_text(esc(title_text(src["title"], self.lang)), shown_cite["url"])
            foreign = src.get("language") if src.get("language") != self.lang else None
            text = citation_text({**shown_cite, "quote": quote_html(cite["quote"], foreign),
                                  "section": esc(cite["section"]) if cite.get("section") else None,
                                  "translation": translation_html(cite["translation"]) if cite.get("translation") else None},
                                 self.lang, source=src, title=title,
                                 place_markup=lambda place: f'<span class="gpukb-place">{place}</span>')
            lines.append(f"[^{label}]: {text}")
        return "\n".join(lines)
