"""The house style, checked in Python (Vale cannot be installed everywhere; styles/ keeps its config for CI that
has it). One place for the words and marks a customer must not see and for the typography of each language,
used by the lint checks `jargon` and `style` (every en/de text of the catalog and the rules), by the site's hook
(narrow no-break spaces) and by the tests that read every built page and the CLI's text output.

What it covers (docs-dev/glossary.md lists the terms):
- `internal_words(text)`: how we work, which a customer never reads — "seed", "snapshot", "local copy"/"lokale
  Kopie", "catalog"/"Katalog" as our data store, rule-engine words ("fires"/"feuert"), our YAML field names
  (`operator_support`, `min_vbios`, …), catalog ids (`rtx-pro-6000-blackwell-server`, source ids), CLI flags and
  the placeholder domain.
- `style_problems(text, lang)`: German written as German — „…“ not "…" or “…”, Sie-form (no du/dein), terms of the
  glossary ("RTX PRO", "greift", "trägt das Label", "Von uns geliefert", …), dates written out (no ISO dates in
  prose), the en dash „ – “ (not " — "), a narrow no-break space between a number and its unit in running text;
  English with “…”, not "…"; in both, a quote inside a quote in the secondary marks (‚…‘ / ‘…’, `nested_quotes`).

Standard library only.
"""

from __future__ import annotations

import re

NNBSP = "\u202f"  # narrow no-break space: between a number and its unit

#: words that tell how we work, not what the customer needs (case-insensitive), with why
INTERNAL = (
    (re.compile(r"(?i)\bseeds?\b"), ("internal name of our article: say 'our article'", "interner Name unseres Artikels: „unser Artikel“")),
    (re.compile(r"(?i)\bsnapshots?\b"), ("how we keep documents: name the document's version or date", "wie wir Dokumente aufbewahren: Fassung oder Datum nennen")),
    (re.compile(r"(?i)\blocal (copy|snapshot|source)s?\b|\blokale[nrs]? (Kopie|Quelle|Fassung|Datei)|\bliegt nicht lokal"),
     ("how we keep documents: say which documents we cite", "wie wir Dokumente aufbewahren: die zitierten Dokumente nennen")),
    (re.compile(r"\b(catalog|Katalog)(?!ue)\b"), ("our data store: say 'we' or name the document", "unser Datenbestand: „wir“ schreiben oder das Dokument nennen")),
    (re.compile(r"(?i)\b(fires?|fired|feuer[nt]|gefeuert)\b(?!\.ya?ml)"), ("rule-engine word: 'applies'", "Wort der Regel-Engine: „greift“")),
    (re.compile(r"(?i)\bRegel-?Engine\b|\brules?[- ]engine\b"), ("how we derive answers: say 'our answer'", "wie wir Antworten ableiten: „unsere Antwort“")),
    (re.compile(r"eurokommerz\.example|\.example/"), ("placeholder address", "Platzhalter-Adresse")),
    (re.compile(r"(?<![\w/-])--[a-z][a-z0-9-]+"), ("CLI flag: only the CLI reference names flags", "Option der Kommandozeile: nur die CLI-Referenz nennt Optionen")),
)

#: field names of our catalog models that mean nothing to a customer (a dotted path starting with one, too)
FIELD_NAMES = ("operator_support", "min_vbios", "min_driver", "max_instances", "smallest_profile", "prerequisites_published",
               "display_mode_switch", "written_confirmation", "driver_exceptions", "kubevirt_vgpu", "kubevirt_vgpu_since", "listed_as",
               "disputed_by", "config_keys", "suited_for", "neighbour_risk", "plain_product", "excludes_mig",
               "requires_mig", "memory_gb", "form_factor", "known_issues", "affected_versions", "fixed_in",
               "min_kubernetes", "min_operator", "standalone_requirements", "pci_device_ids", "document_date",
               "data_version", "multi_page")
_FIELD = re.compile(r"\b(" + "|".join(FIELD_NAMES) + r")\b")
_OUR_PATH = re.compile(r"\b(mig|vendor|operator_support|isolation)\.(status|prerequisites|ships|methods|listed|memory|fault|compute)\b")


