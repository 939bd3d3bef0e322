"""A content-addressed cache of the generated pages: what kb/docs_hooks.py writes into docs/generated/, stored
under the hash of its generation key (the content hash of the catalog and rule files read, the code of kb/, where
the pages link to, the site's address and the catalog's history: kb.docs_hooks._generation_key).

A build whose docs/generated/ is gone or stale (a fresh checkout sharing the cache folder, a branch switched back
and forth, the bench's "restored" build) copies the files of an equal key instead of generating them again. Entries
live in `kb.catalog.compiled.cache_dir()/site/`, at most KEEP of them (the newest). An entry is one file
`<sha256 of the key>.bin`, or that file and its parts `<sha256 of the key>-<part>.bin`: what a forked process of the
build generated, stored by that process as soon as it is done (`store_part`), the build's own process storing the
rest last (`store(…, parts=…)`), naming each part by its sha256. Each file is a JSON header line (the key, the
files' paths and sizes, the sha256 of those and of every file's bytes, and which files are kept apart) and the files'
bytes. A part's file of APART bytes or more (the JSON API's answers, 80 MB) is kept apart, whole, in a file of its own
(`<sha256 of the key>-<part>-<n>.bin`, n its place in the header's list): the forked process links it into
docs/generated/ instead of writing its bytes a second time (kb.fsutil.place). An entry whose file or any part is
missing, cut, of another key or not the part its entry names (another build's) is a miss — a file kept apart that
was changed where it is linked too; every write is atomic (kb.fsutil).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

KEEP = 2
#: a part's file of this many bytes or more is kept apart (see the module's text)
APART = 1 << 20
_PART = re.compile(r"[a-z0-9]+")


def _folder() -> Path:
    from kb.catalog.compiled import cache_dir

    return cache_dir() / "site"


def _path(key: str, part: str = "") -> Path:
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()
    return _folder() / (f"{name}-{part}.bin" if part else f"{name}.bin")


def _apart(path: Path, n: int) -> Path:
    """Where the n-th file of the entry's file `path` is kept apart."""
    return path.with_name(f"{path.stem}-{n}.bin")


def _read(path: Path, key: str, part: str, sha256: str | None = None) -> tuple[dict, dict[str, bytes]]:
    """The header and files of one file of an entry; ValueError where it is not `key`'s (`part`'s, with `sha256`)."""
    raw = path.read_bytes()
    end = raw.find(b"\n")
    end = len(raw) if end < 0 else end
    head, body = raw[:end], memoryview(raw)[end + 1:]  # the body not copied: each file is copied out of it once
    header = json.loads(head)
    if header.get("key") != key or header.get("part", "") != part or (
            sha256 is not None and header.get("sha256") != sha256):
        raise ValueError(path)
    out, pos = {}, 0
    apart = set(header.get("apart", []))
    for n, (rel, size) in enumerate(header["files"]):
        if n in apart:
            out[rel] = _apart(path, n).read_bytes()
            if len(out[rel]) != size:
                raise ValueError(path)
            continue
        out[rel] = bytes(body[pos:pos + size])
        pos += size
    if pos != len(body) or _digest(header["files"], *out.values()) != header.get("sha256"):
        raise ValueError(path)
    return header, out


