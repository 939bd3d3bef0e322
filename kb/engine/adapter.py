"""The only module that imports durable-rules.

durable-rules 2.0.28 bites (../shared/notes/durable-rules.md, and what we measured here); this
adapter defends against it:
- a private Host whose background timer threads never start; rulesets are registered explicitly,
  under a fresh name whenever the rules change (a name cannot be registered twice);
- every session (sid) is deleted after use; a marker fact with its own rule runs an action first in
  every session, because deleting a session in which no action ran crashes the process;
- a catch-all join that never completes makes every fact "handled", so a fact no rule matches does
  not raise MessageNotHandledException;
- actions only record what matched; conclusions are built in Python afterwards, so nothing is lost
  in an action and nothing is asserted from one; the state is checked for a swallowed exception
  after every assert and an EngineFailure raised;
- rules never compare two facts' properties: such references crashed the process here (SIGSEGV in
  assert_fact, reproduced with 30 or more rules in a ruleset), so kb.engine.rules rejects them;
- the facts of a session go in as one batch (the catch-all rule keeps a batch from failing on a
  fact no rule matches);
- a ruleset whose rules are all single-fact runs many queries in one session, in chunks far below
  the ~36,000 facts where durable's 32-bit fact hashes were seen to collide (a collision raises
  MessageObservedException: the chunk is split and retried); a ruleset with joins gets one session
  per query, so facts of different queries never join.
Works on Python 3.11 and 3.12 only: the released durable-rules does not import on 3.13.
"""

from __future__ import annotations

import itertools

from durable import engine as _durable

from kb.errors import EngineFailure

MARKER = "$marker"
SEEN = "$seen"
#: facts per session when queries share one
CHUNK_FACTS = 3000


class _Host(_durable.Host):
    """A durable Host without the background dispatch threads of the global one."""

    def _run(self):
        return None


class DurableEngine:
    """Runs compiled rules (kb.engine.rules) through durable-rules."""

    def __init__(self):
        self._host = _Host()
        self._registered: dict[str, str] = {}  # kb.engine.ruleset_key of the rules -> ruleset name
        self._by_object: dict = {}  # id of a rules list -> (that list, question, ruleset name)
        self._names = itertools.count(1)
        self._sids = itertools.count(1)
        self._fired: list = []

    def _action(self, rule_id: str):
        fired = self._fired

        def action(c):  # exactly one parameter: durable treats two as asynchronous
            fired.append((rule_id, c._m))

        return action

    def _ruleset(self, question: str, rules: list[dict]) -> str:
        known = self._by_object.get(id(rules))  # the same rules object again: no need to serialise it
        if known is not None and known[0] is rules and known[1] == question:
            return known[2]
        from kb.engine import ruleset_key

        key = ruleset_key(question, rules)
        name = self._registered.get(key)
        if name is None:
            name = f"{question}.{next(self._names)}"
            definition = {f"r{i}": {"all": [{alias: cond} for alias, cond in rule["when"]],
                                    "run": self._action(rule["id"])} for i, rule in enumerate(rules)}
            definition[MARKER] = {"all": [{"m": {"kind": MARKER}}], "run": self._action(MARKER)}
            definition[SEEN] = {"all": [{"m": {"$ex": {"kind": 1}}}, {"n": {"kind": "$never"}}],
                                "run": self._action(SEEN)}
            try:
                self._host.register_rulesets({name: definition})
            except Exception as exc:  # durable_rules_engine.error carries only a code
                raise EngineFailure(f"durable-rules rejected the rules of {question!r}: {exc}") from exc
            self._registered[key] = name
        if len(self._by_object) > 256:
            self._by_object.clear()
        self._by_object[id(rules)] = (rules, question, name)  # held: its id is not reused meanwhile
        return name

    def fire(self, question: str, rules: list[dict], fact_lists: list[list[dict]]) -> list[list[tuple[str, tuple]]]:
        """For each query: (rule id, positions of the matched facts in the query) of every firing."""
        name = self._ruleset(question, rules)
        order = {rule["id"]: [alias for alias, _ in rule["when"]] for rule in rules}
        results: list[list] = [[] for _ in fact_lists]
        if any(len(aliases) > 1 for aliases in order.values()):
            chunks = [[qi] for qi in range(len(fact_lists))]
        else:
            chunks, size = [[]], 0
            for qi, facts in enumerate(fact_lists):
                if chunks[-1] and size + len(facts) > CHUNK_FACTS:
                    chunks.append([])
                    size = 0
                chunks[-1].append(qi)
                size += len(facts)
        for chunk in chunks:
            if chunk:
                self._run_chunk(name, chunk, fact_lists, results, order)
        return results

    def _run_chunk(self, name, chunk, fact_lists, results, order) -> None:
        try:
            fired = self._session(name, [(qi, fact_lists[qi]) for qi in chunk])
        except _durable.MessageObservedException as exc:
            if len(chunk) == 1:
                raise EngineFailure(f"durable-rules saw a fact twice in one query ({exc.message[:300]}); "
                                    "facts of one query must differ") from None
            half = len(chunk) // 2
            self._run_chunk(name, chunk[:half], fact_lists, results, order)
            self._run_chunk(name, chunk[half:], fact_lists, results, order)
            return
        for rule_id, matched in fired:
            aliases = order[rule_id]
            results[matched[aliases[0]]["q"]].append((rule_id, tuple(matched[a]["fi"] for a in aliases)))

    def _session(self, name: str, queries: list[tuple[int, list[dict]]]) -> list:
        sid = str(next(self._sids))
        self._fired.clear()
        try:
            _check_state(self._host.assert_fact(name, {"kind": MARKER, "sid": sid}), name)
            if not self._fired:
                raise EngineFailure(f"durable-rules ran no action for the marker fact of {name}")
            batch = [dict(fact, q=qi, fi=fi, sid=sid) for qi, facts in queries for fi, fact in enumerate(facts)]
            if batch:
                _check_state(self._host.assert_facts(name, batch), name)
            _check_state(self._host.get_state(name, sid), name)
            return [(rid, matched) for rid, matched in self._fired if rid not in (MARKER, SEEN)]
        except _durable.MessageNotHandledException as exc:
            raise EngineFailure(f"durable-rules could not handle a fact: {exc.message[:300]}") from None
        except (_durable.MessageObservedException, EngineFailure):
            raise
        except Exception as exc:
            raise EngineFailure(f"durable-rules failed on {name}: {exc}") from exc
        finally:
            fired_any = bool(self._fired)
            self._fired.clear()
            if fired_any:  # only then is deleting the session safe (see the module docstring)
                self._host.delete_state(name, sid)


def _check_state(state, name: str) -> None:
    if isinstance(state, dict) and state.get("exception"):
        raise EngineFailure(f"an action of {name} failed inside durable-rules: {state['exception']}")
