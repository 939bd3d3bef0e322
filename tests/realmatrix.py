"""The whole answer matrix (kb.questions.compute_all) of a catalog with the rule base in use, computed once per
test run: ≈ 2.5 s CPU each time, and several modules read the real catalog's (test_engine_matrix,
test_ask_render, test_disputes, test_ask_cli). Each caller gets answers of its own: the first the computed list,
every later one a copy made from the bytes kept (pickle), so a test that changes what it got changes nothing
another test reads. Keyed by the catalog's content hash, the questions asked and the rule base's content keys:
another catalog or rule base (a test's own, an environment variable) is computed on its own.

The pytest-xdist workers share it: the first to need a matrix computes it under a lock in the run's common
temporary folder (tests/conftest.py `run_dir`) and leaves its bytes there; the other reads them.
Copies are unpickled with the cyclic garbage collector paused (tests/bulkload.py: 0.33 instead of 0.7–1.2 s)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle

import kb.questions
from kb.catalog.compiled import load_data
from kb.engine.rules import rule_base
from kb.questions import compute_all

from bulkload import gc_paused

_KEPT: dict = {}


def _key(data: dict) -> tuple | None:
    rules = rule_base()[0]
    keys = tuple((question, getattr(compiled, "key", None)) for question, compiled in sorted(rules.items()))
    if not data.get("hash") or any(key is None for _q, key in keys):
        return None  # nothing to tell this catalog or rule base from another by
    return data["hash"], tuple(kb.questions.questions()), keys


def _copy(blob: bytes) -> list[dict]:
    with gc_paused():
        return pickle.loads(blob)


def _from_other_process(key: tuple, compute) -> tuple[bytes, list[dict] | None]:
    """(the matrix's bytes, the computed matrix where this process computed it): read from the shared folder where
    another worker wrote them, else computed here under its lock and written there."""
    from conftest import run_dir

    folder = run_dir()
    if folder is None:
        answers = compute()
        return pickle.dumps(answers, protocol=pickle.HIGHEST_PROTOCOL), answers
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
    path = folder / f"realmatrix-{name}.pickle"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "realmatrix.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.is_file():
            return path.read_bytes(), None
        answers = compute()
        blob = pickle.dumps(answers, protocol=pickle.HIGHEST_PROTOCOL)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(blob)
        temp.replace(path)
        return blob, answers


def matrix(data: dict | None = None) -> list[dict]:
    """compute_all(data) (default: the catalog in use), durable-rules engine, the rule base in use."""
    data = load_data() if data is None else data
    key = _key(data)
    if key is None:
        return compute_all(data)
    if key in _KEPT:
        return _copy(_KEPT[key])
    blob, answers = _from_other_process(key, lambda: compute_all(data))
    _KEPT[key] = blob
    return answers if answers is not None else _copy(blob)
