"""Real history of the watched documents as regression tests, and one-edit mutations of the newest files.

Each test names the upstream repository, path and commit it reproduces. Versions equal to a file in
../shared/sources are read from there; other versions are excerpts in tests/fixtures/drift/history/ (listed
in its MANIFEST.tsv with repository, path, commit and the lines kept). A mutation is one edit of the newest
snapshot, written out in the test. The findings were measured by replaying every version of every watched
file (`python -m kb.drift.replay /work/.mirror`, see docs-dev/drift.md).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli

HISTORY = Path(__file__).parent / "fixtures" / "drift" / "history"
MIRROR = Path("/work/.mirror")


@pytest.fixture(autouse=True)
def _repository_catalog(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)


def diff_text(source: str, text: str, tmp_path: Path, name: str = "doc.txt") -> tuple[int, dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return diff_file(source, path)


def diff_file(source: str, path: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["sources", "diff", source, str(path), "--json"])
    return result.exit_code, json.loads(result.stdout)["sources"][0]


def shared(rel: str) -> str:
    return (need_sources() / rel).read_text(encoding="utf-8")


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"the edit must hit exactly one place: {old!r}"
    return text.replace(old, new)


def kinds(item: dict) -> list[tuple[str, str]]:
    return [(c["kind"], c["rank"]) for c in item["changes"]]


# --- the fixtures are what upstream had -----------------------------------------------------------------------
def manifest() -> list[dict]:
    rows = []
    for line in (HISTORY / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            file, repo, path, commit, date, lines, why = line.split("\t")
            rows.append({"file": file, "repo": repo, "path": path, "commit": commit, "lines": lines})
    return rows


def test_every_history_fixture_is_listed_in_the_manifest():
    listed = {r["file"] for r in manifest()}
    assert listed == {p.name for p in HISTORY.iterdir() if p.name != "MANIFEST.tsv"}


@pytest.mark.parametrize("row", manifest(), ids=lambda r: r["file"])
def test_history_fixture_is_an_excerpt_of_the_upstream_commit(row):
    repo = MIRROR / row["repo"].replace("/", "+") / "repo"
    if not repo.is_dir():
        pytest.skip(f"no mirror of {row['repo']} at {repo} (fetch it to verify the fixture)")
    upstream = subprocess.run(["git", "-C", str(repo), "show", f"{row['commit']}:{row['path']}"],
                              capture_output=True, text=True, check=True).stdout.splitlines()
    first, last = (int(x) for x in row["lines"].split("-"))
    assert (HISTORY / row["file"]).read_text(encoding="utf-8").splitlines() == upstream[first - 1:last]


# --- component matrix ------------------------------------------------------------------------------------------
def test_matrix_with_several_patch_releases_is_read_column_by_column():
    # NVIDIA/cloud-native-docs gpu-operator/life-cycle-policy.rst at 815c4afbce (2026-06-25): v26.3.0–v26.3.3
    # share the header; from December 2025 to August 2026 every version of the file looked like this and
    # the check exited 3 ("expected one GPU Operator release") for months.
    code, item = diff_file("gpu-operator-component-matrix", HISTORY / "life-cycle-policy@815c4afbce.rst")
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
        "the component matrix describes GPU Operator 26.7.1, newer than the catalog's newest (26.7.0)"]


def test_matrix_mutation_another_default_driver_in_one_column(tmp_path):
    text = edit(shared(NEWEST_MATRIX), "595-91-07/index.html>`_ (**R**, **D**)", "595-91-07/index.html>`_ (**R**)")
    text = edit(text, "580-173-02/index.html>`_\n", "580-173-02/index.html>`_ (**D**)\n")
    code, item = diff_text("gpu-operator-component-matrix", text, tmp_path)
    assert code == 1
    changed = [c for c in item["changes"] if c["kind"] == "component-changed"]
    assert [c["text"]["en"] for c in changed] == [
        "the component matrix gives driver 580.173.02 for 26.7.0 (catalog: 595.91.07)"]
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
