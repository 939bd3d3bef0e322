"""The whole site, built strictly from a copy of docs/ and of the real catalog (one card's note replaced by
markup): both languages, every generated page, no resource from another host, text not HTML.

The build is the session fixture `site_built` (tests/site_fixtures.py, tests/sitebuild.py: built once per
test run, shared by every site test and the xdist workers).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from kb.publication import publication
from kb.wording import date_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def built(site_built):
    """The site built once per session (tests/site_fixtures.py)."""
    return site_built


def test_strict_build_has_no_warnings(built):
    assert "WARNING" not in built.log


def test_every_generated_page_exists_in_both_languages(built):
    generated = built.docs / "generated"
    pages = sorted(p.relative_to(generated).as_posix() for p in generated.rglob("*.md"))
    stems = {re.sub(r"\.(de|en)\.md$", "", p) for p in pages}
    assert pages == sorted(f"{s}.{lang}.md" for s in stems for lang in ("de", "en"))
    for stem in stems:
        from kb.docs_hooks import published

        url = published("generated/" + stem.removesuffix("index").removesuffix("/"))
        assert (built.site / url / "index.html").is_file(), stem
        assert (built.site / "en" / url / "index.html").is_file(), stem


def test_the_forked_build_generates_byte_for_byte_what_one_process_generates(built, monkeypatch):
    """The build from nothing forks: the catalog's history read ahead, the ask page's data, the JSON API's process
    with the pages about the catalog first, each written into docs/generated/ in its own way. What it wrote is what
    the generation writes in one process (as with GPUKB_SITE_WORKERS=1, where nothing forks), file for file."""
    import yaml

    from kb import docs_hooks

    monkeypatch.setenv("GPUKB_CATALOG", str(built.catalog))
    monkeypatch.setenv("GPUKB_RULES", str(ROOT / "rules"))
    site_url = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nsite_url:", 1)[1].split("\n")[0])
    files = docs_hooks.generate(publication(), site_url)
    generated = built.docs / "generated"
    written = {p.relative_to(generated).as_posix(): p for p in generated.rglob("*")
               if p.is_file() and p.name != docs_hooks.STAMP}
    assert sorted(written) == sorted(files)
    different = [name for name, content in files.items()
                 if written[name].read_bytes() != (content.encode("utf-8") if isinstance(content, str) else content)]
    assert not different


def test_no_resource_is_loaded_from_another_host(built):
    """Links may point anywhere; scripts, styles, images, fonts and frames must come from the site."""
    loads = re.compile(r"<(?:script|img|iframe|source|audio|video)[^>]*\ssrc=\"(https?:)?//|"
                       r"<link[^>]*rel=\"(?:stylesheet|preload|preconnect|icon|manifest)\"[^>]*href=\"(https?:)?//|"
                       r"@import\s+url\((https?:)?//|url\(['\"]?https?://")
    offenders = []
    for page in built.site.rglob("*.html"):
        for m in loads.finditer(page.read_text(encoding="utf-8")):
            offenders.append(f"{page.relative_to(built.site)}: {m.group(0)}")
    for css in built.site.rglob("*.css"):
        if re.search(r"url\(['\"]?https?://|@import", css.read_text(encoding="utf-8")):
            offenders.append(str(css.relative_to(built.site)))
    assert offenders == []
    assert "fonts.googleapis.com" not in (built.site / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang, index", [("de", "search/search_index.json"), ("en", "en/search/search_index.json")])
def test_each_language_has_its_own_search_index_without_the_reference(built, lang, index):
    raw = (built.site / index).read_bytes()
    index = json.loads(raw)
    assert index["config"]["lang"] == [lang]
    locations = [d["location"] for d in index["docs"]]
    assert any(loc.startswith("guide/mig/") for loc in locations)  # relative to the language's root
    assert not any(loc.startswith(("en/", "reference/")) for loc in locations), locations
    assert any(loc.startswith("cards/") for loc in locations)
    titles = " ".join(d["title"] for d in index["docs"])
    assert ("Karten" in titles) == (lang == "de") and ("Cards" in titles) == (lang == "en")
    # footnotes (source quotes, repeated on many pages) are not searched: no quote of the catalog is in an entry
    from kb.catalog.compiled import load_data

    card = load_data()["cards"]["h200-nvl"]
    quote = card["mig"]["max_instances"]["cite"][0]["quote"]
    assert not any(quote in d["text"] for d in index["docs"]), quote
    assert len(raw) < 500_000, f"{len(raw)} bytes"


def test_every_page_has_a_meta_description_of_its_own(built):
    """Issue 15: a meta description per page — its own, not the first sentence a kind of page shares (the card pages
    all began with "Our answer with GPU Operator …") nor the site's (the CLI reference had it, as the 404 page does)."""
    import html

    pages: dict[str, list[str]] = {}
    for page in sorted(built.site.rglob("*.html")):
        rel = page.relative_to(built.site).as_posix()
        found = re.search(r'<meta name="description" content="([^"]*)"', page.read_text(encoding="utf-8"))
        assert found and found.group(1).strip(), rel
        pages.setdefault(html.unescape(found.group(1)), []).append(rel)
    shared = {text: where for text, where in pages.items() if len(where) > 1}
    assert shared == {}, {text: where[:3] + [f"… {len(where)} pages"] for text, where in shared.items()}


def test_every_link_has_words(built):
    """A link a reader (or a screen reader: WCAG 2.4.4) sees: text, an image's alt, an aria-label or a title —
    the change page's "Data and corrections:" linked the catalog folder with no words."""
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self):
            super().__init__()
            self.open, self.empty = [], []

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "a":
                self.open.append([attrs, attrs.get("aria-label") or attrs.get("title") or ""])
            elif self.open and tag in ("img", "svg"):
                self.open[-1][1] += attrs.get("alt") or tag

        def handle_endtag(self, tag):
            if tag == "a" and self.open:
                attrs, words = self.open.pop()
                if "href" in attrs and not words.strip():
                    self.empty.append(attrs["href"])

        def handle_data(self, data):
            if self.open:
                self.open[-1][1] += data

    empty = {}
    for page in sorted(built.site.rglob("*.html")):
        links = Links()
        links.feed(page.read_text(encoding="utf-8"))
        if links.empty:
            empty[page.relative_to(built.site).as_posix()] = links.empty
    assert empty == {}


