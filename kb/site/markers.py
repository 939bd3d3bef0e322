"""Markers in the hand-written guide pages, replaced with catalog facts and their footnotes at build time.

    {{ cite: cards/h200-nvl mig.max_instances }}   footnote references to the fact's sources
    {{ value: cards/h200-nvl mig.max_instances }}  the value in words, then the footnote references
    {{ table: method-properties }}                 a generated table (its citations join the page's footnotes)
    {{ config: time-slicing-configmap }}           configuration to copy (kb.site.configs), alone on its line

Anything else between double braces is an error that names the page and line: the build fails.
"""

from __future__ import annotations

import re

from kb.catalog.facts import FactError
from kb.site.labels import value_label
from kb.site import configs
from kb.site.md import esc
from kb.site.cards import card_table, mig_cards_table
from kb.site.methods import dra_capabilities_table, properties_table, suitability_table
from kb.site.releases import operator_components_table
from kb.site.page import Ctx

MARKER = re.compile(r"\{\{(.*?)\}\}")
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
TABLES = {
    "cards": card_table,
    "mig-cards": mig_cards_table,
    "operator-components": operator_components_table,
    "method-properties": properties_table,
    "method-suitability": suitability_table,
    "dra-capabilities": dra_capabilities_table,
}


class MarkerError(ValueError):
    """A marker that is unknown or names a fact the catalog does not have."""


def _replace(ctx: Ctx, body: str) -> str:
    kind, sep, arg = body.strip().partition(":")
    arg = arg.strip()
    if not sep or kind not in ("cite", "value", "table", "config"):
        raise MarkerError(f"unknown marker {{{{{body}}}}} (use cite:, value:, table: or config:)")
    if kind == "config":
        return configs.render(ctx.data, arg, ctx.lang)
    if kind == "table":
        if arg not in TABLES:
            raise MarkerError(f"unknown table {arg!r} (known: {', '.join(sorted(TABLES))})")
        return TABLES[arg](ctx)
    entity, _, path = arg.partition(" ")
    if not path.strip():
        raise MarkerError(f"marker {{{{{body}}}}} needs an entity and a path, e.g. 'cards/l4 mig.status'")
    node, refs = ctx.notes.fact_refs(entity, path.strip())
    if kind == "cite":
        return refs
    return esc(value_label(node["value"], ctx.lang)) + refs


def expand(markdown: str, ctx: Ctx) -> str:
    """The page with every marker replaced and the citations appended as footnotes."""
    lines = markdown.split("\n")
    problems = []
    for i, line in enumerate(lines):
        spans = [m.span() for m in CODE_SPAN.finditer(line)]
        inside = [m.group(0) for m in MARKER.finditer(line) if any(a < m.start() < b for a, b in spans)]
        if inside:  # Markdown would show the footnote references as text
            problems.append(f"line {i + 1}: marker {inside[0]} inside a code span; put it after the closing backtick")
            continue
        blocks = [m for m in MARKER.finditer(line) if m.group(1).strip().startswith("config:")]
        if blocks and (len(blocks) > 1 or line.strip() != blocks[0].group(0)):
            problems.append(f"line {i + 1}: a config marker must stand alone on its line")
            continue
        try:
            lines[i] = MARKER.sub(lambda m: _replace(ctx, m.group(1)), line)
            if blocks:  # a code block inside a list item or admonition keeps the marker's indentation
                indent = line[:len(line) - len(line.lstrip())]
                lines[i] = "\n".join(indent + row if row else row for row in lines[i].lstrip().split("\n"))
        except (FactError, MarkerError) as exc:
            problems.append(f"line {i + 1}: {exc}")
            continue
        if not blocks and ("{{" in lines[i] or "}}" in lines[i]):
            problems.append(f"line {i + 1}: unbalanced marker braces")
    if problems:
        raise MarkerError("; ".join(problems))
    return "\n".join(lines).rstrip("\n") + ctx.footer()
