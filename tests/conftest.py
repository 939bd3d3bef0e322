"""Shared test setup: paths to fixtures and ../shared; a home of its own; a cache folder per test.

The suite keeps to itself: before anything runs, HOME and the XDG folders point into a temporary folder
(nothing is written to the user's ~/.cache or ~/.config — Chromium's profile included), the locale is
neutral (C.UTF-8: English by default), and every test's GPUKB_CACHE_DIR holds the compiled data earlier tests
built and nothing else (the cache is keyed by content: sharing it is safe) — so a catalog is compiled once per
session, not once per test; what an earlier test loaded of the repository's catalog and rules stays in memory
while nobody changed it in place (`_keep_memo`: compared with its files at the end of each test module — a change
in place fails the run there — or after each test of a module marked `changes_memo`). The folder is the process's
one folder of compiled data; what else a test leaves in
it (drift state, HTTP cache, tracebacks, generated pages) is removed after the test. A module marked
`pytest.mark.private_cache` (its tests look into the folder: count, damage or delete cache files) gets a folder
of its own per test instead, starting with hard links to that compiled data — such a test replaces a file it
damages (unlink, then write), never writes into it: the link's inode is the shared file. It works with `pytest`
from the repository root and from anywhere else.

Speed (issue 9: the suite runs in about a minute on two cores): pytest-xdist runs two workers (`-n 2` in
pyproject.toml; `-n 0` for one process); the site is built once per run (fixture `site_built`, shared by the
workers), in the background from the end of collection on, and the tests that use it run last; the tests of a
module with a module-scoped fixture run on one worker (pytest_xdist_make_scheduler), and so do all modules of
REAL_ANSWERS together (the real answer matrix once per run); the workers split the assertion rewriting of the test
modules (pytest_collection) and no pytest plugin is autoloaded (pyproject.toml); grids are sampled
(tests/sampling.py) and hypothesis tries a modest number of examples — GPUKB_FULL=1 walks every grid and tries
ten times as many.
"""

from __future__ import annotations

import functools
import gc
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from sampling import FULL

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SHARED = REPO.parent / "shared"
SOURCES = SHARED / "sources"
#: fetched GitHub repositories (the search tool's `fetch`): <owner>+<name>/repo, a bare git directory
MIRROR = Path(os.environ.get("GPUKB_MIRROR") or REPO.parent / ".mirror")

#: The garbage collector's young generation collected every 100,000 net allocations instead of 700 (and the older
#: ones more rarely): the tests allocate millions of short-lived containers (answers, parsed pages, YAML nodes) that
#: reference counting frees anyway, and each collection also walks what is still young. Eight heavy files in one
#: process (check and engine rules, engine matrix, drift history, ask render, release parts, fastinline, fasthtml):
#: the collector's CPU 2.18 → 0.70–0.92 s of ≈ 25 s (gc.callbacks), max RSS unchanged (≈ 347 MB). Set here, so
#: in every xdist worker (not in the subprocesses the tests start: the site build, the CLI runs keep Python's own).
gc.set_threshold(100_000, 50, 100)

_SANDBOX = Path(tempfile.mkdtemp(prefix="gpukb-tests-"))
_REAL_HOME = os.environ.get("HOME", "")
for _var, _sub in (("HOME", "home"), ("XDG_CACHE_HOME", "home/.cache"), ("XDG_CONFIG_HOME", "home/.config"),
                   ("XDG_DATA_HOME", "home/.local/share"), ("XDG_STATE_HOME", "home/.local/state")):
    (_SANDBOX / _sub).mkdir(parents=True, exist_ok=True)
    os.environ[_var] = str(_SANDBOX / _sub)
for _var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "GPUKB_CATALOG", "GPUKB_RULES", "GPUKB_DEBUG"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"
_WARM = _SANDBOX / "compiled"  # compiled data shared by the tests (hard links)
_WARM.mkdir()
_OUTSIDE = _SANDBOX / "cache-outside-tests"  # collection time, session fixtures: its compiled data is linked
_OUTSIDE.mkdir()  # into _WARM (_from_outside), so a catalog a module compiled at import is not compiled again
os.environ["GPUKB_CACHE_DIR"] = str(_OUTSIDE)


