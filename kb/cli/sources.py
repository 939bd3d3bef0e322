"""`gpukb sources list|check|diff` — the watched NVIDIA documents and their drift against the catalog."""

from __future__ import annotations

import difflib
import os
import sys
from pathlib import Path

import click

from kb.cli.exitcodes import exit_code
from kb.cli.options import UsageProblem, json_errors, load_catalog_data, output_options, print_json, t


@click.group()
def sources():
    """Watched NVIDIA documents: list them, check them for drift, diff one against a file.

    Beobachtete NVIDIA-Dokumente: auflisten, auf Abweichungen prüfen, eines mit einer Datei vergleichen.

    \b
    Example / Beispiel:
      gpukb sources check --offline ../shared/sources --report drift.md
    """


def _feeds(data: dict) -> dict[str, list[str]]:
    """Source id → the catalog entities whose citations name it."""
    from kb.drift.compare import citations, entities

    out: dict[str, list[str]] = {}
    items = list(entities(data))
    if data.get("platform"):
        items.append(("platform-support", data["platform"]))
    for entity, node in items:
        for _path, cit in citations(node):
            users = out.setdefault(cit.get("source"), [])
            if entity not in users:
                users.append(entity)
    return out


@sources.command("list")
@output_options
@json_errors
def list_(as_json, lang):
    """Watched sources: extractor, upstream file, when each was last checked, what it feeds.

    Beobachtete Quellen: Extraktor, Originaldatei, letzte Prüfung, was sie im Katalog belegt.

    \b
    Example / Beispiel:
      gpukb sources list --json
    """
    from kb.catalog.compiled import cache_dir
    from kb.drift.check import last_checked, watched
    from kb.render.table import text_table

    data = load_catalog_data()
    state = last_checked(cache_dir())
    feeds = _feeds(data)
    rows = []
    for s in watched(data):
        seen = state.get(s["id"], {})
        rows.append({"id": s["id"], "extractor": s["watch"]["extractor"], "url": s["watch"]["url"],
                     "snapshot": s.get("snapshot"), "last_checked": seen.get("checked"),
                     "last_status": seen.get("status"), "feeds": feeds.get(s["id"], [])})
    if as_json:
        print_json({"data_version": data["data_version"], "sources": rows})
        return
    never = t(lang, "never", "nie")
    table = [[r["id"], r["extractor"],
              f"{r['last_checked']} {r['last_status']}" if r["last_checked"] else never,
              _feeds_text(r["feeds"])] for r in rows]
    click.echo(text_table([t(lang, "Source", "Quelle"), "Extractor", t(lang, "Last checked", "Zuletzt geprüft"),
                           t(lang, "Feeds", "Belegt")], table))


def _feeds_text(feeds: list[str]) -> str:
    """'cards ×13, platform-support' — entities grouped by kind."""
    kinds: dict[str, int] = {}
    for entity in feeds:
        kinds[entity.split("/", 1)[0]] = kinds.get(entity.split("/", 1)[0], 0) + ("/" in entity)
    return ", ".join(f"{k} ×{n}" if n else k for k, n in kinds.items()) or "–"


def _watched_or_exit(data: dict, ids: list[str], lang: str) -> None:
    from kb.drift.check import watched

    known = [s["id"] for s in watched(data)]
    for sid in ids:
        if sid not in known:
            close = difflib.get_close_matches(sid, known, n=3, cutoff=0.5)
            hint = t(lang, f" — did you mean: {', '.join(close)}", f" — meinten Sie: {', '.join(close)}") if close else ""
            raise UsageProblem(t(lang, f"{sid!r} is not a watched source{hint} (list: gpukb sources list)",
                                 f"{sid!r} ist keine beobachtete Quelle{hint} (Liste: gpukb sources list)"), lang)


