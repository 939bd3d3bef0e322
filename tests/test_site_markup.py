"""Every built page's markup, both languages, without a browser: the page's language, its landmarks (banner, main,
content info, navigation), one h1 first and no heading level skipped in the article, no image without alt text, and
the MIG matrix's column headers. The site is built once per run; its pages are parsed in the customer-voice checks'
pass (tests/site_pages.py), on the one xdist worker of both modules (conftest PARSED_PAGES).

Until 2026-12-02 the phone walk of tests/test_site_layout.py switched every page it visited (about a dozen per
language) to desktop size and asked the browser's role engine; these are properties of the HTML, read here on all
166 pages. Shown equal on every page in both viewports (docs-dev/test-time.md, round of 2026-12-02 late morning):
lang, banner, main, content info, column headers, images without alt and the article's heading levels as the
browser's queries gave them — but the ask page's answer, which its script writes (its headings are checked on every
answer the browser tests show, tests/test_site_browser.py); the browser's navigation count adds material's
code-block navs and leaves out the table of contents CSS hides at one width: never fewer than seven. That CSS does
not hide a landmark on a desktop is checked in the browser on the start page (test_site_browser)."""

from __future__ import annotations

import functools

import pytest

from site_pages import LANDMARKS, markups, read

#: the pages with a data table whose column headers a screen reader announces
COLUMN_HEADERS = ("mig-matrix/index.html", "en/mig-matrix/index.html")


@pytest.fixture
def built(site_built):
    """The site built once per run (tests/site_fixtures.py)."""
    return site_built


def problems(rel: str, lang: str, markup) -> list[str]:
    """What is wrong with one page's markup (empty: nothing)."""
    out = []
    if markup.lang != lang:
        out.append(f"lang {markup.lang!r}, not {lang!r}")
    out += [f"no {role} landmark" for role in LANDMARKS if markup.roles[role] < 1]
    levels = markup.levels
    if levels[:1] != [1] or levels.count(1) != 1:
        out.append(f"not one h1 first: {levels}")
    out += [f"heading level {b} after {a}" for a, b in zip(levels, levels[1:]) if b - a > 1]
    if markup.no_alt:
        out.append(f"{markup.no_alt} image(s) without alt")
    if rel in COLUMN_HEADERS and markup.roles["columnheader"] < 2:
        out.append(f"{markup.roles['columnheader']} column headers")
    return out


def test_every_page_has_its_language_landmarks_one_h1_no_skipped_level_and_alt_texts(built):
    found = markups(built.site)
    assert len(found) > 100 and {lang for _rel, lang, _m in found} == {"de", "en"}
    assert set(COLUMN_HEADERS) <= {rel for rel, _lang, _m in found}
    assert {rel: problems(rel, lang, markup) for rel, lang, markup in found if problems(rel, lang, markup)} == {}


#: each defect planted once into a real page, and what the check must say
PLANTED = [
    ("wrong language", lambda h: h.replace('<html lang="de"', '<html lang="en"', 1), "lang 'en', not 'de'"),
    ("no banner", lambda h: h.replace("<header", "<div", 1).replace("</header>", "</div>", 1), "no banner landmark"),
    ("a header inside a section is no banner",
     lambda h: h.replace("<header", "<section><header", 1).replace("</header>", "</header></section>", 1),
     "no banner landmark"),
    ("no main", lambda h: h.replace("<main", "<div", 1).replace("</main>", "</div>", 1), "no main landmark"),
    ("no content info", lambda h: h.replace("<footer", "<div", 1).replace("</footer>", "</div>", 1),
     "no contentinfo landmark"),
    ("the footer hidden", lambda h: h.replace("<footer", "<footer hidden", 1), "no contentinfo landmark"),
    ("no navigation", lambda h: h.replace("<nav", "<div").replace("</nav>", "</div>"), "no navigation landmark"),
    ("a second h1", lambda h: h.replace("<h2", "<h1", 1).replace("</h2>", "</h1>", 1), "not one h1 first"),
    ("a skipped level", lambda h: h.replace("<h2", "<h3", 1).replace("</h2>", "</h3>", 1), "heading level 3 after 1"),
    ("an image without alt", lambda h: h.replace("</article>", '<img src="x.png"></article>', 1),
     "1 image(s) without alt"),
    ("header cells as data cells", lambda h: h.replace("<th", "<td").replace("</th>", "</td>"), "0 column headers"),
]


@functools.lru_cache(maxsize=2)
def _clean_problems(page: str, html: str) -> list[str]:
    """The problems of the page as built, read once for the planted cases (≈ 50 ms a parse of this page)."""
    return problems(page, "de", read(html))


@pytest.mark.parametrize("what, plant, said", PLANTED, ids=[p[0] for p in PLANTED])
def test_the_markup_check_finds_each_defect_planted_in_a_real_page(built, what, plant, said):
    page = "mig-matrix/index.html"
    html = (built.site / page).read_text(encoding="utf-8")
    assert _clean_problems(page, html) == []
    planted = plant(html)
    assert planted != html, what
    assert any(said in p for p in problems(page, "de", read(planted))), what
