"""`gpukb check`: exact text output, parsed JSON, exit codes, stdin and unreadable input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.cli.main import cli
from conftest import FIXTURES

TESTS = FIXTURES.parent


@pytest.fixture
def run(monkeypatch):
    """Run `gpukb check …` from tests/, so file names in the output are short (rules/check/CHK-030/fires.yaml)."""
    monkeypatch.chdir(TESTS)

    def _run(*args, stdin=None):
        result = CliRunner().invoke(cli, ["check", *args], input=stdin)
        assert "Traceback" not in result.output
        return result

    return _run


MIG_SINGLE_EN = """\
rules/check/CHK-030/fires.yaml
  error CHK-030: mig.strategy single with a layout it cannot serve (doc 2, line 15, metadata.labels["nvidia.com/mig.config"])
    Node h200-node runs mig.strategy single, but its MIG layout all-balanced mixes MIG profiles on one GPU type. single needs MIG on every GPU of the node with one profile; use mig.strategy mixed. [1][2]
    Fix:
      kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec":{"mig":{"strategy":"mixed"}}}'

Sources
  [1] NVIDIA GPU Operator: GPU Operator with MIG, Enabling MIG During Installation: “mixed: MIG mode is not enabled on all GPUs on a node.” <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html>
  [2] NVIDIA GPU Operator: GPU Operator with MIG, Example: Custom MIG Configuration: “If the custom configuration specifies more than one instance profile, set the strategy to mixed:” <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-mig.html>

Result: 1 error, 0 warnings, 0 notes; 2 objects checked, 1 file
"""

SANDBOX_DE = """\
rules/check/CHK-081/fires.yaml
  Warnung CHK-081: VM-Workload-Label ohne sandboxWorkloads (Dok. 2, Zeile 15, metadata.labels["nvidia.com/gpu.workload.config"])
    Node vm-node trägt nvidia.com/gpu.workload.config=vm-passthrough, sandboxWorkloads.enabled ist aber false: Das Label wirkt nicht, der Node bleibt bei Containern. [1][2][3]
    Behebung:
      kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{"spec":{"sandboxWorkloads":{"enabled":true}}}'

Quellen
  [1] NVIDIA GPU Operator: Installing the NVIDIA GPU Operator (Optionen zum Anpassen des Charts), Common Chart Customization Options, sandboxWorkloads.enabled: „Specifies if sandbox containers are enabled.“ <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html>
  [2] NVIDIA GPU Operator: GPU Operator with KubeVirt, Install the GPU Operator, Hinweis: „This flag is disabled by default, meaning all nodes get provisioned with the same software to enable container workloads, and the nvidia.com/gpu.workload.config node label is not used.“ <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-kubevirt.html>
  [3] NVIDIA GPU Operator: GPU Operator with KubeVirt, Configure Worker Nodes for GPU Operator components: „This is configured by adding a nvidia.com/gpu.workload.config label to the worker node with the value of container, vm-passthrough, or vm-vgpu depending on if you are planning to use vGPU or not.“ <https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-operator-kubevirt.html>

