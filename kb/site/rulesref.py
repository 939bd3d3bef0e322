"""The rule reference, generated from rules/<question>/*.yaml through kb.engine.rules.load_rules()."""

from __future__ import annotations

import json

from kb.site.matrices import verdict_word
from kb.site.md import code, esc, table, link
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


_OPS = {"$neq": "≠", "$gt": ">", "$lt": "<", "$gte": "≥", "$lte": "≤"}


def _value(v) -> str:
    return code(v) if isinstance(v, str) else code(json.dumps(v, ensure_ascii=False))


def _test(node, lang: str) -> str:
    """One condition of durable-rules syntax in words: 'mig_status = documented', 'replicas > 48',
    'driver_given ≠ true', 'one of: … | …'; anything else as compact JSON."""
    if isinstance(node, dict) and len(node) == 1:
        (key, value), = node.items()
        if key == "$and" and isinstance(value, list):
            return (" und " if lang == "de" else " and ").join(_test(v, lang) for v in value)
        if key == "$or" and isinstance(value, list):
            return ("eines von: " if lang == "de" else "one of: ") + (" oder " if lang == "de" else " or ").join(
                f"({_test(v, lang)})" for v in value)
        if key in _OPS and isinstance(value, dict) and len(value) == 1:
            (prop, v), = value.items()
            return f"{code(prop)} {_OPS[key]} {_value(v)}"
        if key in ("$ex", "$nex") and isinstance(value, dict) and len(value) == 1:
            prop = next(iter(value))
            return f"{code(prop)} " + ({"$ex": ("vorhanden", "present"), "$nex": ("fehlt", "missing")}[key][lang != "de"])
        if not key.startswith("$"):
            return f"{code(key)} = {_value(value)}"
    return code(json.dumps(node, ensure_ascii=False, separators=(",", ":")))


def _when(ctx: Ctx, when) -> str:
    """The rule's condition as a table: one row per fact the rule matches and per test on it."""
    rows = []
    for var, node in (when.items() if isinstance(when, dict) else when):
        tests = node["$and"] if isinstance(node, dict) and list(node) == ["$and"] else [node]
        kind = next((t["kind"] for t in tests if isinstance(t, dict) and set(t) == {"kind"}), None)
        rest = [t for t in tests if not (isinstance(t, dict) and set(t) == {"kind"})]
        label = f"{code(var)}: {code(kind)}" if kind else code(var)
        rows += [[label if i == 0 else "", _test(t, ctx.lang)] for i, t in enumerate(rest or [{}])]
    return table([ctx.t("Fakt", "Fact"), ctx.t("Bedingung", "Test")], [[a, b if b != "`{}`" else "—"] for a, b in rows])


def rules_page(ctx: Ctx, rules: dict[str, list[dict]]) -> str:
    folders = tuple(f"rules/{q}/" for q in sorted(rules))
    out = [f"# {ctx.t('Regelreferenz', 'Rule reference')}", "", ctx.header([], folders), "",
           ctx.t("Jede Antwort von `gpukb ask` und jede Tabelle dieser Seite folgt aus diesen Regeln. Eine Regel "
                 "greift, wenn jede Bedingung ihrer Tabelle auf einen Fakt der Frage passt.",
                 "Every answer of `gpukb ask` and every table of this site follows from these rules. A rule applies "
                 "when every test of its table holds for a fact of the question."), ""]
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
            out += ["", _when(ctx, rule["when"]), ""]
    return "\n".join(out).rstrip("\n") + "\n"
