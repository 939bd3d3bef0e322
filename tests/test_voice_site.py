"""Customer voice on every built page, both languages (the site of tests/test_site_build.py, built once per session):
no internal word, no placeholder address, German written as German, numbers and units and footnote marks kept
together, repository links at the data version. What the checks cover is kb/style.py's (docs-dev/glossary.md).

Pages left out: the CLI reference (it names flags by nature) and the rule reference (rule ids and conditions for
reviewers); both are under reference/ and out of the customer search."""

from __future__ import annotations

import re

import pytest

from kb.catalog.compiled import load_data
from kb.catalog.facts import fact_ref, iter_facts
from kb.publication import publication
from kb.style import catalog_ids, internal_words, nested_quotes, style_problems
from kb.wording import own_fact, shown
from site_pages import every_page, pages


@pytest.fixture(scope="module")
def built(site_built):
    """The site built once per run (tests/site_fixtures.py). Module-scoped, so the tests of this module run on one
    xdist worker (conftest _worker_group) and every page is parsed once per run (`_parsed`: ≈ 1.7 s CPU), not once
    per worker."""
    return site_built


def test_the_site_has_pages_of_both_languages(built):
    langs = {lang for _rel, lang, *_ in pages(built.site)}
    assert langs == {"de", "en"}
    assert sum(1 for _ in pages(built.site)) > 50


def test_no_internal_word_on_any_page(built):
    ids = catalog_ids(load_data())
    found = {rel: sorted({w for w, _ in internal_words(text, ids)}) for rel, _lang, text, _h, _p in pages(built.site)}
    assert {rel: words for rel, words in found.items() if words} == {}


def test_no_placeholder_address_and_repository_links_at_the_data_version(built):
    pub = publication()
    bad = {}
    for rel, _lang, _text, hrefs, _path in pages(built.site):
        wrong = [h for h in hrefs if ".example" in h or (
            pub.repo_url and h.startswith((f"{pub.repo_url}/blob/", f"{pub.repo_url}/tree/"))
            and not h.startswith((f"{pub.repo_url}/blob/{pub.data_ref}/", f"{pub.repo_url}/tree/{pub.data_ref}/")))]
        if wrong:
            bad[rel] = wrong
    assert bad == {}


def test_german_and_english_pages_follow_the_house_style(built):
    found = {}
    for rel, lang, text, _h, _p in pages(built.site):
        if f"cards/{built.poisoned}/" in rel:
            continue  # its note is markup planted by the build fixture (test_site_build.py), not our text
        problems = [f"{excerpt} ({rule})" for excerpt, rule in style_problems(text, lang)]
        if problems:
            found[rel] = sorted(set(problems))
    assert found == {}


def test_a_quote_inside_a_quote_takes_the_secondary_marks(built):
    """Issue 16: our German article quotes NVIDIA in „…“; cited on our pages that is „… ‚…‘ …“ (German) and
    “… ‘…’ …” (English), never „…„…“…“ — checked with NVIDIA's quotes, which the style test leaves out."""
    found = {}
    for rel, lang, _text, every, _path in every_page(built.site):
        hits = nested_quotes(every, lang)
        if hits:
            found[rel] = hits[:2]
    assert found == {}


def test_german_pages_name_documents_with_german_words_of_ours(built):
    """Issue 16: a document's title on a German page has our words in German („(Quellcode)“, „frühere Fassungen der
    Seite“, „Issue #720“): kb.wording.title_text wherever a page names a source (footnotes, the method matrix, the
    sources page)."""
    from kb.wording import ENGLISH_TITLE_WORDS

    found = {}
    for rel, lang, text, _h, _p in pages(built.site):
        if lang == "de":
            hits = sorted({w for w in ENGLISH_TITLE_WORDS if w in text})
            if hits:
                found[rel] = hits
    assert found == {}


def test_markup_titles_in_the_page_language(built):
    for rel, lang, text, _h, _p in pages(built.site):
        assert "Jump back to footnote" not in text and "Permanent link" not in text, rel


