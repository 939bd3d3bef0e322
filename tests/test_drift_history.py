"""Real history of the watched documents as regression tests, and one-edit mutations of the newest files.

Each test names the upstream repository, path and commit it reproduces. Versions equal to a file in
../shared/sources are read from there; other versions are read from a mirror of the upstream repository
(the search tool's `fetch`, at ../.mirror beside the repository or $GPUKB_MIRROR) and skip, saying so, where
it is absent — nothing fetched is committed. A mutation is one edit of the newest snapshot, written out in
the test, so every blind spot stays covered without the mirror. The findings were measured by replaying every version of every watched
file (`python -m kb.drift.replay /work/.mirror`, see docs-dev/drift.md).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli

MIRROR = Path(os.environ.get("GPUKB_MIRROR") or Path(__file__).resolve().parents[2] / ".mirror")


@pytest.fixture(autouse=True)
def _repository_catalog(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)


def diff_text(source: str, text: str, tmp_path: Path, name: str = "doc.txt", *, answers: bool = False) -> tuple[int, dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return diff_file(source, path, answers=answers)


def diff_file(source: str, path: Path, *, answers: bool = False) -> tuple[int, dict]:
    """`gpukb sources diff … --json`: the exit code and the source's item. Without `answers` the impact analysis
    (kb.drift.impact.attach: each change's `answers` and `read_by`) is left out — see without_answers."""
    with contextlib.nullcontext() if answers else without_answers():
        result = CliRunner().invoke(cli, ["sources", "diff", source, str(path), "--json"])
    return result.exit_code, json.loads(result.stdout)["sources"][0]


def without_answers():
    """The drift check without its impact analysis, for the tests that read neither `answers` nor `read_by`: their
    assertions never saw it (the CLI reports a failure there as `answers_error`, and leaves the changes, exit code
    and texts as they are), and a patch of a release or method recomputes every answer of the catalog with it
    (3–4 s CPU a test). What the analysis finds is pinned by the tests asking for it (answers=True) and by
    tests/test_drift_impact.py."""
    return mock.patch("kb.drift.impact.attach", lambda data, changes, **kw: [])


def shared(rel: str) -> str:
    return (need_sources() / rel).read_text(encoding="utf-8")


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"the edit must hit exactly one place: {old!r}"
    return text.replace(old, new)


def kinds(item: dict) -> list[tuple[str, str]]:
    return [(c["kind"], c["rank"]) for c in item["changes"]]


# --- real versions the snapshots do not hold: read from the mirror ----------------------------------------------
def upstream(repo: str, commit: str, path: str) -> str:
    """The file at that commit of a fetched mirror; the test skips, saying why, without the mirror."""
    git_dir = MIRROR / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        pytest.skip(f"no mirror of {repo} at {git_dir}: fetch it (search tool) to replay {path}@{commit[:10]}")
    return subprocess.run(["git", "-C", str(git_dir), "show", f"{commit}:{path}"],
                          capture_output=True, text=True, check=True).stdout


def test_matrix_with_several_patch_releases_is_read_column_by_column(tmp_path):
    # NVIDIA/cloud-native-docs gpu-operator/life-cycle-policy.rst at 815c4afbce (2026-06-25): v26.3.0–v26.3.3
    # share the header; from December 2025 to August 2026 every version of the file looked like this and
    # the check exited 3 ("expected one GPU Operator release") for months.
    text = upstream("NVIDIA/cloud-native-docs", "815c4afbced0fd3f5350638fc4b9ae38775c7b79",
                    "gpu-operator/life-cycle-policy.rst")
    code, item = diff_text("gpu-operator-component-matrix", text, tmp_path)
    assert item["status"] != "unparseable" and code != 3
    extracted = item["extracted"]
    assert extracted["releases"] == ["26.3.0", "26.3.1", "26.3.2", "26.3.3"]
    versions = {r: {c["component"]: c["version"] for c in comps if c["component"]}
                for r, comps in extracted["columns"].items()}
    # :cspan: cells give two releases the same version; the driver is the one marked D in each column
    assert versions["26.3.0"]["device-plugin"] == versions["26.3.1"]["device-plugin"] == "0.19.0"
    assert versions["26.3.2"]["device-plugin"] == "0.19.2"
    assert versions["26.3.3"]["device-plugin"] == "0.19.3"
    assert versions["26.3.3"]["mig-manager"] == "0.14.2"
    assert {v["driver"] for v in versions.values()} == {"580.126.20"}
    # the catalog's 26.3.x components agree with every column: nothing but the 26.7.0 quotes (newer than
    # this file) is reported
    assert not [c for c in item["changes"] if c["kind"] == "component-changed"]
    assert {t for c in item["changes"] for t in c["touches"]} <= {
        f"releases/gpu-operator releases[0].components[{k}]" for k in range(7)}


NEWEST_MATRIX = "cloud-native-docs/life-cycle-policy@2026-08-21.rst"


def _with_second_release(text: str) -> str:
    """The newest matrix with a v26.7.1 column: every version cell spans both releases (as NVIDIA writes it)."""
    text = edit(text, "   * - v26.7.0\n", "   * - v26.7.0\n     - v26.7.1\n")
    text = edit(text, "     - GPU Operator Version\n", "     - :cspan:`1` GPU Operator Version\n")
    out, in_table = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith(".. flat-table::"):
            in_table = True
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
        if in_table and line.startswith("     - ") and not line.startswith("     - :cspan:") \
                and "v26.7" not in line:
            line = "     - :cspan:`1` " + line[len("     - "):]
        out.append(line)
    return "".join(out)


def test_matrix_mutation_a_new_patch_release_column_is_a_new_release(tmp_path):
    code, item = diff_text("gpu-operator-component-matrix", _with_second_release(shared(NEWEST_MATRIX)), tmp_path)
    assert code == 1
    assert item["extracted"]["releases"] == ["26.7.0", "26.7.1"]
    assert [c["text"]["en"] for c in item["changes"]] == [
        "the component matrix describes GPU Operator 26.7.1, newer than the newest in our data (26.7.0)"]


def _with_patch_releases(text: str) -> str:
    """The newest matrix in the shape NVIDIA used from December 2025 to August 2026 (v26.3.0–v26.3.3 in one
    header): three patch releases, every cell spanning them except the device plugin, which changes in the last."""
    text = edit(text, "   * - v26.7.0\n", "   * - v26.7.0\n     - v26.7.1\n     - v26.7.2\n")
    text = edit(text, "     - GPU Operator Version\n", "     - :cspan:`2` GPU Operator Version\n")
    text = edit(text, "     - `0.20.0 <https://github.com/NVIDIA/k8s-device-plugin/releases>`__\n\n   * - DCGM Exporter",
                "     - :cspan:`1` `0.20.0 <https://github.com/NVIDIA/k8s-device-plugin/releases>`__\n"
                "     - `0.20.1 <https://github.com/NVIDIA/k8s-device-plugin/releases>`__\n\n   * - DCGM Exporter")
    out, in_table = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith(".. flat-table::"):
            in_table = True
        elif in_table and line.strip() and not line.startswith(" "):
            in_table = False
        if in_table and line.startswith("     - ") and not line.startswith("     - :cspan:") \
                and "v26.7" not in line and "0.20.1" not in line:
            line = "     - :cspan:`2` " + line[len("     - "):]
        out.append(line)
    return "".join(out)


def test_matrix_mutation_several_patch_releases_share_the_header(tmp_path):
    # the shape of NVIDIA/cloud-native-docs gpu-operator/life-cycle-policy.rst at 815c4afbce (2026-06-25), built
    # from the newest snapshot: every such version exited 3 ("expected one GPU Operator release") for months
    code, item = diff_text("gpu-operator-component-matrix", _with_patch_releases(shared(NEWEST_MATRIX)), tmp_path)
    assert item["status"] != "unparseable" and code == 1
    extracted = item["extracted"]
    assert extracted["releases"] == ["26.7.0", "26.7.1", "26.7.2"]
    plugin = {r: next(c["version"] for c in comps if c["component"] == "device-plugin")
              for r, comps in extracted["columns"].items()}
    assert plugin == {"26.7.0": "0.20.0", "26.7.1": "0.20.0", "26.7.2": "0.20.1"}
    # the catalog's 26.7.0 agrees with its column: only the newer releases are news
    assert not [c for c in item["changes"] if c["kind"] == "component-changed"]
    assert [c["text"]["en"] for c in item["changes"]] == [
        "the component matrix describes GPU Operator 26.7.1, 26.7.2, newer than the newest in our data (26.7.0)"]


def test_matrix_mutation_another_default_driver_in_one_column(tmp_path):
    text = edit(shared(NEWEST_MATRIX), "595-91-07/index.html>`_ (**R**, **D**)", "595-91-07/index.html>`_ (**R**)")
    text = edit(text, "580-173-02/index.html>`_\n", "580-173-02/index.html>`_ (**D**)\n")
    code, item = diff_text("gpu-operator-component-matrix", text, tmp_path)
    assert code == 1
    changed = [c for c in item["changes"] if c["kind"] == "component-changed"]
    assert [c["text"]["en"] for c in changed] == [
        "the component matrix gives NVIDIA GPU Driver 580.173.02 for GPU Operator 26.7.0 (our data: 595.91.07)"]
    assert changed[0]["patch"] == [{"entity": "releases/gpu-operator", "path": ["releases", 0, "components", 0, "version"],
                                    "value": "580.173.02"}]


# --- quotes: reworded is not a changed fact ----------------------------------------------------------------------
def test_typo_fix_dgcm_to_dcgm_is_a_reworded_quote_not_drift(tmp_path):
    # NVIDIA/cloud-native-docs gpu-operator/gpu-sharing.rst before a5d068412634 (2024-01-19, "fix typos of dcgm
    # in cnt-docs") wrote "DGCM-Exporter does not support associating metrics …"; the catalog quotes today's
    # spelling. Replaying history the other way round is the same comparison: a typo is not a changed fact.
    text = edit(shared("cloud-native-docs/gpu-sharing@2025-01-29.rst"),
                "DCGM-Exporter does not support associating metrics",
                "DGCM-Exporter does not support associating metrics")
    code, item = diff_text("gpu-operator-gpu-sharing", text, tmp_path)
    assert code == 0
    assert item["status"] == "reworded"
    (change,) = item["changes"]
    assert (change["kind"], change["rank"]) == ("quote-reworded", "reworded")
    new = ("DGCM-Exporter does not support associating metrics to containers when GPU time-slicing is enabled "
           "with the NVIDIA Kubernetes Device Plugin.")
    assert change["details"]["new_quote"] == new and change["details"]["similarity"] >= 0.9
    assert change["patch"] == [{"entity": "methods/time-slicing", "path": change["patch"][0]["path"], "value": new}]
    assert change["patch"][0]["path"][-3:] == ["cite", 0, "quote"]


def test_a_negation_dropped_from_a_quote_is_a_fact_even_when_the_sentence_is_close(tmp_path):
    # "does not support" → "does support": similar enough to be "reworded", but the fact turned round
    text = edit(shared("cloud-native-docs/gpu-sharing@2025-01-29.rst"),
                "DCGM-Exporter does not support associating metrics",
                "DCGM-Exporter does support associating metrics")
    code, item = diff_text("gpu-operator-gpu-sharing", text, tmp_path)
    assert code == 1
    assert kinds(item) == [("quote-changed", "fact")]


# --- platform support -----------------------------------------------------------------------------------------
NEWEST_PLATFORM = "cloud-native-docs/platform-support@2026-08-21.rst"
RTX_NOTE = """      NVIDIA RTX PRO 6000 Blackwell Server Edition notes:

      * Driver versions 575.57.08 or later is required.
      * MIG is not supported on the 575.57.08 driver release.
"""


def test_platform_note_with_its_bullets_nested_under_the_lead_reads_like_the_flat_form(tmp_path):
    # NVIDIA/cloud-native-docs gpu-operator/platform-support.rst at 354c6a4ab2 (2025-10-08) nested the bullets
    # under "… notes:" (no blank line, indented two more); 31b496a7eb (2025-10-13) flattened them again. The
    # nested form used to read as "no longer states a driver minimum" for the RTX PRO 6000 Server Edition.
    nested = RTX_NOTE.replace(":\n\n      * ", ":\n        * ").replace("\n      * ", "\n        * ")
    code, item = diff_text("gpu-operator-platform-support", edit(shared(NEWEST_PLATFORM), RTX_NOTE, nested), tmp_path)
    assert (code, item["status"], item["changes"]) == (0, "ok", [])


def test_platform_mutation_a_driver_minimum_raised_in_the_nested_note_is_still_seen(tmp_path):
    nested = RTX_NOTE.replace(":\n\n      * ", ":\n        * ").replace("\n      * ", "\n        * ")
    nested = nested.replace("575.57.08 or later", "580.65.06 or later")
    code, item = diff_text("gpu-operator-platform-support", edit(shared(NEWEST_PLATFORM), RTX_NOTE, nested), tmp_path)
    assert code == 1
    assert "platform support requires driver 580.65.06 or later for NVIDIA RTX PRO 6000 Blackwell Server Edition " \
           "(our data: 575.57.08)" in [c["text"]["en"] for c in item["changes"]]


RTX_ROW = """    | NVIDIA RTX PRO 6000     | NVIDIA Blackwell       |       |
    | Blackwell Server Edition|                        |       |
"""


def test_platform_cell_rewrapped_keeps_its_quotes(tmp_path):
    # the catalog quotes a grid row as the page reads it line by line ("NVIDIA RTX PRO 6000 NVIDIA Blackwell");
    # the same cell wrapped over three lines used to make that quote "gone"
    rewrapped = ("    | NVIDIA RTX PRO          | NVIDIA Blackwell       |       |\n"
                 "    | 6000 Blackwell Server   |                        |       |\n"
                 "    | Edition                 |                        |       |\n")
    code, item = diff_text("gpu-operator-platform-support", edit(shared(NEWEST_PLATFORM), RTX_ROW, rewrapped), tmp_path)
    assert (code, item["changes"]) == (0, [])


def _widen(text: str, first_cell: str) -> str:
    """The grid table holding `first_cell` with its first column 10 characters wider."""
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if first_cell in line)
    start = max(i for i in range(at) if not lines[i].lstrip().startswith(("+", "|"))) + 1
    end = next(i for i in range(at, len(lines)) if not lines[i].lstrip().startswith(("+", "|")))
    for i in range(start, end):
        line = lines[i]
        cut = line.index("+" if line.lstrip().startswith("+") else "|", line.index(line.lstrip()[0]) + 1)
        fill = line[cut - 1] if line.lstrip().startswith("+") else " "
        lines[i] = line[:cut] + fill * 10 + line[cut:]
    return "".join(lines)


