"""The rule reference, generated from rules/<question>/*.yaml through kb.engine.rules.load_rules()."""

from __future__ import annotations

import json

from kb.site.matrices import verdict_word
from kb.site.md import code, esc, link
from kb.site.page import Ctx

QUESTION = {
    "mig": ("Kann die Karte MIG nutzen?", "Can the card run MIG?"),
    "methods": ("Welche Methoden gehen auf der Karte?", "Which methods work on the card?"),
    "resource": ("Unter welchem Namen erscheint die Ressource?", "Under which name is the resource advertised?"),
    "strategy": ("Welche MIG-Strategie passt?", "Which MIG strategy fits?"),
    "dra": ("Was kann der DRA-Treiber?", "What can the DRA driver do?"),
    "recommend": ("Welche Methode empfehlen wir?", "Which method do we recommend?"),
    "check": ("Prüfung von Konfigurationen mit gpukb check", "Checking configurations with gpukb check"),
}


def _when(when) -> str:
    return json.dumps(when, ensure_ascii=False, indent=1)


def rules_page(ctx: Ctx, rules: dict[str, list[dict]]) -> str:
    folders = tuple(f"rules/{q}/" for q in sorted(rules))
    out = [f"# {ctx.t('Regelreferenz', 'Rule reference')}", "", ctx.header([], folders), "",
           ctx.t("Jede Antwort von `gpukb ask` und jede Tabelle dieser Seite folgt aus diesen Regeln. Eine Regel "
                 "greift, wenn ihre Bedingung (`when`, Syntax von durable-rules) auf die Fakten einer Frage passt.",
                 "Every answer of `gpukb ask` and every table of this site follows from these rules. A rule applies "
                 "when its condition (`when`, durable-rules syntax) matches the facts of a question."), ""]
    for question in sorted(rules, key=lambda q: (list(QUESTION).index(q) if q in QUESTION else 99, q)):
        de, en = QUESTION.get(question, (esc(question), esc(question)))
        out += [f"## {ctx.t(de, en)} ({code(question)})", ""]
        for rule in sorted(rules[question], key=lambda r: r["id"]):
            then = rule["then"]
            out += [f"### {rule['id']}: {ctx.pick(rule['title'])} {{ #{rule['id'].lower()} }}", ""]
            if "verdict" in then:
                result = f"{ctx.t('Urteil', 'Verdict')}: **{verdict_word(then['verdict'], ctx.lang)}**"
            else:
                result = f"{ctx.t('Schwere', 'Severity')}: **{esc(then['severity'])}**"
            out += [f"- {result}", f"- {ctx.t('Text', 'Text')}: {ctx.pick(then['text'])}"]
            if then.get("condition"):
                out.append(f"- {ctx.t('Bedingung', 'Condition')}: {ctx.pick(then['condition'])}")
            out.append(f"- {ctx.t('Belege', 'Cites')}: " + ", ".join(code(c) for c in rule["cites"]))
            out.append(f"- {ctx.t('Datei', 'File')}: " + ctx.repo_link(esc(rule["file"]), rule["file"]))
            out += ["", "```json", _when(rule["when"]), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"
