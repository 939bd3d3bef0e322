"""`gpukb check`: exact text output, parsed JSON, exit codes, stdin and unreadable input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli.main import cli
from tests.conftest import FIXTURES

CHECK = FIXTURES / "check"


@pytest.fixture
def run(monkeypatch):
    """Run `gpukb check …` from tests/fixtures/check, so file names in the output are short."""
    monkeypatch.chdir(CHECK)

    def _run(*args, stdin=None):
        result = CliRunner().invoke(cli, ["check", *args], input=stdin)
        assert "Traceback" not in result.output
        return result

    return _run


MIG_SINGLE_EN = """\
CHK-030-FAIL.yaml
  error CHK-030: mig.strategy single with a layout it cannot serve (doc 2, line 15, metadata.labels["nvidia.com/mig.config"])
    Node h200-node runs mig.strategy single, but its MIG layout all-balanced keeps a GPU out of MIG or mixes MIG profiles. single needs MIG on every GPU of the node with one profile; use mig.strategy mixed. [1][2][3]

Sources
  [1] NVIDIA GPU Operator: GPU Operator with MIG, Enabling MIG During Installation: "mixed: MIG mode is not enabled on all GPUs on a node." <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html>
  [2] NVIDIA GPU Operator: GPU Operator with MIG, Example: Custom MIG Configuration: "If the custom configuration specifies more than one instance profile, set the strategy to mixed:" <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html>
  [3] GPUs in Kubernetes: was der GPU Operator installiert, und vier Wege, eine Karte zu teilen, MIG: Partitionen in Hardware: "Ein Node, der eine zweite NVIDIA-GPU aus MIG heraushält, etwa eine Karte für die Anzeige, braucht also mixed." <https://eurokommerz.example/blog/gpus-in-kubernetes>

Result: 1 error(s), 0 warning(s), 0 note(s); 2 object(s) checked, 1 file(s)
"""

SANDBOX_DE = """\
CHK-081-FAIL.yaml
  Warnung CHK-081: VM-Workload-Label ohne sandboxWorkloads (Dok. 2, Zeile 15, metadata.labels["nvidia.com/gpu.workload.config"])
    Node vm-node trägt nvidia.com/gpu.workload.config=vm-passthrough, sandboxWorkloads.enabled ist aber false: Das Label wirkt nicht, der Node bleibt bei Containern. [1][2][3]

Quellen
  [1] NVIDIA GPU Operator: Installing the NVIDIA GPU Operator (chart customization options), Common Chart Customization Options, sandboxWorkloads.enabled: "Specifies if sandbox containers are enabled." <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html>
  [2] NVIDIA GPU Operator: GPU Operator with KubeVirt, Install the GPU Operator, note: "This flag is disabled by default, meaning all nodes get provisioned with the same software to enable container workloads, and the nvidia.com/gpu.workload.config node label is not used." <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-kubevirt.html>
  [3] NVIDIA GPU Operator: GPU Operator with KubeVirt, Configure Worker Nodes for GPU Operator components: "This is configured by adding a nvidia.com/gpu.workload.config label to the worker node with the value of container, vm-passthrough, or vm-vgpu depending on if you are planning to use vGPU or not." <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-kubevirt.html>

