"""Every built page, read and parsed once per process (html.parser: ~1.8 s for the site's 166 pages, 9 MB) for the
tests that read the built HTML without a browser: the customer's words (tests/test_voice_site.py) and the page's
markup — language, landmarks, headings, alt texts (tests/test_site_markup.py) — in the same pass.

    from site_pages import pages, every_page, markups
"""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path

FOR_SUPPORT_STAFF = ("reference/cli/", "reference/rules/")
SKIPPED_ELEMENTS = {"code", "pre", "script", "style", "kbd"}
VOID = ("br", "img", "input", "meta", "link", "hr", "source", "wbr")
_VOID_TAGS = frozenset(VOID)
#: the attributes whose values a reader reads
_SAID = frozenset({"title", "alt", "aria-label"})


class CustomerText(HTMLParser):
    """The words a reader reads: text and title/alt/aria-label attributes, without code, scripts, quotes of sources
    and the places in them (span.gpukb-quote, span.gpukb-place: NVIDIA's words and headings, not ours — their
    German framing is kb.wording.section_text's, tested in test_wording.py); hrefs collected apart.

    In the same pass `every` collects every word a reader reads, NVIDIA's quotes and places included (code and
    scripts left out), and `markup` reads the page's structure (Markup): each page is parsed once for all the
    tests that read it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[bool, bool]] = []  # per open element: does it hide its text (ours, every)?
        self.hidden = [0, 0]  # open elements hiding text: of ours, of every text
        self.text: list[str] = []
        self.every: list[str] = []
        self.hrefs: list[str] = []
        self.markup = Markup()

    def updatepos(self, i: int, j: int) -> int:
        """HTMLParser counts lines and columns of everything it passes (for getpos(), which nothing here asks):
        not counted (≈ 520k calls over the site's pages, ~10 % of the parse)."""
        return j

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.markup.start(tag, attrs)
        code = tag in SKIPPED_ELEMENTS
        classes = attrs.get("class")
        ours = code or (classes is not None and "gpukb-" in classes
                        and not {"gpukb-quote", "gpukb-place"}.isdisjoint(classes.split()))
        hidden = (ours, code)
        if tag not in _VOID_TAGS:
            self.stack.append(hidden)
            self.hidden[0] += ours
            self.hidden[1] += code
        if _SAID.isdisjoint(attrs):
            said = ()
        else:
            said = [attrs[a] for a in ("title", "alt", "aria-label") if attrs.get(a)]
        if said:
            if not self.hidden[0]:
                self.text += said
            if not self.hidden[1]:
                self.every += said
        if attrs.get("href"):
            self.hrefs.append(attrs["href"])

    def handle_endtag(self, tag):
        self.markup.end(tag)
        if tag not in _VOID_TAGS and self.stack:
            ours, every = self.stack.pop()
            self.hidden[0] -= ours
            self.hidden[1] -= every

    def handle_data(self, data):
        self.markup.data(data)
        if not self.hidden[0]:
            self.text.append(data)
        if not self.hidden[1]:
            self.every.append(data)


#: elements without an end tag (the HTML standard's void elements)
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
#: an ancestor that makes <header>/<footer> no banner/contentinfo (Playwright's kAncestorPreventingLandmark)
_SECTIONING, _SECTIONING_ROLES = frozenset({"article", "aside", "main", "nav", "section"}), \
    frozenset({"article", "complementary", "main", "navigation", "region"})
#: the landmark roles the markup check counts, and the tags whose implicit role is one
LANDMARKS = ("banner", "main", "contentinfo", "navigation")
_IMPLICIT = {"header": "banner", "footer": "contentinfo", "main": "main", "nav": "navigation"}
#: tags hiding what is in them, tags Markup notes, headings read in the article, the state outside <html>
_HIDING = frozenset({"template", "noscript"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
_NOTED = frozenset({"html", "img", "table", "tr", "td", "th"}) | _HEADINGS
_ROOT = ("", False, 0, 0, None)


class Markup:
    """What the browser's role engine and the walk's queries read of a page, from its HTML (fed by CustomerText):
    `lang` of <html>; `roles` — the elements of role banner, main, contentinfo, navigation and columnheader as
    Playwright's getByRole finds them (explicit role, else the implicit one: <header>/<footer> outside article,
    aside, main, nav and section; a <th> by its scope, its neighbours and its table's rows), without those the
    markup hides (the `hidden` attribute, aria-hidden="true", template, noscript); `levels` — the levels of the
    h1–h4 inside <article>, in order; `no_alt` — the <img> without an alt attribute.

    What the markup cannot tell: elements the page's scripts add (material's code-block navs, the ask page's
    answer — its headings are checked in the browser, tests/test_site_browser.py) and those CSS hides at one
    width (material's table of contents: in the sidebar on a desktop, in the drawer on a phone) — so the browser's
    count of navigation landmarks differs from this one, never its "at least one" (docs-dev/test-time.md)."""

    def __init__(self):
        self.open: list[tuple] = []  # (tag, hidden, sectioning ancestors, articles, the cell it is in or None)
        self.lang: str | None = None
        self.roles = dict.fromkeys((*LANDMARKS, "columnheader"), 0)
        self.levels: list[int] = []
        self.no_alt = 0
        self.tables: list[list] = []  # per open table: its rows, each a list of cells [tag, scope, non-empty, role]

    def start(self, tag: str, attrs: dict) -> None:
        top = self.open[-1] if self.open else _ROOT
        hidden, sectioning, articles, cell = top[1], top[2], top[3], top[4]
        if cell is not None:
            cell[2] = True  # an element in a cell: not empty (Playwright: children.length > 0)
        role = attrs.get("role")
        if role is not None:
            role = (role.lower().split() or [None])[0]
        if "hidden" in attrs or tag in _HIDING or (attrs.get("aria-hidden") or "").lower() == "true":
            hidden = True
        if tag in _NOTED:
            if tag == "html" and self.lang is None:
                self.lang = attrs.get("lang")
            elif tag == "img" and "alt" not in attrs:
                self.no_alt += 1
            elif articles and tag in _HEADINGS:
                self.levels.append(int(tag[1]))
            elif tag == "table":
                self.tables.append([])
            elif tag == "tr" and self.tables:
                self.tables[-1].append([])
            elif tag in ("td", "th") and self.tables and self.tables[-1]:
                cell = [tag, attrs.get("scope"), False, role, hidden]
                self.tables[-1][-1].append(cell)
        landmark = role or (_IMPLICIT.get(tag) if not sectioning or tag not in ("header", "footer") else None)
        if landmark in self.roles and landmark != "columnheader" and not hidden:
            self.roles[landmark] += 1
        if tag not in _VOID:
            self.open.append((tag, hidden,
                              sectioning + ((tag in _SECTIONING and role is None) or role in _SECTIONING_ROLES),
                              articles + (tag == "article"), cell))

    def end(self, tag: str) -> None:
        if tag in _VOID:
            return
        for i in range(len(self.open) - 1, -1, -1):  # to the element it ends (implied end tags of p, li, td …)
            if self.open[i][0] == tag:
                del self.open[i:]
                break
        if tag == "table" and self.tables:
            rows = self.tables.pop()
            for cells in rows:
                for i, (kind, scope, _full, role, hidden) in enumerate(cells):
                    if kind == "th" and not hidden and (role or _th_role(cells, i, len(rows), scope)) == "columnheader":
                        self.roles["columnheader"] += 1

    def data(self, text: str) -> None:
        if self.open and self.open[-1][4] is not None and text.strip():
            self.open[-1][4][2] = True


def _th_role(cells: list, i: int, rows: int, scope: str | None) -> str | None:
    """A <th>'s implicit role as Playwright's role engine gives it (columnheader, rowheader or none)."""
    if scope in ("col", "colgroup"):
        return "columnheader"
    if scope in ("row", "rowgroup"):
        return "rowheader"
    before, after = (cells[i - 1] if i else None), (cells[i + 1] if i + 1 < len(cells) else None)
    if before is None and after is None:
        return None if rows <= 1 else "columnheader"
    if before and after and before[0] == after[0] == "th":
        return "columnheader"
    if any(c and c[0] == "td" and c[2] for c in (before, after)):
        return "rowheader"
    return "columnheader"


def pages(site):
    """(page, language, customer text, hrefs, file) of every customer page; read and parsed once per session."""
    return tuple(page[:5] for page in _parsed(str(site)) if not page[5])


def every_page(site):
    """(page, language, customer text, every text, file) of every built page, the reference pages for support
    staff included (the same single parse as `pages`)."""
    return tuple((rel, lang, text, every, path) for rel, lang, text, _h, path, _staff, every, _m in _parsed(str(site)))


def markups(site):
    """(page, language, Markup) of every built page (the same single parse as `pages`)."""
    return tuple((rel, lang, markup) for rel, lang, *_rest, markup in _parsed(str(site)))


def read(text: str) -> Markup:
    """The Markup of one page's HTML."""
    parser = CustomerText()
    parser.feed(text)
    return parser.markup


@functools.lru_cache(maxsize=2)
def _parsed(site: str) -> tuple:
    out = []
    for path in sorted(Path(site).rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        lang = "en" if rel.startswith("en/") else "de"
        parser = CustomerText()
        parser.feed(path.read_text(encoding="utf-8"))
        out.append((rel, lang, " ".join(parser.text), tuple(parser.hrefs), path,
                    rel.removeprefix("en/").startswith(FOR_SUPPORT_STAFF), " ".join(parser.every), parser.markup))
    return tuple(out)
