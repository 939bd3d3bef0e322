"""`gpukb lint` on a clean fixture catalog and its rule base, and on one broken copy per kind of breakage."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from kb.cli.main import cli

GOOD = FIXTURES / "lint" / "good"
RULES = FIXTURES / "lint" / "rules"  # the rule base checked against the fixture catalog
BROKEN = FIXTURES / "lint" / "broken"
SHARED = FIXTURES / "lint" / "shared"

#: breakage → (exit code, exact problems as "file:line: path: message [kind]")
EXPECTED = {
    "internal-word": (1, [
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: 'seed' is an internal word (internal name of our article: say 'our article') [jargon]",
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: 'catalog' is an internal word (our data store: say 'we' or name the document) [jargon]",
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: '--driver' is an internal word (CLI flag: only the CLI reference names flags) [jargon]",
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: 'operator_support' is an internal word (field name of our data) [jargon]",
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: 'beta-10' is an internal word (catalog id: use the product's or document's name) [jargon]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'Seed' is an internal word (internal name of our article: say 'our article') [jargon]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'lokale Kopie' is an internal word (how we keep documents: say which documents we cite) [jargon]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'Regel-Engine' is an internal word (how we derive answers: say 'our answer') [jargon]",
    ]),
    "house-style": (1, [
        'lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: \'"list"\': straight quotes: „…“ / “…” [style]',
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: ' \"list\" on 2026-03-01 as “the “list” page”.': "
        "quote inside a quote: ‚…‘ (German) / ‘…’ (English) [style]",
        "lt/cards/beta-10.yaml:30: operator_support.listed.note.en: en: '2026-03-01': ISO date in prose: 21. September 2026 / 21 September 2026 [style]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'RTX Pro': glossary: RTX PRO [style]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'du': glossary: Sie-form [style]",
        'lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: \'"gelistet"\': straight quotes: „…“ / „…“ [style]'.replace("„…“ / „…“", "„…“ / “…”"),
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'willst — so': German dash: „ – “ (en dash with spaces), "
        "not an em dash [style]",
        "lt/cards/beta-10.yaml:31: operator_support.listed.note.de: de: 'et\", wenn du willst — so „die „Liste“ von NVIDIA“.': quote inside "
        "a quote: ‚…‘ (German) / ‘…’ (English) [style]",
    ]),
    # issue 16: a quote in German (its source's language) carries its English translation, an English one none
    "untranslated-quote": (1, [
        "lt/cards/beta-10.yaml:8: architecture.cite[0].translation: quote from 'demo-datasheet' is English already: "
        "drop `translation` [translations]",
        "lt/cards/beta-10.yaml:19: availability.cite[1].quote: German quote from 'demo-article' without `translation`: "
        "English readers would see 'Wir liefern die Beta 10.' untranslated [translations]",
        "lt/cards/beta-10.yaml:20: availability.cite[2].translation: translation repeats the quote: write it in English "
        "[translations]"]),
    "yaml-syntax": (2, ["lt/cards/beta-10.yaml:3: not valid YAML: expected ',' or ']', but got '<stream end>' [yaml]"]),
    "duplicate-key": (1, [
        "lt/cards/beta-10.yaml:11: memory_gb: duplicate key 'memory_gb' (first at line 9); YAML would silently keep only the last [duplicate]",
        "lt/cards/beta-10.yaml:9: memory_gb.cite: Field required [schema]"]),
    "unquoted-version": (1, [
        'lt/cards/alpha-100.yaml:39: operator_support.since.value: Input should be a valid string — YAML read 26.10 as the number 26.1: write "26.10" in quotes [schema]']),
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
    "watched-uncited": (1, ["lt/sources.yaml:28: sources[2].watch: source 'demo-telemetry' is watched, but no fact "
                            "cites it: cite it or drop `watch` [sources]"]),
    "quote-missing": (1, [
        "lt/cards/alpha-100.yaml:42: operator_support.min_driver.cite[0].quote: quote not found in support@2026-01-01.rst: "
        "'Driver versions 575.57.08 or later are required.' [quotes]"]),
    "pinned-snapshot-missing": (1, [
        "lt/cards/beta-10.yaml:27: operator_support.listed.cite[0].snapshot: no snapshot of 2024-06-01 for source "
        "'demo-support' (sources/demo/support; have: 2025-06-01, 2026-01-01) [quotes]"]),
    "unread-file": (1, ["lt/cards/beta-10.json: not read: catalog data are sources.yaml, platform-support.yaml and "
                        "cards/, releases/, methods/<id>.yaml (or .yml) [files]",
                        "rules/mig/LT-001-mig-documented.yaml.orig: not read: a rule is <question>/<ID>-<slug>.yaml "
                        "(or .yml) [files]"]),
    "script-url": (1, ["lt/sources.yaml:17: sources[1].url: 'javascript:alert(document.domain)' is not an https: or "
                       "http: address [links]"]),
    "rule-invalid": (1, [
        "rules/mig/LT-002-maybe.yaml:10: then.verdict: verdict 'maybe' is not one of yes, conditional, unconfirmed, no [rules]"]),
    "rule-cite-unresolved": (1, [
        "rules/mig/LT-001-mig-documented.yaml:16: cites[1]: methods/whole#limits.no-isolation: no item 'no-isolation' "
        "in 'limits'; did you mean 'no-isolation-demo'? [rules]",
        "rules/mig/LT-001-mig-documented.yaml:17: cites[2]: releases/gpu-operator#releases[26.1.0]: not a cited fact [rules]",
        "rules/mig/LT-001-mig-documented.yaml:18: cites[3]: cards/{card}#mig.stauts resolves for no card "
        "(e.g. cards/alpha-100#mig.stauts: no field 'stauts' in 'mig'; did you mean 'status'?) [rules]"]),
    # issue 10, class 9: a citation must carry its value; a multi-page guide's citation names its page; where
    # versions of one document disagree the newest wins
    "citation-value": (1, [
        "lt/cards/beta-10.yaml:12: memory_gb.value: value 24 stands in none of its quotes or sections: quote it "
        "(a table row in the section counts) or say how it is `inferred` [citations]",
        "lt/cards/beta-10.yaml:36: operator_support.min_driver.disputed_by[0].value: demo-guide 2 gives '575.57.08', "
        "the fact follows an older version (1): the newest version of a document wins — swap value and claim [citations]",
        "lt/cards/beta-10.yaml:37: operator_support.min_driver.disputed_by[0].cite[0]: demo-guide-2 spans several pages: "
        "name the `page` this quote is on (relative to https://example.invalid/guide/2/) [citations]"]),
    # issue 11: every name the driver reports is cited, and its quote shows it
    "product-name-uncited": (1, [
        "lt/cards/beta-10.yaml:8: product_names[0]: product name 'NVIDIA Beta 10 SXM' without a citation: write it as "
        "{name: …, cite: [{source: …, quote: …}]} quoting the nvidia-smi output, label or list row that shows it [schema]"]),
    "product-name-not-shown": (1, [
        "lt/cards/beta-10.yaml:8: product_names[0].name: product name 'NVIDIA Beta 10 PCIe' stands in none of its "
        "quotes: quote the nvidia-smi output, label or list row that shows it [citations]",
        "lt/cards/beta-10.yaml:10: product_names[1].name: product name 'NVIDIA Beta 10' stands in none of its quotes: "
        "quote the nvidia-smi output, label or list row that shows it [citations]"]),
    # issue 10: a known issue with a version range that no rule reads is data no answer ever shows
    "known-issue-unread": (1, [
        "lt/releases/gpu-operator.yaml:26: known_issues[1].id: known issue 'demo-operator-vgpu' (trigger mig-backed-vgpu, "
        "component gpu-operator) is read by no rule: no answer or finding would ever mention it [known_issues]"]),
}


def run_lint(catalog, *args, shared=SHARED, rules=RULES):
    env = {"GPUKB_SHARED": str(shared), "GPUKB_RULES": str(rules)}
    return CliRunner().invoke(cli, ["lint", "--catalog", str(catalog), *args], env=env)


def broken_copy(tmp_path, *kinds):
    """The good catalog (tmp/lt) and rules (tmp/rules) with the files of each breakage laid over them
    (a breakage's rules/ folder over the rules, everything else over the catalog)."""
    catalog, rules = tmp_path / "lt", tmp_path / "rules"
    shutil.copytree(GOOD, catalog)
    shutil.copytree(RULES, rules)
    for kind in kinds:
        for part in (BROKEN / kind).iterdir():
            target = rules if part.name == "rules" else catalog / part.name
            if part.is_dir():
                shutil.copytree(part, target, dirs_exist_ok=True)
            else:
                shutil.copy(part, target)
    return catalog, rules


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
                              "versions": "passed", "quotes": "passed", "rules": "passed",
                              "citations": "passed", "known_issues": "passed", "files": "passed", "links": "passed",
                              "jargon": "passed", "style": "passed", "translations": "passed"}


