"""Rule files (`rules/<question>/<ID>-<slug>.yaml`): reading, validating with file/line errors, compiling.

A rule file is plain YAML a reviewer can read (see rules/README.md). Validation here is hand-written
(no pydantic, no durable) so that the compiled rules can be cached as JSON and the CLI stays fast;
`RULE_SCHEMA` is the same contract as a JSON Schema for editors (`rules/rule.schema.json`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from kb.errors import RuleBaseInvalid

VERDICTS = ("yes", "conditional", "unconfirmed", "no")
SEVERITIES = ("error", "warning", "info")
COMPARISONS = ("$lt", "$lte", "$gt", "$gte", "$neq")
EXISTENCE = ("$ex", "$nex")
LOGICAL = ("$and", "$or")
#: properties the engine sets on every fact itself
RESERVED = ("q", "fi", "sid", "id")
ALIAS_RE = re.compile(r"^[a-z][a-z0-9_]*$")
PROP_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ID_RE = re.compile(r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$")
QUESTION_RE = re.compile(r"^[a-z][a-z0-9-]*$")
CITE_RE = re.compile(r"^(cards|methods|releases|sources)/[^#\s]+#[^\s]+$")
PLACEHOLDER_RE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\}")
TOP_KEYS = ("id", "question", "title", "when", "then", "cites")
THEN_KEYS = ("verdict", "severity", "text", "condition", "details")


# ---------------------------------------------------------------- validation


class _Checker:
    """Collects problems of one rule file, located by the document's line numbers."""

    def __init__(self, doc, display: str):
        self.doc = doc
        self.display = display
        self.problems: list = []

    def add(self, path: tuple, message: str) -> None:
        from kb.catalog.yamlsafe import Problem, dotted

        self.problems.append(Problem(self.display, self.doc.line_of(path), dotted(path), message))

    def text(self, value, path: tuple, what: str) -> None:
        if not isinstance(value, dict) or set(value) != {"en", "de"}:
            self.add(path, f"{what} needs exactly the keys 'en' and 'de'")
            return
        for lang in ("en", "de"):
            if not isinstance(value[lang], str) or not value[lang].strip():
                self.add(path + (lang,), f"{what} in {lang!r} must be non-empty text")

    def operand(self, value, path: tuple, aliases: list[str], compare: str | None = None) -> None:
        if isinstance(value, dict):
            if compare:
                self.add(path, f"{compare} cannot compare with another fact's property ({{alias: property}}): "
                         "such comparisons crash durable-rules 2.0.28 (see rules/README.md); let the question "
                         "put the comparison into a fact, or compare with a constant")
                return
            if len(value) != 1:
                self.add(path, "a reference to another fact is {alias: property}")
                return
            (alias, prop), = value.items()
            if alias not in aliases:
                known = ", ".join(aliases) or "none"
                self.add(path, f"{alias!r} is not a fact named earlier in this rule (earlier: {known})")
            elif not isinstance(prop, str) or not PROP_RE.match(prop):
                self.add(path + (alias,), f"{prop!r} is not a property name")
        elif isinstance(value, (list, type(None))):
            self.add(path, "compare with a text, number or true/false, or {alias: property}")
        elif isinstance(value, bool) and str(self.doc.raw.get(path, "true")).lower() not in ("true", "false"):
            raw = self.doc.raw[path]
            self.add(path, f"YAML reads {raw} as {str(value).lower()}: write \"{raw}\" in quotes for the text, "
                     f"or {str(value).lower()} for the truth value")

    def condition(self, cond, path: tuple, aliases: list[str]) -> None:
        if not isinstance(cond, dict) or len(cond) != 1:
            self.add(path, "a condition has exactly one key: a property, or one of "
                     + ", ".join(LOGICAL + COMPARISONS + EXISTENCE) + " (join several with $and)")
            return
        (key, value), = cond.items()
        here = path + (key,)
        if key in LOGICAL:
            if not isinstance(value, list) or not value:
                self.add(here, f"{key} takes a list of conditions")
                return
            for i, sub in enumerate(value):
                self.condition(sub, here + (i,), aliases)
        elif key in COMPARISONS or key in EXISTENCE:
            if not isinstance(value, dict) or len(value) != 1:
                self.add(here, f"{key} takes one {{property: value}}")
                return
            (prop, operand), = value.items()
            self.prop(prop, here)
            if key in EXISTENCE:
                if operand != 1:
                    self.add(here + (prop,), f"write {key}: {{{prop}: 1}}")
            else:
                self.operand(operand, here + (prop,), aliases, compare=key)
        elif key.startswith("$"):
            self.add(here, f"operator {key!r} is not supported in gpukb rules; use "
                     + ", ".join(LOGICAL + COMPARISONS + EXISTENCE))
        else:
            self.prop(key, path)
            self.operand(value, here, aliases)

    def prop(self, prop, path: tuple) -> None:
        if not isinstance(prop, str) or not PROP_RE.match(prop):
            self.add(path, f"{prop!r} is not a property name (letters, digits, _)")
        elif prop in RESERVED:
            self.add(path, f"{prop!r} is set by the engine itself and cannot be tested")