def test_platform_grid_table_widened_reads_like_before(tmp_path):
    widened = _widen(shared(NEWEST_PLATFORM), "| NVIDIA RTX PRO 6000     |")
    assert "| NVIDIA RTX PRO 6000               |" in widened
    code, item = diff_text("gpu-operator-platform-support", widened, tmp_path)
    assert (code, item["changes"]) == (0, [])


VGPU_LEAD = "KubeVirt and OpenShift Virtualization with NVIDIA vGPU is supported on the following devices:"


def test_platform_without_the_vgpu_list_fails_that_part_only(tmp_path):
    # From d832b9a379 (2023-12-08) to 2024-05 the page had no such list: the part cannot be checked (exit 3,
    # named), every product is still compared — here a product removed in the same edit is still reported.
    text = edit(shared(NEWEST_PLATFORM), VGPU_LEAD, "The following devices are supported:")
    text = edit(text, "    | NVIDIA RTX PRO 6000D    | NVIDIA Blackwell       |       |\n"
                      "    +-------------------------+------------------------+-------+\n", "")
    code, item = diff_text("gpu-operator-platform-support", text, tmp_path)
    assert code == 3
    assert item["unchecked"] == [{"part": {"en": "KubeVirt vGPU device list",
                                           "de": "Geräteliste für KubeVirt mit NVIDIA vGPU"},
                                  "error": f"the KubeVirt vGPU device list ({VGPU_LEAD!r}) is not found"}]
    assert [c["text"]["en"] for c in item["changes"] if c["kind"] == "product-removed"] == [
        "platform support no longer lists NVIDIA RTX PRO 6000D"]
    assert item["status"] == "drift"


