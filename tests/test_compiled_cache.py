"""The compiled-data cache cannot serve a wrong answer (issue 13): every attack as a test.

Each `compiled.forget()` stands for a new process (the in-process memo is dropped; the cache folder stays).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import FIXTURES, REPO
from kb.catalog import compiled, inputs
from kb.catalog.compiled import load_data, load_rule_base
from kb.cli.main import cli
from kb.errors import CatalogInvalid

#: the tests look into the cache folder (count, damage, delete its files): a folder of their own (tests/conftest.py)
pytestmark = pytest.mark.private_cache

CARD = "cards/h200-nvl.yaml"
SEVEN, THREE = b"max_instances:\n    value: 7\n", b"max_instances:\n    value: 3\n"


@pytest.fixture
def catalog(tmp_path, monkeypatch):
    """A copy of the fixture catalog in use, its files dated an hour back (nothing racily clean)."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "catalog", root)
    _age(root)
    monkeypatch.setenv("GPUKB_CATALOG", str(root))
    return root


def _age(root: Path, seconds: int = 3600) -> None:
    for path in [root, *root.rglob("*")]:
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - seconds * 10**9))


def _damage(path: Path, text: str) -> None:
    """Replace a cache file by `text` (a new file: the old one is a hard link to the suite's shared copy)."""
    path.unlink()
    path.write_text(text, encoding="utf-8")


def max_instances(root=None) -> int:
    compiled.forget()  # a new process
    return load_data(root)["cards"]["h200-nvl"]["mig"]["max_instances"]["value"]