def test_a_404_page_in_each_language_with_language_links_to_the_home_pages(built):
    """Issue 15: a German 404 page (the site's) and an English one (en/404.html), each in its language, its language
    links pointing at the two home pages (the English one linked the last page built, guide/vm-dra/, in both)."""
    from urllib.parse import urlsplit

    home = (built.site / "index.html").read_text(encoding="utf-8")
    root = urlsplit(re.search(r'<link rel="canonical" href="([^"]+)"', home).group(1)).path  # site_url's path
    for rel, lang, heading in (("404.html", "de", "Seite nicht gefunden"), ("en/404.html", "en", "Page not found")):
        html = (built.site / rel).read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html and f"<h1>{heading}</h1>" in html, rel
        links = dict((lang_, href) for href, lang_ in re.findall(r'<a href="([^"]*)" hreflang="(de|en)" class="md-select__link"', html))
        assert {k: v.rstrip(".") for k, v in links.items()} == {"de": root, "en": root + "en/"}, (rel, links)


def test_language_links_are_relative_and_lead_to_the_page_in_the_other_language(built):
    """Issue 15: language links that work when the site is served under a sub-path — relative on every page (the
    home pages had "/" and "/en/"), each to a page of the build in its language. The 404 pages are the exception
    MkDocs makes (their links start at site_url's path, as the page may be shown at any address)."""
    import posixpath

    wrong = {}
    for page in sorted(built.site.rglob("index.html")):
        rel = page.relative_to(built.site).as_posix()
        html = page.read_text(encoding="utf-8")
        for href, lang in re.findall(r'<a href="([^"]*)" hreflang="(de|en)" class="md-select__link"', html):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), href))
            target = "" if target == "." else target + "/"
            ok = not href.startswith(("/", "http:", "https:")) and (built.site / target / "index.html").is_file() \
                and target.startswith("en/") == (lang == "en")
            if not ok:
                wrong.setdefault(rel, []).append((lang, href))
    assert wrong == {}


def test_catalog_markup_in_the_html_is_escaped(built):
    for prefix in ("", "en/"):
        html = (built.site / f"{prefix}cards/{built.poisoned}/index.html").read_text(encoding="utf-8")
        assert "&lt;script&gt;window.__gpukb_pwned = 1&lt;/script&gt;" in html
        assert "<script>window.__gpukb_pwned" not in html
        assert "<img src=x" not in html and '<img src="x"' not in html


def test_every_generated_page_shows_data_version_and_yaml_link(built):
    export = built.export
    day = export["verified"]
    for page in (built.docs / "generated").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        lang = "de" if page.name.endswith(".de.md") else "en"
        stamp = (f"Datenversion {export['data_version']} · geprüft am {date_text(day, lang)}" if lang == "de"
                 else f"Data version {export['data_version']} · verified as of {date_text(day, lang)}")
        assert stamp in text, page.name
        # the repository at the data version the page was built from (kb.publication), never a moving branch
        pub = publication()
        assert re.search(rf"{re.escape(pub.repo_url)}/(blob|tree)/{pub.data_ref}/(catalog|rules|kb/cli)\b", text), page.name
        assert f"{pub.repo_url}/blob/main/" not in text and f"{pub.repo_url}/tree/main/" not in text, page.name


# --- the hook's own behaviour --------------------------------------------------------------------------

def _page(src: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src))


def test_unknown_marker_fails_the_build_naming_page_and_line():
    from kb import docs_hooks

    config = {"extra": {"repo_url": "https://example.org/r"}}
    config = SimpleNamespace(**config)
    with pytest.raises(PluginError) as exc:
        docs_hooks.on_page_markdown("# T\n\n{{ fact: cards/l4 mig.status }}\n", _page("guide/x.de.md"), config, None)
    assert str(exc.value) == ("gpukb: docs/guide/x.de.md: line 3: unknown marker {{ fact: cards/l4 mig.status }} "
                              "(use cite:, value:, table: or config:)")


def test_generated_pages_are_not_scanned_for_markers():
    from kb import docs_hooks

    text = "`{{ .Values.x }}` in a generated page"
    assert docs_hooks.on_page_markdown(text, _page("generated/cli.de.md"), None, None) == text


def test_adjacent_footnote_references_get_commas_and_stay_together():
    from kb import docs_hooks

    def ref(n, prefix="fnref"):
        return f'<sup id="{prefix}:c{n}"><a class="footnote-ref" href="#fn:c{n}">{n}</a></sup>'

    html = f"<p>A{ref(1)}{ref(2, 'fnref2')}{ref(3)} and B{ref(4)} text {ref(5)}</p>"
    sep = '<sup class="gpukb-fnsep">,</sup>'
    assert docs_hooks.on_page_content(html, None, None, None) == (
        f'<p>A<span class="gpukb-fnrefs">{ref(1)}{sep}{ref(2, "fnref2")}{sep}{ref(3)}</span> and B{ref(4)} text {ref(5)}</p>')


def test_write_tree_keeps_unchanged_files_and_removes_stale_ones(tmp_path):
    from kb import docs_hooks

    docs_hooks.write_tree(tmp_path, {"a.de.md": "A", "cards/x.de.md": "X"}, "k1")
    before = (tmp_path / "a.de.md").stat().st_mtime_ns
    os.utime(tmp_path / "a.de.md", ns=(before - 10**9, before - 10**9))
    docs_hooks.write_tree(tmp_path, {"a.de.md": "A", "b.en.md": "B"}, "k1")
    assert (tmp_path / "a.de.md").stat().st_mtime_ns == before - 10**9  # not rewritten
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        ".generated", "a.de.md", "b.en.md"]