#: per pattern of INTERNAL, then _FIELD and _OUR_PATH: (text any match holds at least one of — in the text as it is,
#: text any match holds at least one of — in the text lowercased); a pattern is tried only where one is there
_NEEDED = (
    ((), ("seed",)), ((), ("snapshot",)), ((), ("local ", "lokal")), (("atalog",), ()), ((), ("fire", "feuer")),
    ((), ("engine",)), ((".example",), ()), (("--",), ()), (("_",), ()),
    (("mig.", "vendor.", "operator_support.", "isolation."), ()),
)
#: characters (?i) matches to an ASCII letter that str.lower() does not turn into it (dotless ı, İ, long ſ)
_FOLDS_APART = ("\u0131", "\u0130", "\u017f")


def internal_words(text: str, ids: tuple[str, ...] = ()) -> list[tuple[str, tuple[str, str]]]:
    """(word, (why in English, why in German)) for every internal word in `text`; `ids` are the catalog's ids (cards, sources) that must not
    appear as words.

    Each pattern is tried only where the text holds a piece every match of it holds (_NEEDED; the case-insensitive
    ones in the lowercased text, all of them where a character lowercases apart from what (?i) matches it to): the
    same matches — a customer page holds none of most, and each pattern tried at every position of 2.9 MB of site
    text cost ~1 s."""
    lower = None if any(c in text for c in _FOLDS_APART) else text.lower()

    def maybe(index: int) -> bool:
        plain, folded = _NEEDED[index]
        return (any(n in text for n in plain) or lower is None or any(n in lower for n in folded)) if folded else \
            any(n in text for n in plain)

    found = [(m.group(0), why) for i, (pattern, why) in enumerate(INTERNAL) if maybe(i) for m in pattern.finditer(text)]
    if maybe(len(INTERNAL)):
        found += [(m.group(0), ("field name of our data", "Feldname unserer Daten")) for m in _FIELD.finditer(text)]
    if maybe(len(INTERNAL) + 1):
        found += [(m.group(0), ("field path of our data", "Feldpfad unserer Daten")) for m in _OUR_PATH.finditer(text)]
    present = tuple(i for i in ids if i in text)  # an id the text does not hold cannot match: the same matches
    if present:
        id_pattern = _ids_pattern(present)
        found += [(m.group(0), ("catalog id: use the product's or document's name", "Katalog-Id: den Namen des Produkts oder Dokuments nennen")) for m in id_pattern.finditer(text)]
    return found


_ID_CACHE: dict = {}


def _ids_pattern(ids: tuple[str, ...]) -> re.Pattern:
    """The pattern of `ids` as words, the longest first. `internal_words` builds it of the ids its text holds (a
    substring search each: the pattern tried at every position of 2.9 MB of site text cost 0.4 s, the searches
    0.08 s); leaving out alternatives that occur nowhere in the text changes no match, and those left keep their order."""
    key = tuple(sorted(ids))
    if key not in _ID_CACHE:
        if len(_ID_CACHE) >= 256:
            _ID_CACHE.clear()
        alternatives = "|".join(re.escape(i) for i in sorted(key, key=len, reverse=True))
        _ID_CACHE[key] = re.compile(rf"(?<![\w./-])({alternatives})(?![\w-]|\.(yaml|html|md))")
    return _ID_CACHE[key]


def catalog_ids(data: dict) -> tuple[str, ...]:
    """The ids a customer must not read: cards and sources with a hyphen (single words such as 'l4' are names)."""
    return tuple(i for kind in ("cards", "sources") for i in data.get(kind, {}) if "-" in i)


#: terms of the glossary (docs-dev/glossary.md): (pattern, language or None for both, the term to use)
AVOIDED = (
    (re.compile(r"\bRTX Pro\b"), None, "RTX PRO"),
    (re.compile(r"\bLieferbar\b|\blieferbar\b"), "de", "Von uns geliefert / wir liefern"),
    (re.compile(r"\bgelabelt\b"), "de", "trägt das Label"),
    (re.compile(r"\bWissensbasis\b"), "de", "Wissensdatenbank"),
    (re.compile(r"\bMIG-Leitfaden\b|\bMIG-Leitfadens\b"), "de", "MIG-Benutzerhandbuch (NVIDIA's; 'Leitfaden' is our own text)"),
    (re.compile(r"\bKnoten\b"), "de", "Node"),
    (re.compile(r"\bDevice Plugin\b|\bDeviceplugin\b"), "de", "Device-Plugin"),
    (re.compile(r"\bTimeslicing\b|\bTime Slicing\b|\bZeitscheiben"), "de", "Time-Slicing"),
    (re.compile(r"\b(du|dein|deine|deinen|dir|dich)\b"), "de", "Sie-form"),
    (re.compile(r"\bsind erfüllt\b"), "de", "a condition: 'Nur, wenn …'"),
)

