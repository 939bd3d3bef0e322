"""Every extractor on the real NVIDIA snapshots: exact output (pinned JSON reviewed by hand, plus the facts
that matter spelled out here), and a clear ExtractError for documents of an unexpected format."""

from __future__ import annotations

import re

import json

import pytest

from conftest import FIXTURES, need_sources
from kb.drift.extractors import EXTRACTORS, ExtractError, get

EXPECTED = FIXTURES / "drift" / "expected"


def read(rel: str) -> str:
    return (need_sources() / rel).read_text(encoding="utf-8")


def extract(extractor: str, rel: str) -> dict:
    return get(extractor).extract(read(rel))


PINNED = [
    ("platform-support", "cloud-native-docs/platform-support@2026-08-21.rst"),
    ("platform-support", "cloud-native-docs/platform-support@2026-03-20.rst"),
    ("platform-support", "cloud-native-docs/platform-support@2025-10-27.rst"),
    ("platform-support", "cloud-native-docs/platform-support@2024-10-31.rst"),
    ("release-notes", "cloud-native-docs/release-notes@2026-08-21.rst"),
    ("release-notes", "cloud-native-docs/release-notes@2026-06-25.rst"),
    ("release-notes", "cloud-native-docs/release-notes@2024-10-31.rst"),
    ("device-plugin-changelog", "k8s-device-plugin/CHANGELOG@2026-08-19.md"),
    ("device-plugin-changelog", "mig-parted/CHANGELOG@2026-08-19.md"),
    ("mig-parted-config", "mig-parted/config-default@2026-02-18.yaml"),
    ("mig-parted-config", "mig-parted/config-default@2025-03-19.yaml"),
    ("mig-parted-config", "gpu-operator/0400_configmap@2026-02-13.yaml"),
]


@pytest.mark.parametrize("extractor,rel", PINNED, ids=[r for _, r in PINNED])
def test_output_equals_the_pinned_json(extractor, rel):
    pinned = EXPECTED / (rel.replace("/", "__").rsplit(".", 1)[0] + ".json")
    assert extract(extractor, rel) == json.loads(pinned.read_text(encoding="utf-8"))


def test_every_extractor_id_has_a_module():
    for ident in EXTRACTORS:
        assert get(ident).ID == ident


# --- platform support -------------------------------------------------------------------------------

def _names(out: dict, tab: str | None = None) -> list[str]:
    return [p["name"] for p in out["products"] if tab is None or p["tab"] == tab]


def test_platform_support_2026_08_21_tabs_and_wrapped_names():
    out = extract("platform-support", "cloud-native-docs/platform-support@2026-08-21.rst")
    assert out["tabs"] == ["GH-series Products", "A, H and L-series Products", "D,T and V-series Products",
                           "RTX / T-series Products", "B-series Products", "Supported ARM Based Platforms"]
    assert len(out["products"]) == 61
    assert _names(out, "RTX / T-series Products")[:3] == [
        "NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA RTX PRO 6000D",
        "NVIDIA RTX Pro 4500 Blackwell Server Edition"]
    # line blocks: several products in one cell, the trailing comma dropped
    assert _names(out, "A, H and L-series Products")[1:3] == ["NVIDIA H200", "NVIDIA H200 NVL"]
    gh200 = out["products"][0]
    assert (gh200["name"], gh200["architecture"], gh200["tab"], gh200["line"]) == (
        "NVIDIA GH200", "NVIDIA Grace Hopper", "GH-series Products", 55)
    assert gh200["notes"][0].startswith("NVIDIA GH200 systems require the NVIDIA Open GPU Kernel module driver.")


def test_platform_support_notes_give_driver_minimum_and_exceptions():
    out = extract("platform-support", "cloud-native-docs/platform-support@2026-08-21.rst")
    by_name = {p["name"]: p for p in out["products"] if p["tab"] != "Supported ARM Based Platforms"}
    rtx = by_name["NVIDIA RTX PRO 6000 Blackwell Server Edition"]
    assert rtx["normalised"] == "rtxpro6000blackwellserveredition"
    assert rtx["notes"][:2] == ["Driver versions 575.57.08 or later is required.",
                                "MIG is not supported on the 575.57.08 driver release."]
    assert rtx["min_driver"] == "575.57.08"
    assert rtx["driver_exceptions"] == [{"driver": "575.57.08", "feature": "mig"}]
    assert by_name["NVIDIA HGX B200"]["min_driver"] == "570.133.20"
    assert "min_driver" not in by_name["NVIDIA DGX B200"]  # "HGX B200" names only the HGX
    assert by_name["NVIDIA DGX A100"]["notes"] and not by_name["NVIDIA A100"]["notes"]


