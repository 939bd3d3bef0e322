"""The customer-facing texts of the catalog and the rules, located, for the checks `jargon` and `style`: every
{en, de} pair (notes, texts, titles, conditions); a rule's {placeholders} count as words."""

from __future__ import annotations

from typing import Callable, Iterator

from kb.catalog.yamlsafe import Problem
from kb.engine.syntax import PLACEHOLDER_RE
Where = Callable[..., Problem]


def _pairs(node, path=()):
    if isinstance(node, dict):
        if set(node) == {"en", "de"} and all(isinstance(v, str) for v in node.values()):
            yield path, node
            return
        for key, value in node.items():
            yield from _pairs(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _pairs(item, path + (i,))


def texts(ctx) -> Iterator[tuple[Where, str, str]]:
    """(locate, lang, text) for every text of the catalog's documents."""
    for _rel, doc in ctx.documents():
        for path, pair in _pairs(doc.data):
            for lang in ("en", "de"):
                yield (lambda msg, kind, doc=doc, path=path, lang=lang: ctx.problem(doc, path + (lang,), msg, kind)), \
                    lang, pair[lang]


def rule_texts(ctx) -> Iterator[tuple[Where, str, str]]:
    """(locate, lang, text) for every text of the rule files (placeholders replaced by a neutral word)."""
    from kb.catalog.inputs import rule_files
    from kb.catalog.yamlsafe import read_yaml

    for _question, files in sorted(rule_files(ctx.rules).items()):
        for f in files:
            doc, _problems = read_yaml(f.path, display=f"rules/{f.rel}")
            if doc is None:
                continue  # the check `rules` names unreadable rule files
            for path, pair in _pairs(doc.data):
                for lang in ("en", "de"):
                    text = PLACEHOLDER_RE.sub("X", pair[lang])
                    yield (lambda msg, kind, doc=doc, path=path, lang=lang: Problem(
                        doc.file, doc.line_of(path + (lang,)), ".".join(map(str, path + (lang,))), msg, kind=kind)), \
                        lang, text
