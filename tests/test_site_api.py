"""The static JSON API (api/v1/) of the built site equals the CLI's --json output on the same catalog, and the
changes page and Atom feeds say what changed between data versions (kb.site.changes)."""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kb.site import changes
from sampling import sample


@pytest.fixture
def same_catalog(site_built, monkeypatch):
    """The CLI on the catalog the site was built from (a copy with one card's note replaced), compiled as the
    build compiled it (its cache folder; the cache is keyed by content)."""
    monkeypatch.setenv("GPUKB_CATALOG", str(site_built.site.parent / "catalog"))
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(site_built.site.parent / "cache"))
    from kb.catalog import compiled

    compiled.forget()
    return site_built.site / "api" / "v1"


def cli_main():
    from kb.cli.main import cli

    return cli


def cli_json(*args: str):
    result = CliRunner().invoke(cli_main(), [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_every_api_file_equals_the_clis_json(same_catalog, site_built):
    api = same_catalog
    index = json.loads((api / "index.json").read_text(encoding="utf-8"))
    assert index["api"] == "v1" and index["files"]["cards"]["url"] == "cards.json"
    assert json.loads((api / "cards.json").read_text(encoding="utf-8")) == cli_json("cards")
    ids = index["files"]["card"]["ids"]
    assert sorted(p.stem for p in (api / "cards").glob("*.json")) == sorted(ids) and len(ids) >= 13
    # each card's file is one generator's output for that card: a sample of them (every one with GPUKB_FULL=1),
    # the card whose note is markup among them
    for cid in sample(ids, 8, seed="api-cards", always=[site_built.poisoned]):
        assert json.loads((api / "cards" / f"{cid}.json").read_text(encoding="utf-8")) == cli_json("card", cid), cid
    # the answers: every byte of the site's file is the JSON of what `gpukb export answers --json` prints (the CLI
    # prints kb.questions.export_all() indented: test_the_cli_prints_the_export_the_api_file_holds) — 80 MB,
    # compared as text, not parsed twice and walked
    from kb.questions import export_all

    export = export_all()
    text = (api / "answers.json").read_text(encoding="utf-8")
    if text != json.dumps(export, ensure_ascii=False, separators=(",", ":")) + "\n":  # name the first difference
        site, cli = json.loads(text), json.loads(json.dumps(export))
        first = next((i for i, (a, b) in enumerate(zip(site["answers"], cli["answers"])) if a != b), None)
        assert first is None or site["answers"][first] == cli["answers"][first], f"answer {first}"
        assert site == cli
    assert index["data_version"] == export["data_version"] and index["files"]["answers"]["count"] == len(export["answers"])


def test_the_cli_prints_the_export_the_api_file_holds(monkeypatch):
    """`gpukb export answers --json` prints kb.questions.export_all(), indented: the function the test above
    compares the site's answers with (on the fixture catalog here: the CLI's whole matrix of a few cards)."""
    from kb.catalog import compiled
    from kb.questions import export_all, questions

    from conftest import FIXTURES

    monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "catalog"))
    compiled.forget()
    printed = CliRunner().invoke(cli_main(), ["export", "answers", "--json"])
    assert printed.exit_code == 0, printed.output
    compiled.forget()
    export = export_all()
    assert {a["question"] for a in export["answers"]} == set(questions()) and len(export["answers"]) > 100
    assert printed.output == json.dumps(export, ensure_ascii=False, indent=2) + "\n"


