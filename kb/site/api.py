"""The site's static JSON API under api/v1/: the same data the CLI prints with --json, for tools that cannot run
gpukb. Written by the site build (kb/docs_hooks.py) into docs/generated/api/v1/ and published as api/v1/.

- index.json      what there is: data version, verified date, the files with their URLs, counts
- cards.json      as `gpukb cards --json`
- cards/<id>.json as `gpukb card <id> --json`
- answers.json    as `gpukb export answers --json`

tests/test_site_api.py compares every file with the CLI's output.
"""

from __future__ import annotations

import json
from kb.text import Text

VERSION = "v1"


def _dump(value, compact: bool = False) -> str | bytes:
    if compact:  # the answers: megabytes, read by tools, not people (UTF-8 bytes, kb.jsonbytes: json's text, faster)
        from kb.jsonbytes import dumps

        return dumps(value, newline=True)
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def cards_payload(data: dict, mig_answers: dict[str, dict]) -> dict:
    """`gpukb cards --json`: one row per card (kb.cli.cards._summary) with the MIG verdict of the newest release."""
    from kb.cli.cards import _summary

    return {"cards": [_summary(data, cid, mig_answers[cid]) for cid in data["cards"]], "data_version": data["data_version"]}


def newest_mig(data: dict, export: dict) -> dict[str, dict]:
    """Card id → the engine's MIG answer with the newest GPU Operator release the catalog knows, no driver (what
    `gpukb cards` shows)."""
    from kb.questions.base import make_index, operator_version

    newest = operator_version(make_index(data), None)
    out = {a["inputs"]["card"]: a for a in export["answers"] if a["question"] == "mig"
           and a["inputs"]["operator"] == newest and not a["inputs"].get("driver")}
    missing = sorted(set(data["cards"]) - set(out))
    if missing:
        raise KeyError(f"the engine exported no MIG answer with GPU Operator {newest} for {', '.join(missing)}")
    return out


def files(data: dict, export: dict, hash_: str) -> dict[str, str | bytes]:
    """Every file of the API, path relative to docs/generated/ → JSON text (answers.json as UTF-8 bytes). `export` is the engine's answers
    (as kb.questions.export_all without its hash), `hash_` the key of catalog and rules (kb.catalog.compiled.input_key)."""
    from kb.render.card import card_json

    base = f"api/{VERSION}"
    out = {f"{base}/cards.json": _dump(cards_payload(data, newest_mig(data, export)))}
    for cid in data["cards"]:
        out[f"{base}/cards/{cid}.json"] = _dump(card_json(data, cid))
    answers = {"data_version": export["data_version"], "verified": export["verified"], "hash": hash_,
               "answers": export["answers"]}
    out[f"{base}/answers.json"] = _dump(answers, compact=True)
    index = {
        "api": VERSION,
        "data_version": data["data_version"],
        "verified": data["verified"],
        "hash": hash_,
        "files": {
            "cards": {"url": "cards.json", "same_as": "gpukb cards --json", "count": len(data["cards"])},
            "card": {"url": "cards/{id}.json", "same_as": "gpukb card ID --json", "ids": list(data["cards"])},
            "answers": {"url": "answers.json", "same_as": "gpukb export answers --json",
                        "count": len(export["answers"])},
        },
    }
    out[f"{base}/index.json"] = _dump(index)
    return out


def names(data: dict) -> list[str]:
    """The files `files` writes, in its order."""
    base = f"api/{VERSION}"
    return [f"{base}/cards.json", *(f"{base}/cards/{cid}.json" for cid in data["cards"]), f"{base}/answers.json",
            f"{base}/index.json"]


def api_page(ctx) -> str:
    """The page that documents the API (Reference section), in the page's language."""
    from kb.site.md import code, table

    d = ctx.data
    rows = [
        [code(f"api/{VERSION}/index.json"), Text("What there is: data version, verified date, the files", "Was es gibt: Datenversion, Prüfdatum, die Dateien")(ctx.lang), "—"],
        [code(f"api/{VERSION}/cards.json"), Text("Every card with its MIG verdict and support-list entry", "Alle Karten mit MIG-Urteil und Eintrag in der Supportliste")(ctx.lang), code("gpukb cards --json")],
        [code(f"api/{VERSION}/cards/<id>.json"), Text("One card with every fact and its sources", "Eine Karte mit jeder Angabe und ihren Quellen")(ctx.lang), code("gpukb card <id> --json")],
        [code(f"api/{VERSION}/answers.json"), Text("Every answer of ours: card × release × question", "Jede unserer Antworten: Karte × Release × Frage")(ctx.lang), code("gpukb export answers --json")],
    ]
    out = [ctx.front(Text("The data of this site as JSON for tools: cards, facts with sources, our answers.", "Die Daten dieser Seite als JSON für Werkzeuge: Karten, Angaben mit Quellen, unsere Antworten.")(ctx.lang)),
           f"# {Text('Data as JSON', 'Daten als JSON')(ctx.lang)}", "", ctx.header([], ("kb/cli/",)), "",
           Text(f"The same data as these pages, as static JSON files under {code(f'api/{VERSION}/')}, data version "
                 f"{d['data_version']}. Each file equals the JSON output of the command-line tool at the same data "
                 "version; an answer names its reasons, rules and sources.", f"Dieselben Daten wie auf diesen Seiten, als statische JSON-Dateien unter {code(f'api/{VERSION}/')}, "
                 f"Datenversion {d['data_version']}. Jede Datei ist gleich der JSON-Ausgabe des Kommandozeilenwerkzeugs "
                 "in derselben Datenversion; eine Antwort nennt ihre Gründe, Regeln und Quellen.")(ctx.lang), "",
           table([Text("File", "Datei")(ctx.lang), Text("Content", "Inhalt")(ctx.lang), Text("Same as the output of", "Gleich der Ausgabe von")(ctx.lang)], rows), "",
           Text("A new data version replaces the files; what changed is on the page [What changed](changes.md). "
                 f"The fields change only with a new version of the interface (a new path instead of {code(VERSION)}).", "Eine neue Datenversion ersetzt die Dateien; was sich geändert hat, steht auf der Seite "
                 "[Was sich geändert hat](changes.md). Die Felder ändern sich nur mit einer neuen Version der "
                 f"Schnittstelle (ein neuer Pfad statt {code(VERSION)}).")(ctx.lang), ""]
    return "\n".join(out).rstrip("\n") + "\n"
