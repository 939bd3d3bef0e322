"""`gpukb ask …`: answers derived by the rule engine, with reasons and citations."""

from __future__ import annotations

import click

from kb.cli.i18n import Group
from kb.cli.options import output_options, print_json

EXPLAIN = click.option("--explain", is_flag=True,
                       help="Show the rules that fired and the facts they read.\fRegeln und gelesene Fakten zeigen.")
OPERATOR = click.option("--operator", metavar="V",
                        help="GPU Operator release, e.g. 26.7.0 (default: the newest known)."
                             "\fGPU-Operator-Release, z. B. 26.7.0 (Standard: das neueste bekannte).")
DRIVER = click.option("--driver", metavar="V",
                      help="NVIDIA driver version, e.g. 580.82.07.\fNVIDIA-Treiberversion, z. B. 580.82.07.")


def run(question: str, lang: str, as_json: bool, explain: bool, **raw) -> None:
    """Answer one question and print it (unusable input raises kb.errors.UnusableInput: the edge reports it)."""
    from kb.answer import localise, render_text
    from kb.questions import answer

    result = answer(question, **raw)
    if as_json:
        print_json(localise(result, lang))
    else:
        click.echo(render_text(result, lang, explain))


@click.group(cls=Group)
def ask():
    """Ask the knowledge base; every answer has a verdict, reasons and sources.

    \b
    Example:
      gpukb ask mig "H200 NVL"
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 580.82.07 --json
    \f
    Die Wissensbasis fragen; jede Antwort hat ein Urteil, Gründe und Quellen.

    \b
    Beispiel:
      gpukb ask mig "H200 NVL" --lang de
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 580.82.07 --json --lang de
    """


@ask.command()
@click.argument("card")
@OPERATOR
@DRIVER
@EXPLAIN
@output_options
def mig(card, operator, driver, explain, as_json, lang):
    """Can CARD run MIG (with this operator release and driver)?

    \b
    Example:
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 575.57.08
    \f
    Kann CARD MIG nutzen (mit diesem Operator-Release und Treiber)?

    \b
    Beispiel:
      gpukb ask mig "RTX PRO 6000 Server Edition" --driver 575.57.08 --lang de
    """
    run("mig", lang, as_json, explain, card=card, operator=operator, driver=driver)


@ask.command()
@click.argument("card")
@OPERATOR
@DRIVER
@click.option("--mig-enabled", is_flag=True, help="The GPU has MIG enabled.\fMIG ist auf der GPU aktiviert.")
@EXPLAIN
@output_options
def methods(card, operator, driver, mig_enabled, explain, as_json, lang):
    """Which sharing methods work on CARD (whole, mig, time-slicing, mps, vm-passthrough, vgpu, dra)?

    \b
    Example:
      gpukb ask methods "H200 NVL" --mig-enabled
    \f
    Welche Sharing-Methoden gehen auf CARD (whole, mig, time-slicing, mps, vm-passthrough, vgpu, dra)?

    \b
    Beispiel:
      gpukb ask methods "H200 NVL" --mig-enabled --lang de
    """
    run("methods", lang, as_json, explain, card=card, operator=operator, driver=driver, mig_enabled=mig_enabled)


@ask.command()
@click.argument("card")
@OPERATOR
@click.option("--profile", metavar="P", help="MIG profile, e.g. 1g.18gb.\fMIG-Profil, z. B. 1g.18gb.")
@click.option("--mig-strategy", type=click.Choice(["single", "mixed"]),
              help="mig.strategy (default: single).\fmig.strategy (Standard: single).")
@click.option("--time-slicing", type=int, metavar="N",
              help="Time-slicing with N replicas per GPU.\fTime-Slicing mit N Replikaten je GPU.")
@click.option("--mps", type=int, metavar="N", help="MPS with N replicas per GPU.\fMPS mit N Replikaten je GPU.")
@click.option("--rename-by-default", is_flag=True,
              help="renameByDefault: true (resource name gets .shared)."
                   "\frenameByDefault: true (der Ressourcenname bekommt .shared).")
