"""The built site in a real browser (Playwright driving Debian's Chromium, tests/site_fixtures.py CHROMIUM; never
`playwright install`).

The site is built once per session from a copy of docs/ and of the real catalog, with one card's note replaced
by HTML and script, and served by http.server on 127.0.0.1; one Chromium serves every browser test
(tests/site_fixtures.py). Screenshots of failed tests go to test-artifacts/site-browser/ (GPUKB_SHOTS=1: of all).

The search test loads the real search index; every other test here gets the site with empty ones (fixture
`server`): building the real index costs ~0.35 s CPU after each page load and they do not search. The English
search is tests/test_site_layout.py's.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from kb.wording import date_text
from site_fixtures import search

pytestmark = pytest.mark.browser


@pytest.fixture
def built(site_built, chromium):
    """The session's site (tests/site_fixtures.py: .site, .poisoned, .export — the 80 MB export parsed on first use,
    by the tests that read it, not by the first test asking for the site); needs the browser."""
    return site_built


@pytest.fixture
def server(site_server_blank_search, chromium):
    """The site with empty search indexes (tests/site_fixtures.py): these tests do not search."""
    return site_server_blank_search


def test_german_start_page(page, server):
    """Its language, a heading, the title — and the landmarks as a screen reader finds them on a desktop: the markup
    has them on every page (tests/test_site_markup.py), here the stylesheet, the same on every page, hides none."""
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("h1").first.inner_text().strip() != ""
    assert page.title().endswith("GPU-Sharing in Kubernetes")
    for role in ("banner", "main", "contentinfo", "navigation"):
        assert page.get_by_role(role).count() >= 1, role


def test_english_start_page(page, server):
    page.goto(server + "/en/")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.title().endswith("GPU sharing in Kubernetes")


def test_language_switch_keeps_the_page(page, server):
    page.goto(server + "/guide/methods/")  # a guide page, and one of the shortest (three loads: ~1 s less than the MIG guide)
    page.locator(".md-header__option .md-select").first.hover()
    page.locator('a.md-select__link[hreflang="en"]').click()
    page.wait_for_url(re.compile(r"/en/guide/methods/$"))
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".md-header__option .md-select").first.hover()
    page.locator('a.md-select__link[hreflang="de"]').click()
    page.wait_for_url(re.compile(r"/guide/methods/$"))
    assert page.locator("html").get_attribute("lang") == "de"


def test_german_search_finds_the_mig_page(page, site_server):
    with page.expect_response(lambda r: r.url.endswith("/search/search_index.json")):
        page.goto(site_server + "/")
    hrefs = search(page, "Anzeigemodus", r"^(?!.*/en/).*guide/mig/")
    assert any("guide/mig/" in h and "/en/" not in h for h in hrefs), hrefs


def test_mig_matrix_shows_the_engines_verdicts(page, server, built):
    page.goto(server + "/mig-matrix/")
    cells = page.locator("span[data-verdict][data-card][data-operators]")
    shown = cells.evaluate_all("cs => cs.map(c => [c.dataset.card, c.dataset.operators, c.dataset.verdict])")
    assert shown
    answers = {(a["inputs"]["card"], a["inputs"]["operator"]): a["verdict"] for a in built.export["answers"]
               if a["question"] == "mig" and a["inputs"].get("driver") is None}
    seen, covered = set(), set()
    for card, operators, verdict in shown:
        for operator in operators.split():  # a column may stand for several releases with equal answers
            expected = answers.get((card, operator))
            assert verdict == expected, (card, operator)
            seen.add(expected)
            covered.add((card, operator))
    assert len(seen) >= 2, f"a matrix with one verdict only proves little: {seen}"
    # every card with every release the engine answered for, none left out by the merged columns
    assert covered == {(a["inputs"]["card"], a["inputs"]["operator"]) for a in built.export["answers"]
                       if a["question"] == "mig" and not a["inputs"].get("driver")}
    word = {"yes": "Ja", "conditional": "Bedingt", "unconfirmed": "Unbestätigt", "no": "Nein"}
    first = cells.first
    assert first.inner_text() == word[first.get_attribute("data-verdict")]


# --- the ask page: every question by permalink, the same answer as the data's oracle (= gpukb ask) -----

@functools.lru_cache(maxsize=None)
def _oracle(site: Path, lang: str):
    """The oracle over the ask data of one language (read and name-indexed once per process: ~0.1 s each;
    Oracle.ask does not change it)."""
    import json

    from ask_oracle import Oracle

    root = site / ("en" if lang == "en" else "") / "ask" / "data"
    return Oracle({"shared": json.loads((root / "shared.json").read_text(encoding="utf-8")),
                   "cards": {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (root / "cards").glob("*.json")}})


#: the answer's parts as the page shows them (innerText, as Playwright's inner_text), read in one round trip; the
#: parts there must be one of are counted (Playwright's strict locators failed on two); with the levels of the
#: article's headings (the answer's are written by ask.js, so the markup check of every built page cannot see them)
SHOWN = """() => {
  const out = document.querySelector('#gpukb-ask-answer'), all = (el, s) => [...el.querySelectorAll(s)];
  const text = el => el.innerText;
  return {
    verdict: all(out, '[data-verdict]').map(e => e.getAttribute('data-verdict')),
    summary: all(out, '.gpukb-ask-summary').map(text),
    conditions: all(out, '.gpukb-ask-conditions > li').map(text),
    cites: all(out, '.gpukb-ask-sources > li').map(text),
    reasons: all(out, '.gpukb-ask-reasons > li').map(li => ({
      marks: all(li, 'a.gpukb-ask-ref').map(text), rule: all(li, 'code').map(text),
      text: all(li, 'span').slice(0, 1).map(text)})),
    details: all(out, '.gpukb-ask-details').map(text),
    levels: all(document, 'article h1, article h2, article h3, article h4').map(h => +h.tagName[1]),
  };
}"""


def _shown(page) -> dict:
    """The answer as the page shows it, in the shape of the oracle's answers; fails where the page's headings are
    not one h1 first and no level skipped (as tests/test_site_markup.py checks every built page)."""
    raw = page.evaluate(SHOWN)
    levels = raw["levels"]
    assert levels[:1] == [1] and levels.count(1) == 1, levels
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:])), levels  # no level skipped
    one = {k: raw[k] for k in ("verdict", "summary")}
    assert all(len(v) == 1 for v in one.values()) and len(raw["details"]) <= 1, raw
    assert all(len(r["rule"]) == 1 and len(r["text"]) == 1 for r in raw["reasons"]), raw["reasons"]
    cites = raw["cites"]
    return {"verdict": raw["verdict"][0], "summary": raw["summary"][0], "conditions": raw["conditions"],
            "reasons": [{"rule": r["rule"][0], "text": r["text"][0].strip(),
                         "cites": [cites[int(m.strip("[]")) - 1] for m in r["marks"]]} for r in raw["reasons"]],
            "details": raw["details"][0].split("\n") if raw["details"] else []}


def _expected(answer: dict) -> dict:
    def cite(c):  # <q> marks are CSS: the text holds the quote, then our translation of a German one
        text = c["title"] + (", " + c["section"] if c.get("section") else "") + ": " + c["quote"]
        if c.get("translation"):
            text += f" (German original; our translation: {c['translation']})"
        return text.strip()
    return {**answer, "reasons": [{**r, "cites": [cite(c) for c in r["cites"]]} for r in answer["reasons"]]}


ASKED = [
    ("de", "q=mig&card=rtx-pro-6000-blackwell-server&driver=580.82.07", "mig",
     {"card": "rtx-pro-6000-blackwell-server", "driver": "580.82.07"}),
    ("en", "q=mig&card=RTX%20PRO%206000%20Server%20Edition&operator=v26.3.0&driver=575.57.08", "mig",
     {"card": "RTX PRO 6000 Server Edition", "operator": "v26.3.0", "driver": "575.57.08"}),
    ("en", "q=mig&card=NVIDIA-H200-NVL&driver=595.91.07", "mig", {"card": "NVIDIA-H200-NVL", "driver": "595.91.07"}),
    ("de", "q=methods&card=L40S&driver=580.65.06", "methods", {"card": "L40S", "driver": "580.65.06"}),
    ("en", "q=methods&card=h200-nvl&mig-enabled=1", "methods", {"card": "h200-nvl", "mig-enabled": True}),
    ("en", "q=resource&card=H200%20NVL&profile=1g.18gb&strategy=mixed", "resource",
     {"card": "H200 NVL", "profile": "1g.18gb", "strategy": "mixed"}),
    # an older release: the device plugin version it ships and its own release entry filled in by the page
    ("de", "q=resource&card=A100%20PCIe%2040GB&profile=1g.5gb%2Bme&strategy=mixed&operator=25.3.0", "resource",
     {"card": "A100 PCIe 40GB", "profile": "1g.5gb+me", "strategy": "mixed", "operator": "25.3.0"}),
    # time-slicing and MPS on a plain MIG profile: one template for the card's plain profiles, the profile, its
    # resource name and count filled in by the page (kb.site.askdata.profile_derived)
    ("en", "q=resource&card=H200%20NVL&profile=3g.71gb&strategy=mixed&time-slicing=4", "resource",
     {"card": "H200 NVL", "profile": "3g.71gb", "strategy": "mixed", "time-slicing": "4"}),
    ("de", "q=resource&card=h100-sxm5-80gb&profile=2g.20gb&mps=3&rename-by-default=1", "resource",
     {"card": "h100-sxm5-80gb", "profile": "2g.20gb", "mps": "3", "rename-by-default": True}),
    # … and on a variant profile (one template for a card's variants): under an older release its plain profile's
    # resource, under a newer one its own
    ("de", "q=resource&card=a30&profile=2g.12gb%2Bme&strategy=mixed&time-slicing=4&operator=25.3.0", "resource",
     {"card": "a30", "profile": "2g.12gb+me", "strategy": "mixed", "time-slicing": "4", "operator": "25.3.0"}),
    ("en", "q=resource&card=rtx-pro-6000-blackwell-server&profile=2g.48gb-me&strategy=mixed&mps=2", "resource",
     {"card": "rtx-pro-6000-blackwell-server", "profile": "2g.48gb-me", "strategy": "mixed", "mps": "2"}),
    ("de", "q=resource&card=L4&time-slicing=4&rename-by-default=1", "resource",
     {"card": "L4", "time-slicing": "4", "rename-by-default": True}),
    ("en", "q=resource&card=l40s&mps=9223372036854775807", "resource", {"card": "l40s", "mps": "9223372036854775807"}),
    ("en", "q=strategy&gpu=H200%20NVL:all-1g.18gb&gpu=L4", "strategy", {"gpu": ["H200 NVL:all-1g.18gb", "L4"]}),
    ("de", "q=strategy&gpu=H200%20NVL:1g.18gb,1g.18gb,2g.35gb&gpu=rtx-pro-6000-blackwell-max-q:all-1g.24gb&operator=25.10.0",
     "strategy", {"gpu": ["H200 NVL:1g.18gb,1g.18gb,2g.35gb", "rtx-pro-6000-blackwell-max-q:all-1g.24gb"], "operator": "25.10.0"}),
    ("en", "q=dra&k8s=1.33.9&feature=dynamic-mig", "dra", {"k8s": "1.33.9", "feature": "dynamic-mig"}),
    ("de", "q=dra&k8s=v1.35.0&operator=25.10.1", "dra", {"k8s": "v1.35.0", "operator": "25.10.1"}),
    ("en", "q=dra&k8s=1.33.4&install=standalone&feature=mps", "dra", {"k8s": "1.33.4", "install": "standalone", "feature": "mps"}),
    # a standalone DRA driver release (`gpukb ask dra --dra-driver 25.8.0`): its own Kubernetes minimum and README
    ("en", "q=dra&install=standalone&dra-driver=25.8.0&k8s=1.33.4&feature=compute-domains", "dra",
     {"install": "standalone", "dra-driver": "25.8.0", "k8s": "1.33.4", "feature": "compute-domains"}),
    ("en", "q=strategy&gpu=H200%20NVL:all-1g.18gb&gpu=H200%20NVL&driver=570.148.08&operator=25.3.4", "strategy",
     {"gpu": ["H200 NVL:all-1g.18gb", "H200 NVL"], "driver": "570.148.08", "operator": "25.3.4"}),
    ("en", "q=recommend&workload=small-inference&card=L4", "recommend", {"workload": "small-inference", "card": "L4"}),
    # a name fitting several cards with one answer: answered once naming them, as `gpukb ask mig "A100 80GB"`
    ("de", "q=mig&card=A100%2080GB", "mig", {"card": "A100 80GB"}),
    ("de", "q=recommend&workload=multi-tenant&isolation=required", "recommend",
     {"workload": "multi-tenant", "isolation": "required"}),
]


@pytest.fixture
def ask_page(chromium, server, request):
    """ask_page(lang): the ask page of that language in a tab of its own that stays on it from test to test
    (tests/site_fixtures.py open_page keep=…; loaded once per worker and language, ~0.8 s CPU a load); `to(page,
    address)` below shows another question on it as back and forward do. A failed test leaves the page."""
    finishers = []

    def open_ask(lang: str):
        from site_fixtures import DESKTOP, open_page

        pg, finish = open_page(chromium, request, DESKTOP, keep=f"ask-{lang}")
        finishers.append(finish)
        base = _ask_url(server, lang)
        if not pg.url.startswith(base + "?"):
            pg.goto(base)
            pg.wait_for_selector("#gpukb-ask[data-answered]")
        return pg
    yield open_ask
    for finish in finishers:
        finish()


def _ask_url(server: str, lang: str, query: str | None = None) -> str:
    return f"{server}{'/en' if lang == 'en' else ''}/ask/" + ("" if query is None else f"?{query}")


#: to an address of the loaded ask page as the browser's back button does: two history entries of it pushed and
#: the browser sent back from the second to the first — a real popstate the page answers by reading its address
#: again, as a load of it would; the answer's mark is taken first, so the page must answer anew
GO = """async url => {
  document.getElementById('gpukb-ask').removeAttribute('data-answered');
  history.pushState(null, '', url);
  history.pushState(null, '', url);
  const popped = new Promise(done => addEventListener('popstate', done, {once: true}));
  history.back();
  await popped;
}"""


def to(page, url: str) -> None:
    """Show `url` (an address of the ask page already loaded in `page`) without loading it again; waits for the
    answer."""
    page.evaluate(GO, url)
    page.wait_for_selector("#gpukb-ask[data-answered]")


@pytest.mark.parametrize("lang, query, question, state", ASKED, ids=[a[1][:48] for a in ASKED])
def test_ask_permalink_shows_the_answer_of_gpukb_ask(ask_page, server, built, lang, query, question, state):
    page = ask_page(lang)
    to(page, _ask_url(server, lang, query))
    expected = _expected(_oracle(built.site, lang).ask(question, state))
    assert _shown(page) == expected
    assert page.locator("html").get_attribute("lang") == lang
    # the address still holds the question (material's search would take a "q" for itself) …
    assert f"q={question}" in page.url
    assert page.locator("#__search").is_checked() is False
    # … and the link on the page brings the same answer back
    to(page, page.locator("#gpukb-ask-link").get_attribute("href"))
    assert _shown(page) == expected


@pytest.mark.parametrize("lang, query, question, state", [ASKED[1], ASKED[10]], ids=["en", "de"])
def test_a_permalink_loaded_afresh_shows_the_answer_and_not_the_search(page, server, built, lang, query, question,
                                                                       state):
    """The permalinks above are shown on a loaded page; loading one is the first thing a reader does with it:
    the question's "q" must reach the ask page, not material's search (overrides/main.html), and so must the
    canonical link's (loaded too)."""
    page.goto(_ask_url(server, lang, query))
    page.wait_for_selector("#gpukb-ask[data-answered]")
    expected = _expected(_oracle(built.site, lang).ask(question, state))
    assert _shown(page) == expected
    assert page.locator("html").get_attribute("lang") == lang
    assert f"q={question}" in page.url
    assert page.locator("#__search").is_checked() is False
    # the data version under the answer, its date written as every page writes it (kb.wording.date_text)
    day = date_text(built.export["verified"], lang)
    assert page.locator("#gpukb-ask-stamp").text_content() == (
        f"Datenversion {built.export['data_version']} · geprüft am {day}" if lang == "de"
        else f"Data version {built.export['data_version']} · verified as of {day}")
    link = page.locator("#gpukb-ask-link").get_attribute("href")
    page.goto(link)
    page.wait_for_selector("#gpukb-ask[data-answered]")
    assert _shown(page) == expected
    assert page.locator("#__search").is_checked() is False