def test_quotes_skipped_not_passed_without_snapshots(tmp_path):
    data = json.loads(run_lint(GOOD, "--json", shared=tmp_path / "absent").output)
    assert data["checks"]["quotes"].startswith("skipped: ")
    assert data["exit_code"] == 0


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_broken_catalog(kind, tmp_path):
    catalog, rules = broken_copy(tmp_path, kind)
    result = run_lint(catalog, rules=rules)
    code, problems = EXPECTED[kind]
    assert result.exit_code == code
    assert "Traceback" not in result.output
    data = json.loads(run_lint(catalog, "--json", rules=rules).output)
    if code == 2:  # nothing else was checked: the one error shape (kb.cli.edge), problems without their kind
        assert result.output.splitlines() == ["Error: the catalog cannot be read; nothing else was checked:"] + [
            "  " + p.rsplit(" [", 1)[0] for p in problems]
        assert (data["exit_code"], data["kind"], len(data["details"]["problems"])) == (2, "catalog-invalid", len(problems))
        return
    found = [line for line in result.output.splitlines() if line.endswith("]")]
    assert found == problems
    assert data["exit_code"] == code and len(data["problems"]) == len(problems)


def test_all_problems_reported_at_once(tmp_path):
    catalog, rules = broken_copy(tmp_path, "unquoted-version", "missing-citation")
    data = json.loads(run_lint(catalog, "--json", rules=rules).output)
    assert sorted(p["file"] for p in data["problems"]) == ["lt/cards/alpha-100.yaml", "lt/cards/beta-10.yaml"]