def test_new_empty_files_are_names_of_one_file_and_each_is_replaced_not_written_through(tmp_path, monkeypatch):
    """The empty files a build from nothing lists for mkdocs while the forked processes compute them are links to
    one empty file (creating a file costs ≈ 40 × a link here), none left over; writing one of them later gives it
    a file of its own, the others stay empty; without hard links each is a file of its own."""
    from kb import docs_hooks

    docs_hooks.write_tree(tmp_path, {"a.json": b"", "ask/b.json": b"", "c.de.md": "C", "d.json": b""}, None)
    inodes = {(tmp_path / n).stat().st_ino for n in ("a.json", "ask/b.json", "d.json")}
    assert len(inodes) == 1 and (tmp_path / "a.json").stat().st_nlink == 3
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        "a.json", "ask/b.json", "c.de.md", "d.json"]  # (no .empty left)
    docs_hooks.write_files(tmp_path, {"ask/b.json": "[1]"})
    assert (tmp_path / "ask/b.json").read_text() == "[1]"
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "d.json").read_bytes() == b""
    monkeypatch.setattr(os, "link", lambda src, dst: (_ for _ in ()).throw(OSError(1, "Operation not permitted")))
    docs_hooks.write_files(tmp_path / "other", {"x.json": b"", "y.json": b""})
    assert (tmp_path / "other/x.json").stat().st_ino != (tmp_path / "other/y.json").stat().st_ino
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == ["x.json", "y.json"]


def test_files_of_the_forked_generation_are_written_where_the_build_put_them_then_stamped_and_cached(tmp_path, monkeypatch):
    """kb/docs_hooks.py: what no page includes is computed by forked processes beside mkdocs' rendering; the build
    lists it as empty files. Each process stores its files as a part of the cache entry and, once the build's own
    process has laid out docs/generated/ (the gate), writes them there itself; on_post_build copies them to each
    place the build copied the empty file to, stamps the folder and stores the rest of the entry, naming the
    parts."""
    from kb import docs_hooks
    from kb.site import forked, gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    folder, site = tmp_path / "generated", tmp_path / "site"
    gate = forked.Gate()
    waits = [forked.run_forked(lambda: docs_hooks._deliver({"ask/data/x.en.json": '{"x":1}\n'}, folder, "k1", "ask", gate), "x"),
             forked.run_forked(lambda: docs_hooks._deliver({"api/v1/a.json": b"[]"}, folder, "k1", "api", gate), "y")]
    join = docs_hooks._joined(docs_hooks._together(waits))
    docs_hooks.write_tree(folder, {"a.de.md": "A", "ask/data/x.en.json": b"", "api/v1/a.json": b""}, None)
    assert not docs_hooks.up_to_date(folder, "k1")  # no stamp while the processes run
    (site / "en/ask/data").mkdir(parents=True)
    (site / "en/ask/data/x.json").write_bytes(b"")  # what the build copied
    monkeypatch.setattr(docs_hooks, "_PENDING", {
        "key": "k1", "folder": folder, "files": {"a.de.md": "A"}, "names": {"ask/data/x.en.json", "api/v1/a.json"},
        "join": join, "dests": {(str(folder / "ask/data/x.en.json"), str(site / "en/ask/data/x.json")),
                                (str(folder / "api/v1/a.json"), str(site / "api/v1/a.json"))}})
    gate.open(2)
    docs_hooks._finish_pending()
    assert (site / "en/ask/data/x.json").read_text() == (folder / "ask/data/x.en.json").read_text() == '{"x":1}\n'
    assert (site / "api/v1/a.json").read_bytes() == (folder / "api/v1/a.json").read_bytes() == b"[]"
    assert docs_hooks.up_to_date(folder, "k1") and not docs_hooks._PENDING
    assert not [p for p in folder.rglob(".*") if p.name != ".generated"]  # no temp file left
    assert gencache.load("k1") == {"a.de.md": b"A", "ask/data/x.en.json": b'{"x":1}\n', "api/v1/a.json": b"[]"}
    assert len(list((tmp_path / "cache" / "site").glob("*.bin"))) == 3  # the entry and its two parts


def test_the_forked_generation_writes_into_docs_generated_only_once_the_gate_opens(tmp_path, monkeypatch):
    """The build's own process lays out docs/generated/ (empty files for mkdocs to list, stale files removed) after
    the forked processes started: they write only when it lets them (else it could empty or delete what they
    wrote); where it never does (the build failed), they write nothing there and fail with a message."""
    import time

    from kb import docs_hooks
    from kb.site import forked, gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "generated"
    folder.mkdir()
    gate = forked.Gate()
    wait = forked.run_forked(lambda: docs_hooks._deliver({"x.json": "X"}, folder, "k1", "ask", gate), "x")
    time.sleep(0.3)
    assert not (folder / "x.json").exists()  # computed, waiting at the gate
    gate.open(1)
    done = wait()
    assert done == {"names": ["x.json"], "parts": {"ask": gencache._read(gencache._path("k1", "ask"), "k1", "ask")[0]["sha256"]}}
    assert (folder / "x.json").read_text() == "X"
    gate = forked.Gate()
    wait = docs_hooks._joined(forked.run_forked(lambda: docs_hooks._deliver({"y.json": "Y"}, folder, "k1", "api", gate), "y"))
    gate.close()
    with pytest.raises(PluginError, match="the build stopped before the generated files could be written"):
        wait()
    assert [p.name for p in folder.iterdir()] == ["x.json"]


