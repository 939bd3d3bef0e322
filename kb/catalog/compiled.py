"""The catalog and the rule base compiled into plain JSON data, cached by the content of their files.

    load_data(root=None)       -> the compiled catalog (CONTRIBUTING.md, "Plain data")
    load_rule_base(root=None)  -> ({question: [rule, …]}, {question: [Problem, …]})

Looked up like git's index (`index.json` in the cache folder):

- the files behind the data are found one way (kb.catalog.inputs: symlinked folders followed, .yaml and
  .yml) and their stats (size, mtime, ctime, inode) compared with the stats the index recorded — equal
  stats mean the recorded content hash still holds, so nothing is read or hashed;
- a file modified within RACY_NS of the index's writing is "racily clean" (a second edit in the same
  timestamp tick would not show in its stats): it is re-checked by content;
- on a miss every file is read ONCE, and the bytes read are hashed and parsed — the data is keyed by
  the hash of exactly the bytes it was built from, so an edit between hashing and parsing cannot poison
  the cache; the code that built it is part of the key (the kb modules, identified by content);
- a process hashes at most once: later lookups with unchanged stats come from memory;
- a cold start builds under a file lock (other processes wait and reuse what it wrote); writes are atomic
  (kb.fsutil); temp files of a killed build are removed by the next build; a cache file that is not
  readable JSON of the expected shape is a miss (rebuilt), never an error.

Nothing here imports yaml, pydantic or durable unless something has to be built.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

from kb import ROOT

CACHE_FORMAT = 5
#: a file modified this close to (or after) the index's writing is re-checked by content
RACY_NS = 2_000_000_000
#: compiled files kept per kind (several catalogs in use: the repository's, test fixtures)
KEEP = 4
#: keys the compiled catalog must have (a cache file without them is a miss)
DATA_KEYS = ("data_version", "verified", "sources", "cards", "releases", "methods", "files", "hash")


def catalog_dir() -> Path:
    """The catalog in use: $GPUKB_CATALOG, else the repository's `catalog/`."""
    return Path(os.environ.get("GPUKB_CATALOG") or ROOT / "catalog")


def rules_dir() -> Path:
    """The rule base in use: $GPUKB_RULES, else the repository's `rules/`."""
    return Path(os.environ.get("GPUKB_RULES") or ROOT / "rules")


def cache_dir() -> Path:
    """Where compiled data is kept: $GPUKB_CACHE_DIR; else $XDG_CACHE_HOME/gpukb where that is an absolute
    path (the XDG spec says to ignore a relative one); else ~/.cache/gpukb where the home folder is known
    (an empty or relative $HOME is not used: the account's home from the password database is); else a
    folder of this user in the system's temp folder."""
    explicit = os.environ.get("GPUKB_CACHE_DIR")
    if explicit:
        return Path(os.path.abspath(explicit))
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "gpukb"
    home = os.environ.get("HOME", "")
    if not os.path.isabs(home):
        home = _account_home()
    if home:
        return Path(home) / ".cache" / "gpukb"
    import tempfile

    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"gpukb-{uid}"


def _account_home() -> str:
    try:
        import pwd

        home = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return ""
    return home if os.path.isabs(home) and home != "/" else ""


# ---------------------------------------------------------------- the index

