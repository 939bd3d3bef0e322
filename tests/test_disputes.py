"""Answers that rest on a disputed fact say so; `ask dra` tells the operator-managed from the standalone DRA
driver (issue 10, class 6).

Evidence (snapshots under ../shared/sources):
- dra-driver-nvidia-gpu/Chart@2026-05-12.yaml: `kubeVersion: ">=1.32.0-0"` — the standalone chart installs on 1.32;
- dra-driver-nvidia-gpu/prerequisites@2026-07-16.md: Kubernetes "v1.34.2 or later"; NVIDIA Driver "v565 or later
  for GPU allocation";
- cloud-native-docs/dra-intro-install@2026-08-21.rst, Prerequisites: "Kubernetes v1.34.2 or later …", "NVIDIA GPU
  driver version 580 or later.", "No ``ClusterPolicy`` resource exists in the cluster."
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.cli.main import cli
from kb.questions import Asker, resolve

from conftest import REPO, need_sources
from realmatrix import matrix


@pytest.fixture(scope="module")
def asker():
    return Asker(load_data(REPO / "catalog"))  # durable, memoised per distinct engine input (the reference's
    # equality with it is tests/test_engine_matrix.py's; it took most of this file's 100 s)


def ask(asker, question, **raw):
    return asker.answer(question, resolve(question, asker.index, **raw))


def values(answer, fact):
    dispute = next(d for d in answer["disputes"] if d["fact"] == fact)
    return [(v["value"], v["followed"], sorted({c["source"] for c in v["citations"]})) for v in dispute["values"]]


def test_standalone_dra_driver_shows_the_kubernetes_dispute(asker):
    answer = ask(asker, "dra", k8s="1.33.4", install="standalone")
    assert answer["verdict"] == "no" and answer["inputs"]["install"] == "standalone"
    assert values(answer, "methods/dra#standalone_requirements.min_kubernetes") == [
        ("1.34.2", True, ["dra-driver-prerequisites"]),
        ("1.32", False, ["dra-driver-chart", "dra-driver-docs-index", "dra-driver-readme"]),
    ]
    note = answer["disputes"][0]["values"][1]["note"]["en"]
    assert "installs on Kubernetes 1.32" in note


def test_operator_managed_dra_driver_shows_the_driver_dispute_and_its_prerequisites(asker):
    answer = ask(asker, "dra", k8s="1.34.2", operator="26.7.0")
    assert answer["inputs"]["install"] == "operator"
    assert answer["verdict"] == "conditional"
    assert values(answer, "methods/dra#requirements.min_driver") == [
        ("580", True, ["gpu-operator-dra", "gpu-operator-release-notes"]), ("565", False, ["dra-driver-prerequisites"])]
    condition = next(c for c in answer["conditions"] if c["rule"] == "DRA-007")["text"]["en"]
    assert "580 or later" in condition and "CDI" in condition and "without a ClusterPolicy" in condition
    assert not any(d["fact"].endswith("min_kubernetes") for d in answer["disputes"])


def test_an_operator_release_that_does_not_manage_dra_is_answered_for_the_standalone_driver(asker):
    answer = ask(asker, "dra", k8s="1.34.2", operator="26.3.3")
    assert answer["inputs"]["install"] == "standalone"
    assert "DRA-008" in [r["rule"] for r in answer["reasons"]]
    forced = ask(asker, "dra", k8s="1.34.2", operator="26.3.3", install="operator")
    assert forced["verdict"] == "no" and "DRA-004" in [r["rule"] for r in forced["reasons"]]


def test_dispute_line_in_text_and_json(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)
    text = CliRunner().invoke(cli, ["ask", "dra", "--k8s", "1.33.4", "--install", "standalone"]).output
    line = next(line for line in text.splitlines() if line.startswith("  - minimum Kubernetes version:"))
    assert "1.34.2 [" in line and "(this answer follows it) — 1.32 [" in line
    assert "Sources disagree:" in text
    german = CliRunner().invoke(cli, ["ask", "dra", "--k8s", "1.33.4", "--install", "standalone", "--lang", "de"]).output
    assert "Quellen widersprechen sich:" in german and "(dieser Antwort zugrunde gelegt)" in german
    data = json.loads(CliRunner().invoke(cli, ["ask", "dra", "--k8s", "1.33.4", "--install", "standalone", "--json"]).output)
    assert data["disputes"][0]["fact"] == "methods/dra#standalone_requirements.min_kubernetes"
    assert isinstance(data["disputes"][0]["values"][1]["note"], str)


def test_no_disputed_fact_a_rule_rests_on_is_hidden(asker):
    """For every answer of the matrix: each fact a fired rule cites that has `disputed_by` is in the answer's disputes."""
    from kb.catalog.facts import FactError, resolve_ref
    from kb.engine.conclude import fill

    rules = {r["id"]: r for question in asker.rules.values() for r in question}
    hidden, seen, disputed = [], 0, {}
    answers = matrix(asker.data)  # every question's answers (tests/realmatrix.py: once per process)
    assert {a["question"] for a in answers} == {"mig", "methods", "resource", "strategy", "dra", "recommend"}
    for answer in answers:
        listed = {d["fact"] for d in answer["disputes"]}
        for reason in answer["reasons"]:
            rule = rules[reason["rule"]]
            for ref in rule["cites"]:
                filled = fill(rule, tuple(reason["facts"]), ref.rstrip("?"))
                if filled not in disputed:  # each reference resolved once
                    try:
                        node = resolve_ref(asker.data, filled)
                    except FactError:
                        node = None
                    disputed[filled] = isinstance(node, dict) and bool(node.get("disputed_by"))
                if disputed[filled]:
                    seen += 1
                    if filled not in listed:
                        hidden.append((answer["question"], answer["inputs"], filled))
    assert hidden == []
    assert seen > 50  # the matrix does rest on disputed facts (RTX PRO 4500 prerequisites, DRA driver minimum, …)


def test_the_sources_really_disagree():
    src = need_sources()
    chart = (src / "dra-driver-nvidia-gpu" / "Chart@2026-05-12.yaml").read_text(encoding="utf-8")
    prereq = (src / "dra-driver-nvidia-gpu" / "prerequisites@2026-07-16.md").read_text(encoding="utf-8")
    operator = (src / "cloud-native-docs" / "dra-intro-install@2026-08-21.rst").read_text(encoding="utf-8")
    assert 'kubeVersion: ">=1.32.0-0"' in chart
    assert "v1.34.2 or later" in prereq and "v565 or later for GPU allocation" in prereq
    assert "NVIDIA GPU driver version 580 or later." in operator and "No ``ClusterPolicy`` resource exists" in operator
