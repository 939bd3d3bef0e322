"""MkDocs hook: writes the generated pages into docs/generated/ before the build, and replaces the
`{{ cite: … }}` / `{{ value: … }}` / `{{ table: … }}` markers of the guide pages.

mkdocs-gen-files does not work with mkdocs-static-i18n (which rebuilds the site once per language), so
pages are written as real files first. A generator that meets an unknown marker or a missing fact raises
PluginError: the build fails, naming the page and line.

docs/generated/.generated records what the folder was generated from (the hash of catalog/, rules/ and
kb/'s code, and the repository URL) and the size and time of every file written: a build whose inputs and
files are unchanged generates nothing (the second language, `mkdocs serve`, a rebuild). Where the folder is
gone or stale, the files generated before from the same inputs are taken from the cache (kb/site/gencache.py).
GPUKB_SKIP_GENERATE=1 reuses the files as they are (for timing the build without generation; markers are
still expanded from the compiled catalog).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

STAMP = ".generated"


def _data() -> dict:
    from kb.catalog.compiled import load_data
    from kb.errors import CatalogInvalid

    try:
        return load_data()  # memoised by the catalog's hash
    except CatalogInvalid as exc:
        problems = "\n".join(f"  {p}" for p in exc.problems)
        raise PluginError(f"gpukb: the catalog is not usable (run 'gpukb lint'):\n{problems}") from None


def _generation_key(pub, site_url: str = "") -> str:
    """What the generated pages depend on: catalog/, rules/, the code of kb/ (CLI help, generators) and where
    the pages link to (kb.publication: repository, data version, our article's address)."""
    import hashlib

    from kb.catalog.compiled import catalog_dir, input_key
    from kb.publication import git_head
    from kb.site.changes import RECORD

    code = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):  # every module: generators, CLI help
        code.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    try:  # the changes page and feeds read the catalog's history and its record of verdict changes
        code.update(b"\0record\0" + (catalog_dir() / RECORD).read_bytes())
    except OSError:
        pass
    # the changes page and the links to the data name the checkout's commit
    return f"{input_key()}|{code.hexdigest()[:20]}|{pub.key()}|{site_url}|{git_head() or ''}"


#: the niceness the forked generation adds to its own: the build's own process — importing, the pages, mkdocs'
#: rendering of both languages, ≈ 50 % of a build from nothing's CPU — then gets about a whole CPU of two beside
#: the forked processes (the ask page's data, the JSON API; the catalog's history before) instead of a third of it, and
#: no longer finishes alone seconds after them; a small value, so that beside other work (a test run) the forked
#: processes are slowed, not starved
FORK_NICE = 5


