"""The suite keeps the compiled catalog and rules in memory from one test to the next (tests/conftest.py
`_keep_memo`) — only while no test changed them in place: such a change is an error at the end of its module's
tests (`_check_memo`), or, in a module marked `changes_memo`, dropped before the next test."""

from __future__ import annotations

from kb.catalog.compiled import load_data
from kb.engine.rules import load_rules

from conftest import _keep_memo, memo_intact


def test_an_untouched_memo_is_kept_and_handed_out_again():
    data = load_data()
    card = next(iter(data["cards"]))
    assert _keep_memo()
    assert load_data()["cards"][card] is data["cards"][card]


def test_a_card_changed_in_place_does_not_reach_the_next_test():
    data = load_data()
    card = next(iter(data["cards"]))
    name = data["cards"][card]["name"]
    data["cards"][card]["name"] = "changed in place by a test"
    assert not memo_intact()
    assert not _keep_memo()  # what the next test's setup does
    again = load_data()
    assert again["cards"][card]["name"] == name
    assert again["cards"][card] is not data["cards"][card]
    assert _keep_memo()


def test_a_rule_changed_in_place_does_not_reach_the_next_test():
    rules = load_rules()
    question = sorted(rules)[0]
    rules[question][0]["when"] = []
    assert not _keep_memo()
    assert load_rules()[question][0]["when"] != []


def test_a_value_of_the_head_changed_in_place_does_not_reach_the_next_test():
    data = load_data()
    path = next(iter(data["files"]))
    del data["files"][path]
    assert not _keep_memo()
    assert path in load_data()["files"]


def test_a_new_top_level_dict_is_the_tests_own():
    """What load_data() builds for each call (the dict of cards) may be changed: it is not kept."""
    data = load_data()
    card = next(iter(data["cards"]))
    del data["cards"][card]
    assert _keep_memo()
    assert card in load_data()["cards"]


def test_the_kept_answer_matrix_is_each_callers_own_and_kept_per_catalog():
    """tests/realmatrix.py: a caller that changes its answers changes nothing a later caller gets; another catalog
    gets its own matrix."""
    import realmatrix

    from conftest import FIXTURES

    fixture = load_data(FIXTURES / "catalog")
    first = realmatrix.matrix(fixture)
    pristine = [dict(a, reasons=[dict(r) for r in a["reasons"]]) for a in first]
    first[0]["verdict"] = "changed"
    first[0]["reasons"][0]["rule"] = "CHANGED"
    del first[1:]
    again = realmatrix.matrix(fixture)
    assert again is not first and again == pristine
    assert realmatrix._key(fixture) != realmatrix._key(load_data())  # the real catalog's matrix: its own entry


def test_the_kept_answer_matrix_is_keyed_by_the_questions_asked(monkeypatch):
    """tests/realmatrix.py: a test that narrows the questions asked (kb.questions.questions patched, as the drift
    fixture catalog does) gets a matrix of its own, not the kept one of every question."""
    import realmatrix

    from conftest import FIXTURES

    fixture = load_data(FIXTURES / "catalog")
    every = realmatrix.matrix(fixture)
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("mig",))
    assert {a["question"] for a in realmatrix.matrix(fixture)} == {"mig"} != {a["question"] for a in every}


def test_the_containers_copy_shares_the_leaves_and_sees_every_change():
    """conftest._containers: what memo_intact compares a part with once it was found equal to its file."""
    from conftest import _containers

    value = {"name": "L4", "mig": {"profiles": ["1g.5gb", 7, 1.5, None, True]}, "pair": ("a", {"b": 1})}
    copy = _containers(value)
    assert copy == value and copy["name"] is value["name"]
    assert copy["mig"] is not value["mig"] and copy["mig"]["profiles"] is not value["mig"]["profiles"]
    assert copy["pair"][1] is not value["pair"][1]
    value["mig"]["profiles"].append("2g.10gb")
    assert copy != value
    value["mig"]["profiles"].pop()
    value["pair"][1]["b"] = 2  # inside a tuple
    assert copy != value
    assert _containers({"odd": {1, 2}}) is None  # a kind of value it cannot copy: compared with the file each time


def test_the_real_answer_modules_exist_and_run_on_one_worker():
    """tests/conftest.py REAL_ANSWERS and PARSED_PAGES: one xdist scope for each set (a file renamed would drop out
    silently)."""
    from conftest import PARSED_PAGES, REAL_ANSWERS, REPO, _worker_group

    assert sorted(name for name in REAL_ANSWERS | PARSED_PAGES if not (REPO / "tests" / name).is_file()) == []
    assert {_worker_group(f"tests/{name}") for name in REAL_ANSWERS} == {"real-answers"}
    assert {_worker_group(f"tests/{name}") for name in PARSED_PAGES} == {"parsed-pages"}
    assert _worker_group("tests/test_words.py") is None


def test_the_tests_taking_turns_on_a_kept_tab_run_on_one_worker():
    """tests/conftest.py KEPT_TAB_TESTS: every test of test_site_browser asking for the kept ask-page tab (fixture
    ask_page) is in one xdist scope with the others asking for it, and no other test is (a test renamed or added
    would otherwise make its worker open the tab again, or drag an unrelated test along)."""
    import inspect

    import test_site_browser
    from conftest import KEPT_TAB_TESTS, _test_group, _worker_group

    (module, (group, names)), = KEPT_TAB_TESTS.items()
    tests = {name: inspect.signature(f).parameters for name, f in vars(test_site_browser).items()
             if name.startswith("test_") and callable(f)}
    assert names <= set(tests), sorted(names - set(tests))
    assert {name for name, params in tests.items() if "ask_page" in params} == names
    for name in tests:
        assert _test_group(f"{module}::{name}[x]") == (group if name in names else None), name
    assert _test_group("tests/test_check_rules.py::test_x") == _worker_group("tests/test_check_rules.py")