def _stat(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _sha(data: bytes) -> str:
    """A content hash (sha256, first 32 hex digits: enough to tell contents apart, not a signature)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()[:32]


def _read_json(path: str | Path):
    """The JSON in the file (read as bytes: no text layer), None where it is missing or not JSON."""
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read())
    except (OSError, ValueError):  # a UnicodeDecodeError is a ValueError
        return None


# The index: one small file per folder in use (the catalog, the rule base, the kb package), named by a
# checksum of the folder's path, holding {name, entry}. An entry records the folders walked (mtime,
# inode: a file added, removed or renamed changes its folder's), every file's stats and content hash,
# the combined content hash, and when it was written.


def _entry_path(name: str) -> str:
    import zlib

    return os.path.join(cache_dir(), f"index-{zlib.crc32(name.encode()):08x}.json")


def _valid_entry(entry) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("stats"), dict) and isinstance(entry.get("hashes"), dict)
            and isinstance(entry.get("dirs"), dict) and isinstance(entry.get("content"), str)
            and isinstance(entry.get("written_ns"), int))


_ENTRIES: dict = {}


def _read_entry(name: str) -> dict | None:
    """The index entry of `name` (read again only when its file changed)."""
    path = _entry_path(name)
    st = _stat(path)
    known = _ENTRIES.get(path)
    if known is not None and known[0] == st:
        return known[1]
    stored = _read_json(path)
    entry = None
    if isinstance(stored, dict) and stored.get("format") == CACHE_FORMAT and stored.get("name") == name \
            and _valid_entry(stored.get("entry")):
        entry = stored["entry"]
    _ENTRIES[path] = (st, entry)
    return entry


def _write_entry(name: str, entry: dict) -> None:
    from kb.fsutil import atomic_write

    try:
        cache_dir().mkdir(parents=True, exist_ok=True)
        atomic_write(_entry_path(name), json.dumps({"format": CACHE_FORMAT, "name": name, "entry": entry},
                                                   separators=(",", ":")), durable=False)
    except OSError:
        pass  # an index that cannot be written only costs a re-hash next time


def _content_hash(hashes: dict[str, str]) -> str:
    return _sha(json.dumps(sorted(hashes.items())).encode())[:20]


def _key(kind: str, code: str, content: str) -> str:
    """The key of compiled data: the code that built it and the content it was built from (both already
    hashes: joined, not hashed again — the fast path needs no hashlib)."""
    return f"{code[:10]}{content[:10]}"


def _dir_stat(root: str, rel: str) -> list[int] | None:
    st = _stat(os.path.join(root, rel) if rel else root)
    return None if st is None else [st[1], st[3]]


def _listing(root, lister, entry):
    """({relative path: path} of the files, folder stats) below `root`: the entry's file list where no folder
    it recorded changed (git's untracked cache), else a new walk. A folder changed too recently to tell is
    walked."""
    root = os.fspath(root)
    if entry is not None:
        dirs = {rel: _dir_stat(root, rel) for rel in entry["dirs"]}
        if dirs == entry["dirs"] and all(st[0] < entry["written_ns"] - RACY_NS for st in dirs.values()):
            prefix = os.path.join(root, "")
            return {rel: prefix + rel for rel in entry["stats"]}, dirs
    visited: list = []
    files = lister(root, visited)
    return {f.rel: f.path for f in files}, {rel: _dir_stat(root, rel) for rel in visited}


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


class _Lookup:
    """What the index says about one folder now: the files, their stats, and the content hash where the
    recorded one still holds (None: the content must be read)."""

    def __init__(self, name: str, root, lister):
        self.name, self.root, self.lister = name, root, lister
        self.entry = _read_entry(name)
        self.paths, self.dirs = _listing(root, lister, self.entry)
        self.stats = {rel: _stat(path) for rel, path in self.paths.items()}
        self.content = self._check()

    def _check(self) -> str | None:
        """Racily clean files (modified within RACY_NS of the entry's writing) are compared by content;
        once they are older than that, the entry's time moves past them (written back)."""
        entry = self.entry
        if entry is None or entry["stats"] != self.stats or entry["dirs"] != self.dirs:
            return None
        racy = [rel for rel in self.paths if self.stats[rel][1] >= entry["written_ns"] - RACY_NS]
        for rel in racy:
            try:
                if _sha(_read_bytes(self.paths[rel])) != entry["hashes"].get(rel):
                    return None
            except OSError:
                return None
        now = time.time_ns()
        if racy and all(self.stats[rel][1] < now - RACY_NS for rel in racy):
            _write_entry(self.name, {**entry, "written_ns": now})
        return entry["content"]

    def rebuild(self) -> tuple[dict[str, bytes], str]:
        """Walk again, read every file once (stats before reading), hash those bytes, record the entry:
        (the bytes by relative path, the content hash)."""
        visited: list = []
        before = {}
        files = self.lister(os.fspath(self.root), visited)
        self.paths = {f.rel: f.path for f in files}
        self.dirs = {rel: _dir_stat(os.fspath(self.root), rel) for rel in visited}
        contents, hashes = {}, {}
        for f in files:
            before[f.rel] = _stat(f.path)
            contents[f.rel] = f.read()
            hashes[f.rel] = _sha(contents[f.rel])
        self.stats, self.content = before, _content_hash(hashes)
        _write_entry(self.name, {"dirs": self.dirs, "stats": before, "hashes": hashes, "content": self.content,
                                 "written_ns": time.time_ns()})
        return contents, self.content


# ---------------------------------------------------------------- code identity

_CODE: dict = {}


def code_key() -> str:
    """The content hash of the kb package's modules (what built the cached data; CACHE_FORMAT and the
    version live in them), looked up like the inputs: stats first, content where they changed. Once per
    process."""
    if "key" not in _CODE:
        from kb.catalog.inputs import code_files, package_dir

        lookup = _Lookup(f"code:{package_dir()}", package_dir(), lambda root, dirs: code_files(dirs))
        _CODE["key"] = lookup.content or lookup.rebuild()[1]
    return _CODE["key"]


# ---------------------------------------------------------------- compiled data
#
# Stored as one small file per build (`<kind>-<key>.json`: the whole data without its parts, and the names
# of the parts) plus one file per part (`<kind>-<key>.<part>.json`), so that one answer reads the parts
# it needs, not the whole catalog. A part that is missing or not of the expected shape makes the whole
# build a miss.

_MEMO: dict = {}


def _path(kind: str, key: str, part: str | None = None) -> str:
    """A compiled file's path (a string: pathlib costs an `ask` more than the file's reading)."""
    return os.path.join(cache_dir(), f"{kind}-{key}.json" if part is None else f"{kind}-{key}.{part}.json")


def _read_stored(kind: str, key: str, part: str | None = None):
    stored = _read_json(_path(kind, key, part))
    if isinstance(stored, dict) and stored.get("format") == CACHE_FORMAT and stored.get("key") == key \
            and stored.get("part") == part and "data" in stored:
        return stored
    return None


_MISSING = object()


class _Build:
    """One compiled build in memory: its head (the data without parts, the part names) and parts loaded;
    `origin` (name, root, builder) is what builds it again."""

    def __init__(self, kind: str, key: str, head: dict, parts: list[str], loaded: dict | None = None,
                 origin: tuple = ()):
        self.kind, self.key, self.head, self.parts, self.origin = kind, key, head, parts, origin
        self.loaded: dict = dict(loaded or {})

    def part(self, name: str, valid_part, missing=None):
        """One part (read once); `missing` where its file is gone or damaged."""
        if name not in self.loaded:
            stored = _read_stored(self.kind, self.key, name)
            if stored is None or not valid_part(name, stored["data"]):
                return missing
            self.loaded[name] = stored["data"]
        return self.loaded[name]

    def get(self, wanted, valid_part) -> dict | None:
        """The head with the `wanted` parts (all where None); None where a part's file is gone or damaged."""
        names = self.parts if wanted is None else [p for p in self.parts if p in wanted]
        for name in names:
            if self.part(name, valid_part, _MISSING) is _MISSING:
                return None
        builder = self.origin[2] if self.origin else None
        if builder is not None and hasattr(builder, "assemble"):
            return builder.assemble(self, names, wanted, valid_part)
        return {**self.head, **{n: self.loaded[n] for n in names}}


def _load(kind: str, root: Path, builder, wanted=None) -> dict:
    """The compiled data of `kind` for the files below `root` with the `wanted` parts (None: all) — from
    memory, the cache, or built."""
    name = f"{kind}:{os.path.abspath(root)}"
    lookup = _Lookup(name, root, builder.files)
    memo_key = (name, _stats_key(lookup.stats))
    build = _MEMO.get(memo_key)
    if build is None and lookup.content:
        build = _head(kind, _key(kind, code_key(), lookup.content), builder, (name, root, builder))
    found = build.get(wanted, builder.valid_part) if build is not None else None
    if found is None:
        build = _build_locked(kind, name, root, builder)
        found = build.get(wanted, builder.valid_part)
        memo_key = (name, _stats_key(_Lookup(name, root, builder.files).stats))
    _MEMO[memo_key] = build
    return found


def _stats_key(stats: dict) -> tuple:
    """The files' stats as a key of the in-process memo."""
    return tuple(sorted((rel, tuple(st) if isinstance(st, list) else st) for rel, st in stats.items()))


def _head(kind: str, key: str, builder, origin: tuple) -> _Build | None:
    stored = _read_stored(kind, key)
    if stored is None or not isinstance(stored.get("parts"), list) or not builder.valid_head(stored["data"]):
        return None
    return _Build(kind, key, stored["data"], stored["parts"], origin=origin)


def _build_locked(kind: str, name: str, root: Path, builder) -> _Build:
    """Build under the cache's lock: a process that waited finds what the first one wrote."""
    from kb.fsutil import file_lock, remove_stale_temps

    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass
    with file_lock(folder / ".lock"):
        code = code_key()
        lookup = _Lookup(name, root, builder.files)  # built meanwhile by another process?
        origin = (name, root, builder)
        build = _head(kind, _key(kind, code, lookup.content), builder, origin) if lookup.content else None
        if build is not None and build.get(None, builder.valid_part) is not None:
            return build
        remove_stale_temps(folder, older_than=0)  # we hold the lock: a temp file here is a killed build's
        contents, content = lookup.rebuild()
        key = _key(kind, code, content)
        build = _head(kind, key, builder, origin)  # the same content compiled before (another folder, or restored)
        if build is not None and build.get(None, builder.valid_part) is not None:
            return build
        data = builder.build(root, contents, key)
        parts = builder.part_names(data)
        if hasattr(builder, "split"):
            head, stored = builder.split(data, parts)
        else:
            head, stored = {k: v for k, v in data.items() if k not in parts}, {p: data[p] for p in parts}
        _store(kind, key, head, stored)
        return _Build(kind, key, head, parts, stored, origin)


def _store(kind: str, key: str, head: dict, parts: dict) -> None:
    """Write the parts, then the head (a head on disk means its parts were written); keep the KEEP most
    recent builds of this kind. Atomic writes; a cache that cannot be written is simply not used."""
    from kb.fsutil import atomic_write

    def write(path: Path, obj: dict) -> None:
        atomic_write(path, json.dumps({"format": CACHE_FORMAT, "key": key, **obj}, ensure_ascii=False,
                                      separators=(",", ":")), durable=False)  # a lost file is a miss: no fsync

    try:
        for part, data in parts.items():
            write(_path(kind, key, part), {"part": part, "data": data})
        write(_path(kind, key), {"part": None, "parts": list(parts), "data": head})
        heads = sorted((p for p in cache_dir().glob(f"{kind}-*.json") if p.name.count(".") == 1),
                       key=lambda p: p.stat().st_mtime_ns)
        for old in heads[:-KEEP]:
            old_key = old.name[len(kind) + 1:-len(".json")]
            for f in cache_dir().glob(f"{kind}-{old_key}.*"):
                f.unlink(missing_ok=True)
    except OSError:
        pass


def forget() -> None:
    """Forget what this process looked up (as a new process would): the next lookup stats, reads the index
    and the compiled files again."""
    _MEMO.clear()
    _ENTRIES.clear()
    _CODE.clear()


# ---------------------------------------------------------------- the catalog

#: the parts of the compiled catalog, each stored (and loaded) on its own; `index` is the names and versions
#: that resolve a question's inputs (kb.questions.base.make_index)
CATALOG_PARTS = ("sources", "cards", "releases", "methods", "platform", "index")


def compile_catalog(root: Path, contents: dict[str, bytes] | None = None) -> dict:
    """Validate the catalog (raises CatalogInvalid) and turn it into plain data."""
    from kb.catalog.loader import load_catalog

    return catalog_data(load_catalog(root, contents))


def catalog_data(cat) -> dict:
    """A loaded `kb.catalog.loader.Catalog` as plain data."""
    dump = lambda m: m.model_dump(mode="json", exclude_none=True)  # noqa: E731
    return {
        "data_version": cat.sources.data_version,
        "verified": cat.sources.verified.isoformat(),
        "sources": {s.id: dump(s) for s in cat.sources.sources},
        "cards": {k: dump(v) for k, v in sorted(cat.cards.items())},
        "releases": {k: dump(v) for k, v in sorted(cat.releases.items())},
        "methods": {k: dump(v) for k, v in sorted(cat.methods.items())},
        "platform": dump(cat.platform) if cat.platform else None,
        "files": dict(sorted(cat.files.items())),
    }


class Lazy(Mapping):
    """A read-only mapping of the compiled catalog whose values are parts of their own, each read when first
    looked up (iterating, `len` and `in` read none): the cards (`card-<id>`), the sources (`source-<id>`), the fields of each release file
    and method (`releases.<component>.<field>`, `methods.<method>.<field>`; short fields are kept in the head). A
    question about one card reads that card, and the release fields its facts and citations read — not the whole
    catalog. A part gone since the head was read triggers a rebuild."""

    __slots__ = ("_build", "_path", "_keys", "_got", "_valid")

    def __init__(self, build: "_Build", path: tuple, keys: dict, valid, got: dict | None = None):
        """`keys`: key → the name of the part holding its value, or a function making it (a Lazy of its own);
        `got`: values at hand (from the head)."""
        self._build, self._path, self._keys, self._valid, self._got = build, path, keys, valid, dict(got or {})

    def __getitem__(self, key):
        try:
            return self._got[key]
        except KeyError:
            how = self._keys[key]  # KeyError for a key it does not have
        if callable(how):
            value = how()
        else:
            value = self._build.part(how, self._valid, _MISSING)
            if value is _MISSING:  # the part's file vanished or is damaged since the head was read: build again
                value = _build_locked(self._build.kind, *self._build.origin).get(None, self._valid)
                for step in (*self._path, key):
                    value = value[step]
        self._got[key] = value
        return value

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"Lazy({'.'.join(self._path)}: {list(self._keys)!r})"


#: the prefix of a card's part in the compiled catalog
CARD_PART = "card-"
#: parts of the catalog whose entries are parts of their own (`<prefix><id>`), and the head's list of their ids
ENTRY_PARTS = {"cards": (CARD_PART, "card_ids"), "sources": ("source-", "source_ids")}
#: parts of the catalog whose entries are split into a part per field (`<part>.<entry>.<field>`)
FIELD_PARTS = ("releases", "methods")
#: a field whose JSON is at most this long stays in the head
INLINE_CHARS = 160


def _field_part(kind: str, entry: str, field: str) -> str:
    return f"{kind}.{entry}.{field}"


def _inline(value) -> bool:
    return len(json.dumps(value, ensure_ascii=False)) <= INLINE_CHARS


class _CatalogBuilder:
    @staticmethod
    def part_names(data: dict) -> list[str]:
        names = [p for p in CATALOG_PARTS if p in data and p not in ENTRY_PARTS and p not in FIELD_PARTS]
        names += [prefix + e for kind, (prefix, _ids) in ENTRY_PARTS.items() for e in data[kind]]
        for kind in FIELD_PARTS:
            names += [_field_part(kind, e, f) for e, node in data[kind].items() for f, v in node.items() if not _inline(v)]
        return names

    @staticmethod
    def split(data: dict, parts: list[str]) -> tuple[dict, dict]:
        """(head, parts to store): each card its own part, each longer field of a release file or a method its own
        part; the head lists the card ids and each such entry's fields in order ([field] for a part, [field, value]
        for a field kept in the head)."""
        head = {k: v for k, v in data.items() if k not in CATALOG_PARTS}
        for kind, (_prefix, ids) in ENTRY_PARTS.items():
            head[ids] = list(data[kind])
        head["fields"] = {kind: {e: [[f, v] if _inline(v) else [f] for f, v in node.items()] for e, node in data[kind].items()}
                          for kind in FIELD_PARTS}
        stored = {p: data[p] for p in parts if p in CATALOG_PARTS}
        for kind, (prefix, _ids) in ENTRY_PARTS.items():
            stored.update({prefix + e: entry for e, entry in data[kind].items()})
        stored.update({_field_part(kind, e, f): v for kind in FIELD_PARTS for e, node in data[kind].items()
                       for f, v in node.items() if not _inline(v)})
        return head, stored

    @staticmethod
    def assemble(build: "_Build", names: list[str], wanted, valid_part) -> dict:
        """The head with the wanted parts; cards, release files and methods Lazy mappings (plain dicts, all read,
        where all parts are wanted)."""
        out = {k: v for k, v in build.head.items() if k not in ("card_ids", "source_ids", "fields")}
        out.update({n: build.loaded[n] for n in names if n in CATALOG_PARTS})
        fields = build.head["fields"]
        if wanted is None:
            for kind, (prefix, ids) in ENTRY_PARTS.items():
                out[kind] = {e: build.loaded[prefix + e] for e in build.head[ids]}
            for kind in FIELD_PARTS:
                out[kind] = {e: {f[0]: f[1] if len(f) == 2 else build.loaded[_field_part(kind, e, f[0])] for f in fs}
                             for e, fs in fields[kind].items()}
            return out
        for kind, (prefix, ids) in ENTRY_PARTS.items():
            if kind in wanted:
                out[kind] = Lazy(build, (kind,), {e: prefix + e for e in build.head[ids]}, valid_part)

        def entry(kind: str, e: str):
            fs = fields[kind][e]
            return lambda: Lazy(build, (kind, e), {f[0]: _field_part(kind, e, f[0]) for f in fs}, valid_part,
                                {f[0]: f[1] for f in fs if len(f) == 2})

        for kind in FIELD_PARTS:
            if kind in wanted:
                out[kind] = Lazy(build, (kind,), {e: entry(kind, e) for e in fields[kind]}, valid_part)
        return out

    @staticmethod
    def files(root, dirs: list | None = None):
        from kb.catalog.inputs import catalog_files

        return [f for fs in catalog_files(root, dirs).values() for f in fs]

    @staticmethod
    def build(root: Path, contents: dict[str, bytes], key: str) -> dict:
        from kb.questions.base import make_index

        data = compile_catalog(root, contents)
        data["hash"] = key
        data["index"] = make_index(data)
        return data

    @staticmethod
    def valid_head(head) -> bool:
        fields = head.get("fields") if isinstance(head, dict) else None
        return (isinstance(head, dict) and all(k in head for k in ("data_version", "verified", "hash", "files"))
                and all(isinstance(head.get(ids), list) and all(isinstance(e, str) for e in head[ids])
                        for _prefix, ids in ENTRY_PARTS.values())
                and isinstance(fields, dict) and all(
                    isinstance(fields.get(kind), dict) and all(
                        isinstance(fs, list) and all(isinstance(f, list) and len(f) in (1, 2) and isinstance(f[0], str)
                                                     for f in fs) for fs in fields[kind].values())
                    for kind in FIELD_PARTS))

    @staticmethod
    def valid_part(name: str, data) -> bool:
        if name.partition(".")[0] in FIELD_PARTS:
            return True  # a field's value: any JSON
        return isinstance(data, dict) or (name == "platform" and data is None)


def load_data(root: Path | None = None, parts=None) -> dict:
    """The compiled catalog as plain data (cached: see the module docstring); with `parts` (names of
    CATALOG_PARTS) only those parts besides data_version, verified, hash and files. Raises
    kb.errors.CatalogInvalid where the catalog does not load."""
    root = Path(root or catalog_dir())
    if not root.is_dir():
        return compile_catalog(root)  # raises CatalogInvalid naming the folder
    return _load("catalog", root, _CatalogBuilder, parts)


# ---------------------------------------------------------------- the rule base


class _RulesBuilder:
    @staticmethod
    def part_names(data: dict) -> list[str]:
        """One part per question: `q-<question>`."""
        return [k for k in data if k.startswith("q-")]

    @staticmethod
    def files(root, dirs: list | None = None):
        from kb.catalog.inputs import rule_files

        return [f for fs in rule_files(root, dirs).values() for f in fs]

    @staticmethod
    def build(root: Path, contents: dict[str, bytes], key: str) -> dict:
        from kb.engine.rules import compile_rules

        rules, problems = compile_rules(root, contents)
        questions = sorted(set(rules) | set(problems))
        return {"key": key, "questions": questions,
                "problems": {q: [p.as_dict() for p in ps] for q, ps in problems.items()},
                **{f"q-{q}": rules.get(q, []) for q in questions}}

    @staticmethod
    def valid_head(head) -> bool:
        return (isinstance(head, dict) and isinstance(head.get("key"), str) and isinstance(head.get("questions"), list)
                and isinstance(head.get("problems"), dict) and all(isinstance(v, list) for v in head["problems"].values()))

    @staticmethod
    def valid_part(name: str, data) -> bool:
        return isinstance(data, list) and all(isinstance(r, dict) and "id" in r and "when" in r for r in data)


class RuleList(list):
    """A question's compiled rules as the rule base cache holds them, with `key`: the build's content key and the
    question — equal keys, equal rules, so the engine recognises a rule set without serialising it
    (kb.engine.ruleset_key). A copy (`list(rules)`) has no key; do not change one in place."""

    __slots__ = ("key",)

    def __init__(self, rules=(), key: str | None = None):
        super().__init__(rules)
        self.key = key


def load_rule_base(root: Path | None = None, questions=None) -> tuple[dict[str, list[dict]], dict[str, list]]:
    """(rules by question, problems by question) of the rule base at `root` (default: rules_dir()) — of
    the `questions` named, or all. Raises kb.errors.RuleBaseInvalid where the folder does not exist."""
    root = Path(root or rules_dir())
    if not root.is_dir():
        from kb.engine.rules import compile_rules

        compile_rules(root)  # raises RuleBaseInvalid naming the folder
    wanted = None if questions is None else {f"q-{q}" for q in questions}
    stored = _load("rules", root, _RulesBuilder, wanted)
    rules = {k[2:]: RuleList(v, f"{stored['key']}/{k[2:]}") for k, v in stored.items() if k.startswith("q-")}
    problems = {}
    if stored["problems"]:  # the YAML reader (and PyYAML) only where there is something to report
        from kb.catalog.yamlsafe import Problem

        problems = {q: [Problem(**p) for p in ps] for q, ps in stored["problems"].items()}
    return rules, problems


def input_key() -> str:
    """One key for the catalog and the rule base in use and the code (each identified by content): what an
    export or a generated page depends on."""
    catalog = load_data(parts=())["hash"]
    rules = _load("rules", rules_dir(), _RulesBuilder, set())["key"]
    return f"{catalog}{rules}"
