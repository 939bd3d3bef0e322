"""The rule engine: runs the rule files of one question on facts and returns the fired conclusions.

    evaluate(question, facts, engine="durable")        -> [conclusion, …]   (one query)
    evaluate_many(question, [facts, …], engine=…)      -> [[conclusion, …], …]
    fire(question, [facts, …], engine=…)               -> [[(rule id, matched facts), …], …]

durable-rules is imported only by kb.engine.adapter, and only when engine="durable" runs;
engine="reference" uses the plain-Python evaluator (kb.engine.reference), the test oracle.

Within a process, durable-rules runs once per distinct *engine input*: which rules fire on which facts
depends only on the properties the rules' conditions read (conditions compare a property with a constant or
test that it exists; kb.engine.rules refuses references between facts), and a condition that requires a kind
reads only facts of that kind. So the queries of one rule set are keyed by their facts projected on what the
conditions read of each fact's kind (`kind_reads`, `projection`), the first query of each key runs through
durable-rules and the others with the same key take its firings — the positions of the matched facts, which
are the same facts in every query of that key. Conclusions are then built from each query's own facts.
`STATS` counts the queries and the durable-rules evaluations (scripts/bench prints both). The reference
evaluator is never memoised: it stays an independent oracle of what the durable path answers.
"""

from __future__ import annotations

from kb.engine.conclude import conclude_many
from kb.engine.syntax import RESERVED, required_kind
from kb.errors import EngineFailure

ENGINES = ("durable", "reference")
_DURABLE = None
#: queries answered and durable-rules evaluations run in this process (distinct engine inputs)
STATS = {"queries": 0, "evaluations": 0}
#: firings by (rule set, projection of a query's facts); cleared when it grows past MEMO_LIMIT
_FIRED: dict = {}
MEMO_LIMIT = 200_000
#: per rule set (held, so its id is not reused): its key and the properties its conditions read
_READS: dict = {}


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


_VALUE_TYPES = frozenset((str, int, float, bool))
_RESERVED = frozenset(RESERVED)