def test_platform_support_history():
    older = extract("platform-support", "cloud-native-docs/platform-support@2025-10-27.rst")
    newer = extract("platform-support", "cloud-native-docs/platform-support@2026-03-20.rst")
    added = [n for n in _names(newer) if n not in _names(older)]
    assert added == ["NVIDIA RTX Pro 4500 Blackwell Server Edition", "NVIDIA DGX B300",
                     "NVIDIA HGX GB200 NVL4", "NVIDIA DGX Station"]
    oldest = extract("platform-support", "cloud-native-docs/platform-support@2024-10-31.rst")
    assert "B-series Products" not in oldest["tabs"]  # no Notes column, no B-series tab in 24.9.0
    # the 24.9.0 page lists RTX A6000 twice (Ampere /Ada and Turing): both rows are kept
    assert [p["architecture"] for p in oldest["products"] if p["name"] == "NVIDIA RTX A6000"] == [
        "NVIDIA Ampere /Ada", "Turing"]


def _vgpu(rel: str) -> list[tuple]:
    out = extract("platform-support", rel)
    return [(e["family"], e["names"], e["excluded"], e["condition"], e["line"]) for e in out["kubevirt_vgpu"]]


GA10X = ["A100", "A40", "RTX A6000", "RTX A5500", "RTX A5000", "A30", "A16", "A10", "A2"]


def test_platform_support_kubevirt_vgpu_list_2026_08_21():
    assert _vgpu("cloud-native-docs/platform-support@2026-08-21.rst") == [
        (None, ["RTX Pro 6000 Blackwell Server Edition"], [], None, 617),
        (None, ["H200NVL"], [], None, 619),
        (None, ["H100"], [], None, 621),
        ("GA10x", GA10X, ["A10G", "A10M"], None, 623),
        ("AD10x", ["L40", "RTX 6000 Ada", "L4"], ["L40G"], None, 627),
        (None, ["NVIDIA HGX GB200 NVL72", "GB300 NVL72"], [], "Ubuntu 24.04 LTS", 631)]


def test_platform_support_kubevirt_vgpu_list_2024_10_31_ends_at_the_next_heading():
    assert _vgpu("cloud-native-docs/platform-support@2024-10-31.rst") == [
        (None, ["H100"], [], None, 452),
        ("GA10x", GA10X, ["A10G", "A10M"], None, 454),
        ("AD10x", ["L40", "RTX 6000 Ada", "L4"], ["L40G"], None, 458)]


@pytest.mark.parametrize("old,new,message", [
    ("KubeVirt and OpenShift Virtualization with NVIDIA vGPU is supported on the following devices:",
     "vGPU works on:", "KubeVirt vGPU device list .* is not found"),
    ("  The L40G GPU is excluded.", "  Only with the L40G.", "line 627: unexpected text in a KubeVirt vGPU entry"),
])
def test_platform_support_kubevirt_vgpu_list_of_another_format(old, new, message):
    # the list is one part of the page: it is reported unreadable, the products are still read
    text = read("cloud-native-docs/platform-support@2026-08-21.rst")
    assert old in text
    out = get("platform-support").extract(text.replace(old, new, 1))
    (part,) = out["unreadable"]
    assert part["part"] == {"en": "KubeVirt vGPU device list", "de": "Geräteliste für KubeVirt mit NVIDIA vGPU"}
    assert re.search(message, part["error"])
    assert "kubevirt_vgpu" not in out and len(out["products"]) > 50


def test_platform_support_quotes_occur_in_the_page():
    from kb.lint.snapshots import normalise

    text = read("cloud-native-docs/platform-support@2026-08-21.rst")
    out = get("platform-support").extract(text)
    assert [p["quote"] for p in out["products"] if normalise(p["quote"]) not in normalise(text)] == []