def test_every_check_reports_at_once(tmp_path):
    catalog, rules = broken_copy(tmp_path, "quote-missing", "rule-invalid", "rule-cite-unresolved")
    data = json.loads(run_lint(catalog, "--json", rules=rules).output)
    assert [(p["kind"], p["file"]) for p in data["problems"]] == [("quotes", "lt/cards/alpha-100.yaml")] + [
        ("rules", "rules/mig/LT-001-mig-documented.yaml")] * 3 + [("rules", "rules/mig/LT-002-maybe.yaml")]
    assert data["checks"]["quotes"] == data["checks"]["rules"] == "failed"


def test_missing_rules_folder_is_a_finding(tmp_path):
    data = json.loads(run_lint(GOOD, "--json", rules=tmp_path / "norules").output)
    assert data["checks"]["rules"] == "failed" and data["exit_code"] == 1
    assert [(p["file"], p["message"], p["kind"]) for p in data["problems"]] == [
        (str(tmp_path / "norules"), "rules folder not found", "rules")]


def test_missing_catalog_is_unusable(tmp_path):
    result = run_lint(tmp_path / "nothing")
    assert result.exit_code == 2
    assert "catalog folder not found" in result.output


def test_german_summary(tmp_path):
    catalog, rules = broken_copy(tmp_path, "quote-missing")
    assert run_lint(catalog, "--lang", "de", rules=rules).output.splitlines()[-1] == "1 Problem(e)"