def test_platform_without_the_vgpu_list_text_and_markdown_name_the_part(tmp_path):
    text = edit(shared(NEWEST_PLATFORM), VGPU_LEAD, "The following devices are supported:")
    (tmp_path / "cloud-native-docs").mkdir()
    (tmp_path / "cloud-native-docs" / "platform-support@2026-08-21.rst").write_text(text, encoding="utf-8")
    report = tmp_path / "drift.md"
    with without_answers():  # the part named in text and report is what this test reads (see without_answers)
        result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(tmp_path), "--source",
                                          "gpu-operator-platform-support", "--report", str(report)])
    assert result.exit_code == 3
    assert "- KubeVirt vGPU device list: the KubeVirt vGPU device list" in result.output
    assert ("- **NVIDIA GPU Operator: Platform Support** (`gpu-operator-platform-support`), part “KubeVirt vGPU "
            "device list”: the KubeVirt vGPU device list") \
        in report.read_text(encoding="utf-8")


# --- device plugin README --------------------------------------------------------------------------------------
NEWEST_README = "k8s-device-plugin/README@2026-05-19.md"


def test_readme_naming_a_pre_release_is_noted_not_unparseable(tmp_path):
    # NVIDIA/k8s-device-plugin README.md at 69c31c20eb (2023-04-03) named "the latest release (`v0.14.0-rc.3`)";
    # every README of that kind exited 3. A pre-release newer than the catalog is noted, and is no drift.
    text = shared(NEWEST_README).replace("latest release (`v0.17.1`)", "latest release (`v0.21.0-rc.1`)")
    code, item = diff_text("device-plugin-readme", text, tmp_path, "README.md")
    assert code == 0 and item["status"] == "ok"
    assert item["extracted"]["latest_release"] == "0.21.0-rc.1" and item["extracted"]["prerelease"] is True
    assert [(c["kind"], c["rank"], c["text"]["en"]) for c in item["changes"]] == [
        ("prerelease", "note", "the device plugin README names the pre-release v0.21.0-rc.1 as the latest release "
                               "(not a release yet; the newest in our data: 0.20.0)")]


