"""Session fixtures of the site tests, imported by tests/conftest.py: the site built once (tests/sitebuild.py),
served once per worker on 127.0.0.1, and ONE Chromium per worker for its browser tests (Playwright driving
Debian's Chromium — its headless shell where installed, see CHROMIUM; never `playwright install`), with one page
per kind (desktop, phone, …) that the tests take turns on (_Tab)."""

from __future__ import annotations

import http.server
import io
import json
import os
import threading
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Debian's Chromium for the browser tests: its headless shell (package chromium-headless-shell: the same Blink, V8
#: and renderer, built from the same source, without the desktop browser around them: no browser UI compositor, no
#: tab machinery; its GPU process only composites, in software) where installed, else the browser itself (package
#: chromium). The shell costs ~20 % less CPU over the two browser files (−40 % for a small page: most of a load's
#: cost in the full browser was its own browser and GPU processes); the pages render the same: every browser test
#: passes on both (docs-dev/test-time.md).
#: GPUKB_CHROMIUM=/usr/bin/chromium runs them on the full browser.
CHROMIUM = Path(os.environ.get("GPUKB_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(p).exists()), "/usr/bin/chromium"))
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
    yield from _serve(site_built.site, blank_search=False)


@pytest.fixture(scope="session")
def site_server_blank_search(site_built):
    """The same site on another port, but every search_index.json served with its configuration (languages,
    separator) and no documents: material's search worker still starts and loads the language's lunr plugin,
    but has nothing to index. Indexing the real one costs ~0.35 s CPU after every page load, in a worker the
    test does not wait for; every test but the two search tests uses this server (they build and search the
    real index of each language, failing on any script error)."""
    yield from _serve(site_built.site, blank_search=True)


def _serve(directory: Path, blank_search: bool):
    blank: dict[str, bytes | None] = {}

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def send_head(self):
            path = urlparse(self.path).path
            if not (blank_search and path.endswith("/search/search_index.json")):
                return super().send_head()
            if path not in blank:
                try:
                    index = json.loads(Path(self.translate_path(path)).read_text(encoding="utf-8"))
                    blank[path] = json.dumps({**index, "docs": []}).encode()
                except (OSError, ValueError, TypeError):  # missing or broken: the page gets what a customer gets
                    blank[path] = None
            body = blank[path]
            if body is None:
                return super().send_head()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole session of a worker (skipped, saying why, where Debian's chromium is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: the browser tests need Debian's chromium-headless-shell or chromium "
                    "(.ci/run installs them)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        _TABS.clear()
        browser.close()


class _Tab:
    """One browser context with one page, reused by every test asking for the same context options (the page
    and phone fixtures, open_page): a new context and page per test cost ~0.4 s CPU (a renderer process started,
    the theme's script and styles compiled again from a cold cache) — more than most tests' own work. Each test
    still loads its pages itself; between tests the tab is emptied (about:blank, the site's local and session
    storage cleared: material keeps the palette there) and what it recorded is started afresh."""

    def __init__(self, browser, viewport: dict, context_args: dict):
        self.context = browser.new_context(viewport=viewport, **context_args)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.cdp = None  # (a DevTools session of the page, made on first use: empty())
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)

    def undo(self, scheme, permissions) -> bool:
        """Take back a test's colour scheme and permissions; False where the page is unusable."""
        try:
            if scheme:
                self.page.emulate_media(color_scheme="null")
            if permissions:
                self.context.clear_permissions()
            return True
        except Exception:  # noqa: BLE001 - a crashed or closed page: the next test gets a new tab
            return False

    def empty(self) -> bool:
        """Leave the site (the page's scripts end with it) and forget its storage; False where the page is unusable.
        The site's local storage is cleared once more from the browser after the page is left: what the page writes
        while it goes (the palette it saves when the emulated colour scheme is undone) must not reach the next test."""
        try:
            origin = None
            if self.page.url.startswith("http"):
                origin = "{0.scheme}://{0.netloc}".format(urlparse(self.page.url))
                self.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            self.page.goto("about:blank")
            if origin:
                if self.cdp is None:
                    self.cdp = self.context.new_cdp_session(self.page)
                self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
            self.context.clear_cookies()
            return True
        except Exception:  # noqa: BLE001 - a crashed or closed page: the next test gets a new tab
            return False


#: the worker's tabs by context options (see _Tab)
_TABS: dict[str, _Tab] = {}


def open_page(browser, request, viewport: dict, keep: str = "", **context_args):
    """The worker's page for these context options (a _Tab: made on first use, then reused), recording requests
    and script errors from here on; returns (page, finish) — finish() fails the test on a request that left
    127.0.0.1 or a script error, and takes a screenshot (test-artifacts/site-browser/) where the test failed
    (every test's with GPUKB_SHOTS=1). A tab with a `keep` name is its own, and is left where a passing test
    left it (the next test asking for it finds that page loaded); after a failed test it starts afresh.
    A colour scheme and permissions are given to the tab of the other options for the test (emulated media before
    the test loads a page, as a context made with them; undone by finish()): a context of its own per colour
    scheme or permission cost a renderer and cold caches."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    scheme, permissions = context_args.pop("color_scheme", None), context_args.pop("permissions", None)
    key = json.dumps([viewport, context_args, keep], sort_keys=True)
    tab = _TABS.get(key)
    if tab is None or tab.page.is_closed():
        tab = _TABS[key] = _Tab(browser, viewport, context_args)
    tab.requests.clear()
    tab.errors.clear()
    pg = tab.page
    if scheme:
        pg.emulate_media(color_scheme=scheme)
    if permissions:
        tab.context.grant_permissions(permissions)

    def finish():
        def outside():
            return [u for u in tab.requests if urlparse(u).scheme not in ("data", "blob", "about")
                    and urlparse(u).hostname != "127.0.0.1"]
        # a screenshot of what failed (a full page at phone scale costs seconds: not of every passing test)
        failed = outside() or tab.errors or getattr(request.node, "gpukb_call_failed", True)
        if failed or os.environ.get("GPUKB_SHOTS"):
            try:
                pg.screenshot(path=str(SHOTS / f"{request.node.name.replace('/', '_')}.png"), full_page=True)
            except Exception:  # noqa: BLE001 - a screenshot is a help, not a result
                pass
        undone = tab.undo(scheme, permissions)  # before the page is left: what it writes on the change is cleared
        usable = tab.empty() if failed or not keep else True  # what the page says while it is left still counts
        if not (undone and usable):
            _TABS.pop(key, None)
            try:
                tab.context.close()
            except Exception:  # noqa: BLE001 - a context of a browser that is gone
                pass
        assert outside() == [], f"requests outside 127.0.0.1: {outside()}"
        assert tab.errors == [], f"script or console errors: {tab.errors}"
    return pg, finish


DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def page(chromium, site_server, request):
    """A desktop page (1280 × 900)."""
    pg, finish = open_page(chromium, request, DESKTOP)
    yield pg
    finish()


@pytest.fixture
def page_with(chromium, site_server, request):
    """page_with(viewport, **context_args): a page with other context options (a colour scheme, permissions),
    checked like `page` when the test is over (checked inside the test, it would not know yet whether the test
    failed, and took a screenshot of every one)."""
    finishers = []

    def open_with(viewport: dict, **context_args):
        pg, finish = open_page(chromium, request, viewport, **context_args)
        finishers.append(finish)
        return pg
    yield open_with
    for finish in finishers:
        finish()


@pytest.fixture
def phone(chromium, site_server, request):
    """A phone page (375 × 812, touch, device scale 2)."""
    pg, finish = open_page(chromium, request, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    yield pg
    finish()


#: the hrefs of the search results, read in one step (material redraws the list at every key typed)
_RESULTS = "() => [...document.querySelectorAll('.md-search-result__item a')].map(a => a.getAttribute('href'))"


def search(page, text: str, wanted: str) -> list[str]:
    """Type `text` into the page's search box; the hrefs of the results once one of them matches the regular
    expression `wanted`. Each key searches the box's value so far and redraws the list: the hrefs are read in
    one step, never link by link from a list that may be redrawn in between. AssertionError with the results
    shown where none matches within 15 s."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_load_state("networkidle")  # the search worker has built its index (typing before: 1 run in 3 failed)
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(text)  # keys without a pause
    check = f"(wanted) => {{ const hrefs = ({_RESULTS})(); return hrefs.some(h => new RegExp(wanted).test(h)) && hrefs; }}"
    try:
        return page.wait_for_function(check, arg=wanted, timeout=15000).json_value()
    except PlaywrightTimeout:
        raise AssertionError(f"no search result for {text!r} matches {wanted!r}: {page.evaluate(_RESULTS)}") from None
