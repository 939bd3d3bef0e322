"""Work of the site build done in a forked process, beside the build's own (a 2-CPU machine builds the ask page's
data and the JSON API while mkdocs renders the pages; on four CPUs or more the ask page's data computes half its
cards so)."""

from __future__ import annotations

import os


def may_fork() -> bool:
    """Whether to fork: the platform can, the process runs one thread (not `mkdocs serve`'s server: a fork copies
    only the calling thread) and GPUKB_SITE_WORKERS is not 1 (everything in one process, as a check)."""
    import threading

    return (hasattr(os, "fork") and threading.active_count() == 1
            and os.environ.get("GPUKB_SITE_WORKERS", "").strip() != "1")


def run_forked(work, what: str, *, nice: int = 0, early: bool = False):
    """Run `work()` in a forked process; returns a function that waits for it and gives its result, or raises
    what it raised (the same exception where it can be pickled: a catalog or rule problem reads as it would in
    one process). `what` names the work in the message of a process that ended otherwise. The function's `pid`
    is the process's (to stop it where nobody will wait), its `stop()` stops it unless it was waited for. `nice`:
    added to the process's niceness (its own forks inherit it).

    `early`: `work(send)` may hand one value over before it ends (`send(value)`, once), which the function's
    `first()` gives (where the process ended without: what `wait` raises). Its niceness is added only once it sent
    that value: a value the build waits for is computed at the priority of the build.

    The forked process does not collect cyclic garbage (gc disabled; its own forks inherit that): it lives for one
    piece of work and leaves with os._exit, and what the site build computes there is trees of dicts and lists that
    reference counting frees (kb.questions.bulk). The collections it saves walked every object allocated since the
    last one: ≈ 0.45 s CPU of a build from nothing's three forked processes (≈ 21 collections), freeing next to nothing
    (the ask page's data in one process: peak memory 138 → 145 MB without them; the build's forks 495 MB either way)."""
    import gc
    import pickle
    import signal
    import traceback

    read, write = os.pipe()
    first_read, first_write = os.pipe() if early else (None, None)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without running the parent's exit handlers
        code = 0
        try:
            os.close(read)
            _end_with(parent)
            gc.disable()

            def defer():
                if nice:
                    try:
                        os.nice(nice)
                    except OSError:  # a platform that refuses it: the work is the same, only not deferred
                        pass

            def send(value):
                os.close(first_read)
                with os.fdopen(first_write, "wb") as pipe:
                    pickle.dump(value, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                defer()
            try:
                if early:
                    result = ("ok", work(send))
                else:
                    defer()
                    result = ("ok", work())
            except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
                code = 1
                try:
                    result = ("raise", pickle.loads(pickle.dumps(exc.with_traceback(None))))
                except Exception:  # noqa: BLE001 - not picklable: its text
                    result = ("error", traceback.format_exc())
            with os.fdopen(write, "wb") as pipe:
                pickle.dump(result, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            os._exit(code)
    os.close(write)
    if early:
        os.close(first_write)

    def wait():
        wait.waited = True
        with os.fdopen(read, "rb") as pipe:
            try:
                status, value = pickle.load(pipe)
            except EOFError:
                status, value = "error", f"the process {what} ended without a result"
        os.waitpid(pid, 0)
        if status == "raise":
            raise value
        if status != "ok":
            raise RuntimeError(f"{what} failed:\n{value}")
        return value
    def first():
        """The value the process sent first (`early`), once."""
        first.read = True
        with os.fdopen(first_read, "rb") as pipe:
            try:
                return pickle.load(pipe)
            except EOFError:
                pass
        wait()  # (it ended without sending: what it raised)
        raise RuntimeError(f"the process {what} ended without sending its first result")

    def stop():
        """Stop the process unless it was waited for (its result is not wanted)."""
        if early and not first.read:
            first.read = True
            os.close(first_read)
        if not wait.waited:
            wait.waited = True
            os.close(read)
            try:
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except OSError:
                pass
    wait.pid, wait.waited, wait.stop = pid, False, stop
    first.read = False
    if early:
        wait.first = first
    return wait


def _end_with(parent: int) -> None:
    """In a forked process: be stopped (SIGTERM) when the process that forked it ends, so that work nobody will
    read stops with it — a build stopped or failed while the ask page's data computed half its cards in a
    process of its own left that process computing for seconds (Linux: prctl PR_SET_PDEATHSIG; elsewhere the
    process still ends, at its next write to the parent)."""
    import signal

    try:
        import ctypes

        if ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0) != 0:  # 1 = PR_SET_PDEATHSIG
            return
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request: nobody will read the result
        os._exit(1)


class Gate:
    """Where forked processes wait until this process lets them on (`open`): the build's own process lets the
    forked generation write into docs/generated/ only once it has laid out that folder itself. Made before the
    processes are forked; each of them calls `wait` once."""

    def __init__(self):
        self._read, self._write = os.pipe()

    def wait(self) -> bool:
        """In a forked process: wait until the gate opens; False where it never will (the build's process ended or
        gave up)."""
        if self._write is not None:
            os.close(self._write)  # else a process left alone would wait for itself
            self._write = None
        try:
            return os.read(self._read, 1) == b"1"
        finally:
            os.close(self._read)

    def open(self, waiting: int) -> None:
        """Let `waiting` processes on (each of them reads one byte); a second call does nothing."""
        if self._write is not None:
            os.write(self._write, b"1" * waiting)
            self.close()

    def close(self) -> None:
        """Give up (in the process that made the gate): processes waiting see that it never opens."""
        for fd in (self._write, self._read):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._write = self._read = None


class Tickets:
    """The numbers 0 … n−1, each handed out once (`take`), in order, to this process and to the processes it forks
    after making them: work they share out as each gets to it. A pipe holds them (2 bytes each, written before any is
    taken: at most MOST, which fit a pipe's smallest buffer); a read of one is atomic."""

    MOST = 8192

    def __init__(self, n: int):
        if not 0 <= n <= self.MOST:
            raise ValueError(f"between 0 and {self.MOST} tickets, not {n}")
        self._read, write = os.pipe()
        try:
            os.write(write, b"".join(i.to_bytes(2, "big") for i in range(n)))
        finally:
            os.close(write)  # a read past the last ticket then returns nothing

    def take(self) -> int | None:
        """The next number; None once every number is taken (or the tickets are closed)."""
        if self._read is None:
            return None
        raw = os.read(self._read, 2)
        return int.from_bytes(raw, "big") if raw else None

    def close(self) -> None:
        if self._read is not None:
            os.close(self._read)
            self._read = None
