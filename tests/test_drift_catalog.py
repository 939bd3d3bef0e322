"""The real catalog against the real snapshots: consistent with the newest, and real history is drift."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import need_sources
from kb.catalog.compiled import load_data
from kb.cli.main import cli
from kb.drift.report import verdict_text
from test_drift_history import without_answers


@pytest.fixture(autouse=True)
def _repository_catalog(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)


def diff(source: str, rel: str) -> tuple[int, dict]:
    """`gpukb sources diff … --json` of a snapshot, without the impact analysis: no test using it reads `answers` or
    `read_by` (tests/test_drift_history.py without_answers)."""
    with without_answers():
        result = CliRunner().invoke(cli, ["sources", "diff", source, str(need_sources() / rel), "--json"])
    return result.exit_code, json.loads(result.stdout)["sources"][0]


def texts(item: dict) -> list[str]:
    return [c["text"]["en"] for c in item["changes"]]


def test_every_watched_source_matches_its_newest_snapshot():
    result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(need_sources()), "--json"])
    data = json.loads(result.stdout)
    problems = [(s["source"], s["status"], s["error"], [c["text"]["en"] for c in s["changes"]])
                for s in data["sources"] if s["status"] != "ok"]
    assert (result.exit_code, problems) == (0, [])
    assert data["summary"]["ok"] == data["summary"]["sources"] >= 20


@pytest.mark.parametrize("source,rel", [
    ("gpu-operator-release-notes", "cloud-native-docs/release-notes@2026-08-21.rst"),
    ("gpu-operator-platform-support", "cloud-native-docs/platform-support@2026-08-21.rst"),
])
def test_newest_release_notes_and_platform_support_exit_0(source, rel):
    code, item = diff(source, rel)
    assert (code, item["status"], texts(item)) == (0, "ok", [])


def test_platform_support_of_2025_10_27_misses_the_rtx_pro_4500_server_edition():
    code, item = diff("gpu-operator-platform-support", "cloud-native-docs/platform-support@2025-10-27.rst")
    assert code == 1
    removed = [t for c, t in zip(item["changes"], texts(item)) if c["kind"] == "product-removed"]
    assert removed == ["platform support no longer lists NVIDIA RTX Pro 4500 Blackwell Server Edition",
                       "platform support no longer lists NVIDIA DGX B300",
                       "platform support no longer lists NVIDIA HGX GB200 NVL4",
                       "platform support no longer lists NVIDIA DGX Station"]
    assert "cards/rtx-pro-4500-blackwell-server operator_support.listed" in item["changes"][0]["touches"]


def test_release_notes_of_2026_06_25_end_at_26_3_3():
    code, item = diff("gpu-operator-release-notes", "cloud-native-docs/release-notes@2026-06-25.rst")
    assert code == 1
    assert item["extracted"]["newest"] == "26.3.3"
    assert texts(item)[0] == ("the document does not list NVIDIA GPU Operator 26.7.0, which our "
                              "data have (newest there: 26.3.3)")


def test_mig_doc_before_v26_3_0_lacks_the_generated_mig_configuration():
    code, item = diff("gpu-operator-mig", "cloud-native-docs/gpu-operator-mig@2025-11-12.rst")
    assert code == 1
    assert {c["kind"] for c in item["changes"]} == {"quote-gone", "quote-reworded"}
    assert any(c["details"]["quote"].startswith("Introduced in GPU Operator v26.3.0, MIG Manager generates")
               for c in item["changes"] if c["kind"] == "quote-gone")
    # the older page words some sentences differently; those facts hold and are offered as new quotes
    reworded = {c["details"]["quote"]: c["details"]["new_quote"] for c in item["changes"] if c["rank"] == "reworded"}
    assert reworded["mixed: MIG mode is not enabled on all GPUs on a node."] == (
        "mixed when MIG mode is not enabled on all GPUs on a node.")


def test_mig_parted_config_before_the_rtx_pro_6000_profiles():
    code, item = diff("mig-parted-config-default", "mig-parted/config-default@2025-03-19.yaml")
    assert code == 1
    assert "mig-parted's default config no longer has profile 1g.24gb+gfx (card RTX PRO 6000 Server Edition)" in texts(item)


def test_device_plugin_readme_of_v0_17_0_lacks_the_runtime_class_wording():
    """The README at tag v0.17.0 called the default runtime "required for docker"; the catalog quotes the newer
    wording (releases/device-plugin features[runtime-class-without-default-runtime])."""
    code, item = diff("device-plugin-readme", "k8s-device-plugin/README@2024-10-31.md")
    assert (code, item["status"], [c["kind"] for c in item["changes"]]) == (1, "drift", ["quote-gone"])
    assert item["changes"][0]["details"]["quote"].startswith(
        "If the nvidia runtime should be set as the default runtime (with non-cri docker versions, for example)")
    features = [f["id"] for f in load_data()["releases"]["device-plugin"]["features"]]
    at = features.index("runtime-class-without-default-runtime")
    assert item["changes"][0]["touches"] == [f"releases/device-plugin features[{at}]"]
    assert item["extracted"]["latest_release"] == "0.17.0"


def test_device_plugin_readme_newest_exits_0():
    code, item = diff("device-plugin-readme", "k8s-device-plugin/README@2026-05-19.md")
    assert (code, item["status"], texts(item), item["extracted"]["latest_release"]) == (0, "ok", [], "0.17.1")


def test_mig_parted_changelog_lists_the_catalog_releases_of_the_mig_manager():
    code, item = diff("mig-parted-changelog", "mig-parted/CHANGELOG@2026-08-19.md")
    assert (code, item["status"], item["extractor"], texts(item)) == (0, "ok", "device-plugin-changelog", [])
    assert item["extracted"]["newest"] == "0.15.0"


def _changelog_variant(tmp_path, edit) -> str:
    text = (need_sources() / "mig-parted" / "CHANGELOG@2026-08-19.md").read_text(encoding="utf-8")
    path = tmp_path / "CHANGELOG.md"
    path.write_text(edit(text), encoding="utf-8")
    return str(path)


def test_mig_parted_changelog_with_a_newer_release_is_drift(tmp_path):
    path = _changelog_variant(tmp_path, lambda t: t.replace("## v0.15.0\n", "## v0.16.0\n- Something new\n\n## v0.15.0\n", 1))
    result = CliRunner().invoke(cli, ["sources", "diff", "mig-parted-changelog", path, "--json"])
    item = json.loads(result.stdout)["sources"][0]
    assert (result.exit_code, texts(item)) == (1, [
        "the document lists NVIDIA MIG Manager for Kubernetes 0.16.0, newer than the newest in our data (0.15.0)"])


def test_mig_parted_changelog_without_a_catalog_release_is_drift(tmp_path):
    path = _changelog_variant(tmp_path, lambda t: t[:t.index("## v0.15.0")] + t[t.index("## v0.14.5"):])
    result = CliRunner().invoke(cli, ["sources", "diff", "mig-parted-changelog", path, "--json"])
    item = json.loads(result.stdout)["sources"][0]
    assert result.exit_code == 1
    assert [(c["kind"], c["touches"]) for c in item["changes"]] == [
        ("release-missing", ["releases/mig-manager releases[0]"])]
    assert texts(item) == ["the document does not list NVIDIA MIG Manager for Kubernetes 0.15.0, which our "
                           "data have (newest there: 0.14.5)"]


# --- the KubeVirt vGPU device list against the cards' operator_support.kubevirt_vgpu ---------------------

PS = "cloud-native-docs/platform-support@2026-08-21.rst"
AD10X = "- AD10x: L40, RTX 6000 Ada, L4.\n"


def _edited_platform(tmp_path, old: str, new: str) -> tuple[int, dict]:
    text = (need_sources() / PS).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "platform-support.rst"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = CliRunner().invoke(cli, ["sources", "diff", "gpu-operator-platform-support", str(path), "--json"])
    return result.exit_code, json.loads(result.stdout)["sources"][0]


def test_platform_support_of_2024_10_31_lacks_four_cards_on_the_vgpu_list():
    code, item = diff("gpu-operator-platform-support", "cloud-native-docs/platform-support@2024-10-31.rst")
    assert code == 1
    # GB200/GB300 NVL72 joined the list with v26.3.0 (platform-support@2026-03-20)
    assert [(c["text"]["en"], c["touches"]) for c in item["changes"] if c["kind"].startswith("vgpu")] == [
        ("platform support's KubeVirt vGPU device list no longer names card GB200",
         ["cards/gb200 operator_support.kubevirt_vgpu"]),
        ("platform support's KubeVirt vGPU device list no longer names card GB300",
         ["cards/gb300 operator_support.kubevirt_vgpu"]),
        ("platform support's KubeVirt vGPU device list no longer names card H200 NVL",
         ["cards/h200-nvl operator_support.kubevirt_vgpu"]),
        ("platform support's KubeVirt vGPU device list no longer names card RTX PRO 6000 Server Edition",
         ["cards/rtx-pro-6000-blackwell-server operator_support.kubevirt_vgpu"])]


def test_l4_gone_from_the_ad10x_line_turns_its_vgpu_answer_unconfirmed(tmp_path):
    code, item = _edited_platform(tmp_path, AD10X, "- AD10x: L40, RTX 6000 Ada.\n")
    assert code == 1
    # the quotes of the old line (L40S's disputed "not on the list" value, the vGPU method's limit) need a review too
    assert [(c["kind"], c["text"]["en"], c["text"]["de"]) for c in item["changes"]] == [
        ("vgpu-unlisted", "platform support's KubeVirt vGPU device list no longer names card L4",
         "Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt Karte L4 nicht mehr"),
        # close to the old line, but a name with a digit is gone: a changed fact, not a rewording (the L40 card
        # cites the line too)
        ("quote-changed", "the quote “AD10x: L40, RTX 6000 Ada, L4.” behind our data on L40 now reads "
                          "“AD10x: L40, RTX 6000 Ada.” in the document (another number, name or negation)",
         "Das Zitat „AD10x: L40, RTX 6000 Ada, L4.“, das unsere Daten zu L40 belegt, lautet im Dokument jetzt "
         "„AD10x: L40, RTX 6000 Ada.“ (andere Zahl, anderer Name oder eine Verneinung)"),
        ("quote-changed", "the quote “AD10x: L40, RTX 6000 Ada, L4.” behind our data on L40S now reads "
                          "“AD10x: L40, RTX 6000 Ada.” in the document (another number, name or negation)",
         "Das Zitat „AD10x: L40, RTX 6000 Ada, L4.“, das unsere Daten zu L40S belegt, lautet im Dokument jetzt "
         "„AD10x: L40, RTX 6000 Ada.“ (andere Zahl, anderer Name oder eine Verneinung)"),
        ("quote-changed", "the quote “AD10x: L40, RTX 6000 Ada, L4.” behind our data on VMs with NVIDIA vGPU (KubeVirt) now reads "
                          "“AD10x: L40, RTX 6000 Ada.” in the document (another number, name or negation)",
         "Das Zitat „AD10x: L40, RTX 6000 Ada, L4.“, das unsere Daten zu VMs mit NVIDIA vGPU (KubeVirt) belegt, lautet im Dokument jetzt "
         "„AD10x: L40, RTX 6000 Ada.“ (andere Zahl, anderer Name oder eine Verneinung)")]
    change = item["changes"][0]
    assert change["touches"] == ["cards/l4 operator_support.kubevirt_vgpu"]
    assert change["patch"] == [{"entity": "cards/l4", "path": ["operator_support", "kubevirt_vgpu", "value"],
                                "value": False}]
    methods = [a for a in change["answers"] if a["question"] == "methods"]
    releases = {r["version"] for r in load_data()["releases"]["gpu-operator"]["releases"]}
    assert {a["inputs"]["operator"] for a in methods} == releases and len(methods) == len(releases)  # one per release
    # releases before the list named the L4 (kubevirt_vgpu_since 24.3.0) were unconfirmed already (METHODS-046)
    assert {(a["inputs"]["card"], a["before"], a["after"], str(a.get("methods_changed")), tuple(a["rules_added"]),
             tuple(a["rules_removed"])) for a in methods} == {
        ("l4", "yes", "yes", "{'vgpu': ['conditional', 'unconfirmed']}", ("METHODS-043",),
         ("METHODS-040", "METHODS-041", "METHODS-042")),
        ("l4", "yes", "yes", "None", ("METHODS-043",), ("METHODS-046",))}
    assert sorted(a["inputs"]["operator"] for a in methods if "methods_changed" not in a) == ["23.9.0", "23.9.1", "23.9.2"]
    assert verdict_text(methods[0]) == ("yes → yes; vGPU: conditional → unconfirmed "
                                        "(+METHODS-043, −METHODS-040, −METHODS-041, −METHODS-042)")
    assert verdict_text(methods[0], "de") == ("ja → ja; vGPU: bedingt → unbestätigt "
                                              "(+METHODS-043, −METHODS-040, −METHODS-041, −METHODS-042)")


def test_l4_excluded_is_no_longer_named(tmp_path):
    code, item = _edited_platform(tmp_path, "The L40G GPU is excluded.", "The L40G and L4 GPUs are excluded.")
    assert (code, [c["text"]["en"] for c in item["changes"]]) == (1, [
        "platform support's KubeVirt vGPU device list no longer names card L4"])


def test_l40s_on_the_vgpu_list_settles_the_dispute_without_changing_an_answer(tmp_path):
    """The L40S follows the operator's code (gpu-operator#719) with the list's "not on it" kept as disputed: the
    list naming it settles the dispute — drift, but no answer changes."""
    code, item = _edited_platform(tmp_path, "- H100\n", "- H100\n\n- L40S\n")
    assert code == 1
    [change] = item["changes"]
    assert (change["kind"], change["text"]["en"], change["text"]["de"]) == (
        "vgpu-listed", "platform support's KubeVirt vGPU device list now names L40S: it no longer disputes that card "
                       "L40S is supported; drop the disputed value",
        "Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt jetzt L40S: Die Liste widerspricht "
        "nicht mehr, dass Karte L40S unterstützt wird; den abweichenden Wert entfernen")
    assert change["touches"] == ["cards/l40s operator_support.kubevirt_vgpu.disputed_by[0]"]
    assert change["patch"] == []
    assert not [a for a in change["answers"] if a.get("methods_changed")]