"""Every rule of rules/check/ against its fixtures (tests/rulefixtures.py): the `fires` manifest gets its finding,
the `quiet` twin does not."""

from __future__ import annotations

import functools
import shlex
from pathlib import Path

import pytest

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from kb.engine.rules import compile_rules, load_rules
from conftest import REPO
from rulefixtures import Fixture, fixtures, missing

RULE_IDS = sorted(r["id"] for r in compile_rules(REPO / "rules")[0]["check"])
FIXTURES = fixtures("check")


def options(path: Path) -> Environment:
    """The options of a first line '# gpukb check --k8s 1.33.5 …'."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    env = Environment()
    if first.startswith("# gpukb check"):
        args = shlex.split(first[len("# gpukb check"):])
        for flag, value in zip(args[::2], args[1::2]):
            setattr(env, flag.lstrip("-"), value)
    return env


def run(path: Path, engine: str = "reference"):
    """The check of one fixture, once per run and engine: test_fixture_outcome and test_durable_and_reference_agree
    read the same reference report (a check reads nothing but the fixture and the repository's catalog)."""
    return _run(path, engine)


@functools.lru_cache(maxsize=None)
def _run(path: Path, engine: str):
    return check([str(path)], catalog(), options(path), engine=engine)


@functools.cache
def catalog() -> dict:
    """The repository's compiled catalog, read once for this module's checks: tests/conftest.py forgets the
    process's lookups before each test, and a whole catalog read (every card's part) cost about a third of every
    check here. check() reads it and writes nothing into it."""
    return load_data()


def test_every_rule_has_a_firing_and_a_quiet_fixture_and_every_fixture_a_rule():
    assert missing("check", RULE_IDS) == []


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f.name)
def test_fixture_outcome(fixture: Fixture):
    rid, path = fixture.rule, fixture.path
    report = run(path)
    fired = [f for f in report.findings if f["rule"] == rid]
    if fixture.fires:
        assert fired, f"{rid} did not fire on {path.name}: {[f['rule'] for f in report.findings]}"
        for f in fired:
            assert f["citations"], f"{rid} finding without a citation"
            assert f["where"]["file"] == str(path) and f["where"]["line"], f"{rid} finding without a location: {f}"
    else:
        assert not fired, f"{rid} fired on its quiet fixture: {fired[0]['message']}"


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda f: f.name)
def test_durable_and_reference_agree(fixture: Fixture):
    assert run(fixture.path, "durable").findings == run(fixture.path, "reference").findings


def test_rules_load_with_titles_in_both_languages():
    rules = load_rules()["check"]
    assert {r["id"] for r in rules} == set(RULE_IDS)
    assert all(r["title"]["en"] and r["title"]["de"] for r in rules)


#: catalog and YAML type ids that must read as words in a German finding
_NOT_GERMAN = {"integer", "text", "number", "boolean", "mapping", "missing", "announced", "datasheet-only", "documented",
               "not-listed", "values"}


@pytest.mark.parametrize("path", [f.path for f in FIXTURES if f.fires], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_german_finding_has_no_english_value(path):
    import re

    report = check([str(path)], catalog(), options(path), engine="reference", lang="de")
    # the YAML parser's own words („…“ after "kein gültiges YAML") stay as PyYAML writes them, and NVIDIA's error
    # messages are quoted as NVIDIA's code writes them („number of replicas must be >= 2“)
    messages = [re.sub(r"„[^“]*“", "", re.sub(r"kein gültiges (YAML|JSON): [^.]*", "", f["message"]))
                for f in report.findings]
    words = {w for m in messages for w in re.findall(r"(?<![\w./-])[a-z][a-z-]*[a-z](?![\w./-])", m)}
    assert words & _NOT_GERMAN == set()
    # the places of the findings' sources read German too („Zeilen 97–98 (Tag v0.20.0): der Daemon lehnt …“)
    from test_wording import english_place_words
    from kb.wording import section_text

    places = [section_text(c["section"], "de") for f in report.findings for c in f["citations"] if c.get("section")]
    assert [(p, english_place_words(p)) for p in places if english_place_words(p)] == []


def test_mps_limit_is_16_on_nodes_below_compute_capability_7_5():
    """Issue 12: the MPS control daemon allows 48 clients per GPU only from compute capability 7.5 (device-plugin
    cmd/mps-control-daemon/mps/device.go, isAtLeastVolta); a V100 labelled 7.0 gets 16 — and the fix says 16."""
    from kb.check.facts.nodes import below_7_5
    from kb.check.readers.node import Label, Node

    def node(**labels):
        n = Node(name="n", doc=None, where=None)
        n.labels = {f"nvidia.com/gpu.{k.replace('_', '.')}": Label(v, None) for k, v in labels.items()}
        return n

    assert below_7_5(node(compute_major="7", compute_minor="0")) == "7.0"
    assert below_7_5(node(compute_major="6", compute_minor="1")) == "6.1"
    assert below_7_5(node(compute_major="7", compute_minor="5")) is None
    assert below_7_5(node(compute_major="8", compute_minor="0", family="volta")) is None  # the numbers decide
    assert below_7_5(node(family="pascal")) == "Pascal"
    assert below_7_5(node(family="turing", product="Tesla-V100")) is None
    assert below_7_5(node(product="Tesla-V100-SXM2-16GB")) == "7.0"
    assert below_7_5(node(product="NVIDIA-L4")) is None
    findings = [f for f in run(REPO / "tests/rules/check/CHK-006/fires-v100-compute-7-0.yaml").findings
                if f["rule"] == "CHK-006"]
    assert len(findings) == 1 and "20 > 16" in findings[0]["message"] and "v100-node" in findings[0]["message"]
    assert "replicas: 16" in findings[0]["fix"]