def test_a_card_or_release_the_page_does_not_know_is_shown_as_typed_and_a_device_id_chooses_its_card(ask_page, server):
    """A name that fits no card stays in the card list as typed (not the list's first card beside the error), so
    does a release; a PCI device id as lspci writes it chooses its card, as `gpukb ask mig 10de:2330` does."""
    page = ask_page("en")
    to(page, _ask_url(server, "en", "q=mig&card=H101&operator=27.1.0"))
    assert page.locator("#gpukb-ask-card option:checked").text_content() == "H101"
    assert page.locator("#gpukb-ask-operator option:checked").text_content() == "27.1.0"
    assert page.locator("#gpukb-ask-answer").inner_text().startswith(
        "unknown card 'H101' — did you mean: H100 NVL; H100 PCIe 80GB; H100 SXM5 80GB; H100 SXM5 94GB")
    to(page, _ask_url(server, "en", "q=mig&card=10de:2330"))
    assert page.locator("#gpukb-ask-card").input_value() == "h100-sxm5-80gb"
    newest = page.locator("#gpukb-ask-operator option").first.get_attribute("value")
    assert page.locator("#gpukb-ask-operator").input_value() == newest and newest != "27.1.0"
    assert page.locator("option[data-typed]").count() == 0  # what was typed before is gone with its address
    assert "H100 SXM5 80GB" in page.locator("#gpukb-ask-answer").inner_text()