def test_catalog_that_is_a_file_is_named_as_such(tmp_path):
    path = tmp_path / "catalog.yaml"
    path.write_text("cards: []\n", encoding="utf-8")
    result = run_lint(path)
    assert result.exit_code == 2
    assert result.output.splitlines()[1] == f"  {path}: a file, not a catalog folder"


def test_check_states_in_german(tmp_path):
    lines = run_lint(tmp_path / "nothing", "--lang", "de").output.splitlines()
    assert lines == ["Fehler: der Katalog ist nicht lesbar; sonst wurde nichts geprüft:",
                     f"  {tmp_path / 'nothing'}: Katalogordner nicht gefunden"]
    data = json.loads(run_lint(tmp_path / "nothing", "--json", "--lang", "de").output)
    assert data["details"]["checks"]["sources"] == "skipped: the catalog does not load"
    skipped = run_lint(GOOD, "--lang", "de", shared=tmp_path / "absent").output.splitlines()
    assert f"quotes: übersprungen: {tmp_path / 'absent'} nicht gefunden" in skipped
    catalog, rules = broken_copy(tmp_path, "quote-missing")
    assert "quotes: fehlgeschlagen" in run_lint(catalog, "--lang", "de", rules=rules).output.splitlines()
    assert "rules: bestanden" in run_lint(GOOD, "--lang", "de").output.splitlines()


def test_problems_in_german_with_the_parser_words_quoted(tmp_path):
    catalog, rules = broken_copy(tmp_path / "s", "unknown-source")
    lines = run_lint(catalog, "--lang", "de", rules=rules).output.splitlines()
    assert "lt/cards/beta-10.yaml:11: memory_gb.cite[0].source: unbekannte Quelle 'demo-datashet'; meinten Sie " \
           "'demo-datasheet'? [sources]" in lines
    data = json.loads(run_lint(catalog, "--json", "--lang", "de", rules=rules).output)
    assert [p["message"] for p in data["problems"]] == ["unbekannte Quelle 'demo-datashet'; meinten Sie 'demo-datasheet'?"]
    catalog, rules = broken_copy(tmp_path / "c", "missing-citation")
    assert run_lint(catalog, "--lang", "de", rules=rules).output.splitlines()[0] == (
        "lt/cards/beta-10.yaml:11: memory_gb.cite: passt nicht zum Schema (die Schemaprüfung meldet: „List should "
        "have at least 1 item after validation, not 0“) [schema]")
    catalog, rules = broken_copy(tmp_path / "y", "yaml-syntax")
    assert run_lint(catalog, "--lang", "de", rules=rules).output.splitlines()[1] == (
        "  lt/cards/beta-10.yaml:3: kein gültiges YAML (der Parser meldet: „expected ',' or ']', but got "
        "'<stream end>'“)")


def test_an_alias_bomb_in_the_catalog_is_refused_quickly(tmp_path):
    """A 1 KB card file whose aliases expand to 10^10 values (issue 13: it took 62 s and 4 GB) is refused."""
    catalog = tmp_path / "lt"
    shutil.copytree(GOOD, catalog)
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{b}: &{b} [{', '.join(['*' + a] * 10)}]" for a, b in zip("abcdefghi", "bcdefghij")]
    (catalog / "cards" / "beta-10.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert len((catalog / "cards" / "beta-10.yaml").read_bytes()) < 1024
    result = run_lint(catalog)  # the guard stops after 50,000 values (~0.3 s here)
    assert result.exit_code == 2
    assert result.output.splitlines()[1] == (
        "  lt/cards/beta-10.yaml: more than 50000 values (aliases expanding without end?): not read")
