"""Precomputed answers on disk, keyed by the hash of catalog/ and rules/.

Layout under kb.catalog.compiled.cache_dir(): `answers-<hash>/index.json` (names and versions needed to
resolve inputs), `answers-<hash>/all.json` (the export) and one `<key>.json` per answer, so a CLI call
reads two small files. A folder for another hash is never read; it is replaced when the matrix is rebuilt.
This module imports neither pydantic, yaml nor durable unless the cache has to be (re)built.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil

from kb.catalog.compiled import cache_dir, catalog_dir, input_hash, rules_dir

_MEMO: dict = {}


def current_hash() -> str:
    return input_hash(catalog_dir(), rules_dir())


def answer_key(question: str, inputs: dict) -> str:
    text = json.dumps([question, inputs], sort_keys=True, ensure_ascii=False)
    return hashlib.sha1(text.encode()).hexdigest()[:20]


def _folder(key: str):
    return cache_dir() / f"answers-{key}"


def _read(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def build(key: str, *, engine: str = "durable") -> dict:
    """Compute the whole matrix and write it (atomically: a finished folder is renamed into place)."""
    from kb.catalog.compiled import load_data
    from kb.questions import compute_all
    from kb.questions.base import make_index

    data = load_data()
    answers = compute_all(data, engine=engine)
    export = {"data_version": data["data_version"], "verified": data["verified"], "hash": key, "answers": answers}
    index = make_index(data)
    folder = _folder(key)
    tmp = cache_dir() / f".answers-{key}.{os.getpid()}.tmp"
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        (tmp / "index.json").write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
        (tmp / "all.json").write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
        for a in answers:
            (tmp / f"{answer_key(a['question'], a['inputs'])}.json").write_text(
                json.dumps(a, ensure_ascii=False), encoding="utf-8")
        for old in cache_dir().glob("answers-*"):
            shutil.rmtree(old, ignore_errors=True)
        tmp.rename(folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # an unwritable cache is simply not used
    _MEMO[key] = (index, {answer_key(a["question"], a["inputs"]): a for a in answers})
    return export


def _index(key: str) -> dict:
    """The input index of the matrix for `key`: from memory or disk; the matrix is built when missing."""
    if key in _MEMO:
        return _MEMO[key][0]
    index = _read(_folder(key) / "index.json")
    if index is None:
        build(key)
        return _MEMO[key][0]
    return index


def _cached(key: str, question: str, inputs: dict) -> dict | None:
    if key in _MEMO:
        return _MEMO[key][1].get(answer_key(question, inputs))
    return _read(_folder(key) / f"{answer_key(question, inputs)}.json")


def export(*, engine: str = "durable") -> dict:
    """The whole matrix, from the cache when it is fresh (engine="reference" always computes it)."""
    key = current_hash()
    if engine != "durable":
        from kb.catalog.compiled import load_data
        from kb.questions import compute_all

        data = load_data()
        return {"data_version": data["data_version"], "verified": data["verified"], "hash": key,
                "answers": compute_all(data, engine=engine)}
    cached = _read(_folder(key) / "all.json")
    if cached is not None and cached.get("hash") == key:
        return cached
    return build(key)


def answer(question: str, raw: dict, *, engine: str = "durable") -> dict:
    """Resolve the inputs, then serve the precomputed answer or ask the live engine."""
    from kb.questions import resolve

    if engine != "durable":
        from kb.catalog.compiled import load_data
        from kb.questions.base import make_index

        return live(question, resolve(question, make_index(load_data()), **raw), engine=engine)
    key = current_hash()
    inputs = resolve(question, _index(key), **raw)
    found = _cached(key, question, inputs)
    return found if found is not None else live(question, inputs, engine=engine)


def live(question: str, inputs: dict, *, engine: str = "durable") -> dict:
    """Ask the engine now (inputs outside the precomputed matrix)."""
    from kb.catalog.compiled import load_data
    from kb.questions import Asker

    return Asker(load_data(), engine=engine).answer(question, inputs)
