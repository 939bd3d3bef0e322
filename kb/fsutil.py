"""Writing files so that a crash, a full disk or a second process never leaves half a file behind.

    atomic_write(path, text_or_bytes)    # temp file beside the target, flush, fsync, rename
    with file_lock(path): …              # one process at a time (an exclusive flock on `path`)

Every file gpukb writes for its user or for a later run goes through `atomic_write`: `export -o`,
`sources check --report`, the drift state, the HTTP cache, the compiled-data cache, tracebacks. The
target is replaced in one rename (readers see the old file or the new one, never a mix); on any error
the temp file is removed and the old target is left as it was. A target that is a symlink is written
through (the link stays, its target is replaced); a new file gets the permissions `open()` would give
it (0666 minus the umask), an existing one keeps its own.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

#: prefix of every temp file `atomic_write` creates (so a cleanup can recognise leftovers)
TEMP_PREFIX = ".gpukb-tmp-"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike, data: str | bytes | list[bytes], *, encoding: str = "utf-8",
                 durable: bool = True) -> Path:
    """Write `data` to `path` atomically (see the module docstring). Raises OSError (nothing changed then).
    Returns the path actually written (the symlink's target where `path` is a symlink). `durable=False` leaves
    out the fsyncs (file and folder) — for a cache whose reader treats a file lost or emptied by a power cut as a
    miss (the compiled-data cache: ~190 files per build, 2 fsyncs each cost seconds here). `data` may be a list of
    byte strings, written one after the other (a big file's parts, not joined into one copy first)."""
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    chunks = payload if isinstance(payload, list) else [payload]
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    with _replacing(target) as (fd, tmp):
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    if durable:
        _fsync_dir(target.parent)
    return target


def place(src: str | os.PathLike, dest: str | os.PathLike) -> None:
    """Make `dest` hold what `src` holds, replacing it in one rename: a hard link to `src` where the file system
    allows one (no byte copied: the site build's 90 MB of forked output cost ≈ 0.15 s of copying at its very end),
    else a copy. Only for a `src` that is replaced whenever it changes (`atomic_write`), never written in place:
    the two names share their bytes until one of them is replaced. Raises OSError (nothing changed then)."""
    import shutil

    with _replacing(Path(dest)) as (fd, tmp):
        os.close(fd)
        try:
            os.unlink(tmp)
            os.link(src, tmp)
        except OSError:  # another file system, or one without hard links: the bytes copied
            shutil.copyfile(src, tmp)


@contextlib.contextmanager
def _replacing(target: Path):
    """(fd, name) of a new temp file beside `target`, renamed over `target` once the block has run; removed (and
    `target` left as it was) where the block fails."""
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{target.name}.", dir=target.parent)
    try:
        yield fd, tmp
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def file_lock(path: str | os.PathLike):
    """Hold an exclusive lock on `path` (created if missing) for the `with` block; waits for another
    holder. Where locking is not possible (no fcntl, a read-only folder) the block runs unlocked: the
    caller's writes are atomic anyway, the lock only saves duplicate work."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Linux
        yield False
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(fd)  # closing releases the lock


def remove_stale_temps(folder: str | os.PathLike, *, older_than: float = 3600.0) -> int:
    """Delete temp files and folders `atomic_write` (or a killed build) left in `folder` more than
    `older_than` seconds ago. Returns how many were removed."""
    import shutil
    import time

    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(TEMP_PREFIX):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime < older_than:
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed += 1
        except OSError:
            continue
    return removed
