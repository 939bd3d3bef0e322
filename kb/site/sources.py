"""The sources page: every cited document with its own date and the date it was last checked."""

from __future__ import annotations

from kb.questions import words
from kb.site.labels import date, value_label
from kb.publication import source_url
from kb.site.md import esc, link_or_text, table
from kb.site.page import Ctx
from kb.wording import title_text
from kb.text import Text

def count_citations(data: dict) -> dict[str, int]:
    """How often each source is cited anywhere in cards, releases and methods."""
    counts = {sid: 0 for sid in data["sources"]}

    def walk(node):
        if isinstance(node, dict):
            for cite in node.get("cite", []) if isinstance(node.get("cite"), list) else []:
                counts[cite["source"]] = counts.get(cite["source"], 0) + 1
            for key, value in node.items():
                if key != "cite":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for kind in ("cards", "releases", "methods"):
        walk(data[kind])
    return counts


def sources_page(ctx: Ctx) -> str:
    """One row per document: title (linked), publisher, kind, language and id; its date, the day we last
    read it, whether the drift check watches it, how often the catalog cites it. Notes are numbered below."""
    counts = count_citations(ctx.data)
    rows, notes = [], []
    for sid, src in ctx.data["sources"].items():
        kind = words.SOURCE_KIND[src["kind"]][ctx.lang]
        doc_date = date(src["document_date"], ctx.lang) if src.get("document_date") else "—"
        doc = link_or_text(esc(title_text(src["title"], ctx.lang)), source_url(src))
        if src.get("note"):
            notes.append(f"{len(notes) + 1}. {esc(title_text(src['title'], ctx.lang))}: {ctx.pick(src['note'])}")
            doc += f" <sup>{len(notes)}</sup>"
        doc += f"<br>{esc(src['publisher'])} · {kind} · {esc(src['language'])}"
        rows.append([doc, doc_date, date(src["retrieved"], ctx.lang),
                     value_label(bool(src.get("watch")), ctx.lang), str(counts[sid])])
    headers = [Text("Document", "Dokument")(ctx.lang), Text("Document date", "Stand des Dokuments")(ctx.lang),
               Text("Last checked", "Zuletzt geprüft")(ctx.lang), Text("Watched", "Beobachtet")(ctx.lang),
               Text("Citations", "Zitate")(ctx.lang)]
    intro = Text("Every statement of this knowledge base is backed by a quote from one of these documents. "
                  "“Last checked” is the day we last read the document; “watched” means we check it for "
                  "changes regularly; “citations” counts how often we cite it.", "Jede Aussage dieser Wissensdatenbank belegt ein Zitat aus einem dieser Dokumente. "
                  "„Zuletzt geprüft“ ist der Tag, an dem wir das Dokument zuletzt gelesen haben; „Beobachtet“ "
                  "heißt, dass wir es regelmäßig auf Änderungen prüfen; „Zitate“ zählt, wie oft wir es zitieren.")(ctx.lang)
    out = [f"# {Text('Sources', 'Quellen')(ctx.lang)}", "", ctx.header(["sources.yaml"]), "", intro, "", table(headers, rows)]
    if notes:
        out += ["", f"## {Text('Notes', 'Hinweise')(ctx.lang)}", "", *notes]
    return "\n".join(out) + ctx.footer()
