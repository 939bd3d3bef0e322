"""`gpukb sources check|diff` on the drift fixture catalog (tests/fixtures/drift/catalog plus the catalog's
platform-support.yaml): no drift against the newest snapshots, real history detected as drift, synthetic
edits of real documents reported in plain words with the facts and answers they touch."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli


def gpukb(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def diff_json(source: str, path) -> tuple[int, dict]:
    result = gpukb("sources", "diff", source, path, "--json")
    return result.exit_code, json.loads(result.stdout)["sources"][0]


def kinds_and_texts(item: dict) -> list[tuple[str, str]]:
    return [(c["kind"], c["text"]["en"]) for c in item["changes"]]


def edited(tmp_path, rel: str, old: str, new: str):
    """A copy of a real snapshot with one passage replaced (the passage must exist)."""
    text = (need_sources() / rel).read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel}"
    path = tmp_path / rel.replace("/", "__")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --- the newest snapshots: no drift -----------------------------------------------------------------

def test_check_offline_newest_snapshots_no_drift(drift_catalog):
    result = gpukb("sources", "check", "--offline", need_sources(), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert data["summary"] == {"sources": 9, "ok": 9, "reworded": 0, "drift": 0, "unreachable": 0, "unparseable": 0, "error": 0,
                               "could_not_check": 0, "facts_changed": 0, "quotes_reworded": 0, "notes": 0}
    assert data["exit_code"] == 0
    assert [s["origin"].split("sources/", 1)[1] for s in data["sources"]][:3] == [
        "cloud-native-docs/release-notes@2026-08-21.rst", "cloud-native-docs/platform-support@2026-08-21.rst",
        "cloud-native-docs/life-cycle-policy@2026-08-21.rst"]


@pytest.mark.parametrize("source,rel", [
    ("gpu-operator-release-notes", "cloud-native-docs/release-notes@2026-08-21.rst"),
    ("gpu-operator-platform-support", "cloud-native-docs/platform-support@2026-08-21.rst"),
    ("gpu-operator-platform-support", "cloud-native-docs/platform-support@2026-03-20.rst"),
    ("gpu-operator-component-matrix", "cloud-native-docs/life-cycle-policy@2026-03-20.rst"),
    ("dra-driver-prerequisites", "k8s-dra-driver-gpu/prerequisites@2026-05-13.md"),
])
def test_diff_without_drift_exits_0(drift_catalog, source, rel):
    code, item = diff_json(source, need_sources() / rel)
    assert (code, item["status"], item["changes"]) == (0, "ok", [])


# --- real history ------------------------------------------------------------------------------------

def test_platform_support_2025_10_27_lacks_four_products(drift_catalog):
    code, item = diff_json("gpu-operator-platform-support",
                           need_sources() / "cloud-native-docs/platform-support@2025-10-27.rst")
    assert code == 1
    assert kinds_and_texts(item) == [
        ("product-removed", "platform support no longer lists NVIDIA RTX Pro 4500 Blackwell Server Edition"),
        ("product-removed", "platform support no longer lists NVIDIA DGX B300"),
        ("product-removed", "platform support no longer lists NVIDIA HGX GB200 NVL4"),
        ("product-removed", "platform support no longer lists NVIDIA DGX Station")]
    first = item["changes"][0]
    assert first["touches"] == ["platform-support products[33]",
                                "cards/rtx-pro-4500-blackwell-server operator_support.listed"]
    assert first["patch"] == [{"entity": "cards/rtx-pro-4500-blackwell-server",
                               "path": ["operator_support", "listed", "value"], "value": False}]


def test_release_notes_2026_06_25_newest_is_26_3_3(drift_catalog):
    code, item = diff_json("gpu-operator-release-notes",
                           need_sources() / "cloud-native-docs/release-notes@2026-06-25.rst")
    assert code == 1
    assert kinds_and_texts(item) == [(
        "release-missing",
        "the document does not list NVIDIA GPU Operator 26.7.0, which our data have "
        "(newest there: 26.3.3)")]
    assert item["extracted"]["newest"] == "26.3.3"


def test_release_notes_2026_03_20_miss_two_catalog_releases_in_one_change(drift_catalog):
    code, item = diff_json("gpu-operator-release-notes",
                           need_sources() / "cloud-native-docs/release-notes@2026-03-20.rst")
    assert code == 1
    assert kinds_and_texts(item) == [(
        "release-missing",
        "the document does not list NVIDIA GPU Operator 26.7.0, 26.3.3, which our data have "
        "(newest there: 26.3.0)")]
    assert item["changes"][0]["touches"] == ["releases/gpu-operator releases[0]", "releases/gpu-operator releases[1]"]


def test_mig_doc_before_v26_3_0_lacks_the_generated_config(drift_catalog):
    code, item = diff_json("gpu-operator-mig", need_sources() / "cloud-native-docs/gpu-operator-mig@2025-11-12.rst")
    assert code == 1
    assert item["changes"] == [{
        "source": "gpu-operator-mig", "kind": "quote-gone",
        "text": {"en": "the quote “MIG Manager generates the MIG configuration for a node at runtime from the available "
                       "ha…” behind our data on NVIDIA GPU Operator 26.3.0 is gone from the document",
                 "de": "Das Zitat „MIG Manager generates the MIG configuration for a node at runtime from the available "
                       "ha…“, das unsere Daten zu NVIDIA GPU Operator 26.3.0 belegt, fehlt jetzt im Dokument"},
        "touches": ["releases/gpu-operator releases[2].changes[0]"], "patch": [],
        "details": {"quote": "MIG Manager generates the MIG configuration for a node at runtime from the available "
                             "hardware."},
        "answers": [], "rank": "fact", "read_by": []}]


def test_device_plugin_readme_2024_10_31_quote_gone(drift_catalog):
    code, item = diff_json("device-plugin-readme", need_sources() / "k8s-device-plugin/README@2024-10-31.md")
    assert code == 1
    assert [c["touches"] for c in item["changes"]] == [["releases/device-plugin releases[2].changes[0]"]]
    assert item["extracted"] == {"latest_release": "0.17.0", "prerelease": False,
                                 "sharing": ["With CUDA Time-Slicing", "With CUDA MPS"]}


def test_mig_parted_config_before_rtx_pro_6000_profiles(drift_catalog):
    code, item = diff_json("mig-parted-config-default", need_sources() / "mig-parted/config-default@2025-03-19.yaml")
    assert code == 1
    assert kinds_and_texts(item) == [
        ("profile-removed", "mig-parted's default config no longer has profile 1g.24gb+gfx (card RTX PRO 6000 Server Edition)"),
        ("profile-removed", "mig-parted's default config no longer has profile 4g.96gb (card RTX PRO 6000 Server Edition)")]


def test_dra_docs_index_says_kubernetes_1_32(drift_catalog):
    code, item = diff_json("dra-driver-prerequisites", need_sources() / "dra-driver-nvidia-gpu/_index@2026-06-26.md")
    assert code == 1
    assert kinds_and_texts(item) == [
        ("requirement-changed", "the document now requires Kubernetes 1.32 or later for Dynamic Resource Allocation "
                                "under the GPU Operator (our data: 1.34.2)"),
        ("requirement-changed", "the document no longer states a minimum for the NVIDIA driver "
                                "(our data on Dynamic Resource Allocation under the GPU Operator: 565.0)")]
    assert item["changes"][0]["patch"] == [{"entity": "methods/dra", "path": ["requirements", "min_kubernetes", "value"],
                                            "value": "1.32"}]


def test_a_disputing_claim_is_compared_with_its_own_source(drift_catalog):
    """dra-driver-readme backs the disputed 1.32, not the fact's 1.34.2: its README is no drift."""
    code, item = diff_json("dra-driver-readme", need_sources() / "dra-driver-nvidia-gpu/README@2026-06-04.md")
    assert (code, item["changes"]) == (0, [])


