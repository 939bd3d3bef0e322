"""The rule engine: rule-file validation, both evaluators, and durable-rules' edges."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kb import engine
from kb.engine import EngineFailure
from kb.engine.adapter import DurableEngine
from kb.engine.rules import compile_rules, schema_json, validate_rule_file
from kb.errors import RuleBaseInvalid
from kb.text import Text

from conftest import FIXTURES, REPO

BOTH = pytest.mark.parametrize("which", engine.ENGINES)

GOOD = """\
id: T-001
question: demo
title: {en: A card, de: Eine Karte}
when:
  c: {$and: [{kind: card}, {$gte: {memory_gb: 48}}]}
then:
  verdict: "yes"
  text: {en: "{name} has {memory_gb} GB", de: "{name} hat {memory_gb} GB"}
  details: {memory: "{memory_gb}", label: "{name}-big"}
cites:
  - cards/{card}#memory_gb
"""


def write_rule(folder: Path, text: str, name: str = "T-001-demo.yaml", question: str = "demo") -> Path:
    path = folder / question / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def rules_from(folder: Path) -> dict:
    rules, problems = compile_rules(folder)
    assert not problems, problems
    return rules


@pytest.fixture
def data(monkeypatch):
    monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "catalog"))
    from kb.catalog.compiled import load_data

    return load_data()


# ------------------------------------------------------------------ validation


def test_a_good_rule_compiles(tmp_path):
    rule, problems = validate_rule_file(write_rule(tmp_path, GOOD))
    assert problems == []
    assert rule["id"] == "T-001" and rule["question"] == "demo"
    assert rule["when"] == [["c", {"$and": [{"kind": "card"}, {"$gte": {"memory_gb": 48}}]}]]
    assert rule["then"]["verdict"] == "yes"


@pytest.mark.parametrize("change, line, message", [
    (("verdict: \"yes\"", "verdict: maybe"), 7, "verdict 'maybe' is not one of yes, conditional, unconfirmed, no"),
    (("title:", "titel:"), 3, "unknown field 'titel'"),
    (("{$gte: {memory_gb: 48}}", "{$lt: {memory_gb: {c: memory_gb}}}"), 5, "$lt cannot compare with another fact's property"),
    (("{$gte: {memory_gb: 48}}", "{$regex: {name: x}}"), 5, "operator '$regex' is not supported"),
    (("{$gte: {memory_gb: 48}}", "{available: yes}"), 5, "YAML reads yes as true"),
    (("{$gte: {memory_gb: 48}}", "{q: 1}"), 5, "'q' is set by the engine itself"),
    (("{$gte: {memory_gb: 48}}", "{card: {x: card}}"), 5, "'x' is not a fact named earlier in this rule"),
    (("  - cards/{card}#memory_gb", "  - memory_gb"), 11, "is not a fact reference"),
    (("id: T-001", "id: T-002"), 1, "the file name must start with the id"),
    (("en: \"{name} has", "en: \"{d.name} has"), 8, "placeholder {d.name} names no fact of the rule (facts: c)"),
    (("question: demo", "question: other"), 2, "must equal the folder name 'demo'"),
    (("text: {en: \"{name} has {memory_gb} GB\", de: \"{name} hat {memory_gb} GB\"}", "text: {en: only English}"), 8,
     "text needs exactly the keys 'en' and 'de'"),
])
def test_a_broken_rule_names_file_line_and_problem(tmp_path, change, line, message):
    path = write_rule(tmp_path, GOOD.replace(*change))
    rule, problems = validate_rule_file(path, "rules/demo/T-001-demo.yaml")
    assert rule is None
    assert any(message in Text.of(p.message).en for p in problems), [str(p) for p in problems]
    hit = next(p for p in problems if message in Text.of(p.message).en)
    assert hit.file == "rules/demo/T-001-demo.yaml" and hit.line == line


def test_bare_yes_as_verdict_is_taken_as_meant(tmp_path):
    rule, problems = validate_rule_file(write_rule(tmp_path, GOOD.replace('verdict: "yes"', "verdict: yes")))
    assert problems == [] and rule["then"]["verdict"] == "yes"


def test_yaml_errors_and_duplicate_ids_are_reported_per_question(tmp_path):
    write_rule(tmp_path, GOOD)
    write_rule(tmp_path, GOOD, name="T-001-again.yaml")
    write_rule(tmp_path, "id: [unclosed\n", name="X-001-bad.yaml", question="other")
    rules, problems = compile_rules(tmp_path)
    assert [r["id"] for r in rules["demo"]] == ["T-001"]
    assert "already used by rules/demo/T-001-again.yaml" in str(problems["demo"][0]) or \
           "already used by rules/demo/T-001-demo.yaml" in str(problems["demo"][0])
    assert problems["other"][0].file == "rules/other/X-001-bad.yaml" and "not valid YAML" in str(problems["other"][0])


def test_the_committed_rule_schema_is_current_and_exported_from_the_model():
    from kb.models.rule import Rule, rule_schema

    assert (REPO / "rules" / "rule.schema.json").read_text(encoding="utf-8") == schema_json()
    schema = rule_schema()
    assert schema["required"] == ["id", "question", "title", "when", "then", "cites"] == list(Rule.model_fields)
    assert schema["additionalProperties"] is False and set(schema["$defs"]) >= {"condition", "operand", "Then", "RuleText"}
    described = [name for name, prop in schema["properties"].items() if "description" not in prop]
    assert described == ["then"]  # a $ref: described in $defs/Then
    assert all("description" in prop for prop in schema["$defs"]["Then"]["properties"].values())


def test_the_constants_exist_once():
    """Verdicts, severities, reserved fact properties and the placeholder pattern: kb.engine.syntax only (the rule
    model and the engine use its objects)."""
    import re

    import importlib

    from kb import engine
    from kb.engine import syntax
    from kb.models import rule

    conclude = importlib.import_module("kb.engine.conclude")
    from kb.questions import base

    assert engine.RESERVED is rule.RESERVED is syntax.RESERVED
    assert conclude.PLACEHOLDER_RE is syntax.PLACEHOLDER_RE
    assert tuple(base.RANK) == rule.VERDICTS == syntax.VERDICTS
    for path in (REPO / "kb").rglob("*.py"):
        if path.name != "syntax.py":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r'\("q", "fi", "sid", "id"\)', text), path
            assert '("yes", "conditional", "unconfirmed", "no")' not in text, path
            assert not re.search(r're\.compile\(r"\\\{[\[(]', text), path  # a placeholder pattern of its own


def test_every_rule_file_of_the_repository_is_valid():
    rules, problems = compile_rules(REPO / "rules")
    mine = {q: p for q, p in problems.items() if q in ("mig", "methods", "resource", "strategy", "dra", "recommend")}
    assert mine == {}
    assert all(rules[q] for q in ("mig", "methods", "resource", "strategy", "dra", "recommend"))


# ------------------------------------------------------------------ evaluation


@BOTH
def test_evaluate_fills_text_details_and_citations(tmp_path, data, which):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    facts = [{"kind": "card", "card": "h200-nvl", "name": "H200 NVL", "memory_gb": 141},
             {"kind": "card", "card": "l4", "name": "L4", "memory_gb": 24}]
    (c,) = engine.evaluate("demo", facts, engine=which, data=data, rules=rules)
    assert c["rule"] == "T-001" and c["verdict"] == "yes"
    assert c["text"] == {"en": "H200 NVL has 141 GB", "de": "H200 NVL hat 141 GB"}
    assert c["details"] == {"memory": 141, "label": "H200 NVL-big"}
    assert c["condition"] is None
    # our own article: its address from publication.toml (unset: no link), marked as the fact's only source
    assert c["cites"] == [{"source": "seed", "title": "GPUs in Kubernetes", "url": None,
                           "section": None, "quote": "141 GB", "only_source": True}]
    assert c["facts"] == [facts[0]]


JOIN = """\
id: J-001
question: demo
title: {en: Exception of a card, de: Ausnahme einer Karte}
when:
  all:
    - c: {$and: [{kind: card}, {listed: true}]}
    - e: {$and: [{kind: exception}, {card: {c: card}}]}
