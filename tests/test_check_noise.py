"""Only what matters: NVIDIA's own pods are not "pods without GPU", follow-on findings fold into their cause, the
same finding on many objects is shown once and counted, informational notes can be hidden."""

from __future__ import annotations

import io
import json
from pathlib import Path

from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from kb.cli.main import cli
from conftest import FIXTURES, REPO, upstream

POLICY = ("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cluster-policy\nspec:\n"
          "  cdi:\n    enabled: false\n  toolkit:\n    enabled: true\n---\n")


def run(text: str, **kw):
    return check(["-"], load_data(), Environment(), stdin=io.BytesIO(text.encode()), **kw)


def _only_theirs_flagged(tmp_path, ours: Path) -> None:
    (tmp_path / "policy.yaml").write_text(POLICY, encoding="utf-8")
    (tmp_path / "theirs.yaml").write_text(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: node-exporter\nspec:\n  template:\n    spec:\n"
        "      nodeSelector:\n        nvidia.com/gpu.deploy.device-plugin: \"true\"\n      containers:\n"
        "      - name: exporter\n        image: prom/node-exporter\n", encoding="utf-8")
    report = check([str(tmp_path / "policy.yaml"), str(ours), str(tmp_path / "theirs.yaml")], load_data(), Environment())
    flagged = [f["message"].split(" ", 1)[0] for f in report.findings if f["rule"] == "CHK-073"]
    assert flagged == ["DaemonSet/node-exporter"]


def test_nvidias_own_daemonsets_are_not_pods_without_gpu(tmp_path):
    """The device plugin's DaemonSet as the operator deploys it (NVIDIA/gpu-operator@a22dbf67
    assets/state-device-plugin/0500_daemonset.yaml, read from the mirror) runs on every GPU node and requests no
    GPU: by design. A customer's DaemonSet with the same placement does get the warning."""
    ours = upstream("NVIDIA/gpu-operator", "a22dbf671f2e26f9a1e342f8eea28e196235e110",
                    "assets/state-device-plugin/0500_daemonset.yaml", tmp_path / "upstream")
    _only_theirs_flagged(tmp_path, ours)


def test_nvidias_own_daemonsets_look_alike(tmp_path):
    """The same placement, written for this test: the operand's name and app label, the operator's placeholders."""
    ours = tmp_path / "operand.yaml"
    ours.write_text(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: nvidia-device-plugin-daemonset\n"
        "  labels:\n    app: nvidia-device-plugin-daemonset\nspec:\n  template:\n    spec:\n      nodeSelector:\n"
        "        nvidia.com/gpu.deploy.device-plugin: \"true\"\n      containers:\n"
        "      - name: nvidia-device-plugin\n        image: \"FILLED BY THE OPERATOR\"\n", encoding="utf-8")
    _only_theirs_flagged(tmp_path, ours)


def test_the_same_finding_on_many_objects_is_shown_once_and_counted():
    pods = "".join(
        f"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: job-{i}\n  namespace: team-a\n"
        "  ownerReferences:\n  - {kind: Job, name: train, controller: true}\nspec:\n  containers:\n"
        "  - name: c\n    resources:\n      limits:\n        nvidia.com/gpu.shared: 1\n" for i in range(40))
    report = run(POLICY + pods)
    (f,) = [f for f in report.findings if f["rule"] == "CHK-070"]
    assert f["same_for"]["count"] == 39
    assert f["same_for"]["names"] == ["team-a/Pod/job-1", "team-a/Pod/job-2", "team-a/Pod/job-3", "team-a/Pod/job-4",
                                      "team-a/Pod/job-5"]


def test_follow_on_findings_fold_into_their_cause():
    """replicas 1: the plugin refuses the configuration; its time-slicing note and the node that selects it
    follow from that."""
    text = (POLICY.replace("  cdi:", "  devicePlugin:\n    config:\n      name: ts\n      default: any\n  cdi:") +
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ts\ndata:\n  any: |-\n    version: v1\n    sharing:\n"
            "      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n          replicas: 1\n")
    report = run(text)
    (f,) = [f for f in report.findings if f["rule"] == "CHK-005"]
    assert [g["rule"] for g in f["folded"]] == ["CHK-060"]
    assert "CHK-060" not in [x["rule"] for x in report.findings]


def test_quiet_hides_notes_and_says_how_many():
    text = (FIXTURES.parent / "rules/check/CHK-063/fires.yaml").read_text(encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "-", "--quiet"], input=text)
    assert result.exit_code == 0
    assert result.output.startswith("No findings.\n2 notes hidden (--quiet)\n")
    out = json.loads(CliRunner().invoke(cli, ["check", "-", "-q", "--json"], input=text).output)
    assert (out["findings"], out["summary"]["hidden_infos"]) == ([], 2)


