"""Which answers a change touches, through the same engine the CLI and the site use (kb.questions).

A change with a `patch` (a mechanical catalog edit: a card no longer listed, another driver minimum, …)
is applied to a copy of the catalog data and the answers of the affected cards are computed before and
after; those whose verdict, fired rules or (for `methods`) a method's verdict differ are reported ("before →
after", rules added/removed, `methods_changed`). A change without a patch (a quote
gone) lists the current answers whose reasons cite that quote: they need a look.
"""

from __future__ import annotations

import copy

from kb.drift.compare import Change


def attach(data: dict, changes: list[Change], *, engine: str = "durable") -> list[str]:
    """Set `change.answers` on every change: [{question, inputs, before, after?, …, summary}]. A question
    whose answers cannot be computed is left out and named in the returned messages."""
    if not changes or not data.get("cards"):
        return []
    from kb import questions

    before = questions.Asker(data, engine=engine)
    current, errors = {}, []
    for q in questions.QUESTIONS:
        try:
            current[q] = before.answer_many(q, questions.module(q).defaults(before.index))
        except Exception as exc:  # noqa: BLE001 — one broken question must not hide the others or the drift
            errors.append(f"{q}: {type(exc).__name__}: {exc}")
    for change in changes:
        if change.patch:
            change.answers = _diff(data, change, current, engine)
        elif change.details.get("quote") or change.details.get("quotes"):
            change.answers = _relying(change, current)
    return errors


def _affected(change: Change, inputs: dict) -> bool:
    cards = {p["entity"].split("/", 1)[1] for p in change.patch if p["entity"].startswith("cards/")}
    others = [p for p in change.patch if not p["entity"].startswith("cards/")]
    return bool(others) or inputs.get("card") in cards


def _diff(data: dict, change: Change, current: dict, engine: str) -> list[dict]:
    from kb.questions import Asker

    patched = apply(data, change.patch)
    after = Asker(patched, engine=engine)
    out = []
    for question, answers in current.items():
        todo = [a for a in answers if _affected(change, a["inputs"])]
        for old, new in zip(todo, after.answer_many(question, [a["inputs"] for a in todo])):
            rules_old, rules_new = _rules(old), _rules(new)
            methods = _methods_changed(old, new)
            if old["verdict"] != new["verdict"] or rules_old != rules_new or methods:
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


def _rules(answer: dict) -> set[str]:
    return {r["rule"] for r in answer["reasons"]}


def _relying(change: Change, current: dict) -> list[dict]:
    """Current answers whose reasons cite the quote that is gone."""
    quotes = set(change.details.get("quotes", [])) | ({change.details["quote"]} if change.details.get("quote") else set())
    out = []
    for question, answers in current.items():
        for a in answers:
            cited = [c for r in a["reasons"] for c in r["citations"]]
            if any(c["source"] == change.source and c["quote"] in quotes for c in cited):
                out.append({"question": question, "inputs": a["inputs"], "before": a["verdict"],
                            "summary": a["summary"]})
    return out


def apply(data: dict, patch: list[dict]) -> dict:
    """A deep copy of the catalog data with the patch's values set."""
    out = copy.deepcopy(data)
    for edit in patch:
        kind, ident = edit["entity"].split("/", 1)
        node = out[kind][ident]
        for key in edit["path"][:-1]:
            node = node[key]
        node[edit["path"][-1]] = edit["value"]
    return out
