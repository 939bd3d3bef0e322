"""`gpukb check FILE…` — diagnose a customer's GPU Operator setup from its manifests."""

from __future__ import annotations

import sys

import click

from kb.cli.exitcodes import exit_code
from kb.cli.options import UsageProblem, load_catalog_data, output_options, print_json, t


def _versions(data: dict, operator, k8s, driver, lang: str):
    """The Environment from --operator/--k8s/--driver; a version that cannot be used exits 2."""
    from kb import versions
    from kb.check.facts import Environment
    from kb.questions import base

    known = [r["version"] for r in data.get("releases", {}).get("gpu-operator", {}).get("releases", [])]
    index = {"operator_releases": sorted(known, key=versions.key, reverse=True)}
    dra_minimum = ((data.get("methods", {}).get("dra", {}).get("requirements") or {}).get("min_kubernetes") or {}).get("value")
    try:
        return Environment(operator=base.operator_version(index, operator) if operator is not None else None,
                           k8s=base.kubernetes_version(k8s, dra_minimum) if k8s is not None else None,
                           driver=base.driver_version(driver))
    except base.InputError as exc:
        raise UsageProblem(exc.text[lang], lang) from None


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--operator", metavar="V", help="GPU Operator release in use / eingesetztes GPU-Operator-Release (26.7.0).")
@click.option("--k8s", metavar="V", help="Kubernetes version / Kubernetes-Version (1.34.2).")
@click.option("--driver", metavar="V", help="NVIDIA driver version / NVIDIA-Treiberversion (580.82.07).")
@output_options
def check(files, operator, k8s, driver, as_json, lang):
    """Check a customer's manifests: ClusterPolicy, Helm values, device-plugin and MIG ConfigMaps,
    GPUCluster, Nodes, Pods/Deployments. Multi-document YAML, JSON, `kind: List`; '-' reads stdin;
    a directory is read file by file (*.yaml, *.yml, *.json below it).
    Exit 0: no error found; 1: at least one error; 2: input unreadable (nothing checked).

    Prüft Manifeste eines Kunden: ClusterPolicy, Helm-Werte, Device-Plugin- und MIG-ConfigMaps,
    GPUCluster, Nodes, Pods/Deployments. Mehrere YAML-Dokumente, JSON, `kind: List`; '-' liest stdin;
    ein Verzeichnis wird Datei für Datei gelesen (*.yaml, *.yml, *.json darunter).
    Exit 0: kein Fehler; 1: mindestens ein Fehler; 2: Eingabe unlesbar (nichts geprüft).

    \b
    Example / Beispiel:
      kubectl get clusterpolicy,nodes,cm -A -o yaml | gpukb check - --operator 26.7.0 --lang de
    """
    from kb.check.documents import UnreadableInput
    from kb.check.render import render
    from kb.check.run import check as run_check
    from kb.engine.errors import EngineError
    from kb.engine.rules import RuleError

    data = load_catalog_data()
    env = _versions(data, operator, k8s, driver, lang)
    try:
        report = run_check(list(files), data, env, lang=lang)
    except UnreadableInput as exc:
        problems = exc.problems
        if as_json:
            print_json({"error": "unreadable input", "lang": lang, "problems": [
                {**p.as_dict(), "message": p.message_in(lang)}
                for p in problems]})
            sys.exit(exit_code(unusable=True))
        raise UsageProblem(t(lang, "cannot read the input, nothing was checked:\n",
                             "Eingabe nicht lesbar, nichts wurde geprüft:\n")
                           + "\n".join(f"  {p.text(lang)}" for p in problems), lang) from None
    except (EngineError, RuleError) as exc:
        click.echo(t(lang, f"internal error in the rule engine: {exc}", f"interner Fehler der Regel-Engine: {exc}"),
                   err=True)
        sys.exit(exit_code(internal_error=True))
    if as_json:
        print_json(report.as_json())
    else:
        click.echo(render(report.as_json(), lang))
    sys.exit(exit_code(findings=report.has_errors))
