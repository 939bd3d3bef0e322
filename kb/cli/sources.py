"""`gpukb sources list|check|diff` — the watched NVIDIA documents and their drift against the catalog."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import click

from kb.catalog.compiled import load_data
from kb.cli.exitcodes import exit_code
from kb.cli.i18n import Group
from kb.cli.options import output_options, print_json
from kb.errors import UnusableInput
from kb.text import Text


@click.group(cls=Group)
def sources():
    """Watched NVIDIA documents: list them, check them for drift, diff one against a file.

    \b
    Example:
      gpukb sources check --offline ../shared/sources --report drift.md
    \f
    Beobachtete NVIDIA-Dokumente: auflisten, auf Abweichungen prüfen, eines mit einer Datei vergleichen.

    \b
    Beispiel:
      gpukb sources check --offline ../shared/sources --report drift.md --lang de
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
def list_(as_json, lang):
    """Watched sources: extractor, upstream file, when each was last checked, what it feeds.

    \b
    Example:
      gpukb sources list --json
    \f
    Beobachtete Quellen: Extraktor, Originaldatei, letzte Prüfung, was sie im Katalog belegt.

    \b
    Beispiel:
      gpukb sources list --lang de
    """
    from kb.catalog.compiled import cache_dir
    from kb.drift.check import last_checked, watched
    from kb.render.table import text_table

    data = load_data()
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
    never = Text("never", "nie")(lang)
    table = [[r["id"], r["extractor"],
              f"{r['last_checked']} {r['last_status']}" if r["last_checked"] else never,
              _feeds_text(r["feeds"])] for r in rows]
    click.echo(text_table([Text("Source", "Quelle")(lang), "Extractor", Text("Last checked", "Zuletzt geprüft")(lang),
                           Text("Feeds", "Belegt")(lang)], table))


def _feeds_text(feeds: list[str]) -> str:
    """'cards ×13, platform-support' — entities grouped by kind."""
    kinds: dict[str, int] = {}
    for entity in feeds:
        kinds[entity.split("/", 1)[0]] = kinds.get(entity.split("/", 1)[0], 0) + ("/" in entity)
    return ", ".join(f"{k} ×{n}" if n else k for k, n in kinds.items()) or "–"


def _watched_or_exit(data: dict, ids: list[str]) -> None:
    from kb.drift.check import watched

    known = [s["id"] for s in watched(data)]
    for sid in ids:
        if sid not in known:
            close = difflib.get_close_matches(sid, known, n=3, cutoff=0.5)
            hint = Text(" — did you mean: {close}", " – meinten Sie: {close}").format(close=", ".join(close)) if close else ""
            raise UnusableInput(Text("{sid} is not a watched source{hint} (list: gpukb sources list)",
                                     "{sid} ist keine beobachtete Quelle{hint} (Liste: gpukb sources list)")
                                .format(sid=repr(sid), hint=hint), suggestions=close)


def _existing(path: Path, *, folder: bool, option: str = "") -> Path:
    """`path` if it exists and is a folder (folder=True) or a file; otherwise UnusableInput naming it."""
    name = f"{option} {path}" if option else str(path)
    why = None
    if not path.exists():
        why = Text("{name} does not exist", "{name} existiert nicht")
    elif folder and not path.is_dir():
        why = Text("{name} is a file, not a folder", "{name} ist eine Datei, kein Ordner")
    elif not folder and path.is_dir():
        why = Text("{name} is a folder, not a file", "{name} ist ein Ordner, keine Datei")
    if why:
        raise UnusableInput(why.format(name=name), details={"file": str(path)})
    return path


def _writable(path: Path) -> None:
    """Refuse a report path that cannot be written before anything is fetched."""
    parent = path.parent
    why = None
    if path.is_dir():
        why = Text("it is a folder", "das ist ein Ordner")
    elif not parent.is_dir():
        why = Text("the folder {parent} does not exist", "der Ordner {parent} existiert nicht").format(parent=str(parent))
    elif not os.access(path if path.exists() else parent, os.W_OK):
        why = Text("no write permission", "keine Schreibberechtigung")
    if why:
        raise UnusableInput(Text("cannot write the report {path}: {why}", "kann den Bericht {path} nicht schreiben: {why}")
                            .format(path=str(path), why=why), details={"file": str(path)})


