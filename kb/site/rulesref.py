"""The rule reference, generated from rules/<question>/*.yaml through kb.engine.rules.load_rules()."""

from __future__ import annotations

import json

from kb.engine.syntax import PLACEHOLDER_RE
from kb.site.matrices import verdict_word
from kb.site.md import code, esc, pick, table
from kb.site.page import Ctx
from kb.text import Text

QUESTION = {
    "mig": Text("Can the card run MIG?", "Kann die Karte MIG nutzen?"),
    "methods": Text("Which methods work on the card?", "Welche Methoden gehen auf der Karte?"),
    "resource": Text("Under which name is the resource advertised?", "Unter welchem Namen erscheint die Ressource?"),
    "strategy": Text("Which MIG strategy fits?", "Welche MIG-Strategie passt?"),
    "dra": Text("What can the DRA driver do?", "Was kann der DRA-Treiber?"),
    "recommend": Text("Which method do we recommend?", "Welche Methode empfehlen wir?"),
    "check": Text("Checking configurations with gpukb check", "Prüfung von Konfigurationen mit gpukb check"),
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
            return Text(" and ", " und ")(lang).join(_test(v, lang) for v in value)
        if key == "$or" and isinstance(value, list):
            return Text("one of: ", "eines von: ")(lang) + Text(" or ", " oder ")(lang).join(
                f"({_test(v, lang)})" for v in value)
        if key in _OPS and isinstance(value, dict) and len(value) == 1:
            (prop, v), = value.items()
            return f"{code(prop)} {_OPS[key]} {_value(v)}"
        if key in ("$ex", "$nex") and isinstance(value, dict) and len(value) == 1:
            prop = next(iter(value))
            return f"{code(prop)} " + {"$ex": Text("present", "vorhanden"), "$nex": Text("missing", "fehlt")}[key](lang)
        if not key.startswith("$"):
            return f"{code(key)} = {_value(value)}"
    return code(json.dumps(node, ensure_ascii=False, separators=(",", ":")))


# What a placeholder of a rule text stands for, in the reader's words. A placeholder named here with
# _de/_en is the same value in the page's language; any other reads as a value of the question (ask rules) or of
# the checked configuration (check rules). Never shown as raw {braces} (tests/test_voice_site.py).
_SLOTS = {
    "card": Text("card", "Karte"), "card_name": Text("card", "Karte"), "product": Text("card", "Karte"),
    "config": Text("checked file", "geprüfte Datei"), "file": Text("file", "Datei"), "name": Text("name", "Name"),
    "resource": Text("resource", "Ressource"), "operator": Text("GPU Operator version", "GPU-Operator-Version"),
    "driver": Text("driver version", "Treiberversion"), "driver_version": Text("driver version", "Treiberversion"),
    "dra_driver": Text("DRA driver version", "DRA-Treiberversion"),
    "k8s": Text("Kubernetes version", "Kubernetes-Version"),
    "replicas": Text("number of replicas", "Anzahl der Replikate"), "profile": Text("MIG profile", "MIG-Profil"),
    "profiles": Text("MIG profiles", "MIG-Profile"), "workload": Text("workload", "Workload"),
    "method": Text("method", "Methode"), "method_name": Text("method", "Methode"), "mode": Text("mode", "Modus"),
    "feature": Text("feature", "Funktion"), "feature_name": Text("feature", "Funktion"),
    "layout": Text("MIG layout", "MIG-Layout"), "mig_strategy": Text("MIG strategy", "MIG-Strategie"),
    "min_driver": Text("lowest driver version", "kleinste Treiberversion"),
    "min_operator": Text("lowest GPU Operator version", "kleinste GPU-Operator-Version"),
    "min_kubernetes": Text("lowest Kubernetes version", "kleinste Kubernetes-Version"),
    "container": Text("container", "Container"), "namespace": Text("namespace", "Namespace"),
    "node": Text("node", "Knoten"), "req": Text("requirement", "Voraussetzung"),
    "issue": Text("known issue", "bekanntes Problem"), "mps_limit": Text("NVIDIA's limit", "Grenze laut NVIDIA"),
    "mps_max_clients": Text("highest number of clients", "höchste Zahl an Clients"),
    "version": Text("version", "Version"), "since": Text("version", "Version"),
}


def _slot(name: str, question: str, lang: str) -> str:
    """A placeholder as an italic phrase: *(Karte)* / *(card)*, else *(Wert aus der Konfiguration)* etc."""
    base = name.rsplit(".", 1)[-1].removesuffix("_de").removesuffix("_en")
    if base in _SLOTS:
        words = _SLOTS[base](lang)
    elif question == "check":
        words = Text("value from the configuration", "Wert aus der Konfiguration")(lang)
    else:
        words = Text("value from the question", "Wert aus der Frage")(lang)
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
    return table([Text("Fact", "Fakt")(ctx.lang), Text("Test", "Bedingung")(ctx.lang)], [[a, b if b != "`{}`" else "—"] for a, b in rows])


def rules_page(ctx: Ctx, rules: dict[str, list[dict]]) -> str:
    folders = tuple(f"rules/{q}/" for q in sorted(rules))
    out = [f"# {Text('Rule reference', 'Regelreferenz')(ctx.lang)}", "", ctx.header([], folders), "",
           Text("Every answer of `gpukb ask` and every table of this site follows from these rules. A rule applies "
                 "when every test of its table holds for a fact of the question.", "Jede Antwort von `gpukb ask` und jede Tabelle dieser Seite folgt aus diesen Regeln. Eine Regel "
                 "greift, wenn jede Bedingung ihrer Tabelle auf einen Fakt der Frage passt.")(ctx.lang), ""]
    for question in sorted(rules, key=lambda q: (list(QUESTION).index(q) if q in QUESTION else 99, q)):
        out += [f"## {QUESTION.get(question, Text(esc(question)))(ctx.lang)} ({code(question)})", ""]
        for rule in sorted(rules[question], key=lambda r: r["id"]):
            then = rule["then"]
            out += [f"### {rule['id']}: {ctx.pick(rule['title'])} {{ #{rule['id'].lower()} }}", ""]
            if "verdict" in then:
                result = f"{Text('Verdict', 'Urteil')(ctx.lang)}: **{verdict_word(then['verdict'], ctx.lang)}**"
            else:
                result = f"{Text('Severity', 'Schwere')(ctx.lang)}: **{esc(then['severity'])}**"
            out += [f"- {result}", f"- {Text('Text', 'Text')(ctx.lang)}: {_text(ctx, then['text'], question)}"]
            if then.get("condition"):
                out.append(f"- {Text('Condition', 'Bedingung')(ctx.lang)}: {_text(ctx, then['condition'], question)}")
            out.append(f"- {Text('Cites', 'Belege')(ctx.lang)}: " + ", ".join(code(c) for c in rule["cites"]))
            out.append(f"- {Text('File', 'Datei')(ctx.lang)}: " + ctx.repo_link(esc(rule["file"]), rule["file"]))
            out += ["", _when(ctx, rule["when"]), ""]
    return "\n".join(out).rstrip("\n") + "\n"
