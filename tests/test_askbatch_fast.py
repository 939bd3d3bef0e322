"""The ask page's data is written through fast paths that must give exactly what the plain code gives
(kb.site.askbatch, kb.site.askdata). Each test here compares a fast path with the plain way on real answers and
on the edge cases the fast path hands over to the plain way; each fails where its fast path is broken."""

from __future__ import annotations

import json

import pytest

from kb.catalog.compiled import load_data
from kb.engine.rules import load_rules
from kb.questions import bulk
from kb.site import askbatch, askdata
from kb.site.askbatch import OPEN, TemplateAsker
from kb.text import Text

CARD = "a30"  # a listed MIG card with few profiles (cheap)


@pytest.fixture(scope="module")
def written():
    """Every (answer, sentinels, template) the asker writes for one card's questions."""
    data, rules = load_data(), load_rules()
    seen = []
    original = askbatch.template

    def record(answer, sentinels, memo=None):
        out = original(answer, sentinels, memo)
        seen.append((answer, sentinels, out))
        return out
    askbatch.template = record
    try:
        with bulk():
            askdata.compute_cards(TemplateAsker(data, rules=rules), data, [CARD])
    finally:
        askbatch.template = original
    return seen


def _round_trip(answer: dict, sentinels: dict) -> dict:
    """The plain way: every sentinel replaced in the answer's JSON text, read back; citations as they were."""
    cites = [r["citations"] for r in answer["reasons"]]
    bare = {**answer, "reasons": [{k: v for k, v in r.items() if k != "citations"} for r in answer["reasons"]]}
    out = json.loads(askbatch._filler(sentinels)(json.dumps(bare, ensure_ascii=False)))
    out["reasons"] = [{k: (c if k == "citations" else r[k]) for k in old}
                      for old, r, c in zip(answer["reasons"], out["reasons"], cites)]
    return out


def _typed(value):
    """The value with every container's type in it (a Text or a tuple is not what JSON gives back)."""
    if isinstance(value, dict):
        return (type(value).__name__, [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(v) for v in value])
    return (type(value).__name__, value)


def test_a_template_is_what_the_answers_json_text_gives_with_its_sentinels_replaced(written):
    assert len(written) > 50
    slotted = 0
    for answer, sentinels, out in written:
        assert _typed(out) == _typed(_round_trip(answer, sentinels))
        slotted += OPEN in json.dumps(out, ensure_ascii=False)
    assert slotted > 50  # (the answers do hold sentinels to replace)


@pytest.mark.parametrize("answer", [
    {"inputs": {"operator": "0026.0007.0000", "n": 3, "x": 1.5, "on": True, "none": None},
     "summary": Text("GPU Operator 0026.0007.0000", "GPU Operator 0026.0007.0000 (de)"),
     "details": {"pair": ("0026.0007.0000", 2), "0026.0007.0000": ["a", ("b",)]}, "reasons": []},
    {"details": {1: "a key that is no text"}, "reasons": []},  # JSON writes the key as "1"
    {"details": {"value": 10**30, "f": float("inf")}, "reasons": []},
])
def test_a_template_of_an_answer_json_can_write_is_its_json_round_trip(answer):
    sentinels = {"0026.0007.0000": "operator"}
    assert _typed(askbatch.template(answer, sentinels)) == _typed(_round_trip(answer, sentinels))


def test_a_template_of_what_json_cannot_write_is_walked():
    class Odd:
        pass
    odd = Odd()
    out = askbatch.template({"details": {"odd": odd, "v": "0026.0007.0000"}, "reasons": []}, {"0026.0007.0000": "operator"})
    assert out == {"details": {"odd": odd, "v": OPEN + "operator" + askbatch.CLOSE}, "reasons": []}


class _Unshared(dict):
    """A memo that remembers nothing (each conclusion keeps its own list of citations)."""

    def setdefault(self, key, value=None):
        return value


def _card_texts(asker, data, cid: str) -> list[str]:
    with bulk():
        computed = {"cards": askdata.compute_cards(asker, data, [cid])}
    return [askdata._dump(askdata.card_payload(data, computed, cid, lang)) for lang in askdata.LANGS]


#: a MIG card whose answers cite the release's own entry, and a card without MIG whose resolved references name one
#: citation twice
@pytest.mark.parametrize("cid", [CARD, "t4"])
def test_citations_resolved_once_are_those_each_conclusion_looks_up(monkeypatch, cid):
    """The citations `_content_key` resolved (one list per resolved references) and a rule's citations without a
    placeholder (one list per rule), shared by the templates and rendered once per file, give the files each
    conclusion's own citations give."""
    data, rules = load_data(), load_rules()
    fast = TemplateAsker(data, rules=rules)
    texts = _card_texts(fast, data, cid)
    assert fast._resolved and fast._rule_cites

    content_key = TemplateAsker._content_key
    monkeypatch.setattr(TemplateAsker, "_content_key", lambda self, *a: (content_key(self, *a)[0], None))
    plain = TemplateAsker(data, rules=rules)
    plain._rule_cites = _Unshared()
    assert _card_texts(plain, data, cid) == texts
    assert not plain._resolved
    if cid == CARD:
        assert any(c.get("release") for cites in fast._resolved.values() for c in cites)  # (release cites among them)


