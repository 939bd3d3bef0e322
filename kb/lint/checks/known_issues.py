"""Every known issue with a version range is read by a rule: a `known_issue` fact built from it (as affected,
on an affected card) must satisfy the conditions some rule places on a `known_issue` fact. Data that no rule
reads is a known issue no answer and no check finding ever mentions."""

from __future__ import annotations

from kb.engine.reference import matches

CHECK = "known_issues"
TITLE = "every known issue is read by a rule"


def _alone(cond: dict, fact: dict) -> bool:
    """`cond` on `fact` alone: comparisons with an earlier fact of the rule (joins) are taken as met."""
    (key, value), = cond.items()
    if key == "$and":
        return all(_alone(c, fact) for c in value)
    if key == "$or":
        return any(_alone(c, fact) for c in value)
    if not key.startswith("$") and isinstance(value, dict):
        return True
    return matches(cond, fact, {})


def readers(rules: dict, fact: dict) -> list[str]:
    """Ids of the rules (any question, checks included) with a condition on a known_issue fact that `fact` meets."""
    return sorted(r["id"] for question in rules.values() for r in question
                  if any(cond_kind(cond) == "known_issue" and _alone(cond, fact) for _, cond in r["when"]))


def cond_kind(cond: dict) -> str | None:
    """The constant `kind` a condition requires, if any."""
    (key, value), = cond.items()
    if key == "kind" and isinstance(value, str):
        return value
    if key == "$and":
        return next((k for c in value if (k := cond_kind(c))), None)
    return None


def check(ctx):
    from kb.engine.rules import compile_rules
    from kb.errors import RuleBaseInvalid
    from kb.questions.known_issues import all_issues, fact

    try:
        rules, _ = compile_rules(ctx.rules)
    except RuleBaseInvalid:  # no rules folder: the `rules` check reports it
        return []
    problems = []
    data = ctx.data
    for file, issue in all_issues(data):
        probe = fact(data, file, issue)
        probe.update(status="affected", version=issue["affects"][0]["first"],
                     card_affected=True if issue.get("cards") else probe.get("card_affected"))
        probe = {k: v for k, v in probe.items() if v is not None}
        if not readers(rules, probe):
            rel = ctx.catalog.files[f"releases/{file}"]
            doc = ctx.catalog.documents[rel]
            index = [i["id"] for i in data["releases"][file]["known_issues"]].index(issue["id"])
            problems.append(ctx.problem(doc, ("known_issues", index, "id"),
                                        f"known issue {issue['id']!r} (trigger {issue['trigger']}, component "
                                        f"{issue['component']}) is read by no rule: no answer or finding would "
                                        "ever mention it", CHECK))
    return problems
