"""`gpukb ask …`: answers derived by the rule engine, with reasons and citations.

One subcommand per question of the rule base (kb.questions.questions()), built from what its module
declares — `HELP` (its help, "English\\fDeutsch") and `PARAMS` (kb.questions.base.Param: its arguments and
options) — so a new question needs no CLI code. Values the catalog defines (workloads, DRA features) are
checked by the question's `resolve` and listed in the help from the catalog, not written here.
"""

from __future__ import annotations

import contextlib
import re

import click

from kb.cli.i18n import Command, Group
from kb.cli.options import output_options, print_json

EXPLAIN = click.option("--explain", is_flag=True,
                       help="Show the rules that apply and the facts they read.\fRegeln, die greifen, und die Fakten zeigen, die sie lesen.")


def run(question: str, lang: str, as_json: bool, explain: bool, **raw) -> None:
    """Answer one question and print it (unusable input raises kb.errors.UnusableInput: the edge reports it)."""
    from kb.answer import localise, render_text
    from kb.questions import answer

    result = answer(question, **raw)
    if as_json:
        print_json(localise(result, lang))
    else:
        click.echo(render_text(result, lang, explain))


class CatalogValues(click.Option):
    """An option whose help lists the values the catalog knows (the index's `values_from` list), read when the
    help is shown; the value itself is checked by the question (with the closest known values)."""

    def __init__(self, *args, values_from: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.values_from = values_from

    def get_help_record(self, ctx):
        record = super().get_help_record(ctx)
        if record is None:
            return None
        known = _known(self.values_from)
        return (record[0], f"{record[1]}  [{'|'.join(known)}]") if known else record


def _known(values_from: str) -> list[str]:
    """The values the catalog's index lists under `values_from` ([] where the catalog does not load: the help is
    shown without them)."""
    try:
        from kb.catalog.compiled import load_data

        return list(load_data(parts=("index",))["index"].get(values_from) or [])
    except Exception:  # noqa: BLE001 - a catalog that does not load shows the help without the list
        return []


#: " ({methods})" in a question's help: the index's list of that name, read when the help is shown
_LISTED = re.compile(r" \(\{(\w+)\}\)")


def _listing(text: str) -> str:
    """`text` with each " ({name})" replaced by the catalog's values of the index list `name`, or left out."""
    return _LISTED.sub(lambda m: f" ({', '.join(known)})" if (known := _known(m.group(1))) else "", text)


class QuestionCommand(Command):
    """A question's subcommand. Its help may name a list of the catalog in braces, " ({methods})": filled with the
    catalog's values when the help is shown (the question module's HELP writes no list of its own)."""

    def format_help_text(self, ctx, formatter):
        with self._listed():
            super().format_help_text(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with self._listed():
            return super().get_short_help_str(limit)

    @contextlib.contextmanager
    def _listed(self):
        written = self.help
        self.help = _listing(written) if written and "({" in written else written
        try:
            yield
        finally:
            self.help = written


def _param(spec) -> click.Parameter:
    """A click argument or option from a question's declaration (kb.questions.base.Param)."""
    help_ = spec.help.en + "\f" + spec.help.de if spec.help else None
    if spec.kind == "argument":
        return click.Argument([spec.name], required=spec.required, metavar=spec.metavar)
    decl = spec.option or "--" + spec.name.replace("_", "-")
    kwargs: dict = {"help": help_, "required": spec.required, "multiple": spec.multiple}
    if spec.kind == "flag":
        return click.Option([decl, spec.name], is_flag=True, help=help_)
    if spec.choices:
        kwargs["type"] = click.Choice(list(spec.choices))
    elif spec.kind == "int":
        kwargs["type"] = int
    if spec.metavar:
        kwargs["metavar"] = spec.metavar
    if spec.values_from:
        return CatalogValues([decl, spec.name], values_from=spec.values_from, **kwargs)
    return click.Option([decl, spec.name], **kwargs)


def command_for(question: str) -> click.Command:
    """The `gpukb ask <question>` subcommand, built from the question module's HELP and PARAMS."""
    from kb.questions import module

    mod = module(question)

    def callback(explain, as_json, lang, **raw):
        for spec in mod.PARAMS:
            if spec.multiple:
                raw[spec.name] = list(raw[spec.name])
        run(question, lang, as_json, explain, **raw)

    # what an argument may be (click shows no help of arguments): a paragraph after the question's own help
    said = [p.help for p in mod.PARAMS if p.kind == "argument" and p.help]
    help_ = "".join(["\n\n".join([mod.HELP.en, *(h.en for h in said)]), "\n\f\n",
                     "\n\n".join([mod.HELP.de, *(h.de for h in said)])])
    cmd = QuestionCommand(question, callback=callback, params=[_param(p) for p in mod.PARAMS], help=help_)
    EXPLAIN(cmd)
    output_options(cmd)
    return cmd


class Questions(Group):
    """`gpukb ask`: its subcommands are the questions of the rule base, each built when it is asked."""

    def list_commands(self, ctx):
        from kb.questions import questions

        return sorted(questions())

    def get_command(self, ctx, name):
        from kb.questions import is_question

        return command_for(name) if is_question(name) else None


@click.group(cls=Questions)
def ask():
    """Ask the knowledge base; every answer has a verdict, reasons and sources.

    \b
    Example:
      gpukb ask mig "H200 NVL"
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 580.82.07 --json
    \f
    Die Wissensdatenbank fragen; jede Antwort hat ein Urteil, Gründe und Quellen.

    \b
    Beispiel:
      gpukb ask mig "H200 NVL" --lang de
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 580.82.07 --json --lang de
    """
