"""Which answers a change touches, through the same engine the CLI and the site use (kb.questions).

A change with a `patch` (a mechanical catalog edit: a card no longer listed, another driver minimum, …)
is applied to a copy of the catalog data and the answers of the affected cards are computed before and
after; those whose verdict, fired rules or (for `methods`) a method's verdict differ are reported ("before →
after", rules added/removed, `methods_changed`). A change without a patch (a quote
gone) lists the current answers whose reasons cite that quote: they need a look.

Within a process the unpatched answers of a catalog and rule base (both known by content: the compiled
catalog's hash, the rule sets' keys) are computed once, and so are the answers a patch changes: a process
that checks many documents against one catalog (`sources check`, kb.drift.replay, the test suite) answers
the matrix once instead of once per document. Both are forgotten with the engine's memo (kb.engine.forget),
which the patched answers' citations are read through.
"""

from __future__ import annotations

import copy
import hashlib
import json
import pickle

from kb.drift.compare import Change


def attach(data: dict, changes: list[Change], *, engine: str = "durable") -> list[str]:
    """Set `change.answers` on every change: [{question, inputs, before, after?, …, summary}]. A question
    whose answers cannot be computed is left out and named in the returned messages."""
    if not changes or not data.get("cards"):
        return []
    key = _memo_key(data, engine)
    current, errors = _baseline(data, engine, key)
    errors = list(errors)
    try:
        readers = _readers()
    except Exception as exc:  # noqa: BLE001 — a broken rule base must not hide the drift
        readers, _ = [], errors.append(f"rules: {type(exc).__name__}: {exc}")
    citing = _CITING[1] if _CITING[0] is current else None
    for change in changes:
        change.read_by = _read_by(data, change.touches, readers)
        if change.patch:
            change.answers = _diff_once(data, change, current, engine, key)
        elif change.details.get("quote") or change.details.get("quotes"):
            if citing is None:
                citing = _citing(current)
                _CITING[:] = [current, citing]
            change.answers = _relying(change, current, citing)
    return errors


#: the unpatched answers of the last catalog and rule base: (key, (answers by question, errors)); the answers a
#: patch changed, by (key, patch) — see the module's docstring
_BASELINE: list = [None, None]
_DIFFS: dict = {}
#: the index of the answers citing each quote (_citing) of the last baseline: [those answers, the index]
_CITING: list = [None, None]


def _memo_key(data: dict, engine: str):
    """What the answers depend on, by content: the compiled catalog's hash, the questions asked and their rule
    sets' keys, the engine and the engine memo's epoch; None (nothing remembered) for data or rules without a
    content key."""
    import importlib

    from kb import questions
    from kb.engine.rules import rule_base

    epoch = importlib.import_module("kb.engine.conclude").EPOCH  # (kb.engine.conclude is also a function's name)

    if not data.get("hash"):
        return None
    try:
        rules, problems = rule_base()
    except Exception:  # noqa: BLE001 — computed (and reported) without the memo
        return None
    sets = []
    for q in questions.questions():
        rule_set = rules.get(q)
        if rule_set is not None and getattr(rule_set, "key", None) is None:
            return None
        sets.append((q, None if rule_set is None else rule_set.key, bool(problems.get(q))))
    return (data["hash"], engine, tuple(sets), epoch)


def _baseline(data: dict, engine: str, key) -> tuple[dict, list]:
    """The unpatched answers of every question's matrix and the questions that could not be answered."""
    if key is not None and _BASELINE[0] == key:
        return _BASELINE[1]
    from kb import questions

    before = questions.Asker(data, engine=engine)
    current, errors = {}, []
    for q in questions.questions():
        try:
            current[q] = before.answer_many(q, questions.module(q).defaults(before.index))
        except Exception as exc:  # noqa: BLE001 — one broken question must not hide the others or the drift
            errors.append(f"{q}: {type(exc).__name__}: {exc}")
    if key is not None:
        _BASELINE[:] = [key, (current, errors)]
        _DIFFS.clear()
    return current, errors


def _diff_once(data: dict, change: Change, current: dict, engine: str, key) -> list[dict]:
    if key is None:
        return _diff(data, change, current, engine)
    import json

    patch_key = (key, json.dumps(change.patch, sort_keys=True, default=repr))
    found = _DIFFS.get(patch_key)
    if found is None:
        if len(_DIFFS) > 256:
            _DIFFS.clear()
        found = _DIFFS[patch_key] = pickle.dumps(_diff(data, change, current, engine))
    return pickle.loads(found)  # a copy of its own for each change (as copy.deepcopy gave, in a fraction of the time)


def _readers() -> list[tuple[str, str, str, str]]:
    """(rule id, question, entity, path) of every catalog fact a rule cites ("cards/{card}", "operator_support.listed")."""
    from kb.catalog.facts import split_ref
    from kb.engine.rules import load_rules

    out = []
    for question, rules in load_rules().items():
        for rule in rules:
            for cite in rule.get("cites", []):
                entity, path = split_ref(cite.rstrip("?"))
                out.append((rule["id"], question, entity, path))
    return out


def _read_by(data: dict, touches: list[str], readers: list) -> list[dict]:
    """The rules that read a touched fact: the fact a rule cites (its placeholder filled with the touched
    entity) is the touched one, lies inside it, or holds it."""
    from kb.catalog.facts import FactError, resolve_ref, split_ref

    found = []
    for ref in touches:
        entity, path = split_ref(ref.replace(" ", "#", 1)) if "#" not in ref else split_ref(ref)
        try:
            node = resolve_ref(data, f"{entity}#{path}")
        except (FactError, KeyError, ValueError):
            continue
        kind, _, ident = entity.partition("/")
        for rid, question, cited_entity, cited_path in readers:
            ckind, _, cident = cited_entity.partition("/")
            if ckind != kind or (cident != ident and not (cident.startswith("{") and cident.endswith("}"))):
                continue
            try:
                cited = resolve_ref(data, f"{kind}/{ident}#{cited_path}")
            except (FactError, KeyError, ValueError):
                continue
            if _inside(cited, node) or _inside(node, cited):
                item = {"rule": rid, "question": question}
                if item not in found:
                    found.append(item)
    return sorted(found, key=lambda r: r["rule"])