def _impact(data: dict, results, lang: str) -> str | None:
    """Attach the answers each change would alter (or relies on). A failure there must not hide the drift
    itself: it is returned (and shown, in the run's language), the changes are reported without those answers."""
    from kb.drift.impact import attach
    from kb.drift.report import LABELS

    try:
        errors = attach(data, [c for r in results for c in r.changes])
    except Exception as exc:  # noqa: BLE001 — any engine failure; the drift report still goes out
        errors = [f"{type(exc).__name__}: {exc}"]
    if not errors:
        return None
    message = "; ".join(errors)
    click.echo(Text("warning: {what}: {message}", "Warnung: {what}: {message}")
               .format(what=LABELS["answers_error"], message=message)(lang), err=True)
    return message


def _echo_text(results, lang: str, data: dict | None = None) -> None:
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
            names = {cid: card.get("short_name", cid) for cid, card in (data or {}).get("cards", {}).items()}
            for line in answer_lines(c.answers, lang, names=names):
                click.echo(f"{'':{width + 2}}{line}")


def _code(results, answers_error: str | None) -> int:
    """4 where gpukb failed on a source or on the answers the changes touch (`answers_error`: the engine failed; the
    report still shows the drift, but the run is a failed run, never drift), else 3 where anything could not be
    checked, else 1 where a fact changed; reworded quotes and notes alone are 0."""
    from kb.drift.check import could_not_check

    failed = any(could_not_check(r) for r in results)
    return int(exit_code(internal=answers_error is not None or any(r.status == "error" for r in results),
                         unreachable=failed, findings=any(r.status == "drift" for r in results)))


@sources.command()
@click.option("--offline", type=click.Path(path_type=Path), default=None,
              help="Read the newest <stem>@<date>.<ext> snapshots from DIR instead of fetching "
                   "(e.g. ../shared/sources).\fDie neuesten Schnappschüsse <stem>@<datum>.<ext> aus DIR lesen "
                   "statt abzurufen (z. B. ../shared/sources).")
@click.option("--report", "report_path", type=click.Path(path_type=Path), default=None,
              help="Write the Markdown report to FILE.md.\fDen Markdown-Bericht in DATEI.md schreiben.")
@click.option("--report-limit", type=click.IntRange(1000), default=None, metavar="CHARS",
              help="Cut the Markdown report on a line boundary to at most CHARS characters (an issue body holds "
                   "65536).\fDen Markdown-Bericht an einer Zeilengrenze auf höchstens CHARS Zeichen kürzen (ein "
                   "Issue fasst 65536).")
@click.option("--source", "only", multiple=True, metavar="ID", help="Check only this source (repeatable).\fNur diese Quelle prüfen (wiederholbar).")
@click.option("--timeout", type=float, default=None, help="Seconds per request (20).\fSekunden pro Abruf (20).")
@click.option("--deadline", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds for one document in all, retries included (90).\fSekunden für ein Dokument "
                   "insgesamt, Wiederholungen eingeschlossen (90).")