# --- synthetic edits of real documents ----------------------------------------------------------------

PS = "cloud-native-docs/platform-support@2026-08-21.rst"
RTX6000_ROW = ("    | NVIDIA RTX PRO 6000     | NVIDIA Blackwell       |       |\n"
               "    | Blackwell Server Edition|                        |       |\n"
               "    +-------------------------+------------------------+-------+\n")


def test_removed_card_reports_the_answers_it_changes(drift_catalog, tmp_path):
    code, item = diff_json("gpu-operator-platform-support", edited(tmp_path, PS, RTX6000_ROW, ""))
    assert code == 1
    [change] = item["changes"]
    assert change["text"]["en"] == "platform support no longer lists NVIDIA RTX PRO 6000 Blackwell Server Edition"
    assert [(a["question"], a["inputs"]["operator"], a["before"], a["after"], a["rules_added"])
            for a in change["answers"]] == [
        ("mig", "26.7.0", "conditional", "conditional", ["MIG-007"]),
        ("mig", "26.3.3", "conditional", "conditional", ["MIG-007"]),
        ("mig", "26.3.0", "conditional", "conditional", ["MIG-007"])]


def test_new_row_for_an_unlisted_card(drift_catalog, tmp_path):
    row = ("    | NVIDIA RTX PRO 5000     | NVIDIA Blackwell       |       |\n"
           "    | Blackwell               |                        |       |\n"
           "    +-------------------------+------------------------+-------+\n")
    code, item = diff_json("gpu-operator-platform-support", edited(tmp_path, PS, RTX6000_ROW, RTX6000_ROW + row))
    assert code == 1
    assert kinds_and_texts(item) == [
        ("product-added", "platform support now lists NVIDIA RTX PRO 5000 Blackwell (RTX / T-series Products)"),
        ("card-listed", "platform support now lists NVIDIA RTX PRO 5000 Blackwell; our data say card RTX PRO 5000 "
                        "is not listed")]
    assert item["changes"][1]["patch"] == [{"entity": "cards/rtx-pro-5000-blackwell",
                                            "path": ["operator_support", "listed", "value"], "value": True}]


