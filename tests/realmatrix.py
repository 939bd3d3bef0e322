"""The whole answer matrix (kb.questions.compute_all) of a catalog with the rule base in use, computed once per
test process: ≈ 2.5 s CPU each time, and several modules read the real catalog's (test_engine_matrix,
test_ask_render, test_disputes, test_ask_cli, test_device_plugin_evidence). Each caller gets answers of its own: the
first the computed list, every later one a copy made from the bytes kept (pickle, unpickled with the garbage
collector paused: kb.questions.bulk, 0.33 instead of 0.7–1.2 s), so a test that changes what it got changes nothing
another test reads. Keyed by the catalog's content hash, the questions asked and the rule base's content keys:
another catalog or rule base (a test's own, an environment variable) is computed on its own.

Not shared between the xdist workers (tried: the second worker read the first one's pickle): computing the matrix
also fills the engine's memo of this process, which the later tests of the worker asking the real catalog use —
over five such files in one process the CPU was the same with the matrix read or computed (18.8–20.6 s either way)."""

from __future__ import annotations

import pickle

import kb.questions
from kb.catalog.compiled import load_data
from kb.engine.rules import rule_base
from kb.questions import bulk, compute_all

_KEPT: dict = {}


def _key(data: dict) -> tuple | None:
    rules = rule_base()[0]
    keys = tuple((question, getattr(compiled, "key", None)) for question, compiled in sorted(rules.items()))
    if not data.get("hash") or any(key is None for _q, key in keys):
        return None  # nothing to tell this catalog or rule base from another by
    return data["hash"], tuple(kb.questions.questions()), keys


def matrix(data: dict | None = None) -> list[dict]:
    """compute_all(data) (default: the catalog in use), durable-rules engine, the rule base in use."""
    data = load_data() if data is None else data
    key = _key(data)
    if key in _KEPT:
        with bulk():
            return pickle.loads(_KEPT[key])
    answers = compute_all(data)
    if key is not None:
        _KEPT[key] = pickle.dumps(answers, protocol=pickle.HIGHEST_PROTOCOL)
    return answers
