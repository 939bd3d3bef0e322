"""A rule file (`rules/<question>/<ID>-<slug>.yaml`) as ONE pydantic model — the format, its checks and its
JSON Schema (`rules/rule.schema.json`, exported from `Rule` like the catalog's) in one place.

The words of the format (verdicts, severities, reserved properties, patterns) are defined once in
kb.engine.syntax (pydantic-free: the engine and the CLI use them too). The `when` conditions (durable-rules' JSON condition syntax, the subset gpukb allows) are checked by a
custom validator (`conditions`), which also compiles them into [[fact name, condition], …]. Validation
needs the YAML document's raw scalars (YAML 1.1 reads an unquoted `yes` as true) and the file's place:
pass them as context — `Rule.model_validate(data, context={"raw": doc.raw, "file": display,
"folder": question folder})`; kb.engine.rules does, and turns the errors into located problems.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, WithJsonSchema, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from kb.engine.syntax import (ALIAS_PATTERN, CITE_PATTERN, COMPARISONS, EXISTENCE, ID_PATTERN, LOGICAL,
                              PROP_PATTERN, QUESTION_PATTERN, RESERVED, SEVERITIES, VERDICTS, placeholders)

ALIAS_RE, PROP_RE, ID_RE = re.compile(ALIAS_PATTERN), re.compile(PROP_PATTERN), re.compile(ID_PATTERN)
QUESTION_RE, CITE_RE = re.compile(QUESTION_PATTERN), re.compile(CITE_PATTERN)


def _error(message: str, path: tuple = ()) -> PydanticCustomError:
    """A problem with our own words; `path` locates it below the field being validated."""
    return PydanticCustomError("rule", "{message}", {"message": message, "path": list(path)})


class RuleText(BaseModel):
    """Text in English and German (`{placeholders}` are filled from the matched facts)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    en: str = Field(min_length=1, description="English text.")
    de: str = Field(min_length=1, description="German text.")


def _text(value: Any, what: str) -> Any:
    """A text field's value: exactly `en` and `de`, both non-empty (the message names the field)."""
    if value is None:
        return value
    if not isinstance(value, dict) or set(value) != {"en", "de"}:
        raise _error(f"{what} needs exactly the keys 'en' and 'de'")
    for lang in ("en", "de"):
        if not isinstance(value[lang], str) or not value[lang].strip():
            raise _error(f"{what} in {lang!r} must be non-empty text", (lang,))
    return value


