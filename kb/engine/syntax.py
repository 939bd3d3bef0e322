"""The words of the rule format, defined once (the model kb.models.rule.Rule checks files against them, the
engine and the questions use them). No pydantic here: the CLI's fast path imports this module."""

from __future__ import annotations

import re

#: conclusions of a question, least restrictive first (an answer's verdict is the most restrictive that fired)
VERDICTS = ("yes", "conditional", "unconfirmed", "no")
#: severities of a config-check finding, most severe first
SEVERITIES = ("error", "warning", "info")
#: fact properties the engine sets itself (query, fact position, durable's session and fact ids)
RESERVED = ("q", "fi", "sid", "id")
COMPARISONS = ("$lt", "$lte", "$gt", "$gte", "$neq")
EXISTENCE = ("$ex", "$nex")
LOGICAL = ("$and", "$or")
#: patterns of a rule file's names (compiled where files are checked)
ALIAS_PATTERN = r"^[a-z][a-z0-9_]*$"
PROP_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
ID_PATTERN = r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$"
QUESTION_PATTERN = r"^[a-z][a-z0-9-]*$"
CITE_PATTERN = r"^(cards|methods|releases|sources)/[^#\s]+#[^\s]+$"
#: a `{placeholder}` of a rule text: a fact property, or `alias.property` for one fact of a join
PLACEHOLDER_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}")


def placeholders(text: str) -> list[str]:
    """The `{placeholder}`s of a text, in order."""
    return PLACEHOLDER_RE.findall(text)


def required_constants(cond: dict) -> dict:
    """The constants a condition requires of a fact's properties ({prop: constant} alone or inside its top "$and");
    a fact without one of them never matches it."""
    (key, value), = cond.items()
    parts = value if key == "$and" else [cond]
    out = {}
    for part in parts:
        if isinstance(part, dict) and len(part) == 1:
            (prop, constant), = part.items()
            if not prop.startswith("$") and isinstance(constant, (str, int, float, bool)):
                out[prop] = constant
    return out


def required_kind(named: tuple) -> str | None:
    """The kind a rule's named condition (alias, condition) requires (`required_constants`; a text), else None:
    facts of any other kind never match it."""
    kind = required_constants(named[1]).get("kind")
    return kind if isinstance(kind, str) else None
