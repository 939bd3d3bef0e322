"""Rule files (`rules/<question>/<ID>-<slug>.yaml`): reading, validating with file/line errors, compiling.

The format is ONE pydantic model, `kb.models.rule.Rule` (its JSON Schema: rules/rule.schema.json); here a
rule file is read, validated against it and compiled into the plain JSON the engine reads (cached by
kb.catalog.compiled: pydantic is imported only when the rule base is compiled).
"""

from __future__ import annotations

import json
from pathlib import Path

from kb.errors import RuleBaseInvalid


# ---------------------------------------------------------------- validation


def _problems(doc, display: str, exc) -> list:
    """A pydantic ValidationError of `Rule` as located problems (file, line, field path, message)."""
    from kb.catalog.yamlsafe import Problem, dotted
    from kb.models.rule import THEN_KEYS, TOP_KEYS
    from kb.text import Text
    from kb.wording import quoted

    out = []

    def add(path: tuple, message: str) -> None:
        path = tuple(path)
        out.append(Problem(display, doc.line_of(path), dotted(path),
                           Text(message, f"die Regeldatei ist nicht gültig (die Prüfung meldet: {quoted(message, 'de')})")))

    for err in exc.errors(include_url=False):
        loc, ctx = tuple(err["loc"]), err.get("ctx") or {}
        if err["type"] == "conditions":
            for path, message in ctx["problems"]:
                add(("when", *path), message)
        elif err["type"] == "rule":
            add(loc + tuple(ctx.get("path") or ()), ctx["message"])
        elif err["type"] == "extra_forbidden":
            fields = THEN_KEYS if loc[:1] == ("then",) else TOP_KEYS
            add(loc, f"unknown field {loc[-1]!r} (fields: {', '.join(fields)})")
        elif err["type"] == "missing":
            add(loc[:-1], f"missing field {loc[-1]!r}")
        elif err["type"] in ("model_type", "model_attributes_type", "dict_type") and loc == ():
            add((), "a rule file is a mapping with " + ", ".join(TOP_KEYS))
        else:
            add(loc, err["msg"])
    return out


def check_rule(doc, display: str, question_dir: str | None = None) -> tuple[dict | None, list]:
    """Validate one parsed rule document against kb.models.rule.Rule. Returns (compiled rule, problems)."""
    from pydantic import ValidationError

    from kb.models.rule import Rule

    try:
        rule = Rule.model_validate(doc.data, context={"raw": doc.raw, "file": display, "folder": question_dir})
    except ValidationError as exc:
        return None, _problems(doc, display, exc)
    return rule.compiled(display, doc.line_of(("when",))), []


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


def schema_json() -> str:
    """The rule file JSON Schema as written to rules/rule.schema.json (exported from kb.models.rule.Rule)."""
    from kb.models.rule import rule_schema

    return json.dumps(rule_schema(), indent=2, ensure_ascii=False) + "\n"


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
