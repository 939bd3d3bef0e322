"""The built site as a customer uses it, in Chromium (tests/site_fixtures.py: one build, one browser per session):
a phone (375 px) without sideways scrolling, tables that scroll inside their box with the first column kept,
resource names never broken, copy buttons that copy the configuration, contrast in both palettes, the palette toggle,
targets of 24 × 24 px, keyboard use, matrix filters, card pages with every method's verdict. Landmarks, headings and
alt texts are markup: tests/test_site_markup.py reads them on every built page without a browser.

The search test loads the real search index (as test_site_browser's German one does): both wait until it is
built and search it, and fail on any script error (tests/site_fixtures.py) — the index and material's search
worker are the same on every page of a language. The others get the site with empty indexes (fixture `server`):
indexing the real one costs ~0.35 s CPU after every page load, they do not search, and a walk leaves each page
before its worker is done anyway."""

from __future__ import annotations

import json
import re

import pytest

from sampling import FULL, sample
from site_fixtures import DESKTOP, search

pytestmark = pytest.mark.browser

GUIDE = ["guide/operator/", "guide/methods/", "guide/mig/", "guide/time-slicing/", "guide/mps/", "guide/vm-dra/",
         "guide/choose/"]
#: one page of every kind, in both languages: what the console and layout checks visit
PAGES = ["", *GUIDE, "ask/", "mig-matrix/", "method-matrix/", "methods/", "mig-profiles/", "dra/", "releases/",
         "cards/", "cards/h200-nvl/", "reference/sources/", "reference/rules/", "reference/cli/"]


@pytest.fixture
def server(site_server_blank_search, chromium):
    """The site with empty search indexes (tests/site_fixtures.py; see the module's docstring)."""
    return site_server_blank_search


