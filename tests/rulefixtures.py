"""The one convention for rule fixtures — question rules and check rules alike (like checkov's):

    tests/rules/<question>/<RULE-ID>/fires[-<what>].yaml    the rule fires on it
    tests/rules/<question>/<RULE-ID>/quiet[-<what>].yaml    the rule stays quiet on it

The folder's whole name is the rule id (never a slice of a file name); the file name says the outcome.
A question fixture is `{rule: <id>, facts: [...]}` (the facts the rule reads; `rule` must equal the folder);
a check fixture is a manifest, checked as `gpukb check` would (a first line `# gpukb check --k8s 1.33.5 …`
gives the options). Every rule has at least one `fires` and one `quiet` fixture; every fixture folder
names a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "rules"
OUTCOMES = ("fires", "quiet")


@dataclass(frozen=True)
class Fixture:
    question: str
    rule: str
    outcome: str  # "fires" | "quiet"
    path: Path

    @property
    def fires(self) -> bool:
        return self.outcome == "fires"

    @property
    def name(self) -> str:
        return f"{self.rule}/{self.path.stem}"


def fixtures(question: str) -> list[Fixture]:
    """Every fixture of `question`, sorted; a file whose name starts with neither outcome is an error."""
    out = []
    for path in sorted((ROOT / question).glob("*/*.yaml")):
        outcome = path.stem.split("-", 1)[0]
        if outcome not in OUTCOMES:
            raise ValueError(f"{path}: a rule fixture is named fires[-…].yaml or quiet[-…].yaml")
        out.append(Fixture(question, path.parent.name, outcome, path))
    return out


def missing(question: str, rule_ids) -> list[str]:
    """'<rule>/<outcome>' for every rule of `rule_ids` that lacks a fixture of an outcome, plus
    '<folder>: no such rule' for fixture folders that name no rule."""
    have = {(f.rule, f.outcome) for f in fixtures(question)}
    out = [f"{rid}/{o}" for rid in sorted(rule_ids) for o in OUTCOMES if (rid, o) not in have]
    folders = {p.name for p in (ROOT / question).iterdir() if p.is_dir()} if (ROOT / question).is_dir() else set()
    out += [f"{name}: no such rule" for name in sorted(folders - set(rule_ids))]
    return out
