"""Session fixtures of the site tests, imported by tests/conftest.py: the site built once (tests/sitebuild.py),
served once per worker on 127.0.0.1, and ONE Chromium per worker for its browser tests (Playwright driving
Debian's /usr/bin/chromium; never `playwright install`)."""

from __future__ import annotations

import http.server
import os
import threading
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "site-browser"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="session")
def site_built(tmp_path_factory):
    """The whole site, built strictly once per run (both languages, every generated page), one card's note
    made of markup: sitebuild.Site(ok, log, site, docs, catalog, poisoned, export — read on first use) —
    tests/sitebuild.py; with pytest-xdist the workers share one build."""
    import sitebuild

    site = sitebuild.shared(site_root(tmp_path_factory))
    assert site.ok, site.log
    return site


def site_root(tmp_path_factory) -> Path:
    """Where the run's one build lives: the common temporary folder of the xdist workers, or the session's."""
    import os

    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def site_server(site_built):
    """The built site over HTTP on 127.0.0.1 (a free port)."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(site_built.site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole session of a worker (skipped, saying why, where Debian's chromium is missing)."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium not found: the browser tests need Debian's chromium (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


def open_page(browser, request, viewport: dict, **context_args):
    """A fresh context and page recording requests and script errors; returns (page, finish) — finish() fails
    the test on a request that left 127.0.0.1 or a script error, and takes a screenshot (test-artifacts/
    site-browser/) where the test failed (every test's with GPUKB_SHOTS=1)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=viewport, **context_args)
    pg = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)

    def finish():
        outside = [u for u in requests if urlparse(u).scheme not in ("data", "blob") and urlparse(u).hostname != "127.0.0.1"]
        # a screenshot of what failed (a full page at phone scale costs seconds: not of every passing test)
        if outside or errors or getattr(request.node, "gpukb_call_failed", True) or os.environ.get("GPUKB_SHOTS"):
            try:
                pg.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
            except Exception:  # noqa: BLE001 - a screenshot is a help, not a result
                pass
        context.close()
        assert outside == [], f"requests outside 127.0.0.1: {outside}"
        assert errors == [], f"script or console errors: {errors}"
    return pg, finish


@pytest.fixture
def page(chromium, site_server, request):
    """A desktop page (1280 × 900)."""
    pg, finish = open_page(chromium, request, {"width": 1280, "height": 900})
    yield pg
    finish()


@pytest.fixture
def phone(chromium, site_server, request):
    """A phone page (375 × 812, touch, device scale 2)."""
    pg, finish = open_page(chromium, request, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    yield pg
    finish()
