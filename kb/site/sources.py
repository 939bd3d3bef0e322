"""The sources page: every cited document with its own date and the date it was last checked."""

from __future__ import annotations

from kb.site.labels import date
from kb.site.md import esc, link, table
from kb.site.page import Ctx

KIND = {
    "docs": ("Dokumentation", "documentation"), "release-notes": ("Release Notes", "release notes"),
    "readme": ("README", "README"), "changelog": ("Changelog", "changelog"),
    "config": ("Konfigurationsdatei", "configuration file"), "datasheet": ("Datenblatt", "datasheet"),
    "article": ("Artikel", "article"),
}


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
    counts = count_citations(ctx.data)
    rows = []
    for sid, src in ctx.data["sources"].items():
        kind = KIND[src["kind"]][0 if ctx.lang == "de" else 1]
        doc_date = date(src["document_date"], ctx.lang) if src.get("document_date") else "—"
        note = ctx.pick(src.get("note"))
        rows.append([link(esc(src["title"]), src["url"]) + f"<br>`{sid}`", esc(src["publisher"]), kind,
                     src["language"], doc_date, date(src["retrieved"], ctx.lang),
                     ctx.t("ja", "yes") if src.get("watch") else ctx.t("nein", "no"), str(counts[sid]), note])
    headers = [ctx.t("Dokument", "Document"), ctx.t("Herausgeber", "Publisher"), ctx.t("Art", "Kind"),
               ctx.t("Sprache", "Language"), ctx.t("Stand des Dokuments", "Document date"),
               ctx.t("Zuletzt geprüft", "Last checked"), ctx.t("Auf Änderungen beobachtet", "Watched for changes"),
               ctx.t("Zitate im Katalog", "Citations in the catalog"), ctx.t("Hinweis", "Note")]
    intro = ctx.t("Jede Aussage dieser Wissensdatenbank belegt ein Zitat aus einem dieser Dokumente. "
                  "„Zuletzt geprüft“ ist der Tag, an dem wir das Dokument zuletzt gelesen haben.",
                  "Every statement of this knowledge base is backed by a quote from one of these documents. "
                  "“Last checked” is the day we last read the document.")
    out = [f"# {ctx.t('Quellen', 'Sources')}", "", ctx.header(["sources.yaml"]), "", intro, "", table(headers, rows)]
    return "\n".join(out) + ctx.footer()