# --- release notes ----------------------------------------------------------------------------------

def _components(release: dict) -> dict:
    return {c["component"]: c["version"] for c in release["components"] if c["component"]}


def test_release_notes_2026_08_21():
    out = extract("release-notes", "cloud-native-docs/release-notes@2026-08-21.rst")
    assert out["newest"] == "26.7.0"
    assert [r["version"] for r in out["releases"][:6]] == ["26.7.0", "26.3.3", "26.3.2", "26.3.1", "26.3.0", "25.10.1"]
    assert len(out["releases"]) == 53 and out["releases"][-1]["version"] == "1.0.0"
    assert _components(out["releases"][0]) == {
        "driver": "595.91.07", "container-toolkit": "1.20.0", "device-plugin": "0.20.0",
        "dcgm-exporter": "4.6.0-4.8.3", "mig-manager": "0.15.0", "node-feature-discovery": "0.19.0",
        "gpu-feature-discovery": "0.20.0"}
    # "NVIDIA Device Plugin for Kubernetes" (26.7.0) and "NVIDIA Kubernetes Device Plugin" (26.3.3)
    assert _components(out["releases"][1]) == {"device-plugin": "0.19.3", "gpu-feature-discovery": "0.19.3"}
    assert _components(out["releases"][3]) == {}  # 26.3.1 updates only components the catalog does not track


def test_release_notes_wordings_of_component_lists():
    out = extract("release-notes", "cloud-native-docs/release-notes@2026-08-21.rst")
    rel = {r["version"]: r for r in out["releases"]}
    # "Includes these software component versions:" (25.3.1) and a version without "v"
    assert _components(rel["25.3.1"])["device-plugin"] == "0.17.2"
    # "NVIDIA Kubernetes Device Plugin/NVIDIA GPU Feature Discovery v0.17.3" counts for both
    assert _components(rel["25.3.2"]) == {"device-plugin": "0.17.3", "gpu-feature-discovery": "0.17.3",
                                          "mig-manager": "0.12.2"}
    # driver bullets: the default is marked, drivers are not components; each with its item and sub-section
    assert rel["25.10.0"]["drivers"] == [
        {"version": "580.95.05", "default": True, "item": "580.95.05 (default)", "section": "New Features"},
        {"version": "570.195.03", "default": False, "item": "570.195.03", "section": "New Features"},
        {"version": "535.274.02", "default": False, "item": "535.274.02", "section": "New Features"}]
    assert "driver" not in _components(rel["25.10.0"])
    # the list item as written (a citation's quote) and the typo NVIDIA's 23.9.x notes carry ("v1.14.2")
    item = next(c for c in rel["23.9.0"]["components"] if c["component"] == "device-plugin")
    assert item == {"name": "NVIDIA Kubernetes Device Plugin", "component": "device-plugin", "version": "1.14.2",
                    "item": "NVIDIA Kubernetes Device Plugin v1.14.2", "section": "New Features"}
    assert rel["24.9.1"]["drivers"][0]["item"] == \
        "Added support for the NVIDIA Data Center GPU Driver versions 550.127.08 and 535.216.03"


def test_release_notes_history_newest():
    assert extract("release-notes", "cloud-native-docs/release-notes@2026-06-25.rst")["newest"] == "26.3.3"
    assert extract("release-notes", "cloud-native-docs/release-notes@2024-10-31.rst")["newest"] == "24.9.0"


# --- component matrix, README, CHANGELOG, mig-parted, DRA -------------------------------------------

def test_component_matrix_2026_08_21():
    out = extract("component-matrix", "cloud-native-docs/life-cycle-policy@2026-08-21.rst")
    assert out["release"] == "26.7.0"
    tracked = {c["component"]: c["version"] for c in out["components"] if c["component"]}
    assert tracked == {"driver": "595.91.07", "container-toolkit": "1.20.0", "device-plugin": "0.20.0",
                       "dcgm-exporter": "4.6.0-4.8.3", "node-feature-discovery": "0.19.0",
                       "gpu-feature-discovery": "0.20.0", "mig-manager": "0.15.0"}
    assert out["components"][0] == {"name": "NVIDIA GPU Driver", "component": "driver", "version": "595.91.07",
                                    "versions": ["610.57.04", "595.91.07", "580.173.02", "535.309.01"]}
    assert [c["name"] for c in out["components"] if not c["component"]] == [
        "NVIDIA Driver Manager for Kubernetes", "DCGM", "NVIDIA KubeVirt GPU Device Plugin",
        "NVIDIA vGPU Device Manager", "NVIDIA GDS Driver", "NVIDIA Confidential Computing Manager for Kubernetes",
        "NVIDIA GDRCopy Driver", "NVIDIA Kata Sandbox Device Plugin"]