def generate(pub, site_url: str = "", *, background: tuple[Path, str] | None = None, history=None):
    """Every generated file, path relative to docs/generated/ → content. `history`: a function giving what
    kb.site.changes.ahead read of the catalog's history beforehand (`_history_ahead`), or None: read here.

    With `background` (docs/generated/, the generation's key): (files, pending) — the files no page includes (the
    ask page's data, the JSON API) are computed by forked processes meanwhile, which write them into the folder and
    store them as parts of the key's cache entry themselves (`_deliver`); `pending` = (their names, the gate they
    wait at before writing into the folder — open it once the folder is laid out —, a function waiting for them:
    `_deliver`'s summary, raising PluginError as this function does, (the names of the pages about the catalog, a
    function giving them: the JSON API's process computes them first)); `files` holds every other file."""
    from kb import __version__
    from kb.catalog.compiled import catalog_dir
    from kb.cli.main import cli
    from kb.engine.rules import load_rules
    from kb.questions import Matrix
    from kb.site import changes
    from kb.site.cliref import command_help
    from kb.site.pages import (SHOWN, api_files, api_names, ask_data, ask_data_names, catalog_page_names,
                               catalog_pages, cli_pages, data_pages, engine_pages)

    data = _data()
    with _plugin_errors():
        rules = load_rules()
        pending, waits = None, []
        if background:
            from kb.site.forked import Gate, run_forked

            folder, key = background
            gate = Gate()
            # the ask page's data needs no answer of the matrix: started first, it runs beside the matrix (which
            # had the machine's second CPU idle), the pages below and mkdocs' rendering
            waits.append(run_forked(lambda: _deliver(ask_data(data, rules), folder, key, "ask", gate),
                                    "generating the ask page's data", nice=FORK_NICE))
        try:
            matrix = Matrix(data, rules=rules)
            head = {"data_version": data["data_version"], "verified": data["verified"]}
            known = _known_history(history, data)
            # the pages show the answers of SHOWN only; the JSON API's process computes the others (≈ 70 % of the
            # matrix's CPU: resource and the rest) beside the pages and mkdocs' rendering — unless the changes page
            # compares every verdict with an older data version here anyway
            split = background and not (known["compares"] if known else changes.compares_verdicts(data, catalog_dir()))
            export = {**head, "answers": matrix.answers(SHOWN if split else None)}
            if background:
                def api(send):
                    # first the pages about the catalog (cards, profiles, methods, releases, sources: ≈ 0.2–0.3 s
                    # CPU), which this process takes before mkdocs reads a page (`on_nav`) — meanwhile it computes
                    # the other pages and mkdocs lists the files and builds the navigation
                    send(catalog_pages(data, pub, export))
                    return _deliver(api_files(data, {**head, "answers": matrix.answers()}), folder, key, "api", gate)
                api_wait = run_forked(api, "generating the JSON API", nice=FORK_NICE, early=True)
                waits.append(api_wait)
                pending = (ask_data_names(data) + api_names(data), gate, _joined(_together(waits)),
                           (catalog_page_names(data), _joined(api_wait.first)))
            files: dict[str, str | bytes] = {} if background else dict(catalog_pages(data, pub, export))
            files.update(cli_pages(data, command_help(cli), __version__, pub))
            # the matrices, rule reference and ask page: answers of the engine `gpukb ask` uses, on this catalog
            files.update(engine_pages(data, export, rules, pub, with_data=not background))
            files.update(data_pages(data, export, pub, site_url, with_api=not background, every=matrix.answers,
                                    known=known))
        except BaseException:
            if background:
                gate.close()
            _stop([w.pid for w in waits])
            raise
    return (files, pending) if background else files


def _history_ahead():
    """At the start of a build's generation, where it may fork: a forked process reading what the changes page and
    the feeds need of the catalog's history (kb.site.changes.ahead: git's log and objects, the YAML of older data
    versions) while this process compiles the catalog — on the CPU that compilation leaves idle, not on the way of
    the pages and mkdocs' rendering later. Returns the function waiting for it (its `pid`), or None (not forked)."""
    from kb.catalog.compiled import catalog_dir
    from kb.site import changes
    from kb.site.forked import may_fork, run_forked

    if _PENDING or not may_fork() or (os.cpu_count() or 1) < 2:
        return None
    folder = catalog_dir()
    return run_forked(lambda: changes.ahead(folder), "reading the catalog's history", nice=FORK_NICE)


def _known_history(history, data: dict) -> dict | None:
    """What `_history_ahead`'s process read, where it read it for this catalog's data version; None: read it here
    (no such process; it failed — reading it here raises the same error, naming the problem)."""
    if history is None:
        return None
    try:
        known = history()
    except Exception:  # noqa: BLE001 - read again in this process, which reports what is wrong
        return None
    return known if known["data_version"] == str(data["data_version"]) else None


def _deliver(files: dict[str, str | bytes], folder: Path, key: str, part: str, gate) -> dict:
    """In a forked process, its files once computed: stored as the part `part` of `key`'s cache entry, then — once
    the build's own process has laid out `folder` (`gate`) — written into it, each whole or not at all (a temp file
    renamed; mkdocs lists no dot file) — a file the cache keeps apart (the JSON API's answers) is linked to it, not
    written again (kb.fsutil.place). Returns what that process needs of them: {"names": [the files], "parts":
    {part: the sha256 its cache entry names the part by (None: not stored)}}."""
    from kb.fsutil import atomic_write, place
    from kb.site import gencache

    blobs = {name: content.encode("utf-8") if isinstance(content, str) else content for name, content in files.items()}
    files.clear()  # the texts are not needed twice in memory
    apart: dict = {}
    sha256 = gencache.store_part(key, part, blobs, apart)
    if not gate.wait():
        raise RuntimeError("the build stopped before the generated files could be written")
    for name, raw in blobs.items():
        if name in apart:
            place(apart[name], folder / name)
        else:
            atomic_write(folder / name, raw, durable=False)
    return {"names": sorted(blobs), "parts": {part: sha256}}


