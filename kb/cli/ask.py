"""`gpukb ask …`: answers derived by the rule engine, with reasons and citations."""

from __future__ import annotations

import sys

import click

from kb.cli.exitcodes import exit_code
from kb.cli.options import UsageProblem, output_options, print_json

EXPLAIN = click.option("--explain", is_flag=True,
                       help="Show the rules that fired and the facts they read / Regeln und gelesene Fakten zeigen.")
OPERATOR = click.option("--operator", metavar="V", help="GPU Operator release, e.g. 26.7.0 (default: the newest known).")
DRIVER = click.option("--driver", metavar="V", help="NVIDIA driver version, e.g. 580.82.07.")


def _problem(exc: Exception, lang: str) -> UsageProblem | None:
    """Unusable input as exit 2; None where the exception is not about the input."""
    from kb.questions.base import InputError

    if isinstance(exc, InputError):
        problem = UsageProblem(exc.text[lang], lang)
        problem.suggestions = exc.suggestions
        return problem
    loader, rules = sys.modules.get("kb.catalog.loader"), sys.modules.get("kb.engine.rules")
    for mod, what in ((loader, "CatalogError"), (rules, "RuleError")):
        if mod is not None and isinstance(exc, getattr(mod, what)):
            shown = "\n".join(f"  {p}" for p in exc.problems[:20])
            head = {"en": "the catalog or the rules are not usable (run 'gpukb lint'):",
                    "de": "Katalog oder Regeln sind nicht verwendbar ('gpukb lint' ausführen):"}[lang]
            return UsageProblem(f"{head}\n{shown}", lang)
    return None


def call(fn, lang: str):
    """fn(), with unusable input turned into exit 2 and an engine failure into exit 1 (no traceback)."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - sorted into input problems and internal errors below
        problem = _problem(exc, lang)
        if problem is not None:
            raise problem from None
        engine = sys.modules.get("kb.engine.errors")
        if engine is not None and isinstance(exc, engine.EngineError):
            click.echo(f"Error: internal error in the rule engine: {exc}", err=True)
            sys.exit(exit_code(internal_error=True))
        raise


def run(question: str, lang: str, as_json: bool, explain: bool, **raw) -> None:
    """Answer one question and print it."""
    from kb.answer import localise, render_text
    from kb.questions import answer

    try:
        result = call(lambda: answer(question, **raw), lang)
    except UsageProblem as problem:
        if not as_json:
            raise
        # --json: the error as JSON on stdout too, so a tool reading stdout learns why there is no answer
        print_json({"question": question, "error": problem.format_message(),
                    "suggestions": getattr(problem, "suggestions", []), "lang": lang})
        sys.exit(exit_code(unusable=True))
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


@ask.command()
@click.argument("card")
@OPERATOR
@DRIVER
@click.option("--mig-enabled", is_flag=True, help="The GPU has MIG enabled / MIG ist auf der GPU aktiviert.")
@EXPLAIN
@output_options
def methods(card, operator, driver, mig_enabled, explain, as_json, lang):
    """Which sharing methods work on CARD (whole, mig, time-slicing, mps, vm-passthrough, vgpu, dra)?

    Welche Sharing-Methoden gehen auf CARD?

    \b
    Example / Beispiel:
      gpukb ask methods "H200 NVL" --mig-enabled
    """
    run("methods", lang, as_json, explain, card=card, operator=operator, driver=driver, mig_enabled=mig_enabled)


@ask.command()
@click.argument("card")
@OPERATOR
@click.option("--profile", metavar="P", help="MIG profile, e.g. 1g.18gb.")
@click.option("--mig-strategy", type=click.Choice(["single", "mixed"]), help="mig.strategy (default: single).")
@click.option("--time-slicing", type=int, metavar="N", help="Time-slicing with N replicas per GPU.")
@click.option("--mps", type=int, metavar="N", help="MPS with N replicas per GPU.")
@click.option("--rename-by-default", is_flag=True, help="renameByDefault: true (resource name gets .shared).")
@EXPLAIN
@output_options
def resource(card, operator, profile, mig_strategy, time_slicing, mps, rename_by_default, explain, as_json, lang):
    """What does a pod on CARD request, and how do the node labels change?

    Was fordert ein Pod auf CARD an, und wie ändern sich die Node-Labels?

    \b
    Example / Beispiel:
      gpukb ask resource "H200 NVL" --profile 1g.18gb --mig-strategy mixed
      gpukb ask resource L4 --time-slicing 4 --rename-by-default
    """
    run("resource", lang, as_json, explain, card=card, operator=operator, profile=profile, mig_strategy=mig_strategy,
        time_slicing=time_slicing, mps=mps, rename_by_default=rename_by_default)


@ask.command()
@click.option("--gpu", "gpus", multiple=True, metavar="CARD[:LAYOUT]",
              help="A GPU of the node with its MIG layout (all-<profile>, p1,p2,…, or none); once per GPU.")
@OPERATOR
@EXPLAIN
@output_options
def strategy(gpus, operator, explain, as_json, lang):
    """Which mig.strategy does a node with these GPUs need?

    Welche mig.strategy braucht ein Node mit diesen GPUs?

    \b
    Example / Beispiel:
      gpukb ask strategy --gpu "H200 NVL:all-1g.18gb" --gpu "H200 NVL"
    """
    run("strategy", lang, as_json, explain, gpus=list(gpus), operator=operator)


@ask.command()
@OPERATOR
@click.option("--k8s", metavar="V", help="Kubernetes version of the cluster, e.g. 1.34.2.")
@click.option("--feature", type=click.Choice(["whole-gpu", "static-mig", "dynamic-mig", "mps", "time-slicing", "vfio"]),
              help="DRA capability (default: whole-gpu).")
@EXPLAIN
@output_options
def dra(operator, k8s, feature, explain, as_json, lang):
    """Can NVIDIA's DRA driver be used here, and how mature is the feature?

    Lässt sich NVIDIAs DRA-Treiber hier nutzen, und wie reif ist die Funktion?

    \b
    Example / Beispiel:
      gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig
    """
    run("dra", lang, as_json, explain, operator=operator, k8s=k8s, feature=feature)


@ask.command()
@click.option("--workload", type=click.Choice(["training", "large-model", "small-inference", "dev", "multi-tenant"]),
              required=True, help="What runs on the GPUs.")
@click.option("--card", metavar="CARD", help="Only methods that work on this card.")
@click.option("--isolation", type=click.Choice(["required"]), help="Consumers must be isolated from each other.")
@EXPLAIN
@output_options
def recommend(workload, card, isolation, explain, as_json, lang):
    """Which sharing method suits a workload (ranked, with the risk for neighbours)?

    Welche Sharing-Methode passt zu einer Arbeitslast (gereiht, mit dem Risiko für Nachbarn)?

    \b
    Example / Beispiel:
      gpukb ask recommend --workload multi-tenant --isolation required --card "RTX PRO 6000 Server Edition"
    """
    run("recommend", lang, as_json, explain, workload=workload, card=card, isolation=isolation)