def test_a_forked_generation_that_fails_writes_nothing_half(tmp_path, monkeypatch):
    """A forked process that fails (computing, or writing a file) fails the build with its message and leaves no
    file written half, no temp file, no stamp and no cache entry."""
    from kb import docs_hooks
    from kb.site import forked, gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "generated"
    docs_hooks.write_tree(folder, {"a.json": b"", "b.json": b""}, None)
    gate = forked.Gate()

    def fails():
        raise KeyError("the ask page needs X")
    wait = docs_hooks._joined(forked.run_forked(lambda: docs_hooks._deliver(fails(), folder, "k1", "ask", gate), "x"))
    gate.open(1)
    with pytest.raises(PluginError, match="gpukb: the ask page needs X"):
        wait()
    real = os.replace

    def full(src, dst):  # the disk fills up while the second file is written
        if Path(dst).name == "b.json":
            raise OSError(28, "No space left on device")
        return real(src, dst)
    monkeypatch.setattr(os, "replace", full)
    gate = forked.Gate()
    wait = docs_hooks._joined(forked.run_forked(
        lambda: docs_hooks._deliver({"a.json": "AA", "b.json": "BB"}, folder, "k1", "ask", gate), "x"))
    gate.open(1)
    with pytest.raises(PluginError, match="No space left on device"):
        wait()
    assert (folder / "b.json").read_bytes() == b""  # the empty file the build listed, not half of BB
    assert sorted(p.name for p in folder.iterdir()) == ["a.json", "b.json"]  # no temp file left
    assert not docs_hooks.up_to_date(folder, "k1")  # no stamp: the next build generates again
    assert gencache.load("k1") is None  # the part alone is no entry


def test_a_failing_forked_generation_fails_the_build_with_its_message():
    from mkdocs.exceptions import PluginError

    from kb import docs_hooks
    from kb.site import forked

    with pytest.raises(PluginError, match="gpukb: the ask page needs"):
        docs_hooks._joined(forked.run_forked(lambda: (_ for _ in ()).throw(KeyError("the ask page needs X")), "x"))()
    with pytest.raises(PluginError, match="ZeroDivisionError"):  # anything else: the process's traceback
        docs_hooks._joined(forked.run_forked(lambda: 1 / 0, "x"))()


