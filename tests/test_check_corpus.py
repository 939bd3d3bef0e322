"""The real manifests of ../shared/corpus/manifests (origins in its SOURCES.tsv): every file is read, and NVIDIA's own
examples get no error or warning — NVIDIA's code accepts them all (their configurations validate as the device
plugin and mig-parted read them). What each file gets, and what the whole folder gets in one run, is pinned.

Measured on the folder in one run (`gpukb check ../shared/corpus/manifests`), 27 files:
- before (main at 2e9440b): 3 errors, 9 warnings, 6 notes shown (16 before grouping), exit 1 — every error and
  warning came from joining files that are not one cluster (six releases' chart values, a GPUCluster sample, node
  dumps of another cluster): the values' mig.strategy single judged NVIDIA's MIG examples, a pod selector judged
  against run-ai's nodes, the GPUCluster sample against the chart values' ClusterPolicy;
- now: 0 errors, 0 warnings, 9 notes (13 before grouping), exit 0: files that each hold a whole GPU Operator
  configuration are checked file by file, and NVIDIA's own MIG layouts (all-balanced, which every installation
  ships) get a note only where a node uses them, and a note that says the same words apart from the names of
  what it speaks about is shown once, the others counted.
File by file (EXPECTED): 16 notes before, 13 now (NVIDIA's all-balanced no longer noted), no error or warning.
The real mistakes of public threads, made in these files with one edit each, are all found (test below).
"""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from kb.cli.main import cli
from conftest import SHARED, need_corpus

CORPUS = SHARED / "corpus" / "manifests"

#: file → (rule, severity) of every finding, in report order
EXPECTED = {
    "cnd-custom-mig-config.yaml": [("CHK-032", "info")],  # NVIDIA's own advice: mixed for two profiles
    "cnd-google-gke-quota.yaml": [],
    "cnd-mig-cm-values.yaml": [("CHK-032", "info")],
    "cnd-tf-notebook.yaml": [],
    "cnd-time-slicing-config-all.yaml": [("CHK-063", "info"), ("CHK-060", "info")],
    "cnd-time-slicing-config-sample.yaml": [("CHK-063", "info"), ("CHK-060", "info")],
    "cnd-time-slicing-verification.yaml": [],
    "gpuop-asset-device-plugin-0400-configmap.yaml": [],
    "gpuop-asset-mig-manager-0400-configmap.yaml": [],  # all-balanced: NVIDIA's own layout, no node uses it
    "gpuop-sample-gpucluster.yaml": [],
    "gpuop-tests-gpu-pod.yaml": [],
    "gpuop-tests-plugin-config.yaml": [("CHK-060", "info")],
    "gpuop-tests-plugin-test.yaml": [],
    "gpuop-values-HEAD.yaml": [],
    "gpuop-values-v22.9.1.yaml": [],
    "gpuop-values-v23.9.0.yaml": [],
    "gpuop-values-v25.10.0.yaml": [],
    "gpuop-values-v25.3.0.yaml": [],
    "gpuop-values-v26.3.0.yaml": [],
    "kdp-testdata-job-1.yaml": [],
    "migparted-dgx-station-80gb.yaml": [("CHK-032", "info"), ("CHK-032", "info")],
    "migparted-examples-config.yaml": [("CHK-032", "info")],  # custom-config; all-balanced is NVIDIA's
    "migparted-systemd-config-default.yaml": [],
    # run-ai/fake-gpu-operator's nodes: their product labels (NVIDIA-A100-SXM4-40GB, Tesla-T4) resolve to cards,
    # and their MIG layouts fit the A100 40GB's profiles
    "runai-node-fraction.yaml": [],
    "runai-node-mig-3-instances.yaml": [],
    "runai-node-mig-7g-40gb.yaml": [],
    "runai-pod-mig-1g-5gb.yaml": [],
}


def corpus() -> list[str]:
    return sorted(p.name for p in need_corpus().glob("*.yaml"))


def test_every_corpus_file_is_pinned():
    assert corpus() == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_file_is_read_and_gets_what_is_pinned(name):
    corpus()
    report = check([str(CORPUS / name)], load_data(), Environment())
    assert report.summary["not_read"] == []
    assert [(f["rule"], f["severity"]) for f in report.findings] == EXPECTED[name]
    if not name.startswith("runai-"):  # NVIDIA's own
        assert not any(f["severity"] in ("error", "warning") for f in report.findings)


def test_the_whole_folder_is_read_in_one_run_and_exits_0():
    corpus()
    result = CliRunner().invoke(cli, ["check", str(CORPUS), "--json"])
    assert result.exit_code == 0, result.output
    import json

    summary = json.loads(result.stdout)["summary"]
    assert summary["not_read"] == [] and len(summary["files"]) == len(EXPECTED)
    assert summary["checked"]["Node"] == 3
    assert (summary["errors"], summary["warnings"], summary["infos"]) == (0, 0, 7)  # the run-ai nodes resolve (no CHK-040)
    # six files are the chart's whole values.yaml, of six releases: no cluster has six configurations
    assert [name.rsplit("/", 1)[1] for name in summary["separate"]] == [
        "gpuop-values-HEAD.yaml", "gpuop-values-v22.9.1.yaml", "gpuop-values-v23.9.0.yaml",
        "gpuop-values-v25.10.0.yaml", "gpuop-values-v25.3.0.yaml", "gpuop-values-v26.3.0.yaml"]


def corpus_text(name: str) -> str:
    corpus()
    return (CORPUS / name).read_text(encoding="utf-8")


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"the edit must hit exactly one place: {old!r}"
    return text.replace(old, new)