def test_the_api_page_and_the_changes_page_are_published(site_built):
    for prefix in ("", "en/"):
        page = (site_built.site / prefix / "reference" / "api" / "index.html").read_text(encoding="utf-8")
        assert "api/v1/cards.json" in page
        assert (site_built.site / prefix / "changes" / "index.html").is_file()
    search = json.loads((site_built.site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not any(d["location"].startswith("reference/") for d in search["docs"])


@pytest.mark.parametrize("lang, path", [("de", "feed.xml"), ("en", "en/feed.xml")])
def test_each_language_has_an_atom_feed_of_the_data_versions(site_built, lang, path):
    root = ET.fromstring((site_built.site / path).read_bytes())
    ns = {"a": "http://www.w3.org/2005/Atom"}
    assert root.tag == "{http://www.w3.org/2005/Atom}feed"
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == lang
    entries = root.findall("a:entry", ns)
    assert entries, "a feed without entries"
    newest = entries[0]
    version = json.loads((site_built.site / "api" / "v1" / "index.json").read_text(encoding="utf-8"))["data_version"]
    assert newest.find("a:title", ns).text.endswith(version)
    link = newest.find("a:link", ns).get("href")
    assert link.startswith("http") and ("/en/changes/#v" in link) == (lang == "en")


# --- what changed, on hand-written catalogs --------------------------------------------------------------

def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


CARD = """id: x
mig:
  status: {{value: {status}, cite: [{{source: s, quote: q}}]}}
  profiles:
{profiles}
"""


def test_facts_added_changed_and_removed_between_two_catalogs(tmp_path):
    old = _write(tmp_path / "old", {"cards/x.yaml": CARD.format(status="documented", profiles=(
        "    - {name: 1g.10gb, memory_gb: 10, max_count: 7, cite: [{source: s, quote: q}]}\n"
        "    - {name: 2g.20gb, memory_gb: 20, max_count: 3, cite: [{source: s, quote: q}]}"))})
    new = _write(tmp_path / "new", {"cards/x.yaml": CARD.format(status="not-listed", profiles=(
        "    - {name: 3g.40gb, memory_gb: 40, max_count: 2, cite: [{source: s, quote: q}]}\n"
        "    - {name: 1g.10gb, memory_gb: 10, max_count: 7, cite: [{source: s, quote: q}]}")),
        "schema/card.schema.json": "{}"})
    entry = changes.Version("2", "2026-12-01", None)
    changes._diff(entry, changes.catalog_facts(old), changes.catalog_facts(new))
    # list items by their name: a profile moved up is unchanged, not 'changed'
    assert [a for a, _ in entry.added] == ["cards/x mig.profiles[3g.40gb]"]
    assert [r for r, _ in entry.removed] == ["cards/x mig.profiles[2g.20gb]"]
    assert entry.changed == [("cards/x mig.status", "documented", "not-listed")]


@functools.cache
def pure_python_facts(folder: Path) -> dict:
    """The catalog's facts as PyYAML's pure-Python reader reads each file (≈ 2 s: once per process and folder)."""
    import yaml

    pure = {}
    for path in sorted(folder.rglob("*.yaml")):
        rel = path.relative_to(folder).as_posix()
        if not rel.startswith("schema/"):
            pure.update({f"{rel.removesuffix('.yaml')} {k}": v
                         for k, v in changes.flatten(yaml.safe_load(path.read_text(encoding="utf-8"))).items()})
    return pure


def test_the_catalog_facts_are_the_values_pure_python_yaml_reads(monkeypatch):
    """catalog_facts reads each file with libyaml (kb.catalog.yamlsafe.safe_load, ~10× faster): the same facts as
    PyYAML's pure-Python reader, also where libyaml is missing; a file neither reads is left out."""
    import yaml

    from kb.catalog import yamlsafe
    from kb.catalog.compiled import catalog_dir

    pure = pure_python_facts(catalog_dir())
    assert changes.catalog_facts(catalog_dir()) == pure and len(pure) > 1000
    assert yamlsafe.safe_load("a: [1, true, '1.30', 1.30, 2026-12-01]") == yaml.safe_load("a: [1, true, '1.30', 1.30, 2026-12-01]")
    monkeypatch.delattr(yaml, "CSafeLoader")
    assert yamlsafe.safe_load("a: {b: yes}") == {"a": {"b": True}}
    with pytest.raises(yaml.YAMLError):
        yamlsafe.safe_load("a: [1")


def test_the_catalog_facts_take_what_the_compilation_read(monkeypatch):
    """In the site build the catalog compiled from nothing is read again for the changes page: within
    yamlsafe.keeping, catalog_facts takes what read_yaml read (no file parsed twice) — the same facts as PyYAML's
    own reading of every file."""
    from kb.catalog import yamlsafe
    from kb.catalog.compiled import catalog_dir, compile_catalog
    from kb.catalog.inputs import catalog_files

    pure = pure_python_facts(catalog_dir())
    parsed = []
    monkeypatch.setattr(changes, "safe_load", lambda text: parsed.append(text) or yamlsafe.safe_load(text))
    with yamlsafe.keeping():
        compile_catalog(catalog_dir())
        assert changes.catalog_facts(catalog_dir()) == pure and len(pure) > 1000
    # (parsed: only the files the catalog's loader does not read, e.g. the article's coverage)
    read = {Path(f.path).read_text(encoding="utf-8") for fs in catalog_files(catalog_dir()).values() for f in fs}
    assert len(read) > 50 and not read & set(parsed) and len(parsed) < 5
    assert changes.catalog_facts(catalog_dir()) == pure and len(parsed) > 50  # handed out once; outside: parsed


@pytest.mark.parametrize("text", [
    "a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n",  # a merge key: safe_load merges, read_yaml keeps "<<"
    "a: !!set {b, c}\n",  # a set
    "a: !!omap [b: 1]\n",  # pairs
    "1.5: a\n",  # a key read_yaml makes a str
    "a: 1\na: 2\n",  # a duplicate key (a problem)
])
def test_what_read_yaml_reads_unlike_safe_load_is_not_kept(tmp_path, text):
    """already_read hands out only data equal to yaml.safe_load's of the same text."""
    import yaml

    from kb.catalog import yamlsafe

    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    plain = "a: &x [1, '1.30', 1.30, 2026-12-01, {b: yes}]\nc: *x\n"
    with yamlsafe.keeping():
        doc, _problems = yamlsafe.read_yaml(path)
        assert yamlsafe.already_read(text) is None
        yamlsafe.read_yaml(path, data=plain.encode())
        assert yamlsafe.already_read(plain) == yaml.safe_load(plain) and yamlsafe.already_read(plain) is None
    yamlsafe.read_yaml(path, data=plain.encode())
    assert yamlsafe.already_read(plain) is None  # kept only within `keeping`


def test_the_data_versions_are_read_from_git_once_per_head(monkeypatch):
    """changes._versions (asked by compares_verdicts and by history in one build) reads git's history once per HEAD
    commit: again for another HEAD; what it gives is the callers' to change."""
    head, asked = ["h1"], []
    shows = {"c1": "data_version: '1'\n", "c2": "data_version: '2'\n", "c3": "data_version: '2'\n"}

    def git(*args):
        asked.append(args[0])
        if args[0] == "rev-parse":
            return "false\n" + head[0] + "\n"
        if args[0] == "log":
            return "c1 2026-11-01\nc2 2026-11-20\n" + ("c3 2026-11-25\n" if head[0] == "h2" else "")
        return shows[args[1].split(":")[0]]

    monkeypatch.setattr(changes, "_git", git)
    monkeypatch.setattr(changes, "_VERSIONS", {})
    first = changes._versions()
    assert first == [("c1", "2026-11-01", "1"), ("c2", "2026-11-20", "2")] and asked.count("log") == 1
    first.append("changed by a caller")
    again = changes._versions()
    assert again == first[:2] and asked.count("log") == 1 and asked.count("show") == 2
    again.clear()
    assert changes._versions() == first[:2] and asked.count("log") == 1
    head[0] = "h2"
    assert changes._versions() == first[:2] and asked.count("log") == 2 and asked.count("show") == 5
    monkeypatch.setattr(changes, "_git", lambda *args: None)  # no git: nothing found, nothing kept
    assert changes._versions() is None


def _fixture_repo(tmp_path, monkeypatch):
    """A git repository holding the fixture catalog, committed at its data version, and what runs git in it;
    kb.site.changes reads this repository's history."""
    import shutil
    import subprocess

    from conftest import FIXTURES

    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "catalog", repo / "catalog")

    def git(*args):
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                       capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "one")
    monkeypatch.setattr(changes, "ROOT", repo)
    monkeypatch.setattr(changes, "_VERSIONS", {})
    return repo, git


