"""A plain-Python evaluator of the rule files: the test oracle for the durable-rules adapter.

It reads the same compiled rules (kb.engine.rules) and implements the subset of durable-rules'
JSON condition syntax the rule files may use, with durable's semantics as measured:
a missing property matches no comparison (not even $neq), a text and a number compare equal
when the text is that number, texts compare alphabetically, true equals 1, and one fact binds
to at most one name of a join. Facts of different queries never join.
"""

from __future__ import annotations

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


def _operand(value, binding: dict):
    if isinstance(value, dict):
        (alias, prop), = value.items()
        return binding[alias].get(prop, _MISSING)
    return value


def matches(cond: dict, fact: dict, binding: dict) -> bool:
    """Does `fact` satisfy `cond`, given the facts already bound to earlier names?"""
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
        a, b = fact.get(prop, _MISSING), _operand(operand, binding)
        return a is not _MISSING and b is not _MISSING and _compare(key, a, b)
    a, b = fact.get(key, _MISSING), _operand(value, binding)
    return a is not _MISSING and b is not _MISSING and _eq(a, b)


def fire(rules: list[dict], fact_lists: list[list[dict]]) -> list[list[tuple[str, tuple]]]:
    """For each query (a list of facts): the (rule id, matched facts) of every firing."""
    results = []
    for facts in fact_lists:
        fired = []
        for rule in rules:
            for combo in _bindings(rule["when"], facts, 0, {}, ()):
                fired.append((rule["id"], combo))
        results.append(fired)
    return results


def _bindings(when: list, facts: list[dict], depth: int, binding: dict, used: tuple):
    if depth == len(when):
        yield tuple(binding[alias] for alias, _ in when)
        return
    alias, cond = when[depth]
    for i, fact in enumerate(facts):
        if i in used or not matches(cond, fact, binding):
            continue
        binding[alias] = fact
        yield from _bindings(when, facts, depth + 1, binding, used + (i,))
        del binding[alias]
