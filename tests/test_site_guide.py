"""The guide covers the seed article: every seed statement that catalog/seed-coverage.yaml backs with cited
catalog facts is footnoted with one of those facts on a guide page, in German and in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.catalog.compiled import load_data
from kb.catalog.facts import resolve_ref
from kb.site.markers import expand
from kb.publication import publication
from kb.site.page import Ctx
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = yamlsafe.safe_load((ROOT / "catalog" / "seed-coverage.yaml").read_text(encoding="utf-8"))
FACT_REF = re.compile(r"^(cards|methods|releases)/")


def _nodes(node) -> list:
    """The node and everything below it."""
    out = [node]
    if isinstance(node, dict):
        for value in node.values():
            out += _nodes(value)
    elif isinstance(node, list):
        for value in node:
            out += _nodes(value)
    return out


def _cited(node) -> bool:
    return any(isinstance(n, dict) and n.get("cite") for n in _nodes(node))


def cited_by_guide(data: dict, lang: str) -> set[int]:
    """ids of every catalog node a guide page footnotes (markers and tables), and of the nodes below them."""
    seen: list[tuple[str, str]] = []
    for page in sorted((ROOT / "docs").rglob(f"*.{lang}.md")):
        if "generated" in page.parts:
            continue
        ctx = Ctx(data, lang, publication())
        refs = ctx.notes.refs

        def recording(cites, entity, path, refs=refs):
            seen.append((entity, path))
            return refs(cites, entity, path)

        ctx.notes.refs = recording
        expand(page.read_text(encoding="utf-8"), ctx)
    return {id(n) for entity, path in seen for n in _nodes(resolve_ref(data, f"{entity} {path}"))}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_seed_statement_with_cited_facts_is_footnoted_in_the_guide(lang):
    data = load_data()
    cited = cited_by_guide(data, lang)
    assert cited, "the guide cites nothing"
    missing = []
    for entry in COVERAGE:
        refs = [re.sub(r"\s*\(.*\)$", "", r) for r in entry["covered_by"] if FACT_REF.match(r)]
        nodes = [resolve_ref(data, r) for r in refs]
        if not any(_cited(n) for n in nodes):
            continue  # backed by our own prose (summaries, notes), a rule or a source only
        if not any(id(n) in cited for node in nodes for n in _nodes(node)):
            missing.append(f"{entry['seed'][:90]!r} ({', '.join(refs)})")
    assert missing == [], "seed statements the guide does not footnote:\n" + "\n".join(missing)
