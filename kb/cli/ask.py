"""`gpukb ask …`: answers derived by the rule engine, with reasons and citations."""

from __future__ import annotations

import sys

import click

from kb.cli.exitcodes import Exit
from kb.cli.options import UsageProblem, output_options, print_json

EXPLAIN = click.option("--explain", is_flag=True,
                       help="Show the rules that fired and the facts they read / Regeln und gelesene Fakten zeigen.")
OPERATOR = click.option("--operator", metavar="V", help="GPU Operator release, e.g. 26.7.0 (default: the newest known).")
DRIVER = click.option("--driver", metavar="V", help="NVIDIA driver version, e.g. 580.82.07.")


def _problem(exc: Exception, lang: str) -> UsageProblem | None:
    """Unusable input as exit 2; None where the exception is not about the input."""
    from kb.questions.base import InputError

    if isinstance(exc, InputError):
        return UsageProblem(exc.text[lang])
    loader, rules = sys.modules.get("kb.catalog.loader"), sys.modules.get("kb.engine.rules")
    for mod, what in ((loader, "CatalogError"), (rules, "RuleError")):
        if mod is not None and isinstance(exc, getattr(mod, what)):
            shown = "\n".join(f"  {p}" for p in exc.problems[:20])
            head = {"en": "the catalog or the rules are not usable (run 'gpukb lint'):",
                    "de": "Katalog oder Regeln sind nicht verwendbar ('gpukb lint' ausführen):"}[lang]
            return UsageProblem(f"{head}\n{shown}")
    return None


def run(question: str, lang: str, as_json: bool, explain: bool, **raw) -> None:
    """Answer one question and print it; decides exit 2 (input) and 1 (engine failure)."""
    from kb.answer import localise, render_text
    from kb.questions import answer

    try:
        result = answer(question, **raw)
    except Exception as exc:  # noqa: BLE001 - sorted into input problems and internal errors below
        problem = _problem(exc, lang)
        if problem is not None:
            raise problem from None
        engine = sys.modules.get("kb.engine.errors")
        if engine is not None and isinstance(exc, engine.EngineError):
            click.echo(f"Error: internal error in the rule engine: {exc}", err=True)
            sys.exit(Exit.FINDINGS)
        raise
    if as_json:
        print_json(localise(result, lang))
    else:
        click.echo(render_text(result, lang, explain))


@click.group()
def ask():
    """Ask the knowledge base; every answer has a verdict, reasons and sources.

    Die Wissensbasis fragen; jede Antwort hat ein Urteil, Gründe und Quellen.

    \b
    Example / Beispiel:
      gpukb ask mig "H200 NVL"
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 580.82.07 --json
    """


@ask.command()
@click.argument("card")
@OPERATOR
@DRIVER
@EXPLAIN
@output_options
def mig(card, operator, driver, explain, as_json, lang):
    """Can CARD run MIG (with this operator release and driver)?

    Kann CARD MIG nutzen (mit diesem Operator-Release und Treiber)?

    \b
    Example / Beispiel:
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 575.57.08 --lang de
    """
    run("mig", lang, as_json, explain, card=card, operator=operator, driver=driver)
