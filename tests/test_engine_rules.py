"""Every rule of the questions has a `fires` and a `quiet` fixture, and both evaluators agree on them.

Fixtures follow tests/rulefixtures.py: tests/rules/<question>/<RULE-ID>/fires.yaml (facts on which the
rule fires) and quiet.yaml (facts on which it does not). Their facts come from the fixture catalog
(tests/fixtures/catalog), so a firing conclusion is also built in full: placeholders filled, citations
resolved.
"""

from __future__ import annotations

import pytest

from kb import engine
from kb.catalog.yamlsafe import safe_load
from kb.engine.rules import compile_rules
from kb.questions import questions

from conftest import FIXTURES, REPO
from rulefixtures import Fixture, fixtures, missing

QUESTIONS = questions(REPO / "rules")  # the rule base's folders that have a question module
RULES, _ = compile_rules(REPO / "rules")
CASES = [f for q in QUESTIONS for f in fixtures(q)]


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_rule_has_a_firing_and_a_quiet_fixture_and_every_fixture_a_rule(question):
    assert len(QUESTIONS) >= 6
    assert missing(question, [r["id"] for r in RULES[question]]) == []


@pytest.mark.parametrize("fixture", CASES, ids=lambda f: f.name)
@pytest.mark.parametrize("which", engine.ENGINES)
def test_fixture(fixture: Fixture, which, monkeypatch):
    case = safe_load(fixture.path.read_text(encoding="utf-8"))  # libyaml: pure-Python PyYAML took 2 s over the 360 cases
    question = fixture.question
    assert case["rule"] == fixture.rule, "the fixture's rule must be its folder's name"
    fired = {rid for rid, _ in engine.fire(question, [case["facts"]], engine=which, rules=RULES)[0]}
    assert (case["rule"] in fired) == fixture.fires
    if fixture.fires:
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