def test_component_matrix_2026_03_20():
    out = extract("component-matrix", "cloud-native-docs/life-cycle-policy@2026-03-20.rst")
    assert out["release"] == "26.3.0"
    tracked = {c["component"]: c["version"] for c in out["components"] if c["component"]}
    assert tracked["driver"] == "580.126.20" and tracked["device-plugin"] == "0.19.0"


@pytest.mark.parametrize("rel,expected", [
    ("k8s-device-plugin/README@2026-05-19.md",
     {"latest_release": "0.17.1", "prerelease": False, "sharing": ["With CUDA Time-Slicing", "With CUDA MPS"]}),
    ("k8s-device-plugin/README@2024-10-31.md",
     {"latest_release": "0.17.0", "prerelease": False, "sharing": ["With CUDA Time-Slicing", "With CUDA MPS"]}),
])
def test_device_plugin_readme(rel, expected):
    assert extract("device-plugin-readme", rel) == expected


def test_changelogs_newest_and_prereleases():
    dp = extract("device-plugin-changelog", "k8s-device-plugin/CHANGELOG@2026-08-19.md")
    assert dp["newest"] == "0.20.0"
    assert dp["releases"][:2] == [{"version": "0.20.0", "line": 3, "prerelease": False},
                                  {"version": "0.19.3", "line": 15, "prerelease": False}]
    assert {"version": "0.17.1", "line": 90, "prerelease": False} in dp["releases"]  # "### Version v0.17.1"
    assert {"version": "0.17.0-rc.1", "line": 101, "prerelease": True} in dp["releases"]
    assert extract("device-plugin-changelog", "mig-parted/CHANGELOG@2026-08-19.md")["newest"] == "0.15.0"


def test_mig_parted_config_layouts_and_comments():
    out = extract("mig-parted-config", "mig-parted/config-default@2026-02-18.yaml")
    layouts = {c["name"]: c for c in out["configs"]}
    assert layouts["all-1g.24gb.gfx"] == {"name": "all-1g.24gb.gfx", "comment": "RTX PRO 6000 Blackwell", "entries": [
        {"comment": "", "device_filter": [], "mig_enabled": True, "mig_devices": {"1g.24gb+gfx": 4}}]}
    assert [(e["comment"], e["mig_devices"]) for e in layouts["all-1g.10gb"]["entries"]] == [
        ("H100-80GB, H800-80GB, A100-80GB, A800-80GB", {"1g.10gb": 7}), ("A100-40GB, A800-40GB", {"1g.10gb": 4})]
    assert layouts["all-1g.18gb"]["entries"][0]["mig_devices"] == {"1g.18gb": 7}
    older = extract("mig-parted-config", "mig-parted/config-default@2025-03-19.yaml")
    assert "1g.24gb+gfx" in out["profiles"] and "1g.24gb+gfx" not in older["profiles"]


def test_mig_parted_configmap_embeds_the_same_layouts():
    configmap = extract("mig-parted-config", "gpu-operator/0400_configmap@2026-02-13.yaml")
    assert [c["name"] for c in configmap["configs"]][:4] == ["all-disabled", "all-enabled", "all-1g.5gb", "all-1g.5gb.me"]
    assert len(configmap["configs"]) == 81