def _normalise_when(when, chk: _Checker) -> list:
    """`{m: cond}` or `{all: [{a: cond}, {b: cond}]}` → [[alias, cond], …]."""
    path = ("when",)
    if not isinstance(when, dict) or len(when) != 1:
        chk.add(path, "when: is {name: condition} for one fact, or {all: [{a: …}, {b: …}]} for several")
        return []
    (key, value), = when.items()
    if key == "all":
        if not isinstance(value, list) or not value:
            chk.add(path + ("all",), "all: takes a list of {name: condition}")
            return []
        items = [(item, path + ("all", i)) for i, item in enumerate(value)]
    else:
        items = [(when, path)]
    out, aliases = [], []
    for item, ipath in items:
        if not isinstance(item, dict) or len(item) != 1:
            chk.add(ipath, "each entry is {name: condition}")
            continue
        (alias, cond), = item.items()
        if not isinstance(alias, str) or not ALIAS_RE.match(alias) or alias in ("all", "any"):
            chk.add(ipath, f"{alias!r} is not a usable fact name (lower-case letters, digits, _; not all/any)")
            continue
        if alias in aliases:
            chk.add(ipath, f"fact name {alias!r} is used twice")
            continue
        chk.condition(cond, ipath + (alias,), aliases)
        aliases.append(alias)
        out.append([alias, cond])
    return out


def _verdict(then: dict, chk: _Checker):
    """The verdict; YAML 1.1 reads an unquoted yes/no as true/false, so take the raw text then."""
    value = then.get("verdict")
    if isinstance(value, bool):
        raw = chk.doc.raw.get(("then", "verdict"), "")
        value = raw.lower() if raw.lower() in VERDICTS else value
    if value not in VERDICTS:
        chk.add(("then", "verdict"), f"verdict {value!r} is not one of {', '.join(VERDICTS)}")
    return value


def check_rule(doc, display: str, question_dir: str | None = None) -> tuple[dict | None, list]:
    """Validate one parsed rule document. Returns (compiled rule, problems)."""
    chk = _Checker(doc, display)
    data = doc.data
    if not isinstance(data, dict):
        chk.add((), "a rule file is a mapping with " + ", ".join(TOP_KEYS))
        return None, chk.problems
    for key in data:
        if key not in TOP_KEYS:
            chk.add((key,), f"unknown field {key!r} (fields: {', '.join(TOP_KEYS)})")
    for key in TOP_KEYS:
        if key not in data:
            chk.add((), f"missing field {key!r}")
    if chk.problems:
        return None, chk.problems
    rid, question = data["id"], data["question"]
    if not isinstance(rid, str) or not ID_RE.match(rid):
        chk.add(("id",), f"id {rid!r} must be upper-case words joined by hyphens, e.g. MIG-001")
    elif not Path(display).name.startswith(rid + "-"):
        chk.add(("id",), f"the file name must start with the id: {rid}-<slug>.yaml")
    if not isinstance(question, str) or not QUESTION_RE.match(question):
        chk.add(("question",), f"question {question!r} is not a question name")
    elif question_dir is not None and question != question_dir:
        chk.add(("question",), f"question {question!r} must equal the folder name {question_dir!r}")
    chk.text(data["title"], ("title",), "title")
    when = _normalise_when(data["when"], chk)
    then = data["then"]
    compiled_then: dict = {}
    if not isinstance(then, dict):
        chk.add(("then",), "then: is a mapping with verdict or severity, and text")
    else:
        for key in then:
            if key not in THEN_KEYS:
                chk.add(("then", key), f"unknown field {key!r} (fields: {', '.join(THEN_KEYS)})")
        if ("verdict" in then) == ("severity" in then):
            chk.add(("then",), "then: needs exactly one of verdict (questions) or severity (config checks)")
        elif "verdict" in then:
            compiled_then["verdict"] = _verdict(then, chk)
        elif then["severity"] not in SEVERITIES:
            chk.add(("then", "severity"), f"severity {then['severity']!r} is not one of {', '.join(SEVERITIES)}")
        else:
            compiled_then["severity"] = then["severity"]
        if "text" not in then:
            chk.add(("then",), "then: needs text: {en, de}")
        else:
            chk.text(then["text"], ("then", "text"), "text")
            compiled_then["text"] = then["text"]
        if "condition" in then:
            chk.text(then["condition"], ("then", "condition"), "condition")
            compiled_then["condition"] = then["condition"]
        if "details" in then:
            if not isinstance(then["details"], dict):
                chk.add(("then", "details"), "details: is a mapping")
            compiled_then["details"] = then["details"]
    aliases = [alias for alias, _ in when]
    for key in ("text", "condition"):
        for lang, text in (compiled_then.get(key) or {}).items():
            for name in placeholders(text) if isinstance(text, str) else []:
                if "." in name and name.split(".")[0] not in aliases:
                    chk.add(("then", key, lang), f"placeholder {{{name}}} names no fact of the rule "
                            f"(facts: {', '.join(aliases) or 'none'})")
    cites = data["cites"]
    if not isinstance(cites, list) or not cites:
        chk.add(("cites",), "cites: lists at least one catalog fact, e.g. cards/{card}#mig.status")
    else:
        for i, ref in enumerate(cites):
            if not isinstance(ref, str) or not CITE_RE.match(ref):
                chk.add(("cites", i), f"{ref!r} is not a fact reference like cards/{{card}}#mig.status")
    if chk.problems:
        return None, chk.problems
    return {
        "id": rid, "question": question, "title": data["title"], "when": when, "then": compiled_then,
        "cites": cites, "file": display, "line": doc.line_of(("when",)),
    }, []