def test_readme_naming_a_new_release_is_drift(tmp_path):
    text = shared(NEWEST_README).replace("latest release (`v0.17.1`)", "latest release (`v0.21.0`)")
    code, item = diff_text("device-plugin-readme", text, tmp_path, "README.md")
    assert code == 1
    assert kinds(item) == [("release-newer", "fact")]


def _without_section(text: str, heading: str) -> str:
    """The Markdown text without one section (its heading up to the next heading of the same or a higher level)."""
    lines = text.splitlines(keepends=True)
    at = lines.index(heading + "\n")
    level = len(heading) - len(heading.lstrip("#"))
    end = next(i for i in range(at + 1, len(lines))
               if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= level)
    return "".join(lines[:at] + lines[end:])


def test_readme_mutation_the_mps_section_removed_is_a_changed_fact(tmp_path):
    text = _without_section(shared(NEWEST_README), "#### With CUDA MPS")
    code, item = diff_text("device-plugin-readme", text, tmp_path, "README.md", answers=True)
    assert code == 1
    assert item["extracted"]["sharing"] == ["With CUDA Time-Slicing"]
    removed = [c for c in item["changes"] if c["kind"] == "sharing-mode-removed"]
    assert len(removed) == 1 and removed[0]["rank"] == "fact"
    assert removed[0]["text"]["en"].startswith("the device plugin README no longer documents the sharing mode "
                                               "“With CUDA MPS”")
    assert "methods/mps" in {t.split(" ")[0] for t in removed[0]["touches"]}
    assert "releases/device-plugin features[0]" in removed[0]["touches"]
    # the answers resting on that section are named for review
    assert {a["question"] for a in removed[0]["answers"]} >= {"methods"}
    # the section's quotes are not reported once more, one by one
    assert not [c for c in item["changes"] if c["kind"] == "quote-gone" and c["details"]["quote"].startswith(
        "As of v0.15.0 of the device plugin, MPS support")]