def _together(waits: list):
    """One wait for several forked processes (kb.site.forked.run_forked): their summaries (`_deliver`) merged; where
    one fails, the others not waited for yet are stopped. Its `pid`: theirs."""
    def wait():
        out: dict = {"names": [], "parts": {}}
        for n, one in enumerate(waits):
            try:
                got = one()
            except BaseException:
                _stop([w.pid for w in waits[n + 1:]])
                raise
            out["names"] += got["names"]
            out["parts"].update(got["parts"])
        return out
    wait.pid = [w.pid for w in waits]
    return wait


class _plugin_errors:
    """A catalog or rule problem met while generating, as the PluginError that fails the build naming it."""

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        from kb.catalog.facts import FactError
        from kb.errors import RuleBaseInvalid

        if exc is None:
            return False
        if isinstance(exc, FactError):
            raise PluginError(f"gpukb: a generated page needs a fact the catalog does not have: {exc}") from None
        if isinstance(exc, RuleBaseInvalid):
            raise PluginError(f"gpukb: the rules are not usable:\n{exc}") from None
        if isinstance(exc, KeyError):
            raise PluginError(f"gpukb: {exc.args[0]}") from None
        return False


def _joined(wait):
    """`wait` (kb.site.forked.run_forked) raising what the forked process met as this module's PluginError; a
    process that ended otherwise (its traceback) fails the build too, with its message."""
    from kb.catalog.facts import FactError
    from kb.errors import RuleBaseInvalid

    def join():
        with _plugin_errors():
            try:
                return wait()
            except (PluginError, KeyError, RuleBaseInvalid, FactError):
                raise
            except Exception as exc:  # noqa: BLE001 - the build fails with it either way; the traceback stayed there
                raise PluginError(f"gpukb: generating the ask page's data and the JSON API failed: "
                                  f"{type(exc).__name__}: {exc}") from None
    join.pid = getattr(wait, "pid", None)
    return join


def _file_stamp(folder: Path) -> dict[str, list[int]]:
    """Size and mtime of every generated file (the stamp file itself left out)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel != STAMP:
            st = path.stat()
            out[rel] = [st.st_size, st.st_mtime_ns]
    return out


def up_to_date(folder: Path, key: str) -> bool:
    """docs/generated/ was written for `key` and none of its files was changed, added or removed since."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("key") == key and stamp.get("files") == _file_stamp(folder)


def write_files(folder: Path, files: dict[str, str | bytes]) -> None:
    """Write files whose content changed (keeps mtimes stable). A file with other names too (linked to the site
    and the cache, kb.fsutil.place) is replaced, not written through. New empty files (what the forked generation
    writes, listed for mkdocs meanwhile) are names of one empty file where the file system allows it: creating a
    file costs ≈ 0.4 ms on the machines we measured, a link 0.01 ms (≈ 330 files of a build from nothing)."""
    empty = None
    try:
        for rel, content in files.items():
            path = folder / rel
            raw = content.encode("utf-8") if isinstance(content, str) else content
            found = path.stat() if path.is_file() else None
            if found is None or found.st_size != len(raw) or path.read_bytes() != raw:
                path.parent.mkdir(parents=True, exist_ok=True)
                if found is not None and found.st_nlink > 1:
                    path.unlink()
                if not raw and found is None:
                    if empty is None:
                        empty = folder / ".empty"
                        empty.unlink(missing_ok=True)
                        empty.write_bytes(b"")
                    try:
                        os.link(empty, path)
                        continue
                    except OSError:  # (no hard links here: a file of its own)
                        pass
                path.write_bytes(raw)
    finally:
        if empty is not None:
            empty.unlink(missing_ok=True)


def stamp(folder: Path, key: str) -> None:
    """Stamp the folder with `key` and its files (`up_to_date`)."""
    stamped = {"key": key, "files": _file_stamp(folder)}
    (folder / STAMP).write_text(json.dumps(stamped, sort_keys=True) + "\n", encoding="utf-8")


