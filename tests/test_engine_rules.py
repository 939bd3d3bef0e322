"""Every rule of the questions has a passing and a failing fixture, and both evaluators agree on them.

Fixtures: tests/rules/<question>/<RULE>-PASS.yaml (facts on which the rule fires) and -FAIL.yaml (facts
on which it does not). Their facts come from the fixture catalog (tests/fixtures/catalog), so the PASS
conclusion is also built in full: placeholders filled, citations resolved.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb import engine
from kb.engine.rules import compile_rules

from conftest import FIXTURES, REPO

QUESTIONS = ("mig", "methods", "resource", "strategy", "dra", "recommend")
RULES, _ = compile_rules(REPO / "rules")
FIXTURE_DIR = REPO / "tests" / "rules"
CASES = sorted(FIXTURE_DIR.glob("*/*.yaml"))


def test_every_rule_has_a_passing_and_a_failing_fixture():
    missing = [f"{q}/{r['id']}-{kind}.yaml" for q in QUESTIONS for r in RULES[q] for kind in ("PASS", "FAIL")
               if not (FIXTURE_DIR / q / f"{r['id']}-{kind}.yaml").is_file()]
    assert missing == []


def test_every_fixture_belongs_to_a_rule():
    ids = {r["id"] for q in QUESTIONS for r in RULES[q]}
    orphans = [p.name for p in CASES if p.stem.rsplit("-", 1)[0] not in ids]
    assert orphans == []


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
@pytest.mark.parametrize("which", engine.ENGINES)
def test_fixture(path: Path, which, monkeypatch):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    question = path.parent.name
    assert case["rule"] == path.stem.rsplit("-", 1)[0]
    assert case["expect"] == ("fires" if path.stem.endswith("-PASS") else "does-not-fire")
    fired = {rid for rid, _ in engine.fire(question, [case["facts"]], engine=which, rules=RULES)[0]}
    assert (case["rule"] in fired) == (case["expect"] == "fires")
    if case["expect"] == "fires":
        monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "catalog"))
        from kb.catalog.compiled import load_data

        conclusions = [c for c in engine.evaluate(question, case["facts"], engine=which, data=load_data(), rules=RULES)
                       if c["rule"] == case["rule"]]
        assert conclusions and all(c["text"]["en"] and c["text"]["de"] and "{" not in c["text"]["en"] for c in conclusions)


def test_every_cite_of_the_rule_base_resolves_in_the_real_catalog():
    """An optional cite (`…?`) that never resolves is a typo: the reason silently loses its source."""
    from kb.catalog.compiled import load_data
    from kb.lint.checks.rules import unresolved

    data = load_data(REPO / "catalog")
    bad = {(r["id"], ref): why for q in QUESTIONS for r in RULES[q] for ref in r["cites"]
           if (why := unresolved(data, ref.rstrip("?")))}
    assert bad == {}
