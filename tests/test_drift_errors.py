"""Internal errors are not drift: a bug of gpukb on one document is that source's status "error" (exit 4), the
other sources are still checked and reported, and nothing is counted as changed or unchanged for it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli
from test_drift_history import without_answers


def test_a_crashing_extractor_is_exit_4_for_that_source_only(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)

    def broken(text):
        raise KeyError("column")

    monkeypatch.setattr("kb.drift.extractors.component_matrix.extract", broken)
    result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(need_sources()), "--json",
                                      "--source", "gpu-operator-component-matrix", "--source", "device-plugin-readme"])
    data = json.loads(result.stdout)
    assert result.exit_code == 4 and data["exit_code"] == 4
    by_id = {s["source"]: s for s in data["sources"]}
    assert by_id["device-plugin-readme"]["status"] == "ok"
    broken_one = by_id["gpu-operator-component-matrix"]
    assert broken_one["status"] == "error" and broken_one["changes"] == []
    assert broken_one["error"].startswith("internal error of gpukb while reading ")
    assert "KeyError: 'column'" in broken_one["error"]
    assert data["summary"]["error"] == 1 and data["summary"]["drift"] == 0


def test_the_text_output_names_the_internal_error(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.setattr("kb.drift.comparisons.readme.compare", lambda *a: 1 / 0)
    result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(need_sources()),
                                      "--source", "device-plugin-readme"])
    assert result.exit_code == 4
    assert "internal error of gpukb while comparing" in result.output
    assert "1 internal errors (exit 4)" in result.output


def test_one_broken_mig_parted_layout_fails_on_its_own(tmp_path, monkeypatch):
    # NVIDIA/mig-parted config-default.yaml at 7aa03c4162 (2023-03-07) wrote all-1g.10gb as a mapping, not a list
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    text = (need_sources() / "mig-parted/config-default@2026-02-18.yaml").read_text(encoding="utf-8")
    old = '  all-1g.18gb:\n    - devices: all\n      mig-enabled: true\n      mig-devices:\n        "1g.18gb": 7\n'
    assert text.count(old) == 1
    broken = text.replace(old, '  all-1g.18gb:\n      devices: all\n      mig-enabled: true\n      mig-devices:\n'
                                '        "1g.18gb": 7\n')
    path = tmp_path / "config-default.yaml"
    path.write_text(broken, encoding="utf-8")
    result = CliRunner().invoke(cli, ["sources", "diff", "mig-parted-config-default", str(path), "--json"])
    item = json.loads(result.stdout)["sources"][0]
    assert result.exit_code == 3
    assert item["unchecked"] == [{"part": "mig-configs.all-1g.18gb", "error": "expected a list of entries"}]
    assert item["status"] != "unparseable"  # every other layout was compared


def test_an_unrelated_page_for_a_quotes_only_source_is_unparseable_not_drift(tmp_path, monkeypatch):
    # e.g. the CDI page served where the overview page should be: every quote "gone" would be a false alarm
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    other = (need_sources() / "cloud-native-docs/cdi@2026-08-21.rst").read_text(encoding="utf-8")
    path = tmp_path / "gpu-sharing.rst"
    path.write_text(other, encoding="utf-8")
    result = CliRunner().invoke(cli, ["sources", "diff", "gpu-operator-gpu-sharing", str(path), "--json"])
    item = json.loads(result.stdout)["sources"][0]
    assert (result.exit_code, item["status"], item["changes"]) == (3, "unparseable", [])
    assert "none of the quotes our data take from this document occurs in it" in item["error"]


def test_a_quotes_only_page_keeping_one_quote_is_still_drift(tmp_path, monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    other = (need_sources() / "cloud-native-docs/cdi@2026-08-21.rst").read_text(encoding="utf-8")
    kept = "DCGM-Exporter does not support associating metrics to containers when GPU time-slicing is enabled with " \
           "the NVIDIA Kubernetes Device Plugin."
    path = tmp_path / "gpu-sharing.rst"
    path.write_text(other + "\n" + kept + "\n", encoding="utf-8")
    with without_answers():  # every quote but one gone: the answers citing them are not what this test reads
        result = CliRunner().invoke(cli, ["sources", "diff", "gpu-operator-gpu-sharing", str(path), "--json"])
    item = json.loads(result.stdout)["sources"][0]
    assert (result.exit_code, item["status"]) == (1, "drift")