def write_tree(folder: Path, files: dict[str, str | bytes], key: str | None) -> None:
    """Write files whose content changed and delete files no longer generated (keeps mtimes stable);
    then stamp the folder with `key` and its files (no stamp, and none left, for `key` None)."""
    folder.mkdir(parents=True, exist_ok=True)
    if key is None:
        (folder / STAMP).unlink(missing_ok=True)
    write_files(folder, files)
    keep = set(files) | {STAMP}
    for path in sorted(folder.rglob("*"), reverse=True):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if key is not None:
        stamp(folder, key)


def on_config(config):
    """Generate docs/generated/ unless it is up to date (or GPUKB_SKIP_GENERATE=1), then list the card pages.
    GPUKB_SITE_URL, where set, is the site's address (site_url)."""
    if os.environ.get("GPUKB_SITE_URL"):
        config.site_url = os.environ["GPUKB_SITE_URL"].rstrip("/") + "/"
    folder = Path(config.docs_dir) / "generated"
    if os.environ.get("GPUKB_SKIP_GENERATE") == "1":
        if not (folder / STAMP).is_file():
            raise PluginError("gpukb: GPUKB_SKIP_GENERATE=1 but docs/generated/ was never generated: build once without it")
    else:
        from kb.catalog.yamlsafe import keeping

        # (a catalog compiled from nothing here is read again for the changes page: kb.site.changes.catalog_facts
        # takes what the compilation read)
        with keeping():
            _generate_if_needed(config, folder)
    config.nav = _expand_nav(config.nav, folder)
    return config


def _generate_if_needed(config, folder: Path) -> None:
    """on_config's generation: docs/generated/ written unless up to date, from the cache or generated (the JSON API
    and the ask page's data by forked processes where it can fork)."""
    from kb.publication import publication

    pub = publication()
    history = _history_ahead()  # (stopped below wherever nothing is generated)
    try:
        _generate_with(config, folder, pub, history)
    finally:
        if history is not None:
            history.stop()


def _generate_with(config, folder: Path, pub, history) -> None:
    key = _generation_key(pub, config.site_url or "")
    if _PENDING.get("key") == key:
        pass  # mkdocs-static-i18n's build of the next language: the files are being generated
    elif not up_to_date(folder, key):
        import gc

        from kb.questions import bulk
        from kb.site import gencache
        from kb.site.forked import may_fork

        _forget_pending()
        files = gencache.load(key)  # generated before from the same inputs (kb/site/gencache.py)
        if files is not None:
            write_tree(folder, files, key)
        elif may_fork():
            with bulk():
                files, (names, gate, join, (later, pages)) = generate(pub, config.site_url or "",
                                                                      background=(folder, key), history=history)
            # what the generation leaves (catalog, rules, the pages' answers and texts, mkdocs' configuration)
            # lives for the whole build: the collector leaves it alone from here on instead of walking it
            # at every full collection of the rendering (≈ 0.25 s CPU of this process); after `bulk`, whose end
            # thaws what was frozen (kb.questions.settle)
            gc.freeze()
            # the files the forked processes write exist (empty) for mkdocs to list and link; then the processes
            # may write them (each whole, by a rename), and on_post_build copies them where the build put them
            # (so do the pages about the catalog until `on_nav` writes them)
            _PENDING.update(key=key, folder=folder, files=files, names=set(names), join=join, dests=set(), pages=pages)
            try:
                write_tree(folder, {**{name: b"" for name in [*names, *later]}, **files}, None)
            except BaseException:
                gate.close()  # they write nothing; the failed build stops them (on_build_error)
                raise
            gate.open(len(join.pid))
        else:
            files = generate(pub, config.site_url or "")
            gencache.store(key, files)
            write_tree(folder, files, key)


def on_nav(nav, config, files):
    """Before mkdocs reads the first page: the pages about the catalog from the JSON API's process of a build from
    nothing (`generate`), written into docs/generated/ over their empty files."""
    pages = _PENDING.pop("pages", None)
    if pages is not None:
        got = pages()
        write_files(_PENDING["folder"], got)
        _PENDING["files"].update(got)
    return nav


def on_pre_build(config):
    """The search plugin reads each page with a faster parser of the same result (kb/site/searchparse.py)."""
    from kb.site.searchparse import install

    install(config)


