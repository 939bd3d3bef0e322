"""The drift report: JSON (for machines) and Markdown fit for an issue or pull-request body (en or de).

Who reads which part (decided for issue 16): the report is an issue of our own repository that asks a maintainer
to review NVIDIA's changed documents against our data; support engineers read it too, to learn which answers
change. So it has two parts:

- **the reader's part** follows the customer voice (docs-dev/glossary.md): no "catalog", "seed", "snapshot", ids
  or field paths; German throughout with `--lang de` — the title, the summary line, the section headings and their
  notes, the "no drift" line, the document's title in each source heading, the answers that change (the question
  in words, the card by name, the verdicts in words, the answer's summary), the cut note, and the wording of each
  finding sentence: it speaks of "our data" / „unsere Daten“ (never the catalog) and names no fact path;
- **the maintainer's part** is their working vocabulary and stands in code formatting or after a label of its
  own: source ids (the source heading), the file or address read, each finding's reference part — the indented,
  code-formatted lines under it: "touches" (fact paths) and "read by the rules" (rule ids) —, the tools' own error
  messages (English as the tools write them; in a German report inside a German sentence) and the footer naming
  the command.
tests/test_voice_cli.py checks the reader's part of a real report in both languages, that report's finding
sentences, and every sentence text the comparisons can write. Not yet done (docs-dev/glossary.md, "Not yet
covered"): method/component/capability ids and a quote finding's fact path still stand inline in some
finding sentences.

Findings are ranked: "Facts changed" (fail the run), "Quotes reworded" (the new wording offered as the
catalog patch; do not fail the run), "Could not be checked" (a whole source, or a part of one). Text that
comes from upstream documents is neutralised before it goes into Markdown: control characters (a
terminal escape sequence) become visible `\\x1b`-style escapes, `@mentions` cannot notify anyone and
Markdown markup shows as written.
"""

from __future__ import annotations

import hashlib
import json
import re

from kb.drift.check import STATUSES, SourceResult, could_not_check
from kb.text import Text
from kb.wording import dash

LABELS = {
    "title": Text("Documentation drift", "Abweichungen in der Dokumentation"),
    "summary": Text("Sources: {drift} changed ({facts} {facts_en}), {reworded} reworded only, {failed} not fully checked, "
                    "{ok} unchanged — data version {version}",
                    "Quellen: {drift} geändert ({facts} {facts_de}), {reworded} nur umformuliert, {failed} nicht "
                    "vollständig prüfbar, {ok} unverändert – Datenversion {version}"),
    "changes": Text("Facts changed", "Geänderte Fakten"),
    "reworded": Text("Quotes reworded", "Umformulierte Zitate"),
    "reworded_note": Text("The facts still hold; our quotes should take the new wording (the JSON report carries "
                          "the change). These do not fail the check.",
                          "Die Fakten gelten weiter; unsere Zitate sollten die neue Formulierung übernehmen (der "
                          "JSON-Bericht enthält die Änderung). Sie lassen die Prüfung nicht fehlschlagen."),
    "noted": Text("Noted", "Zur Kenntnis"),
    "failed": Text("Could not be checked", "Nicht prüfbar"),
    "failed_note": Text("These sources, or parts of them, are neither drift nor unchanged: nothing is known about "
                        "them until they can be read again. The rest of each document was compared.",
                        "Diese Quellen oder Teile davon gelten weder als geändert noch als unverändert: Über sie ist "
                        "nichts bekannt, bis sie wieder lesbar sind. Der Rest jedes Dokuments wurde verglichen."),
    "part_line": Text("- **{title}** ({source}), part “{part}”: {error}",
                      "- **{title}** ({source}), Teil „{part}“; die Meldung lautet: „{error}“"),
    "unchanged": Text("Unchanged", "Unverändert"),
    "read": Text("read", "gelesen"),
    "tool_said": Text("{status}: {error}", "{status}; die Meldung lautet: „{error}“"),
    "touches": Text("touches", "betrifft"),
    "read_by": Text("read by the rules", "gelesen von den Regeln"),
    "no_answer": Text("no answer changes", "keine Antwort ändert sich"),
    "would_change": Text("answers that would change", "Antworten, die sich ändern würden"),
    "relying": Text("answers citing this quote (review)", "Antworten, die dieses Zitat belegen (prüfen)"),
    "answers_error": Text("The answers these changes touch could not be computed",
                          "Die betroffenen Antworten ließen sich nicht berechnen"),
    "none": Text("No drift: every watched document still says what we cite.",
                 "Keine Abweichung: Jedes beobachtete Dokument sagt weiter, was wir zitieren."),
    "footer": Text("Generated by `gpukb sources check`; our data are updated by hand after review.",
                   "Erzeugt von `gpukb sources check`; unsere Daten werden nach Prüfung von Hand angepasst."),
    "cut": Text("… cut here: the report has {n} more characters; the whole report is in the JSON and Markdown "
                "files of the run.",
                "… hier gekürzt: Der Bericht hat {n} weitere Zeichen; der ganze Bericht steht in den JSON- und "
                "Markdown-Dateien des Laufs."),
    "more": Text("… and {n} more", "… und {n} weitere"),
    "cards": Text("cards", "Karten"),
}