def test_readme_before_mps_reads_the_time_slicing_heading_of_2023(tmp_path):
    # NVIDIA/k8s-device-plugin README.md at 69c31c20eb (2023-04-03): "### Shared Access to GPUs with CUDA
    # Time-Slicing" was the mode's own heading
    from kb.drift.extractors import get

    text = "# NVIDIA device plugin for Kubernetes\n\n### Shared Access to GPUs with CUDA Time-Slicing\n\ntext\n" \
           "## Deployment via `helm`\n\nThen verify that the latest release (`v0.14.0-rc.3`) of the plugin is available:\n"
    assert get("device-plugin-readme").extract(text) == {
        "sharing": ["With CUDA Time-Slicing"], "latest_release": "0.14.0-rc.3", "prerelease": True}


# --- DRA feature gates ---------------------------------------------------------------------------------------
GATES = "dra-driver-nvidia-gpu/feature-gates@2026-07-29.md"
MPS_ROW = ("| `MPSSupport` | Alpha | `false` | Enables Multi-Process Service (MPS) sharing strategy in `GpuConfig` and "
           "`MigDeviceConfig`. |")


def test_feature_gates_page_reads_every_gate():
    from kb.drift.extractors import get

    gates = get("dra-feature-gates").extract(shared(GATES))["gates"]
    assert [(g["gate"], g["stage"], g["default"]) for g in gates[:3]] == [
        ("TimeSlicingSettings", "alpha", False), ("MPSSupport", "alpha", False), ("IMEXDaemonsWithDNSNames", "beta", True)]
    assert len(gates) == 10


def test_feature_gate_mutation_alpha_to_beta_is_a_changed_maturity(tmp_path):
    text = edit(shared(GATES), MPS_ROW, MPS_ROW.replace("| Alpha | `false` |", "| Beta | `true` |"))
    code, item = diff_text("dra-driver-feature-gates", text, tmp_path, "feature-gates.md")
    assert code == 1
    (change,) = item["changes"]
    assert (change["kind"], change["rank"]) == ("gate-maturity", "fact")
    assert change["text"]["en"] == "feature gate MPSSupport is Beta now (our data on DRA for MPS: Alpha)"
    assert change["text"]["de"] == "Feature-Gate MPSSupport ist jetzt Beta (unsere Daten zu DRA für MPS: Alpha)"
    assert change["touches"] == ["methods/dra capabilities[3].maturity"]
    assert change["patch"] == [{"entity": "methods/dra", "path": ["capabilities", 3, "maturity", "value"],
                                "value": "beta"}]


def test_feature_gate_mutation_on_by_default_while_alpha(tmp_path):
    text = edit(shared(GATES), MPS_ROW, MPS_ROW.replace("| Alpha | `false` |", "| Alpha | `true` |"))
    code, item = diff_text("dra-driver-feature-gates", text, tmp_path, "feature-gates.md")
    assert code == 1
    assert [c["kind"] for c in item["changes"]] == ["gate-default"]


def test_feature_gate_mutation_row_removed(tmp_path):
    code, item = diff_text("dra-driver-feature-gates", edit(shared(GATES), MPS_ROW + "\n", ""), tmp_path, "fg.md")
    assert code == 1
    # the capability resting on the gate, and the feature text quoting the same row elsewhere
    assert [(c["kind"], c["touches"]) for c in item["changes"]] == [
        ("gate-removed", ["methods/dra capabilities[3].maturity"]),
        ("quote-gone", ["releases/dra-driver features[1]"])]


def test_feature_gate_table_with_its_columns_reordered_reads_the_same(tmp_path):
    lines = shared(GATES).splitlines(keepends=True)
    out = []
    for line in lines:
        cells = line.strip().strip("|").split("|")
        if line.startswith("| ") and len(cells) == 4:  # the gates table: Default before Stage
            cells = [cells[0], cells[2], cells[1], cells[3]]
            line = "|" + "|".join(cells) + "|\n"
        elif line.startswith("|---|---|---|---|"):
            pass
        out.append(line)
    code, item = diff_text("dra-driver-feature-gates", "".join(out), tmp_path, "fg.md")
    assert (code, item["changes"]) == (0, [])


# --- mig-parted layouts per device --------------------------------------------------------------------------------
RTX_6000 = ["rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell-server", "rtx-pro-6000-blackwell-workstation"]


def test_mig_parted_of_2025_08_05_has_the_rtx_pro_6000_in_a_shared_device_filter(tmp_path):
    # NVIDIA/mig-parted deployments/systemd/config-default.yaml at 9e0382f569 (2025-08-05): all-1g.24gb has a
    # GB200 HGX entry (7 ×) and an "H100 NVL 94GB, RTX PRO 6000 Blackwell" entry (4 ×): the card's entry is found
    # (cards added since, such as the GB300, are drift against this older file; the RTX PRO 6000 cards are not)
    code, item = diff_file("mig-parted-config-default", need_sources() / "mig-parted/config-default@2025-08-05.yaml")
    assert [c for c in item["changes"] if any(f"cards/{card} " in t for t in c["touches"] for card in RTX_6000)] == []