def on_env(env, config, files):
    """Each language's build makes a new jinja environment: the theme's ~40 templates are compiled once per
    process, not once per language (an in-memory bytecode cache; a template whose source changed is compiled
    again: its checksum is part of the cached code)."""
    from kb.site.jinjacache import SHARED

    env.bytecode_cache = SHARED
    return env


#: the generation a forked process finishes (`generate(background=True)`): key, folder, files written, names of
#: the files it writes, join, and the (source, destination) of each of them in the built site
_PENDING: dict = {}


def _forget_pending() -> None:
    """Stop a forked generation nobody will wait for (a failed build; a new key)."""
    pid = _PENDING.get("join") and _PENDING["join"].pid
    _PENDING.clear()
    if pid:
        _stop(pid)


def _stop(pid) -> None:
    """Stop a forked process (a pid), or several (a list)."""
    import signal

    for one in pid if isinstance(pid, list) else [pid]:
        try:
            os.kill(one, signal.SIGTERM)
            os.waitpid(one, 0)
        except OSError:
            pass


def _finish_pending() -> None:
    """Wait for the forked generation (which wrote its files into docs/generated/ and its parts of the cache
    entry); place its files where the build put them (kb.fsutil.place: linked, not copied, where the file system
    allows it — docs/generated/ is only ever replaced, never written in place, and mkdocs' next build clears its
    site folder first or, built --dirty, skips an unchanged file), stamp the folder and store the rest of the
    generation in the cache, naming the forked processes' parts."""
    if not _PENDING:
        return
    from kb.fsutil import place
    from kb.site import gencache

    pending, join = dict(_PENDING), _PENDING["join"]
    _PENDING.clear()
    done = join()
    if set(done["names"]) != pending["names"] or len(done["names"]) != len(pending["names"]):
        raise PluginError(f"gpukb: the forked generation wrote {sorted(set(done['names']) ^ pending['names'])[:5]} "
                          "other than announced (kb.site.pages ask_data_names/api_names)")
    folder = pending["folder"]
    for src, dest in sorted(pending["dests"]):  # the build copied the empty file, or the file being written
        Path(dest).parent.mkdir(parents=True, exist_ok=True)
        place(src, dest)
    stamp(folder, pending["key"])
    gencache.store(pending["key"], pending["files"], parts=done["parts"])


def on_build_error(error):
    _forget_pending()


#: up to this many cards the navigation lists every card page; beyond it only the card list (grouped by family,
#: with a filter), which stays usable where a sidebar of 60 names would not
NAV_CARDS = 24


def _expand_nav(nav, folder: Path):
    """Replace the entry 'generated/cards/index.md' with the index followed by one entry per card page (the
    index alone beyond NAV_CARDS cards: the pages are still built and linked from it)."""
    if nav is None:
        return nav
    if isinstance(nav, list):
        out = []
        for item in nav:
            new = _expand_nav(item, folder)
            out += new if isinstance(item, str) and isinstance(new, list) else [new]
        return out
    if isinstance(nav, dict):
        return {k: _expand_nav(v, folder) for k, v in nav.items()}
    if nav == "generated/cards/index.md":
        cards = sorted({p.name.split(".")[0] for p in (folder / "cards").glob("*.md")} - {"index"})
        return [nav, *(f"generated/cards/{c}.md" for c in cards)] if len(cards) <= NAV_CARDS else [nav]
    return nav


#: where generated pages are published (their source stays docs/generated/<name>): the customer's URLs carry
#: no "generated/", and the pages for support staff sit under reference/
PUBLISHED = {"rules": "reference/rules", "cli": "reference/cli", "sources": "reference/sources",
             "json-api": "reference/api"}


def published(src: str) -> str:
    """The site path of a generated file: 'generated/rules/index.html' → 'reference/rules/index.html'."""
    rest = src.removeprefix("generated/")
    head, sep, tail = rest.partition("/")
    if not sep:  # a file directly in generated/ (mig-matrix.de.json …)
        stem = rest.split(".", 1)[0]
        return PUBLISHED[stem] + rest[len(stem):] if stem in PUBLISHED else rest
    return f"{PUBLISHED.get(head, head)}/{tail}"


