"""The domain errors every part of gpukb raises. Nothing below the CLI prints an error or picks an exit
code: code raises one of these, and the CLI's one edge (`kb.cli.edge`) turns it into text or JSON and
an exit code (decided in `kb.cli.exitcodes`).

Each error carries its message as a `Text` (both languages), a `kind` (a stable id, shown in JSON)
and `details` (JSON-able extras: suggestions, file and line, problems, …).

    raise UnusableInput(Text("unknown card 'H200'", "unbekannte Karte 'H200'"),
                        details={"suggestions": ["h200-nvl"]})
"""

from __future__ import annotations

from typing import Any

from kb.text import Text


class GpukbError(Exception):
    """Base of every error gpukb reports to its user."""

    #: stable id of the error kind (JSON `kind`)
    kind = "error"
    #: outcome for kb.cli.exitcodes.exit_code(): "unusable", "unreachable" or "internal"
    outcome = "unusable"

    def __init__(self, text: Text | str, *, details: dict[str, Any] | None = None):
        self.text = Text.of(text)
        self.details = dict(details or {})
        super().__init__(self.text.en)

    def message(self, lang: str) -> str:
        return self.text(lang)


class UnusableInput(GpukbError):
    """Input that cannot be used: an unknown card, version, profile or question, a bad combination of
    options. `details["suggestions"]` lists the closest known values, where there are any."""

    kind = "unusable-input"

    def __init__(self, text: Text | str, *, suggestions: list[str] | None = None,
                 details: dict[str, Any] | None = None):
        details = dict(details or {})
        if suggestions is not None:
            details["suggestions"] = list(suggestions)
        super().__init__(text, details=details)

    @property
    def suggestions(self) -> list[str]:
        return list(self.details.get("suggestions", []))


class UnreadableFile(UnusableInput):
    """A file the user named that cannot be read or parsed: missing, a folder, not text, too big, not
    YAML/JSON. `details` has `file` and, where known, `line` — or, for several files, `problems`
    [{file, line, path, kind, message}]."""

    kind = "unreadable-file"

    def __init__(self, text: Text | str, *, file: str | None = None, line: int | None = None,
                 details: dict[str, Any] | None = None):
        details = dict(details or {})
        if file is not None:
            details["file"] = file
        if line is not None:
            details["line"] = line
        super().__init__(text, details=details)


def problem_dict(problem: Any) -> dict:
    """A problem (kb.catalog.yamlsafe.Problem, anything with `as_dict()`, or a dict) as a plain dict
    {file, line, path, kind, message}; `message` may be a Text."""
    return dict(problem.as_dict() if hasattr(problem, "as_dict") else problem)


class _Problems(GpukbError):
    """An error made of located problems: `problems` (as given) and `details["problems"]` (as dicts)."""

    TEXT = Text("not usable", "nicht verwendbar")

    def __init__(self, problems=(), text: Text | str | None = None, *, details: dict[str, Any] | None = None):
        self.problems = list(problems)
        super().__init__(text or self.TEXT,
                         details={**(details or {}), "problems": [problem_dict(p) for p in self.problems]})

    def __str__(self) -> str:
        return "\n".join([self.text.en + (":" if self.problems else ""), *(f"  {p}" for p in self.problems)])


class CatalogInvalid(_Problems):
    """The catalog (ours or the one $GPUKB_CATALOG points at) does not load: `details["problems"]` lists
    each problem as {file, line, path, kind, message}."""

    kind = "catalog-invalid"
    TEXT = Text("the catalog is not usable (run 'gpukb lint')",
                "der Katalog ist nicht verwendbar (prüfen mit 'gpukb lint')")


class RuleBaseInvalid(_Problems):
    """A rule file does not validate: `details["problems"]` as for CatalogInvalid."""

    kind = "rules-invalid"
    TEXT = Text("the rule base is not usable (run 'gpukb lint')",
                "die Regelbasis ist nicht verwendbar (prüfen mit 'gpukb lint')")


class EngineFailure(GpukbError):
    """The rule engine could not evaluate (a failing action, a swallowed durable-rules exception, a
    placeholder or citation that does not resolve). Not the user's fault: an internal error."""

    kind = "engine-failure"
    outcome = "internal"


class SourceUnreachable(GpukbError):
    """A watched NVIDIA document could not be fetched or parsed (`details["source"]`, `details["url"]`)."""

    kind = "source-unreachable"
    outcome = "unreachable"
