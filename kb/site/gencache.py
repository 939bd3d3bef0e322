"""A content-addressed cache of the generated pages: what kb/docs_hooks.py writes into docs/generated/, stored
under the hash of its generation key (the content hash of the catalog and rule files read, the code of kb/, where
the pages link to, the site's address and the catalog's history: kb.docs_hooks._generation_key).

A build whose docs/generated/ is gone or stale (a fresh checkout sharing the cache folder, a branch switched back
and forth, the bench's "restored" build) copies the files of an equal key instead of generating them again. Entries
live in `kb.catalog.compiled.cache_dir()/site/<sha256>.bin`, at most KEEP of them (the newest): one file each, a
JSON header line (the files' paths and sizes and the sha256 of the bytes after it) and the files' bytes. An entry
whose bytes do not match its header is a miss; every write is atomic (kb.fsutil).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

KEEP = 2


def _folder() -> Path:
    from kb.catalog.compiled import cache_dir

    return cache_dir() / "site"


def _path(key: str) -> Path:
    return _folder() / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()}.bin"


def load(key: str) -> dict[str, bytes] | None:
    """The files stored for `key` (path relative to docs/generated/ → bytes), None where there is no usable entry."""
    try:
        raw = _path(key).read_bytes()
        head, _, body = raw.partition(b"\n")
        header = json.loads(head)
        if header.get("key") != key or hashlib.sha256(body).hexdigest() != header.get("sha256"):
            return None
        out, pos = {}, 0
        for rel, size in header["files"]:
            out[rel] = body[pos:pos + size]
            pos += size
        return out if pos == len(body) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(key: str, files: dict[str, str | bytes]) -> None:
    """Store the files for `key` and drop all but the KEEP newest entries (a full disk only costs the cache)."""
    from kb.fsutil import atomic_write

    blobs = [(rel, c.encode("utf-8") if isinstance(c, str) else c) for rel, c in sorted(files.items())]
    body = b"".join(b for _, b in blobs)
    header = {"key": key, "sha256": hashlib.sha256(body).hexdigest(), "files": [[rel, len(b)] for rel, b in blobs]}
    try:
        target = _path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        # no fsync (durable=False): the entry is ~100 MB, and syncing it held the end of every build from nothing
        # ~1–2 s (wall, disk); an entry a power cut lost or cut short fails its sha256 and is a miss
        atomic_write(target, json.dumps(header, ensure_ascii=True).encode("ascii") + b"\n" + body, durable=False)
        entries = sorted(target.parent.glob("*.bin"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in entries[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