def _existing(path: Path, lang: str, *, folder: bool, option: str = "") -> Path:
    """`path` if it exists and is a folder (folder=True) or a file; otherwise exit 2 naming it."""
    name = f"{option} {path}" if option else str(path)
    if not path.exists():
        raise UsageProblem(t(lang, f"{name} does not exist", f"{name} existiert nicht"), lang)
    if folder and not path.is_dir():
        raise UsageProblem(t(lang, f"{name} is a file, not a folder", f"{name} ist eine Datei, kein Ordner"), lang)
    if not folder and path.is_dir():
        raise UsageProblem(t(lang, f"{name} is a folder, not a file", f"{name} ist ein Ordner, keine Datei"), lang)
    return path


def _writable(path: Path, lang: str) -> None:
    """Refuse a report path that cannot be written before anything is fetched."""
    parent = path.parent
    why = None
    if path.is_dir():
        why = t(lang, "it is a folder", "das ist ein Ordner")
    elif not parent.is_dir():
        why = t(lang, f"the folder {parent} does not exist", f"der Ordner {parent} existiert nicht")
    elif not os.access(path if path.exists() else parent, os.W_OK):
        why = t(lang, "no write permission", "keine Schreibberechtigung")
    if why:
        raise UsageProblem(t(lang, f"cannot write the report {path}: {why}",
                             f"kann den Bericht {path} nicht schreiben: {why}"), lang)


def _impact(data: dict, results) -> str | None:
    """Attach the answers each change would alter (or relies on). A failure there must not hide the drift
    itself: it is returned (and shown), the changes are reported without those answers."""
    from kb.drift.impact import attach

    try:
        errors = attach(data, [c for r in results for c in r.changes])
    except Exception as exc:  # noqa: BLE001 — any engine failure; the drift report still goes out
        errors = [f"{type(exc).__name__}: {exc}"]
    if not errors:
        return None
    message = "; ".join(errors)
    click.echo(f"warning: answers could not be computed / Antworten nicht berechenbar: {message}", err=True)
    return message


def _echo_text(results, lang: str) -> None:
    from kb.drift.report import STATUS, answer_lines, neutral, status_word
    from kb.text import Text

    width = max(len(status_word(s, lang)) for s in STATUS) + 2
    for r in results:
        click.echo(f"{status_word(r.status, lang):<{width}}{r.source}  ({neutral(r.origin)})")
        if r.error:
            click.echo(f"{'':{width}}{neutral(r.error)}")
        for part in r.unchecked:
            click.echo(f"{'':{width}}- {neutral(Text.of(part['part'])(lang))}: {neutral(part['error'])}")
        for c in r.changes:
            click.echo(f"{'':{width}}- {neutral(c.text[lang])}")
            for line in answer_lines(c.answers, lang):
                click.echo(f"{'':{width + 2}}{line}")


def _code(results) -> int:
    """3 where anything could not be checked, else 1 where a fact changed; reworded quotes alone are 0."""
    from kb.drift.check import could_not_check

    failed = any(could_not_check(r) for r in results)
    return int(exit_code(unreachable=failed, findings=any(r.status == "drift" for r in results)))


@sources.command()
@click.option("--offline", type=click.Path(path_type=Path), default=None,
              help="Read the newest <stem>@<date>.<ext> snapshots from DIR instead of fetching "
                   "/ Schnappschüsse aus DIR lesen statt abzurufen (e.g. ../shared/sources).")
@click.option("--report", "report_path", type=click.Path(path_type=Path), default=None,
              help="Write the Markdown report to FILE.md / Markdown-Bericht in FILE.md schreiben.")
