"""One drift run: read every watched source (fetched, or the newest snapshot in an offline folder), extract,
compare with the catalog. A source that cannot be read or parsed is "unreachable"/"unparseable" — never
"ok" and never "drift"."""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path

import kb.drift.fetch as fetching
from kb.drift import extractors
from kb.drift.compare import Change, compare
from kb.drift.fetch import FetchError, fetch, newest_tag
from kb.fsutil import atomic_write
from kb.lint.snapshots import pick, snapshot_files


#: sources fetched at the same time (all 26 of raw.githubusercontent.com timing out must fit a CI job)
WORKERS = 6


@dataclass
class SourceResult:
    source: str
    extractor: str
    origin: str  # URL or file read
    status: str  # ok | reworded | drift | unreachable | unparseable | error (STATUSES; error = a bug of gpukb)
    read: str = ""  # fetched | not-modified | file
    error: str | None = None
    changes: list[Change] = field(default_factory=list)
    #: parts of a readable document that could not be read ({"part", "error"}): the rest was compared
    unchecked: list[dict] = field(default_factory=list)
    extracted: dict | None = None
    seconds: float = 0.0

    def as_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "changes"}
        out["changes"] = [c.as_dict() for c in self.changes]
        return out


def watched(data: dict) -> list[dict]:
    """The sources with a `watch`, in catalog order."""
    return [s for s in data["sources"].values() if s.get("watch")]


def offline_file(folder: Path, snapshot: str | None) -> Path | None:
    """The newest `<stem>@<date>.<ext>` for a snapshot stem in a folder laid out like ../shared/sources
    (the stem's leading 'sources/' may be part of the folder) or like ../shared."""
    if not snapshot:
        return None
    stems = [snapshot]
    if snapshot.startswith("sources/"):
        stems.insert(0, snapshot[len("sources/"):])
    for stem in stems:
        path = pick(snapshot_files(folder, stem), None)
        if path is not None:
            return path
    return None


def check_text(source: dict, text: str, data: dict, origin: str, read: str) -> SourceResult:
    """Extract and compare one document's text."""
    result = SourceResult(source["id"], source["watch"]["extractor"], origin, "ok", read)
    wrong = not_the_document(text, source)
    if wrong:
        result.status, result.error = "unparseable", f"{origin}: {wrong}"
        return result
    try:
        extracted = extractors.get(result.extractor).extract(text)
    except extractors.ExtractError as exc:
        result.status, result.error = "unparseable", f"{origin}: {exc}"
        return result
    except Exception as exc:  # noqa: BLE001 — a bug of ours on one document must not hide the other sources
        return _internal(result, "reading", exc)
    result.extracted = extracted
    result.unchecked = list(extracted.get("unreadable", []))
    try:
        result.changes = compare(source, extracted, text, data)
    except Exception as exc:  # noqa: BLE001
        return _internal(result, "comparing", exc)
    if unrelated(result.changes, source, data):
        result.status, result.changes = "unparseable", []
        result.error = (f"{origin}: none of the quotes our data take from this document occurs in it, not even "
                        "reworded: not the document it should be (an unrelated page?)")
        return result
    result.status = status_of(result.changes)
    return result


#: a document that holds none of at least this many quotes citing it is another document, not a changed one
UNRELATED_QUOTES = 3


def unrelated(changes: list[Change], source: dict, data: dict) -> bool:
    """Whether a document only the catalog's quotes are checked against (quotes-only) holds none of them: every
    quote gone, none reworded or changed, at least UNRELATED_QUOTES of them."""
    if source["watch"]["extractor"] != "quotes-only":
        return False
    from kb.drift.compare import cited_items

    cited = sum(1 for *_x, cit in cited_items(data, source["id"]) if cit.get("quote"))
    gone = [c for c in changes if c.kind == "quote-gone"]
    return cited >= UNRELATED_QUOTES and len(gone) == len(changes) == cited


def _internal(result: SourceResult, doing: str, exc: Exception) -> SourceResult:
    """An error of gpukb itself on one source: status "error" (exit 4), never drift, never "no drift"."""
    import traceback

    where = traceback.extract_tb(exc.__traceback__)[-1]
    result.status = "error"
    result.changes, result.unchecked = [], []
    result.error = (f"internal error of gpukb while {doing} {result.origin}: {type(exc).__name__}: {exc} "
                    f"({Path(where.filename).name}:{where.lineno})")
    return result


#: a source's outcome: "reworded" means only the wording of quotes changed (no fact), which does not fail
STATUSES = ("ok", "reworded", "drift", "unreachable", "unparseable", "error")


def status_of(changes: list[Change]) -> str:
    if any(c.rank == "fact" for c in changes):
        return "drift"
    return "reworded" if any(c.rank == "reworded" for c in changes) else "ok"