#: the sections of a whole values.yaml of the chart (a copy of NVIDIA's, not an override)
WHOLE = "".join(f"{k}:\n  enabled: true\n" for k in ("driver", "toolkit", "devicePlugin", "dcgmExporter", "gfd",
                                                       "migManager", "nfd", "validator", "operator", "cdi"))


def test_files_that_each_hold_a_whole_configuration_are_checked_one_by_one(tmp_path):
    """The chart's whole values of two releases side by side and a MIG configuration: no cluster has two GPU
    Operator configurations, so the values' mig.strategy single does not judge the MIG configuration of another
    file."""
    (tmp_path / "values-a.yaml").write_text(WHOLE + "mig:\n  strategy: single\n", encoding="utf-8")
    (tmp_path / "values-b.yaml").write_text(WHOLE + "mig:\n  strategy: mixed\n", encoding="utf-8")
    (tmp_path / "mig.yaml").write_text(
        "version: v1\nmig-configs:\n  two-sizes:\n  - devices: all\n    mig-enabled: true\n    mig-devices:\n"
        "      1g.10gb: 4\n      3g.40gb: 1\n", encoding="utf-8")
    report = check([str(tmp_path)], load_data(), Environment())
    assert [n.rsplit("/", 1)[1] for n in report.summary["separate"]] == ["values-a.yaml", "values-b.yaml"]
    assert [(f["rule"], f["where"]["file"].rsplit("/", 1)[1]) for f in report.findings] == [("CHK-032", "mig.yaml")]
    assert report.summary["checked"] == {"ClusterPolicy": 2, "MIG Manager config": 1}
    text = CliRunner().invoke(cli, ["check", str(tmp_path), "--lang", "de"]).output
    assert "Datei für Datei geprüft: 2 Dateien enthalten je eine vollständige GPU-Operator-Konfiguration (" in text
    # a customer's override layers onto the chart's values (helm -f values-a.yaml -f override.yaml): one cluster
    (tmp_path / "values-b.yaml").write_text("mig:\n  strategy: single\n", encoding="utf-8")
    report = check([str(tmp_path)], load_data(), Environment())
    assert report.summary["separate"] == [] and [f["rule"] for f in report.findings] == ["CHK-031"]


def test_a_clusterpolicy_written_twice_is_one_object_not_two_clusters(tmp_path):
    """The ClusterPolicy and a loose edit of it (same name) beside the ConfigMap: one cluster, so the default key the
    edit names is looked up in the ConfigMap."""
    (tmp_path / "policy.yaml").write_text(
        "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-cluster-policy\nspec:\n"
        "  operator:\n    defaultRuntime: crio\n  mig:\n    strategy: single\n", encoding="utf-8")
    (tmp_path / "policy-sharing.yaml").write_text(
        "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-cluster-policy\nspec:\n"
        "  devicePlugin:\n    config:\n      name: ts\n      default: t4\n", encoding="utf-8")
    (tmp_path / "ts.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ts\ndata:\n  any: |-\n    version: v1\n",
        encoding="utf-8")
    report = check([str(tmp_path)], load_data(), Environment())
    assert report.summary["separate"] == [] and "CHK-021" in [f["rule"] for f in report.findings]


def test_two_clusterpolicies_in_one_dump_are_one_cluster():
    """`kubectl get clusterpolicies -o yaml` of a cluster that has two (the operator uses one): one input, one
    cluster — not checked as alternatives."""
    text = "".join(f"---\napiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: {n}\nspec:\n  mig:\n"
                   f"    strategy: {s}\n" for n, s in (("a", "single"), ("b", "mixed")))
    report = run(text)
    assert report.summary["separate"] == [] and report.summary["checked"] == {"ClusterPolicy": 2}


def test_a_wrong_configmap_name_is_one_finding():
    """The ClusterPolicy names time-slicing-config, the ConfigMap is time-slicing-cfg: one warning (CHK-026) saying
    both names, the missing-ConfigMap note (CHK-023) folded into it; the fix offers either name."""
    path = REPO / "tests/rules/check/CHK-026/fires-wrong-name.yaml"
    report = check([str(path)], load_data(), Environment(), lang="en")
    (f,) = [f for f in report.findings if f["rule"] in ("CHK-023", "CHK-026")]
    assert f["rule"] == "CHK-026" and [g["rule"] for g in f["folded"]] == ["CHK-023"]
    assert f["message"].endswith("The ClusterPolicy names time-slicing-config instead, which is not in the input: most "
                                 "likely one of the two names is wrong.")
    assert "metadata.name: time-slicing-config" in f["fix"] and '"name":"time-slicing-cfg"' in f["fix"]


