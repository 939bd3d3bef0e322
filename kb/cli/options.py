"""Options shared by every command (like sqlite-utils' output-option decorators), and the few helpers
commands share. Errors are raised as domain errors (kb.errors); kb.cli.edge reports them."""

from __future__ import annotations

import click

from kb.cli import edge, i18n


def _noted(name: str):
    def callback(ctx, param, value):
        edge.note("command", " ".join(ctx.command_path.split()[1:]))
        if name == "lang":
            i18n.set_current(value)
        else:
            edge.note(name, value)
        return value

    return callback


def output_options(fn):
    """Adds --json and --lang en|de (default: the locale's language, see kb.cli.i18n)."""
    fn = click.option("--lang", type=click.Choice(list(i18n.LANGS)), default=lambda: i18n.current(),
                      callback=_noted("lang"), show_default=False,
                      help="Language of the output (default: German where the locale — LC_ALL, LC_MESSAGES or "
                           "LANG — is de_*, else English)."
                           "\fSprache der Ausgabe (Standard: Deutsch, wenn die Locale – LC_ALL, LC_MESSAGES "
                           "oder LANG – de_* ist, sonst Englisch).")(fn)
    fn = click.option("--json", "as_json", is_flag=True, callback=_noted("json"),
                      help="Print JSON instead of text (errors too).\fJSON statt Text ausgeben (auch Fehler).")(fn)
    return fn


def json_text(data) -> str:
    """The CLI's JSON text of `data` (every `--json` output, errors and the export's file included):
    `json.dumps(data, ensure_ascii=False, indent=2)`, written by orjson where installed (the same text, ≈ 4 × faster
    on the export's 112 MB: kb.jsonbytes)."""
    from kb.jsonbytes import dumps_indented

    return dumps_indented(data).decode("utf-8")


def print_json(data) -> None:
    click.echo(json_text(data))


def resolve_card(data: dict, name: str) -> str:
    """Card id for a user-typed name; kb.errors.UnusableInput with the closest cards where it fits none or
    several (worded as `gpukb ask` words it: kb.questions.base.card_id)."""
    from kb.questions.base import card_id, make_index

    return card_id(make_index(data), name)
