"""No internal word in anything a customer reads: every en/de text of the catalog and of the rules (notes, rule
texts, conditions, titles) is free of how we work — "seed", "snapshot", "local copy", "catalog", rule-engine words,
our field names, catalog ids, CLI flags, the placeholder domain (kb.style.internal_words)."""

from __future__ import annotations

from kb.lint.checks._texts import rule_texts, texts
from kb.style import catalog_ids, internal_words
from kb.text import Text

CHECK = "jargon"
TITLE = "customer texts without internal words"


def check(ctx):
    ids = catalog_ids(ctx.data)
    problems = []
    for where, lang, text in [*texts(ctx), *rule_texts(ctx)]:
        for word, why in internal_words(text, ids):
            problems.append(where(Text(f"{lang}: {word!r} is an internal word ({why[0]})",
                                       f"{lang}: „{word}“ ist ein internes Wort ({why[1]})"), CHECK))
    return problems