def _edit(repo, name: str, old: str, new: str) -> None:
    path = repo / "catalog" / name
    assert old in path.read_text(encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


MIG_STATUS = ("cards/h200-nvl.yaml", "value: documented", "value: not-listed")
NEW_VERSION = ("sources.yaml", 'data_version: "2026.11.1-fixture"', 'data_version: "2"')


def test_the_history_of_a_real_repository_lists_the_changed_facts_and_verdicts(monkeypatch, tmp_path):
    """Two data versions committed in a git repository: the newer one lists the fact it changed and the answers
    whose verdict changed (the engine on the older catalog, read by `git archive`), the first one every fact it
    had. (The older catalog was never read once a second data version existed: the folder it was to be unpacked
    into did not exist yet, so the page said nothing had changed and that verdicts could not be compared.)"""
    from kb.catalog.compiled import compile_catalog
    from kb.questions import compute_all

    repo, git = _fixture_repo(tmp_path, monkeypatch)
    first_facts = changes.catalog_facts(repo / "catalog")
    _edit(repo, *NEW_VERSION)
    _edit(repo, *MIG_STATUS)
    git("commit", "-qam", "two")
    data = compile_catalog(repo / "catalog")
    newer, first = changes.history(data, repo / "catalog", lambda: compute_all(data))
    assert (newer.version, newer.added, newer.removed) == ("2", [], [])
    assert newer.changed == [("cards/h200-nvl mig.status", "documented", "not-listed")]
    assert sorted((q, a["card"], a["operator"], old, new) for q, a, old, new in newer.verdicts) == [
        ("mig", "h200-nvl", op, "yes", "no") for op in ("25.10.0", "26.3.0", "26.7.0")]
    assert first.first and first.version == "2026.11.1-fixture" and first.added == sorted(first_facts.items())
    assert len(first.added) > 50


def test_an_older_catalogs_facts_are_read_from_git_parsing_only_the_files_that_differ(monkeypatch, tmp_path):
    """facts_at reads catalog/ at a commit from git's objects: the same facts as the files of that commit
    (catalog_facts of a checkout of it), with every file whose content the catalog being built holds too taken from
    what was parsed of it — only the changed file is parsed again (the changes page parsed every file of every data
    version: ≈ 0.6 s of the build's own process). A file that is no YAML has no facts, as in a folder."""
    repo, git = _fixture_repo(tmp_path, monkeypatch)
    then = changes.catalog_facts(repo / "catalog")
    _edit(repo, *MIG_STATUS)
    (repo / "catalog" / "broken.yaml").write_text("a: [\n", encoding="utf-8")
    git("add", "-A")
    git("commit", "-qm", "two")
    _edit(repo, *NEW_VERSION)  # (not committed: the catalog being built)
    memo: dict = {}
    now = changes.catalog_facts(repo / "catalog", memo)
    parsed = []
    real = changes._file_facts
    monkeypatch.setattr(changes, "_file_facts", lambda raw: parsed.append(raw) or real(raw))
    # every file of the first commit but two (the card edited, the data version raised since) is one of now's
    assert changes.facts_at("HEAD~1", memo) == then
    assert sorted(b.split(b"\n")[0] for b in parsed) == sorted(
        (repo / "catalog" / name).read_bytes().split(b"\n")[0] for name in (MIG_STATUS[0], NEW_VERSION[0]))
    assert len(parsed) == 2
    parsed.clear()
    at_head = changes.facts_at("HEAD", memo)
    assert parsed == [] and at_head == {**{k: v for k, v in now.items() if not k.startswith("sources ")},
                                        **{k: v for k, v in then.items() if k.startswith("sources ")},
                                        "cards/h200-nvl mig.status": "not-listed"}
    assert changes.facts_at("no-such-commit", memo) is None


def test_recorded_verdict_changes_are_read_not_computed(monkeypatch, tmp_path):
    """scripts/record-verdicts (changes.record) writes the newest step's verdict changes into the catalog's record;
    the changes page then lists them without computing any answer, also for an older step once a newer data
    version has come; an entry against another data version is not used."""
    from kb.catalog.compiled import compile_catalog
    from kb.questions import compute_all

    repo, git = _fixture_repo(tmp_path, monkeypatch)
    catalog = repo / "catalog"
    _edit(repo, *NEW_VERSION)
    _edit(repo, *MIG_STATUS)
    git("commit", "-qam", "two")
    data = compile_catalog(catalog)
    assert changes.compares_verdicts(data, catalog)
    version, before, found = changes.record(data, catalog, compute_all(data))
    assert (version, before) == ("2", "2026.11.1-fixture")
    computed = [("mig", {"card": "h200-nvl", "operator": op, "driver": None}, "yes", "no")
                for op in ("25.10.0", "26.3.0", "26.7.0")]
    assert found == computed
    text = (catalog / changes.RECORD).read_text(encoding="utf-8")
    assert text.startswith("# The answers whose verdict changed") and '- data_version: "2"\n' in text
    assert '    operator: "25.10.0"\n' in text  # versions quoted, as in every catalog file

    def unasked():
        raise AssertionError("recorded: no answer is computed")
    assert not changes.compares_verdicts(data, catalog)
    newer, _first = changes.history(data, catalog, unasked)
    assert newer.verdicts == computed

    # a third data version (recorded with no change): the second step keeps its recorded changes
    git("add", "-A")
    git("commit", "-qm", "the record")
    _edit(repo, "sources.yaml", 'data_version: "2"', 'data_version: "3"')
    git("commit", "-qam", "three")
    monkeypatch.setattr(changes, "_VERSIONS", {})
    data = compile_catalog(catalog)
    assert changes.record(data, catalog, compute_all(data))[1:] == ("2", [])
    third, second, _first = changes.history(data, catalog, unasked)
    assert (third.version, third.verdicts, second.version, second.verdicts) == ("3", [], "2", computed)
    text = (catalog / changes.RECORD).read_text(encoding="utf-8")
    assert [e["data_version"] for e in yaml.safe_load(text)] == ["3", "2"]

    # recorded against another data version than the one before it: computed
    (catalog / changes.RECORD).write_text(text.replace('compared_with: "2"', 'compared_with: "1"'), encoding="utf-8")
    assert changes.compares_verdicts(data, catalog)
    assert changes.history(data, catalog, lambda: compute_all(data))[0].verdicts == []


def test_a_record_that_is_no_list_of_entries_is_not_used(tmp_path):
    for text in ("", "{}\n", "- data_version: '2'\n  compared_with: '1'\n  answers: [{question: mig}]\n", ":\n"):
        (tmp_path / changes.RECORD).write_text(text, encoding="utf-8")
        assert changes.recorded(tmp_path, "2", "1") is None
    (tmp_path / changes.RECORD).write_text("- {data_version: '2', compared_with: '1', answers: []}\n")
    assert changes.recorded(tmp_path, "2", "1") == [] and changes.recorded(tmp_path, "2", "0") is None


def test_a_shallow_clone_has_no_version_history_to_show(monkeypatch, tmp_path):
    """A clone of the newest commit only (CI's default checkout): its one commit seems to set the data version it
    merely has, so the changes page would call a later version the first one, with every fact new — it says that
    no history is available instead."""
    import subprocess

    from kb.catalog.compiled import compile_catalog

    repo, git = _fixture_repo(tmp_path, monkeypatch)
    _edit(repo, *NEW_VERSION)
    git("commit", "-qam", "two")
    shallow = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True)
    assert len(changes._versions()) == 2  # the whole repository
    monkeypatch.setattr(changes, "ROOT", shallow)
    monkeypatch.setattr(changes, "_VERSIONS", {})
    data = compile_catalog(shallow / "catalog")
    assert changes._versions() is None and changes.history(data, shallow / "catalog", list) is None
    assert changes.unversioned(data, shallow / "catalog") is None