@EXPLAIN
@output_options
def resource(card, operator, profile, mig_strategy, time_slicing, mps, rename_by_default, explain, as_json, lang):
    """What does a pod on CARD request, and how do the node labels change?

    \b
    Example:
      gpukb ask resource "H200 NVL" --profile 1g.18gb --mig-strategy mixed
      gpukb ask resource L4 --time-slicing 4 --rename-by-default
    \f
    Was fordert ein Pod auf CARD an, und wie ändern sich die Node-Labels?

    \b
    Beispiel:
      gpukb ask resource "H200 NVL" --profile 1g.18gb --mig-strategy mixed --lang de
      gpukb ask resource L4 --time-slicing 4 --rename-by-default --lang de
    """
    run("resource", lang, as_json, explain, card=card, operator=operator, profile=profile, mig_strategy=mig_strategy,
        time_slicing=time_slicing, mps=mps, rename_by_default=rename_by_default)


@ask.command()
@click.option("--gpu", "gpus", multiple=True, metavar="CARD[:LAYOUT]",
              help="A GPU of the node with its MIG layout (all-<profile>, p1,p2,…, or none); once per GPU."
                   "\fEine GPU des Nodes mit ihrem MIG-Layout (all-<Profil>, p1,p2,… oder none); einmal je GPU.")
@OPERATOR
@DRIVER
@EXPLAIN
@output_options
def strategy(gpus, operator, driver, explain, as_json, lang):
    """Which mig.strategy does a node with these GPUs need?

    \b
    Example:
      gpukb ask strategy --gpu "H200 NVL:all-1g.18gb" --gpu "H200 NVL" --driver 570.148.08
    \f
    Welche mig.strategy braucht ein Node mit diesen GPUs?

    \b
    Beispiel:
      gpukb ask strategy --gpu "H200 NVL:all-1g.18gb" --gpu "H200 NVL" --driver 570.148.08 --lang de
    """
    run("strategy", lang, as_json, explain, gpus=list(gpus), operator=operator, driver=driver)


@ask.command()
@OPERATOR
@click.option("--k8s", metavar="V", help="Kubernetes version of the cluster, e.g. 1.34.2."
                                         "\fKubernetes-Version des Clusters, z. B. 1.34.2.")
@click.option("--feature", type=click.Choice(["whole-gpu", "static-mig", "dynamic-mig", "mps", "time-slicing", "vfio"]),
              help="DRA capability (default: whole-gpu).\fDRA-Funktion (Standard: whole-gpu).")
@click.option("--install", type=click.Choice(["operator", "standalone"]),
              help="The DRA driver managed by the GPU Operator (GPUCluster) or installed on its own with its Helm chart "
                   "(default: operator where the release manages it)."
                   "\fDer DRA-Treiber, vom GPU Operator verwaltet (GPUCluster) oder eigenständig mit seinem Helm-Chart "
                   "installiert (Standard: operator, wo das Release ihn verwaltet).")
@EXPLAIN
@output_options
def dra(operator, k8s, feature, install, explain, as_json, lang):
    """Can NVIDIA's DRA driver be used here, and how mature is the feature?

    \b
    Example:
      gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig
      gpukb ask dra --install standalone --k8s 1.33.4
    \f
    Lässt sich NVIDIAs DRA-Treiber hier nutzen, und wie reif ist die Funktion?

    \b
    Beispiel:
      gpukb ask dra --operator 26.7.0 --k8s 1.34.2 --feature dynamic-mig --lang de
    """
    run("dra", lang, as_json, explain, operator=operator, k8s=k8s, feature=feature, install=install)


@ask.command()
@click.option("--workload", type=click.Choice(["training", "large-model", "small-inference", "dev", "multi-tenant"]),
              required=True, help="What runs on the GPUs.\fWas auf den GPUs läuft.")
@click.option("--card", metavar="CARD", help="Only methods that work on this card.\fNur Methoden, die auf dieser Karte gehen.")
@click.option("--isolation", type=click.Choice(["required"]),
              help="Consumers must be isolated from each other.\fDie Nutzer müssen voneinander isoliert sein.")
@EXPLAIN
@output_options
def recommend(workload, card, isolation, explain, as_json, lang):
    """Which sharing method suits a workload (ranked, with the risk for neighbours)?

    \b
    Example:
      gpukb ask recommend --workload multi-tenant --isolation required --card "RTX PRO 6000 Server Edition"
    \f
    Welche Sharing-Methode passt zu einer Arbeitslast (gereiht, mit dem Risiko für Nachbarn)?

    \b
    Beispiel:
      gpukb ask recommend --workload multi-tenant --isolation required --card "RTX PRO 6000 Server Edition" --lang de
    """
    run("recommend", lang, as_json, explain, workload=workload, card=card, isolation=isolation)
