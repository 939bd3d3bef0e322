"""A card's first release on the GPU Operator's support list (`operator_support.since`): imported from the history
of the list's page (kb/importer/history.py), replayed here against a clone of NVIDIA/cloud-native-docs ($GPUKB_MIRROR
or ../.mirror; skipped, saying so, without it), and what an answer for a release before it says."""

from __future__ import annotations

import copy

import pytest

from kb import versions
from kb.catalog.compiled import load_data
from kb.importer import history
from kb.lint.snapshots import normalise
from kb.questions import Asker, resolve

from conftest import MIRROR, REPO

DOCS = MIRROR / "NVIDIA+cloud-native-docs" / "repo"
OPERATOR = MIRROR / "NVIDIA+gpu-operator" / "repo"


@pytest.fixture(scope="module")
def data():
    return load_data(REPO / "catalog")


def docs() -> history.DocsRepository:
    if not DOCS.is_dir():
        pytest.skip(f"no mirror of NVIDIA/cloud-native-docs at {DOCS}: fetch it (search tool) to replay the history "
                    "of platform-support.rst")
    return history.DocsRepository(DOCS)


def _since(card: dict):
    return card["operator_support"].get("since")


def _copy(fact: dict | None) -> dict | None:
    """A fact of the catalog to change (the catalog's own dicts are shared: kept in memory for the next test)."""
    return dict(fact) if fact else fact


def test_every_since_is_the_first_version_of_the_page_naming_the_card(data):
    """Replaying every version of the page gives each listed card's committed `since` exactly (and none where
    the card is listed in every release the catalog knows)."""
    found = history.first_listed(docs().git_dir, data)
    listed = {cid for cid, c in data["cards"].items() if c["operator_support"]["listed"]["value"]}
    assert set(found) == listed
    committed = {cid: _copy(_since(data["cards"][cid])) for cid in found}
    for fact in committed.values():
        if fact and not fact.get("disputed_by"):
            fact.pop("disputed_by", None)
    assert committed == found
    with_since = sorted(cid for cid, fact in found.items() if fact)
    assert len(with_since) >= 19
    assert {cid: found[cid]["value"] for cid in ("h200-nvl", "h200", "l20", "rtx-pro-6000-blackwell-server",
                                                  "rtx-pro-4500-blackwell-server", "gb200", "quadro-rtx-8000")} == {
        "h200-nvl": "24.6.1", "h200": "24.6.0", "l20": "24.9.2", "rtx-pro-6000-blackwell-server": "25.3.1",
        "rtx-pro-4500-blackwell-server": "26.3.0", "gb200": "25.3.0", "quadro-rtx-8000": "24.9.0"}


def test_every_kubevirt_vgpu_since_is_the_first_release_naming_or_configuring_it(data):
    """The first version of the page whose KubeVirt vGPU device list names the card (the list appears with
    v24.3.0), or for a card whose support follows the operator's code, the first release tag with the cited line."""
    found = history.first_in_vgpu_list(docs().git_dir, data)
    if not OPERATOR.is_dir():
        pytest.skip(f"no mirror of NVIDIA/gpu-operator at {OPERATOR}: fetch it (search tool) to read the code at each tag")
    found.update(history.first_in_code(OPERATOR, data))
    supported = {cid for cid, c in data["cards"].items()
                 if (c["operator_support"].get("kubevirt_vgpu") or {}).get("value") is True}
    assert set(found) == supported
    committed = {cid: _copy(data["cards"][cid]["operator_support"].get("kubevirt_vgpu_since")) for cid in found}
    for fact in committed.values():
        if fact and not fact.get("disputed_by"):
            fact.pop("disputed_by", None)
    assert committed == found
    assert {cid: found[cid]["value"] for cid in ("a10", "a100-sxm4-80gb", "h200-nvl", "l40s",
                                                  "rtx-pro-6000-blackwell-server")} == {
        "a10": "24.3.0", "a100-sxm4-80gb": "24.9.0", "h200-nvl": "25.3.0", "l40s": "24.6.0",
        "rtx-pro-6000-blackwell-server": "25.3.3"}
    assert all(found.values())  # no card's vGPU support reaches back to 23.9.0


