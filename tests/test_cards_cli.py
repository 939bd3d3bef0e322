"""`gpukb cards` and `gpukb card`: exact output on the lint fixture catalog, name errors exit 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from kb.cli.main import cli


@pytest.fixture
def run(monkeypatch):
    monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "lint" / "good"))
    return lambda *args: CliRunner().invoke(cli, list(args))


@pytest.fixture
def run_engine_catalog(monkeypatch):
    """`gpukb cards` asks the engine: it needs a catalog the rule base can cite (the engine's fixture)."""
    monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "catalog"))
    return lambda *args: CliRunner().invoke(cli, list(args))


def test_cards_table_en(run_engine_catalog):
    result = run_engine_catalog("cards")
    assert result.exit_code == 0
    assert result.output == (
        "Card                         MIG          MIG status                Instances  GPU Operator list     We ship\n"
        "---------------------------  -----------  ------------------------  ---------  --------------------  -------\n"
        "\n"
        "Data center (2)\n"
        "H200 NVL                     yes          on NVIDIA's MIG list      7          listed                yes\n"
        "L4                           no           not on NVIDIA's MIG list  –          listed                yes\n"
        "\n"
        "RTX PRO Blackwell (6)\n"
        "RTX PRO 4500                 unconfirmed  on NVIDIA's MIG list      2          no entry found        yes\n"
        "RTX PRO 4500 Server Edition  no           not on NVIDIA's MIG list  –          listed                yes\n"
        "RTX PRO 5000 72GB            unconfirmed  only in a datasheet       2          no entry found        yes\n"
        "RTX PRO 5500                 unconfirmed  announced                 2          no entry found        yes\n"
        "RTX PRO 6000 Server Edition  conditional  on NVIDIA's MIG list      4          listed (≥ 575.57.08)  yes\n"
        "RTX PRO 6000 Workstation     conditional  on NVIDIA's MIG list      4          no entry found        yes\n"
        "8 cards. MIG: verdict for GPU Operator 26.7.0, no driver given (gpukb ask mig CARD). Data version 2026.11.1-fixture\n")


def test_cards_filters(run_engine_catalog):
    """--mig drops cards not on any MIG document, --listed cards off the operator's list, --family by architecture;
    the JSON rows keep their shape."""
    ids = lambda *a: [r["id"] for r in json.loads(run_engine_catalog("cards", "--json", *a).output)["cards"]]  # noqa: E731
    assert ids("--listed") == ["h200-nvl", "l4", "rtx-pro-4500-blackwell-server", "rtx-pro-6000-blackwell-server"]
    assert "l4" not in ids("--mig") and "rtx-pro-5500-blackwell" in ids("--mig")
    assert ids("--mig", "--listed") == ["h200-nvl", "rtx-pro-6000-blackwell-server"]
    assert ids("--family", "ada lovelace") == ["l4"]
    result = run_engine_catalog("cards", "--family", "Kepler")
    assert result.exit_code == 2
    assert result.output.startswith("Error: no card of the family 'Kepler'; known: Ada Lovelace, ")
    one = run_engine_catalog("cards", "--family", "Ada Lovelace", "--lang", "de").output.splitlines()
    assert one[2:4] == ["", "Rechenzentrum (1)"]
    assert one[-1].startswith("1 Karte. MIG: Urteil")


def test_cards_mig_column_is_the_engines_verdict(run_engine_catalog):
    """The catalog lists the RTX PRO 4500 in the MIG guide, but the engine says unconfirmed: the table follows the engine."""
    from kb.questions import answer

    rows = {r["id"]: r for r in json.loads(run_engine_catalog("cards", "--json").output)["cards"]}
    for cid, row in rows.items():
        assert row["mig_verdict"] == answer("mig", card=cid)["verdict"]
    assert rows["rtx-pro-4500-blackwell"]["mig_status"] == "documented"
    assert rows["rtx-pro-4500-blackwell"]["mig_verdict"] == "unconfirmed"


def test_cards_table_de(run_engine_catalog):
    lines = run_engine_catalog("cards", "--lang", "de").output.splitlines()
    assert lines[0].split() == ["Karte", "MIG", "MIG-Status", "Instanzen", "Supportliste", "GPU", "Operator", "Von", "uns", "geliefert"]
    assert lines[8] == ("RTX PRO 4500                 unbestätigt  auf NVIDIAs MIG-Liste        2          "
                        "kein Eintrag gefunden      ja")
    assert lines[-1] == ("8 Karten. MIG: Urteil für GPU Operator 26.7.0, ohne Treiberangabe (gpukb ask mig KARTE). "
                         "Datenversion 2026.11.1-fixture")