then:
  verdict: "no"
  text: {en: "{c.name}: not on {e.driver}", de: "{c.name}: nicht auf {e.driver}"}
  condition: {en: "avoid {driver}", de: "nicht {driver}"}
cites:
  - cards/{card}#operator_support.driver_exceptions[{driver}].fact
"""


@BOTH
def test_a_join_binds_facts_by_equal_properties(tmp_path, data, which):
    rules = rules_from(tmp_path) if write_rule(tmp_path, JOIN, name="J-001-join.yaml") else None
    card = {"kind": "card", "card": "rtx-pro-6000-blackwell-server", "name": "RTX PRO 6000 Server Edition", "listed": True}
    other = {"kind": "card", "card": "l4", "name": "L4", "listed": True}
    exc = {"kind": "exception", "card": "rtx-pro-6000-blackwell-server", "driver": "575.57.08"}
    (c,) = engine.evaluate("demo", [other, card, exc], engine=which, data=data, rules=rules)
    assert c["text"]["en"] == "RTX PRO 6000 Server Edition: not on 575.57.08"
    assert c["condition"] == {"en": "avoid 575.57.08", "de": "nicht 575.57.08"}
    assert c["facts"] == [card, exc]
    assert c["cites"][0]["quote"] == "MIG is not supported on the 575.57.08 driver release."


@BOTH
def test_a_fact_no_rule_matches_gives_no_conclusion(tmp_path, data, which):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    assert engine.evaluate("demo", [{"kind": "weather", "sunny": True}], engine=which, data=data, rules=rules) == []
    assert engine.evaluate("demo", [], engine=which, data=data, rules=rules) == []
    mixed = [{"kind": "weather"}, {"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}]
    assert [c["rule"] for c in engine.evaluate("demo", mixed, engine=which, data=data, rules=rules)] == ["T-001"]


@BOTH
def test_identical_facts_count_once(tmp_path, data, which):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    fact = {"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}
    assert len(engine.evaluate("demo", [fact, dict(fact)], engine=which, data=data, rules=rules)) == 1


@pytest.mark.parametrize("text, message", [
    (GOOD.replace("{name} has", "{nom} has"), "placeholder {nom} is not a property of the matched facts"),
    (GOOD.replace("#memory_gb", "#memory_tb"), "cites cards/l4#memory_tb, which is not a cited fact of the catalog"),
])
@BOTH
def test_a_rule_that_cannot_be_filled_raises(tmp_path, data, which, text, message):
    rules = rules_from(tmp_path) if write_rule(tmp_path, text) else None
    with pytest.raises(EngineFailure, match=message.replace("{", r"\{").replace("}", r"\}").replace(".", r"\.")):
        engine.evaluate("demo", [{"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}],
                        engine=which, data=data, rules=rules)


def test_an_optional_citation_may_be_missing(tmp_path, data):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD.replace("#memory_gb", "#memory_gb\n  - cards/{card}#nothing?")) else None
    (c,) = engine.evaluate("demo", [{"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}], data=data, rules=rules)
    assert len(c["cites"]) == 1


def test_facts_count_once_only_with_values_of_the_same_types():
    card = {"kind": "card", "card": "l4", "memory_gb": 48}
    reordered = {"memory_gb": 48, "card": "l4", "kind": "card"}
    assert engine.check_facts([card, reordered, dict(card)]) == [card]
    flags = [{"kind": "x", "v": True}, {"kind": "x", "v": 1}, {"kind": "x", "v": 1.0}, {"kind": "x", "v": 1}]
    assert engine.check_facts(flags) == flags[:3]
    assert [type(f["v"]) for f in engine.check_facts(flags)] == [bool, int, float]


@pytest.mark.parametrize("fact, message", [
    ({"card": "l4"}, "a fact must be a mapping with a 'kind'"),
    ({"kind": "card", "q": 1}, "fact property 'q' is reserved"),
    ({"kind": "card", "profiles": ["1g.18gb"]}, "must be text, a number or true/false"),
])
def test_bad_facts_are_refused(fact, message):
    with pytest.raises(EngineFailure, match=message):
        engine.check_facts([fact])


def test_unknown_question_and_engine_are_errors(data):
    with pytest.raises(EngineFailure, match="no rules for question 'nope'"):
        engine.evaluate("nope", [], data=data)
    with pytest.raises(EngineFailure, match="unknown engine 'clips'"):
        engine.evaluate("mig", [], engine="clips", data=data)


def test_a_question_with_a_broken_rule_file_raises_rule_error(tmp_path, monkeypatch, data):
    write_rule(tmp_path, GOOD.replace('verdict: "yes"', "verdict: maybe"))
    monkeypatch.setenv("GPUKB_RULES", str(tmp_path))
    with pytest.raises(RuleBaseInvalid) as err:
        engine.evaluate("demo", [], data=data)
    assert "T-001-demo.yaml:7" in str(err.value)


# ------------------------------------------------------------------ durable-rules' edges


def test_repeated_loading_in_one_process(tmp_path, data):
    write_rule(tmp_path, GOOD)
    fact = [{"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}]
    first = rules_from(tmp_path)
    again = rules_from(tmp_path)  # a second load of the same files: same ruleset, no "already registered"
    adapter = DurableEngine()
    assert adapter.fire("demo", first["demo"], [fact]) == adapter.fire("demo", again["demo"], [fact]) == [[("T-001", (0,))]]
    write_rule(tmp_path, GOOD.replace("48", "64"))  # changed rules register as a new ruleset
    changed = rules_from(tmp_path)
    assert adapter.fire("demo", changed["demo"], [fact]) == [[]]
    assert DurableEngine().fire("demo", first["demo"], [fact]) == [[("T-001", (0,))]]  # a second host


def test_thousands_of_queries_in_a_row_agree_with_the_reference(tmp_path, data):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    queries = [[{"kind": "card", "card": "l4", "name": f"card {i}", "memory_gb": i}] for i in range(5000)]
    engine.forget()  # nothing remembered from other tests: all 5,000 run through durable-rules
    before = dict(engine.STATS)
    durable = engine.fire("demo", queries, engine="durable", rules=rules)
    assert engine.STATS["evaluations"] - before["evaluations"] == 5000  # every query differs in what the rule reads
    assert durable == engine.fire("demo", queries, engine="reference", rules=rules)
    assert sum(1 for fired in durable if fired) == 5000 - 48


def test_durable_runs_once_per_distinct_engine_input(tmp_path, data):
    """Queries whose facts agree on every property the conditions read fire the same rules on the same facts:
    durable-rules runs once for them; each conclusion is still written from its own query's facts."""
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    engine.forget()
    queries = [[{"kind": "card", "card": "l4", "name": f"card {i}", "memory_gb": 48 if i % 2 else 8},
                {"kind": "note", "text": f"unread {i}"}] for i in range(100)]
    queries.append([{"kind": "card", "card": "l4", "name": "big", "memory_gb": 64}])  # another value read
    before = dict(engine.STATS)
    durable = engine.fire("demo", queries, engine="durable", rules=rules)
    assert (engine.STATS["queries"] - before["queries"], engine.STATS["evaluations"] - before["evaluations"]) == (101, 3)
    assert durable == engine.fire("demo", queries, engine="reference", rules=rules)
    again = dict(engine.STATS)
    concluded = engine.evaluate_many("demo", queries[:100], rules=rules, data=data)
    assert engine.STATS["evaluations"] == again["evaluations"]  # remembered within the process
    assert [c["text"]["en"] for cs in concluded for c in cs] == [f"card {i} has 48 GB" for i in range(100) if i % 2]
    assert [c["facts"][0]["name"] for cs in concluded for c in cs] == [f"card {i}" for i in range(100) if i % 2]
    assert engine.kind_reads(rules["demo"]) == ({"card": ("kind", "memory_gb")}, ("kind",))


