"""The built site in a real browser (Playwright driving Debian's /usr/bin/chromium; never `playwright install`).

The site is built from a copy of docs/ and of the real catalog into a temporary folder, with one card's
note replaced by HTML and script, and served by http.server on 127.0.0.1. Screenshots go to
test-artifacts/site-browser/ (the folder is printed by the test run's -ra summary when a test fails).
"""

from __future__ import annotations

import http.server
import re
import threading
from functools import partial
from pathlib import Path
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "test-artifacts" / "site-browser"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium not found: the browser tests need Debian's chromium (.ci/run installs it)")
    from test_site_build import build_site

    site = build_site(str(tmp_path_factory.getbasetemp() / "gpukb-site"))
    assert site.ok, site.log
    return {"site": site.site, "poisoned": site.poisoned, "export": site.export}


@pytest.fixture(scope="module")
def server(built):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = partial(Quiet, directory=str(built["site"]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    """A fresh page that records every request; a test fails if one leaves 127.0.0.1."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    requests: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    outside = [u for u in requests if urlparse(u).scheme not in ("data", "blob")
               and urlparse(u).hostname != "127.0.0.1"]
    context.close()
    assert outside == [], f"requests outside 127.0.0.1: {outside}"
    assert errors == [], f"script errors: {errors}"


def mig_answer(export: dict, card: str, operator: str, driver: str | None = None) -> dict:
    return next(a for a in export["answers"] if a["question"] == "mig" and a["inputs"]["card"] == card
                and a["inputs"]["operator"] == operator and a["inputs"].get("driver") == driver)


def test_german_start_page(page, server):
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").first.inner_text().strip() != ""
    assert page.title().endswith("GPU-Sharing in Kubernetes")


def test_english_start_page(page, server):
    page.goto(server + "/en/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.title().endswith("GPU sharing in Kubernetes")


def test_language_switch_keeps_the_page(page, server):
    page.goto(server + "/guide/mig/")
    page.locator(".md-header__option .md-select").first.hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(re.compile(r"/en/guide/mig/$"))
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".md-header__option .md-select").first.hover()
    page.locator('a.md-select__link[hreflang="de"]').click()
    page.wait_for_url(re.compile(r"/guide/mig/$"))
    assert page.locator("html").get_attribute("lang") == "de"


def test_german_search_finds_the_mig_page(page, server):
    with page.expect_response(lambda r: r.url.endswith("/search/search_index.json")):
        page.goto(server + "/")
    page.wait_for_load_state("networkidle")  # the search worker has built its index
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("Anzeigemodus", delay=50)
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("guide/mig/" in h and "/en/" not in h for h in hrefs), hrefs


def test_mig_matrix_shows_the_engines_verdicts(page, server, built):
    page.goto(server + "/mig-matrix/")
    cells = page.locator("span[data-verdict][data-card][data-operators]")
    assert cells.count() > 0
    seen, covered = set(), set()
    for i in range(cells.count()):
        card, operators = cells.nth(i).get_attribute("data-card"), cells.nth(i).get_attribute("data-operators")
        for operator in operators.split():  # a column may stand for several releases with equal answers
            expected = mig_answer(built["export"], card, operator)["verdict"]
            assert cells.nth(i).get_attribute("data-verdict") == expected, (card, operator)
            seen.add(expected)
            covered.add((card, operator))
    assert len(seen) >= 2, f"a matrix with one verdict only proves little: {seen}"
    # every card with every release the engine answered for, none left out by the merged columns
    assert covered == {(a["inputs"]["card"], a["inputs"]["operator"]) for a in built["export"]["answers"]
                       if a["question"] == "mig" and not a["inputs"].get("driver")}
    word = {"yes": "Ja", "conditional": "Bedingt", "unconfirmed": "Unbestätigt", "no": "Nein"}
    first = cells.first
    assert first.inner_text() == word[first.get_attribute("data-verdict")]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_ask_page_answers_for_a_chosen_card(page, server, built, lang):
    page.goto(server + ("/ask/" if lang == "de" else "/en/ask/"))
    page.wait_for_selector("#gpukb-ask[data-answered]")
    export = built["export"]
    operators = page.locator("#gpukb-ask-operator option").all_inner_texts()
    cards = page.locator("#gpukb-ask-card option").evaluate_all("os => os.map(o => o.value)")
    assert len(cards) >= 2 and operators
    for card in cards[:3]:
        page.select_option("#gpukb-ask-card", card)
        page.select_option("#gpukb-ask-operator", operators[0])
        page.select_option("#gpukb-ask-driver", "")
        expected = mig_answer(export, card, operators[0])
        verdict = page.locator("#gpukb-ask-answer .gpukb-verdict")
        assert verdict.get_attribute("data-verdict") == expected["verdict"]
        summary = page.locator("#gpukb-ask-answer .gpukb-ask-summary").inner_text()
        assert summary == expected["summary"][lang]
        assert page.locator("#gpukb-ask-answer .gpukb-ask-reasons code").all_inner_texts() == [
            r["rule"] for r in expected["reasons"]]


def test_catalog_markup_is_shown_as_text_not_run(page, server, built):
    for prefix in ("", "/en"):
        page.goto(f"{server}{prefix}/cards/{built['poisoned']}/")
        from test_site_build import POISON

        assert POISON in page.locator("article").inner_text()
        assert page.evaluate("window.__gpukb_pwned") is None
        assert page.locator("article script, article img[src=x]").count() == 0