def test_a_fact_changed_without_raising_the_data_version_is_named(monkeypatch, tmp_path):
    """kb/models/source.py: the data version is "raised on every content change" — a fact changed under the data
    version already published would be listed under no version on the changes page and in the feeds."""
    from kb.catalog.compiled import compile_catalog

    repo, git = _fixture_repo(tmp_path, monkeypatch)
    catalog = repo / "catalog"
    assert changes.unversioned(compile_catalog(catalog), catalog) == []
    _edit(repo, *MIG_STATUS)
    git("commit", "-qam", "a fact, the version left")
    assert changes.unversioned(compile_catalog(catalog), catalog) == ["cards/h200-nvl mig.status"]
    _edit(repo, *NEW_VERSION)  # raised in the checkout, not committed yet
    assert changes.unversioned(compile_catalog(catalog), catalog) == []
    git("commit", "-qam", "the version raised")
    monkeypatch.setattr(changes, "_VERSIONS", {})
    assert changes.unversioned(compile_catalog(catalog), catalog) == []


def test_every_fact_changed_since_the_data_version_was_set_raised_it():
    """This checkout: no cited fact differs from the catalog at the commit that set the data version. Where one
    does, raise `data_version` in catalog/sources.yaml (CONTRIBUTING, "Catalog")."""
    from kb.catalog.compiled import catalog_dir, load_data

    changed = changes.unversioned(load_data(), catalog_dir())
    if changed is None:
        pytest.skip("no git history of catalog/sources.yaml in this copy (no git, or a shallow clone): nothing to "
                    "compare the data version with")
    assert changed[:10] == [], f"{len(changed)} facts changed under data version {load_data()['data_version']}"