LEVEL = """\
id: T-002
question: demo
title: {en: Urgent, de: Dringend}
when:
  n: {$gte: {level: 3}}
then:
  verdict: "no"
  text: {en: "level {level}", de: "Stufe {level}"}
cites: ["cards/l4#memory_gb"]
"""


def test_a_condition_naming_a_kind_reads_only_facts_of_that_kind(tmp_path):
    """The memo's key holds of each fact what the conditions can see of its kind: a property only a card's
    condition reads does not split queries on a note; a property a kind-free condition reads does, on every kind."""
    write_rule(tmp_path, GOOD)
    rules = rules_from(tmp_path) if write_rule(tmp_path, LEVEL, name="T-002-level.yaml") else None
    assert engine.kind_reads(rules["demo"]) == ({"card": ("kind", "level", "memory_gb")}, ("kind", "level"))
    card = {"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}
    queries = [[card, {"kind": "note", "memory_gb": 8, "level": 1}],
               [card, {"kind": "note", "memory_gb": 64, "level": 1}],  # memory_gb of a note: unseen
               [card, {"kind": "note", "memory_gb": 8, "level": 5}],
               [card, {"kind": "gadget", "memory_gb": 8, "level": 1}],
               [dict(card, level=5), {"kind": "note", "memory_gb": 8, "level": 1}]]
    engine.forget()
    before = engine.STATS["evaluations"]
    durable = engine.fire("demo", queries, engine="durable", rules=rules)
    assert engine.STATS["evaluations"] - before == 4
    assert durable == engine.fire("demo", queries, engine="reference", rules=rules)
    assert [[rid for rid, _ in fired] for fired in durable] == [["T-001"], ["T-001"], ["T-001", "T-002"], ["T-001"],
                                                                 ["T-001", "T-002"]]


def test_more_sessions_than_durable_keeps_alive(tmp_path, data):
    """Join rules get one session per query; 1,100 of them pass only if every session is deleted."""
    rules = rules_from(tmp_path) if write_rule(tmp_path, JOIN, name="J-001-join.yaml") else None
    query = [{"kind": "card", "card": "c", "name": "C", "listed": True}, {"kind": "exception", "card": "c", "driver": "1"}]
    adapter = DurableEngine()
    for _ in range(1100):
        assert adapter.fire("demo", rules["demo"], [query]) == [[("J-001", (0, 1))]]


def test_a_failing_action_raises_instead_of_being_swallowed(tmp_path, monkeypatch, data):
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    adapter = DurableEngine()

    def failing(rule_id):
        def action(c):
            raise RuntimeError(f"boom in {rule_id}")
        return action

    monkeypatch.setattr(adapter, "_action", failing)
    with pytest.raises(EngineFailure, match="boom in"):
        adapter.fire("demo", rules["demo"], [[{"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}]])


def test_only_the_adapter_imports_durable():
    offenders = [p.relative_to(REPO).as_posix() for p in (REPO / "kb").rglob("*.py")
                 if ("import durable" in p.read_text(encoding="utf-8") or "from durable" in p.read_text(encoding="utf-8"))
                 and p.name != "adapter.py"]
    assert offenders == []


def test_the_rule_checker_command_reports_problems(tmp_path, monkeypatch, capsys):
    from kb.engine.rules import main

    write_rule(tmp_path, GOOD)
    monkeypatch.setenv("GPUKB_RULES", str(tmp_path))
    assert main([]) == 0 and capsys.readouterr().out == "1 rules valid, 0 problems\n"
    write_rule(tmp_path, GOOD.replace('verdict: "yes"', "verdict: maybe"))
    assert main([]) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith("rules/demo/T-001-demo.yaml:7: then.verdict: verdict 'maybe'")
    assert main(["--schema"]) == 0 and (tmp_path / "rule.schema.json").read_text(encoding="utf-8") == schema_json()


class _Counted(dict):
    """A fact that counts how often its items are listed and its properties read (check_facts / projection)."""

    listed = read = 0

    def items(self):
        type(self).listed += 1
        return super().items()

    def get(self, *args):
        type(self).read += 1
        return super().get(*args)


def test_a_fact_shared_by_many_queries_is_checked_and_projected_once_per_call(tmp_path, data):
    """kb.engine.fire: a fact object in several queries (a release's behaviour facts) is checked and projected once
    per call — the same firings as each query alone; a fact equal to it but another object is still its own, and
    so is the shared object in the next call. Fails without the per-call memo of either step."""
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    engine.forget()
    shared = _Counted(kind="card", card="l4", name="L4", memory_gb=48)
    queries = [[{"kind": "note", "text": f"query {i}"}, shared] for i in range(50)]
    queries.append([dict(shared), {"kind": "note", "text": "a copy"}])
    _Counted.listed = _Counted.read = 0
    fired = engine.fire("demo", queries, engine="durable", rules=rules)
    assert (_Counted.listed, _Counted.read) == (1, 3)  # (its kind checked; kind and memory_gb projected)
    assert fired == [engine.fire("demo", [q], engine="reference", rules=rules)[0] for q in queries]
    assert all(f == [("T-001", (shared,))] for f in fired[:50]) and fired[50][0][1][0] is queries[50][0]
    _Counted.listed = _Counted.read = 0
    engine.fire("demo", queries[:2], engine="durable", rules=rules)
    assert (_Counted.listed, _Counted.read) == (1, 3)


def test_a_fact_twice_in_one_list_is_checked_once_and_a_list_without_twins_comes_back_as_a_copy():
    """kb.engine.check_facts: the facts not checked yet are found in C and each object is checked once (a fact twice
    in a list, at its first place) and counts once; a list with no two equal facts comes back as a new list of the
    same objects, as one with twins comes back without them. Fails with a check per place or the caller's list
    handed back."""
    shared = _Counted(kind="card", card="l4", memory_gb=48)
    note = {"kind": "note", "text": "a"}
    _Counted.listed = _Counted.read = 0
    facts = [shared, note, shared, {"kind": "note", "text": "a"}]
    assert engine.check_facts(facts) == [shared, note] and _Counted.read == 1  # (its kind read once)
    keys: dict = {}
    distinct = [note, shared]
    got = engine.check_facts(distinct, keys)
    assert got == distinct and got is not distinct and all(a is b for a, b in zip(got, distinct))
    assert engine.check_facts([shared, {"kind": "card", "card": "l4", "memory_gb": 48.0}], keys)[1]["memory_gb"] == 48.0
    assert _Counted.read == 2  # (once per call, or per calls with the same keys)
    with pytest.raises(EngineFailure, match="reserved"):
        engine.check_facts([note, shared, {"kind": "card", "sid": "1"}])


def test_the_memo_of_firings_numbers_rows_by_their_values_and_types_and_drops_both_at_once(tmp_path, data,
                                                                                             monkeypatch):
    """kb.engine keys a query's firings by the numbers of its facts' projected rows (_ROWS): a value true is another
    row than 1; when the memo is full its firings and the numbers go together (a number given again to another row
    finds no firings of the old one). Fails with rows numbered without their types, or numbers dropped without the
    firings they keyed."""
    reads = ({"card": ("kind", "memory_gb")}, ("kind",))
    one, true = [{"kind": "card", "memory_gb": 1}], [{"kind": "card", "memory_gb": True}]
    assert engine._numbered(one, reads, {}) != engine._numbered(true, reads, {})
    assert engine._numbered(one, reads, {}) == engine._numbered([dict(one[0], name="x")], reads, {})
    rules = rules_from(tmp_path) if write_rule(tmp_path, GOOD) else None
    engine.forget()
    monkeypatch.setattr(engine, "MEMO_LIMIT", 1)
    card = lambda gb: [{"kind": "card", "card": "l4", "name": "L4", "memory_gb": gb}]  # noqa: E731
    for queries in ([card(64)], [card(8), card(9)], [card(10)], [card(80), card(8)], [card(64)]):
        assert engine.fire("demo", queries, rules=rules) == engine.fire("demo", queries, engine="reference", rules=rules)
    assert len(engine._ROWS) <= 2
    engine.forget()
    assert not engine._ROWS and not engine._FIRED


def test_a_conclusion_handed_out_twice_shares_nothing_that_can_change(tmp_path, data):
    """kb.engine.conclude builds what a conclusion says once per distinct placeholder values and hands out copies:
    its details (a dict without a list or dict inside copied as a dict, others at every depth), its citations and its
    matched facts are the caller's own; Texts (immutable) are shared. Fails with a flat copy of nested details or a
    copy left out."""
    nested = GOOD.replace('details: {memory: "{memory_gb}", label: "{name}-big"}',
                          'details: {memory: "{memory_gb}", labels: ["{name}-big", {size: "{memory_gb}"}]}')
    for text in (GOOD, nested):
        rules = rules_from(tmp_path) if write_rule(tmp_path, text) else None
        engine.forget()
        fact = {"kind": "card", "card": "l4", "name": "L4", "memory_gb": 48}
        (first,), (second,) = engine.evaluate_many("demo", [[fact], [dict(fact)]], rules=rules, data=data)
        assert first == second and first["text"] is second["text"]
        assert first["details"] is not second["details"] and first["facts"][0] is not second["facts"][0]
        assert first["cites"] and first["cites"][0] is not second["cites"][0]
        for value in first["details"].values():
            if isinstance(value, list):
                value[1]["size"] = "changed"
                value.append("more")
        first["details"]["memory"] = "changed"
        first["cites"][0]["title"] = "changed"
        first["facts"][0]["name"] = "changed"
        (third,) = engine.evaluate("demo", [fact], rules=rules, data=data)
        assert third == second and third["details"]["memory"] == 48
        assert "changed" not in repr(third) and "changed" not in repr(second)


def test_the_conclusions_of_many_firings_are_each_firings_own(tmp_path, data):
    """kb.engine.conclude.conclude_many (evaluate_many's loop): each firing's conclusion is the one `conclude` gives
    for it alone — with two rules in one call (each with its own plan of placeholders) and a rule citing two facts
    (each reference filled for its citations and the restrictions). Fails with a plan or a filled reference shared
    between rules or references."""
    from kb.engine.conclude import conclude, conclude_many

    write_rule(tmp_path, GOOD)
    write_rule(tmp_path, GOOD.replace("T-001", "T-002").replace("{name} has {memory_gb} GB", "{card}: {memory_gb}")
               .replace("{name} hat {memory_gb} GB", "{card}: {memory_gb}").replace('label: "{name}-big"', 'label: "{card}"')
               .replace("  - cards/{card}#memory_gb\n", "  - cards/{card}#memory_gb\n  - cards/{card}#mig.status?\n"),
               name="T-002-demo.yaml")
    rules = rules_from(tmp_path)
    by_id = {r["id"]: r for r in rules["demo"]}
    queries = [[{"kind": "card", "card": card, "name": name, "memory_gb": gb}]
               for card, name, gb in (("h200-nvl", "H200 NVL", 141), ("l4", "L4", 48), ("l4", "L4 again", 48))]
    fired = engine.fire("demo", queries, rules=rules)
    assert [[rid for rid, _f in f] for f in fired] == [["T-001", "T-002"]] * 3
    for cited in (True, False):
        engine.forget()
        many = conclude_many(by_id, fired, data, cited)
        engine.forget()
        assert many == [[conclude(by_id[rid], facts, data, cited) for rid, facts in f] for f in fired]
        assert [c["text"]["en"] for c in many[1]] == ["L4 has 48 GB", "l4: 48"] and many[2][0]["text"]["en"] == "L4 again has 48 GB"
    assert len(many[0][1]["cites"]) == 0 and len(conclude_many(by_id, fired, data)[0][1]["cites"]) >= 2


def test_a_shared_fact_is_read_only_and_copies_as_a_dict():
    """kb.engine.SharedFact (the behaviour facts every question about a release shares): every change refused,
    a copy to change, equal to the dict in comparisons, JSON and pickles; the behaviour facts of a release are such
    facts, the same objects at every call, in a new list each time."""
    import copy
    import json
    import pickle

    from kb.catalog.compiled import load_data
    from kb.questions import behaviour

    fact = engine.SharedFact({"kind": "behaviour", "status": "holds"})
    changes = [lambda f: f.__setitem__("status", "x"), lambda f: f.__delitem__("status"), lambda f: f.pop("status"),
               lambda f: f.popitem(), lambda f: f.clear(), lambda f: f.update(status="x"),
               lambda f: f.setdefault("new", 1), lambda f: f.__ior__({"status": "x"})]
    for change in changes:
        with pytest.raises(TypeError, match="read-only"):
            change(fact)
    assert fact == {"kind": "behaviour", "status": "holds"}
    mine = dict(fact)
    mine["status"] = "x"
    assert {**fact, "status": "y"}["status"] == "y" and fact["status"] == "holds"
    again = pickle.loads(pickle.dumps(fact))
    assert type(again) is engine.SharedFact and again == fact
    assert copy.deepcopy(fact) == fact and json.dumps(fact) == json.dumps(dict(fact))
    data = load_data(REPO / "catalog")
    op = next(iter(data["releases"]["gpu-operator"]["releases"]))["version"]
    first, second = behaviour.facts(data, op), behaviour.facts(data, op)
    assert first and first is not second and all(a is b and type(a) is engine.SharedFact for a, b in zip(first, second))


def test_known_issue_facts_are_shared_per_versions_and_what_they_read_of_the_card():
    """kb.questions.known_issues.facts: the same read-only objects for the same versions and card membership (two
    cards in the same issues' card lists share them), each equal to the fact built afresh for its own card. Fails
    with the memo keyed without the card's membership or without the driver."""
    from kb.catalog.compiled import load_data
    from kb.questions import known_issues

    data = load_data(REPO / "catalog")
    op = next(iter(data["releases"]["gpu-operator"]["releases"]))["version"]
    limited = [(f, i) for f, i in known_issues.all_issues(data) if i.get("cards")]
    assert limited, "the catalog has no known issue limited to some cards: pick another sample"
    inside = limited[0][1]["cards"][0]
    outside = next(cid for cid in data["cards"] if known_issues.card_reads(data, cid) != known_issues.card_reads(data, inside))
    for card in (inside, outside, None):
        for driver in (None, "570.148.08", "580.82.07"):
            got = known_issues.facts(data, operator=op, driver=driver, card=card)
            again = known_issues.facts(data, operator=op, driver=driver, card=card)
            fresh = [known_issues.fact(data, f, i, operator=op, driver=driver, card=card) for f, i in known_issues.all_issues(data)]
            assert got == fresh and got is not again and all(a is b and type(a) is engine.SharedFact for a, b in zip(got, again))
    twin = next((cid for cid in data["cards"] if cid != inside
                 and known_issues.card_reads(data, cid) == known_issues.card_reads(data, inside)), None)
    if twin is not None:
        assert known_issues.facts(data, operator=op, card=twin)[0] is known_issues.facts(data, operator=op, card=inside)[0]


def test_an_answers_memo_key_tells_values_of_other_types_apart_and_ignores_the_inputs_order():
    """kb.questions.Asker._key: equal for the same inputs in any order; true is not 1, "1" not 1, None not "None",
    1.0 not 1 and -0.0 not 0.0 (floats by repr), a list not a tuple; the cited and uncited answers apart. Fails with
    values keyed without their types or floats keyed by value."""
    from kb.questions import Asker

    key = Asker._key
    assert key("q", {"a": 1, "b": "x", "c": None}) == key("q", {"c": None, "b": "x", "a": 1})
    assert key("q", {"a": True}) != key("q", {"a": 1}) != key("q", {"a": "1"})
    assert key("q", {"a": None}) != key("q", {"a": "None"}) and key("q", {"a": 1.0}) != key("q", {"a": 1})
    assert key("q", {"a": 0.0}) != key("q", {"a": -0.0}) and key("q", {"a": 0.5, "b": 1}) == key("q", {"b": 1, "a": 0.5})
    assert key("q", {"g": ["L4:1"]}) == key("q", {"g": ["L4:1"]}) != key("q", {"g": ("L4:1",)})
    assert key("q", {"a": 1}, False) != key("q", {"a": 1}) != key("p", {"a": 1})