def test_mig_parted_mutation_layout_restricted_to_another_device_id(tmp_path):
    # the 2025-08-05 layout with the RTX PRO 6000's id dropped from its entry: the counts of the layout as a whole
    # ({7, 4}) still hold 4, which used to hide that the card lost the layout
    text = edit(shared("mig-parted/config-default@2025-08-05.yaml"),
                '    # H100 NVL 94GB, RTX PRO 6000 Blackwell\n    - device-filter: ["0x232110DE", "0x2BB510DE"]\n',
                '    # H100 NVL 94GB\n    - device-filter: ["0x232110DE"]\n')
    code, item = diff_text("mig-parted-config-default", text, tmp_path, "config-default.yaml")
    _, before = diff_file("mig-parted-config-default", need_sources() / "mig-parted/config-default@2025-08-05.yaml")
    already = [c["touches"] for c in before["changes"]]  # what the older file differs in anyway (newer cards)
    assert code == 1
    lost = [c for c in item["changes"] if c["kind"] == "layout-other-devices" and c["touches"] not in already]
    assert sorted(c["touches"][0].split(" ")[0] for c in lost) == [f"cards/{c}" for c in RTX_6000]
    assert lost[0]["text"]["en"] == ("mig-parted's layout all-1g.24gb now applies only to other GPUs (0x294110DE "
                                     "(GB200 HGX); 0x232110DE (H100 NVL 94GB)); card RTX PRO 6000 Max-Q lost it")
    assert all(c["rank"] == "fact" for c in lost)


def test_mig_parted_mutation_newest_layout_for_all_gpus_limited_to_one(tmp_path):
    # the newest all-1g.24gb applies to every GPU ("devices: all", no filter); limited to the H100 NVL's id
    text = edit(shared("mig-parted/config-default@2026-02-18.yaml"),
                '  all-1g.24gb:\n    - devices: all\n',
                '  all-1g.24gb:\n    # H100 NVL 94GB\n    - device-filter: ["0x232110DE"]\n      devices: all\n')
    code, item = diff_text("mig-parted-config-default", text, tmp_path, "config-default.yaml")
    assert code == 1
    assert {c["kind"] for c in item["changes"]} == {"layout-other-devices"}
    # every card with a 1g.24gb profile but the H100 NVL (whose id the filter keeps) loses the layout
    assert sorted(c["touches"][0].split(" ")[0] for c in item["changes"]) == [
        "cards/gh200", "cards/h20", *(f"cards/{c}" for c in RTX_6000)]


def test_mig_parted_mutation_another_count_for_the_card_only(tmp_path):
    text = edit(shared("mig-parted/config-default@2025-08-05.yaml"),
                '    # H100 NVL 94GB, RTX PRO 6000 Blackwell\n    - device-filter: ["0x232110DE", "0x2BB510DE"]\n'
                '      devices: all\n      mig-enabled: true\n      mig-devices:\n        "1g.24gb": 4\n',
                '    # H100 NVL 94GB, RTX PRO 6000 Blackwell\n    - device-filter: ["0x232110DE", "0x2BB510DE"]\n'
                '      devices: all\n      mig-enabled: true\n      mig-devices:\n        "1g.24gb": 7\n')
    code, item = diff_text("mig-parted-config-default", text, tmp_path, "config-default.yaml")
    assert code == 1
    counts = [c for c in item["changes"] if c["kind"] == "profile-count" and "1g.24gb" in c["text"]["en"]]
    # the cards of that entry's two ids, and no other (the GB300's count differs in this older file anyway)
    assert sorted(c["touches"][0].split(" ")[0] for c in counts) == [
        "cards/h100-nvl", *(f"cards/{c}" for c in RTX_6000)]
    assert {c["patch"][0]["value"] for c in counts} == {7}


# --- impact: every question that reads a fact ---------------------------------------------------------------------
L4_ROW = ("     | NVIDIA L4               | NVIDIA Ada                |       |\n"
          "     +-------------------------+---------------------------+-------+\n")


def test_platform_mutation_card_unlisted_names_the_answers_of_every_question_reading_it(tmp_path):
    code, item = diff_text("gpu-operator-platform-support", edit(shared(NEWEST_PLATFORM), L4_ROW, ""), tmp_path,
                           answers=True)
    assert code == 1
    (removed,) = [c for c in item["changes"] if c["kind"] == "product-removed"]
    assert removed["touches"] == ["platform-support products[14]", "cards/l4 operator_support.listed"]
    # every rule that reads the listing, whatever its question
    assert {r["rule"] for r in removed["read_by"]} >= {"METHODS-060", "MIG-007", "RES-025"}
    # and every answer that would change, for every question (not only the one rule of the old impact analysis)
    questions = {a["question"] for a in removed["answers"]}
    assert questions >= {"methods", "resource", "recommend"}
    methods = [a for a in removed["answers"] if a["question"] == "methods"]
    assert {(a["before"], a["after"], tuple(a["rules_added"])) for a in methods} == {("yes", "conditional", ("METHODS-060",))}


