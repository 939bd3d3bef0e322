"""The whole check: files → documents → objects → facts → the `check` rules → findings and a summary."""

from __future__ import annotations

from dataclasses import dataclass

from kb.check.documents import STDIN, STDIN_NAME, expand, read_inputs
from kb.check.facts import Environment, FactSet, build_facts
from kb.check.findings import fold, order, summary
from kb.check.readers import Inventory, read_objects


@dataclass
class Report:
    findings: list[dict]
    summary: dict
    inventory: Inventory
    facts: FactSet

    @property
    def has_errors(self) -> bool:
        return any(f["severity"] == "error" for f in self.findings)

    def as_json(self) -> dict:
        return {"findings": self.findings, "summary": self.summary}


def check(names: list[str], data: dict, env: Environment | None = None, *, lang: str = "en",
          engine: str = "durable", rules=None, stdin=None) -> Report:
    """Check the named files ('-' = stdin; a directory: its YAML and JSON files). Raises kb.check.documents.UnreadableInput where a file
    cannot be parsed (then nothing is checked) and kb.engine.EngineFailure where the engine fails."""
    from kb.engine import evaluate

    env = env or Environment()
    names = expand(names)
    docs = read_inputs(names, stdin=stdin)
    inv = read_objects(docs)
    facts = build_facts(inv, data, env)
    conclusions = evaluate("check", facts.facts, engine=engine, data=data, rules=rules)
    files = [STDIN_NAME if n == STDIN else n for n in names]
    findings = order(fold(conclusions, facts, lang), files)
    inputs = {"operator": env.operator, "k8s": next((f.get("k8s") for f in facts.facts if f["kind"] == "cluster"), None),
              "driver": next((f.get("driver") for f in facts.facts if f["kind"] == "cluster"), None)}
    return Report(findings, summary(findings, inv, files, len(docs), inputs, data.get("data_version", ""), lang),
                  inv, facts)