Ergebnis: 0 Fehler, 1 Warnung, 0 Hinweise; 2 Objekte geprüft, 1 Datei
"""


def test_text_output_is_grouped_cited_and_exits_1_on_an_error(run):
    result = run("rules/check/CHK-030/fires.yaml")
    assert (result.exit_code, result.output) == (1, MIG_SINGLE_EN)


def test_german_text_output_exits_0_on_a_warning(run):
    result = run("rules/check/CHK-081/fires.yaml", "--lang", "de")
    assert (result.exit_code, result.output) == (0, SANDBOX_DE)


def test_json_output(run):
    result = run("rules/check/CHK-022/fires.yaml", "--json")
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert [(f["rule"], f["severity"], f["where"]) for f in out["findings"]] == [
        ("CHK-022", "error", {"file": "rules/check/CHK-022/fires.yaml", "document": 1, "line": 34,
                              "path": 'items[2] → metadata.labels["nvidia.com/device-plugin.config"]'}),
        ("CHK-063", "info", {"file": "rules/check/CHK-022/fires.yaml", "document": 1, "line": 17, "path": "items[1] → metadata.name"}),
        ("CHK-060", "info", {"file": "rules/check/CHK-022/fires.yaml", "document": 1, "line": 24,
                             "path": "items[1] → data.tesla-t4 → sharing.timeSlicing"}),
    ]
    first = out["findings"][0]
    assert first["message"] == ('Node l4-node is labelled nvidia.com/device-plugin.config=nvidia-l4, but ConfigMap '
                                'time-slicing-config-fine has no key “nvidia-l4”.')
    assert first["title"] == "Node label names a configuration the ConfigMap lacks"
    assert {c["source"] for c in first["citations"]} == {"device-plugin-readme", "gpu-operator-gpu-sharing"}
    assert all(set(c) == {"source", "title", "url", "section", "quote"} for c in first["citations"])
    summary = out["summary"]
    assert {k: summary[k] for k in ("files", "documents", "checked", "ignored", "errors", "warnings", "infos", "inputs")} == {
        "files": ["rules/check/CHK-022/fires.yaml"], "documents": 1,
        "checked": {"ClusterPolicy": 1, "device-plugin config": 1, "Node": 1}, "ignored": [],
        "errors": 1, "warnings": 0, "infos": 2, "inputs": {"operator": None, "k8s": None, "driver": None}}


def test_versions_given_on_the_command_line_are_normalised(run):
    out = json.loads(run("rules/check/CHK-051/fires.yaml", "--json", "--k8s", "v1.33.5", "--operator", "v26.7",
                         "--driver", "580.95.05").output)
    assert out["summary"]["inputs"] == {"operator": "26.7.0", "k8s": "1.33.5", "driver": "580.95.05"}
    assert [f["rule"] for f in out["findings"]] == ["CHK-051"]


def test_stdin_and_files_together(run):
    text = (TESTS / "rules/check/CHK-063/fires.yaml").read_text(encoding="utf-8")
    out = json.loads(run("-", "rules/check/CHK-037/fires.yaml", "--json", stdin=text).output)
    assert out["summary"]["files"] == ["<stdin>", "rules/check/CHK-037/fires.yaml"]
    assert [(f["where"]["file"], f["rule"]) for f in out["findings"]] == [
        ("<stdin>", "CHK-063"), ("<stdin>", "CHK-060"), ("rules/check/CHK-037/fires.yaml", "CHK-037")]


def test_a_malformed_file_is_named_and_the_others_are_still_checked(run):
    result = run("rules/check/CHK-030/fires.yaml", "fixtures/check/inputs/malformed.yaml")
    assert result.exit_code == 1
    assert "error CHK-030" in result.output
    assert result.output.endswith(
        "Not read\n  fixtures/check/inputs/malformed.yaml:5: not valid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence)\n\n"
        "Result: 1 error, 0 warnings, 0 notes; 2 objects checked, 2 files\n")


def test_nothing_readable_exits_2(run):
    result = run("fixtures/check/inputs/malformed.yaml")
    assert (result.exit_code, result.output) == (2, (
        "Error: cannot read the input, nothing was checked:\n"
        "  fixtures/check/inputs/malformed.yaml:5: not valid YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence)\n"))


def test_malformed_yaml_as_json(run):
    result = run("fixtures/check/inputs/duplicate-key.yaml", "--json")
    assert result.exit_code == 2
    assert json.loads(result.output) == {
        "error": "cannot read the input, nothing was checked", "kind": "unreadable-file", "exit_code": 2, "lang": "en",
        "details": {"command": "check", "problems": [
            {"file": "fixtures/check/inputs/duplicate-key.yaml", "line": 7, "path": "data.a", "kind": "yaml",
             "message": "duplicate key 'a' (first at line 6): Kubernetes rejects this, and YAML readers would silently "
                        "keep only one value"}]}}
    german = json.loads(run("fixtures/check/inputs/duplicate-key.yaml", "--json", "--lang", "de").output)
    assert german["lang"] == "de"
    assert german["details"]["problems"][0]["message"].startswith("doppelter Schlüssel 'a' (zuerst in Zeile 6)")


@pytest.mark.parametrize("args, message", [
    (["--operator", "27.1"], "Error: GPU Operator 27.1 is not a release we know; known releases: "),
    (["--k8s", "latest"], "Error: 'latest' is not a Kubernetes version"),
    (["--driver", "r580"], "Error: 'r580' is not a driver version"),
])
def test_unusable_versions_exit_2(run, args, message):
    result = run("rules/check/CHK-030/fires.yaml", *args)
    assert result.exit_code == 2 and result.output.startswith(message)


def test_nothing_to_check_says_so_and_lists_what_was_ignored(run):
    result = run("-", stdin="apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
    assert (result.exit_code, result.output) == (0, (
        "Nothing in the input is a GPU Operator object or configuration that gpukb checks.\n\n"
        "Not checked\n  Service/web (<stdin>, doc 1): kind not checked\n\n"
        "Result: 0 errors, 0 warnings, 0 notes; 0 objects checked, 1 file\n"))


def test_clean_input_exits_0(run):
    result = run("rules/check/CHK-050/quiet.yaml")
    assert (result.exit_code, result.output) == (0, "No findings.\n\nResult: 0 errors, 0 warnings, 0 notes; "
                                                    "1 object checked, 1 file\n")


def test_help_shows_an_example_in_both_languages(run):
    result = run("--help")
    assert result.exit_code == 0
    assert "Example:" in result.output and "gpukb check -" in result.output
    german = run("--help", "--lang", "de").output
    assert "Beispiel:" in german and "Prüft, was Kunden schicken" in german and "Example" not in german


def test_a_directory_is_checked_file_by_file(run, tmp_path):
    for rid in ("CHK-030", "CHK-081"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        (tmp_path / "sub" / f"{rid}.yaml").write_text((TESTS / "rules" / "check" / rid / "fires.yaml").read_text(
            encoding="utf-8"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a manifest", encoding="utf-8")
    (tmp_path / ".hidden.yaml").write_text("{[", encoding="utf-8")
    out = json.loads(run(str(tmp_path), "--json").output)
    files = [str(tmp_path / "sub" / n) for n in ("CHK-030.yaml", "CHK-081.yaml")]
    assert out["summary"]["files"] == files
    assert [(f["where"]["file"], f["rule"]) for f in out["findings"]] == [(files[0], "CHK-030"), (files[1], "CHK-081")]


def test_a_directory_without_manifests_is_unusable(run, tmp_path):
    result = run(str(tmp_path), "--lang", "de")
    assert (result.exit_code, result.output) == (2, (
        "Fehler: Eingabe nicht lesbar, nichts wurde geprüft:\n"
        f"  {tmp_path}: keine Datei, die gpukb liest (.yaml, .yml, .json, nvidia-smi-Ausgabe), in diesem Verzeichnis\n"))


def test_a_json_array_of_objects_is_read_like_a_list(run, tmp_path):
    node = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "labels": {
        "nvidia.com/gpu.product": "NVIDIA-L4", "nvidia.com/mig.config": "all-1g.6gb"}}}
    path = tmp_path / "nodes.json"
    path.write_text(json.dumps([node, 3]), encoding="utf-8")
    out = json.loads(run(str(path), "--json").output)
    assert [(f["rule"], f["where"]["path"]) for f in out["findings"]] == [
        ("CHK-033", '[0] → metadata.labels["nvidia.com/mig.config"]')]
    assert [(i["kind"], i["reason"]) for i in out["summary"]["ignored"]] == [
        ("(no kind)", "not a Kubernetes object (a mapping was expected)")]


@pytest.mark.parametrize("replicas", ["9223372036854775808", "99999999999999999999999", "-1", "0", "1.5", '"4"'])
def test_a_replica_count_the_device_plugin_cannot_read_is_an_error(run, tmp_path, replicas):
    path = tmp_path / "dp.yaml"
    path.write_text("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n"
                    f"      replicas: {replicas}\n", encoding="utf-8")
    result = run(str(path), "--json")
    assert result.exit_code == 1
    assert "CHK-005" in [f["rule"] for f in json.loads(result.output)["findings"]]


def test_the_largest_replica_count_go_reads_is_fine(run, tmp_path):
    path = tmp_path / "dp.yaml"
    path.write_text("version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n"
                    "      replicas: 9223372036854775807\n", encoding="utf-8")
    assert "CHK-005" not in [f["rule"] for f in json.loads(run(str(path), "--json").output)["findings"]]


def test_unreadable_input_in_german(run):
    result = run("fixtures/check/inputs/malformed.yaml", "fixtures/check/inputs/duplicate-key.yaml", "missing.yaml", "--lang", "de")
    assert (result.exit_code, result.output) == (2, (
        "Fehler: Eingabe nicht lesbar, nichts wurde geprüft:\n"
        "  fixtures/check/inputs/malformed.yaml:5: kein gültiges YAML (der Parser meldet: „did not find expected ',' "
        "or ']' (while parsing a flow sequence)“)\n"
        "  fixtures/check/inputs/duplicate-key.yaml:7: data.a: doppelter Schlüssel 'a' (zuerst in Zeile 6): Kubernetes lehnt das ab, "
        "und YAML-Leser behielten stillschweigend nur einen Wert\n"
        "  missing.yaml: Datei nicht lesbar: Datei oder Verzeichnis nicht gefunden\n"))


def test_a_named_file_that_is_missing_beside_a_readable_one_exits_1(run, tmp_path):
    """The readable file is checked (clean) and the missing one named: a CI job checking two files must not pass
    having checked one; a Helm template beside it is refused by kind and is no error."""
    tpl = tmp_path / "tpl.yaml"
    tpl.write_text("kind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n", encoding="utf-8")
    result = run("rules/check/CHK-018/quiet.yaml", str(tpl))
    assert result.exit_code == 0 and "not read: a Helm template" in result.output
    result = run("rules/check/CHK-018/quiet.yaml", "missing.yaml")
    assert result.exit_code == 1
    assert "Not read\n  missing.yaml: cannot read file: No such file or directory\n" in result.output


def test_an_empty_version_option_is_unusable_not_ignored(run):
    result = run("rules/check/CHK-030/fires.yaml", "--driver", "", "--lang", "de")
    assert (result.exit_code, result.output) == (2, "Fehler: Eine leere Angabe ist keine Treiberversion (z. B. 575.57.08)\n")


def test_what_is_not_checked_is_listed_in_german(run):
    result = run("-", "--lang", "de", stdin='"hello"\n')
    assert result.exit_code == 0 and "  (ohne kind) (<stdin>, Dok. 1): kein Kubernetes-Objekt" in result.output


def test_a_layout_finding_says_what_single_cannot_serve(run):
    out = json.loads(run("rules/check/CHK-031/fires.yaml", "--json").output)
    assert [f["message"] for f in out["findings"] if f["rule"] == "CHK-031"] == [
        "Layout half-and-half of custom-mig-config/config.yaml keeps a GPU out of MIG (profiles: 1g.18gb), while "
        "mig.strategy is single: a node labelled nvidia.com/mig.config=half-and-half would need mig.strategy mixed."]


def test_a_file_named_twice_is_checked_once(run):
    text = (TESTS / "rules/check/CHK-063/fires.yaml").read_text(encoding="utf-8")
    out = json.loads(run("-", "rules/check/CHK-037/fires.yaml", "-", "rules/check/CHK-037/fires.yaml", "--json", stdin=text).output)
    assert out["summary"]["files"] == ["<stdin>", "rules/check/CHK-037/fires.yaml"]
    assert [(f["where"]["file"], f["rule"]) for f in out["findings"]] == [
        ("<stdin>", "CHK-063"), ("<stdin>", "CHK-060"), ("rules/check/CHK-037/fires.yaml", "CHK-037")]