def test_the_changes_page_lists_each_version_with_its_changes(tmp_path):
    from kb.catalog.compiled import load_data
    from kb.publication import Publication
    from kb.site.page import Ctx

    newer = changes.Version("2026.12.01", "2026-12-01", None, added=[("cards/x mig.profiles[3g.40gb]", "{…}"),
                                                                      ("cards/l20 pci_device_ids", '["0x26B7", "0x26BA"]')],
                            changed=[("cards/h200-nvl mig.status", "documented", "not-listed")], verdicts=[("mig", {"card": "h200-nvl", "operator": "26.7.0"}, "yes", "conditional")])
    first = changes.Version("2026.11.29", "2026-11-29", "abc", added=[("a", "1"), ("b", "2")], first=True)
    pub = Publication(repo_url=None, data_ref=None, article_url=None, publisher="E")
    page = changes.changes_page(Ctx(load_data(), "de", pub), [newer, first])
    assert "## Datenversion 2026.12.01 (1. Dezember 2026) { #v2026-12-01 }" in page
    assert "Angaben: 2 neu, 1 geändert, 0 entfernt." in page
    assert "    - L20 · PCI-Geräte-IDs: `0x26B7`, `0x26BA`\n" in page  # a list's items, not its JSON
    # the field and its values in words (issue 16: no field path, no raw value on a customer page)
    assert "H200 NVL · MIG-Status: auf NVIDIAs MIG-Liste → nicht auf NVIDIAs MIG-Liste" in page and "Antworten mit anderem Urteil: 1." in page
    assert "Kann die Karte MIG nutzen? – H200 NVL, GPU Operator 26.7.0: Ja → Bedingt" in page
    assert "Die erste veröffentlichte Datenversion, mit 2 belegten Angaben." in page
    page = changes.changes_page(Ctx(load_data(), "en", pub), None)
    assert "No version history is available for this copy" in page


