"""The rule reference, generated from rules/<question>/*.yaml through kb.engine.rules.load_rules()."""

from __future__ import annotations

import json

from kb.engine.syntax import PLACEHOLDER_RE
from kb.site.matrices import verdict_word
from kb.site.md import code, esc, link, pick, table
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


# What a placeholder of a rule text stands for, in the reader's words (de, en). A placeholder named here with
# _de/_en is the same value in the page's language; any other reads as a value of the question (ask rules) or of
# the checked configuration (check rules). Never shown as raw {braces} (tests/test_voice_site.py).
_SLOTS = {
    "card": ("Karte", "card"), "card_name": ("Karte", "card"), "product": ("Karte", "card"),
    "config": ("geprüfte Datei", "checked file"), "file": ("Datei", "file"),
    "name": ("Name", "name"), "resource": ("Ressource", "resource"), "operator": ("GPU-Operator-Version",
    "GPU Operator version"), "driver": ("Treiberversion", "driver version"), "driver_version": ("Treiberversion",
    "driver version"), "dra_driver": ("DRA-Treiberversion", "DRA driver version"), "k8s": ("Kubernetes-Version",
    "Kubernetes version"), "replicas": ("Anzahl der Replikate", "number of replicas"), "profile": ("MIG-Profil",
    "MIG profile"), "profiles": ("MIG-Profile", "MIG profiles"), "workload": ("Workload", "workload"),
    "method": ("Methode", "method"), "method_name": ("Methode", "method"), "mode": ("Modus", "mode"),
    "feature": ("Funktion", "feature"), "feature_name": ("Funktion", "feature"), "layout": ("MIG-Layout",
    "MIG layout"), "mig_strategy": ("MIG-Strategie", "MIG strategy"), "min_driver": ("kleinste Treiberversion",
    "lowest driver version"), "min_operator": ("kleinste GPU-Operator-Version", "lowest GPU Operator version"),
    "min_kubernetes": ("kleinste Kubernetes-Version", "lowest Kubernetes version"), "container": ("Container",
    "container"), "namespace": ("Namespace", "namespace"), "node": ("Knoten", "node"), "req": ("Voraussetzung",
    "requirement"), "issue": ("bekanntes Problem", "known issue"), "mps_limit": ("Grenze laut NVIDIA",
    "NVIDIA's limit"), "mps_max_clients": ("höchste Zahl an Clients", "highest number of clients"),
    "version": ("Version", "version"), "since": ("Version", "version"),
}


def _slot(name: str, question: str, lang: str) -> str:
    """A placeholder as an italic phrase: *(Karte)* / *(card)*, else *(Wert aus der Konfiguration)* etc."""
    base = name.rsplit(".", 1)[-1].removesuffix("_de").removesuffix("_en")
    if base in _SLOTS:
        words = _SLOTS[base][lang != "de"]
    elif question == "check":
        words = "Wert aus der Konfiguration" if lang == "de" else "value from the configuration"
    else:
        words = "Wert aus der Frage" if lang == "de" else "value from the question"
    return f"*({words})*"


def _text(ctx: Ctx, text: dict | None, question: str) -> str:
    """A rule's text in the page's language, escaped, its {placeholders} in words (see _SLOTS)."""
    parts = PLACEHOLDER_RE.split(" ".join(pick(text, ctx.lang).split()))
    out = "".join(_literal(p) if i % 2 == 0 else _slot(p, question, ctx.lang) for i, p in enumerate(parts))
    return out.replace("(*(", "(*").replace(")*)", "*)")  # a placeholder the text already puts in brackets


def _literal(part: str) -> str:
    """esc() keeping the spaces at the ends (esc strips them)."""
    if not part.strip():
        return part
    return (" " if part[0] == " " else "") + esc(part) + (" " if part[-1] == " " else "")


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
            out += [f"- {result}", f"- {ctx.t('Text', 'Text')}: {_text(ctx, then['text'], question)}"]
            if then.get("condition"):
                out.append(f"- {ctx.t('Bedingung', 'Condition')}: {_text(ctx, then['condition'], question)}")
            out.append(f"- {ctx.t('Belege', 'Cites')}: " + ", ".join(code(c) for c in rule["cites"]))
            out.append(f"- {ctx.t('Datei', 'File')}: " + ctx.repo_link(esc(rule["file"]), rule["file"]))
            out += ["", _when(ctx, rule["when"]), ""]
    return "\n".join(out).rstrip("\n") + "\n"
