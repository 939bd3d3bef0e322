"""`gpukb sources import`: card drafts with citations from the platform-support page and MIG profiles per PCI device
id from mig-parted's config, read by the drift extractors from the real snapshots."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO
from kb.cli.main import cli

SOURCES = REPO.parent / "shared" / "sources"
PLATFORM = SOURCES / "cloud-native-docs" / "platform-support@2026-08-21.rst"
OLD_PLATFORM = SOURCES / "cloud-native-docs" / "platform-support@2025-10-27.rst"
MIG_PARTED = SOURCES / "mig-parted" / "config-default@2026-02-18.yaml"
needs_sources = pytest.mark.skipif(not PLATFORM.is_file(), reason="../shared/sources (NVIDIA snapshots) not present")


def run(*args):
    return CliRunner().invoke(cli, ["sources", "import", *map(str, args)])


@needs_sources
def test_the_newest_list_has_nothing_left_to_draft():
    result = run("gpu-operator-platform-support", PLATFORM, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["drafts"] == []
    text = run("gpu-operator-platform-support", PLATFORM)
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[-1] == "# nothing to draft: the catalog knows every product of the document"


@needs_sources
def test_a_new_product_is_drafted_as_a_card_citing_its_row(tmp_path):
    row = ("     | NVIDIA L4               | NVIDIA Ada                |       |\n"
           "     +-------------------------+---------------------------+-------+\n")
    text = PLATFORM.read_text(encoding="utf-8")
    assert row in text
    page = tmp_path / "platform-support.rst"
    page.write_text(text.replace(row, row + "     | NVIDIA L99              | NVIDIA Ada                |       |\n"
                                 "     +-------------------------+---------------------------+-------+\n", 1),
                    encoding="utf-8")
    result = run("gpu-operator-platform-support", page)
    assert result.exit_code == 0, result.output
    assert "--- # new card catalog/cards/l99.yaml" in result.output
    card = yaml.safe_load(result.output.split("--- # new card catalog/cards/l99.yaml\n", 1)[1].split("\n--- ", 1)[0])
    assert (card["id"], card["group"], card["architecture"]["value"]) == ("l99", "data-center", "Ada")
    assert card["operator_support"]["listed"]["cite"][0]["quote"].startswith("NVIDIA L99")
    assert card["mig"]["status"]["value"] == "not-listed" and card["vendor"]["ships"]["value"] is False


@needs_sources
def test_an_older_snapshot_pins_its_quotes_and_names_no_known_card():
    data = json.loads(run("gpu-operator-platform-support", OLD_PLATFORM, "--json").stdout)
    assert data["drafts"] == []  # every product of 2025-10-27 is a card or a system of one today


@pytest.mark.skipif(not MIG_PARTED.is_file(), reason="../shared/sources (mig-parted config) not present")
def test_mig_profiles_per_device_id_agree_with_the_cards():
    data = json.loads(run("mig-parted-config-default", MIG_PARTED, "--card", "a100-sxm4-40gb", "--card", "a30",
                          "--json").stdout)
    drafts = {d["id"]: d["mig"] for d in data["drafts"]}
    assert set(drafts) == {"a100-sxm4-40gb", "a30"}
    from kb.catalog.compiled import load_data

    cards = load_data(REPO / "catalog")["cards"]
    for cid, mig in drafts.items():
        ours = [(p["name"], p["max_count"]) for p in cards[cid]["mig"]["profiles"]]
        assert [(p["name"], p["max_count"]) for p in mig["profiles"]] == ours
        assert all(p["cite"][0]["quote"] == f'"{p["name"]}": {p["max_count"]}' for p in mig["profiles"])


def test_a_source_no_importer_reads_exits_2(tmp_path):
    page = tmp_path / "x.md"
    page.write_text("# nothing\n", encoding="utf-8")
    result = run("device-plugin-readme", page)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: no importer reads 'device-plugin-readme'")
    result = run("nvidia-nothing", page)
    assert result.exit_code == 2 and "unknown source 'nvidia-nothing'" in result.output