@click.option("--retries", type=click.IntRange(0, 10), default=None, help="Retries after 5xx or timeout (2).\fWiederholungen nach 5xx oder Zeitüberschreitung (2).")
@click.option("--max-bytes", type=click.IntRange(1), default=None, help="Size cap per document in bytes (5000000).\fHöchstgröße je Dokument in Bytes (5000000).")
@output_options
def check(offline, report_path, report_limit, only, timeout, deadline, retries, max_bytes, as_json, lang):
    """Fetch every watched source (or read it from --offline DIR), extract, compare with the catalog.
    Exit 0: no drift; 1: drift; 3: a source could not be fetched or parsed (never counted as drift or
    as no drift).

    \b
    Example:
      gpukb sources check --offline ../shared/sources --json
      gpukb sources check --report drift.md
    \f
    Ruft jede beobachtete Quelle ab (oder liest sie aus --offline DIR), extrahiert, vergleicht mit dem
    Katalog. Exit 0: keine Abweichung; 1: Abweichung; 3: eine Quelle war nicht abrufbar oder nicht lesbar
    (nie als Abweichung oder als keine Abweichung gezählt).

    \b
    Beispiel:
      gpukb sources check --offline ../shared/sources --json
      gpukb sources check --report drift.md --lang de
    """
    import datetime as dt

    from kb.catalog.compiled import cache_dir
    from kb.drift.check import run
    from kb.drift.report import as_json as report_json, markdown

    data = load_data()
    _watched_or_exit(data, list(only))
    if offline is not None:
        _existing(offline, folder=True, option="--offline")
    if report_path:
        _writable(report_path)
    options = {k: v for k, v in (("timeout", timeout), ("deadline", deadline), ("retries", retries),
                                 ("max_bytes", max_bytes)) if v is not None}
    results = run(data, offline=offline, cache=cache_dir(), only=list(only) or None, **options)
    answers_error = _impact(data, results, lang)
    code = _code(results, answers_error)
    if report_path:
        from kb.fsutil import atomic_write

        try:
            atomic_write(report_path, markdown(results, data, lang, dt.date.today().isoformat(), answers_error,
                                                 limit=report_limit))
        except OSError as exc:
            raise UnusableInput(Text("cannot write the report {path}: {why}", "kann den Bericht {path} nicht schreiben: {why}")
                                .format(path=str(report_path), why=exc.strerror or str(exc)),
                                details={"file": str(report_path)}) from None
    if as_json:
        print_json({**report_json(results, data), "answers_error": answers_error, "exit_code": code})
    else:
        _echo_text(results, lang, data)
        counts = {s: sum(r.status == s for r in results)
                  for s in ("drift", "reworded", "unreachable", "unparseable", "error", "ok")}
        counts["partly"] = sum(bool(r.unchecked) and r.status not in ("unreachable", "unparseable", "error") for r in results)
        click.echo(Text("{drift} drift, {reworded} reworded, {unreachable} unreachable, {unparseable} unparseable, "
                        "{partly} partly unchecked, {ok} unchanged",
                        "{drift} abweichend, {reworded} umformuliert, {unreachable} nicht erreichbar, "
                        "{unparseable} nicht lesbar, {partly} teilweise nicht prüfbar, "
                        "{ok} unverändert").format(**counts)(lang)
                   + (Text(", {error} internal errors (exit 4)", ", {error} interne Fehler (Exit 4)").format(**counts)(lang)
                      if counts["error"] else ""), err=code != 0)
    return code


@sources.command()
@click.argument("source_id")
@click.argument("file", type=click.Path(path_type=Path))
@output_options
def diff(source_id, file, as_json, lang):
    """Compare one watched source, as written in FILE, with the catalog (same checks as `check`).
    Exit 0: no drift; 1: drift; 3: FILE cannot be parsed as that source's kind.

    \b
    Example:
      gpukb sources diff gpu-operator-platform-support ../shared/sources/cloud-native-docs/platform-support@2025-10-27.rst
    \f
    Vergleicht eine beobachtete Quelle, so wie sie in DATEI steht, mit dem Katalog (dieselben Prüfungen
    wie `check`). Exit 0: keine Abweichung; 1: Abweichung; 3: DATEI lässt sich nicht als Dokument dieser
    Art lesen.

    \b
    Beispiel:
      gpukb sources diff gpu-operator-platform-support ../shared/sources/cloud-native-docs/platform-support@2025-10-27.rst --lang de
    """
    from kb.drift.check import check_file
    from kb.drift.report import as_json as report_json

    data = load_data()
    _watched_or_exit(data, [source_id])
    result = check_file(data["sources"][source_id], _existing(file, folder=False), data)
    answers_error = _impact(data, [result], lang)
    code = _code([result], answers_error)
    if as_json:
        print_json({**report_json([result], data, extracted=True), "answers_error": answers_error,
                    "exit_code": code})
    else:
        _echo_text([result], lang, data)
    return code


def _snapshot_of(data: dict, source_id: str, file: Path) -> str | None:
    """The date to pin quotes to where FILE is a dated snapshot (`…@YYYY-MM-DD.ext`) other than the newest."""
    import re

    from kb.lint.snapshots import snapshot_files

    m = re.search(r"@(\d{4}-\d{2}-\d{2})\.[^.]+$", file.name)
    snapshot = data["sources"].get(source_id, {}).get("snapshot")
    if not m or not snapshot:
        return None
    from kb.lint.context import shared_dir

    dates = [d for d in snapshot_files(shared_dir(), snapshot) if d]
    return None if dates and str(max(dates)) == m.group(1) else m.group(1)