def load(key: str) -> dict[str, bytes] | None:
    """The files stored for `key` (path relative to docs/generated/ → bytes), None where there is no usable entry."""
    try:
        header, out = _read(_path(key), key, "")
        for part, sha256 in sorted(header.get("parts", {}).items()):
            if not isinstance(part, str) or not _PART.fullmatch(part):
                return None
            more = _read(_path(key, part), key, part, sha256)[1]
            if set(more) & set(out):
                return None
            out.update(more)
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write(target: Path, header: dict, blobs: list[tuple[str, bytes]], apart: dict | None = None) -> str:
    """Write an entry's file; with `apart` (a part's), each file of APART bytes or more in a file of its own, written
    first, which `apart` is given by its path ({path in docs/generated/: file in the cache})."""
    from kb.fsutil import atomic_write

    listed = [[rel, len(b)] for rel, b in blobs]
    digest = _digest(listed, *(b for _, b in blobs))
    header = {**header, "sha256": digest, "files": listed}
    target.parent.mkdir(parents=True, exist_ok=True)
    if apart is not None:
        header["apart"] = [n for n, (_rel, b) in enumerate(blobs) if len(b) >= APART]
        for n in header["apart"]:
            rel, b = blobs[n]
            apart[rel] = atomic_write(_apart(target, n), b, durable=False)
        blobs = [item for item in blobs if item[0] not in apart]
    # no fsync (durable=False): the entry is ~100 MB, and syncing it held the end of every build from nothing
    # ~1–2 s (wall, disk); an entry a power cut lost or cut short fails its sha256 and is a miss. The files are
    # written one after the other, not joined first: two copies of the JSON API's 80 MB cost its forked process
    # ≈ 0.1–0.5 s CPU (fresh memory, page by page)
    atomic_write(target, [json.dumps(header, ensure_ascii=True).encode("ascii") + b"\n", *(b for _, b in blobs)],
                 durable=False)
    return digest


def _digest(listed: list, *body: bytes) -> str:
    """The sha256 of a file's paths and sizes and its bytes (`body`, in one piece or several; two parts holding the
    same bytes differ)."""
    digest = hashlib.sha256(json.dumps(listed, ensure_ascii=True).encode("ascii") + b"\n")
    for chunk in body:
        digest.update(chunk)
    return digest.hexdigest()


def _blobs(files: dict[str, str | bytes]) -> list[tuple[str, bytes]]:
    return [(rel, c.encode("utf-8") if isinstance(c, str) else c) for rel, c in sorted(files.items())]


def store_part(key: str, part: str, files: dict[str, str | bytes], apart: dict | None = None) -> str | None:
    """Store one part of `key`'s entry (a forked process's files); returns the sha256 its entry names it by (`store`'s
    `parts`), None where it could not be written (a full disk only costs the cache). `apart`, a dict, is given the
    files kept apart: {path in docs/generated/: the cache's file holding just its bytes}."""
    if not _PART.fullmatch(part):
        raise ValueError(f"a part's name is lower-case letters and digits: {part!r}")
    try:
        return _write(_path(key, part), {"key": key, "part": part}, _blobs(files), {} if apart is None else apart)
    except OSError:
        if apart is not None:
            apart.clear()
        return None


def store(key: str, files: dict[str, str | bytes], parts: dict[str, str | None] | None = None) -> None:
    """Store the files for `key`, with its `parts` stored before ({part: the sha256 `store_part` returned}; an entry
    with a part that was not stored is not written), and drop all but the KEEP newest entries."""
    if parts and any(sha256 is None for sha256 in parts.values()):
        return
    try:
        target = _path(key)
        _write(target, {"key": key, "parts": dict(sorted((parts or {}).items()))}, _blobs(files))
        _prune(target.parent, target.name[:64])
    except OSError:
        pass


def _prune(folder: Path, newest: str) -> None:
    """Keep the KEEP newest entries (`newest`, just written, among them) and, of parts without their entry's main
    file (a build that failed, or one still under way), only those newer than the oldest entry kept; drop the
    rest."""
    times: dict[str, int] = {}  # an entry's name → the newest mtime of its files
    whole: set[str] = set()
    for path in folder.glob("*.bin"):
        name = path.name[:64]
        try:
            times[name] = max(times.get(name, 0), path.stat().st_mtime_ns)
        except OSError:
            continue
        if path.name == f"{name}.bin":
            whole.add(name)
    kept = [newest] + sorted(whole - {newest}, key=times.get, reverse=True)[:KEEP - 1]
    oldest = min(times.get(name, 0) for name in kept)
    for name in times:
        if name not in kept and (name in whole or times[name] <= oldest):
            for path in folder.glob(f"{name}*.bin"):
                path.unlink(missing_ok=True)