def _imported_cites(card: dict):
    support = card["operator_support"]
    for key in ("since", "kubevirt_vgpu_since"):
        yield from ((support.get(key) or {}).get("cite", []))


def test_every_quote_of_a_since_stands_at_its_commit_and_line(data):
    """The history source has no local snapshot: each quote is checked in the file at the commit (or release tag)
    and line cited (a table row may wrap over the lines below)."""
    repos = {history.HISTORY: docs(), "gpu-operator-code": history.DocsRepository(OPERATOR)}
    checked = 0
    for cid, card in data["cards"].items():
        for cite in _imported_cites(card):
            assert cite["source"] in repos, cid
            repo = repos[cite["source"]]
            if not repo.git_dir.is_dir():
                continue
            commit, _, rest = cite["page"].removeprefix("blob/").partition("/")
            path, _, line = rest.partition("#L")
            lines = repo.show(commit, path).splitlines()
            window = " ".join(lines[int(line) - 1:int(line) + 3])
            assert normalise(cite["quote"]) in normalise(window.replace("|", " ")), (cid, cite)
            checked += 1
    assert checked >= 38 + 36


def test_a_file_at_a_full_hash_is_read_from_git_once_per_process(tmp_path, monkeypatch):
    """An import walks the page's history twice (first_listed, first_in_vgpu_list): a file at a commit named by its
    full hash is shown by git once; at a tag (it can move) and where git failed, it is asked again."""
    import subprocess

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "page.rst").write_text("one\n", encoding="utf-8")
    git("add", "page.rst")
    git("commit", "-q", "-m", "one")
    git("tag", "v1")
    repo = history.DocsRepository(tmp_path / ".git")
    (sha, _day), = repo.commits("page.rst")
    asked = []
    real = repo._git
    monkeypatch.setattr(repo, "_git", lambda *args: asked.append(args) or real(*args))
    assert [repo.show(sha, "page.rst") for _ in range(3)] == ["one\n"] * 3
    assert history.DocsRepository(tmp_path / ".git").show(sha, "page.rst") == "one\n"  # another object, same clone
    assert asked == [("show", f"{sha}:page.rst")]
    assert repo.show(sha, "gone.rst") == repo.show(sha, "gone.rst") == ""
    assert repo.show("v1", "page.rst") == repo.show("v1", "page.rst") == "one\n"
    assert asked[1:] == [("show", f"{sha}:gone.rst")] * 2 + [("show", "v1:page.rst")] * 2


def test_a_release_older_than_the_page_knows_nothing_before_the_repository(tmp_path):
    """Without repo.toml (before June 2023) a version documents no known release: the card is listed in all."""
    assert history.docs_version("[other]\nversion = \"1.0\"\n") is None
    config = '[repo_docs.projects.gpu-operator]\nversion = "26.3"  # x\nsource_substitutions = { version = "v26.3.0" }\n'
    assert history.docs_version(config) == ("26.3.0", 3, 'version = "v26.3.0"')
    assert history.docs_version('[repo_docs.projects.gpu-operator]\nversion = "25.10"\n') == ("25.10.0", 2, 'version = "25.10"')


def test_set_since_replaces_only_the_since_block():
    text = ("id: x\noperator_support:\n  listed:\n    value: true\n  listed_as: NVIDIA X\n  since: \"1.0.0\"\n"
            "  kubevirt_vgpu:\n    value: false\nvendor:\n  ships: true\n")
    fact = {"value": "24.9.0", "cite": [{"source": history.HISTORY, "quote": "NVIDIA X"}]}
    out = history.set_since(text, fact)
    assert out == ("id: x\noperator_support:\n  listed:\n    value: true\n  listed_as: NVIDIA X\n  since:\n"
                   "    value: \"24.9.0\"\n    cite:\n    - source: gpu-operator-platform-support-history\n"
                   "      quote: NVIDIA X\n  kubevirt_vgpu:\n    value: false\nvendor:\n  ships: true\n")
    assert history.set_since(out, None) == text.replace("  since: \"1.0.0\"\n", "")
    assert history.set_since(history.set_since(text, fact), fact) == out


@pytest.fixture(scope="module")
def ask(data):
    return _asker(data)


def _asker(data):
    asker = Asker(data)

    def answer(question, **raw):
        return asker.answer(question, resolve(question, asker.index, **raw))

    return answer


