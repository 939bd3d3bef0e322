"""A node's MIG findings come from the `ask mig` answer: one change of a MIG rule changes both outputs."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.facts.nodes import MET_BY_NODE
from kb.check.run import check
from kb.cli.main import cli
from conftest import REPO

L40S_MIG = ("apiVersion: v1\nkind: Node\nmetadata:\n  name: l40s-node\n  labels:\n"
            "    nvidia.com/gpu.product: NVIDIA-L40S\n    nvidia.com/mig.config: all-1g.12gb\n")


def both_outputs(tmp_path):
    """`gpukb ask mig L40S --json` and `gpukb check` of an L40S node with a MIG layout, through the CLI."""
    node = tmp_path / "node.yaml"
    node.write_text(L40S_MIG, encoding="utf-8")
    ask = json.loads(CliRunner().invoke(cli, ["ask", "mig", "L40S", "--json"]).output)
    found = json.loads(CliRunner().invoke(cli, ["check", str(node), "--json"]).output)["findings"]
    return ask, [(f["rule"], f["severity"], f["message"]) for f in found]


def test_changing_a_mig_rule_changes_ask_and_check_alike(tmp_path, monkeypatch):
    ask, found = both_outputs(tmp_path)
    assert (ask["verdict"], [r["rule"] for r in ask["reasons"]]) == ("no", ["MIG-002"])
    assert found == [("CHK-033", "error", "Node l40s-node uses MIG on its L40S GPUs, but MIG does not work on this card "
                                          "with GPU Operator 26.7.0: L40S is not on NVIDIA's list of MIG-capable GPUs.")]
    # one change in one MIG rule: the not-listed verdict becomes "unconfirmed", with another text
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    rule = rules / "mig" / "MIG-002-not-listed.yaml"
    rule.write_text(rule.read_text(encoding="utf-8").replace('verdict: "no"', "verdict: unconfirmed").replace(
        "{name} is not on NVIDIA's list of MIG-capable GPUs.", "{name} is missing from NVIDIA's MIG list."),
        encoding="utf-8")
    monkeypatch.setenv("GPUKB_RULES", str(rules))
    ask, found = both_outputs(tmp_path)
    assert (ask["verdict"], [r["text"] for r in ask["reasons"]]) == ("unconfirmed", ["L40S is missing from NVIDIA's MIG list."])
    assert [(rule, severity) for rule, severity, _ in found] == [("CHK-034", "warning")]
    assert "L40S is missing from NVIDIA's MIG list." in found[0][2]


@pytest.mark.parametrize("driver, verdict, rules", [
    ("575.57.08", "no", {"MIG-010"}),  # the release NVIDIA's support list names as without MIG for this card
    ("580.82.07", "yes", set()),
])
def test_the_node_driver_goes_into_the_answer(driver, verdict, rules):
    node = ("apiVersion: v1\nkind: Node\nmetadata:\n  name: se\n  labels:\n"
            "    nvidia.com/gpu.product: NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition\n"
            "    nvidia.com/mig.config: all-1g.24gb\n"
            f"    nvidia.com/cuda.driver-version.full: {driver}\n")
    report = check(["-"], load_data(), Environment(), stdin=__import__("io").BytesIO(node.encode()))
    (fact,) = [f for f in report.facts.facts if f["kind"] == "node"]
    assert fact["mig_verdict"] == verdict and rules <= set(fact["mig_rules"].split(","))
    assert [f["rule"] for f in report.findings] == (["CHK-033"] if verdict == "no" else [])


def test_a_condition_the_node_shows_met_is_not_asked_for():
    """MIG-006 asks for the display-mode switch; GPU Feature Discovery's nvidia.com/gpu.mode=compute shows it done."""
    assert MET_BY_NODE == {"MIG-006": ("gpu_mode", "compute")}
    assert "DisplayModeSelector" in json.loads(CliRunner().invoke(
        cli, ["ask", "mig", "RTX PRO 6000 Workstation", "--json"]).output)["conditions"][0]["text"]
    base = ("apiVersion: v1\nkind: Node\nmetadata:\n  name: ws\n  labels:\n"
            "    nvidia.com/gpu.product: NVIDIA-RTX-PRO-6000-Blackwell-Workstation-Edition\n"
            "    nvidia.com/mig.config: all-1g.24gb\n    nvidia.com/gpu.mode: {mode}\n")
    messages = {}
    for mode in ("graphics", "compute"):
        report = check(["-"], load_data(), Environment(), stdin=__import__("io").BytesIO(base.format(mode=mode).encode()))
        (f,) = [f for f in report.findings if f["rule"] == "CHK-035"]
        messages[mode] = f["message"]
    assert "DisplayModeSelector" in messages["graphics"] and "DisplayModeSelector" not in messages["compute"]
    assert "support list does not name it" in messages["compute"]


def test_mig_findings_cite_the_answer():
    report = check([str(REPO / "tests/rules/check/CHK-033/fires.yaml")], load_data(), Environment())
    (f,) = report.findings
    assert {c["source"] for c in f["citations"]} >= {"mig-user-guide"}