def test_footnote_marks_keep_off_numbers_and_never_repeat_in_a_run():
    """The page hook on its own (no build): a mark after a version in code is set off by a narrow no-break space,
    and the same footnote twice in a run (two facts, one citation) shows one mark, its second anchor kept."""
    from types import SimpleNamespace

    from kb.docs_hooks import on_page_content

    ref = '<sup id="{i}:c{n}"><a class="footnote-ref" href="#fn:c{n}">{n}</a></sup>'
    html = ("<p>MIG-Liste" + ref.format(i="fnref", n=4) + ref.format(i="fnref2", n=4) + ": <code>575.51.03</code>"
            + ref.format(i="fnref", n=5) + ref.format(i="fnref", n=6) + "</p>")
    page = SimpleNamespace(meta={"description": "x"}, file=SimpleNamespace(dest_uri="cards/x/index.html", src_uri="x.de.md"))
    out = on_page_content(html, page, None, None)
    assert out.count('href="#fn:c4"') == 1 and 'id="fnref2:c4"' in out
    assert "575.51.03</code>\u202f<span" in out


def test_every_plain_table_is_followed_by_its_scroll_cue_in_the_page_language():
    """The page hook writes the line "the table scrolls sideways" after every table material wraps in a scrolling box
    (a <table> without attributes); docs/javascripts/tables.js only shows it where the table is wider than its box
    (tests/test_site_layout.py checks that in the browser). Left out of the search; none after a table with a class
    (material does not wrap those)."""
    from types import SimpleNamespace

    from kb.docs_hooks import on_page_content

    html = "<p>a</p><table><tr><td>1</td></tr></table><p>b</p><table class=\"x\"><tr><td>2</td></tr></table><table>\n</table>"
    for lang, src, words in (("de", "x.de.md", "Die Tabelle lässt sich seitlich verschieben."),
                             ("en", "x.en.md", "The table scrolls sideways.")):
        page = SimpleNamespace(meta={"description": "x"}, file=SimpleNamespace(dest_uri="cards/x/index.html", src_uri=src))
        out = on_page_content(html, page, None, None)
        cue = f'</table><p class="gpukb-scroll-cue" data-search-exclude>{words}</p>'
        assert out.count(cue) == 2 and out.count("gpukb-scroll-cue") == 2, out
        assert out.index(cue) < out.index("<p>b</p>") and out.endswith(cue)


def test_a_footnote_mark_never_sticks_to_a_number(built):
    glued = {}
    for rel, _lang, _text, _h, path in pages(built.site):
        html = path.read_text(encoding="utf-8")
        hits = re.findall(r"\d(?:</(?:code|strong|em|a|span)>)*(?:<span class=\"gpukb-fnrefs\">|<sup id=\"fnref)", html)
        hits += re.findall(r'href="(#fn:[^"]+)">\d+</a></sup><sup class="gpukb-fnsep">,</sup><sup id="[^"]+"><a '
                           r'class="footnote-ref" href="\1"', html)  # "⁴,⁴": one footnote twice in a run
        if hits:
            glued[rel] = len(hits)
    assert glued == {}


def test_dates_are_written_out(built):
    de = (built.site / "guide" / "operator" / "index.html").read_text(encoding="utf-8")
    en = (built.site / "en" / "guide" / "operator" / "index.html").read_text(encoding="utf-8")
    assert "20. August 2026" in de and "20 August 2026" in en


# --- citations: NVIDIA first, our article only for our own statements -------------------------------------------

def test_every_fact_cites_nvidia_first_and_our_article_only_where_it_belongs():
    data = load_data()
    own = {sid for sid, s in data["sources"].items() if s.get("publisher") == publication().publisher}
    assert own, "our article is a source of the catalog"
    wrong = []
    for kind in ("cards", "methods", "releases"):
        for ident, entity in data[kind].items():
            for raw, fact in iter_facts(entity):
                path = fact_ref(raw)
                seen = shown(data, fact["cite"], path)
                sources = [c["source"] for c in seen]
                if any(s not in own for s in sources) and sources[0] in own:
                    wrong.append((f"{kind}/{ident}", path, "ours before NVIDIA's"))
                if any(s in own for s in sources) and not own_fact(path) and \
                        not all(c.get("only_source") for c in seen if c["source"] in own):
                    wrong.append((f"{kind}/{ident}", path, "ours beside NVIDIA's for an NVIDIA fact"))
    assert wrong == []


def test_our_article_as_only_source_is_marked_on_the_page(built):
    de = (built.site / "cards" / "rtx-pro-5000-blackwell-72gb" / "index.html").read_text(encoding="utf-8")
    assert "unser eigener Artikel; ein Dokument von NVIDIA dazu haben wir nicht gefunden" in de


# --- a decision in five minutes ----------------------------------------------------------------------------------