# --- the report ---------------------------------------------------------------------------------------------------
def test_fingerprint_is_the_set_of_findings():
    from kb.drift.check import SourceResult
    from kb.drift.compare import Change
    from kb.drift.report import fingerprint
    from kb.text import Text

    a = Change("s", "product-removed", Text("platform support no longer lists X", "…"), touches=["p[1]"])
    b = Change("s", "quote-gone", Text("quote “q” is gone", "…"), touches=["cards/x y"])
    one = [SourceResult("s", "platform-support", "https://a", "drift", changes=[a, b], seconds=1.0)]
    same = [SourceResult("s", "platform-support", "/tmp/b", "drift", changes=[b, a], seconds=9.0)]
    other = [SourceResult("s", "platform-support", "https://a", "drift", changes=[a])]
    part = [SourceResult("s", "platform-support", "https://a", "drift", changes=[a, b],
                         unchecked=[{"part": Text("KubeVirt vGPU device list", "…"), "error": "gone"}])]
    assert fingerprint(one) == fingerprint(same)
    assert len({fingerprint(one), fingerprint(other), fingerprint(part)}) == 3


def test_report_neutralises_terminal_escapes_and_mentions_from_upstream(tmp_path):
    # a product name as an attacker (or a careless edit) could write it upstream
    name = " L4 \x1b]0;x\x07@nvidia/gpu".ljust(25)
    assert len(name) == 25
    hostile = f"     |{name}| NVIDIA Ada                |       |\n"
    text = edit(shared(NEWEST_PLATFORM), L4_ROW, hostile +
                "     +-------------------------+---------------------------+-------+\n")
    folder = tmp_path / "cloud-native-docs"
    folder.mkdir()
    (folder / "platform-support@2026-08-21.rst").write_text(text, encoding="utf-8")
    report = tmp_path / "drift.md"
    result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(tmp_path), "--source",
                                      "gpu-operator-platform-support", "--report", str(report)])
    body = report.read_text(encoding="utf-8")
    assert result.exit_code in (1, 3)
    assert "\x1b" not in body and "\x07" not in body and "\x1b" not in result.output and "\x07" not in result.output
    assert result.exit_code == 1, result.output  # the page is read: the product is new and L4 is gone
    assert "@nvidia/gpu" not in body and "@\u200dnvidia/gpu" in body
    assert r"\\x1b\]0;x\\x07" in body  # visible escapes (Markdown-escaped: they render as \x1b]0;x\x07)


def test_report_limit_cuts_on_a_line_and_says_so(tmp_path):
    from kb.drift.report import cut

    text = "# Bericht\n" + "".join(f"- Zeile {i} mit „Umlauten“ äöü €\n" for i in range(400))
    out = cut(text, 1000, "de")
    assert len(out) <= 1000 and out.endswith("_\n")
    body, note = out.rsplit("\n_", 1)
    assert text.startswith(body) and body.endswith("€\n")  # whole lines, whole characters
    assert note.startswith("… hier gekürzt: Der Bericht hat ")


def test_report_limit_option_of_check(tmp_path):
    folder = tmp_path / "cloud-native-docs"
    folder.mkdir()
    (folder / "platform-support@2026-08-21.rst").write_text(edit(shared(NEWEST_PLATFORM), L4_ROW, ""), encoding="utf-8")
    report = tmp_path / "drift.md"
    result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(tmp_path), "--source",
                                      "gpu-operator-platform-support", "--report", str(report), "--report-limit", "1500"])
    assert result.exit_code == 1
    body = report.read_text(encoding="utf-8")
    assert len(body) <= 1500 and "… cut here: the report has " in body


def test_new_product_carries_a_card_draft(tmp_path):
    new_row = ("     | NVIDIA L4X              | NVIDIA Ada                |       |\n"
               "     +-------------------------+---------------------------+-------+\n")
    code, item = diff_text("gpu-operator-platform-support", edit(shared(NEWEST_PLATFORM), L4_ROW, L4_ROW + new_row),
                           tmp_path)
    assert code == 1
    (added,) = [c for c in item["changes"] if c["kind"] == "product-added"]
    draft = added["details"]["card_draft"]
    # written by the importer of `gpukb sources import` (kb.importer.card_draft): a whole card file
    assert draft["name"] == "NVIDIA L4X" and draft["architecture"]["value"] == "Ada"
    assert (draft["id"], draft["group"], draft["mig"]["status"]["value"]) == ("l4x", "data-center", "not-listed")
    assert draft["operator_support"]["listed"]["value"] is True
    assert draft["operator_support"]["listed"]["cite"][0]["quote"] == "NVIDIA L4X NVIDIA Ada"


# --- DRA driver releases: the Helm chart ------------------------------------------------------------------------
CHART = "dra-driver-nvidia-gpu/Chart@2026-05-12.yaml"


