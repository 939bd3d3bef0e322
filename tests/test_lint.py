"""`gpukb lint` on a clean fixture catalog and on one broken catalog per kind of breakage."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from kb.cli.main import cli

GOOD = FIXTURES / "lint" / "good"
BROKEN = FIXTURES / "lint" / "broken"
SHARED = FIXTURES / "lint" / "shared"

#: breakage → (exit code, exact problems as "file:line: path: message [kind]")
EXPECTED = {
    "yaml-syntax": (2, ["lt/cards/beta-10.yaml:3: not valid YAML: expected ',' or ']', but got '<stream end>' [yaml]"]),
    "duplicate-key": (1, [
        "lt/cards/beta-10.yaml:11: memory_gb: duplicate key 'memory_gb' (first at line 9); YAML would silently keep only the last [duplicate]",
        "lt/cards/beta-10.yaml:9: memory_gb.cite: Field required [schema]"]),
    "unquoted-version": (1, [
        'lt/cards/alpha-100.yaml:39: operator_support.since: Input should be a valid string — YAML read 26.10 as the number 26.1: write "26.10" in quotes [schema]']),
    "missing-citation": (1, [
        "lt/cards/beta-10.yaml:11: memory_gb.cite: List should have at least 1 item after validation, not 0 [schema]"]),
    "unknown-field": (1, ["lt/cards/beta-10.yaml:5: alias: unknown field; did you mean 'aliases'? [schema]"]),
    "unknown-source": (1, [
        "lt/cards/beta-10.yaml:11: memory_gb.cite[0].source: unknown source 'demo-datashet'; did you mean 'demo-datasheet'? [sources]"]),
    "shared-alias": (1, [
        "lt/cards/alpha-100.yaml:5: aliases: name 'Alpha 100' also names beta-10 [aliases]",
        "lt/cards/beta-10.yaml:5: aliases: name 'nvidia alpha-100' also names alpha-100 [aliases]"]),
    "release-order": (1, [
        "lt/releases/gpu-operator.yaml:9: releases[1].version: releases must be newest first: 26.2.0 after 26.1.0 [versions]"]),
    "future-date": (1, ["lt/sources.yaml:12: sources[0].retrieved: 2099-01-02 is in the future [versions]"]),
    "quote-missing": (1, [
        "lt/cards/alpha-100.yaml:42: operator_support.min_driver.cite[0].quote: quote not found in support@2026-01-01.rst: "
        "'Driver versions 580 or later is required.' [quotes]"]),
    "pinned-snapshot-missing": (1, [
        "lt/cards/beta-10.yaml:27: operator_support.listed.cite[0].snapshot: no snapshot of 2024-06-01 for source "
        "'demo-support' (sources/demo/support; have: 2025-06-01, 2026-01-01) [quotes]"]),
}


def run_lint(catalog, *args, shared=SHARED):
    env = {"GPUKB_SHARED": str(shared)}
    return CliRunner().invoke(cli, ["lint", "--catalog", str(catalog), *args], env=env)


def test_every_breakage_has_a_fixture():
    assert sorted(p.name for p in BROKEN.iterdir()) == sorted(EXPECTED)


def test_clean_catalog_passes():
    result = run_lint(GOOD)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "catalog is clean"
    assert "quotes: passed" in result.output


def test_clean_catalog_json():
    data = json.loads(run_lint(GOOD, "--json").output)
    assert data["problems"] == []
    assert data["checks"] == {"schema": "passed", "sources": "passed", "aliases": "passed",
                              "versions": "passed", "quotes": "passed"}


def test_quotes_skipped_not_passed_without_snapshots(tmp_path):
    data = json.loads(run_lint(GOOD, "--json", shared=tmp_path / "absent").output)
    assert data["checks"]["quotes"].startswith("skipped: ")
    assert data["exit_code"] == 0


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_broken_catalog(kind, tmp_path):
    catalog = tmp_path / "lt"
    shutil.copytree(GOOD, catalog)
    shutil.copytree(BROKEN / kind, catalog, dirs_exist_ok=True)
    result = run_lint(catalog)
    code, problems = EXPECTED[kind]
    assert result.exit_code == code
    assert "Traceback" not in result.output
    found = [line for line in result.output.splitlines() if line.endswith("]")]
    assert found == problems
    data = json.loads(run_lint(catalog, "--json").output)
    assert data["exit_code"] == code and len(data["problems"]) == len(problems)


def test_all_problems_reported_at_once(tmp_path):
    catalog = tmp_path / "lt"
    shutil.copytree(GOOD, catalog)
    for kind in ("unquoted-version", "missing-citation"):
        shutil.copytree(BROKEN / kind, catalog, dirs_exist_ok=True)
    data = json.loads(run_lint(catalog, "--json").output)
    assert sorted(p["file"] for p in data["problems"]) == ["lt/cards/alpha-100.yaml", "lt/cards/beta-10.yaml"]


def test_missing_catalog_is_unusable(tmp_path):
    result = run_lint(tmp_path / "nothing")
    assert result.exit_code == 2
    assert "catalog folder not found" in result.output


def test_german_summary(tmp_path):
    catalog = tmp_path / "lt"
    shutil.copytree(GOOD, catalog)
    shutil.copytree(BROKEN / "quote-missing", catalog, dirs_exist_ok=True)
    assert run_lint(catalog, "--lang", "de").output.splitlines()[-1] == "1 Problem(e)"