def test_what_a_test_leaves_in_the_shared_folder_is_removed_after_it(tmp_path):
    """conftest._only_compiled (after every test): only compiled data stays, also once its names are known and a
    test leaves a file or folder of its own there."""
    from conftest import _only_compiled

    for name in ("catalog-1.json", "rules-2.json", "index-3.json"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "drift-state.json").write_text("{}")
    _only_compiled(tmp_path)
    _only_compiled(tmp_path)  # nothing left to remove: the names are known
    (tmp_path / "http").mkdir()
    (tmp_path / "http" / "body").write_text("x")
    (tmp_path / "traceback.txt").write_text("x")
    _only_compiled(tmp_path)
    (tmp_path / "drift-state.json").write_text("{}")  # left again by the next test
    _only_compiled(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog-1.json", "index-3.json", "rules-2.json"]


class _Item:
    """What conftest._check_memo reads of a test item."""

    def __init__(self, name: str, *markers: str):
        self.nodeid, self.markers = f"tests/test_x.py::{name}", markers

    def get_closest_marker(self, name: str):
        return name if name in self.markers else None


def test_a_change_in_place_is_an_error_at_the_end_of_its_module_naming_its_tests(monkeypatch):
    """conftest._check_memo (after each test, its fixtures torn down): within a module nothing is compared; at the
    module's end a change in place is an error naming the tests since the last check, and the memo is dropped."""
    import conftest
    from kb.catalog import compiled

    monkeypatch.setattr(conftest, "_UNCHECKED", [])
    data = load_data()
    card = next(iter(data["cards"]))
    assert conftest._check_memo(_Item("test_a"), module_end=False) is None
    data["cards"][card]["name"] = "changed in place by a test"
    assert conftest._check_memo(_Item("test_b"), module_end=False) is None  # not compared within the module
    assert compiled._MEMO
    problem = conftest._check_memo(_Item("test_c"), module_end=True)
    assert problem is not None and "changed in place" in problem
    assert "tests/test_x.py::test_a, tests/test_x.py::test_b, tests/test_x.py::test_c" in problem
    assert load_data()["cards"][card]["name"] != "changed in place by a test"  # dropped: read from its file again
    assert conftest._check_memo(_Item("test_d"), module_end=True) is None
    assert conftest._UNCHECKED == []


def test_rules_read_from_a_cache_folder_of_a_tests_own_are_dropped_not_called_changed(monkeypatch, tmp_path):
    """A test that reads the repository's rules through a cache folder of its own (GPUKB_CACHE_DIR in tmp_path,
    as a full-disk or site-build test does) leaves a build the shared folder has no file of: the module's check
    drops it (the next test reads the files again) instead of reporting a change in place."""
    import conftest
    from kb.catalog import compiled

    monkeypatch.setattr(conftest, "_UNCHECKED", [])
    monkeypatch.setattr(conftest, "_PRISTINE", {})
    monkeypatch.setattr(conftest, "_CHECKED", {})
    compiled.forget()
    with monkeypatch.context() as mp:
        mp.setenv("GPUKB_CACHE_DIR", str(tmp_path / "own"))
        mp.setattr(compiled, "code_key", lambda: "a-code-key-only-this-test-compiled")  # nothing shared has it
        load_rules()
        assert compiled._MEMO
    assert conftest._check_memo(_Item("test_a"), module_end=True) is None
    assert not compiled._MEMO
    rules = load_rules()  # read again from the shared folder's files, and kept from here on
    assert rules and conftest._check_memo(_Item("test_b"), module_end=True) is None and compiled._MEMO


def test_a_module_marked_changes_memo_is_checked_after_each_test_and_its_change_dropped(monkeypatch):
    import conftest

    monkeypatch.setattr(conftest, "_UNCHECKED", [])
    rules = load_rules()
    question = sorted(rules)[0]
    rules[question][0]["when"] = []
    assert conftest._check_memo(_Item("test_a", "changes_memo"), module_end=False) is None
    assert load_rules()[question][0]["when"] != []
    load_data()["files"].clear()  # the head's own dict
    assert conftest._check_memo(_Item("test_b", "private_cache"), module_end=True) is None  # forgets by itself
    assert conftest._UNCHECKED == []
    assert not conftest._keep_memo()


def test_a_shared_folder_listed_clean_is_listed_again_only_once_its_mtime_moved(tmp_path, monkeypatch):
    """conftest._only_compiled skips the listing where the folder's mtime is the one it had when last listed clean
    (and that mtime was not racily recent then); anything left there afterwards moves the mtime and is removed."""
    import os

    import conftest

    monkeypatch.setattr(conftest, "_CLEAN", [None])
    listed = []
    real_listdir = os.listdir
    monkeypatch.setattr(conftest.os, "listdir", lambda p: listed.append(p) or real_listdir(p))
    (tmp_path / "catalog-1.json").write_text("{}")
    conftest._only_compiled(tmp_path)  # learns the name
    conftest._only_compiled(tmp_path)  # the mtime is racily recent: listed again
    assert len(listed) == 2 and conftest._CLEAN == [None]
    os.utime(tmp_path, ns=(10**18, 10**18))  # an old mtime: listed once more, then known clean
    conftest._only_compiled(tmp_path)
    conftest._only_compiled(tmp_path)
    assert len(listed) == 3
    (tmp_path / "drift-state.json").write_text("{}")  # left by a test: the mtime moves
    conftest._only_compiled(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog-1.json"]