def _before(data, release: str) -> str | None:
    older = [r["version"] for r in data["releases"]["gpu-operator"]["releases"]
             if versions.key(r["version"]) < versions.key(release)]
    return max(older, key=versions.key, default=None)


def test_a_release_before_since_answers_not_listed_never_no(data, ask):
    """For the release before a card's `since`, `methods` says the list does not name the card (METHODS-060,
    conditional), and `mig` (MIG cards) MIG-007; at `since` neither fires. Compared with the same release and a
    card listed in every release, no method turns into "no": not being listed is no documented no. (MIG may be
    "no" where the release's MIG Manager has no layout for the card's device id: MIG-015, what the code does.)"""
    unlisted = copy.deepcopy(data)
    for card in unlisted["cards"].values():
        card["operator_support"].pop("since", None)
    ask_listed = _asker(unlisted)
    cards = [cid for cid, c in data["cards"].items() if _since(c)]
    assert len(cards) >= 19
    for cid in cards:
        since = _since(data["cards"][cid])["value"]
        before = _before(data, since)
        if before is None:
            continue
        old, new = ask("methods", card=cid, operator=before), ask("methods", card=cid, operator=since)
        assert "METHODS-060" in {r["rule"] for r in old["reasons"]}, (cid, before)
        assert "METHODS-060" not in {r["rule"] for r in new["reasons"]}, (cid, since)
        listed = ask_listed("methods", card=cid, operator=before)
        assert "METHODS-060" not in {r["rule"] for r in listed["reasons"]}, (cid, before)
        old_mig = ask("mig", card=cid, operator=before)
        by_code = "MIG-015" in {r["rule"] for r in old_mig["reasons"]}
        for method, verdict in old["details"]["methods"].items():
            assert verdict != "no" or listed["details"]["methods"][method] == "no" or (method == "mig" and by_code), \
                (cid, method, before)
        if data["cards"][cid]["mig"]["status"]["value"] != "not-listed":
            assert "MIG-007" in {r["rule"] for r in old_mig["reasons"]}, (cid, before)
            assert "MIG-007" not in {r["rule"] for r in ask("mig", card=cid, operator=since)["reasons"]}, cid
            assert old_mig["verdict"] != "no" or by_code or \
                ask_listed("mig", card=cid, operator=before)["verdict"] == "no", cid


def test_the_answer_before_since_names_the_release_and_cites_the_first_version(ask):
    old = ask("methods", card="L20", operator="24.9.1")
    reason = next(r for r in old["reasons"] if r["rule"] == "METHODS-060")
    assert reason["text"]["en"].startswith("The support list of GPU Operator 24.9.1 does not name L20")
    assert old["verdict"] in ("conditional", "unconfirmed")


def test_a_release_before_kubevirt_vgpu_since_is_unconfirmed_then_supported(data, ask):
    """vGPU for a release before the card's KubeVirt vGPU support: unconfirmed (METHODS-046, naming the first
    release), never "no" and never the supported answer (METHODS-040); from `kubevirt_vgpu_since` on: METHODS-040."""
    cards = [cid for cid, c in data["cards"].items() if c["operator_support"].get("kubevirt_vgpu_since")]
    assert len(cards) >= 19
    for cid in cards:
        since = data["cards"][cid]["operator_support"]["kubevirt_vgpu_since"]["value"]
        old, new = ask("methods", card=cid, operator=_before(data, since)), ask("methods", card=cid, operator=since)
        rules_old, rules_new = {r["rule"] for r in old["reasons"]}, {r["rule"] for r in new["reasons"]}
        assert "METHODS-046" in rules_old and "METHODS-040" not in rules_old, cid
        assert old["details"]["methods"]["vgpu"] == "unconfirmed", cid
        assert "METHODS-040" in rules_new and "METHODS-046" not in rules_new, cid
    old = ask("methods", card="L40S", operator="24.3.0")
    text = next(r["text"] for r in old["reasons"] if r["rule"] == "METHODS-046")
    assert text["en"].startswith("vGPU: GPU Operator 24.3.0 does not yet support L40S for KubeVirt")
    assert "GPU Operator 24.6.0 is the first release that does" in text["en"]
    assert "der GPU Operator 24.6.0 ist das erste Release" in text["de"]