def validate_rule_file(path: Path, display: str | None = None, data: bytes | None = None) -> tuple[dict | None, list]:
    """Read (or take `data`, the bytes already read) and validate one rule file. Returns (compiled rule or
    None, problems with file and line)."""
    from kb.catalog.yamlsafe import read_yaml

    path = Path(path)
    display = display or str(path)
    doc, problems = read_yaml(path, display=display, data=data)
    if doc is None or problems:
        return None, problems
    return check_rule(doc, display, question_dir=path.parent.name)


def compile_rules(root: Path, contents: dict[str, bytes] | None = None) -> tuple[dict[str, list[dict]], dict[str, list]]:
    """Validate every rule file below `root` (kb.catalog.inputs.rule_files, the files the hash covers;
    `contents`: bytes already read, by relative path): ({question: [rule, …]}, {question: [Problem, …]})."""
    from kb.catalog.inputs import rule_files
    from kb.catalog.yamlsafe import Problem
    from kb.text import Text

    if not Path(root).is_dir():
        raise RuleBaseInvalid([Problem(str(root), None, "", Text("rules folder not found", "Regelordner nicht gefunden"),
                                       kind="io")])
    rules: dict[str, list[dict]] = {}
    problems: dict[str, list] = {}
    seen: dict[str, str] = {}
    for question, files in sorted(rule_files(root).items()):
        for f in files:
            display = f"rules/{f.rel}"
            rule, errs = validate_rule_file(Path(root) / f.rel, display, (contents or {}).get(f.rel))
            if rule is not None and rule["id"] in seen:
                errs = [Problem(display, 1, "id", Text(f"id {rule['id']} is already used by {seen[rule['id']]}",
                                                       f"die id {rule['id']} hat schon {seen[rule['id']]}"))]
            if errs:
                problems.setdefault(question, []).extend(errs)
                continue
            seen[rule["id"]] = display
            rules.setdefault(question, []).append(rule)
    return rules, problems


def rule_base(rules_dir: Path | None = None) -> tuple[dict[str, list[dict]], dict[str, list]]:
    """(rules by question, problems by question) of the rule base in use, compiled once and cached by the
    content of its files (kb.catalog.compiled.load_rule_base)."""
    from kb.catalog.compiled import load_rule_base

    return load_rule_base(Path(rules_dir) if rules_dir else None)


def load_rules(rules_dir: Path | None = None) -> dict[str, list[dict]]:
    """Every rule, by question: {question: [compiled rule, …]}; RuleBaseInvalid if any rule file is not valid."""
    rules, problems = rule_base(rules_dir)
    if problems:
        raise RuleBaseInvalid([p for ps in problems.values() for p in ps])
    return rules


