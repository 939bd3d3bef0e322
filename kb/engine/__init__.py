"""The rule engine: runs the rule files of one question on facts and returns the fired conclusions.

    evaluate(question, facts, engine="durable")        -> [conclusion, …]   (one query)
    evaluate_many(question, [facts, …], engine=…)      -> [[conclusion, …], …]
    fire(question, [facts, …], engine=…)               -> [[(rule id, matched facts), …], …]

durable-rules is imported only by kb.engine.adapter, and only when engine="durable" runs;
engine="reference" uses the plain-Python evaluator (kb.engine.reference), the test oracle.
"""

from __future__ import annotations

from kb.engine.conclude import conclude
from kb.engine.syntax import RESERVED
from kb.errors import EngineFailure

ENGINES = ("durable", "reference")
_DURABLE = None


def _backend(engine: str):
    global _DURABLE
    if engine == "reference":
        from kb.engine import reference

        return lambda question, rules, fact_lists: reference.fire(rules, fact_lists)
    if engine == "durable":
        if _DURABLE is None:
            from kb.engine.adapter import DurableEngine

            _DURABLE = DurableEngine()
        return _DURABLE.fire
    raise EngineFailure(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")


def rules_for(question: str, rules=None) -> list[dict]:
    """The compiled rules of `question` (from `rules`, {question: [...]}, or the rule base in use)."""
    if rules is None:
        from kb.engine.rules import question_rules, rule_base

        found, known = question_rules(question), rule_base()[0]
    else:
        found, known = rules.get(question), rules
    if not found:
        raise EngineFailure(f"no rules for question {question!r}; known: {', '.join(sorted(known))}")
    return found


def check_facts(facts: list[dict]) -> list[dict]:
    """Facts are flat dicts with a `kind`; values text, number or true/false. Identical facts count once."""
    out, seen = [], set()
    for fact in facts:
        if not isinstance(fact, dict) or not isinstance(fact.get("kind"), str):
            raise EngineFailure(f"a fact must be a mapping with a 'kind': {fact!r}")
        for key, value in fact.items():
            if key in RESERVED:
                raise EngineFailure(f"fact property {key!r} is reserved for the engine: {fact!r}")
            if not isinstance(value, (str, int, float, bool)):
                raise EngineFailure(f"fact property {key!r} must be text, a number or true/false: {fact!r}")
        key = _identity(fact)
        if key not in seen:
            seen.add(key)
            out.append(fact)
    return out


def _identity(fact: dict) -> tuple:
    return tuple(sorted((k, type(v).__name__, v) for k, v in fact.items()))


def fire(question: str, fact_lists: list[list[dict]], *, engine: str = "durable", rules=None) -> list[list[tuple]]:
    """Raw firings per query, sorted: [(rule id, (matched fact, …)), …]."""
    compiled = rules_for(question, rules)
    lists = [check_facts(facts) for facts in fact_lists]
    results = _backend(engine)(question, compiled, lists)
    return [[(rid, tuple(facts[i] for i in positions)) for rid, positions in sorted(fired)]
            for facts, fired in zip(lists, results)]


def evaluate_many(question: str, fact_lists: list[list[dict]], *, engine: str = "durable",
                  data: dict | None = None, rules=None) -> list[list[dict]]:
    """Conclusions for many queries of one question (one engine session per chunk of queries)."""
    if data is None:
        from kb.catalog.compiled import load_data

        data = load_data()
    compiled = rules_for(question, rules)
    by_id = {r["id"]: r for r in compiled}
    return [[conclude(by_id[rid], facts, data) for rid, facts in fired]
            for fired in fire(question, fact_lists, engine=engine, rules={question: compiled})]


def evaluate(question: str, facts: list[dict], *, engine: str = "durable", data: dict | None = None,
             rules=None) -> list[dict]:
    """Run the rules of `question` on `facts` in one fresh session; the fired conclusions, sorted by rule.

    Each conclusion: rule, verdict or severity, text {en, de}, condition {en, de} or None, details,
    cites (resolved citation dicts {source, title, url, section, quote}), facts (the matched facts).
    """
    return evaluate_many(question, [facts], engine=engine, data=data, rules=rules)[0]


__all__ = ["ENGINES", "EngineFailure", "evaluate", "evaluate_many", "fire", "rules_for", "check_facts"]