def test_the_back_button_shows_the_question_asked_before(ask_page, server, built):
    page = ask_page("en")
    first = "q=mig&card=h200-nvl&driver=580.82.07"
    to(page, _ask_url(server, "en", first))
    before = _shown(page)
    assert before == _expected(_oracle(built.site, "en").ask("mig", {"card": "h200-nvl", "driver": "580.82.07"}))
    page.fill("#gpukb-ask-driver", "")  # a question asked in the form: a new entry of the history
    page.press("#gpukb-ask-driver", "Enter")
    page.wait_for_selector('#gpukb-ask[data-answered]:not([data-answered*="driver="])')
    after, address = _shown(page), page.url
    assert after == _expected(_oracle(built.site, "en").ask("mig", {"card": "h200-nvl"})) != before
    page.go_back()
    page.wait_for_selector('#gpukb-ask[data-answered*="driver=580.82.07"]')
    assert "q=mig" in page.url and "driver=580.82.07" in page.url
    assert _shown(page) == before
    assert page.locator("#gpukb-ask-driver").input_value() == "580.82.07"
    page.go_forward()
    page.wait_for_selector('#gpukb-ask[data-answered]:not([data-answered*="driver="])')
    assert page.url == address and _shown(page) == after
    assert page.locator("#gpukb-ask-driver").input_value() == ""  # what the address does not say is not kept