def could_not_check(result: SourceResult) -> bool:
    """Whether something of the source could not be checked (the whole document or a part of it)."""
    return result.status in ("unreachable", "unparseable", "error") or bool(result.unchecked)


_HTML = re.compile(r"\s*(<!doctype\s+html|<html\b|<head\b|<body\b)", re.IGNORECASE)
#: the kind of file each watched URL's extension promises: the first non-blank text a real one starts with may not
#: be HTML; YAML/TOML/Markdown/RST all begin with text, a comment, a heading or a directive
_KINDS = (".rst", ".md", ".yaml", ".yml", ".toml", ".json", ".txt")


def not_the_document(text: str, source: dict) -> str | None:
    """Why a body is not the kind of document the source is (an HTML page served as text/plain: an error,
    login or rate-limit page), or None. Such a body is "unparseable", never drift."""
    if not text.strip():
        return "the document is empty"
    url = source.get("watch", {}).get("url", "")
    if _HTML.match(text[:2048]) and not url.lower().endswith((".html", ".htm")):
        return "an HTML page, not the raw document (an error, login or rate-limit page?)"
    return None


def check_file(source: dict, path: Path, data: dict, max_bytes: int | None = None) -> SourceResult:
    """Check one local file. A file that cannot be read is "unreachable"; one that is larger than the cap
    (default: the fetch cap), not UTF-8 or binary is "unparseable" — neither is drift nor "no drift"."""
    limit = fetching.MAX_BYTES if max_bytes is None else max_bytes

    def failed(status: str, error: str) -> SourceResult:
        return SourceResult(source["id"], source["watch"]["extractor"], str(path), status, "file", error=error)

    try:
        size = path.stat().st_size
        if size > limit:
            return failed("unparseable", f"{path} is {size} bytes, more than the cap of {limit}")
        raw = path.read_bytes()
    except OSError as exc:
        return failed("unreachable", f"cannot read {path}: {exc.strerror or exc}")
    return check_bytes(source, raw, data, str(path), "file")


def check_bytes(source: dict, raw: bytes, data: dict, origin: str, read: str) -> SourceResult:
    """Check a document's bytes: not UTF-8 or holding a NUL byte is "unparseable", never drift."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return SourceResult(source["id"], source["watch"]["extractor"], origin, "unparseable", read,
                            error=f"{origin} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
    if "\x00" in text:
        return SourceResult(source["id"], source["watch"]["extractor"], origin, "unparseable", read,
                            error=f"{origin} is a binary file (NUL byte at offset {raw.index(0)}), not a text document")
    return check_text(source, text, data, origin, read)


def check_source(source: dict, data: dict, *, offline: Path | None, cache: Path, **fetch_options) -> SourceResult:
    start = time.perf_counter()
    if offline is not None:
        path = offline_file(offline, source.get("snapshot"))
        if path is None:
            result = SourceResult(source["id"], source["watch"]["extractor"], str(offline), "unreachable", "file",
                                  error=f"no snapshot of {source.get('snapshot') or source['id']} in {offline}")
        else:
            result = check_file(source, path, data, fetch_options.get("max_bytes"))
    else:
        url = source["watch"]["url"]
        try:
            if source["watch"].get("tag"):  # cited at a release tag: watched at the newest one, not on main
                url = url.replace("{tag}", newest_tag(source["watch"]["tag"], cache, **fetch_options))
            got = fetch(url, cache, **fetch_options)
        except FetchError as exc:
            result = SourceResult(source["id"], source["watch"]["extractor"], exc.url or url, "unreachable",
                                  error=f"{exc.reason}: {exc}")
        else:
            result = check_text(source, got.text, data, got.url, got.status)
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def run(data: dict, *, offline: Path | None, cache: Path, only: list[str] | None = None,
        **fetch_options) -> list[SourceResult]:
    """Check every watched source (or those in `only`), a few at a time, in catalog order; remember when
    each was checked."""
    chosen = [s for s in watched(data) if not only or s["id"] in only]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda s: check_source(s, data, offline=offline, cache=cache, **fetch_options),
                                chosen))
    remember(cache, results)
    return results


def state_path(cache: Path) -> Path:
    return cache / "drift" / "state.json"


def remember(cache: Path, results: list[SourceResult]) -> None:
    """Record per source when it was last checked and with what outcome (for `gpukb sources list`)."""
    path = state_path(cache)
    state = last_checked(cache)
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    for r in results:
        state[r.source] = {"checked": now, "status": r.status, "origin": r.origin}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(state, indent=1, sort_keys=True))
    except OSError:
        pass


def last_checked(cache: Path) -> dict:
    """The state of the last runs; a damaged or foreign file counts as none."""
    try:
        state = json.loads(state_path(cache).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in state.items() if isinstance(v, dict)} if isinstance(state, dict) else {}