def _inside(part, whole) -> bool:
    """Whether `part` is `whole` or an object somewhere inside it (dicts and lists only: equal small values are
    the same object in Python)."""
    if not isinstance(part, (dict, list)):
        return False
    if part is whole:
        return True
    if isinstance(whole, dict):
        return any(_inside(part, v) for v in whole.values())
    if isinstance(whole, list):
        return any(_inside(part, v) for v in whole)
    return False


def _affected(change: Change, inputs: dict) -> bool:
    cards = {p["entity"].split("/", 1)[1] for p in change.patch if p["entity"].startswith("cards/")}
    others = [p for p in change.patch if not p["entity"].startswith("cards/")]
    return bool(others) or inputs.get("card") in cards


def _rewords_only(patch: list[dict]) -> bool:
    """Whether every edit of `patch` lies inside a citation (a quote reworded): no question reads a citation
    into its facts or its answer's words — answers cite through the engine, which resolves a fact's citations
    once per catalog (kb.engine.conclude.resolve_cite, by the catalog's hash) — so no answer changes."""
    return bool(patch) and all("cite" in edit["path"] for edit in patch)


def _diff(data: dict, change: Change, current: dict, engine: str) -> list[dict]:
    from kb.questions import Asker

    if _rewords_only(change.patch):
        return []
    patched = apply(data, change.patch)
    after = Asker(patched, engine=engine)
    out = []
    for question, answers in current.items():
        todo = [a for a in answers if _affected(change, a["inputs"])]
        for old, new in zip(todo, after.answer_many(question, [a["inputs"] for a in todo])):
            rules_old, rules_new = _rules(old), _rules(new)
            methods = _methods_changed(old, new)
            if (old["verdict"] != new["verdict"] or rules_old != rules_new or methods
                    or _said(old) != _said(new)):
                item = {"question": question, "inputs": old["inputs"], "before": old["verdict"],
                        "after": new["verdict"], "rules_added": sorted(rules_new - rules_old),
                        "rules_removed": sorted(rules_old - rules_new), "summary": new["summary"]}
                if methods:
                    item["methods_changed"] = methods
                out.append(item)
    return out


def _methods_changed(old: dict, new: dict) -> dict[str, list[str]]:
    """Per-method verdicts of a methods answer (details.methods) that differ: {method: [before, after]}."""
    before = (old.get("details") or {}).get("methods") or {}
    after = (new.get("details") or {}).get("methods") or {}
    return {m: [before.get(m), after.get(m)] for m in sorted(set(before) | set(after)) if before.get(m) != after.get(m)}


def _said(answer: dict) -> tuple:
    """What an answer tells its reader besides the verdict: summary, conditions, reasons and the sources they
    cite. A quote's wording is left out: a reworded quote is its own finding (rank "reworded"), not a change of
    the answers citing it (see _rewords_only)."""
    return (answer.get("summary"), [c.get("text") for c in answer.get("conditions", [])],
            [(r.get("rule"), r.get("text"), [c.get("source") for c in r.get("citations", [])])
             for r in answer.get("reasons", [])])


def _rules(answer: dict) -> set[str]:
    return {r["rule"] for r in answer["reasons"]}


def _citing(current: dict) -> dict[tuple, list[tuple[int, int]]]:
    """(source, quote) → the current answers citing it, as (question's place, answer's place), in order."""
    out: dict[tuple, list[tuple[int, int]]] = {}
    for qi, answers in enumerate(current.values()):
        for ai, a in enumerate(answers):
            for r in a["reasons"]:
                for c in r["citations"]:
                    found = out.setdefault((c["source"], c.get("quote")), [])
                    if not found or found[-1] != (qi, ai):
                        found.append((qi, ai))
    return out


def _relying(change: Change, current: dict, citing: dict) -> list[dict]:
    """Current answers whose reasons cite the quote that is gone (`citing`: _citing(current))."""
    quotes = set(change.details.get("quotes", [])) | ({change.details["quote"]} if change.details.get("quote") else set())
    places = sorted({p for q in quotes for p in citing.get((change.source, q), ())})
    questions = list(current)
    out = []
    for qi, ai in places:
        question = questions[qi]
        a = current[question][ai]
        out.append({"question": question, "inputs": a["inputs"], "before": a["verdict"], "summary": a["summary"]})
    return out


def apply(data: dict, patch: list[dict]) -> dict:
    """A deep copy of the catalog data with the patch's values set. The copy gets a content key of its own
    (the catalog's hash and the patch's): the engine's memos of citations, conditions and disputes are kept per
    content key, and the copy's facts are not the catalog's."""
    try:  # plain data: pickle's C code copies it as copy.deepcopy would, in a fraction of the time
        out = pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        out = copy.deepcopy(data)
    if data.get("hash"):
        edits = json.dumps(patch, sort_keys=True, default=str).encode()
        out["hash"] = f"{data['hash']}+{hashlib.sha256(edits).hexdigest()[:16]}"
    for edit in patch:
        kind, ident = edit["entity"].split("/", 1)
        node = out[kind][ident]
        for key in edit["path"][:-1]:
            node = node[key]
        node[edit["path"][-1]] = edit["value"]
    return out