Ergebnis: 0 Fehler, 1 Warnung(en), 0 Hinweis(e); 2 Objekt(e) geprüft, 1 Datei(en)
"""


def test_text_output_is_grouped_cited_and_exits_1_on_an_error(run):
    result = run("CHK-030-FAIL.yaml")
    assert (result.exit_code, result.output) == (1, MIG_SINGLE_EN)


def test_german_text_output_exits_0_on_a_warning(run):
    result = run("CHK-081-FAIL.yaml", "--lang", "de")
    assert (result.exit_code, result.output) == (0, SANDBOX_DE)


def test_json_output(run):
    result = run("CHK-022-FAIL.yaml", "--json")
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert [(f["rule"], f["severity"], f["where"]) for f in out["findings"]] == [
        ("CHK-022", "error", {"file": "CHK-022-FAIL.yaml", "document": 1, "line": 34,
                              "path": 'items[2] → metadata.labels["nvidia.com/device-plugin.config"]'}),
        ("CHK-063", "info", {"file": "CHK-022-FAIL.yaml", "document": 1, "line": 17, "path": "items[1] → metadata.name"}),
        ("CHK-060", "info", {"file": "CHK-022-FAIL.yaml", "document": 1, "line": 24,
                             "path": "items[1] → data.tesla-t4 → sharing.timeSlicing"}),
    ]
    first = out["findings"][0]
    assert first["message"] == ('Node l4-node is labelled nvidia.com/device-plugin.config=nvidia-l4, but ConfigMap '
                                'time-slicing-config-fine has no key "nvidia-l4".')
    assert first["title"] == "Node label names a configuration the ConfigMap lacks"
    assert {c["source"] for c in first["citations"]} == {"device-plugin-readme", "gpu-operator-gpu-sharing"}
    assert all(set(c) == {"source", "title", "url", "section", "quote"} for c in first["citations"])
    summary = out["summary"]
    assert {k: summary[k] for k in ("files", "documents", "checked", "ignored", "errors", "warnings", "infos", "inputs")} == {
        "files": ["CHK-022-FAIL.yaml"], "documents": 1,
        "checked": {"ClusterPolicy": 1, "device-plugin config": 1, "Node": 1}, "ignored": [],
        "errors": 1, "warnings": 0, "infos": 2, "inputs": {"operator": None, "k8s": None, "driver": None}}


def test_versions_given_on_the_command_line_are_normalised(run):
    out = json.loads(run("CHK-051-FAIL.yaml", "--json", "--k8s", "v1.33.5", "--operator", "v26.7",
                         "--driver", "580.95.05").output)
    assert out["summary"]["inputs"] == {"operator": "26.7.0", "k8s": "1.33.5", "driver": "580.95.05"}
    assert [f["rule"] for f in out["findings"]] == ["CHK-051"]


def test_stdin_and_files_together(run):
    text = (CHECK / "CHK-063-FAIL.yaml").read_text(encoding="utf-8")
    out = json.loads(run("-", "CHK-037-FAIL.yaml", "--json", stdin=text).output)
    assert out["summary"]["files"] == ["<stdin>", "CHK-037-FAIL.yaml"]
    assert [(f["where"]["file"], f["rule"]) for f in out["findings"]] == [
        ("<stdin>", "CHK-063"), ("<stdin>", "CHK-060"), ("CHK-037-FAIL.yaml", "CHK-037")]


def test_malformed_yaml_exits_2_naming_file_and_line_and_reports_nothing_else(run):
    result = run("CHK-030-FAIL.yaml", "inputs/malformed.yaml")
    assert result.exit_code == 2
    assert result.output == ("Error: cannot read the input, nothing was checked:\n"
                             "  inputs/malformed.yaml:5: not valid YAML: expected ',' or ']', but got '<stream end>' "
                             "(while parsing a flow sequence)\n")


def test_malformed_yaml_as_json(run):
    result = run("inputs/duplicate-key.yaml", "--json")
    assert result.exit_code == 2
    assert json.loads(result.output) == {"error": "unreadable input", "problems": [
        {"file": "inputs/duplicate-key.yaml", "line": 7, "path": "data.a", "kind": "yaml",
         "message": "duplicate key 'a' (first at line 6): Kubernetes rejects this, and YAML readers would silently keep only one value"}]}


@pytest.mark.parametrize("args, message", [
    (["--operator", "27.1"], "Error: GPU Operator 27.1 is not a release the catalog knows; known releases: "),
    (["--k8s", "latest"], "Error: 'latest' is not a Kubernetes version"),
    (["--driver", "r580"], "Error: 'r580' is not a driver version"),
])
def test_unusable_versions_exit_2(run, args, message):
    result = run("CHK-030-FAIL.yaml", *args)
    assert result.exit_code == 2 and result.output.startswith(message)


def test_nothing_to_check_says_so_and_lists_what_was_ignored(run):
    result = run("-", stdin="apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
    assert (result.exit_code, result.output) == (0, (
        "Nothing in the input is a GPU Operator object or configuration that gpukb checks.\n\n"
        "Not checked\n  Service/web (<stdin>, doc 1): kind not checked\n\n"
        "Result: 0 error(s), 0 warning(s), 0 note(s); 0 object(s) checked, 1 file(s)\n"))


def test_clean_input_exits_0(run):
    result = run("CHK-050-PASS.yaml")
    assert (result.exit_code, result.output) == (0, "No findings.\n\nResult: 0 error(s), 0 warning(s), 0 note(s); "
                                                    "1 object(s) checked, 1 file(s)\n")


def test_help_shows_an_example_in_both_languages(run):
    result = run("--help")
    assert result.exit_code == 0
    assert "Example / Beispiel:" in result.output and "gpukb check -" in result.output
    assert "Prüft Manifeste" in result.output