def _publish(f, config) -> None:
    """Move one generated file to its published path (once: the file may be seen again as an alternate)."""
    if not f.src_uri.startswith("generated/"):
        return
    lang, _, rest = f.dest_uri.partition("/")
    prefix = lang + "/" if lang == "en" and rest.startswith("generated/") else ""
    dest = f.dest_uri[len(prefix):]
    if not dest.startswith("generated/"):
        return
    f.dest_uri = prefix + published(dest)
    f.abs_dest_path = os.path.normpath(os.path.join(config.site_dir, f.dest_uri))
    f.url = f._get_url(config.use_directory_urls)


@event_priority(-110)  # after mkdocs-static-i18n (-100), which gives each language its files and alternates
def on_files(files, config):
    """Publish generated pages without the 'generated/' folder in their URL (see PUBLISHED)."""
    for f in files:
        _publish(f, config)
        for alternate in getattr(f, "alternates", {}).values():
            _publish(alternate, config)
        if _PENDING and f.src_uri.removeprefix("generated/") in _PENDING["names"]:
            _PENDING["dests"].add((f.abs_src_path, f.abs_dest_path))  # written there once the fork is done
    return files


_LANG = re.compile(r"\.(de|en)\.md$")


def on_page_markdown(markdown, page, config, files):
    """Expand the markers of hand-written pages; generated pages are final already."""
    src = page.file.src_uri
    if src.startswith("generated/"):
        return markdown
    from kb.site.markers import MarkerError, expand
    from kb.site.page import Ctx

    m = _LANG.search(src)
    lang = m.group(1) if m else "de"
    try:
        from kb.publication import publication

        return expand(markdown, Ctx(_data(), lang, publication()))
    except MarkerError as exc:
        raise PluginError(f"gpukb: docs/{src}: {exc}") from None


_FOOTNOTE_REF = r'<sup id="fnref\d*:[^"]+"><a class="footnote-ref" href="[^"]+">\d+</a></sup>'
_FOOTNOTE_RUN = re.compile(rf"{_FOOTNOTE_REF}(?:{_FOOTNOTE_REF})+")


#: the titles Python-Markdown writes in English, in the page's language (kb.wording.MARKUP_TITLES)
_BACKLINK_TITLE = re.compile(r'title="Jump back to footnote (\d+) in the text"')
_PERMALINK_TITLE = re.compile(r'title="Permanent link"')


_CODE_OR_TAG = re.compile(r"(<(pre|code|script|style)\b.*?</\2>|<[^>]+>)", re.S)


def tighten_units_html(html: str) -> str:
    """A narrow no-break space between a number and its unit in the page's text (kb.style.tighten_units); code,
    scripts and tag attributes are left as they are.

    A number and its unit hold no "<" or ">", so each one found in the whole page lies either in the text between
    tags or inside a tag or code element: only those in the text are replaced (the same as replacing in each text
    part, without visiting the page's thousands of parts one by one)."""
    from bisect import bisect_right

    from kb.style import tighten_units, unit_matches

    units = unit_matches(html)
    if not units:
        return html
    spans = [m.span() for m in _CODE_OR_TAG.finditer(html)]  # tags and whole code/pre/script/style elements
    starts = [start for start, _ in spans]
    out, done = [], 0
    for m in units:
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and m.start() < spans[i][1]:
            continue  # inside a tag or a code element
        out += [html[done:m.start()], tighten_units(m.group(0))]
        done = m.end()
    return "".join(out) + html[done:] if out else html


def page_lang(page) -> str:
    """The language of a page: 'en' for pages under en/, else 'de' (the site's default)."""
    dest = getattr(getattr(page, "file", None), "dest_uri", "") or ""
    return "en" if dest.startswith("en/") or re.search(r"\.en\.md$", page.file.src_uri or "") else "de"


#: a footnote mark right after a number, also where the number closes an inline element (`575.51.03`¹¹ in code)
_GLUED_MARK = re.compile(r'(\d(?:</(?:code|strong|em|a|span)>)*)(<span class="gpukb-fnrefs">|<sup id="fnref)')
_MARK = re.compile(r'<span class="gpukb-fnrefs">|<sup id="fnref')
_CLOSERS = ("</code>", "</strong>", "</em>", "</a>", "</span>")