def test_new_driver_minimum_and_exception(drift_catalog, tmp_path):
    path = edited(tmp_path, PS, "* MIG is not supported on the 575.57.08 driver release.",
                  "* MIG is not supported on the 580.65.06 driver release.")
    path.write_text(path.read_text().replace("Driver versions 575.57.08 or later", "Driver versions 580.65.06 or later"))
    code, item = diff_json("gpu-operator-platform-support", path)
    assert code == 1
    name = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
    assert kinds_and_texts(item) == [
        ("product-notes", f"platform support notes on {name} changed — new: “Driver versions 580.65.06 or later is "
                          "required.”; new: “MIG is not supported on the 580.65.06 driver release.”; gone: “Driver "
                          "versions 575.57.08 or later is required.”; gone: “MIG is not supported on the 575.57.08 "
                          "driver release.”"),
        ("min-driver", f"platform support requires driver 580.65.06 or later for {name} (our data: 575.57.08)"),
        ("driver-exceptions", f"platform support names these driver exceptions for {name}: mig on 580.65.06 "
                              "(our data: mig on 575.57.08)")]
    assert item["changes"][1]["patch"] == [{"entity": "cards/rtx-pro-6000-blackwell-server",
                                            "path": ["operator_support", "min_driver", "value"], "value": "580.65.06"}]


def test_architecture_change(drift_catalog, tmp_path):
    path = edited(tmp_path, PS, "| NVIDIA A2               | NVIDIA Ampere             |",
                  "| NVIDIA A2               | NVIDIA Ada                |")
    code, item = diff_json("gpu-operator-platform-support", path)
    assert kinds_and_texts(item) == [
        ("product-architecture", "platform support gives NVIDIA A2 the architecture NVIDIA Ada (our data: NVIDIA Ampere)")]


RN = "cloud-native-docs/release-notes@2026-08-21.rst"


def test_release_notes_with_a_newer_release(drift_catalog, tmp_path):
    new = ".. _v27.1.0:\n\n27.1.0\n======\n\nNew Features\n------------\n\n* Updated software component versions:\n\n" \
          "  - NVIDIA Device Plugin for Kubernetes v0.21.0\n\n----\n\n.. _v26.7.0:"
    code, item = diff_json("gpu-operator-release-notes", edited(tmp_path, RN, ".. _v26.7.0:", new))
    assert code == 1
    assert kinds_and_texts(item) == [(
        "release-newer",
        "the document lists NVIDIA GPU Operator 27.1.0, newer than the newest in our data (26.7.0)")]


