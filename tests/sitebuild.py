"""The whole site, built once per test run from a copy of docs/ and of the real catalog (one card's note
replaced by markup) — shared by every test that asks for the `site` fixture (tests/conftest.py).

With pytest-xdist the workers share one build: the first worker that needs it builds under a file lock in
the run's common temporary folder, the others wait and read what it wrote (result.json beside the site).
tests/conftest.py starts it in the background as soon as the collected tests include a site test (`start`),
and runs the site tests last: the other tests use the CPU meanwhile.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
POISON = "<script>window.__gpukb_pwned = 1</script><img src=x onerror=\"window.__gpukb_pwned = 2\">"


def _poison(catalog: Path) -> str:
    """Give the first card without a note a note made of markup; returns the card id."""
    for path in sorted((catalog / "cards").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if not re.search(r"^note:", text, re.M):
            quoted = POISON.replace("\\", "\\\\").replace('"', '\\"')
            path.write_text(text.rstrip("\n") + f'\nnote:\n  en: "{quoted}"\n  de: "{quoted}"\n', encoding="utf-8")
            return path.stem
    raise AssertionError("every card has a note; cannot plant the markup fixture")


def build(base: Path) -> dict:
    """Build into `base`; returns {ok, log, site, docs, catalog, poisoned} (JSON-able; `Site.export` below reads
    the engine's export from the built site)."""
    shutil.copytree(ROOT / "catalog", base / "catalog")
    shutil.copytree(ROOT / "docs", base / "docs", ignore=shutil.ignore_patterns("generated"))
    shutil.copytree(ROOT / "overrides", base / "overrides")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("  - kb/docs_hooks.py", f"  - {ROOT / 'kb' / 'docs_hooks.py'}")
    (base / "mkdocs.yml").write_text(config, encoding="utf-8")
    poisoned = _poison(base / "catalog")
    # the repository's rule base, whatever a test before may have left in the environment
    env = {**os.environ, "GPUKB_CATALOG": str(base / "catalog"), "GPUKB_CACHE_DIR": str(base / "cache"),
           "GPUKB_RULES": str(ROOT / "rules"), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("GPUKB_SKIP_GENERATE", None)
    # the engine's export is the site's own api/v1/answers.json: tests/test_site_api.py compares it with
    # `gpukb export answers --json` (computing it again here would cost the whole answer matrix once more)
    code = ("import sys; from mkdocs.__main__ import cli\n"
            "try:\n    cli(sys.argv[1:], standalone_mode=False)\nexcept BaseException as exc:\n"
            "    print(f'build failed: {exc!r}', file=sys.stderr); sys.exit(1)\n")
    with subprocess.Popen([sys.executable, "-c", code, "build", "--strict", "-f", str(base / "mkdocs.yml"),
                           "-d", str(base / "site")], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:
        _RUNNING.append(proc)
        try:
            log = proc.communicate()[0]
        finally:
            _RUNNING.remove(proc)
    return {"ok": proc.returncode == 0, "log": log, "site": str(base / "site"),
            "docs": str(base / "docs"), "catalog": str(base / "catalog"), "poisoned": poisoned}


class Site(SimpleNamespace):
    """The build's result; `export` is the site's api/v1/answers.json, parsed on first use (~80 MB: only the
    processes whose tests read it parse it, once)."""

    @functools.cached_property
    def export(self) -> dict | None:
        """Parsed by orjson where installed (a base dependency; the same values as json's — compared on the real
        export through json.dumps of both — 0.7 → 0.45 s CPU), else json; then frozen out of the garbage
        collector's walks (gc.freeze: every object alive now moves to the permanent generation). Its millions of
        containers made each full collection of the process ~0.2 s longer for the rest of the run (a process
        running test_site_browser's ask tests: collections 0.15 s without the export alive, 0.91 s with it).
        Nothing here forms reference cycles; reference counting still frees what is dropped."""
        import gc

        from kb.questions import bulk

        answers = self.site / "api" / "v1" / "answers.json"
        if not self.ok:
            return None
        raw = answers.read_bytes()
        with bulk():  # 80 MB of containers, the garbage collector paused: 1.3–1.7 → 0.45–0.7 s CPU
            value = _loads(raw)
        gc.freeze()
        return value


def _loads(raw: bytes):
    """json.loads(raw), by orjson where installed; json where orjson is missing or refuses (a whole number beyond
    64 bits, NaN: json reads those)."""
    try:
        import orjson
    except ImportError:
        return json.loads(raw)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


#: the build running in this process (stopped when the session ends before it does: see stop())
_RUNNING: list = []
#: set by stop(): a build this process ran was killed, not failed (no result for the other workers)
_STOPPED: list = []


def start(root: Path) -> None:
    """Begin the shared build in the background (a thread waiting for the mkdocs process), so the tests that do
    not need the site run meanwhile; `shared(root)` then waits for it. Once per process."""
    if not _STARTED:
        _STARTED.append(threading.Thread(target=_quietly, args=(root,), name="gpukb-site-build", daemon=True))
        _STARTED[0].start()


_STARTED: list = []


def _quietly(root: Path) -> None:
    try:
        shared(root)
    except Exception:  # noqa: BLE001 — the fixture builds again (under the lock) and reports what failed
        pass


def stop() -> None:
    """End a build still running (the session is over)."""
    _STOPPED.append(True)
    for proc in list(_RUNNING):
        proc.kill()


def shared(root: Path) -> SimpleNamespace:
    """The build in `root/gpukb-site`, made by the first caller (of any worker) and reused by the rest."""
    base = root / "gpukb-site"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "gpukb-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = base / "result.json"
        if done.is_file():
            result = json.loads(done.read_text(encoding="utf-8"))
        else:
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir()
            result = build(base)
            if _STOPPED:  # killed as this process's session ended: not a failed build for a worker still waiting
                shutil.rmtree(base, ignore_errors=True)  # (the next caller builds it: there is no result)
                raise RuntimeError("the site build was stopped: the session of the process building it ended")
            done.write_text(json.dumps(result), encoding="utf-8")
    return Site(**{**result, **{k: Path(result[k]) for k in ("site", "docs", "catalog")}})
