"""Every rule of rules/check/ against its fixtures: the FAIL manifest gets its finding, the PASS twin does not."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from kb.engine.rules import load_rules
from tests.conftest import FIXTURES, REPO

CHECK = FIXTURES / "check"
RULE_IDS = sorted(p.name[:7] for p in (REPO / "rules" / "check").glob("CHK-*.yaml"))
FIXTURE_FILES = sorted(CHECK.glob("CHK-*-*.yaml"))


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
    return check([str(path)], load_data(), options(path), engine=engine)


@pytest.mark.parametrize("rid", RULE_IDS)
def test_every_rule_has_a_pass_and_a_fail_fixture(rid):
    assert (CHECK / f"{rid}-PASS.yaml").is_file(), f"{rid} has no PASS fixture"
    assert (CHECK / f"{rid}-FAIL.yaml").is_file(), f"{rid} has no FAIL fixture"


def test_every_fixture_belongs_to_a_rule():
    assert {p.name[:7] for p in FIXTURE_FILES} <= set(RULE_IDS)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_fixture_outcome(path):
    rid, outcome = path.stem[:7], path.stem[8:]
    report = run(path)
    fired = [f for f in report.findings if f["rule"] == rid]
    if outcome == "FAIL":
        assert fired, f"{rid} did not fire on {path.name}: {[f['rule'] for f in report.findings]}"
        for f in fired:
            assert f["citations"], f"{rid} finding without a citation"
            assert f["where"]["file"] == str(path) and f["where"]["line"], f"{rid} finding without a location: {f}"
    else:
        assert not fired, f"{rid} fired on its PASS fixture: {fired[0]['message']}"


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_durable_and_reference_agree(path):
    assert run(path, "durable").findings == run(path, "reference").findings


def test_rules_load_with_titles_in_both_languages():
    rules = load_rules()["check"]
    assert {r["id"] for r in rules} == set(RULE_IDS)
    assert all(r["title"]["en"] and r["title"]["de"] for r in rules)


#: catalog and YAML type ids that must read as words in a German finding
_NOT_GERMAN = {"integer", "text", "number", "boolean", "mapping", "missing", "announced", "datasheet-only", "documented",
               "not-listed", "values"}


@pytest.mark.parametrize("path", [p for p in FIXTURE_FILES if p.stem.endswith("-FAIL")], ids=lambda p: p.stem)
def test_a_german_finding_has_no_english_value(path):
    import re

    report = check([str(path)], load_data(), options(path), engine="reference", lang="de")
    # the YAML parser's own words after "kein gültiges YAML:" stay as PyYAML writes them
    messages = [re.sub(r"kein gültiges (YAML|JSON): [^.]*", "", f["message"]) for f in report.findings]
    words = {w for m in messages for w in re.findall(r"(?<![\w./-])[a-z][a-z-]*[a-z](?![\w./-])", m)}
    assert words & _NOT_GERMAN == set()