def test_cards_json(run_engine_catalog):
    data = json.loads(run_engine_catalog("cards", "--json").output)
    assert data["data_version"] == "2026.11.1-fixture"
    assert data["cards"][0] == {
        "id": "h200-nvl", "name": "NVIDIA H200 NVL", "short_name": "H200 NVL", "mig_verdict": "yes",
        "mig_operator": "26.7.0", "mig_status": "documented", "mig_max_instances": 7, "operator_listed": True,
        "operator_min_driver": None, "vendor_ships": True}


def test_card_text_de(run):
    result = run("card", "nvidia-beta-10", "--lang", "de")
    assert result.exit_code == 0
    assert result.output == """NVIDIA Beta 10
==============
Auch: NVIDIA-Beta-10

Architektur: Demo [1]
Speicher (GB): 24 [2]
Bauform: PCIe, Server [3]
Verfügbarkeit: erhältlich [4]
MIG-Status: nicht auf NVIDIAs MIG-Liste [5]
Supportliste des GPU Operators: kein Eintrag gefunden [6]
    2026 von der Liste gestrichen.
Wir liefern sie: nein [7]

Quellen:
[1] Demo datasheet: „Demo“ https://example.invalid/datasheet
[2] Demo datasheet: „24 GB“ https://example.invalid/datasheet
[3] Demo datasheet: „passive“ https://example.invalid/datasheet
[4] Demo datasheet: „available“ https://example.invalid/datasheet
[5] Demo datasheet: „no MIG“ https://example.invalid/datasheet
[6] Demo support list: „NVIDIA Beta 10 was listed here.“ (Stand 1. Juni 2025) https://example.invalid/support
[7] Demo datasheet: „not shipped“ https://example.invalid/datasheet
Datenversion 2026.01.02
"""


def test_card_json_carries_citations(run):
    data = json.loads(run("card", "Alpha 100", "--json").output)
    assert data["id"] == "alpha-100" and data["file"] == "catalog/cards/alpha-100.yaml"
    facts = {f["path"]: f for f in data["facts"]}
    assert facts["operator_support.min_driver"]["value"] == "575.57.08"
    assert facts["operator_support.min_driver"]["citations"] == [{
        "source": "demo-support", "title": "Demo support list", "url": "https://example.invalid/support",
        "quote": "Driver versions 575.57.08 or later is required."}]
    assert facts["mig.profiles[0]"]["value"] == {"name": "1g.24gb", "memory_gb": 24, "max_count": 4}
    assert facts["operator_support.listed"]["citations"][0]["section"] == "Supported GPUs"


def test_same_answer_from_cache(run):
    first = run("card", "alpha", "--json").output
    assert run("card", "alpha", "--json").output == first


def test_unknown_card_exits_2_with_suggestion(run):
    result = run("card", "Alpha 10O")
    assert result.exit_code == 2
    assert result.output == "Error: unknown card 'Alpha 10O' — did you mean: Alpha 100 (list all: gpukb cards)\n"


def test_unknown_card_german(run):
    result = run("card", "Gamma", "--lang", "de")
    assert result.exit_code == 2
    assert result.output == "Fehler: unbekannte Karte „Gamma“ (alle anzeigen: gpukb cards)\n"


@pytest.mark.parametrize("command", [["cards"], ["card", "H200 NVL"]])
def test_broken_catalog_is_a_clear_error(monkeypatch, tmp_path, command):
    (tmp_path / "sources.yaml").write_text("data_version: [\n")
    monkeypatch.setenv("GPUKB_CATALOG", str(tmp_path))
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.output.startswith("Error: the catalog is not usable (run 'gpukb lint'):\n  ")
    assert "/sources.yaml:2: not valid YAML" in result.output


@pytest.mark.parametrize("name,error", [
    ("Alpha 10O", "unknown card 'Alpha 10O' — did you mean: Alpha 100 (list all: gpukb cards)"),
    ("", "the card name is empty (list all: gpukb cards)"),
])
def test_card_json_error_is_json_on_stdout(run, name, error):
    result = run("card", name, "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": error, "kind": "unusable-input", "exit_code": 2, "lang": "en",
                                         "details": {"suggestions": ["alpha-100"], "command": "card"} if name else {"command": "card"}}


@pytest.mark.parametrize("args", [["cards", "--json"], ["card", "L4", "--json"]])
def test_unusable_catalog_with_json_is_json_on_stdout(monkeypatch, tmp_path, args):
    monkeypatch.setenv("GPUKB_CATALOG", str(tmp_path / "none"))
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "error": "the catalog is not usable (run 'gpukb lint')", "kind": "catalog-invalid", "exit_code": 2,
        "lang": "en", "details": {"command": args[0], "problems": [
            {"file": str(tmp_path / "none"), "line": None, "path": "", "kind": "io", "message": "catalog folder not found"}]}}