@pytest.mark.parametrize("prefix, words", [
    ("", ("MIG", "L4 und L40S", "MPS", "Time-Slicing", "GPU-Passthrough", "NVIDIA vGPU", "DRA", "Alpha")),
    ("en/", ("MIG", "L4 and L40S", "MPS", "time-slicing", "GPU passthrough", "NVIDIA vGPU", "DRA", "alpha")),
])
def test_the_choose_page_opens_with_five_questions_each_leading_to_a_method(built, prefix, words):
    html = (built.site / f"{prefix}guide" / "choose" / "index.html").read_text(encoding="utf-8")
    html = html[html.index('<article'):]  # the page's content, not the theme's navigation
    first_list = html[html.index("<ol>"):html.index("</ol>")]
    items = re.findall(r"<li>(.*?)</li>", first_list, re.S)
    assert len(items) == 5
    assert all("?" in item and "<strong>" in re.sub(r"^.*?\?", "", item, flags=re.S) for item in items)
    text = re.sub(r"<[^>]+>", "", first_list)
    assert all(w in text for w in words), [w for w in words if w not in text]
    assert "1.34.2" in text  # the Kubernetes release DRA needs, from the data
    # a path for owners of cards without MIG, right after the questions
    assert html.index("<ol>") < html.index("L4" if prefix else "L4 und L40S") < html.index("Rangfolge" if not prefix else "Ranking")


# --- German quotes on English pages (issue 16) ---------------------------------------------------------------------

_QUOTE_SPAN = re.compile(r'<span class="gpukb-quote"( lang="de")?>(.*?)</span>”?', re.S)
_TRANSLATION = re.compile(r'\A \(German original; our translation: “<span class="gpukb-translation">(.*?)</span>”\)')


def _norm(text: str) -> str:
    import html

    return " ".join(html.unescape(text).split())


def test_no_german_quote_on_an_english_page_without_its_translation(built):
    """Every English page read: each quote that is German (by its source's language in our data, not by its words)
    carries lang="de" and is followed by our translation, marked as such; no other quote is marked German; the ask
    page's English data carries the translation of every German quote it cites."""
    import json

    from test_voice_cli import german_quotes

    from kb.wording import nested

    # as an English page sets them: quotes inside the quote in ‘…’ (kb.wording.quoted; the ask page's data alike)
    quotes = {_norm(nested(q, "en")): _norm(t) for q, t in german_quotes(load_data()).items()}
    assert quotes and all(quotes.values())
    seen, bare, wrong = 0, {}, {}
    for rel, lang, _text, _h, path in pages(built.site):
        if lang != "en":
            continue
        html = path.read_text(encoding="utf-8")
        for m in _QUOTE_SPAN.finditer(html):
            quote = _norm(m.group(2))
            if quote not in quotes:
                if m.group(1):
                    wrong.setdefault(rel, []).append(quote[:50])
                continue
            seen += 1
            t = _TRANSLATION.match(html[m.end():m.end() + 2000])
            if not m.group(1) or not t or _norm(t.group(1)) != quotes[quote]:
                bare.setdefault(rel, []).append(quote[:50])
    assert seen > 50, seen  # English pages do quote our article (what we ship, where it is the only source)
    assert bare == {}
    assert wrong == {}
    untranslated, cited = [], 0
    for data_file in sorted(built.site.glob("en/ask/data/**/*.json")):  # the English tree's answers as data
        for cite in json.loads(data_file.read_text(encoding="utf-8")).get("cites", []):
            if "release" in cite:  # stands for citations of the asked release, in the shared file's table
                continue
            quote = _norm(cite["quote"])
            if quote in quotes:
                cited += 1
                if _norm(cite.get("translation", "")) != quotes[quote]:
                    untranslated.append((data_file.name, quote[:50]))
    assert cited > 0
    assert untranslated == []


def test_no_raw_placeholder_braces_on_any_page(built):
    """Rule texts show their {placeholders} in words (kb.site.rulesref._SLOTS): no page — the reference pages
    included — shows `{identifier}` outside code. `${name}` is NVIDIA's own notation a source note describes
    (the DRA page's `${dra_version}`), not one of ours."""
    brace = re.compile(r"(?<!\$)\{[A-Za-z_][A-Za-z0-9_.]*\}")
    found = {}
    for rel, _lang, text, _every, _path in every_page(built.site):
        hits = sorted(set(brace.findall(text)))
        if hits:
            found[rel] = hits
    assert found == {}
    reference = (built.site / "reference" / "rules" / "index.html").read_text(encoding="utf-8")
    assert "<em>(geprüfte Datei)</em>" in reference  # the test reads the page it means to