def test_the_detail_lines_kept_for_the_process_are_each_languages_own():
    from kb.answer import _detail_lines

    details = {"mode": "time-slicing", "resource": "nvidia.com/gpu", "labels": ["a=b"], "replicas": 4, "profile": None}
    for lang in ("de", "en", "de"):
        assert askdata._Pool({}, lang)._detail_lines(dict(details)) == _detail_lines(details, lang, "")
    assert _detail_lines(details, "de", "") != _detail_lines(details, "en", "")


def _shared_texts(monkeypatch, content: dict) -> list[str]:
    data, rules = load_data(), load_rules()
    monkeypatch.setattr(askbatch, "CONTENT", content)
    asker = TemplateAsker(data, rules=rules)
    with bulk():
        shared = askdata.compute_shared(asker, data, rules)
        shared["releases"] = askdata.release_table(asker, data, shared["ops"])
    written = len({id(a) for rows in shared["dra"].values() for how in rows for row in how for a in row})
    return [askdata._dump(askdata.shared_payload(data, {"shared": shared}, lang)) for lang in askdata.LANGS], written


def test_dra_templates_shared_by_content_are_those_written_per_release(monkeypatch):
    """dra's templates are shared by what they are written from (its fold reads its request's fact again: part of the
    key): the shared files are those of templates written per release (`_shared_key`), with far fewer written."""
    fast, few = _shared_texts(monkeypatch, dict(askbatch.CONTENT))
    plain, many = _shared_texts(monkeypatch, {k: v for k, v in askbatch.CONTENT.items() if k != "dra"})
    assert fast == plain
    assert few * 3 < many


def _replaced(text: str, sentinels: dict) -> str:
    """Each sentinel of `text` as its slot, the longest first (what `_filler` does without its quick test)."""
    for sentinel in sorted(sentinels, key=len, reverse=True):
        text = text.replace(sentinel, askbatch.slot(sentinels[sentinel]))
    return text


@pytest.mark.parametrize("sentinels", [
    {askdata._op("26.3.1"): "operator"},
    {askdata._op("26.3.1"): "operator", askbatch.padded((580, 82, 7), kind="driver"): "driver",
     askbatch.component_token("device-plugin"): "component-device-plugin"},
    {askbatch.component_token("device-plugin"): "component-device-plugin", "7000001": "mig_gpus", "x": "y"},
])
def test_a_text_without_any_sentinel_s_mark_is_passed_over_and_every_other_filled(sentinels):
    """`_filler` passes over a text that lacks every character of its marks (each sentinel holds one): the same
    result as replacing every sentinel, for texts with none, one, several, and look-alikes of a sentinel."""
    fill = askbatch._filler(sentinels)
    texts = ["", "plain words", "A100 80GB", "0", "26.3.1", "a 0026 b", "\ue002", "\ue003x"]
    for sentinel in sentinels:
        texts += [sentinel, f"v{sentinel}.", sentinel * 2, sentinel[:-1], sentinel[1:], f"{sentinel} and {sentinel[:3]}"]
    texts.append(" ".join(sentinels))
    for text in texts:
        assert fill(text) == _replaced(text, sentinels), text
    assert askbatch._filler(dict(sentinels)) is fill  # (one filler per set of sentinels)


def test_matchable_tests_a_fact_against_the_conditions_of_its_kind_as_against_all():
    """askbatch.matchable looks only at the conditions requiring the fact's kind and those requiring none: the same
    verdict as testing every condition (the plain way), for every fact the real rules' questions build here and for
    made-up facts of a kind no rule names, without a kind, and a condition without a kind."""
    from kb.engine.syntax import required_constants
    from kb.questions import known_issues

    rules = load_rules()
    extra = {"id": "X-1", "when": [("f", {"$and": [{"trigger": "read-by-no-rule"}, {"status": "affected"}]})]}
    facts = [{"kind": "known_issue", "trigger": "read-by-no-rule", "status": "affected"},
             {"kind": "known_issue", "trigger": "read-by-no-rule", "status": "unaffected"},
             {"kind": "nothing-reads-me", "trigger": "read-by-no-rule", "status": "affected"},
             {"trigger": "read-by-no-rule", "status": "affected"}, {"kind": "method", "method": "mps"},
             {"kind": "known_issue", "trigger": "mig-backed-vgpu", "status": "affected", "card_affected": True}]
    facts += known_issues.facts(load_data(), operator="25.3.2", driver="570.148.08", card=CARD)
    for question in ("mig", "methods", "strategy"):
        for extra_rules in ([], [extra]):
            rules_of = [*rules[question], *extra_rules]
            test = askbatch.matchable(rules_of)
            required = [required_constants(c) for r in rules_of for _a, c in r["when"]]
            for fact in facts:
                plain = any(all(fact.get(k, object()) == v for k, v in req.items()) for req in required)
                assert test(fact) == plain, (question, extra_rules, fact)
    assert askbatch.matchable([extra])(facts[2]) and not askbatch.matchable(rules["methods"])(facts[2])
