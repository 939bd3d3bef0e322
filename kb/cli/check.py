"""`gpukb check FILE…` — diagnose a customer's GPU Operator setup from its manifests."""

from __future__ import annotations

import click

from kb.cli.exitcodes import exit_code
from kb.cli.i18n import Command
from kb.cli.options import output_options, print_json


def _versions(data: dict, operator, k8s, driver):
    """The Environment from --operator/--k8s/--driver; a version that cannot be used raises UnusableInput."""
    from kb import versions
    from kb.check.facts import Environment
    from kb.questions import base

    known = [r["version"] for r in data.get("releases", {}).get("gpu-operator", {}).get("releases", [])]
    index = {"operator_releases": sorted(known, key=versions.key, reverse=True)}
    dra_minimum = ((data.get("methods", {}).get("dra", {}).get("requirements") or {}).get("min_kubernetes") or {}).get("value")
    return Environment(operator=base.operator_version(index, operator) if operator is not None else None,
                       k8s=base.kubernetes_version(k8s, dra_minimum) if k8s is not None else None,
                       driver=base.driver_version(driver))


@click.command(cls=Command)
@click.argument("files", nargs=-1, required=True)
@click.option("--operator", metavar="V", help="GPU Operator release in use (26.7.0).\fEingesetztes GPU-Operator-Release (26.7.0).")
@click.option("--k8s", metavar="V", help="Kubernetes version (1.34.2).\fKubernetes-Version (1.34.2).")
@click.option("--driver", metavar="V", help="NVIDIA driver version (580.82.07).\fNVIDIA-Treiberversion (580.82.07).")
@output_options
def check(files, operator, k8s, driver, as_json, lang):
    """Check a customer's manifests: ClusterPolicy, Helm values, device-plugin and MIG ConfigMaps,
    GPUCluster, Nodes, Pods/Deployments. Multi-document YAML, JSON, `kind: List`; '-' reads stdin;
    a directory is read file by file (*.yaml, *.yml, *.json below it).
    Exit 0: no error found; 1: at least one error; 2: input unreadable (nothing checked).

    \b
    Example:
      kubectl get clusterpolicy,nodes,cm -A -o yaml | gpukb check - --operator 26.7.0
    \f
    Prüft Manifeste eines Kunden: ClusterPolicy, Helm-Werte, Device-Plugin- und MIG-ConfigMaps,
    GPUCluster, Nodes, Pods/Deployments. Mehrere YAML-Dokumente, JSON, `kind: List`; '-' liest stdin;
    ein Verzeichnis wird Datei für Datei gelesen (*.yaml, *.yml, *.json darunter).
    Exit 0: kein Fehler; 1: mindestens ein Fehler; 2: Eingabe unlesbar (nichts geprüft).

    \b
    Beispiel:
      kubectl get clusterpolicy,nodes,cm -A -o yaml | gpukb check - --operator 26.7.0 --lang de
    """
    from kb.catalog.compiled import load_data
    from kb.check.documents import UnreadableInput
    from kb.check.render import render
    from kb.check.run import check as run_check
    from kb.errors import UnreadableFile
    from kb.text import Text

    data = load_data()
    env = _versions(data, operator, k8s, driver)
    try:
        report = run_check(list(files), data, env, lang=lang)
    except UnreadableInput as exc:
        problems = [{**p.as_dict(), "message": Text(p.message, p.message_in("de"))} for p in exc.problems]
        raise UnreadableFile(Text("cannot read the input, nothing was checked",
                                  "Eingabe nicht lesbar, nichts wurde geprüft"), details={"problems": problems}) from None
    if as_json:
        print_json(report.as_json())
    else:
        click.echo(render(report.as_json(), lang))
    return exit_code(findings=report.has_errors)