@click.option("--source", "only", multiple=True, metavar="ID", help="Check only this source (repeatable) / nur diese Quelle.")
@click.option("--timeout", type=float, default=None, help="Seconds per request / Sekunden pro Abruf (20).")
@click.option("--retries", type=click.IntRange(0, 10), default=None, help="Retries after 5xx or timeout (2) / Wiederholungen nach 5xx oder Zeitüberschreitung.")
@click.option("--max-bytes", type=click.IntRange(1), default=None, help="Size cap per document in bytes (5000000) / Höchstgröße je Dokument.")
@output_options
@json_errors
def check(offline, report_path, only, timeout, retries, max_bytes, as_json, lang):
    """Fetch every watched source (or read it from --offline DIR), extract, compare with the catalog.
    Exit 0: no drift; 1: drift; 3: a source could not be fetched or parsed (never counted as drift or
    as no drift).

    Ruft jede beobachtete Quelle ab (oder liest sie aus --offline DIR), extrahiert, vergleicht mit dem
    Katalog. Exit 0: keine Abweichung; 1: Abweichung; 3: eine Quelle war nicht abrufbar oder nicht lesbar.

    \b
    Example / Beispiel:
      gpukb sources check --offline ../shared/sources --json
      gpukb sources check --report drift.md --lang de
    """
    import datetime as dt

    from kb.catalog.compiled import cache_dir
    from kb.drift.check import run
    from kb.drift.report import as_json as report_json, markdown

    data = load_catalog_data()
    _watched_or_exit(data, list(only), lang)
    if offline is not None:
        _existing(offline, lang, folder=True, option="--offline")
    if report_path:
        _writable(report_path, lang)
    options = {k: v for k, v in (("timeout", timeout), ("retries", retries), ("max_bytes", max_bytes)) if v is not None}
    results = run(data, offline=offline, cache=cache_dir(), only=list(only) or None, **options)
    answers_error = _impact(data, results)
    code = _code(results)
    if report_path:
        try:
            report_path.write_text(markdown(results, data, lang, dt.date.today().isoformat(), answers_error),
                                   encoding="utf-8")
        except OSError as exc:
            raise UsageProblem(t(lang, f"cannot write the report {report_path}: {exc.strerror}",
                                 f"kann den Bericht {report_path} nicht schreiben: {exc.strerror}"), lang) from None
    if as_json:
        print_json({**report_json(results, data), "answers_error": answers_error, "exit_code": code})
    else:
        _echo_text(results, lang)
        counts = {s: sum(r.status == s for r in results) for s in ("drift", "reworded", "unreachable", "unparseable", "ok")}
        counts["partly"] = sum(bool(r.unchecked) and r.status not in ("unreachable", "unparseable") for r in results)
        click.echo(t(lang, "{drift} drift, {reworded} reworded, {unreachable} unreachable, {unparseable} unparseable, "
                           "{partly} partly unchecked, {ok} unchanged",
                        "{drift} abweichend, {reworded} umformuliert, {unreachable} nicht erreichbar, "
                        "{unparseable} nicht lesbar, {partly} teilweise nicht prüfbar, "
                        "{ok} unverändert").format(**counts), err=code != 0)
    sys.exit(code)


@sources.command()
@click.argument("source_id")
@click.argument("file", type=click.Path(path_type=Path))
@output_options
@json_errors
def diff(source_id, file, as_json, lang):
    """Compare one watched source, as written in FILE, with the catalog (same checks as `check`).
    Exit 0: no drift; 1: drift; 3: FILE cannot be parsed as that source's kind.

    Vergleicht eine beobachtete Quelle, so wie sie in FILE steht, mit dem Katalog.

    \b
    Example / Beispiel:
      gpukb sources diff gpu-operator-platform-support ../shared/sources/cloud-native-docs/platform-support@2025-10-27.rst
    """
    from kb.drift.check import check_file
    from kb.drift.report import as_json as report_json

    data = load_catalog_data()
    _watched_or_exit(data, [source_id], lang)
    result = check_file(data["sources"][source_id], _existing(file, lang, folder=False), data)
    answers_error = _impact(data, [result])
    code = _code([result])
    if as_json:
        print_json({**report_json([result], data, extracted=True), "answers_error": answers_error,
                    "exit_code": code})
    else:
        _echo_text([result], lang)
    sys.exit(code)