def _yaml(doc: dict) -> str:
    import yaml

    class Plain(yaml.SafeDumper):
        def ignore_aliases(self, data):  # a citation shared by two facts is written out twice
            return True

    return yaml.dump(doc, Dumper=Plain, sort_keys=False, allow_unicode=True, width=120)


@sources.command("import")
@click.argument("source_id")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--card", "cards", multiple=True, metavar="ID",
              help="Only these cards (mig-parted's config: cards with PCI device ids).\fNur diese Karten "
                   "(Konfiguration von mig-parted: Karten mit PCI-Geräte-IDs).")
@click.option("--write", is_flag=True,
              help="Write each new card to catalog/cards/<id>.yaml (an existing card is never overwritten; only the "
                   "first releases read with --repository are set in it); releases into their releases file "
                   "(hand-written parts kept)."
                   "\fJede neue Karte nach catalog/cards/<id>.yaml schreiben (eine vorhandene Karte wird nie "
                   "überschrieben; nur die mit --repository gelesenen ersten Releases werden darin gesetzt); Releases "
                   "in ihre Release-Datei (Handgeschriebenes bleibt).")
@click.option("--repository", "repositories", type=click.Path(path_type=Path), metavar="DIR", multiple=True,
              help="Release notes: a clone of NVIDIA/gpu-operator (a git folder), to read what each release tag "
                   "deploys (values.yaml) and the MIG layouts' device ids. Platform support: a clone of "
                   "NVIDIA/cloud-native-docs, to find the first release whose list names each card (and whose "
                   "KubeVirt vGPU list names it), and a clone of NVIDIA/gpu-operator (repeat the option) for the "
                   "first release whose code configures vGPU for a card."
                   "\fRelease Notes: ein Klon von "
                   "NVIDIA/gpu-operator (ein Git-Ordner), um zu lesen, was jeder Release-Tag installiert (values.yaml), "
                   "und die Geräte-IDs der MIG-Layouts. Plattform-Unterstützung: ein Klon von NVIDIA/cloud-native-docs, "
                   "um das erste Release zu finden, dessen Liste die jeweilige Karte nennt (und dessen KubeVirt-vGPU-Liste "
                   "sie nennt), und ein Klon von NVIDIA/gpu-operator (Option wiederholen) für das erste Release, dessen "
                   "Code vGPU für eine Karte konfiguriert.")
@click.option("--since", metavar="V",
              help="Releases: import from this release on (default: the catalog's oldest).\fReleases: ab diesem "
                   "Release importieren (Standard: das älteste im Katalog).")