def set_off_marks(html: str) -> str:
    """_GLUED_MARK.sub("\\1\u202f\\2", html), found from the marks backwards: the expression, starting at every digit of
    the page, cost more than the rest of this hook. A mark gets the space where a digit comes before it, possibly
    followed by closing tags (none of which holds a digit or a mark, so the matches are the same)."""
    out, done = [], 0
    for m in _MARK.finditer(html):
        end = m.start()
        stripped = True
        while stripped:
            stripped = False
            for closer in _CLOSERS:
                if html.endswith(closer, done, end):
                    end -= len(closer)
                    stripped = True
                    break
        if end > done and html[end - 1].isdecimal():  # \d: a Unicode decimal digit
            out += [html[done:m.start()], "\u202f"]
            done = m.start()
    return "".join(out) + html[done:] if out else html


def on_page_content(html, page, config, files):
    """Adjacent footnote references: separated by commas (¹,² rather than ¹², which reads as twelve) and
    kept on one line; a footnote mark after a digit is set off by a narrow no-break space (575.57.08 ²⁶ copies as
    '575.57.08 26', never '575.57.0826'); footnote back-links and permalinks titled in the page's language.
    A page without a description in its front matter gets its first paragraph's text."""
    from kb.wording import MARKUP_TITLES

    def run(m):
        refs, seen, anchors = [], set(), []
        for ref in re.findall(_FOOTNOTE_REF, m.group(0)):
            target = re.search(r'href="([^"]+)"', ref).group(1)
            if target in seen:  # the same footnote twice in a row (two facts, one citation): one mark, "⁴" not "⁴,⁴"
                anchors.append('<span id="%s"></span>' % re.search(r'id="([^"]+)"', ref).group(1))  # its back-link's target
            else:
                seen.add(target)
                refs.append(ref)
        return '<span class="gpukb-fnrefs">' + '<sup class="gpukb-fnsep">,</sup>'.join(refs) + "".join(anchors) + "</span>"
    if page is not None and not page.meta.get("description"):
        page.meta["description"] = describe(html)
    if page is not None and _not_searched(page):  # its entries would be dropped (kb.site.publish): not parsed
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    html = _FOOTNOTE_RUN.sub(run, html)
    html = tighten_units_html(html)
    html = set_off_marks(html)
    lang = page_lang(page) if page is not None else "de"
    titles = MARKUP_TITLES["de" if lang == "de" else "en"]
    html = _BACKLINK_TITLE.sub(lambda m: f'title="{titles["backlink"].format(n=m.group(1))}"', html)
    html = _PERMALINK_TITLE.sub(f'title="{titles["permalink"]}"', html)
    html = _LONG_CODE.sub(_breakable, html)
    cue = f'</table><p class="gpukb-scroll-cue" data-search-exclude>{titles["scroll_cue"]}</p>'
    html = _PLAIN_TABLE.sub(lambda m: m.group(0)[:-len("</table>")] + cue, html)
    return _NOT_SEARCHED.sub(r"\1 data-search-exclude\2", html)


#: a table as Markdown writes it (no attributes): material's script wraps each such table in a box that scrolls
#: (.md-typeset__scrollwrap); the line after it, "the table scrolls sideways", is in the page from the start and
#: docs/javascripts/tables.js only shows it where the table is wider than its box (CSS hides it otherwise, and
#: without JavaScript). tables.js inserted it once loaded: the insertions made the browser restyle the whole article
#: once more at every load (the rules reference: ~24,000 → ~17,000 elements styled per load, on phones too).
_PLAIN_TABLE = re.compile(r"<table>.*?</table>", re.S)


def _not_searched(page) -> bool:
    """A page for support staff (reference/ in either language), left out of the customer search."""
    from kb.site.publish import NOT_SEARCHED

    dest = page.file.dest_uri or ""
    return (dest[3:] if dest.startswith("en/") else dest).startswith(NOT_SEARCHED)


#: inline code that is long enough to widen a phone's page (code blocks are <pre><code>, left alone)
_LONG_CODE = re.compile(r"<code>(?<!<pre><code>)([^<]{30,})</code>")  # "<code>" first: found by its text
_TOKEN = re.compile(r"^(nvidia\.com/[\w./+-]+|v?\d+(\.\d+){1,3})$")