def walk(lang: str, seed: str, always: tuple = ()) -> list[str]:
    """The pages a walk in `lang` visits: half of PAGES in German, the other half in English, plus `always` in
    both (every page kind is walked once per run; one language's page is the other's with other words) —
    every page in both languages with GPUKB_FULL=1."""
    german = set(sample(PAGES, len(PAGES) // 2, seed=seed))
    return [p for p in PAGES if FULL or p in always or (p in german) == (lang == "de")]


def url(server: str, path: str, lang: str = "de") -> str:
    return f"{server}/{'en/' if lang == 'en' else ''}{path}"


# --- phone ------------------------------------------------------------------------------------------------

#: every element of the article reaching past the screen's right edge, but for those inside a box that scrolls on
#: its own (a table's scroll wrapper, code): such a box's inside is not measured at all (a matrix has thousands of
#: cells — measuring each and asking each for its ancestors took seconds a page)
WIDER_THAN_SCREEN = """() => {
  const W = document.documentElement.clientWidth, out = [];
  const own = '.md-typeset__scrollwrap, pre, .highlight';
  const walk = el => {
    for (const child of el.children) {
      if (child.matches(own)) continue;
      if (child.getBoundingClientRect().right > W + 1) out.push(child.tagName + ': ' + child.textContent.slice(0, 50));
      walk(child);
    }
  };
  document.querySelectorAll('article').forEach(a => { if (!a.closest(own)) walk(a); });
  return [document.documentElement.scrollWidth - W, out];
}"""
#: resource names and versions in code: never broken over two lines (on every page the walk visits)
TOKENS = re.compile(r"^(nvidia\.com/[\w./-]+|\d+(\.\d+){1,3}|v?\d+\.\d+\.\d+)$")
CODE = "() => [...document.querySelectorAll('article :not(pre) > code')].map(c => [c.textContent, c.getClientRects().length])"
#: pages that must have such names (so that the check above has something to fail on)
TOKEN_PAGES = ("guide/time-slicing/", "guide/mig/", "cards/h200-nvl/", "mig-profiles/")
#: pages each language's walk visits: the widest tables
ALWAYS = ("method-matrix/", "mig-profiles/", "mig-matrix/")

#: what the phone shows of a page, in one round trip: how far it scrolls sideways and what reaches past the right
#: edge (WIDER_THAN_SCREEN), and each code element's text with its count of lines (CODE)
PHONE_VIEW = f"() => [({WIDER_THAN_SCREEN})(), ({CODE})()]"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_page_scrolls_sideways_on_a_phone_nor_breaks_a_resource_name(phone, server, lang):
    """Each page loaded on the phone: nothing reaches past the screen's right edge, and no resource name or version
    in code is broken over two lines (once a test of four English pages: every page passes in both languages, and
    those four have such names in both). Language, landmarks, headings and alt texts are the markup's: read on every
    built page without a browser (tests/test_site_markup.py; this walk checked them at desktop size until
    2026-12-02, shown equal on every page: docs-dev/test-time.md)."""
    for path in walk(lang, "layout", always=ALWAYS):
        phone.goto(url(server, path, lang))
        (over, culprits), code = phone.evaluate(PHONE_VIEW)
        assert (over, culprits[:3]) == (0, []), path
        tokens = [(text, lines) for text, lines in code if TOKENS.match(text)]
        assert all(lines == 1 for _, lines in tokens), (path, [t for t in tokens if t[1] != 1])
        assert tokens or path not in TOKEN_PAGES, path


def test_a_wide_table_scrolls_in_its_box_keeps_its_first_column_and_says_so(phone, server):
    phone.goto(url(server, "method-matrix/"))
    wrap = phone.locator(".md-typeset__scrollwrap:has(.gpukb-verdict)").first
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    cue = phone.locator(".md-typeset__scrollwrap:has(.gpukb-verdict) + .gpukb-scroll-cue").first
    assert cue.is_visible() and "seitlich" in cue.inner_text()
    first = phone.locator("table:has(.gpukb-verdict) tbody tr td:first-child").first
    second = phone.locator("table:has(.gpukb-verdict) tbody tr td:nth-child(2)").first
    before, left = second.bounding_box()["x"], wrap.bounding_box()["x"]
    wrap.evaluate("w => { w.scrollLeft = 200; }")
    phone.wait_for_function("() => true")
    assert second.bounding_box()["x"] < before - 150  # the table scrolled …
    assert left - 1 <= first.bounding_box()["x"] <= left + 20  # … and the card's name stayed in view (sticky)
    assert first.bounding_box()["width"] <= 375 / 3 + 10  # the kept column takes at most a third of the phone
    # a table that fits says nothing
    phone.goto(url(server, "guide/operator/"))
    narrow = [c for c in phone.locator(".gpukb-scroll-cue").all() if c.is_visible()]
    wraps = phone.locator(".md-typeset__scrollwrap").evaluate_all("ws => ws.filter(w => w.scrollWidth > w.clientWidth).length")
    assert len(narrow) == wraps


# --- configuration to copy ----------------------------------------------------------------------------------

def test_the_copy_button_copies_the_configuration_as_shown(page_with, server, site_built):
    from kb.catalog.compiled import load_data
    from kb.site.configs import block_text

    pg = page_with(DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    pg.goto(url(server, "guide/time-slicing/", "en"))
    blocks = pg.locator("article .highlight:has(.filename)")
    assert blocks.count() == 4
    data = load_data()
    for i, block_id in enumerate(["time-slicing-configmap", "time-slicing-values", "time-slicing-patch",
                                  "time-slicing-pod"]):
        block = blocks.nth(i)
        block.hover()
        button = block.locator("button[data-md-type=copy]")
        assert button.count() == 1 and button.get_attribute("title")
        button.click()
        copied = pg.evaluate("navigator.clipboard.readText()")
        assert copied.strip("\n") == block_text(data, block_id), block_id


# --- contrast and targets ----------------------------------------------------------------------------------

CONTRAST = """(selector) => {
  function rgb(s) { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; }
  function lum([r, g, b]) { return [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
                              .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0); }
  const seen = new Map();  // each element's background once (a table's cells share their ancestors)
  function background(el) {
    if (!el) return [255, 255, 255, 1];
    let c = seen.get(el);
    if (c === undefined) {
      c = rgb(getComputedStyle(el).backgroundColor);
      c = c[3] > 0.5 ? c : background(el.parentElement);
      seen.set(el, c);
    }
    return c;
  }
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.offsetParent || !el.textContent.trim()) continue;
    const fg = rgb(getComputedStyle(el).color), bg = background(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push([el.tagName + '.' + el.className + ' ' + el.textContent.trim().slice(0, 30), (a + 0.05) / (b + 0.05)]);
  }
  return out;
}"""

CHECKED = ("article a, article p, article td, article th, article li, .md-header__title, .md-header__topic, "
           ".md-nav__link, .gpukb-verdict, .md-footer-meta, article code, .admonition-title")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["guide/mig/", "mig-matrix/", "cards/h200-nvl/"])
def test_text_and_link_contrast_is_at_least_4_5_in_both_palettes(page_with, server, scheme, path):
    pg = page_with(DESKTOP, color_scheme=scheme)
    pg.goto(url(server, path))
    # (once in a full run the light page came up dark: the scheme, the system's as emulated and the saved palette are
    # shown where it happens again)
    shown = pg.evaluate("[document.body.getAttribute('data-md-color-scheme'), matchMedia('(prefers-color-scheme: dark)')"
                        ".matches, Object.entries(localStorage)]")
    assert shown[0] == ("slate" if scheme == "dark" else "default"), shown
    measured = pg.evaluate(CONTRAST, CHECKED)
    assert len(measured) > 20
    low = [(what, round(ratio, 2)) for what, ratio in measured if ratio < 4.5]
    assert low == []


#: what the palette shows: body's scheme, the head's color-scheme, whether theme-color is the header's colour, the
#: toggle labels shown, and whether the page still waits to turn transitions back on
PALETTE = """() => {
  const header = getComputedStyle(document.querySelector('[data-md-component=header]')).backgroundColor;
  const hex = '#' + header.match(/\\d+/g).slice(0, 3).map(c => (+c).toString(16).padStart(2, '0')).join('');
  return [document.body.getAttribute('data-md-color-scheme'), document.querySelector('meta[name=color-scheme]').content,
          document.querySelector('meta[name=theme-color]').content === hex,
          [...document.querySelectorAll('form[data-gpukb-palette] label')].map(l => !l.hidden),
          document.body.hasAttribute('data-md-color-switching')];
}"""

#: counts the times the page pauses its transitions (data-md-color-switching set on <body>), from the first byte on
PAUSES = """window.__pauses = 0;
new MutationObserver(ms => ms.forEach(m => { if (m.target.hasAttribute('data-md-color-switching')) window.__pauses++; }))
  .observe(document, {attributes: true, subtree: true, attributeFilter: ['data-md-color-switching']});"""


def test_the_palette_toggle_switches_and_the_next_page_keeps_the_choice(page_with, server):
    """docs/javascripts/palette.js in place of material's palette component: the palette the system prefers (the
    contrast test above loads both), the toggle showing the other one, a click or Enter switching, the next page
    showing the reader's choice; the head's color-scheme and theme-color following."""
    pg = page_with(DESKTOP, color_scheme="light")
    pg.add_init_script(PAUSES)
    pg.goto(url(server, "guide/methods/"))
    # a first visit in the system's palette pauses no transitions at all (it was paused and resumed a frame later
    # on every first visit: the check right after loading then failed on a slow machine)
    assert pg.evaluate("window.__pauses") == 0
    assert pg.evaluate(PALETTE) == ["default", "light", True, [True, False], False]
    pg.locator("form[data-gpukb-palette] label:not([hidden])").click()
    pg.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
    assert pg.evaluate("window.__pauses") == 1  # a switch pauses them once
    assert pg.evaluate(PALETTE) == ["slate", "dark", True, [False, True], False]
    pg.goto(url(server, "cards/", "en"))
    assert pg.evaluate(PALETTE) == ["slate", "dark", True, [False, True], False]
    pg.focus("#__palette_1")
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => document.body.getAttribute('data-md-color-scheme') === 'default'")
    pg.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')")
    assert pg.evaluate(PALETTE) == ["default", "light", True, [True, False], False]


def test_footnote_links_are_targets_of_at_least_24_px(page, server):
    page.goto(url(server, "guide/mig/"))
    boxes = page.locator("a.footnote-ref").evaluate_all("as => as.map(a => [a.offsetWidth, a.offsetHeight])")
    assert boxes and all(w >= 24 and h >= 24 for w, h in boxes), boxes[:5]


# --- structure and keyboard ----------------------------------------------------------------------------------

def test_the_ask_form_works_with_the_keyboard_alone(page, server):
    page.goto(url(server, "ask/", "en"))
    page.wait_for_selector("#gpukb-ask[data-answered]")
    page.locator("#gpukb-ask-q").focus()
    for _ in range(6):  # to "mig" by arrow keys, whatever the first question is
        if page.locator("#gpukb-ask-q").input_value() == "mig":
            break
        page.keyboard.press("ArrowDown")
    assert page.locator("#gpukb-ask-q").input_value() == "mig"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "gpukb-ask-card"
    for _ in range(5):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "gpukb-ask-driver":
            break
    assert page.evaluate("document.activeElement.id") == "gpukb-ask-driver"
    page.keyboard.type("580.82.07")
    page.keyboard.press("Enter")
    page.wait_for_selector('#gpukb-ask[data-answered*="driver=580.82.07"]')
    assert page.locator("#gpukb-ask-answer [data-verdict]").count() == 1
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle + getComputedStyle(document.activeElement).boxShadow")
    assert outline not in ("nonenone", "none")  # the focus is visible


# --- matrices, cards, search ------------------------------------------------------------------------------------

#: each row of a matrix: visible as Playwright's is_visible() decides (checkVisibility, visibility, a box), its
#: card (the first data-card) and its count of "no" verdicts — all rows in one round trip, not three per row
ROWS = """rows => rows.map(r => {
  const box = r.getBoundingClientRect();
  return {visible: r.checkVisibility() && getComputedStyle(r).visibility === 'visible' && box.width > 0 && box.height > 0,
          card: (r.querySelector('[data-card]') || {getAttribute: () => null}).getAttribute('data-card'),
          no: r.querySelectorAll('[data-verdict="no"]').length};
})"""


def test_matrix_filters_by_verdict_family_and_name(page, server, site_built):
    page.goto(url(server, "mig-matrix/"))
    form = page.locator(".gpukb-filter").first
    assert form.is_visible()
    rows = page.locator("table:has(.gpukb-verdict) tbody tr")

    def visible():
        return [r for r in rows.evaluate_all(ROWS) if r["visible"]]
    total = rows.count()
    form.locator('[data-filter="verdict"]').select_option("no")
    shown = visible()
    assert 0 < len(shown) < total
    assert all(r["no"] >= 1 for r in shown)
    assert form.locator("output").inner_text() == f"{len(shown)} von {total} Karten"
    form.locator('[data-filter="verdict"]').select_option("")
    families = json.loads(form.get_attribute("data-families"))
    fam = form.locator('[data-filter="family"]')
    if fam.count():
        key = families["h200-nvl"]
        fam.select_option(key)
        assert {r["card"] for r in visible()} == {c for c, f in families.items() if f == key}
        fam.select_option("")
    form.locator('[data-filter="text"]').fill("H200 NVL")  # GH200 and H200 SXM do not match
    assert [r["card"] for r in visible()] == ["h200-nvl"]


def test_matrix_rows_link_to_a_prefilled_problem_report(page, server, site_built):
    page.goto(url(server, "method-matrix/", "en"))
    link = page.locator("table tbody tr:has([data-card='l4']) a.gpukb-report")
    href = link.get_attribute("href")
    assert href.startswith("https://github.com/eurokommerz/gpukb/issues/new?title=")
    from urllib.parse import parse_qs, urlparse

    body = parse_qs(urlparse(href).query)["body"][0]
    assert "NVIDIA L4" in body and "Fact: cards/l4 mig, operator_support\n" in body and f"Data version: {site_built.export['data_version']}" in body
    assert link.get_attribute("aria-label") == "Report a problem with this fact"


def test_card_page_shows_every_methods_verdict_of_the_engine(page, server, site_built):
    from kb import versions

    answers = [a for a in site_built.export["answers"] if a["question"] == "methods" and a["inputs"]["card"] == "l40s"
               and not a["inputs"].get("driver") and not a["inputs"].get("mig_enabled")]
    newest = max(answers, key=lambda a: versions.key(a["inputs"]["operator"]))
    page.goto(url(server, "cards/l40s/", "en"))
    badges = page.locator("span.gpukb-verdict[data-card='l40s'][data-method]")
    shown = dict(badges.evaluate_all("bs => bs.map(b => [b.dataset.method, b.dataset.verdict])"))
    assert shown == newest["details"]["methods"]
    link = page.get_by_role("link", name="Check the methods with your driver and release")
    link.click()
    page.wait_for_selector("#gpukb-ask[data-answered]")
    assert "q=methods" in page.url and "card=l40s" in page.url
    assert page.locator("#gpukb-ask-answer [data-verdict]").count() == 1


def test_english_search_finds_english_pages_only(page, site_server):
    with page.expect_response(lambda r: r.url.endswith("/en/search/search_index.json")):
        page.goto(url(site_server, "", "en"))
    hrefs = search(page, "display mode", r"en/guide/mig/")
    assert any("en/guide/mig/" in h for h in hrefs) and all("/en/" in h for h in hrefs), hrefs