settings.register_profile("gpukb", max_examples=400 if FULL else 40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gpukb")


def pytest_unconfigure(config):
    import sitebuild

    sitebuild.stop()
    shutil.rmtree(_SANDBOX, ignore_errors=True)


def _shared(name: str) -> bool:
    """Compiled data and index entries (keyed by content and path): what tests may share."""
    return name.endswith(".json") and name.startswith(("catalog-", "rules-", "index-"))


def _link_all(source: Path, target: Path) -> None:
    for entry in os.scandir(source):
        if _shared(entry.name) and entry.is_file(follow_symlinks=False) and not (target / entry.name).exists():
            try:
                os.link(entry.path, target / entry.name)
            except OSError:
                shutil.copy2(entry.path, target / entry.name)


_OUTSIDE_SEEN: list = [None]


def _from_outside() -> None:
    """Link what was compiled outside the tests (at collection, by session fixtures) into _WARM — once per change
    of that folder (one stat a test): the test's memo, built from it, then finds its files (memo_intact)."""
    stamp = os.stat(_OUTSIDE).st_mtime_ns
    if stamp != _OUTSIDE_SEEN[0]:
        _OUTSIDE_SEEN[0] = stamp
        _link_all(_OUTSIDE, _WARM)


#: names found in the shared folder that are compiled data (_shared): after most tests the folder holds only those
_KNOWN_SHARED: set = set()


#: (folder, its mtime) when last listed holding only compiled data, the mtime then older than RACY_LISTING_NS
_CLEAN: list = [None]
#: a folder changed this recently when listed may change again within the same tick of the file system's clock
#: (coarse: a few ms) without its mtime moving: it is listed again next time
RACY_LISTING_NS = 50_000_000


def _only_compiled(folder: Path) -> None:
    """Remove what is not compiled data from the shared folder (what a test left for itself). After most tests it
    holds only names already seen to be compiled data: one listing of ~200–300 names, not a check of each entry
    (≈ 0.25 instead of 0.85 ms a test) — and where the folder's mtime is the one it had when last listed clean (an
    entry added, removed or renamed moves it), not even that: one stat (the listing was ~0.15–0.4 ms a test)."""
    stamp = os.stat(folder).st_mtime_ns
    if _CLEAN[0] == (str(folder), stamp):
        return
    if _KNOWN_SHARED.issuperset(os.listdir(folder)):
        if time.time_ns() - stamp > RACY_LISTING_NS:
            _CLEAN[0] = (str(folder), stamp)
        return
    for entry in os.scandir(folder):
        if _shared(entry.name):
            _KNOWN_SHARED.add(entry.name)
        else:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass


#: (kind, key, part) → that compiled part as its file in the shared folder holds it (read once per process)
_PRISTINE: dict = {}
#: (kind, key, part) → (the memo's object found equal to its file, a copy of its containers sharing its leaves)
_CHECKED: dict = {}
_LEAVES = (str, int, float, bool, type(None))


def _containers(value):
    """A copy of the dicts, lists and tuples of `value` whose leaves (text, numbers, None: immutable) are the very
    same objects; None where `value` holds anything else. Compared with `==`, each leaf is then found equal by
    identity without being read: only the containers are walked (a changed, added or removed value still
    differs)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[k] = v if type(v) in _LEAVES else _containers(v)
            if out[k] is None and v is not None:
                return None
        return out
    if isinstance(value, (list, tuple)):
        out = [v if type(v) in _LEAVES else _containers(v) for v in value]
        if any(o is None and v is not None for o, v in zip(out, value)):
            return None
        return out if isinstance(value, list) else tuple(out)
    return value if type(value) in _LEAVES else None


def memo_intact() -> bool:
    """Whether every build kb.catalog.compiled keeps in memory still holds what its files hold — no test changed
    the dicts `load_data()` / `load_rules()` hand out in place. Then the next test may reuse them (cheaper than
    reading the compiled catalog again: ≈ 18 ms, and the memos keyed by the data's identity stay warm). A part is
    compared with its file the first time it is seen, then with a copy of its containers made at that moment
    (_containers: ≈ 2–4 ms less per test than reading every text again, over ~2,400 tests)."""
    from kb.catalog import compiled

    for build in list(compiled._MEMO.values()):
        for part, value in ((None, build.head), *build.loaded.items()):
            known = (build.kind, build.key, part)
            checked = _CHECKED.get(known)
            if checked is not None and checked[0] is value:
                if checked[1] != value:
                    return False
                continue
            if known not in _PRISTINE:
                stored = compiled._read_stored(build.kind, build.key, part)  # (GPUKB_CACHE_DIR is _WARM here)
                if stored is None:
                    return False
                _PRISTINE[known] = stored["data"]
            if _PRISTINE[known] != value:
                return False
            copy = _containers(value)
            if copy is not None:
                _CHECKED[known] = (value, copy)
    return True


def _drop_foreign_builds() -> None:
    """Forget the memo's builds of files outside the repository (a test's own catalog in its tmp_path is not asked
    again; only the repository's builds are kept and checked)."""
    from kb.catalog import compiled

    inside = f"{REPO}{os.sep}"
    for memo_key in [k for k in compiled._MEMO if not k[0].partition(":")[2].startswith(inside)]:
        del compiled._MEMO[memo_key]


def _drop_unverifiable_builds() -> None:
    """Forget the memo's builds whose compiled files the shared folder lacks: a test that read the repository's
    catalog or rules from a cache folder of its own (a build's, a full disk's) leaves a build memo_intact cannot
    compare with its file — not a change in place, but nothing to vouch for it either."""
    from kb.catalog import compiled

    for memo_key, build in list(compiled._MEMO.items()):
        for part in (None, *build.loaded):
            known = (build.kind, build.key, part)
            if known not in _PRISTINE and compiled._read_stored(build.kind, build.key, part) is None:
                del compiled._MEMO[memo_key]
                break


def _keep_memo() -> bool:
    """Keep kb.catalog.compiled's in-process memo into the next test (called where GPUKB_CACHE_DIR is the shared
    folder and every fixture of the previous test is torn down, monkeypatch's undo included): only the builds of
    files in the repository (a test's own catalog in its tmp_path is not asked again), and only while they hold
    what their files hold — after a test that changed them in place the next test starts from the files, as a new
    process would (tests/test_suite_memo.py)."""
    from kb.catalog import compiled

    _drop_foreign_builds()
    _drop_unverifiable_builds()
    if memo_intact():
        return True
    compiled.forget()
    return False


@pytest.fixture(autouse=True)
def _private_cache(request, tmp_path_factory, monkeypatch):
    """The test's GPUKB_CACHE_DIR: the compiled data of earlier tests (see the module docstring). The compiled
    catalog and rules an earlier test loaded stay in memory while unchanged (_keep_memo); a module marked
    private_cache starts from its files (kb.catalog.compiled.forget(): its tests count what a lookup reads)."""
    from kb.catalog import compiled

    private = request.node.get_closest_marker("private_cache") is not None
    if private:  # hard links: ~10 µs a file, the folder holds hundreds — only for the tests that need it
        cache = tmp_path_factory.mktemp("gpukb-cache")
        _link_all(_WARM, cache)
    else:
        cache = _WARM
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(cache))
    if private:
        compiled.forget()
    else:
        _from_outside()
        _drop_foreign_builds()
    yield cache
    if private:
        compiled.forget()
    else:
        _only_compiled(_WARM)


@pytest.fixture
def drift_catalog(tmp_path, monkeypatch):
    """The drift fixture catalog (tests/fixtures/drift/catalog plus the real platform-support.yaml) in use."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "drift" / "catalog", root)
    shutil.copy(REPO / "catalog" / "platform-support.yaml", root / "platform-support.yaml")
    monkeypatch.setenv("GPUKB_CATALOG", str(root))
    # the fixture catalog has cards, not every method: only the MIG question's rules resolve against it
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("mig",))
    return root


def need_sources() -> Path:
    """../shared/sources, or skip the test saying why."""
    if not SOURCES.is_dir():
        pytest.skip(f"../shared/sources not found at {SOURCES}: the real NVIDIA snapshots are needed for this test")
    return SOURCES


def need_corpus() -> Path:
    """../shared/corpus/manifests (the real public manifests), or skip the test saying why."""
    corpus = SHARED / "corpus" / "manifests"
    if not corpus.is_dir():
        pytest.skip(f"../shared/corpus not found at {corpus}: the real manifests are needed for this test")
    return corpus


def upstream(repo: str, commit: str, path: str, dest: Path) -> Path:
    """`path` (a file or a folder) of GitHub repository `repo` at `commit`, written below `dest` with its path kept,
    from the fetched mirror — nothing fetched is committed to this repository. Skips, saying why, without it."""
    git_dir = MIRROR / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        pytest.skip(f"no mirror of {repo} at {git_dir}: fetch it (search tool) to check its {path}@{commit[:10]}")
    tar = subprocess.run(["git", "-C", str(git_dir), "archive", "--format=tar", commit, "--", path],
                         capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        if hasattr(tarfile, "data_filter"):  # Python ≥ 3.11.4: no links or paths out of dest
            archive.extractall(dest, filter="data")
        else:  # git archive of a tree writes plain files below `path`
            archive.extractall(dest)
    return dest / path


@pytest.fixture
def old_platform(tmp_path):
    """An offline folder whose only platform-support snapshot is the page of 2025-10-27."""
    folder = tmp_path / "offline"
    (folder / "cloud-native-docs").mkdir(parents=True)
    shutil.copy(need_sources() / "cloud-native-docs/platform-support@2025-10-27.rst",
                folder / "cloud-native-docs/platform-support@2025-10-27.rst")
    return folder


@functools.lru_cache(maxsize=None)
def _module_text(module: str) -> str:
    try:
        return (REPO / module).read_text(encoding="utf-8")
    except OSError:
        return ""


def _uses_site(item) -> bool:
    """Whether a test uses the site's session fixtures (tests/site_fixtures.py; `page` and `phone` need them)."""
    return bool({"site_built", "site_server", "chromium"} & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    """The modules with site tests last (each whole): the site builds in the background meanwhile (below). Before
    the others, the modules that run on one worker (_worker_group): big pieces first, the small ones balance the
    workers at the end. Stable: every worker gets the same order."""
    site = {item.nodeid.split("::", 1)[0] for item in items if _uses_site(item)}

    def order(item):
        return item.nodeid.split("::", 1)[0] in site, _test_group(item.nodeid) is None

    items.sort(key=order)


def pytest_collection(session):
    """Each xdist worker collects every test module, and pytest rewrites a module's asserts at each import (≈ 2.5 s
    CPU for the suite's modules; never cached where PYTHONDONTWRITEBYTECODE is set, and on a clean clone both
    workers rewrite at once). Before collecting, worker k of n rewrites every n-th module (from the k-th) and stores
    it as pytest would (its hash-checked pyc in __pycache__, as `make test` compiles kb): each worker then finds the
    other's half done. Only a speed-up: a module whose pyc is missing or stale when collected is rewritten as
    before, and a pytest without these internals skips it."""
    worker = getattr(session.config, "workerinput", None)
    if worker is None or session.config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key
    except ImportError:
        return
    files = []
    for arg in session.config.args:
        path = Path(arg.split("::")[0])
        files += sorted(path.rglob("test_*.py")) if path.is_dir() else [path] if path.name.startswith("test_") else []
    state = session.config.stash[assertstate_key]
    index = int(str(worker.get("workerid", "gw0"))[2:] or 0)
    for path in files[index::max(1, int(worker.get("workercount", 1)))]:
        pyc = path.parent / "__pycache__" / (path.name[:-3] + PYC_TAIL)
        try:
            pyc.parent.mkdir(exist_ok=True)
            if _read_pyc(path, pyc, state.trace) is None:
                source_key, code = _rewrite_test(path, session.config)  # as pytest's exec_module does
                _write_pyc(state, code, source_key, pyc)
        except Exception:  # noqa: BLE001 — collection reports what is wrong with the module
            continue


def pytest_collection_finish(session):
    """Start building the site at once where a collected test needs it (tests/sitebuild.py `start`)."""
    if any(map(_uses_site, session.items)) and not session.config.option.collectonly:
        import sitebuild
        from site_fixtures import site_root

        sitebuild.start(site_root(session.config._tmp_path_factory))


#: the tests this process ran since the memo was last checked (all of one module)
_UNCHECKED: list = []


def _check_memo(item, module_end: bool) -> str | None:
    """After a test (all its fixtures torn down): where the module ends here (the process's next test is another
    module's) or the module is marked `changes_memo`, whether kb.catalog.compiled's memo of the repository's catalog
    and rules still holds what its files hold (`_keep_memo`; dropped otherwise). A change in place in a module not
    marked so is an error of the module's last test here, naming the tests that ran since the last check: its
    later tests may have read the changed data. Checked per module, not per test: the comparison costs 1–5 ms
    (the memo's ~25k objects, cold in the CPU's caches after a test), ≈ 7 s CPU over a run at every test."""
    if item.get_closest_marker("private_cache") is not None:
        return None  # its memo is forgotten after each test (_private_cache)
    _UNCHECKED.append(item.nodeid)
    per_test = item.get_closest_marker("changes_memo") is not None
    if not (module_end or per_test):
        return None
    tests = list(_UNCHECKED)
    _UNCHECKED.clear()
    saved = os.environ.get("GPUKB_CACHE_DIR")
    os.environ["GPUKB_CACHE_DIR"] = str(_WARM)  # the test's own value is undone by now
    try:
        _from_outside()
        if _keep_memo() or per_test:
            return None
    finally:
        if saved is None:
            os.environ.pop("GPUKB_CACHE_DIR", None)
        else:
            os.environ["GPUKB_CACHE_DIR"] = saved
    return (f"the compiled catalog or rules that kb.catalog.compiled keeps in memory were changed in place by one of "
            f"these tests (or their module's fixtures or imports): {', '.join(tests)} — later tests may have read "
            f"the changed data. Change a copy (copy.deepcopy, dict(...)), or mark the module "
            f"`pytest.mark.changes_memo` (checked and dropped after each of its tests).")


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """At the end of each test module (its module fixtures torn down), what survives is frozen (gc.freeze): the
    compiled catalog's memo, the engines' memos, the collected items — objects that live on, which every full
    collection would walk again (each ≈ 0.15 s over 1–2 million objects). Over 27 files in one process: full
    collections 2.0–2.2 → 1.0 s CPU, the run 35.3 / 38.1 → 30.6 / 34.0 s. Frozen objects are still freed when
    their last reference goes (reference counting: the catalog's data has no cycles); only a reference cycle among
    them would stay until the process ends (no growth measured: max RSS 290 MB either way)."""
    module_end = nextitem is None or getattr(nextitem, "module", None) is not getattr(item, "module", None)
    problem = _check_memo(item, module_end)
    if module_end:
        gc.freeze()
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember whether a test's call failed (tests/site_fixtures.py takes a screenshot then)."""
    report = yield
    if report.when == "call":
        item.gpukb_call_failed = report.failed
    return report


#: modules whose tests ask the real catalog for (nearly) every answer: the whole matrix (tests/realmatrix.py), the
#: drift check's baseline (kb.drift.impact), every card at once. One worker runs them all, so the matrix, the
#: engine's memo of distinct inputs and the drift baseline are computed once per run, not once per worker: these
#: nine files took 52.4 s CPU in a process each (their tests alone) and 37.1 s in one process.
REAL_ANSWERS = frozenset({
    "test_ask_cli.py", "test_ask_render.py", "test_catalog_coverage.py", "test_compiled_cache.py",
    "test_device_plugin_evidence.py", "test_disputes.py", "test_drift_catalog.py", "test_drift_history.py",
    "test_engine_matrix.py", "test_verdict_record.py",
})


#: modules reading every built page through tests/site_pages.py's single parse (≈ 1.8 s CPU a process): one worker
#: parses them once per run
PARSED_PAGES = frozenset({"test_voice_site.py", "test_site_markup.py"})


@functools.lru_cache(maxsize=None)
def _worker_group(module: str) -> str | None:
    """Which tests of a module must run on one worker: the module's, where it has a module-scoped fixture (made
    once, not once per worker); the modules of REAL_ANSWERS all on one, those of PARSED_PAGES all on one. The site tests spread over the workers: the
    build is shared (tests/sitebuild.py), each worker serves it and starts its own Chromium."""
    if module.rpartition("/")[2] in REAL_ANSWERS:
        return "real-answers"
    if module.rpartition("/")[2] in PARSED_PAGES:
        return "parsed-pages"
    return module if 'scope="module"' in _module_text(module) else None


#: tests that take turns on a tab kept on one page (tests/site_fixtures.py open_page keep=…), by module: one worker
#: runs them all, so the tab is made and its page loaded once per run, not once per worker — test_site_browser's
#: ask-page tests (fixture ask_page): a context of its own and a cold load of the ask page per language, ≈ 0.8 s CPU
#: each (measured: docs-dev/test-time.md, tenth round). tests/test_suite_memo.py checks the names against the
#: fixtures the module's tests ask for.
KEPT_TAB_TESTS = {"tests/test_site_browser.py": ("ask-page", frozenset({
    "test_ask_permalink_shows_the_answer_of_gpukb_ask", "test_the_back_button_shows_the_question_asked_before",
    "test_ask_page_follows_the_form_and_updates_its_address", "test_ask_page_says_what_is_wrong_with_an_input",
    "test_a_card_or_release_the_page_does_not_know_is_shown_as_typed_and_a_device_id_chooses_its_card"}))}


def _test_group(nodeid: str) -> str | None:
    """Which tests must run on one worker with this one (_worker_group: by module; KEPT_TAB_TESTS: by test)."""
    module, _, name = nodeid.partition("::")
    group = _worker_group(module)
    if group is None and module in KEPT_TAB_TESTS:
        tab, names = KEPT_TAB_TESTS[module]
        if name.split("[", 1)[0] in names:
            return tab
    return group


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist spreads tests one by one, except those sharing a module fixture or a kept tab (_test_group), in the
    order collected — the site tests last (not the biggest group first: it would wait for the site's build).
    (xdist's own --dist loadgroup no longer works with pytest 9.2, which ignores the group it appends to an id.)"""
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _test_group(nodeid) or nodeid

        def mark_test_complete(self, node, item_index: int, duration: float = 0) -> None:
            """As xdist's, but a work unit whose tests are all done leaves the node's assigned work: xdist counts a
            node's pending tests over every unit it ever got (`_pending_of`) at each test's end — with one unit per
            test that is quadratic (≈ 1 s CPU of the controlling process at 2,000 tests)."""
            nodeid = self.registered_collections[node][item_index]
            scope = self._split_scope(nodeid)
            unit = self.assigned_work[node][scope]
            unit[nodeid] = True
            if all(unit.values()):
                del self.assigned_work[node][scope]
            self._reschedule(node)

    return Scheduling(config, log)


# the site tests' session fixtures: the site built once, served once, one Chromium for all browser tests
from site_fixtures import (  # noqa: E402,F401
    chromium, page, page_with, phone, site_built, site_server, site_server_blank_search,
)
