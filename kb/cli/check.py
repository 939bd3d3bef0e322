"""`gpukb check FILE…` — diagnose a customer's GPU Operator setup from what they send."""

from __future__ import annotations

import click

from kb.cli.exitcodes import exit_code
from kb.cli.i18n import Command
from kb.cli.options import json_text, output_options


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
@click.option("--quiet", "-q", is_flag=True, help="Hide informational notes.\fHinweise ausblenden.")
@output_options
def check(files, operator, k8s, driver, quiet, as_json, lang):
    """Check what a customer sends: ClusterPolicy, GPU Operator Helm values (also inside a Flux HelmRelease or
    an Argo CD Application), device-plugin and MIG ConfigMaps, GPUCluster, Nodes, Pods and their owners, whole
    `kubectl get … -o yaml|json` dumps, the GPU Operator's must-gather folder, nvidia-smi output. '-' reads
    stdin; a folder is read file by file. Each file is read or named with the reason it was not (a Helm
    template, not YAML, over 512 MiB, not a regular file) and never stops the others.
    Exit 0: no error found; 1: at least one error (or a broken file); 2: nothing could be read.

    \b
    Example:
      kubectl get clusterpolicy,nodes,cm -A -o yaml | gpukb check - --operator 26.7.0
    \f
    Prüft, was Kunden schicken: ClusterPolicy, Helm-Werte des GPU Operators (auch in einem Flux-HelmRelease
    oder einer Argo-CD-Application), Device-Plugin- und MIG-ConfigMaps, GPUCluster, Nodes, Pods und ihre
    Eigentümer, ganze Ausgaben von `kubectl get … -o yaml|json`, den must-gather-Ordner des GPU Operators,
    nvidia-smi-Ausgaben. '-' liest stdin; ein Ordner wird Datei für Datei gelesen. Jede Datei wird gelesen
    oder mit dem Grund genannt, warum nicht (eine Helm-Vorlage, kein YAML, über 512 MiB, keine reguläre
    Datei), und hält die anderen nie auf.
    Exit 0: kein Fehler; 1: mindestens ein Fehler (oder eine kaputte Datei); 2: nichts war lesbar.

    \b
    Beispiel:
      kubectl get clusterpolicy,nodes,cm -A -o yaml | gpukb check - --operator 26.7.0 --lang de
    """
    from kb.catalog.compiled import load_data
    from kb.check.render import render
    from kb.check.run import check as run_check
    from kb.terminal import safe_json

    data = load_data()
    env = _versions(data, operator, k8s, driver)
    report = run_check(list(files), data, env, lang=lang, quiet=quiet)  # nothing readable: UnreadableFile (exit 2)
    if as_json:
        click.echo(safe_json(json_text(report.as_json())))
    else:
        click.echo(render(report.as_json(), lang))
    return exit_code(findings=report.has_errors)