_STRAIGHT = re.compile(r'"[^"\n]{1,200}"')
_EN_QUOTES_IN_DE = re.compile(r"“[^”„\n]{1,200}”")
_ISO_DATE = re.compile(r"(?<![\w.-])(19|20)\d\d-[01]\d-[0-3]\d(?![\w-])")
#: a number not glued to a word, a version or a sign, a plain space, a unit; the look-behind comes after the first
#: digit (the same condition on the character before it) so that the search jumps from digit to digit
_UNIT = re.compile(r"(\d(?<![\w.+-]\d)\d*(?:[.,]\d+)?) (GB|MB|GiB|MiB|TB|KB|W|GHz|MHz)\b")


_EN_DATE_IN_DE = re.compile(r"\b\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|"
                            r"December) (19|20)\d\d\b")
_EM_DASH_DE = re.compile(r"\S{1,20} \u2014 \S{1,20}")
#: the primary quotation marks of each language: (opening, closing)
_PRIMARY = {"de": ("„", "“"), "en": ("“", "”")}
#: the characters nested_quotes reads (by "is German"): its language's marks, „ (opens in either) and the line end
_MARKS = {True: re.compile("[„“\n]"), False: re.compile("[“”„\n]")}


def nested_quotes(text: str, lang: str) -> list[str]:
    """Excerpts where a quote opens inside a quote with the primary marks („…„…“…“, “…“…”…”): the inner one takes
    ‚…‘ / ‘…’ (kb.wording.quoted does it)."""
    opening, closing = _PRIMARY["de" if lang == "de" else "en"]
    depth, out = 0, []
    for m in _MARKS[lang == "de"].finditer(text):  # only the characters that count, found in C
        i, ch = m.start(), m.group()
        if ch == opening or (ch == "„" and lang != "de"):
            if depth:
                out.append(text[max(0, i - 30):i + 30])
            depth += 1
        elif ch == closing and depth:
            depth -= 1
        elif ch == "\n":
            depth = 0  # a quote never spans lines in our output; an unclosed one must not poison the rest
    return out


def style_problems(text: str, lang: str, *, prose: bool = True) -> list[tuple[str, str]]:
    """(excerpt, the rule) for every break of the house style in `text` written in `lang`. `prose` False for text
    where a regular space before a unit is no problem (plain terminal output)."""
    out: list[tuple[str, str]] = []
    for pattern, only, use in AVOIDED:
        if only in (None, lang):
            out += [(m.group(0), f"glossary: {use}") for m in pattern.finditer(text)]
    out += [(m.group(0), "straight quotes: „…“ / “…”") for m in _STRAIGHT.finditer(text)]
    if lang == "de":
        out += [(m.group(0), "English quotes in German: „…“") for m in _EN_QUOTES_IN_DE.finditer(text)]
        out += [(m.group(0), "German dash: „ – “ (en dash with spaces), not an em dash") for m in _EM_DASH_DE.finditer(text)]
        out += [(m.group(0), "date in German: 21. September 2026") for m in _EN_DATE_IN_DE.finditer(text)]
    out += [(x, "quote inside a quote: ‚…‘ (German) / ‘…’ (English)") for x in nested_quotes(text, lang)]
    out += [(m.group(0), "ISO date in prose: 21. September 2026 / 21 September 2026") for m in _ISO_DATE.finditer(text)]
    if prose:
        out += [(m.group(0), "number and unit: narrow no-break space (U+202F)") for m in _UNIT.finditer(text)]
    return out


def unit_matches(text: str) -> list:
    """Every number followed by a unit with a plain space ('24 GB'), as regular-expression matches."""
    return list(_UNIT.finditer(text))


def tighten_units(text: str) -> str:
    """A narrow no-break space between a number and its unit ('24 GB' → '24\u202fGB'): they never part at a
    line break, and the gap is the typographer's."""
    return _UNIT.sub(lambda m: f"{m.group(1)}{NNBSP}{m.group(2)}", text)