def test_chart_on_main_is_a_dev_version_and_is_watched_at_the_newest_tag():
    # kubernetes-sigs/dra-driver-nvidia-gpu Chart.yaml at b53361950e (2026-05-12) on main says 0.5.0-dev: a
    # version bump on main, not a release; the chart is watched at the newest release tag instead
    from kb.catalog.compiled import load_data
    from kb.drift.extractors import get

    chart = get("helm-chart").extract(shared(CHART))
    assert (chart["version"], chart["prerelease"], chart["min_kubernetes"]) == ("0.5.0-dev", True, "1.32.0")
    watch = load_data()["sources"]["dra-driver-chart"]["watch"]
    assert watch["tag"] == "kubernetes-sigs/dra-driver-nvidia-gpu" and "/{tag}/" in watch["url"]


@pytest.mark.parametrize("version,code,kind,rank", [
    ("0.6.0", 1, "release-newer", "fact"),
    ("0.6.0-rc.1", 0, "prerelease", "note"),
])
def test_chart_mutation_a_new_dra_driver_release(tmp_path, version, code, kind, rank):
    text = edit(shared(CHART), 'version: "0.5.0-dev"', f'version: "{version}"')
    got, item = diff_text("dra-driver-chart", text, tmp_path, "Chart.yaml")
    assert got == code
    assert kinds(item) == [(kind, rank)]
    assert item["changes"][0]["touches"] == ["releases/dra-driver releases"]


def test_chart_mutation_a_higher_kubernetes_minimum(tmp_path):
    text = edit(shared(CHART), 'kubeVersion: ">=1.32.0-0"', 'kubeVersion: ">=1.34.0-0"')
    code, item = diff_text("dra-driver-chart", text, tmp_path, "Chart.yaml")
    assert code == 1
    changed = [c for c in item["changes"] if c["kind"] == "requirement-changed"]
    assert [c["text"]["en"] for c in changed] == [
        "the document now requires Kubernetes 1.34.0 or later for Dynamic Resource Allocation (DRA driver), installed on its "
        "own (our data: 1.32)"]
    assert changed[0]["touches"] == ["methods/dra standalone_requirements.min_kubernetes.disputed_by[0]"]


def test_dra_prerequisites_mutation_reaches_the_standalone_requirements(tmp_path):
    # the prerequisites page backs the standalone driver's requirements (methods/dra standalone_requirements)
    text = edit(shared("dra-driver-nvidia-gpu/prerequisites@2026-07-16.md"),
                "v1.34.2 or later, with at least one node", "v1.35.0 or later, with at least one node")
    code, item = diff_text("dra-driver-prerequisites", text, tmp_path, "prerequisites.md", answers=True)
    assert code == 1
    (change,) = [c for c in item["changes"] if c["kind"] == "requirement-changed"]
    assert change["patch"] == [{"entity": "methods/dra", "path": ["standalone_requirements", "min_kubernetes", "value"],
                                "value": "1.35.0"}]
    assert {a["question"] for a in change["answers"]} == {"dra"}


#: a matrix in the 2023 layout (one row per release, one column per component), written for this test in the
#: shape of NVIDIA/cloud-native-docs gpu-operator/life-cycle-policy.rst at 29e5f143f9 (2023-11-28)
MATRIX_2023 = """GPU Operator Component Matrix
*****************************

  .. list-table::
      :header-rows: 1

      * - Release
        - | NVIDIA
          | GPU
          | Driver
        - | NVIDIA Kubernetes
          | Device Plugin
        - | NVIDIA MIG Manager
          | for Kubernetes

      * - v23.9.0
        - | `535.129.03 <https://example.invalid/535-129-03>`_ (recommended),
          | `535.104.12 <https://example.invalid/535-104-12>`_ (default)
        - `0.14.2 <https://github.com/NVIDIA/k8s-device-plugin/releases>`_
        - `0.5.5 <https://github.com/NVIDIA/mig-parted>`_
"""


def test_matrix_in_the_2023_layout_is_read_without_the_mirror():
    from kb.drift.extractors import get

    out = get("component-matrix").extract(MATRIX_2023)
    assert out["releases"] == ["23.9.0"] and out["release"] == "23.9.0"
    versions = {c["component"]: c["version"] for c in out["components"] if c["component"]}
    assert versions == {"driver": "535.104.12", "device-plugin": "0.14.2", "mig-manager": "0.5.5"}


def test_matrix_of_2023_with_one_row_per_release():
    # NVIDIA/cloud-native-docs gpu-operator/life-cycle-policy.rst at 29e5f143f9 (2023-11-28): "Release | NVIDIA GPU
    # Driver | …", one row per release — 17 versions of 2023 exited 3 ("the matrix header names no release")
    from kb.drift.extractors import get

    out = get("component-matrix").extract(upstream("NVIDIA/cloud-native-docs", "29e5f143f9c5ba452d813a29143a2c5a0b32648b",
                                                   "gpu-operator/life-cycle-policy.rst"))
    assert out["releases"] == ["23.9.0", "23.6.1", "23.6.0"] and out["release"] == "23.9.0"
    versions = {c["component"]: c["version"] for c in out["components"] if c["component"]}
    assert versions == {"driver": "535.104.12", "container-toolkit": "1.14.3", "device-plugin": "0.14.2",
                        "dcgm-exporter": "3.2.6-3.1.9", "node-feature-discovery": "0.14.2",
                        "gpu-feature-discovery": "0.8.2", "mig-manager": "0.5.5"}