def test_release_notes_with_another_component_version(drift_catalog, tmp_path):
    path = edited(tmp_path, RN, "NVIDIA Device Plugin for Kubernetes v0.20.0", "NVIDIA Device Plugin for Kubernetes v0.20.1")
    code, item = diff_json("gpu-operator-release-notes", path)
    assert kinds_and_texts(item) == [
        ("component-changed", "the document lists NVIDIA device plugin for Kubernetes 0.20.1 for NVIDIA GPU Operator "
                              "26.7.0 (our data: 0.20.0)")]
    assert item["changes"][0]["patch"] == [{"entity": "releases/gpu-operator",
                                            "path": ["releases", 0, "components", 2, "version"], "value": "0.20.1"}]


def test_release_notes_drop_a_component(drift_catalog, tmp_path):
    path = edited(tmp_path, RN, "  - NVIDIA MIG Manager for Kubernetes v0.15.0\n", "")
    code, item = diff_json("gpu-operator-release-notes", path)
    assert kinds_and_texts(item) == [
        ("component-removed", "the document no longer lists NVIDIA MIG Manager for Kubernetes 0.15.0 for NVIDIA GPU "
                              "Operator 26.7.0")]


def test_component_matrix_for_a_newer_release(drift_catalog, tmp_path):
    path = edited(tmp_path, "cloud-native-docs/life-cycle-policy@2026-08-21.rst", "   * - v26.7.0", "   * - v27.1.0")
    code, item = diff_json("gpu-operator-component-matrix", path)
    assert kinds_and_texts(item) == [(
        "release-newer",
        "the component matrix describes GPU Operator 27.1.0, newer than the newest in our data (26.7.0)")]


def test_component_matrix_with_another_default_driver(drift_catalog, tmp_path):
    path = edited(tmp_path, "cloud-native-docs/life-cycle-policy@2026-08-21.rst", "(**R**, **D**)", "(**R**)")
    path.write_text(path.read_text().replace("tesla-release-notes-610-57-04/index.html>`_\n",
                                             "tesla-release-notes-610-57-04/index.html>`_ (**D**)\n"))
    code, item = diff_json("gpu-operator-component-matrix", path)
    assert kinds_and_texts(item) == [
        ("component-changed", "the component matrix gives NVIDIA GPU Driver 610.57.04 for GPU Operator 26.7.0 (our data: "
                              "595.91.07)")]


def test_readme_naming_a_newer_release(drift_catalog, tmp_path):
    path = edited(tmp_path, "k8s-device-plugin/README@2026-05-19.md", "latest release (`v0.17.1`) of the plugin is available:",
                  "latest release (`v0.21.0`) of the plugin is available:")
    code, item = diff_json("device-plugin-readme", path)
    assert kinds_and_texts(item) == [(
        "release-newer", "the device plugin README names v0.21.0 as the latest release, newer than any device plugin "
                         "version in our data (0.20.0)")]


def test_changelog_with_a_newer_release(drift_catalog, tmp_path):
    path = edited(tmp_path, "k8s-device-plugin/CHANGELOG@2026-08-19.md", "### v0.20.0", "### v0.21.0\n- Rubin\n\n### v0.20.0")
    code, item = diff_json("device-plugin-changelog", path)
    assert kinds_and_texts(item) == [(
        "release-newer",
        "the document lists NVIDIA device plugin for Kubernetes 0.21.0, newer than the newest in our data (0.20.0)")]


def test_mig_layout_with_another_count(drift_catalog, tmp_path):
    path = edited(tmp_path, "mig-parted/config-default@2026-02-18.yaml", '"1g.24gb+gfx": 4', '"1g.24gb+gfx": 3')
    code, item = diff_json("mig-parted-config-default", path)
    assert kinds_and_texts(item) == [(
        "profile-count",
        "mig-parted's layout all-1g.24gb.gfx creates 3 × 1g.24gb+gfx (our data on the RTX PRO 6000 Server Edition: at most 4)")]
    assert item["changes"][0]["patch"] == [{"entity": "cards/rtx-pro-6000-blackwell-server",
                                            "path": ["mig", "profiles", 0, "max_count"], "value": 3}]


def test_dra_prerequisites_with_a_newer_kubernetes(drift_catalog, tmp_path):
    path = edited(tmp_path, "dra-driver-nvidia-gpu/prerequisites@2026-07-16.md", "| Kubernetes | v1.34.2 or later",
                  "| Kubernetes | v1.35.0 or later")
    code, item = diff_json("dra-driver-prerequisites", path)
    assert kinds_and_texts(item) == [(
        "requirement-changed", "the document now requires Kubernetes 1.35.0 or later for Dynamic Resource "
        "Allocation under the GPU Operator (our data: 1.34.2)")]


