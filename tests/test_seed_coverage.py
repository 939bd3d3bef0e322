"""Every statement of the seed article ends up as a cited fact, a rule or a sentence of the guide
(catalog/seed-coverage.yaml), and every reference in that map names something that exists."""

from __future__ import annotations

import re

import pytest
import yaml

from conftest import REPO, SHARED
from kb.catalog.compiled import load_data
from kb.catalog.facts import get_path

COVERAGE = yaml.safe_load((REPO / "catalog" / "seed-coverage.yaml").read_text(encoding="utf-8"))
SEED = SHARED / "seed" / "000_36cb64a2234e4a83.txt"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def refs():
    for i, entry in enumerate(COVERAGE):
        for ref in entry["covered_by"]:
            yield i, ref


def test_every_entry_is_covered_by_something():
    assert all(entry["covered_by"] for entry in COVERAGE)


def test_seed_is_covered_in_order_without_gaps():
    if not SEED.is_file():
        pytest.skip(f"seed article not found at {SEED}")
    seed = squash(SEED.read_text(encoding="utf-8"))
    pos = 0
    for entry in COVERAGE:
        piece = squash(entry["seed"])
        found = seed.find(piece, pos)
        assert found >= 0, f"not in the seed (or out of order): {piece[:80]!r}"
        gap = seed[pos:found].strip()
        assert gap == "", f"seed text not covered: {gap[:120]!r}"
        pos = found + len(piece)
    assert seed[pos:].strip() == ""


#: fields the schema keeps without a citation of their own: flags and our own prose (summary, unit, …),
#: backed by the cited facts beside them
UNCITED_FIELDS = ("plain_product", "excludes_mig", "requires_mig", "vendor.methods", "operator_support.since",
                  "summary", "unit", "neighbour_risk", "vendor.note")


def _has_citations(node) -> bool:
    """The node is cited itself or holds cited facts (a setting's default, a list of profiles)."""
    if isinstance(node, list):
        return bool(node) and all(_has_citations(n) for n in node)
    if isinstance(node, dict):
        return bool(node.get("cite")) or any(_has_citations(v) for v in node.values() if isinstance(v, (dict, list)))
    return False


def test_fact_references_resolve():
    data = load_data()
    bad = []
    for i, ref in refs():
        if ref.startswith(("guide:", "rule:")):
            continue
        target = re.sub(r"\s*\(.*\)$", "", ref)
        entity, _, path = target.partition("#")
        if entity == "sources":
            if path not in data["sources"]:
                bad.append((i, ref))
            continue
        kind, _, ident = entity.partition("/")
        try:
            node = get_path(data[kind][ident], path)
        except KeyError:
            bad.append((i, ref))
            continue
        if not (_has_citations(node) or path.endswith(UNCITED_FIELDS)):
            bad.append((i, ref))
    assert bad == [], "\n".join(f"entry {i}: {r}" for i, r in bad)