def test_one_mistake_said_by_two_rules_is_one_finding():
    """A rule's `details.folds` takes the findings of another rule about the same thing: a T4 node with a MIG layout
    (CHK-033; its own mig.capable=false label, CHK-044, folded), a driver issue that is also the MIG answer's
    condition (CHK-046; CHK-035 folded), the alpha-gate warnings of the gates in a conflict (CHK-054; CHK-052)."""
    cases = {"CHK-033/fires-mig-capable-false.yaml": ("CHK-033", ["CHK-044"]),
             "CHK-046/fires.yaml": ("CHK-046", ["CHK-035"]),
             "CHK-054/fires.yaml": ("CHK-054", ["CHK-052", "CHK-052"]),
             "CHK-001/fires.yaml": ("CHK-001", ["CHK-016"]),
             "CHK-027/fires-config-says-mixed.yaml": ("CHK-027", ["CHK-017"])}
    for name, (home, folded) in cases.items():
        report = check([str(REPO / "tests/rules/check" / name)], load_data(), Environment(), lang="en")
        shown = [f for f in report.findings if f["severity"] != "info"]
        assert [f["rule"] for f in shown] == [home], name
        assert [g["rule"] for g in shown[0]["folded"]] == folded, name


def test_the_finding_that_folds_another_still_says_what_it_said():
    """MPS of a MIG resource under mixed (CHK-001 folds CHK-016) and a MIG resource time-sliced under the ClusterPolicy's
    single while the configuration writes mixed (CHK-027 folds CHK-017): the one finding left says the folded one's
    point in its own words and carries its sources; without the other mistake it does not say it."""
    def one(name, lang="en"):
        report = check([str(REPO / "tests/rules/check" / name)], load_data(), Environment(), lang=lang)
        (f,) = [f for f in report.findings if f["severity"] != "info"]
        return f

    mps = one("CHK-001/fires.yaml")
    assert mps["message"].endswith("With the MIG strategy mixed, which MIG resources need, it refuses MPS altogether: "
                                   "the device plugin does not start on the nodes that select this configuration.")
    assert any("mps-not-with-mixed" in str(c) or "--mig-strategy=mixed is not supported with MPS" in str(c)
               for c in mps["citations"]), mps["citations"]
    single = one("CHK-027/fires-config-says-mixed.yaml")
    assert ("The configuration's flags.migStrategy mixed does not change that: the GPU Operator starts the device "
            "plugin with the ClusterPolicy's mig.strategy single, which takes precedence." in single["message"])
    assert "Das flags.migStrategy mixed der Konfiguration ändert daran nichts" in one(
        "CHK-027/fires-config-says-mixed.yaml", "de")["message"]
    assert any("object_controls.go" in str(c) for c in single["citations"]), single["citations"]
    assert "flags.migStrategy" not in one("CHK-027/fires.yaml")["message"]


def test_one_finding_on_several_resources_of_a_configuration_is_shown_once():
    """After redhat-na-ssa/demo-ocp-gpu instance/overlays/time-sliced-8-a100 (held-out, 2026-12-01; the shape of
    NVIDIA's OpenShift time-slicing example): MIG resources time-sliced under mig.strategy single — one CHK-027
    naming the other three resources, not four errors; replicas 1 is still its own error (the plugin refuses it)."""
    text = ("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-cluster-policy\nspec:\n  mig:\n"
            "    strategy: single\n  devicePlugin:\n    config:\n      name: device-plugin-config\n"
            "      default: A100-SXM4-40GB\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
            "  name: device-plugin-config\ndata:\n  A100-SXM4-40GB: |-\n    version: v1\n    sharing:\n"
            "      timeSlicing:\n        resources:\n          - name: nvidia.com/gpu\n            replicas: 8\n"
            + "".join(f"          - name: nvidia.com/mig-{p}\n            replicas: {r}\n"
                      for p, r in (("1g.5gb", 1), ("2g.10gb", 2), ("3g.20gb", 3), ("7g.40gb", 7))))
    report = check(["-"], load_data(), Environment(), lang="en", stdin=io.BytesIO(text.encode()))
    errors = [f for f in report.findings if f["severity"] == "error"]
    assert sorted(f["rule"] for f in errors) == ["CHK-005", "CHK-027"]
    (shared,) = [f for f in errors if f["rule"] == "CHK-027"]
    assert shared["same_for"]["names"] == ["nvidia.com/mig-2g.10gb", "nvidia.com/mig-3g.20gb", "nvidia.com/mig-7g.40gb"]