POLICY = ("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cluster-policy\nspec:\n  devicePlugin:\n"
          "    config:\n      name: time-slicing-config-all\n      default: any\n  mig:\n    strategy: single\n---\n")


def _mistakes() -> dict:
    """The mistake of a public thread, made in a corpus file with one edit (plus the ClusterPolicy it needs) →
    the finding that must name it."""
    ts, pod = corpus_text("cnd-time-slicing-config-all.yaml"), corpus_text("gpuop-tests-gpu-pod.yaml")
    node = corpus_text("runai-node-mig-3-instances.yaml")
    return {
        # NVIDIA/k8s-device-plugin#1433 (OvervCW, 2025-10-01): renameByDefault under flags, ignored there
        "rename-under-flags": (edit(ts, "      migStrategy: none\n", "      migStrategy: none\n      renameByDefault: true\n"),
                               ("CHK-013", "error")),
        # NVIDIA/k8s-device-plugin#1022 (oleksiytsyban, 2024-10-30): replicas 1 to turn time-slicing off
        "replicas-one": (edit(ts, "replicas: 4", "replicas: 1"), ("CHK-005", "error")),
        # NVIDIA/k8s-device-plugin#537 (MPS cleanup: "Disable MPS for MIG"): MPS sharing a MIG resource
        "mps-on-mig": (edit(edit(ts, "timeSlicing:", "mps:"), "name: nvidia.com/gpu", "name: nvidia.com/mig-1g.5gb"),
                       ("CHK-001", "error")),
        # NVIDIA/gpu-operator#529 (sidharthkumarpradhan, 2023-05-26): the policy names another ConfigMap than the
        # one created; the time-slicing configuration is never read
        "configmap-named-by-nobody": (POLICY.replace("time-slicing-config-all", "time-slicing-config") + ts,
                                      ("CHK-026", "warning")),
        # time-slicing a MIG resource while mig.strategy is single (the plugin then advertises nvidia.com/gpu only)
        "mig-resource-shared-under-single": (
            POLICY + edit(edit(ts, "migStrategy: none", "migStrategy: single"), "name: nvidia.com/gpu",
                          "name: nvidia.com/mig-1g.5gb"), ("CHK-027", "error")),
        # a product selector without GFD's NVIDIA- prefix: the pod stays Pending
        "product-without-prefix": (node + "---\n" + edit(pod, "spec:\n", "spec:\n  nodeSelector:\n"
                                                        "    nvidia.com/gpu.product: A100-SXM4-40GB\n"),
                                   ("CHK-028", "error")),
        # NVIDIA's all-balanced on a node whose GFD reports mig.strategy single
        "mixed-layout-under-single": (
            edit(edit(node, "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB\n",
                      "    nvidia.com/gpu.product: NVIDIA-A100-SXM4-40GB\n    nvidia.com/mig.config: all-balanced\n"),
                 "nvidia.com/mig.strategy: mixed", "nvidia.com/mig.strategy: single"), ("CHK-030", "error")),
        # a field mig-parted does not know (it refuses the whole file)
        "mig-parted-unknown-field": (edit(corpus_text("cnd-custom-mig-config.yaml"), '            "2g.20gb": 1',
                                          '            "2g.20gb": 1\n          mig-device: {}'), ("CHK-045", "error")),
        # the same under mig.strategy mixed, which MIG resources need: one finding (CHK-001, MPS-with-mixed folded in)
        "mps-on-mig-mixed": (edit(edit(edit(ts, "timeSlicing:", "mps:"), "name: nvidia.com/gpu",
                                       "name: nvidia.com/mig-1g.5gb"), "migStrategy: none", "migStrategy: mixed"),
                             ("CHK-001", "error")),
        # NVIDIA/gpu-operator#704's shape: the configuration writes mixed to time-slice a MIG resource, the
        # ClusterPolicy's single wins — one finding (CHK-027, the overridden flags.migStrategy folded in)
        "mixed-written-under-single": (POLICY + edit(edit(ts, "migStrategy: none", "migStrategy: mixed"),
                                                     "name: nvidia.com/gpu", "name: nvidia.com/mig-1g.5gb"),
                                       ("CHK-027", "error")),
        # bottlerocket-os/bottlerocket#4250 (apjneeraj, 2024-11-13): nvidia.com/gpu requested, but time-slicing
        # renames it to nvidia.com/gpu.shared
        "request-renamed-away": (POLICY + edit(ts, "        resources:", "        renameByDefault: true\n        resources:")
                                 + "---\n" + pod, ("CHK-070", "error")),
    }


@pytest.mark.parametrize("case", ["rename-under-flags", "replicas-one", "mps-on-mig", "configmap-named-by-nobody",
                                  "mig-resource-shared-under-single", "product-without-prefix",
                                  "mixed-layout-under-single", "mig-parted-unknown-field", "request-renamed-away",
                                  "mps-on-mig-mixed", "mixed-written-under-single"])
def test_a_real_mistake_made_in_a_corpus_file_is_found(case):
    text, (rule, severity) = _mistakes()[case]
    report = check(["-"], load_data(), Environment(), stdin=io.BytesIO(text.encode()))
    shown = [(f["rule"], f["severity"]) for f in report.findings if f["severity"] != "info"]
    assert shown[0] == (rule, severity), shown
    if case in ("mps-on-mig-mixed", "mixed-written-under-single"):  # one mistake, one finding
        assert shown == [(rule, severity)], shown
