"""Run every lint check over a catalog folder."""

from __future__ import annotations

import datetime as dt
import importlib
from dataclasses import dataclass, field
from pathlib import Path

from kb.catalog.compiled import rules_dir
from kb.catalog.loader import load_catalog
from kb.catalog.yamlsafe import Problem
from kb.errors import CatalogInvalid
from kb.lint.checks import CHECKS
from kb.lint.context import LintContext, shared_dir
from kb.text import Text


@dataclass
class LintResult:
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False           # a file could not be read or parsed at all
    checks: dict[str, str] = field(default_factory=dict)  # check id -> passed | failed | skipped: why (English)
    skipped: dict[str, Text] = field(default_factory=dict)  # check id -> why it was skipped, in both languages

    def skip(self, name: str, why: Text) -> None:
        self.checks[name] = f"skipped: {why.en}"
        self.skipped[name] = why


def lint(root: Path, today: dt.date | None = None, shared: Path | None = None, rules: Path | None = None) -> LintResult:
    """Check the catalog at `root`, and the rule base `rules` (default: kb.catalog.compiled.rules_dir()) against it."""
    result = LintResult()
    try:
        if root.is_file():
            raise CatalogInvalid([Problem(str(root), None, "", Text("a file, not a catalog folder",
                                                                   "eine Datei, kein Katalogordner"), kind="io")])
        catalog = load_catalog(root)
    except CatalogInvalid as exc:
        result.problems = exc.problems
        result.unreadable = any(p.kind in {"io", "yaml"} for p in exc.problems)
        result.checks["schema"] = "failed"
        for name in CHECKS:
            result.skip(name, Text("the catalog does not load", "der Katalog lädt nicht"))
        return result
    result.checks["schema"] = "passed"
    ctx = LintContext(catalog=catalog, shared=shared or shared_dir(), today=today or dt.date.today(),
                      rules=rules or rules_dir())
    for name in CHECKS:
        module = importlib.import_module(f"kb.lint.checks.{name}")
        if name == "quotes" and not ctx.shared.is_dir():
            result.skip(name, Text("{path} not found", "{path} nicht gefunden").format(path=str(ctx.shared)))
            continue
        found = module.check(ctx)
        result.problems += found
        result.checks[name] = "failed" if found else "passed"
    return result