def test_ask_page_follows_the_form_and_updates_its_address(ask_page, server, built):
    page = ask_page("en")
    to(page, _ask_url(server, "en", ""))  # the page as loaded without a question
    page.select_option("#gpukb-ask-q", "mig")
    page.select_option("#gpukb-ask-card", "rtx-pro-6000-blackwell-server")
    oracle = _oracle(built.site, "en")
    for typed in ("575.57.08", "575.57.9", "580.82.07", "550.1"):
        page.fill("#gpukb-ask-driver", typed)
        page.press("#gpukb-ask-driver", "Enter")
        page.wait_for_function("q => location.search.includes(q)", arg=f"driver={typed}")
        page.wait_for_selector(f'#gpukb-ask[data-answered*="driver={typed}"]')
        expected = oracle.ask("mig", {"card": "rtx-pro-6000-blackwell-server", "driver": typed})
        assert _shown(page) == _expected(expected), typed
    page.select_option("#gpukb-ask-q", "dra")
    assert page.locator('[data-field="card"]').is_hidden() and page.locator('[data-field="k8s"]').is_visible()


@pytest.mark.parametrize("query, message", [
    # a part of one card's name that fits no card: the CLI says the same (gpukb ask mig "Blackwell Max-Q")
    ("q=mig&card=Blackwell%20Max-Q", "unknown card 'Blackwell Max-Q' — did you mean: RTX PRO 6000 Max-Q"),
    # a name fitting several cards whose answers differ: the CLI's exit-2 words listing the verdicts
    ("q=methods&card=RTX%20PRO%206000", "RTX PRO 6000 fits several cards whose answers differ — "),
    ("q=mig&card=l4&driver=banana", "is not a driver version"),
    ("q=dra&k8s=1.34", "without a patch release cannot be answered"),
    ("q=dra&k8s=1.34.2&dra-driver=0.5.0", "unknown standalone DRA driver release '0.5.0'"),
    ("q=resource&card=L4&profile=1g.18gb", "L4 has no MIG profiles"),
    ("q=strategy&gpu=H200%20NVL:all-9g.99gb", "unknown MIG profile '9g.99gb' for H200 NVL"),
    ("q=mig&card=l4&operator=24.1", "is not a release we know"),
    ("q=resource&card=L4&time-slicing=1", "replicas must be at least 2, not 1"),
])
def test_ask_page_says_what_is_wrong_with_an_input(ask_page, server, query, message):
    page = ask_page("en")
    to(page, _ask_url(server, "en", query))
    alert = page.locator("#gpukb-ask-answer [role=alert]")
    assert message in alert.inner_text()


def test_catalog_markup_is_shown_as_text_not_run(page, server, built):
    for prefix in ("", "/en"):
        page.goto(f"{server}{prefix}/cards/{built.poisoned}/")
        from sitebuild import POISON

        assert POISON in page.locator("article").inner_text()
        assert page.evaluate("window.__gpukb_pwned") is None
        assert page.locator("article script, article img[src=x]").count() == 0