def ask_max_instances() -> int:
    compiled.forget()
    result = CliRunner().invoke(cli, ["ask", "mig", "H200 NVL", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["details"]["max_instances"]


def test_an_edit_between_reading_and_parsing_cannot_poison_the_cache(catalog, monkeypatch):
    """A `git checkout` while the cache is built: the card file changes on disk right after it was read.
    What was parsed is what was hashed; the next call sees the new file; the restored file (cp -p: same
    size, same mtime) is answered from its own content again."""
    path = catalog / CARD
    original = path.read_bytes()
    assert SEVEN in original
    stat = path.stat()
    real_read = inputs.InputFile.read

    def read_then_checkout(self):
        data = real_read(self)
        if self.rel == CARD:
            path.write_bytes(original.replace(SEVEN, THREE))  # the edit lands after the bytes were read
        return data

    monkeypatch.setattr(inputs.InputFile, "read", read_then_checkout)
    assert max_instances() == 7  # built from the bytes read
    monkeypatch.setattr(inputs.InputFile, "read", real_read)
    assert max_instances() == 3 == ask_max_instances()  # the edited file is seen
    path.write_bytes(original)  # cp -p of the original: same size, same mtime, new ctime
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns
    assert max_instances() == 7 == ask_max_instances()


def test_a_racily_clean_edit_is_checked_by_content(catalog, monkeypatch):
    """On a file system with whole-second timestamps and no ctime, a same-size edit within the second the
    index was written shows in no stat: such files are re-read and compared by content."""
    real_stat = compiled._stat

    def coarse(path):
        st = real_stat(path)
        return None if st is None else [st[0], st[1] // 10**9 * 10**9, 0, st[3]]

    monkeypatch.setattr(compiled, "_stat", coarse)
    load_data()  # warm (imports, code key, compiled data): the window below must stay well under RACY_NS
    path = catalog / CARD
    os.utime(path)  # modified just now: within RACY_NS of the index written below
    stats = coarse(str(path))
    assert max_instances() == 7
    path.write_bytes(path.read_bytes().replace(SEVEN, THREE))
    os.utime(path, ns=(stats[1], stats[1]))
    assert coarse(str(path)) == stats  # no stat shows the edit
    assert max_instances() == 3


def test_content_is_hashed_at_most_once_per_process(catalog, monkeypatch):
    calls = []
    real_sha = compiled._sha
    monkeypatch.setattr(compiled, "_sha", lambda data: calls.append(len(data)) or real_sha(data))
    load_data()
    built = len(calls)
    assert built >= len(list((catalog / "cards").glob("*.yaml")))  # the build hashed every file once
    calls.clear()
    for _ in range(5):
        load_data()
        load_data(parts=("cards",))
    compiled.forget()  # a new process: stats match the index, nothing is read or hashed
    load_data()
    assert calls == []


def test_code_identity_is_by_content(tmp_path, monkeypatch):
    """A same-size edit of a module that builds the data, restored with cp -p, changes the key and back."""
    package = tmp_path / "kb"
    shutil.copytree(REPO / "kb", package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(inputs, "package_dir", lambda: package)
    module = package / "catalog" / "loader.py"
    original, st = module.read_bytes(), module.stat()
    compiled.forget()
    first = compiled.code_key()
    module.write_bytes(original.replace(b"Read and validate", b"Read und validate"))
    os.utime(module, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert module.stat().st_size == st.st_size
    compiled.forget()
    edited = compiled.code_key()
    module.write_bytes(original)
    os.utime(module, ns=(st.st_atime_ns, st.st_mtime_ns))
    compiled.forget()
    assert edited != first == compiled.code_key()


def test_building_imports_no_module_outside_the_code_key(tmp_path):
    """Only the modules in kb.catalog.inputs.BUILD_CODE build the data; their content is in the key."""
    code = ("import sys; from kb.catalog import compiled, inputs\n"
            "before = set(sys.modules)\n"
            "compiled.load_data(); compiled.load_rule_base()\n"
            "files = {f.path for f in inputs.code_files()}\n"
            "used = [m.__file__ for n, m in sys.modules.items() if n.split('.')[0] == 'kb' and getattr(m, '__file__', None)]\n"
            "print([f for f in used if f not in files and not f.endswith('/kb/fsutil.py')])")  # fsutil: writes only
    env = dict(os.environ, GPUKB_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, check=True)
    assert proc.stdout.strip() == "[]"


def test_a_symlinked_folder_is_followed_by_loader_hash_and_stamp(tmp_path, monkeypatch):
    root, elsewhere = tmp_path / "catalog", tmp_path / "elsewhere"
    shutil.copytree(FIXTURES / "catalog", root)
    shutil.move(root / "cards", elsewhere)
    (root / "cards").symlink_to(elsewhere, target_is_directory=True)
    (elsewhere / "loop").symlink_to(elsewhere, target_is_directory=True)  # a loop ends
    _age(root)
    _age(elsewhere)
    monkeypatch.setenv("GPUKB_CATALOG", str(root))
    assert max_instances() == 7 == ask_max_instances()
    card = elsewhere / "h200-nvl.yaml"
    card.write_bytes(card.read_bytes().replace(SEVEN, THREE))  # behind the symlink
    assert max_instances() == 3 == ask_max_instances()
    (elsewhere / "extra.yaml").write_text("not: a card\n", encoding="utf-8")  # a new file behind the link is read
    compiled.forget()
    with pytest.raises(CatalogInvalid) as err:
        load_data()
    assert any("cards/extra.yaml" in p["file"] for p in err.value.details["problems"])


def test_a_rule_renamed_to_yml_still_counts(tmp_path, monkeypatch):
    """A renamed rule changed `ask mig "H200 NVL"` from yes to unconfirmed while lint said clean."""
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules)
    monkeypatch.setenv("GPUKB_RULES", str(rules))
    from kb.questions import answer

    before = answer("mig", card="H200 NVL")
    rule = next((rules / "mig").glob("MIG-001-*.yaml"))
    rule.rename(rule.with_suffix(".yml"))
    compiled.forget()
    after = answer("mig", card="H200 NVL")
    assert after == before and after["verdict"] == "yes" and "MIG-001" in [r["rule"] for r in after["reasons"]]
    assert "MIG-001" in [r["id"] for r in load_rule_base()[0]["mig"]]


def test_a_card_in_yaml_and_yml_is_refused_as_defined_twice(catalog):
    shutil.copy(catalog / "cards" / "l4.yaml", catalog / "cards" / "l4.yml")
    compiled.forget()
    with pytest.raises(CatalogInvalid) as err:
        load_data()
    assert [p["message"].en for p in err.value.details["problems"]] == ["id 'l4' is already defined in cards/l4.yaml"]


@pytest.mark.parametrize("damage", ["not json {", "[]", '{"format": 3}', "wrong-key", "part-list", "part-missing",
                                    "entry-shape"])
def test_a_cache_file_of_the_wrong_shape_is_a_miss(catalog, damage):
    cache = compiled.cache_dir()
    head = cache / f"catalog-{load_data()['hash']}.json"
    assert head.is_file()
    card = head.with_name(head.name.replace(".json", ".card-h200-nvl.json"))
    if damage == "wrong-key":
        stored = json.loads(head.read_text(encoding="utf-8"))
        _damage(head, json.dumps({**stored, "key": "0" * 20}))
    elif damage == "part-list":
        _damage(card, json.dumps({"format": compiled.CACHE_FORMAT, "key": head.stem.split("-", 1)[1],
                                  "part": "card-h200-nvl", "data": []}))
    elif damage == "part-missing":
        card.unlink()
    elif damage == "entry-shape":
        for entry in cache.glob("index-*.json"):
            stored = json.loads(entry.read_text(encoding="utf-8"))
            _damage(entry, json.dumps({**stored, "entry": {"stats": []}}))
    else:
        _damage(head, damage)
    assert max_instances() == 7
    assert ask_max_instances() == 7


def test_a_question_reads_the_part_of_its_card_only(catalog, monkeypatch):
    """Each card is a part of its own: `ask mig H200 NVL` reads the H200 NVL's, no other card's."""
    load_data()
    read = []
    real = compiled._read_stored
    monkeypatch.setattr(compiled, "_read_stored", lambda kind, key, part=None: read.append(part) or real(kind, key, part))
    assert ask_max_instances() == 7
    assert [p for p in read if p and p.startswith(compiled.CARD_PART)] == ["card-h200-nvl"]
    assert "h200-nvl" in load_data()["cards"] and len(load_data(parts=("cards",))["cards"]) > 1


def test_a_card_part_gone_after_the_head_was_read_is_built_again(catalog):
    load_data()  # built and stored; then a new process's view: the head read, no card yet
    compiled.forget()
    cards = load_data(parts=("cards",))["cards"]
    for part in compiled.cache_dir().glob(f"catalog-*.{compiled.CARD_PART}h200-nvl.json"):
        part.unlink()
    assert cards["h200-nvl"]["mig"]["max_instances"]["value"] == 7
    assert cards == load_data()["cards"]


def test_a_field_or_source_part_gone_after_the_head_was_read_is_built_again(catalog):
    """A release file's field, a method's field and a source are parts of their own, read when first looked up;
    one deleted after the head was read (another process pruned the build) is built again, the same data."""
    load_data()  # built and stored; then a new process's view: the head read, no part yet
    compiled.forget()
    lazy = load_data(parts=("releases", "methods", "sources"))
    component, method = next(iter(lazy["releases"])), next(iter(lazy["methods"]))
    parts = [p for p in compiled.cache_dir().glob("catalog-*.json")
             if p.name.count(".") >= 2 and p.name.split(".", 1)[1].startswith(("releases.", "methods.", "source-"))]
    assert parts, "no field or source parts in the cache"
    for part in parts:
        part.unlink()
    seen = (dict(lazy["releases"][component]), dict(lazy["methods"][method]),
            {s: dict(lazy["sources"][s]) for s in lazy["sources"]})
    full = load_data()
    assert seen == (full["releases"][component], full["methods"][method], full["sources"])


def test_damaged_rule_cache_is_a_miss(catalog):
    rules, _ = load_rule_base()
    for path in compiled.cache_dir().glob("rules-*.q-mig.json"):
        _damage(path, json.dumps({"format": compiled.CACHE_FORMAT, "key": path.name.split(".")[0][6:], "part": "q-mig",
                                  "data": [{"no": "rule"}]}))
    compiled.forget()
    assert load_rule_base()[0]["mig"] == rules["mig"]


def test_a_killed_build_leaves_nothing_the_next_one_trips_over(tmp_path, catalog):
    """A build killed between writing a temp file and renaming it (os.replace → os._exit) leaves the temp
    file; the next build (holding the lock) removes it and builds."""
    env = dict(os.environ, GPUKB_CACHE_DIR=str(tmp_path / "killed"))
    code = ("import os, kb.fsutil as f\n"
            "f.os.replace = lambda *a: os._exit(9)\n"
            "from kb.catalog.compiled import load_data\nload_data()")
    assert subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO).returncode == 9
    left = [p.name for p in (tmp_path / "killed").iterdir() if p.name.startswith(".gpukb-tmp-")]
    assert left
    proc = subprocess.run([sys.executable, "-m", "kb.cli.main", "ask", "mig", "H200 NVL", "--json"], env=env, cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert not [p.name for p in (tmp_path / "killed").iterdir() if p.name.startswith(".gpukb-tmp-")]


def _ask_process(env):
    return subprocess.Popen([sys.executable, "-m", "kb.cli.main", "ask", "mig", "H200 NVL", "--json"], env=env,
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_concurrent_cold_starts_build_once(tmp_path, catalog):
    env = dict(os.environ, GPUKB_CACHE_DIR=str(tmp_path / "cold"))
    procs = [_ask_process(env) for _ in range(4)]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [err for _out, err in outputs]
    assert len({out for out, _err in outputs}) == 1
    heads = [p for p in (tmp_path / "cold").glob("*-*.json") if p.name.count(".") == 1 and not p.name.startswith("index")]
    assert sorted(p.name.split("-")[0] for p in heads) == ["catalog", "rules"]  # one build of each


def _waits_for_a_lock(proc, timeout: float = 60) -> bool:
    """Whether `proc` came to wait for a lock (Linux lists each waiter in /proc/locks as `->`); False where
    /proc/locks cannot be read, or the process ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            lines = Path("/proc/locks").read_text(encoding="utf-8").splitlines()
        except OSError:
            return False
        if any("->" in line and str(proc.pid) in line.split() for line in lines):
            return True
        time.sleep(0.02)
    return False


def test_a_waiting_process_reuses_what_the_first_one_built(tmp_path, catalog, monkeypatch):
    """While one process holds the lock (building), another waits, then reuses the result unchanged."""
    from kb.fsutil import file_lock

    cold = tmp_path / "cold"
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "prebuilt"))
    compiled.forget()
    load_data()
    load_rule_base()
    compiled.code_key()
    cold.mkdir()
    env = dict(os.environ, GPUKB_CACHE_DIR=str(cold))
    with file_lock(cold / ".lock"):
        waiting = _ask_process(env)
        if not _waits_for_a_lock(waiting):  # without /proc/locks: it would have built and answered by now
            with pytest.raises(subprocess.TimeoutExpired):
                waiting.wait(timeout=3)
        assert waiting.poll() is None  # blocked on the lock
        for f in (tmp_path / "prebuilt").iterdir():  # "the first process" finishes its build
            if not f.name.startswith("."):
                shutil.copy2(f, cold / f.name)
        inodes = {f.name: f.stat().st_ino for f in cold.iterdir()}
    out, err = waiting.communicate(timeout=600)
    assert waiting.returncode == 0, err
    assert json.loads(out)["details"]["max_instances"] == 7
    assert {f.name: f.stat().st_ino for f in cold.iterdir() if f.name in inodes} == inodes  # nothing rebuilt


@pytest.mark.parametrize("env,expected", [
    ({"GPUKB_CACHE_DIR": "rel/cache"}, "{cwd}/rel/cache"),
    ({"XDG_CACHE_HOME": "/xdg"}, "/xdg/gpukb"),
    ({"XDG_CACHE_HOME": "relative/xdg", "HOME": "/home/u"}, "/home/u/.cache/gpukb"),
    ({"HOME": "/home/u"}, "/home/u/.cache/gpukb"),
    ({"HOME": ""}, "{account}/.cache/gpukb"),
    ({"HOME": "relative"}, "{account}/.cache/gpukb"),
    ({"HOME": "", "XDG_CACHE_HOME": ""}, "{account}/.cache/gpukb"),
])
def test_the_cache_folder_falls_back_sanely(monkeypatch, tmp_path, env, expected):
    for var in ("GPUKB_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setattr(compiled, "_account_home", lambda: "/home/account")
    monkeypatch.chdir(tmp_path)
    assert str(compiled.cache_dir()) == expected.format(cwd=tmp_path, account="/home/account")


def test_without_any_home_the_cache_goes_to_a_folder_of_the_user_in_tmp(monkeypatch):
    import tempfile

    for var in ("GPUKB_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", "")
    monkeypatch.setattr(compiled, "_account_home", lambda: "")
    assert compiled.cache_dir() == Path(tempfile.gettempdir()) / f"gpukb-{os.getuid()}"


def test_the_suite_runs_in_a_home_of_its_own(tmp_path):
    """No test writes to the user's home: HOME and XDG_* point into the suite's sandbox (tests/conftest.py)."""
    import pwd

    real = pwd.getpwuid(os.getuid()).pw_dir
    assert not os.environ["HOME"].startswith(real + "/.") and os.environ["HOME"] != real
    assert os.environ["XDG_CONFIG_HOME"].startswith(os.environ["HOME"])  # Chromium's profile goes there
    env = {k: v for k, v in os.environ.items() if k not in ("GPUKB_CACHE_DIR", "XDG_CACHE_HOME")}
    subprocess.run([sys.executable, "-m", "kb.cli.main", "ask", "mig", "L4"], env=env, cwd=REPO, check=True,
                   stdout=subprocess.DEVNULL)
    assert (Path(os.environ["HOME"]) / ".cache" / "gpukb").is_dir()


def test_pytest_runs_from_another_folder(tmp_path):
    """The suite's configuration (pyproject.toml), tests/conftest.py and the helpers it imports (tests/sampling.py,
    the sandbox, the autouse cache fixture) load from any working folder: one test shows it as well as a file."""
    test = REPO / "tests" / "test_versions.py"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:randomly", "-p", "no:cacheprovider",
                           f"{test}::test_a_prefix_matching_one_release_resolves"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "1 passed" in proc.stdout


def test_every_answer_question_declares_the_catalog_parts_it_reads():
    """`ask` loads only the parts a question declares (DATA, USES): the matrix from such partial data equals the
    matrix from the full data (a seeded sample of 400 inputs per question; GPUKB_FULL=1 all)."""
    from kb.questions import Asker, module, needs, questions

    from sampling import sample

    full = load_data()
    whole = Asker(full)
    for question in questions():
        parts, questions = needs(question)
        partial = Asker({k: v for k, v in full.items() if k in parts or k not in compiled.CATALOG_PARTS})
        inputs = sample(module(question).defaults(whole.index), 400, seed=f"parts-{question}")
        assert partial.answer_many(question, inputs) == whole.answer_many(question, inputs), question


def test_fixture_catalogs_share_compiled_data_by_content(tmp_path, monkeypatch):
    """The same content in another folder is not compiled again (content-addressed), and a different
    content is."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(FIXTURES / "catalog", a)
    shutil.copytree(FIXTURES / "catalog", b)
    compiled.forget()
    first = load_data(a)
    built = len(list(compiled.cache_dir().glob("catalog-*.json")))
    assert load_data(b)["hash"] == first["hash"]
    assert len(list(compiled.cache_dir().glob("catalog-*.json"))) == built