@output_options
def import_(source_id, file, cards, write, repositories, since, as_json, lang):
    """Draft catalog YAML with citations from an NVIDIA document (the drift check's extractors read it).

    From the GPU Operator's platform support page: a card for every listed product the catalog does not know
    (systems such as DGX H100 are named, to be recorded under the card they contain). From mig-parted's
    config-default.yaml: the MIG profiles of every card with PCI device ids. From the GPU Operator's release
    notes or a CHANGELOG: every release entry that is new or differs (components with citations; with
    --repository what each release tag deploys). Review every draft: MIG facts of the MIG user guide and our
    own offer are added by hand. From the DRA driver's Chart.yaml with --repository (a clone of
    kubernetes-sigs/dra-driver-nvidia-gpu): every release tag's requirements, feature gates and kubelet plugins.
    From the platform support page with --repository (clones of NVIDIA/cloud-native-docs and NVIDIA/gpu-operator):
    the first release whose list names each card, and whose KubeVirt vGPU support covers it.

    \b
    Example:
      gpukb sources import gpu-operator-platform-support ../shared/sources/cloud-native-docs/platform-support@2026-08-21.rst
      gpukb sources import mig-parted-config-default config-default.yaml --card h200-nvl
      gpukb sources import gpu-operator-release-notes release-notes.rst --repository ../.mirror/NVIDIA+gpu-operator/repo
      gpukb sources import dra-driver-chart Chart.yaml --repository ../.mirror/kubernetes-sigs+dra-driver-nvidia-gpu/repo
    \f
    Entwirft Katalog-YAML mit Belegen aus einem NVIDIA-Dokument (die Extraktoren der Abweichungsprüfung lesen
    es). Aus der Plattform-Unterstützung des GPU Operators: eine Karte für jedes gelistete Produkt, das der
    Katalog noch nicht kennt (Systeme wie DGX H100 werden genannt, um sie bei der enthaltenen Karte
    einzutragen). Aus config-default.yaml von mig-parted: die MIG-Profile jeder Karte mit PCI-Geräte-IDs.
    Aus Chart.yaml des DRA-Treibers mit --repository (ein Klon von kubernetes-sigs/dra-driver-nvidia-gpu): die
    Voraussetzungen, Feature-Gates und Kubelet-Plugins jedes Release-Tags. Aus der Plattform-Unterstützung mit
    --repository (Klone von NVIDIA/cloud-native-docs und NVIDIA/gpu-operator): das erste Release, dessen Liste die
    jeweilige Karte nennt und dessen KubeVirt-vGPU-Unterstützung sie abdeckt.
    Prüfen Sie jeden Entwurf: MIG-Fakten des MIG-Benutzerhandbuchs und unser eigenes Angebot kommen von Hand.

    \b
    Beispiel:
      gpukb sources import gpu-operator-platform-support ../shared/sources/cloud-native-docs/platform-support@2026-08-21.rst --lang de
    """
    from kb.catalog.compiled import catalog_dir
    from kb.importer import draft

    data = load_data()
    path = _existing(file, folder=False)
    repositories = [_existing(r, folder=True, option="--repository") for r in repositories]
    result = draft(source_id, path.read_text(encoding="utf-8", errors="replace"), data,
                   snapshot=_snapshot_of(data, source_id, path), cards=list(cards) or None,
                   repository=repositories[0] if len(repositories) == 1 else (repositories or None), since=since)
    written = []
    if "yaml" in result:  # releases: entries for the releases file
        if write:
            from kb.fsutil import atomic_write

            for name, text in result["files"].items():
                target = Path(catalog_dir()) / "releases" / Path(name).name
                atomic_write(target, text.encode("utf-8"))
                written.append(str(target))
        if as_json:
            print_json({**{k: v for k, v in result.items() if k not in ("yaml", "files")}, "written": written})
            return 0
        for name, text in result["yaml"].items():
            click.echo(f"--- # {Text('releases new or changed in', 'neue oder geänderte Releases in')(lang)} {name}")
            click.echo(text.rstrip())
        return _import_tail(result, written, lang, Text(
            "# nothing to draft: the catalog has every release of the document as written",
            "# nichts zu entwerfen: der Katalog hat jedes Release des Dokuments wie dort"))
    if write:
        from kb.fsutil import atomic_write

        folder = Path(catalog_dir()) / "cards"
        for d in result["drafts"]:
            target = folder / f"{d['id']}.yaml"
            if "support" in d:
                from kb.importer.history import set_support

                atomic_write(target, set_support(target.read_text(encoding="utf-8"), d["support"]).encode("utf-8"))
                written.append(str(target))
            elif d.get("new") and not target.exists():
                atomic_write(target, ("# yaml-language-server: $schema=../schema/card.schema.json\n"
                                      + _yaml(d["card"])).encode("utf-8"))
                written.append(str(target))
    if as_json:
        print_json({**result, "written": written})
        return 0
    for d in result["drafts"]:
        if "support" in d:
            click.echo(f"--- # {Text('first releases in', 'erste Releases in')(lang)} catalog/cards/{d['id']}.yaml")
            click.echo(_yaml({"operator_support": d["support"]}).rstrip())
        elif d.get("new"):
            click.echo(f"--- # {Text('new card', 'neue Karte')(lang)} catalog/cards/{d['id']}.yaml")
            click.echo(_yaml(d["card"]).rstrip())
        else:
            click.echo(f"--- # {Text('MIG part of', 'MIG-Teil von')(lang)} catalog/cards/{d['id']}.yaml")
            click.echo(_yaml({"mig": d["mig"]}).rstrip())
    return _import_tail(result, written, lang, Text(
        "# nothing to draft: the catalog knows every product of the document",
        "# nichts zu entwerfen: der Katalog kennt jedes Produkt des Dokuments"))


def _import_tail(result: dict, written: list, lang: str, nothing: Text) -> int:
    """The end of an import's text output: the importer's notes, the files written, or that nothing was new."""
    for n in result["notes"]:
        click.echo(f"# {n[lang]}")
    for w in written:
        click.echo(Text("written: {file}", "geschrieben: {file}").format(file=w)(lang))
    if not result["drafts"]:
        click.echo(nothing(lang))
    return 0
