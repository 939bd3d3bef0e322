"""Writes that cannot lose data (issue 13): a full disk while `export -o`, `sources check --report`, the drift state
or the HTTP cache is written leaves the previous file byte for byte as it was and no temp file beside it — each
through the real command (CliRunner), the disk filling up at write, at flush or at fsync.

The full disk is injected where the operating system would report it: every file opened for writing below the
test's folder (through `open`, `io.open`, `pathlib` or `os.fdopen`) writes half of what it is given and then raises
OSError(ENOSPC), or raises it at flush, or `os.fsync` raises it. A writer that wrote the target in place would
truncate it; one that left its temp file behind would leave a stray file.
"""

from __future__ import annotations

import builtins
import errno
import io
import json
import os
import stat
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import need_sources
from kb.cli.main import cli

STAGES = ("write", "flush", "fsync")


def _full() -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class FullDiskFile:
    """A file on a disk that fills up: `write` stores half and fails, or `flush` fails."""

    def __init__(self, real, stage: str):
        self._real, self._stage = real, stage

    def write(self, data):
        if self._stage == "write":
            self._real.write(data[: len(data) // 2])
            self._real.flush()
            raise _full()
        return self._real.write(data)

    def flush(self):
        if self._stage == "flush":
            raise _full()
        return self._real.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.fixture
def full_disk(monkeypatch):
    """`full_disk(folder, stage)`: from now on the disk below `folder` is full at `stage` (write | flush | fsync)."""

    def arm(folder: Path, stage: str) -> None:
        folder = str(Path(folder).resolve())
        below = lambda path: os.path.realpath(path).startswith(folder + os.sep)  # noqa: E731
        writing = lambda mode: any(c in str(mode) for c in "wax+")  # noqa: E731
        real_open, real_fdopen, real_fsync = io.open, os.fdopen, os.fsync

        def fake_open(file, mode="r", *args, **kwargs):
            fh = real_open(file, mode, *args, **kwargs)
            if writing(mode) and isinstance(file, (str, os.PathLike)) and below(file) and stage != "fsync":
                return FullDiskFile(fh, stage)
            return fh

        def fake_fdopen(fd, mode="r", *args, **kwargs):
            fh = real_fdopen(fd, mode, *args, **kwargs)
            if writing(mode) and below(f"/proc/self/fd/{fd}") and stage != "fsync":
                return FullDiskFile(fh, stage)
            return fh

        def fake_fsync(fd):
            if stage == "fsync" and stat.S_ISREG(os.fstat(fd).st_mode) and below(f"/proc/self/fd/{fd}"):
                raise _full()
            return real_fsync(fd)

        monkeypatch.setattr(io, "open", fake_open)
        monkeypatch.setattr(builtins, "open", fake_open)
        monkeypatch.setattr(os, "fdopen", fake_fdopen)
        monkeypatch.setattr(os, "fsync", fake_fsync)

    return arm


def snapshot(folder: Path) -> dict:
    """Every file below `folder` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(folder))
    return folder


def gpukb(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("stage", STAGES)
def test_export_to_a_full_disk_keeps_the_previous_file(drift_catalog, cache, tmp_path, full_disk, stage):
    out = tmp_path / "out"
    out.mkdir()
    target = out / "answers.json"
    assert gpukb("export", "answers", "--json", "-o", target).exit_code == 0
    (out / "answers.json").write_bytes(target.read_bytes()[:-40] + b'"previous run"}\n')  # differs from a new one
    before = snapshot(out)
    full_disk(out, stage)
    result = gpukb("export", "answers", "--json", "-o", target)
    assert (result.exit_code, json.loads(result.output)["error"]) == (2, f"cannot write {target}: No space left on device")
    assert snapshot(out) == before


def test_export_to_a_full_disk_without_a_previous_file_leaves_nothing(drift_catalog, cache, tmp_path, full_disk):
    out = tmp_path / "out"
    out.mkdir()
    full_disk(out, "write")
    result = gpukb("export", "answers", "--json", "-o", out / "answers.json", "--lang", "de")
    error = json.loads(result.output)["error"]
    assert result.exit_code == 2 and error == f"kann {out / 'answers.json'} nicht schreiben: No space left on device"
    assert snapshot(out) == {}


@pytest.mark.parametrize("stage", STAGES)
def test_drift_report_to_a_full_disk_keeps_the_previous_report(drift_catalog, cache, tmp_path, full_disk, stage):
    out = tmp_path / "out"
    out.mkdir()
    report = out / "drift.md"
    report.write_bytes("# Drift report of the previous run\n\nkept byte for byte – ✓\n".encode())
    before = snapshot(out)
    full_disk(out, stage)
    result = gpukb("sources", "check", "--offline", need_sources(), "--source", "gpu-operator-mig", "--report", report)
    assert result.exit_code == 2
    assert result.output.strip() == f"Error: cannot write the report {report}: No space left on device"
    assert snapshot(out) == before


@pytest.mark.parametrize("stage", STAGES)
def test_drift_state_on_a_full_disk_keeps_the_previous_state(drift_catalog, cache, full_disk, stage):
    first = gpukb("sources", "check", "--offline", need_sources(), "--source", "gpu-operator-mig", "--json")
    assert first.exit_code == 0, first.output
    state = cache / "drift" / "state.json"
    previous = json.loads(state.read_text(encoding="utf-8"))
    assert previous["gpu-operator-mig"]["status"] == "ok"
    previous["gpu-operator-mig"]["checked"] = "2026-01-02T03:04:05+00:00"  # what a new write would change
    state.write_text(json.dumps(previous, indent=1, sort_keys=True), encoding="utf-8")
    before = snapshot(cache / "drift")
    full_disk(cache, stage)
    again = gpukb("sources", "check", "--offline", need_sources(), "--source", "gpu-operator-mig", "--json")
    assert again.exit_code == 0 and json.loads(again.output)["exit_code"] == 0  # the check itself still answers
    assert snapshot(cache / "drift") == before
    assert gpukb("sources", "list", "--json").exit_code == 0


class Document(BaseHTTPRequestHandler):
    """The watched document, with an ETag the server's `version` sets (a new version: a new body)."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        version = self.server.version
        etag = f'"v{version}"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        body = (f"GPU Operator with MIG\n=====================\n\nRevision {version}.\n").encode()
        self.send_response(200)
        self.send_header("ETag", etag)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def document(drift_catalog):
    """A local server for the drift catalog's gpu-operator-mig source (quotes-only), which now watches it."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Document)
    srv.version = 1
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    path = drift_catalog / "sources.yaml"
    sources = yaml.safe_load(path.read_text(encoding="utf-8"))
    entries = sources["sources"] if isinstance(sources, dict) else sources
    mig = next(s for s in entries if s["id"] == "gpu-operator-mig")
    old = mig["watch"]["url"]
    path.write_text(path.read_text(encoding="utf-8").replace(old, f"http://127.0.0.1:{srv.server_address[1]}/mig.rst"),
                    encoding="utf-8")
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("stage", STAGES)
def test_http_cache_on_a_full_disk_keeps_the_previous_body_and_meta(document, cache, full_disk, stage):
    check = lambda: gpukb("sources", "check", "--source", "gpu-operator-mig", "--json", "--retries", "0")  # noqa: E731
    first = check()
    assert first.exit_code in (0, 1), first.output
    http = cache / "drift" / "http"
    before = snapshot(http)
    assert {Path(n).suffix for n in before} == {".body", ".json"}
    assert any(b"Revision 1." in body for body in before.values())
    document.version = 2  # the document changed: the cache would be replaced
    full_disk(cache, stage)
    again = check()
    assert again.exit_code == first.exit_code, again.output  # a cache that cannot be written is not used
    assert snapshot(http) == before
