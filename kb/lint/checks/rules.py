"""Every rule file is valid, and every fact its `cites` name resolves in the catalog.

A reference with a placeholder only in the entity's id (`cards/{card}#mig.status`) must resolve for at least
one entity of that kind; a reference with placeholders in its path gets its values from the matched facts
and is not checked here. Optional references (`…?`) are checked like the others: one that never resolves is
a typo, not an option.
"""

from __future__ import annotations

from dataclasses import replace

from kb.catalog.facts import KINDS, FactError, citations, resolve_ref, split_ref
from kb.catalog.yamlsafe import Problem
from kb.text import Text

CHECK = "rules"
TITLE = "rule files valid, their cites resolve"


def check(ctx):
    from kb.engine.rules import compile_rules
    from kb.errors import RuleBaseInvalid

    try:
        rules, invalid = compile_rules(ctx.rules)
    except RuleBaseInvalid as exc:  # no rules folder
        return [replace(p, kind=CHECK) for p in exc.problems]
    problems = [replace(p, kind=CHECK) for ps in invalid.values() for p in ps]
    for question in sorted(rules):
        for rule in rules[question]:
            bad = [(i, why) for i, ref in enumerate(rule["cites"]) if (why := unresolved(ctx.data, ref.rstrip("?")))]
            if bad:
                problems += _located(ctx.rules, rule["file"], bad)
    return sorted(problems, key=lambda p: (p.file, p.line or 0))


def unresolved(data: dict, ref: str) -> str | None:
    """Why `ref` names no cited fact of the catalog, or None where it does (or cannot be checked here)."""
    if "{" not in ref:
        return _why_not(data, ref)
    entity, path = split_ref(ref)
    kind, _, ident = entity.partition("/")
    one_placeholder = ident.startswith("{") and ident.endswith("}") and ident.count("{") == 1
    if "{" in path or kind not in KINDS or not one_placeholder:
        return None
    if not data[kind]:
        return f"{ref}: the catalog has no {kind}"
    reasons = [_why_not(data, f"{kind}/{other}#{path}") for other in sorted(data[kind])]
    if all(reasons):
        return f"{ref} resolves for no {kind[:-1]} (e.g. {reasons[0]})"
    return None


def _why_not(data: dict, ref: str) -> str | None:
    try:
        node = resolve_ref(data, ref)
    except FactError as exc:
        return str(exc)
    return None if citations(data, node) else f"{ref}: not a cited fact"


def _located(root, file: str, bad: list[tuple[int, str]]) -> list[Problem]:
    """Problems at the lines of the rule's `cites` entries (the file is read again only for these)."""
    from kb.catalog.yamlsafe import read_yaml

    doc, _ = read_yaml(root / file.removeprefix("rules/"), display=file)
    return [Problem(file, doc.line_of(("cites", i)) if doc else None, f"cites[{i}]",
                    Text(why, f"der Beleg führt zu keinem belegten Fakt des Katalogs ({why})"), kind=CHECK)
            for i, why in bad]
