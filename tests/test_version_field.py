"""The catalog's Version field: NVIDIA's versions as written, a driver branch ("580") included."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pydantic import TypeAdapter, ValidationError

from conftest import FIXTURES
from kb.catalog.compiled import load_data
from kb.cli.main import cli
from kb.models.common import Version

VERSION = TypeAdapter(Version)


@pytest.mark.parametrize("text", ["580", "565", "26.7.0", "0.20.0", "575.57.08", "1.34", "1.2.3.4"])
def test_versions_as_nvidia_writes_them_are_accepted(text):
    assert VERSION.validate_python(text) == text


@pytest.mark.parametrize("value", ["v580", "V26.7.0", "580.", ".580", "580.x", "r580", "1.2.3.4.5", "", " 580",
                                   "580 ", "26.7.0-1", 580, 26.7])
def test_prefixes_numbers_and_junk_are_rejected(value):
    with pytest.raises(ValidationError):
        VERSION.validate_python(value, strict=True)


def test_dra_minimum_driver_is_stored_as_the_sources_write_it():
    req = load_data()["methods"]["dra"]["requirements"]["min_driver"]
    assert (req["value"], [c["value"] for c in req["disputed_by"]]) == ("580", ["565"])


@pytest.mark.parametrize("driver, fires", [("575.57.08", True), ("579.99.99", True), ("580.82.07", False),
                                           ("580.0", False), ("595.45.04", False)])
def test_a_driver_branch_compares_as_a_number(monkeypatch, driver, fires):
    """CHK-053 (GPUCluster with a driver below the DRA minimum) reads "580" as 580 < 580.82.07."""
    monkeypatch.chdir(FIXTURES.parent / "rules" / "check")
    result = CliRunner().invoke(cli, ["check", "CHK-053/fires.yaml", "--json", "--driver", driver,
                                      "--k8s", "1.34.2", "--operator", "26.7.0"])
    found = [f for f in json.loads(result.output)["findings"] if f["rule"] == "CHK-053"]
    assert bool(found) is fires, result.output
    if fires:
        assert f"needs NVIDIA driver 580 or later; the driver here is {driver}." in found[0]["message"]