def _running(pid: int) -> bool:
    """Whether the process runs (a zombie nobody reaped yet has ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_stopped_forked_process_takes_its_own_forked_process_with_it(tmp_path):
    """The ask page's data computes half its cards in a process of its own (kb.site.askdata.files): a build that
    stops the data's process (a failed build: kb.docs_hooks._stop) or a data process that fails ends that one too,
    rather than leaving it computing for nobody."""
    import signal
    import time

    from kb import docs_hooks
    from kb.site import forked

    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc here to see whether a process still runs")
    note = tmp_path / "inner.pid"

    def work():
        inner = forked.run_forked(lambda: time.sleep(60), "the inner process")
        (tmp_path / "tmp.pid").write_text(str(inner.pid))
        (tmp_path / "tmp.pid").rename(note)
        time.sleep(60)

    outer = forked.run_forked(work, "the outer process")
    inner, deadline = None, time.monotonic() + 20
    try:
        while not note.exists():
            assert time.monotonic() < deadline, "the outer process started no inner one"
            time.sleep(0.01)
        inner = int(note.read_text())
        assert _running(inner)
        docs_hooks._stop(outer.pid)
        while _running(inner):
            assert time.monotonic() < deadline, "the inner process outlived the one that forked it"
            time.sleep(0.01)
    finally:
        if inner and _running(inner):
            os.kill(inner, signal.SIGKILL)


def test_the_forked_generation_runs_at_a_lower_priority(monkeypatch, tmp_path):
    """The build's own process (pages, mkdocs' rendering of both languages) is the one still running at the end of a
    build from nothing: the forked processes give way to it (kb.docs_hooks.FORK_NICE), and their own forks inherit
    that (kb.site.forked.run_forked's `nice`)."""
    from kb import docs_hooks
    from kb.site import forked

    assert 0 < docs_hooks.FORK_NICE < 10  # slowed beside other work, not starved
    before = os.nice(0)
    assert forked.run_forked(lambda: (os.nice(0), forked.run_forked(lambda: os.nice(0), "y")()), "x", nice=3)() == (
        min(before + 3, 19), min(before + 3, 19))
    assert forked.run_forked(lambda: os.nice(0), "x")() == before
    started = []

    class Enough(Exception):
        pass

    def run_forked(work, what, *, nice=0, early=False):
        started.append((what, nice, early))
        if len(started) == 2:
            raise Enough

        def wait():
            raise AssertionError("not waited for")
        wait.pid = 0
        return wait
    monkeypatch.setattr(forked, "run_forked", run_forked)
    monkeypatch.setattr(docs_hooks, "_stop", lambda pids: None)
    with pytest.raises(Enough):
        docs_hooks.generate(publication(), background=(tmp_path, "k1"))
    assert started == [("generating the ask page's data", docs_hooks.FORK_NICE, False),
                       ("generating the JSON API", docs_hooks.FORK_NICE, True)]  # (the catalog's pages first)


def test_a_forked_process_collects_no_cyclic_garbage():
    """The forked generation leaves with os._exit after one piece of work: its collections only walked what it
    computed (kb.site.forked.run_forked); its own forks inherit that, the process that forked it keeps its own."""
    import gc

    from kb.site import forked

    before = gc.isenabled()
    assert forked.run_forked(lambda: (gc.isenabled(), forked.run_forked(gc.isenabled, "y")()), "x")() == (False, False)
    assert gc.isenabled() == before


def test_a_forked_process_may_hand_over_one_value_first_at_the_builds_priority():
    """kb.site.forked.run_forked(early=True): the JSON API's process hands the pages about the catalog to the build
    before it computes the API (`first()`), at the build's own priority; only then is it deferred (`nice`). Where it
    fails before, `first()` raises its error."""
    from kb.site import forked

    before = os.nice(0)

    def work(send):
        send({"cards/l4.de.md": "# L4", "niceness": os.nice(0)})
        return os.nice(0)
    wait = forked.run_forked(work, "x", nice=3, early=True)
    assert wait.first() == {"cards/l4.de.md": "# L4", "niceness": before}
    assert wait() == min(before + 3, 19)

    def fails(send):
        raise KeyError("no card pages")
    wait = forked.run_forked(fails, "x", early=True)
    with pytest.raises(KeyError, match="no card pages"):
        wait.first()
    wait = forked.run_forked(lambda send: None, "x", early=True)
    with pytest.raises(RuntimeError, match="ended without sending its first result"):
        wait.first()


def test_a_forked_process_nobody_waits_for_is_stopped():
    """`stop()` ends a forked process whose result is not wanted (the catalog's history read ahead of a build that
    generates nothing); after its result was taken it does nothing."""
    from kb.site import forked

    wait = forked.run_forked(lambda: __import__("time").sleep(60), "x")
    assert _running(wait.pid)
    wait.stop()
    assert not _running(wait.pid)
    wait.stop()
    wait = forked.run_forked(lambda: 7, "x")
    assert wait() == 7
    wait.stop()


def test_the_history_read_ahead_is_what_the_build_would_read():
    """kb.site.changes.ahead, forked at the start of a build from nothing (before the catalog is compiled): for the
    data version catalog/sources.yaml names, whether the newest step compares verdicts and the versions `history`
    gives — read from git and the YAML alone."""
    from kb.catalog.compiled import catalog_dir, load_data
    from kb.site import changes

    data = load_data()
    got = changes.ahead(catalog_dir())
    assert got["data_version"] == str(data["data_version"])
    assert got["compares"] == changes.compares_verdicts(data, catalog_dir())
    assert got["versions"] == (None if got["compares"] else changes.history(
        data, catalog_dir(), lambda: pytest.fail("no verdicts are compared")))


def test_the_pages_take_the_history_read_ahead_only_for_their_own_data_version(monkeypatch):
    """The changes page and the feeds use what the forked process read (no git here) where it read it for the
    catalog being built and compares no verdicts; else — another data version, a failed process, verdicts to
    compare — the build reads the history itself (and reports what is wrong there)."""
    from kb import docs_hooks
    from kb.catalog.compiled import load_data
    from kb.site import changes
    from kb.site.pages import data_pages

    data = load_data()
    version = str(data["data_version"])
    read = []
    monkeypatch.setattr(changes, "history", lambda data, catalog, answers: read.append(1) or None)
    head = {"data_version": data["data_version"], "verified": data["verified"], "answers": []}
    known = {"data_version": version, "compares": False, "versions": [changes.Version(version, "2026-12-01", "c1", first=True)]}
    pages = data_pages(data, head, publication(), "", with_api=False, known=known)
    assert not read and "2026-12-01" in pages["feed.en.xml"]
    for other in ({**known, "data_version": "1999.01.01"}, {**known, "compares": True, "versions": None}, None):
        data_pages(data, head, publication(), "", with_api=False, known=other)
    assert read == [1, 1, 1]

    def ahead(result):
        wait = lambda: result() if callable(result) else result  # noqa: E731
        return wait
    assert docs_hooks._known_history(ahead(known), data) == known
    assert docs_hooks._known_history(ahead({**known, "data_version": "1999.01.01"}), data) is None
    assert docs_hooks._known_history(ahead(lambda: 1 / 0), data) is None
    assert docs_hooks._known_history(None, data) is None


def test_the_history_is_read_ahead_only_where_a_build_may_generate_and_stopped_where_it_does_not(monkeypatch, tmp_path):
    """Forked once per build (not for the next language's pass over a generation in flight, not where the build may
    not fork), and stopped wherever nothing is generated (docs/generated/ up to date, or from the cache)."""
    from kb import docs_hooks
    from kb.site import forked

    started = []
    monkeypatch.setattr(forked, "run_forked", lambda work, what, **kw: started.append(what) or SimpleNamespace())
    monkeypatch.setattr(forked, "may_fork", lambda: True)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(docs_hooks, "_PENDING", {})
    assert docs_hooks._history_ahead() is not None and started == ["reading the catalog's history"]
    monkeypatch.setattr(docs_hooks, "_PENDING", {"key": "k1"})
    assert docs_hooks._history_ahead() is None
    monkeypatch.setattr(docs_hooks, "_PENDING", {})
    monkeypatch.setattr(forked, "may_fork", lambda: False)
    assert docs_hooks._history_ahead() is None
    stopped = []
    monkeypatch.setattr(docs_hooks, "_history_ahead", lambda: SimpleNamespace(stop=lambda: stopped.append(1)))
    monkeypatch.setattr(docs_hooks, "_generation_key", lambda pub, url: "k1")
    monkeypatch.setattr(docs_hooks, "up_to_date", lambda folder, key: True)
    docs_hooks._generate_if_needed(SimpleNamespace(site_url=""), tmp_path)
    assert stopped == [1]


def test_the_pages_about_the_catalog_come_from_the_api_process_before_mkdocs_reads_a_page(monkeypatch, tmp_path):
    """A build from nothing lists the pages about the catalog as empty files (their names are known before:
    kb.site.pages.catalog_page_names) while the JSON API's process computes them; `on_nav`, which mkdocs runs
    before it reads the first page, writes them over the empty files and keeps them for the cache."""
    from kb import docs_hooks
    from kb.catalog.compiled import load_data
    from kb.questions import compute_all
    from kb.site import forked
    from kb.site.pages import catalog_page_names, catalog_pages

    data = load_data()
    export = {"data_version": data["data_version"], "verified": data["verified"], "answers": compute_all(data)}
    assert sorted(catalog_page_names(data)) == sorted(catalog_pages(data, publication(), export))
    docs_hooks.write_tree(tmp_path, {"cards/l4.de.md": "", "a.de.md": "A"}, None)
    pending = {"folder": tmp_path, "files": {"a.de.md": "A"}, "pages": lambda: {"cards/l4.de.md": "# L4\n"}}
    monkeypatch.setattr(docs_hooks, "_PENDING", pending)
    assert docs_hooks.on_nav("nav", None, None) == "nav"
    assert (tmp_path / "cards/l4.de.md").read_text() == "# L4\n"
    assert pending == {"folder": tmp_path, "files": {"a.de.md": "A", "cards/l4.de.md": "# L4\n"}}
    assert docs_hooks.on_nav("nav", None, None) == "nav"  # the next language's pass: nothing more to take
    # a JSON API's process that fails before it hands the pages over fails the build with its message
    pending["pages"] = docs_hooks._joined(forked.run_forked(lambda send: 1 / 0, "x", early=True).first)
    with pytest.raises(PluginError, match="ZeroDivisionError"):
        docs_hooks.on_nav("nav", None, None)


def test_the_generation_is_left_out_of_the_renderings_collections(monkeypatch, tmp_path):
    """What a build from nothing generated in its own process (catalog, rules, the pages' answers and texts) lives for
    the whole build: frozen (gc.freeze) right after the generation, collections paused until then and none walking it
    on the way — else every full collection of mkdocs' rendering walked all of it again."""
    import gc

    from kb import docs_hooks
    from kb.site import forked, gencache

    seen, made, collections = [], [], []

    def generate(pub, site_url, background, history=None):
        seen.append(("generate", gc.isenabled()))
        made.append([[] for _ in range(150_000)])  # what the generation leaves: more than a young generation holds
        wait = lambda: {"names": [], "parts": {}}  # noqa: E731
        wait.pid = []
        return {"x.md": "# X\n"}, ([], forked.Gate(), wait, ([], dict))
    monkeypatch.setattr(docs_hooks, "generate", generate)
    monkeypatch.setattr(docs_hooks, "_history_ahead", lambda: None)
    monkeypatch.setattr(forked, "may_fork", lambda: True)
    monkeypatch.setattr(gencache, "load", lambda key: None)
    monkeypatch.delenv("GPUKB_SKIP_GENERATE", raising=False)
    was = gc.isenabled()
    # a collection before the generation walks none of it: those after it started are the ones counted
    watch = lambda phase, info: collections.append(info["generation"]) if phase == "start" and seen else None  # noqa: E731
    gc.callbacks.append(watch)
    try:
        docs_hooks.on_config(SimpleNamespace(docs_dir=str(tmp_path), site_url="", nav=None))
        junk = [[] for _ in range(1000)]  # the rendering's first allocations: no collection walks the generation
    finally:
        gc.callbacks.remove(watch)
        docs_hooks._forget_pending()
    assert seen == [("generate", False)] and gc.isenabled() == was and collections == [] and junk
    tracked = gc.get_objects()  # frozen objects are not listed: nothing of the generation is
    assert not any(o is made[0] or o is made[0][0] for o in tracked)
    assert (tmp_path / "generated" / "x.md").read_text(encoding="utf-8") == "# X\n"


def test_generated_folder_is_up_to_date_only_for_its_key_and_untouched_files(tmp_path):
    from kb import docs_hooks

    assert not docs_hooks.up_to_date(tmp_path, "k1")  # never generated
    docs_hooks.write_tree(tmp_path, {"a.de.md": "A", "cards/x.de.md": "X"}, "k1")
    assert docs_hooks.up_to_date(tmp_path, "k1")
    assert not docs_hooks.up_to_date(tmp_path, "k2")  # catalog, rules, code or repository URL changed
    (tmp_path / "cards" / "x.de.md").write_text("edited by hand")
    assert not docs_hooks.up_to_date(tmp_path, "k1")
    docs_hooks.write_tree(tmp_path, {"a.de.md": "A", "cards/x.de.md": "X"}, "k1")
    assert (tmp_path / "cards" / "x.de.md").read_text() == "X"
    (tmp_path / "stray.de.md").write_text("S")
    assert not docs_hooks.up_to_date(tmp_path, "k1")
    (tmp_path / "stray.de.md").unlink()
    (tmp_path / "a.de.md").unlink()
    assert not docs_hooks.up_to_date(tmp_path, "k1")
    (tmp_path / ".generated").write_text("not json")
    assert not docs_hooks.up_to_date(tmp_path, "k1")


def test_generated_files_come_back_from_the_cache_only_for_an_equal_key(tmp_path, monkeypatch):
    from kb.site import gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    files = {"a.de.md": "Ä", "ask/data/x.json": b"{}\n", "empty.txt": ""}
    assert gencache.load("k1") is None  # nothing stored yet
    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    gencache.store("k1", files)
    assert synced == []  # a cache entry is not synced to disk (~100 MB: seconds at the end of a build)
    assert gencache.load("k1") == {"a.de.md": "Ä".encode(), "ask/data/x.json": b"{}\n", "empty.txt": b""}
    assert gencache.load("k2") is None  # other catalog, rules, code or address
    entry = next((tmp_path / "cache" / "site").glob("*.bin"))
    entry.write_bytes(entry.read_bytes()[:-1] + b"X")  # a byte changed: the entry is not used
    assert gencache.load("k1") is None
    entry.write_bytes(b"not an entry")
    assert gencache.load("k1") is None
    for n in range(4):  # only the newest entries are kept
        gencache.store(f"k{n + 3}", files)
    assert len(list((tmp_path / "cache" / "site").glob("*.bin"))) == gencache.KEEP
    assert gencache.load("k6") is not None and gencache.load("k3") is None


def test_a_cache_file_is_its_header_line_and_its_files_bytes_written_without_joining_them(tmp_path, monkeypatch):
    """kb.site.gencache writes an entry's file as its parts one after the other (kb.fsutil.atomic_write of a list)
    and reads the files out of it without copying the whole: the same bytes as the header line and the joined files,
    the same sha256, the same files back."""
    import hashlib

    from kb.fsutil import atomic_write
    from kb.site import gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    files = {"b/x.json": "é „x“\n", "a.bin": b"\x00\n\x01", "c.json": "", "d.json": "{}\n" * 1000}
    raw = {rel: v.encode("utf-8") if isinstance(v, str) else v for rel, v in sorted(files.items())}
    listed = [[rel, len(b)] for rel, b in raw.items()]
    body = b"".join(raw.values())
    sha256 = hashlib.sha256(json.dumps(listed).encode("ascii") + b"\n" + body).hexdigest()
    assert gencache.store_part("k1", "api", files) == sha256
    path = gencache._path("k1", "api")
    header = {"key": "k1", "part": "api", "sha256": sha256, "files": listed, "apart": []}
    assert path.read_bytes() == json.dumps(header).encode("ascii") + b"\n" + body
    assert gencache._read(path, "k1", "api", sha256) == (header, raw)
    assert all(type(b) is bytes for b in gencache._read(path, "k1", "api", sha256)[1].values())
    assert atomic_write(tmp_path / "f", [b"ab", b"", b"c"], durable=False).read_bytes() == b"abc"


def test_a_big_file_of_a_part_is_kept_apart_and_linked_not_written_again(tmp_path, monkeypatch):
    """A forked process's file of APART bytes or more (the JSON API's 80 MB of answers) is stored in a cache file of
    its own and linked into docs/generated/ and then into the site (kb.fsutil.place): its bytes are written once, not
    three times. The entry reads the same; a linked file changed in place is a miss, not wrong bytes; docs/generated/
    written again replaces a linked file instead of writing through to the cache and the site."""
    from kb import docs_hooks
    from kb.site import forked, gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(gencache, "APART", 10)
    folder, site = tmp_path / "generated", tmp_path / "site"
    big, small = b"[" + b"1," * 20 + b"1]", b"{}"
    gate = forked.Gate()
    waits = [forked.run_forked(lambda: docs_hooks._deliver({"api/v1/answers.json": big, "api/v1/index.json": small},
                                                           folder, "k1", "api", gate), "api")]
    join = docs_hooks._joined(docs_hooks._together(waits))
    docs_hooks.write_tree(folder, {"a.de.md": "A", "api/v1/answers.json": b"", "api/v1/index.json": b""}, None)
    (site / "api/v1").mkdir(parents=True)
    (site / "api/v1/answers.json").write_bytes(b"")  # what the build copied
    monkeypatch.setattr(docs_hooks, "_PENDING", {
        "key": "k1", "folder": folder, "files": {"a.de.md": "A"}, "names": {"api/v1/answers.json", "api/v1/index.json"},
        "join": join, "dests": {(str(folder / "api/v1/answers.json"), str(site / "api/v1/answers.json"))}})
    gate.open(1)
    docs_hooks._finish_pending()
    part = gencache._path("k1", "api")
    kept = gencache._apart(part, 0)  # (the files in the order of their paths: answers.json first)
    assert kept.read_bytes() == big and big not in part.read_bytes() and small in part.read_bytes()
    inode = kept.stat().st_ino
    assert (folder / "api/v1/answers.json").stat().st_ino == (site / "api/v1/answers.json").stat().st_ino == inode
    assert not gencache._apart(part, 1).exists()  # the small file stays in the part's file
    assert gencache.load("k1") == {"a.de.md": b"A", "api/v1/answers.json": big, "api/v1/index.json": small}
    assert not [p for p in folder.rglob(".*") if p.name != ".generated"] and not [p for p in site.rglob(".*")]
    # written again (another key's files, or a restore from the cache): replaced, the cache's file untouched
    docs_hooks.write_files(folder, {"api/v1/answers.json": b"[2]"})
    assert (folder / "api/v1/answers.json").read_bytes() == b"[2]" and kept.read_bytes() == big
    assert gencache.load("k1") == {"a.de.md": b"A", "api/v1/answers.json": big, "api/v1/index.json": small}
    with kept.open("r+b") as linked:  # written through one of its other names: the entry is a miss
        linked.write(b"[7")
    assert gencache.load("k1") is None


def test_a_cache_entry_in_parts_is_used_only_whole_and_as_stored(tmp_path, monkeypatch):
    """kb/site/gencache.py: the forked processes store their files as parts of the entry, the build's own process
    the rest last, naming each part by the sha256 of its bytes. A missing, cut, foreign or other build's part, or
    a part whose entry was never written, is a miss; old entries go with their parts."""
    from kb.site import gencache

    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "site"

    def entry(key):
        parts = {"ask": gencache.store_part(key, "ask", {"ask/data/x.json": b"{}\n"}),
                 "api": gencache.store_part(key, "api", {"api/v1/a.json": b"[]"})}
        assert gencache.load(key) is None  # parts alone: not an entry (the build failed before its end)
        gencache.store(key, {"a.de.md": "Ä"}, parts=parts)
        return parts
    parts = entry("k1")
    whole = {"a.de.md": "Ä".encode(), "ask/data/x.json": b"{}\n", "api/v1/a.json": b"[]"}
    assert gencache.load("k1") == whole
    ask = gencache._path("k1", "ask")
    kept = ask.read_bytes()
    ask.write_bytes(kept[:-1])  # cut
    assert gencache.load("k1") is None
    ask.unlink()  # missing
    assert gencache.load("k1") is None
    gencache.store_part("k1", "ask", {"ask/data/x.json": b"{}\n", "ask/data/y.json": b""})  # another build's part
    assert gencache.load("k1") is None
    gencache.store_part("k1", "ask", {"ask/data/x.json": b"{}\n"})  # the same bytes again: whole again
    assert gencache.load("k1") == whole
    gencache._path("k2", "ask").write_bytes(ask.read_bytes())
    gencache.store("k2", {"a.de.md": "Ä"}, parts={"ask": parts["ask"]})  # k1's part under k2's name
    assert gencache.load("k2") is None
    ask.write_bytes(gencache._path("k1", "api").read_bytes())  # the api part where the ask part belongs
    assert gencache.load("k1") is None
    gencache.store("k3", {"a.de.md": "Ä"}, parts={"ask": None})  # a part could not be stored: no entry
    assert gencache.load("k3") is None and not gencache._path("k3").exists()
    for n in range(4, 7):
        entry(f"k{n}")
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        gencache._path(f"k{n}", part).name for n in (5, 6) for part in ("", "ask", "api"))
    assert gencache.load("k6") == whole
    gencache.store_part("k7", "ask", {"ask/data/x.json": b"{}\n"})  # a build that failed (or is under way)
    entry("k8")
    assert gencache.load("k6") == whole  # leftover parts do not count as an entry: KEEP entries stay
    assert gencache._path("k7", "ask").exists()  # newer than the older entry kept: maybe still under way
    entry("k9")
    assert sorted(p.name for p in folder.iterdir()) == sorted(  # KEEP entries, not KEEP names of leftovers
        gencache._path(f"k{n}", part).name for n in (8, 9) for part in ("", "ask", "api"))


