"""NVIDIA's own example manifests, read from ../shared/sources, check clean or with exactly these findings.

The GPU Operator chart's values.yaml has no `kind`: gpukb reads it as the chart's Helm values and checks
the ClusterPolicy (and GPUCluster) the chart renders from them (see kb/check/readers/helmvalues.py).
"""

from __future__ import annotations

import pytest

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from conftest import need_sources

#: snapshot → the (rule, severity, field path) of every finding, in report order
EXPECTED = {
    "cloud-native-docs/time-slicing-config-all@2023-03-09.yaml": [
        ("CHK-063", "info", "metadata.name"),
        ("CHK-060", "info", "data.any → sharing.timeSlicing"),
    ],
    "cloud-native-docs/time-slicing-config-fine@2023-03-09.yaml": [
        ("CHK-063", "info", "metadata.name"),
        ("CHK-060", "info", "data.a100-40gb → sharing.timeSlicing"),  # the same note for tesla-t4, counted
    ],
    "cloud-native-docs/time-slicing-config-sample@2023-03-09.yaml": [
        ("CHK-063", "info", "metadata.name"),
        ("CHK-060", "info", "data.any → sharing.timeSlicing"),
    ],
    # five-1g-one-2g mixes two profiles: NVIDIA's guide says to set mig.strategy mixed for it
    "cloud-native-docs/custom-mig-config@2024-05-15.yaml": [
        ("CHK-032", "info", 'data["config.yaml"] → mig-configs.five-1g-one-2g'),
    ],
    # NVIDIA's MIG layouts: only all-balanced mixes profiles (per GPU type, entries grouped by device-filter), and
    # it is NVIDIA's own layout that every installation ships: said about only where a node uses it
    "mig-parted/config-default@2026-02-18.yaml": [],
    "gpu-operator/0400_configmap@2026-02-13.yaml": [],
    "gpu-operator/values@2026-08-20.yaml": [],
    "gpu-operator/values@2026-03-18.yaml": [],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("operator", [None, "26.7.0"])
def test_nvidia_example_checks_as_expected(name, operator):
    path = need_sources() / name
    report = check([str(path)], load_data(), Environment(operator=operator))
    assert [(f["rule"], f["severity"], f["where"]["path"]) for f in report.findings] == EXPECTED[name]
    assert not report.has_errors
    assert report.summary["ignored"] == []


def test_values_yaml_becomes_a_cluster_policy_with_the_charts_settings():
    report = check([str(need_sources() / "gpu-operator/values@2026-08-20.yaml")], load_data(), Environment())
    (policy,) = report.inventory.policies
    assert policy.origin == "Helm values"
    assert policy.value("mig.strategy") == "single"
    assert policy.value("devicePlugin.config.name") == ""
    assert policy.value("cdi.enabled") is True
    assert policy.where("mig.strategy")["line"] == 135
    assert report.inventory.gpu_clusters == []


def test_nvidia_time_slicing_flow_with_node_labels_checks_clean(tmp_path):
    """The guide's node-specific setup: ConfigMap, ClusterPolicy patch with a default, a labelled T4 node."""
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cluster-policy\n"
        "spec:\n  devicePlugin:\n    config:\n      name: time-slicing-config-fine\n      default: tesla-t4\n"
        "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: t4\n  labels:\n"
        "    nvidia.com/device-plugin.config: tesla-t4\n", encoding="utf-8")
    fine = need_sources() / "cloud-native-docs/time-slicing-config-fine@2023-03-09.yaml"
    report = check([str(fine), str(policy)], load_data(), Environment())
    assert not report.has_errors
    assert {f["rule"] for f in report.findings} == {"CHK-060", "CHK-063"}


def test_a_layout_with_dozens_of_profiles_names_a_few_and_says_why(tmp_path):
    """all-balanced of the operator's default ConfigMap holds a profile set for each GPU type; copied under a name
    of the customer's own (one edit), it is theirs and gets the note — and, being in the operator's own ConfigMap,
    the warning that the operator overwrites it (CHK-057)."""
    text = (need_sources() / "gpu-operator/0400_configmap@2026-02-13.yaml").read_text(encoding="utf-8")
    assert text.count("      all-balanced:\n") == 1
    (tmp_path / "cm.yaml").write_text(text.replace("      all-balanced:\n", "      team-balanced:\n"), encoding="utf-8")
    report = check([str(tmp_path / "cm.yaml")], load_data(), Environment(), lang="de")
    assert sorted(f["rule"] for f in report.findings) == ["CHK-032", "CHK-057"]
    (finding,) = [f for f in report.findings if f["rule"] == "CHK-032"]
    assert finding["message"].startswith(
        "Layout team-balanced aus default-mig-parted-config/config.yaml mischt MIG-Profile auf einem GPU-Typ (Profile: "
        "1g.10gb, 1g.12gb, 1g.18gb, 1g.23gb, 1g.24gb, 1g.34gb, 1g.35gb, 1g.5gb, … (+22)): Nodes damit brauchen")