@pytest.mark.parametrize("found, current, record, compared", [
    (None, "2", None, False),  # no git history
    ([("c1", "2026-11-01", "1")], "1", None, False),  # the only data version is the catalog's own
    ([("c1", "2026-11-01", "1")], "2", None, True),  # the catalog being built is a new one
    ([("c1", "2026-11-01", "1"), ("c2", "2026-11-20", "2")], "2", None, True),
    ([("c1", "2026-11-01", "1"), ("c2", "2026-11-20", "2")], "2", ("2", "1"), False),  # recorded
    ([("c1", "2026-11-01", "1")], "2", ("2", "1"), False),  # recorded before it was committed
    ([("c1", "2026-11-01", "1"), ("c2", "2026-11-20", "2")], "2", ("2", "0"), True),  # against another version
    ([("c1", "2026-11-01", "1"), ("c2", "2026-11-20", "2")], "2", ("1", "0"), True),  # an older step's
])
def test_the_build_knows_beforehand_whether_the_changes_page_asks_for_every_answer(monkeypatch, tmp_path, found,
                                                                                    current, record, compared):
    """kb/docs_hooks.py computes only the answers its pages show before mkdocs where the changes page will not
    compute verdicts (changes.compares_verdicts: no older data version, or the catalog's record has the newest
    step); history asks for every answer exactly where it said so."""
    asked = []
    monkeypatch.setattr(changes, "_versions", lambda: found)
    monkeypatch.setattr(changes, "catalog_facts", lambda folder, memo=None: {})
    monkeypatch.setattr(changes, "facts_at", lambda commit, memo: {})
    monkeypatch.setattr(changes, "_last_commit_before", lambda commit: "c0")
    monkeypatch.setattr(changes, "_extract", lambda commit, into: tmp_path)
    monkeypatch.setattr(changes, "_git", lambda *args: "c9")
    monkeypatch.setattr(changes, "_verdicts", lambda folder, answers: [])
    if record:
        (tmp_path / changes.RECORD).write_text(
            f'- {{data_version: "{record[0]}", compared_with: "{record[1]}", answers: []}}\n', encoding="utf-8")
    data = {"data_version": current}
    assert changes.compares_verdicts(data, tmp_path) is compared
    changes.history(data, tmp_path, lambda: asked.append(1) or [])  # (a stub for every other git read)
    assert bool(asked) is compared