def question_rules(question: str, rules_dir: Path | None = None) -> list[dict]:
    """The rules of one question; RuleBaseInvalid if one of its files is not valid (other questions' are ignored)."""
    rules, problems = rule_base(rules_dir)
    if problems.get(question):
        raise RuleBaseInvalid(problems[question])
    return rules.get(question, [])


def placeholders(text: str) -> list[str]:
    """The `{placeholder}`s of a text, in order."""
    return PLACEHOLDER_RE.findall(text)


# ---------------------------------------------------------------- JSON Schema for editors

_TEXT = {"type": "object", "required": ["en", "de"], "additionalProperties": False,
         "properties": {"en": {"type": "string", "minLength": 1}, "de": {"type": "string", "minLength": 1}}}
_SCALAR = {"type": ["string", "number", "boolean"]}
_OPERAND = {"oneOf": [
    _SCALAR,
    {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": {"type": "string"},
     "description": "{alias: property}: equals the property of a fact named earlier in this rule"},
]}
_PROP_MAP = {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": _SCALAR,
             "description": "{property: constant}; comparing with another fact crashes durable-rules 2.0.28"}
RULE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "gpukb rule",
    "description": "One rule of the gpukb rule base (rules/<question>/<ID>-<slug>.yaml); see rules/README.md.",
    "type": "object",
    "additionalProperties": False,
    "required": list(TOP_KEYS),
    "properties": {
        "id": {"type": "string", "pattern": ID_RE.pattern, "description": "Stable id, e.g. MIG-001; the file name starts with it."},
        "question": {"type": "string", "pattern": QUESTION_RE.pattern, "description": "The question (= folder) the rule serves."},
        "title": {**_TEXT, "description": "Short title in English and German."},
        "when": {
            "description": "durable-rules JSON condition: {name: condition} for one fact or {all: [{a: …}, {b: …}]} for several.",
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "properties": {"all": {"type": "array", "minItems": 1, "items": {
                "type": "object", "minProperties": 1, "maxProperties": 1,
                "additionalProperties": {"$ref": "#/$defs/condition"}}}},
            "additionalProperties": {"$ref": "#/$defs/condition"},
        },
        "then": {
            "type": "object", "additionalProperties": False, "required": ["text"],
            "properties": {
                "verdict": {"enum": list(VERDICTS), "description": "Conclusion of a question (quote it: \"yes\", \"no\")."},
                "severity": {"enum": list(SEVERITIES), "description": "Severity of a config-check finding."},
                "text": {**_TEXT, "description": "Explanation; {placeholders} are filled from the matched facts."},
                "condition": {**_TEXT, "description": "What must hold or be done (for a conditional yes)."},
                "details": {"type": "object", "description": "Extra values the question folds into the answer."},
            },
            "oneOf": [{"required": ["verdict"]}, {"required": ["severity"]}],
        },
        "cites": {"type": "array", "minItems": 1, "items": {"type": "string", "pattern": CITE_RE.pattern},
                  "description": "Catalog facts whose citations back the conclusion, e.g. cards/{card}#mig.status."},
    },
    "$defs": {
        "operand": _OPERAND,
        "condition": {
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "properties": {
                **{op: {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/condition"}} for op in LOGICAL},
                **{op: _PROP_MAP for op in COMPARISONS},
                **{op: {"type": "object", "minProperties": 1, "maxProperties": 1,
                        "additionalProperties": {"const": 1}} for op in EXISTENCE},
            },
            "patternProperties": {"^[A-Za-z_][A-Za-z0-9_]*$": {"$ref": "#/$defs/operand"}},
            "additionalProperties": False,
        },
    },
}


def schema_json() -> str:
    """The rule file JSON Schema as written to rules/rule.schema.json."""
    return json.dumps(RULE_SCHEMA, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m kb.engine.rules [--schema]`: check every rule file (exit 1 on problems), or write the schema."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args == ["--schema"]:
        from kb.catalog.compiled import rules_dir

        (rules_dir() / "rule.schema.json").write_text(schema_json(), encoding="utf-8")
        return 0
    from kb.catalog.compiled import rules_dir

    rules, problems = compile_rules(rules_dir())
    for p in (p for ps in problems.values() for p in ps):
        print(p)
    print(f"{sum(len(r) for r in rules.values())} rules valid, {sum(len(p) for p in problems.values())} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