# --- unreadable or unparseable input: exit 3, never drift, never "no drift" ---------------------------

def test_diff_of_an_html_page_exits_3(drift_catalog, tmp_path):
    page = tmp_path / "platform-support.rst"
    page.write_text("<!DOCTYPE html><html><body>Too many requests</body></html>")
    result = gpukb("sources", "diff", "gpu-operator-platform-support", page, "--json")
    item = json.loads(result.stdout)["sources"][0]
    assert (result.exit_code, item["status"], item["changes"]) == (3, "unparseable", [])
    assert item["error"] == f"{page}: an HTML page, not the raw document (an error, login or rate-limit page?)"


def test_check_offline_with_a_missing_snapshot_exits_3_and_still_reports_drift(drift_catalog, old_platform):
    result = gpukb("sources", "check", "--offline", old_platform, "--source", "gpu-operator-platform-support",
                   "--source", "gpu-operator-release-notes", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    assert data["summary"] == {"sources": 2, "ok": 0, "reworded": 0, "drift": 1, "unreachable": 1, "unparseable": 0, "error": 0,
                               "could_not_check": 1, "facts_changed": 4, "quotes_reworded": 0, "notes": 0}
    assert [(s["source"], s["status"], s["error"]) for s in data["sources"]] == [
        ("gpu-operator-release-notes", "unreachable",
         f"no snapshot of sources/cloud-native-docs/release-notes in {old_platform}"),
        ("gpu-operator-platform-support", "drift", None)]


def test_a_question_the_engine_cannot_answer_does_not_hide_the_drift(drift_catalog, tmp_path, monkeypatch):
    """The engine failing on the answers a change touches is an internal error (exit 4: a failed run, never drift;
    it was exit 1, and 0 where the changes were rewordings only): the report still shows the changes."""
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("mig", "no-such-question"))
    result = gpukb("sources", "diff", "gpu-operator-platform-support", edited(tmp_path, PS, RTX6000_ROW, ""), "--json")
    data = json.loads(result.stdout)
    assert (result.exit_code, data["exit_code"]) == (4, 4)
    assert data["sources"][0]["status"] == "drift"
    assert data["answers_error"].startswith("no-such-question: ")
    assert [a["rules_added"] for a in data["sources"][0]["changes"][0]["answers"]] == [["MIG-007"]] * 3


def test_the_warning_that_answers_could_not_be_computed_is_in_the_runs_language(drift_catalog, tmp_path, monkeypatch):
    """One language per run (it printed "warning: answers could not be computed / Antworten nicht berechenbar")."""
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("mig", "no-such-question"))
    snapshot = edited(tmp_path, PS, RTX6000_ROW, "")
    said = {lang: [line for line in gpukb("sources", "diff", "gpu-operator-platform-support", snapshot, "--lang",
                                          lang).stderr.splitlines() if "no-such-question" in line] for lang in ("en", "de")}
    assert said["en"] == [said["en"][0]] and said["en"][0].startswith("warning: The answers these changes touch could "
                                                                      "not be computed: no-such-question: "), said
    assert said["de"] == [said["de"][0]] and said["de"][0].startswith("Warnung: Die betroffenen Antworten ließen sich "
                                                                      "nicht berechnen: no-such-question: "), said


def test_the_drift_exit_code_counts_a_failure_of_the_answers_as_internal():
    """kb/cli/sources.py decides one code per run: the engine failing on the answers a change touches is exit 4
    whatever the sources say (a run with rewordings only passed with exit 0 before), and only then."""
    from types import SimpleNamespace

    from kb.cli.sources import _code

    def result(status, unchecked=()):
        return SimpleNamespace(status=status, unchecked=list(unchecked))
    reworded, drift, gone = result("reworded"), result("drift"), result("unreachable")
    assert [_code(rs, None) for rs in ([reworded], [drift], [drift, gone], [result("error")])] == [0, 1, 3, 4]
    assert [_code(rs, "mig: EngineFailure: …") for rs in ([reworded], [drift], [drift, gone], [])] == [4, 4, 4, 4]