class Then(BaseModel):
    """What a rule concludes: a verdict (questions) or a severity (config checks), and why."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "oneOf": [{"required": ["verdict"]}, {"required": ["severity"]}]})

    verdict: Literal[VERDICTS] | SkipJsonSchema[None] = Field(None, description='Conclusion of a question (quote it: "yes", "no").')
    severity: Literal[SEVERITIES] | SkipJsonSchema[None] = Field(None, description="Severity of a config-check finding.")
    text: RuleText = Field(description="Explanation; {placeholders} are filled from the matched facts.")
    condition: RuleText | SkipJsonSchema[None] = Field(None, description="What must hold or be done (for a conditional yes).")
    details: dict[str, Any] | SkipJsonSchema[None] = Field(None, description="Extra values the question folds into the answer.")

    @field_validator("text", "condition", mode="before")
    @classmethod
    def _texts(cls, value: Any, info: ValidationInfo) -> Any:
        return _text(value, info.field_name)

    @field_validator("verdict", mode="before")
    @classmethod
    def _verdict(cls, value: Any, info: ValidationInfo) -> Any:
        """YAML 1.1 reads an unquoted yes/no as true/false: take the raw text then."""
        if isinstance(value, bool):
            raw = str(((info.context or {}).get("raw") or {}).get(("then", "verdict"), "")).lower()
            value = raw if raw in VERDICTS else value
        if value not in VERDICTS:
            raise _error(f"verdict {value!r} is not one of {', '.join(VERDICTS)}")
        return value

    @field_validator("severity", mode="before")
    @classmethod
    def _severity(cls, value: Any) -> Any:
        if value not in SEVERITIES:
            raise _error(f"severity {value!r} is not one of {', '.join(SEVERITIES)}")
        return value

    @model_validator(mode="after")
    def _one_conclusion(self) -> "Then":
        if (self.verdict is None) == (self.severity is None):
            raise _error("then: needs exactly one of verdict (questions) or severity (config checks)")
        return self


# ---------------------------------------------------------------- conditions (the custom validator)


class _Conditions:
    """Checks `when` and compiles it into [[fact name, condition], …]; problems as (path, message)."""

    def __init__(self, raw: dict):
        self.raw = raw
        self.problems: list[tuple[tuple, str]] = []

    def add(self, path: tuple, message: str) -> None:
        self.problems.append((path, message))

    def compile(self, when: Any) -> list:
        if not isinstance(when, dict) or len(when) != 1:
            self.add((), "when: is {name: condition} for one fact, or {all: [{a: …}, {b: …}]} for several")
            return []
        (key, value), = when.items()
        if key == "all":
            if not isinstance(value, list) or not value:
                self.add(("all",), "all: takes a list of {name: condition}")
                return []
            items = [(item, ("all", i)) for i, item in enumerate(value)]
        else:
            items = [(when, ())]
        out: list = []
        aliases: list[str] = []
        for item, path in items:
            if not isinstance(item, dict) or len(item) != 1:
                self.add(path, "each entry is {name: condition}")
                continue
            (alias, cond), = item.items()
            if not isinstance(alias, str) or not ALIAS_RE.match(alias) or alias in ("all", "any"):
                self.add(path, f"{alias!r} is not a usable fact name (lower-case letters, digits, _; not all/any)")
                continue
            if alias in aliases:
                self.add(path, f"fact name {alias!r} is used twice")
                continue
            self.condition(cond, path + (alias,), aliases)
            aliases.append(alias)
            out.append([alias, cond])
        return out

    def condition(self, cond: Any, path: tuple, aliases: list[str]) -> None:
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
        elif isinstance(key, str) and key.startswith("$"):
            self.add(here, f"operator {key!r} is not supported in gpukb rules; use "
                     + ", ".join(LOGICAL + COMPARISONS + EXISTENCE))
        else:
            self.prop(key, path)
            self.operand(value, here, aliases)

    def prop(self, prop: Any, path: tuple) -> None:
        if not isinstance(prop, str) or not PROP_RE.match(prop):
            self.add(path, f"{prop!r} is not a property name (letters, digits, _)")
        elif prop in RESERVED:
            self.add(path, f"{prop!r} is set by the engine itself and cannot be tested")

    def operand(self, value: Any, path: tuple, aliases: list[str], compare: str | None = None) -> None:
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
                self.add(path, f"{alias!r} is not a fact named earlier in this rule (earlier: {', '.join(aliases) or 'none'})")
            elif not isinstance(prop, str) or not PROP_RE.match(prop):
                self.add(path + (alias,), f"{prop!r} is not a property name")
        elif isinstance(value, (list, type(None))):
            self.add(path, "compare with a text, number or true/false, or {alias: property}")
        elif isinstance(value, bool):
            raw = str(self.raw.get(("when",) + path, "true"))
            if raw.lower() not in ("true", "false"):
                self.add(path, f"YAML reads {raw} as {str(value).lower()}: write \"{raw}\" in quotes for the text, "
                         f"or {str(value).lower()} for the truth value")


#: JSON Schema of `when` (the custom validator's contract, for editors)
_SCALAR = {"type": ["string", "number", "boolean"]}
WHEN_SCHEMA = {
    "description": "durable-rules JSON condition: {name: condition} for one fact or {all: [{a: …}, {b: …}]} "
                   "for several.",
    "type": "object", "minProperties": 1, "maxProperties": 1,
    "properties": {"all": {"type": "array", "minItems": 1, "items": {
        "type": "object", "minProperties": 1, "maxProperties": 1,
        "additionalProperties": {"$ref": "#/$defs/condition"}}}},
    "additionalProperties": {"$ref": "#/$defs/condition"},
}
CONDITION_DEFS = {
    "operand": {"oneOf": [
        _SCALAR,
        {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": {"type": "string"},
         "description": "{alias: property}: equals the property of a fact named earlier in this rule"},
    ]},
    "condition": {
        "type": "object", "minProperties": 1, "maxProperties": 1,
        "properties": {
            **{op: {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/condition"}} for op in LOGICAL},
            **{op: {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": _SCALAR,
                    "description": "{property: constant}; comparing with another fact crashes durable-rules 2.0.28"}
               for op in COMPARISONS},
            **{op: {"type": "object", "minProperties": 1, "maxProperties": 1,
                    "additionalProperties": {"const": 1}} for op in EXISTENCE},
        },
        "patternProperties": {PROP_RE.pattern: {"$ref": "#/$defs/operand"}},
        "additionalProperties": False,
    },
}


class Rule(BaseModel):
    """One rule of the gpukb rule base (rules/<question>/<ID>-<slug>.yaml); see rules/README.md."""

    model_config = ConfigDict(extra="forbid", title="gpukb rule")

    id: str = Field(pattern=ID_RE.pattern, description="Stable id, e.g. MIG-001; the file name starts with it.")
    question: str = Field(pattern=QUESTION_RE.pattern, description="The question (= folder) the rule serves.")
    title: RuleText = Field(description="Short title in English and German.")
    when: Annotated[list, WithJsonSchema({"description": "replaced by WHEN_SCHEMA in rule_schema()"})]
    then: Then
    cites: list[str] = Field(min_length=1, description="Catalog facts whose citations back the conclusion, "
                                                       "e.g. cards/{card}#mig.status.")

    @field_validator("title", mode="before")
    @classmethod
    def _title(cls, value: Any) -> Any:
        return _text(value, "title")

    @field_validator("id", mode="before")
    @classmethod
    def _id(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str) or not ID_RE.match(value):
            raise _error(f"id {value!r} must be upper-case words joined by hyphens, e.g. MIG-001")
        file = (info.context or {}).get("file")
        if file and not PurePosixPath(file).name.startswith(value + "-"):
            raise _error(f"the file name must start with the id: {value}-<slug>.yaml")
        return value

    @field_validator("question", mode="before")
    @classmethod
    def _question(cls, value: Any, info: ValidationInfo) -> Any:
        if not isinstance(value, str) or not QUESTION_RE.match(value):
            raise _error(f"question {value!r} is not a question name")
        folder = (info.context or {}).get("folder")
        if folder is not None and value != folder:
            raise _error(f"question {value!r} must equal the folder name {folder!r}")
        return value

    @field_validator("when", mode="before")
    @classmethod
    def _when(cls, value: Any, info: ValidationInfo) -> list:
        conditions = _Conditions((info.context or {}).get("raw") or {})
        compiled = conditions.compile(value)
        if conditions.problems:
            raise PydanticCustomError("conditions", "{message}", {
                "message": conditions.problems[0][1], "problems": [[list(p), m] for p, m in conditions.problems]})
        return compiled

    @field_validator("cites", mode="before")
    @classmethod
    def _cites(cls, value: Any) -> Any:
        if not isinstance(value, list) or not value:
            raise _error("cites: lists at least one catalog fact, e.g. cards/{card}#mig.status")
        for i, ref in enumerate(value):
            if not isinstance(ref, str) or not CITE_RE.match(ref):
                raise _error(f"{ref!r} is not a fact reference like cards/{{card}}#mig.status", (i,))
        return value

    @model_validator(mode="after")
    def _placeholders_name_facts(self) -> "Rule":
        aliases = [alias for alias, _ in self.when]
        for key in ("text", "condition"):
            text = getattr(self.then, key)
            for lang in ("en", "de"):
                for name in placeholders(getattr(text, lang)) if text is not None else []:
                    if "." in name and name.split(".")[0] not in aliases:
                        raise _error(f"placeholder {{{name}}} names no fact of the rule "
                                     f"(facts: {', '.join(aliases) or 'none'})", ("then", key, lang))
        return self

    def compiled(self, file: str, line: int | None) -> dict:
        """The rule as the engine reads it (plain JSON; cached by kb.catalog.compiled)."""
        then = self.then.model_dump(exclude_none=True)
        return {"id": self.id, "question": self.question, "title": self.title.model_dump(), "when": self.when,
                "then": then, "cites": list(self.cites), "file": file, "line": line}


TOP_KEYS = tuple(Rule.model_fields)
THEN_KEYS = tuple(Then.model_fields)


def rule_schema() -> dict:
    """The JSON Schema of a rule file (rules/rule.schema.json), exported from `Rule`; `when` is described by
    the contract of its custom validator (WHEN_SCHEMA and its $defs)."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **Rule.model_json_schema()}
    schema["properties"]["when"] = WHEN_SCHEMA
    schema.setdefault("$defs", {}).update(CONDITION_DEFS)
    return schema