def _breakable(m) -> str:
    """A long configuration key may break after a dot or before a bracket on a narrow screen
    (sharing.timeSlicing.​failRequestsGreaterThanOne); resource names and versions never break (CSS nowrap)."""
    text = m.group(1)
    if _TOKEN.match(text):
        return m.group(0)
    return '<code class="gpukb-key">' + re.sub(r"(\.|/)(?=\w)", r"\1<wbr>", text).replace("[", "<wbr>[") + "</code>"


#: blocks kept out of the search index: the footnotes (source quotes, repeated on many pages) and the data
#: stamp of generated pages; the text around them is what a reader searches for
_NOT_SEARCHED = re.compile(r'(<div class="(?:footnote|admonition info gpukb-stamp)")(>)')


_ADMONITION = re.compile(r'<div class="admonition[^"]*">.*?</div>', re.S)
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)
_TAG = re.compile(r"<[^>]+>")
_FOOTNOTE_MARK = re.compile(r'<sup[^>]*>.*?</sup>', re.S)


def describe(html: str, limit: int = 160) -> str:
    """The text of the first paragraph outside admonitions, without footnote marks, cut at a word."""
    import html as html_lib

    for m in _PARAGRAPH.finditer(_ADMONITION.sub("", html)):
        text = html_lib.unescape(_TAG.sub("", _FOOTNOTE_MARK.sub("", m.group(1))))
        text = re.sub(r"\s+", " ", text).strip()
        if text:
            if len(text) > limit:
                text = text[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
            return text
    return ""


@event_priority(40)  # after mkdocs-static-i18n (50) set the language links
def on_page_context(context, page, config, nav):
    """Language links relative to the page (they work when the site is served below a sub-path); the
    plugin leaves '/' and '/en/' on the home pages."""
    alternates = getattr(page.file, "alternates", {})
    # the list the template reads: the plugin sets each page's as an attribute (config.extra.alternate = …), which
    # jinja reads before the item (on the home pages it left '/' and '/en/' there, not in the item)
    shown = vars(config.extra).get("alternate")
    for alt in (shown if shown is not None else config.extra.get("alternate")) or []:
        target = alternates.get(alt["lang"])
        if target is not None:
            alt["link"] = target.url or "./"
        elif alt["link"].startswith("/"):
            alt["link"] = alt["link"].lstrip("/") or "./"
    return context


_NOT_FOUND: dict[str, str] = {}


def _language(config) -> str:
    plugin = config.plugins.get("i18n")
    return getattr(plugin, "current_language", None) or config.theme.get("language") or "de"


def on_pre_template(template, template_name, config):
    """The 404 page's language links point at the two home pages."""
    if template_name == "404.html":
        for alt in config.extra.get("alternate") or []:
            alt["link"] = "en/" if alt["lang"] == "en" else ""
        # mkdocs-static-i18n sets each page's links as an attribute (config.extra.alternate = …), which jinja reads
        # before the item: in the English build that was still the last German page's (guide/vm-dra/). Pages set it
        # again (the plugin's on_page_context).
        vars(config.extra).pop("alternate", None)
    return template


def on_post_template(output, template_name, config):
    """Keep each language's 404 page: every language build writes site/404.html, the last one wins."""
    if template_name == "404.html":
        _NOT_FOUND[_language(config)] = output
    return output


@event_priority(-200)  # after mkdocs-static-i18n (-100) has built the other languages and the search index
def on_post_build(config):
    """Once both languages are built: a search index and a site map per language, the 404 pages; then the files of
    the forked generation (which none of those reads) put in place once it is done — the last of its processes runs
    alone meanwhile, so this work costs the build no time."""
    plugin = config.plugins.get("i18n")
    if plugin is not None and getattr(plugin, "building", False):
        return  # an inner build of one more language: the outer build finishes the site
    from kb.site.publish import language_sitemap, split_search_index

    site = Path(config.site_dir)
    default = getattr(plugin, "default_language", "de")
    others = tuple(lang for lang in getattr(plugin, "build_languages", [default]) if lang != default)
    split_search_index(site, default, others)
    for lang in others:
        language_sitemap(site, config.site_url or "", lang)
    for lang, output in _NOT_FOUND.items():
        target = site / ("404.html" if lang == default else f"{lang}/404.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output, encoding="utf-8")
    _finish_pending()
