"""The house style in every en/de text of the catalog and the rules: German as German („…“, Sie-form, the
glossary's terms, dates written out), English with typographic quotes (kb.style.style_problems). The site adds the
narrow no-break space before units itself, so a plain space there is no problem here."""

from __future__ import annotations

from kb.lint.checks._texts import rule_texts, texts
from kb.style import style_problems
from kb.text import Text

CHECK = "style"
TITLE = "house style of the texts (German as German)"


def check(ctx):
    problems = []
    for where, lang, text in [*texts(ctx), *rule_texts(ctx)]:
        for excerpt, rule in style_problems(text, lang, prose=False):
            problems.append(where(Text(f"{lang}: {excerpt!r}: {rule}", f"{lang}: {excerpt!r}: {rule}"), CHECK))
    return problems