def test_nav_gets_one_entry_per_card(tmp_path):
    from kb import docs_hooks

    (tmp_path / "cards").mkdir()
    for name in ("index.de.md", "index.en.md", "l4.de.md", "l4.en.md", "h200-nvl.de.md", "h200-nvl.en.md"):
        (tmp_path / "cards" / name).write_text("x")
    nav = [{"Start": "index.md"}, {"Karten": ["generated/cards/index.md"]}]
    assert docs_hooks._expand_nav(nav, tmp_path) == [
        {"Start": "index.md"},
        {"Karten": ["generated/cards/index.md", "generated/cards/h200-nvl.md", "generated/cards/l4.md"]}]


def test_every_hand_written_page_exists_in_both_languages():
    pages = [p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")
             if "generated" not in p.parts]
    stems = {re.sub(r"\.(de|en)\.md$", "", p) for p in pages}
    assert sorted(pages) == sorted(f"{s}.{lang}.md" for s in stems for lang in ("de", "en"))


def test_the_issue_tracker_is_configurable(monkeypatch):
    from kb.catalog.compiled import load_data
    from kb.publication import Publication, publication
    from kb.site.page import Ctx

    monkeypatch.setenv("GPUKB_ISSUE_URL", "https://tracker.example/new?project=7")
    assert publication(resolve_ref=False).issue_form() == "https://tracker.example/new?project=7"
    monkeypatch.setenv("GPUKB_ISSUE_URL", "")
    assert publication(resolve_ref=False).issue_form().endswith("/issues/new")  # the repository's form
    pub = Publication(repo_url="https://example.org/r", data_ref="x", article_url=None, publisher="E",
                      issue_url="https://tracker.example/new?project=7")
    link = Ctx(load_data(), "de", pub).report_link("NVIDIA L4", "cards/l4 mig")
    assert link.startswith("[Fehler melden](https://tracker.example/new?project=7&title=Fehler%20in%20den%20Angaben")
    assert "cards%2Fl4%20mig" in link and "Datenversion%3A%20" in link
    none = Publication(repo_url=None, data_ref=None, article_url=None, publisher="E")
    assert Ctx(load_data(), "en", none).report_link("NVIDIA L4", "cards/l4") == ""  # nowhere to report: no link