def test_mig_parted_config_is_read_by_libyaml_with_pure_yamls_values_and_errors(monkeypatch):
    # a release import reads one config per release (4 of its 4.4 s were PyYAML's pure-Python parser): libyaml
    # reads it, with yaml.safe_load's values; a text libyaml refuses is read again in pure Python, whose error counts
    import yaml

    from kb.drift.extractors import mig_parted_config

    texts = [read("mig-parted/config-default@2026-02-18.yaml"), read("gpu-operator/0400_configmap@2026-02-13.yaml")]
    fast = [mig_parted_config.extract(t) for t in texts]
    with monkeypatch.context() as m:
        m.delattr(yaml, "CSafeLoader")  # PyYAML without libyaml: the pure-Python loader
        assert [mig_parted_config.extract(t) for t in texts] == fast
        with pytest.raises(ExtractError) as pure_error:
            mig_parted_config.extract("mig-configs:\n  all: [\n")
    with pytest.raises(ExtractError) as error:
        mig_parted_config.extract("mig-configs:\n  all: [\n")
    assert str(error.value) == str(pure_error.value) and str(error.value).startswith("not valid YAML: ")

    def refused(*args, **kwargs):
        raise AssertionError("read by the pure-Python parser")

    monkeypatch.setattr(yaml, "SafeLoader", refused)
    assert [mig_parted_config.extract(t) for t in texts] == fast


@pytest.mark.parametrize("rel,expected", [
    ("cloud-native-docs/dra-intro-install@2026-08-21.rst",
     {"min_kubernetes": "1.34.2",
      "quote_kubernetes": "Kubernetes v1.34.2 or later with a resource.k8s.io DeviceClass API available.",
      "min_driver": "580", "quote_driver": "NVIDIA GPU driver version 580 or later."}),
    ("cloud-native-docs/dra-intro-install@2026-07-06.rst",
     {"min_kubernetes": "1.34.2", "quote_kubernetes": "Kubernetes v1.34.2 or later.",
      "min_driver": "580", "quote_driver": "NVIDIA Driver version 580 or later."}),
    ("dra-driver-nvidia-gpu/prerequisites@2026-07-16.md",
     {"min_kubernetes": "1.34.2",
      "quote_kubernetes": "Kubernetes v1.34.2 or later, with at least one node that has one or more NVIDIA GPUs.",
      "min_driver": "565", "quote_driver": "NVIDIA Driver v565 or later for GPU allocation."}),
    ("dra-driver-nvidia-gpu/README@2026-06-04.md",
     {"min_kubernetes": "1.32",
      "quote_kubernetes": "For Kubernetes 1.32 or newer, with Dynamic Resource Allocation (DRA) enabled."}),
    ("dra-driver-nvidia-gpu/_index@2026-06-26.md",
     {"min_kubernetes": "1.32", "quote_kubernetes": "It requires Kubernetes 1.32 or later."}),
])
def test_dra_prerequisites(rel, expected):
    assert extract("dra-prerequisites", rel) == expected


def test_quotes_only_counts_lines():
    assert extract("quotes-only", "cloud-native-docs/gpu-operator-mig@2026-03-20.rst") == {"lines": 611}


# --- unexpected formats: never "nothing changed" ------------------------------------------------------

HTML = "<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Rate limited</h1></body></html>"


@pytest.mark.parametrize("extractor", sorted(EXTRACTORS))
def test_an_html_error_page_is_unparseable(extractor):
    with pytest.raises(ExtractError):
        get(extractor).extract(HTML)


@pytest.mark.parametrize("extractor", sorted(EXTRACTORS))
def test_an_empty_document_is_unparseable(extractor):
    with pytest.raises(ExtractError):
        get(extractor).extract("")


def test_a_misaligned_grid_row_names_its_line():
    text = read("cloud-native-docs/platform-support@2026-08-21.rst").replace(
        "| NVIDIA A2               |", "| NVIDIA A2                 |", 1)
    with pytest.raises(ExtractError, match=r"line 122: grid table row does not line up"):
        get("platform-support").extract(text)


def test_a_matrix_header_naming_a_release_twice_is_not_guessed():
    # several releases are read column by column (tests/test_drift_history.py); the same one twice is no matrix
    text = read("cloud-native-docs/life-cycle-policy@2026-08-21.rst").replace(
        "   * - v26.7.0\n", "   * - v26.7.0\n     - v26.7.0\n", 1)
    with pytest.raises(ExtractError, match="names no release or one twice"):
        get("component-matrix").extract(text)
