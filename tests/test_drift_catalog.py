"""The real catalog against the real snapshots: consistent with the newest, and real history is drift."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli


@pytest.fixture(autouse=True)
def _repository_catalog(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)


def diff(source: str, rel: str) -> tuple[int, dict]:
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
    assert texts(item)[0] == ("gpu-operator-release-notes does not list NVIDIA GPU Operator 26.7.0, which the "
                              "catalog has (newest there: 26.3.3)")


def test_mig_doc_before_v26_3_0_lacks_the_generated_mig_configuration():
    code, item = diff("gpu-operator-mig", "cloud-native-docs/gpu-operator-mig@2025-11-12.rst")
    assert code == 1
    assert {c["kind"] for c in item["changes"]} == {"quote-gone"}
    assert any(c["details"]["quote"].startswith("Introduced in GPU Operator v26.3.0, MIG Manager generates")
               for c in item["changes"])


def test_mig_parted_config_before_the_rtx_pro_6000_profiles():
    code, item = diff("mig-parted-config-default", "mig-parted/config-default@2025-03-19.yaml")
    assert code == 1
    assert "mig-parted's default config no longer has profile 1g.24gb+gfx (card RTX PRO 6000 Server Edition)" in texts(item)