#: a source's status in words (JSON keeps the status id)
STATUS = {"ok": Text("ok", "unverändert"), "reworded": Text("reworded", "umformuliert"),
          "drift": Text("drift", "abweichend"), "unreachable": Text("unreachable", "nicht erreichbar"),
          "unparseable": Text("unparseable", "nicht lesbar"), "error": Text("internal error", "interner Fehler")}


def status_word(status: str, lang: str) -> str:
    return STATUS[status](lang)


def summary(results: list[SourceResult]) -> dict:
    counts = {s: 0 for s in STATUSES}
    for r in results:
        counts[r.status] += 1
    changes = [c for r in results for c in r.changes]
    return {"sources": len(results), **counts,
            "could_not_check": sum(could_not_check(r) for r in results),
            "facts_changed": sum(c.rank == "fact" for c in changes),
            "quotes_reworded": sum(c.rank == "reworded" for c in changes),
            "notes": sum(c.rank == "note" for c in changes)}


def fingerprint(results: list[SourceResult]) -> str:
    """A hash of the SET of findings (each: source, kind, rank, facts touched, its English sentence) and of what
    could not be checked — not their order, timings, origins or the answers. Equal fingerprints on two days
    mean nothing new happened (a new wording of gpukb's own sentences counts as new, once)."""
    items = []
    for r in results:
        if r.status in ("unreachable", "unparseable", "error"):
            items.append([r.source, r.status])
        items += [[r.source, "unchecked", Text.of(p["part"]).en] for p in r.unchecked]
        items += [[r.source, c.kind, c.rank, sorted(c.touches), Text.of(c.text).en] for c in r.changes]
    blob = json.dumps(sorted(items, key=json.dumps), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def as_json(results: list[SourceResult], data: dict, *, extracted: bool = False) -> dict:
    """The whole run as plain data; `extracted` keeps what each extractor read (large)."""
    sources = []
    for r in results:
        item = r.as_dict()
        if not extracted:
            item.pop("extracted")
        sources.append(item)
    return {"data_version": data["data_version"], "summary": summary(results), "fingerprint": fingerprint(results),
            "sources": sources}


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_MENTION = re.compile(r"@(?=[A-Za-z0-9])")  # any @name: a mention after any character is still risky


def neutral(text: str) -> str:
    """Control characters (ESC, BEL, C1, bidi overrides) as visible escapes; tabs and newlines kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)


def escape(text: str) -> str:
    """Markdown-safe and inert: quotes such as "<node-name>-mig-config" or "*.yaml" show as written, control
    characters as escapes, "@team" cannot mention anyone (a zero-width joiner after the @), newlines as
    spaces (one finding, one line)."""
    text = neutral(text).replace("\r", " ").replace("\n", " ")
    text = re.sub(r"([\\`*_\[\]<>|#~])", r"\\\1", text)
    return _MENTION.sub("@\u200d", text)


def code(text: str) -> str:
    """Inline code that cannot be broken out of (backticks in the text are dropped)."""
    return f"`{neutral(text).replace('`', '')}`"


def _inputs(inputs: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in inputs.items() if v is not None)


#: answers listed one by one per change; the rest is counted (the JSON keeps them all)
SHOWN = 10


def answer_label(answer: dict, lang: str, names: dict | None = None) -> str:
    """'MIG (card H200 NVL, GPU Operator 26.7.0)': the question's title and its inputs in words, the card by its
    name (`names`: card id → short name; the id where a card is not named)."""
    from kb.answer import _empty, _input, _title

    inputs = ", ".join(_input(k, v, lang, names) for k, v in answer["inputs"].items()
                       if v is not None and v is not False and not _empty(v))
    return _title(answer["question"])(lang) + (f" ({inputs})" if inputs else "")


def answer_lines(answers: list[dict], lang: str, *, markdown: bool = False, names: dict | None = None) -> list[str]:
    """Changed answers one per line (the first SHOWN); answers that only cite a gone quote, counted per
    question with the cards they are about. Questions, inputs and verdicts in words of `lang`, cards by name."""
    bold = (lambda s: f"**{s}**") if markdown else (lambda s: s)  # noqa: E731
    text = escape if markdown else neutral
    names = names or {}
    changed = [a for a in answers if "after" in a]
    out = [f"{text(answer_label(a, lang, names))}: {bold(verdict_text(a, lang))} {dash(lang)} "
           f"{text(Text.of(a['summary'])(lang))}" for a in changed[:SHOWN]]
    if len(changed) > SHOWN:
        out.append(LABELS["more"].format(n=len(changed) - SHOWN)(lang))
    relying: dict[str, list[dict]] = {}
    for a in answers:
        if "after" not in a:
            relying.setdefault(a["question"], []).append(a)
    for question, items in relying.items():
        from kb.answer import _title

        cards = sorted({names.get(c, c) for a in items if (c := a["inputs"].get("card"))})
        shown = ", ".join(cards[:6]) + (" …" if len(cards) > 6 else "")
        out.append(f"{text(_title(question)(lang))} ×{len(items)}"
                   + (f" ({LABELS['cards'](lang)}: {text(shown)})" if cards else ""))
    return out


def verdict_text(answer: dict, lang: str = "en") -> str:
    """'conditional → no (+MIG-007)', 'yes → yes; vgpu: conditional → unconfirmed (+METHODS-043, …)' (a
    method's verdict changed), or the current verdict of an answer that relies on a quote; verdicts and
    methods in words of `lang`."""
    from kb.questions.words import METHOD, VERDICT, word

    v = lambda x: word(VERDICT, x, lang)  # noqa: E731
    if "after" not in answer:
        return v(answer["before"])
    rules = [f"+{r}" for r in answer["rules_added"]] + [f"−{r}" for r in answer["rules_removed"]]
    methods = "".join(f"; {word(METHOD, m, lang)}: {v(a)} → {v(b)}"
                      for m, (a, b) in answer.get("methods_changed", {}).items())
    return f"{v(answer['before'])} → {v(answer['after'])}{methods}" + (f" ({', '.join(rules)})" if rules else "")


def _change_lines(change, lang: str, names: dict) -> list[str]:
    lines = [f"- {escape(Text.of(change.text)(lang))}"]
    if change.touches:  # the fact paths: the finding's sentence names the card, method or component in words
        lines.append(f"  - {LABELS['touches'](lang)}: " + ", ".join(code(x) for x in change.touches))
    if change.read_by:
        rules = ", ".join(f"{code(r['rule'])} ({escape(r['question'])})" for r in change.read_by)
        lines.append(f"  - {LABELS['read_by'](lang)}: {rules}"
                     + ("" if change.answers or not change.patch else f" {dash(lang)} {LABELS['no_answer'](lang)}"))
    if change.answers:
        key = "would_change" if change.patch and change.rank == "fact" else "relying"
        lines.append(f"  - {LABELS[key](lang)}:")
        lines += [f"    - {line}" for line in answer_lines(change.answers, lang, markdown=True, names=names)]
    return lines


def markdown(results: list[SourceResult], data: dict, lang: str = "en", date: str | None = None,
             answers_error: str | None = None, limit: int | None = None) -> str:
    """The report; with `limit`, cut at a line boundary to at most `limit` characters (an issue body holds
    65,536), saying how much was cut."""
    counts = summary(results)
    names = {cid: card.get("short_name", cid) for cid, card in data.get("cards", {}).items()}
    failed = [r for r in results if could_not_check(r)]
    title = LABELS["title"](lang) + (f" {dash(lang)} {_date(date, lang)}" if date else "")
    lines = [f"# {title}", "",
             "**" + LABELS["summary"].format(facts=counts["facts_changed"], drift=counts["drift"],
                                             facts_en="fact" if counts["facts_changed"] == 1 else "facts",
                                             facts_de="Fakt" if counts["facts_changed"] == 1 else "Fakten",
                                             reworded=counts["reworded"], failed=len(failed),
                                             ok=counts["ok"], version=data["data_version"])(lang) + "**", ""]
    if not any(r.changes for r in results) and not failed:
        lines += [LABELS["none"](lang), ""]
    for rank, heading, note in (("fact", "changes", None), ("reworded", "reworded", "reworded_note"),
                                ("note", "noted", None)):
        hit = [r for r in results if any(c.rank == rank for c in r.changes)]
        if not hit:
            continue
        lines += [f"## {LABELS[heading](lang)}", ""]
        if note:
            lines += [LABELS[note](lang), ""]
        if answers_error and rank == "fact":
            said = LABELS["tool_said"].format(status=LABELS["answers_error"](lang), error=escape(answers_error))(lang)
            lines += [f"> {said}", ""]
        for r in hit:
            source = data["sources"].get(r.source, {})
            title = escape(source.get("title", "")) or escape(r.source)
            lines += [f"### {title} ({code(r.source)})", "",
                      f"{LABELS['read'](lang)}: {code(r.origin)}", ""]
            for c in r.changes:
                if c.rank == rank:
                    lines += _change_lines(c, lang, names)
            lines.append("")
    if failed:
        lines += [f"## {LABELS['failed'](lang)}", "", LABELS["failed_note"](lang), ""]
        for r in failed:
            if r.status in ("unreachable", "unparseable", "error"):
                said = LABELS["tool_said"].format(status=status_word(r.status, lang), error=escape(r.error or ""))(lang)
                title = escape(data["sources"].get(r.source, {}).get("title", "")) or escape(r.source)
                lines.append(f"- **{title}** ({code(r.source)}), {said}")
            for part in r.unchecked:
                lines.append(LABELS["part_line"].format(
                    title=escape(data["sources"].get(r.source, {}).get("title", "")) or escape(r.source),
                    source=code(r.source), part=escape(Text.of(part["part"])(lang)), error=escape(part["error"]))(lang))
        lines.append("")
    unchanged = [r.source for r in results if r.status == "ok" and not r.unchecked]
    if unchanged:
        lines += [f"## {LABELS['unchanged'](lang)}", "", ", ".join(code(s) for s in unchanged), ""]
    lines.append(f"_{LABELS['footer'](lang)}_")
    return cut("\n".join(lines) + "\n", limit, lang)


def _date(date: str, lang: str) -> str:
    """The run's date as each language writes it ('1. Dezember 2026'); a date that is not ISO stays as given."""
    from kb.wording import date_text

    try:
        return date_text(date, lang)
    except ValueError:
        return date


def cut(text: str, limit: int | None, lang: str = "en") -> str:
    """At most `limit` characters (not bytes: a multi-byte character is never split), cut after a whole line,
    with a closing line saying how much is missing."""
    if limit is None or len(text) <= limit:
        return text
    note_room = len(LABELS["cut"].format(n=len(text))(lang)) + 8
    head = text[:max(0, limit - note_room)]
    head = head[:head.rfind("\n") + 1] if "\n" in head else ""
    return head + "\n_" + LABELS["cut"].format(n=len(text) - len(head))(lang) + "_\n"
