"""A plain-Python evaluator of the rule files: the test oracle for the durable-rules adapter.

It reads the same compiled rules (kb.engine.rules) and implements the subset of durable-rules'
JSON condition syntax the rule files may use, with durable's semantics as measured:
a missing property matches no comparison (not even $neq), a text and a number compare equal
when the text is that number, texts compare alphabetically, true equals 1, and one fact binds
to at most one name of a join (a join is every combination of distinct matching facts).
Facts of different queries never join.
"""

from __future__ import annotations

from kb.engine.syntax import required_kind

_MISSING = object()


def _num(v) -> bool:
    return isinstance(v, (int, float))


def _eq(a, b) -> bool:
    if _num(a) and _num(b):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    text, num = (a, b) if isinstance(a, str) else (b, a)
    if isinstance(text, str) and _num(num):
        try:
            return float(text) == num
        except ValueError:
            return False
    return False


_ORDER = {
    "$lt": lambda a, b: a < b, "$lte": lambda a, b: a <= b,
    "$gt": lambda a, b: a > b, "$gte": lambda a, b: a >= b,
}


def _compare(op: str, a, b) -> bool:
    if op == "$neq":
        return not _eq(a, b)
    if (_num(a) and _num(b)) or (isinstance(a, str) and isinstance(b, str)):
        return _ORDER[op](a, b)
    return False


def matches(cond: dict, fact: dict, binding: dict) -> bool:
    """Does `fact` satisfy `cond`, given the facts bound to the rule's earlier names?"""
    (key, value), = cond.items()
    if key == "$and":
        return all(matches(c, fact, binding) for c in value)
    if key == "$or":
        return any(matches(c, fact, binding) for c in value)
    if key in ("$ex", "$nex"):
        (prop, _), = value.items()
        return (prop in fact) == (key == "$ex")
    if key.startswith("$"):
        (prop, operand), = value.items()
        a = fact.get(prop, _MISSING)
        return a is not _MISSING and _compare(key, a, operand)
    a = fact.get(key, _MISSING)
    if isinstance(value, dict):  # {alias: property}: equals that property of an earlier fact
        (alias, prop), = value.items()
        value = binding[alias].get(prop, _MISSING)
    return a is not _MISSING and value is not _MISSING and _eq(a, value)


def fire(rules: list[dict], fact_lists: list[list[dict]]) -> list[list[tuple[str, tuple]]]:
    """For each query (a list of facts): (rule id, positions of the matched facts) of every firing."""
    results = []
    for facts in fact_lists:
        by_kind: dict = {}  # a condition naming a kind is tried on the facts of that kind only (every fact has one)
        for i, fact in enumerate(facts):
            by_kind.setdefault(fact.get("kind"), []).append(i)
        everything = range(len(facts))
        fired = []
        for rule in rules:
            tried = [everything if k is None else by_kind.get(k, ()) for k in map(required_kind, rule["when"])]
            for combo in _combinations(rule["when"], facts, tried, 0, (), {}):
                fired.append((rule["id"], combo))
        results.append(fired)
    return results


def _combinations(when: list, facts: list[dict], tried: list, depth: int, used: tuple, binding: dict):
    """Every way to bind distinct matching facts to the rule's names (a join is all combinations); `tried`: per
    name, the positions of the facts that may match it, in order."""
    if depth == len(when):
        yield used
        return
    alias, cond = when[depth]
    for i in tried[depth]:
        fact = facts[i]
        if i not in used and matches(cond, fact, binding):
            binding[alias] = fact
            yield from _combinations(when, facts, tried, depth + 1, used + (i,), binding)
            del binding[alias]
