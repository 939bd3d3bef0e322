"""Fixed wording of the generated pages, German and English."""

from __future__ import annotations

import datetime as dt
import re

LABELS: dict[str, tuple[str, str]] = {  # key: (de, en)
    "data": ("Datenstand", "Data"),
    "data_version": ("Datenversion", "data version"),
    "verified": ("geprüft am", "verified as of"),
    "yaml": ("Daten und Korrekturen", "Data and corrections"),
    "catalog": ("Katalog", "Catalog"),
    "retrieved": ("abgerufen", "retrieved"),
    "doc_date": ("Stand des Dokuments", "document date"),
    "disputed": ("Abweichende Angabe", "Other source says"),
    "yes": ("ja", "yes"),
    "no": ("nein", "no"),
    "none": ("—", "—"),
    "card": ("Karte", "Card"),
}

VALUE_LABELS: dict[str, tuple[str, str]] = {
    # isolation
    "full": ("vollständig", "full"),
    "partial": ("teilweise", "partial"),
    "none": ("keine", "none"),
    # mig status
    "documented": ("dokumentiert", "documented"),
    "datasheet-only": ("nur im Datenblatt", "datasheet only"),
    "announced": ("angekündigt", "announced"),
    "not-listed": ("nicht gelistet", "not listed"),
    # availability
    "available": ("lieferbar", "available"),
    # form factor
    "pcie-server": ("PCIe, Server", "PCIe, server"),
    "pcie-workstation": ("PCIe, Workstation", "PCIe, workstation"),
    "pcie-workstation-max-q": ("PCIe, Workstation Max-Q", "PCIe, workstation Max-Q"),
    "sxm": ("SXM", "SXM"),
    "other": ("andere", "other"),
    # maturity
    "ga": ("allgemein verfügbar (GA)", "generally available (GA)"),
    "beta": ("Beta", "beta"),
    "alpha": ("Alpha", "alpha"),
    "experimental": ("experimentell", "experimental"),
    # workloads
    "training": ("Training", "training"),
    "large-model": ("große Modelle", "large models"),
    "small-inference": ("kleine Inferenzdienste", "small inference services"),
    "dev": ("Entwicklung und Notebooks", "development and notebooks"),
    "multi-tenant": ("mehrere Teams oder Mandanten", "several teams or tenants"),
}


def L(key: str, lang: str) -> str:
    """A fixed label; an unknown key is a programming error."""
    de, en = LABELS[key]
    return de if lang == "de" else en


def value_label(value: object, lang: str) -> str:
    """A catalog value in words: booleans as ja/nein, known enum values translated, others as they are."""
    if value is True:
        return L("yes", lang)
    if value is False:
        return L("no", lang)
    if value is None:
        return L("none", lang)
    if isinstance(value, dict) and set(value) == {"en", "de"}:
        return value[lang]
    if isinstance(value, str) and value in VALUE_LABELS:
        de, en = VALUE_LABELS[value]
        return de if lang == "de" else en
    if isinstance(value, str) and lang == "de" and _ISO_DATE.fullmatch(value):
        return date(value, lang)
    return str(value)

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def date(iso: str, lang: str) -> str:
    """2026-09-11 → 11.09.2026 in German, unchanged in English."""
    if lang != "de":
        return iso
    return dt.date.fromisoformat(iso).strftime("%d.%m.%Y")
