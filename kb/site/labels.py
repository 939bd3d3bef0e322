"""Fixed wording of the generated pages, German and English; catalog values in words (kb.questions.words)."""

from __future__ import annotations

import re

from kb.questions import words
from kb.text import Text
from kb.wording import date_text

LABELS: dict[str, Text] = {
    "data_version": Text("Data version", "Datenversion"),
    "verified": Text("verified as of", "geprüft am"),
    "yaml": Text("Data and corrections", "Daten und Korrekturen"),
    "catalog": Text("Catalog", "Katalog"),
    "retrieved": Text("retrieved", "abgerufen"),
    "doc_date": Text("document date", "Stand des Dokuments"),
    "disputed": Text("Other source says", "Abweichende Angabe"),
    "inferred": Text("inferred, not quoted", "abgeleitet, nicht zitiert"),
}


def L(key: str, lang: str) -> str:
    """A fixed label; an unknown key is a programming error."""
    return LABELS[key](lang)


def value_label(value: object, lang: str) -> str:
    """A catalog value in words (kb.questions.words): booleans as ja/nein, known enum values translated, dates
    in German form, None as a dash, others as they are."""
    if value is None:
        return "—"
    if isinstance(value, dict) and set(value) == {"en", "de"}:
        return value[lang]
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        return date(value, lang)
    return words.word(words.TRUTH if isinstance(value, bool) else words.VALUES, value, lang)


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def date(iso: str, lang: str) -> str:
    """2026-09-11 → '11. September 2026' in German, '11 September 2026' in English (kb.wording.date_text)."""
    return date_text(iso, lang)