class SharedFact(dict):
    """A fact built once and handed to every query that holds it (a release's behaviour facts: every question about
    the release), so that `fire` checks and projects it once per call. It refuses changes (TypeError): a caller that
    wants another fact copies it (`dict(fact)`, `{**fact, …}`); copies, pickles and JSON are those of a dict."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError(f"a shared fact is read-only (copy it to change it): {dict(self)!r}")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return (SharedFact, (dict(self),))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def check_facts(facts: list[dict], keys: dict | None = None) -> list[dict]:
    """Facts are flat dicts with a `kind`; values text, number or true/false. Identical facts count once:
    equal properties with values of the same types (true is not 1, 1 is not 1.0). `keys`: id of a fact → its key,
    kept by the caller for facts that cannot change meanwhile (`fire`: one call's lists), each checked once."""
    facts = facts if type(facts) is list else list(facts)
    # (keys of this call's own where none are kept: the list holds its facts, so no id is reused meanwhile)
    found = per_fact(facts, {} if keys is None else keys, _checked_key)
    if len(set(found)) == len(found):  # no two facts with equal values: every one counts
        return facts[:]
    out, seen = [], {}
    for fact, key in zip(facts, found):
        twins = seen.get(key)
        if twins is None:
            seen[key] = [fact]
        elif any(_identity(twin) == _identity(fact) for twin in twins):
            continue
        else:
            twins.append(fact)
        out.append(fact)
    return out


def per_fact(facts: list, memo: dict, make) -> list:
    """[memo[id(f)] for f in facts], where missing made by `make(f)` and kept in `memo` (id of a fact → its value,
    kept by the caller for facts that cannot change meanwhile). The facts the memo has are found in C: most are,
    such as a release's behaviour facts in every query about it; a fact twice in the list is made at its first place."""
    out = list(map(memo.get, map(id, facts)))
    i = -1
    while None in out:
        i = out.index(None, i + 1)
        fact = facts[i]
        value = memo.get(id(fact))
        if value is None:
            value = memo[id(fact)] = make(fact)
        out[i] = value
    return out


def _checked_key(fact) -> frozenset:
    """The key of a fact that is one (else EngineFailure): equal values (1 == 1.0 == True) share a key, built in C;
    `check_facts` compares the types only on a match."""
    if not isinstance(fact, dict) or not isinstance(fact.get("kind"), str):
        raise EngineFailure(f"a fact must be a mapping with a 'kind': {fact!r}")
    if not _RESERVED.isdisjoint(fact) or not _VALUE_TYPES.issuperset(map(type, fact.values())):
        _check_values(fact)
    return frozenset(fact.items())


def _check_values(fact: dict) -> None:
    for key, value in fact.items():
        if key in RESERVED:
            raise EngineFailure(f"fact property {key!r} is reserved for the engine: {fact!r}")
        if not isinstance(value, (str, int, float, bool)):
            raise EngineFailure(f"fact property {key!r} must be text, a number or true/false: {fact!r}")


def _identity(fact: dict) -> frozenset:
    """Equal for facts with the same properties and values of the same types (true is not 1)."""
    return frozenset((k, v.__class__, v) for k, v in fact.items())


def kind_reads(rules: list[dict]) -> tuple[dict[str, tuple], tuple] | None:
    """What the conditions of `rules` can see of a fact, by its kind: ({kind: properties}, properties of a fact of
    a kind no condition names), each in a fixed order with "kind" first. A condition that requires a kind
    (kb.engine.syntax.required_kind) never matches a fact of another kind, whatever else that fact holds, so it
    reads its properties of that kind's facts only. None where a condition refers to another fact's property (then a
    query's firings depend on more than its facts' own values: not memoised)."""
    named: dict[str, set] = {}
    everywhere = {"kind"}
    for rule in rules:
        for alias_cond in rule["when"]:
            cond = alias_cond[1]
            props: set = set()
            if not isinstance(cond, dict) or len(cond) != 1 or not _walk(cond, props):
                return None
            kind = required_kind(alias_cond)
            (everywhere if kind is None else named.setdefault(kind, set())).update(props)
    order = lambda props: ("kind", *sorted(props - {"kind"}))  # noqa: E731
    return {kind: order(props | everywhere) for kind, props in named.items()}, order(everywhere)


def _walk(cond: dict, found: set) -> bool:
    """Add the properties `cond` reads to `found`; False where it refers to another fact's property."""
    (key, value), = cond.items()
    if key in ("$and", "$or"):
        return all(_walk(c, found) for c in value)
    if key.startswith("$"):  # {"$lt": {prop: constant}}, {"$ex": {prop: 1}}
        if not isinstance(value, dict) or len(value) != 1 or isinstance(next(iter(value.values())), (dict, list)):
            return False
        found.add(next(iter(value)))
        return True
    if isinstance(value, (dict, list)):  # {prop: {alias: property}}: a reference
        return False
    found.add(key)
    return True


def projection(facts: list[dict], reads: tuple[dict[str, tuple], tuple], rows: dict | None = None) -> tuple:
    """What of each fact the conditions see (`reads` as `kind_reads` gives it): the values of the properties its
    kind's conditions read (the kind first; None where the fact has no such property — a fact's values are never
    None) and their types (true is not 1). `rows`: id of a fact → its row, kept by the caller for facts that cannot
    change meanwhile (`fire`: one call's lists, one rule set)."""
    return tuple(per_fact(facts, {} if rows is None else rows, lambda f: _row(f, reads)))


def _row(fact: dict, reads: tuple[dict[str, tuple], tuple]) -> tuple:
    values = tuple(map(fact.get, reads[0].get(fact["kind"], reads[1])))
    return values, tuple(map(type, values))


#: a number per distinct row (`projection`) the memo's keys were written with: a query's key is its rule set's and
#: the numbers of its facts' rows, quick to hash (equal rows, equal numbers: true is still not 1). Cleared with _FIRED
_ROWS: dict = {}


def _numbered(facts: list[dict], reads: tuple[dict[str, tuple], tuple], numbers: dict) -> tuple:
    """`projection(facts, reads)` with each row as its number in _ROWS; `numbers`: id of a fact → its number, kept by
    the caller for facts that cannot change meanwhile (`_fire`: one call's lists, one rule set)."""
    def number(fact: dict) -> int:
        row = _row(fact, reads)
        found = _ROWS.get(row)
        if found is None:
            found = _ROWS[row] = len(_ROWS)
        return found
    return tuple(per_fact(facts, numbers, number))


def ruleset_key(question: str, compiled: list[dict]) -> str:
    """Equal for equal rule sets of a question: the rule base cache's key where the rules carry one
    (kb.catalog.compiled.RuleList: the build's content key and the question — no serialising), else the rules
    as JSON."""
    key = getattr(compiled, "key", None)
    if key is not None:
        return f"{question}|{key}"
    import json

    return json.dumps([question, compiled], sort_keys=True)


def _rule_set(question: str, compiled: list[dict]) -> tuple[str, tuple | None]:
    entry = _READS.get(id(compiled))
    if entry is None or entry[0] is not compiled:
        if len(_READS) > 256:
            _READS.clear()
        entry = _READS[id(compiled)] = (compiled, ruleset_key(question, compiled), kind_reads(compiled))
    return entry[1], entry[2]


def _fire(question: str, compiled: list[dict], lists: list[list[dict]], engine: str) -> list:
    """Each query's firings, sorted: [(rule id, positions of the matched facts), …] (lists the memo may hold:
    not for the caller to change)."""
    backend = _backend(engine)
    STATS["queries"] += len(lists)
    if engine != "durable":
        return [sorted(fired) for fired in backend(question, compiled, lists)]
    key, reads = _rule_set(question, compiled)
    if reads is None:
        STATS["evaluations"] += len(lists)
        return [sorted(fired) for fired in backend(question, compiled, lists)]
    if len(_FIRED) > MEMO_LIMIT or len(_ROWS) > MEMO_LIMIT:  # (before any key is written: the numbers start again)
        _FIRED.clear()
        _ROWS.clear()
    numbers: dict = {}  # (a fact in several lists, such as a release's behaviour facts, projected once)
    keys = [(key, _numbered(facts, reads, numbers)) for facts in lists]
    out = list(map(_FIRED.get, keys))
    if None in out:
        todo: dict = {}
        for k, facts, found in zip(keys, lists, out):
            if found is None and k not in todo:
                todo[k] = facts
        ran = dict(zip(todo, map(sorted, backend(question, compiled, list(todo.values())))))
        STATS["evaluations"] += len(ran)
        _FIRED.update(ran)
        out = [found if found is not None else ran[k] for k, found in zip(keys, out)]
    return out


def forget() -> None:
    """Forget the memoised firings and conclusions (as a new process would; the rule sets durable-rules has
    registered stay registered)."""
    from kb.engine.conclude import forget as forget_conclusions

    _FIRED.clear()
    _ROWS.clear()
    _READS.clear()
    forget_conclusions()


def fire(question: str, fact_lists: list[list[dict]], *, engine: str = "durable", rules=None) -> list[list[tuple]]:
    """Raw firings per query, sorted: [(rule id, (matched fact, …)), …]."""
    compiled = rules_for(question, rules)
    # a fact object in several lists (a release's behaviour facts are in every query about the release) is checked and
    # projected once: during this call no fact can change (`fact_lists` holds them all, so no id is reused either)
    keys: dict = {}
    lists = [check_facts(facts, keys) for facts in fact_lists]
    results = _fire(question, compiled, lists, engine)
    return [[(rid, tuple(map(facts.__getitem__, positions))) for rid, positions in fired]
            for facts, fired in zip(lists, results)]


def evaluate_many(question: str, fact_lists: list[list[dict]], *, engine: str = "durable",
                  data: dict | None = None, rules=None, cited: bool = True) -> list[list[dict]]:
    """Conclusions for many queries of one question (one engine session per chunk of queries); `cited=False`:
    without citations and disputes (for a question that reads only another's verdict and details)."""
    if data is None:
        from kb.catalog.compiled import load_data

        data = load_data()
    compiled = rules_for(question, rules)
    return conclude_many({r["id"]: r for r in compiled}, fire(question, fact_lists, engine=engine, rules={question: compiled}),
                         data, cited)


def evaluate(question: str, facts: list[dict], *, engine: str = "durable", data: dict | None = None,
             rules=None) -> list[dict]:
    """Run the rules of `question` on `facts` in one fresh session; the fired conclusions, sorted by rule.

    Each conclusion: rule, verdict or severity, text {en, de}, condition {en, de} or None, details,
    cites (resolved citation dicts {source, title, url, section, quote}), facts (the matched facts).
    """
    return evaluate_many(question, [facts], engine=engine, data=data, rules=rules)[0]


__all__ = ["ENGINES", "EngineFailure", "SharedFact", "evaluate", "evaluate_many", "fire", "rules_for", "check_facts",
           "ruleset_key"]