def test_long_configuration_keys_may_break_resource_names_never():
    from kb import docs_hooks

    html = ("<p><code>sharing.timeSlicing.failRequestsGreaterThanOne</code> <code>nvidia.com/mig-1g.24gb.me.all</code>"
            " <code>580.82.07</code></p>")
    out = docs_hooks.on_page_content(html, None, None, None)
    assert '<code class="gpukb-key">sharing.<wbr>timeSlicing.<wbr>failRequestsGreaterThanOne</code>' in out
    assert "<code>nvidia.com/mig-1g.24gb.me.all</code> <code>580.82.07</code>" in out


def test_the_navigation_lists_card_pages_only_while_there_are_few(tmp_path):
    from kb import docs_hooks

    cards = tmp_path / "cards"
    cards.mkdir()
    for i in range(3):
        for lang in ("de", "en"):
            (cards / f"c{i}.{lang}.md").write_text("# c\n", encoding="utf-8")
    nav = [{"Karten": ["generated/cards/index.md"]}]
    assert docs_hooks._expand_nav(nav, tmp_path) == [{"Karten": ["generated/cards/index.md", "generated/cards/c0.md",
                                                                 "generated/cards/c1.md", "generated/cards/c2.md"]}]
    for i in range(3, docs_hooks.NAV_CARDS + 1):
        (cards / f"c{i}.de.md").write_text("# c\n", encoding="utf-8")
    assert docs_hooks._expand_nav(nav, tmp_path) == [{"Karten": ["generated/cards/index.md"]}]


def test_a_placed_file_is_a_link_where_the_file_system_allows_one_else_a_copy(tmp_path, monkeypatch):
    """kb.fsutil.place: the destination holds the source's bytes, replaced in one rename (no temp file left), as a
    hard link; where linking fails (another file system) as a copy of its own."""
    import os

    from kb.fsutil import place

    src, dest = tmp_path / "src.json", tmp_path / "site" / "dest.json"
    src.write_bytes(b"[1]")
    dest.parent.mkdir()
    dest.write_bytes(b"")  # what the build copied first
    place(src, dest)
    assert dest.read_bytes() == b"[1]" and dest.stat().st_ino == src.stat().st_ino
    monkeypatch.setattr(os, "link", lambda a, b: (_ for _ in ()).throw(OSError(18, "Invalid cross-device link")))
    other = tmp_path / "site" / "other.json"
    place(src, other)
    assert other.read_bytes() == b"[1]" and other.stat().st_ino != src.stat().st_ino
    assert sorted(p.name for p in dest.parent.iterdir()) == ["dest.json", "other.json"]
