"""Precomputed answers on disk, keyed by the hash of catalog/ and rules/.

Layout under kb.catalog.compiled.cache_dir(): `answers-<hash>/index.json` (names and versions needed to
resolve inputs), `answers-<hash>/all.json` (the export), `answers-<hash>/live-<question>.json` (the parts of
the compiled catalog and the rules a question reads, for the live engine) and one `<key>.json` per answer, so a CLI call reads two small files. A folder
for another hash is never read; it is replaced when the matrix is rebuilt. `answers-stamp.json` remembers
the hash for the files' sizes, times and inodes, so an unchanged catalog is not read again to hash it.
This module imports neither pydantic, yaml nor durable unless the cache has to be (re)built.
"""

from __future__ import annotations

import json
import os
import zlib

from kb.catalog.compiled import cache_dir, catalog_dir, code_stamp, input_hash, rules_dir

#: hash -> {"index": input index, "answers": {answer key: answer}, "live": {"data", "rules"}} of the matrix
#: this process built
_MEMO: dict = {}


def _stamp(root: str) -> list:
    """Path, size, mtime, ctime and inode of every file below `root` (no file is read)."""
    out = []
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return out
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            out += _stamp(entry.path)
        elif entry.name.endswith((".yaml", ".yml", ".json")):
            st = entry.stat()
            out.append([entry.path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino])
    return out


def current_hash() -> str:
    """input_hash(catalog_dir(), rules_dir()), reused while no file below them and no module of kb changed."""
    stamp = [_stamp(str(d)) for d in (catalog_dir(), rules_dir())] + [code_stamp()]
    path = cache_dir() / "answers-stamp.json"
    known = _read(path)
    if known and known.get("stamp") == stamp:
        return known["hash"]
    key = input_hash(catalog_dir(), rules_dir())
    try:
        cache_dir().mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".answers-stamp.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"stamp": stamp, "hash": key}), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
    return key


def answer_key(question: str, inputs: dict) -> str:
    """File name of an answer; two inputs may share one (the reader checks the inputs stored in it)."""
    text = json.dumps([question, inputs], sort_keys=True, ensure_ascii=False)
    return f"{question}-{zlib.crc32(text.encode()):08x}"


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
    import shutil

    from kb.catalog.compiled import load_data
    from kb.questions import compute_all, needs
    from kb.questions.base import make_index

    data = load_data()
    rules = question_rules_all()
    export = _export(key, data, compute_all(data, engine=engine, rules=rules))
    answers = export["answers"]
    index = make_index(data)
    folder = _folder(key)
    tmp = cache_dir() / f".answers-{key}.{os.getpid()}.tmp"
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        (tmp / "index.json").write_text(json.dumps(index, ensure_ascii=False), encoding="utf-8")
        # what the live engine needs, under the same key: no second hashing or validation per call
        for question in rules:
            parts, questions = needs(question)
            live = {"data": {k: v for k, v in data.items() if k in parts},
                    "rules": {q: r for q, r in rules.items() if q in questions}}
            (tmp / f"live-{question}.json").write_text(json.dumps(live, ensure_ascii=False), encoding="utf-8")
        (tmp / "all.json").write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
        for a in answers:
            (tmp / f"{answer_key(a['question'], a['inputs'])}.json").write_text(
                json.dumps(a, ensure_ascii=False), encoding="utf-8")
        for old in cache_dir().glob("answers-*"):
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
        tmp.rename(folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # an unwritable cache is simply not used
    _MEMO[key] = {"index": index, "answers": {answer_key(a["question"], a["inputs"]): a for a in answers},
                  "live": {"data": data, "rules": rules}}
    return export


def _export(key: str, data: dict, answers: list[dict]) -> dict:
    """What `gpukb export answers --json` writes."""
    return {"data_version": data["data_version"], "verified": data["verified"], "hash": key, "answers": answers}


def question_rules_all() -> dict:
    """The rules of the questions (RuleBaseInvalid if one of their files is not valid; config checks are not needed)."""
    from kb.engine.rules import question_rules
    from kb.questions import QUESTIONS

    return {q: question_rules(q) for q in QUESTIONS}


def _stored(key: str, part: str, name: str):
    """Part `part` of the matrix for `key` (see _MEMO) from memory, else its file `name`; the matrix is built
    when the file is missing."""
    if key in _MEMO:
        return _MEMO[key][part]
    stored = _read(_folder(key) / name)
    if stored is None:
        build(key)
        return _MEMO[key][part]
    return stored


def _cached(key: str, question: str, inputs: dict) -> dict | None:
    if key in _MEMO:
        found = _MEMO[key]["answers"].get(answer_key(question, inputs))
    else:
        found = _read(_folder(key) / f"{answer_key(question, inputs)}.json")
    return found if found and found["question"] == question and found["inputs"] == inputs else None


def export(*, engine: str = "durable") -> dict:
    """The whole matrix, from the cache when it is fresh (engine="reference" always computes it)."""
    key = current_hash()
    if engine != "durable":
        from kb.catalog.compiled import load_data
        from kb.questions import compute_all

        data = load_data()
        return _export(key, data, compute_all(data, engine=engine, rules=question_rules_all()))
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
    inputs = resolve(question, _stored(key, "index", "index.json"), **raw)
    found = _cached(key, question, inputs)
    if found is not None:
        return found
    from kb.questions import Asker

    # the compiled catalog and rules the question reads, stored with the matrix
    stored = _stored(key, "live", f"live-{question}.json")
    return Asker(stored["data"], engine=engine, rules=stored["rules"]).answer(question, inputs)


def live(question: str, inputs: dict, *, engine: str = "durable") -> dict:
    """Ask the engine now, on the catalog and rules in use (inputs outside the precomputed matrix)."""
    from kb.catalog.compiled import load_data
    from kb.questions import Asker

    return Asker(load_data(), engine=engine, rules=question_rules_all()).answer(question, inputs)
