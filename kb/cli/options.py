"""Output options shared by every command (like sqlite-utils' output-option decorators)."""

from __future__ import annotations

import functools
import json
import sys

import click

from kb.cli.exitcodes import Exit, exit_code


def output_options(fn):
    """Adds --json and --lang de|en."""
    fn = click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True,
                      help="Language of the output / Sprache der Ausgabe.")(fn)
    fn = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text / JSON ausgeben.")(fn)
    return fn


def print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


class UsageProblem(click.ClickException):
    """Unusable input: printed as 'Error: …' ('Fehler: …' with lang="de") and exit code 2. Raised only at the CLI edge."""

    exit_code = Exit.UNUSABLE

    def __init__(self, message: str, lang: str = "en"):
        super().__init__(message)
        self.lang = lang

    def show(self, file=None) -> None:
        click.echo(f"{t(self.lang, 'Error', 'Fehler')}: {self.format_message()}", file=file, err=file is None)


def json_errors(command):
    """With --json, unusable input is also printed as JSON on stdout ({error, lang, exit_code}), so a tool that
    parses stdout learns why there is no result. Goes below @output_options."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except UsageProblem as problem:
            if not kwargs.get("as_json"):
                raise
            code = exit_code(unusable=True)
            print_json({"error": problem.format_message(), "lang": kwargs.get("lang", "en"), "exit_code": int(code)})
            sys.exit(code)

    return wrapper


def t(lang: str, en: str, de: str) -> str:
    """Pick the text of the requested language."""
    return de if lang == "de" else en


def load_catalog_data():
    """The compiled catalog, or a clear error (exit 2) listing what is wrong with the YAML."""
    from kb.catalog.compiled import load_data
    from kb.catalog.loader import CatalogError

    try:
        return load_data()
    except CatalogError as exc:
        lines = "\n".join(f"  {p}" for p in exc.problems[:20])
        more = f"\n  … and {len(exc.problems) - 20} more" if len(exc.problems) > 20 else ""
        raise UsageProblem(f"the catalog is not usable (run 'gpukb lint'):\n{lines}{more}") from None


def resolve_card(data: dict, name: str, lang: str = "en") -> str:
    """Card id for a user-typed name; unknown or ambiguous names exit 2 with the closest cards (worded as
    `gpukb ask` words them: kb.questions.base.card_id)."""
    from kb.questions.base import InputError, card_id, make_index

    try:
        return card_id(make_index(data), name)
    except InputError as exc:
        raise UsageProblem(exc.text[lang], lang) from None
