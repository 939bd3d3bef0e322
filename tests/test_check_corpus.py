"""The real manifests of ../shared/corpus/manifests (origins in its SOURCES.tsv): every file is read, and NVIDIA's own
examples get no error or warning — NVIDIA's code accepts them all (their configurations validate as the device
plugin and mig-parted read them). What each file gets is pinned."""

from __future__ import annotations

import pytest

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from conftest import SHARED

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
    "gpuop-asset-mig-manager-0400-configmap.yaml": [("CHK-032", "info")],
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
    "migparted-examples-config.yaml": [("CHK-032", "info"), ("CHK-032", "info")],
    "migparted-systemd-config-default.yaml": [("CHK-032", "info")],
    # run-ai/fake-gpu-operator's A100 nodes: a card our data does not hold yet
    "runai-node-fraction.yaml": [("CHK-040", "info")],
    "runai-node-mig-3-instances.yaml": [("CHK-040", "info")],
    "runai-node-mig-7g-40gb.yaml": [("CHK-040", "info")],
    "runai-pod-mig-1g-5gb.yaml": [],
}


def corpus() -> list[str]:
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus not found at {CORPUS}: the real manifests are needed for this test")
    return sorted(p.name for p in CORPUS.glob("*.yaml"))


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


def test_the_whole_folder_is_read_in_one_run():
    corpus()
    report = check([str(CORPUS)], load_data(), Environment())
    assert report.summary["not_read"] == [] and len(report.summary["files"]) == len(EXPECTED)
    assert report.summary["checked"]["Node"] == 3
