"""How citations read to a customer, in one place for the site, the CLI and the checker's findings.

- **Which citations are shown** (`shown`): NVIDIA's (or any primary) document first; our own article only for our
  own statements (what we ship, what we recommend: `OWN_FACTS`) and where it is the only source of a fact — then
  marked as such (`only_source`), never silently standing in for NVIDIA.
- **How one reads** (`citation_text`): title, the place in the document in the reader's language (row, column,
  tab, note …: `section_text`), the quote in the language's quotation marks (a German quote on an English page
  with its English translation where the catalog gives one), and the dates written as each language writes them
  (`date_text`: "21. September 2026" / "21 September 2026").

Standard library only (the CLI's fast path renders answers with it).
"""

from __future__ import annotations

import datetime as dt
import functools
import re

#: facts that are our own statements (first path segments or whole paths): what we ship and recommend
OWN_FACTS = ("vendor", "availability", "suited_for", "mig.prerequisites.written_confirmation")

MONTHS = {
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
}

ONLY_SOURCE = {
    "de": "unser eigener Artikel; ein Dokument von NVIDIA dazu haben wir nicht gefunden",
    "en": "our own article; we found no document of NVIDIA's that says so",
}
OWN_WORDS = {"de": "unsere Aussage", "en": "our statement"}
#: how the English translation of a German quote is marked (English only: German readers read the original)
TRANSLATION = {"de": "Übersetzung", "en": "German original; our translation"}
DOC_DATE = {"de": "Stand", "en": "as of"}
RETRIEVED = {"de": "abgerufen am", "en": "retrieved"}
#: titles of the site's markup that Python-Markdown writes in English (set per page by kb/docs_hooks.py)
MARKUP_TITLES = {
    "de": {"backlink": "Zurück zur Fußnote {n} im Text", "permalink": "Link auf diesen Abschnitt",
           "scroll_cue": "Die Tabelle lässt sich seitlich verschieben."},
    "en": {"backlink": "Back to footnote {n} in the text", "permalink": "Link to this section",
           "scroll_cue": "The table scrolls sideways."},
}


def _lang(lang: str) -> str:
    return "de" if lang == "de" else "en"


def date_text(value: str | dt.date, lang: str) -> str:
    """2026-09-21 → '21. September 2026' (German) / '21 September 2026' (English). One format per language."""
    day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    month = MONTHS[_lang(lang)][day.month - 1]
    return f"{day.day}. {month} {day.year}" if lang == "de" else f"{day.day} {month} {day.year}"


#: a parenthetic dash: German „ – “ (en dash with spaces), English " — "
DASH = {"de": "\u2013", "en": "\u2014"}
#: quotation marks inside a quote become the language's secondary ones: „… ‚…‘ …“ / “… ‘…’ …”; a pair of either
#: language's primary marks is nested (our German article quotes NVIDIA in „…“, an English page quotes the article)
_INNER_PAIRS = (re.compile(r"„([^„“”]*)“"), re.compile(r"“([^„“”]*)”"))


def dash(lang: str) -> str:
    """The parenthetic dash of `lang`: '–' (German, with spaces around it) or '—' (English)."""
    return DASH[_lang(lang)]


_SECONDARY = {"de": ("\u201a", "\u2018"), "en": ("\u2018", "\u2019")}


def nested(text: str, lang: str) -> str:
    """`text` ready to stand inside quotation marks of `lang`: its own quoted parts in the secondary marks
    (‚…‘ German, ‘…’ English)."""
    if "„" not in text and "“" not in text:
        return text
    left, right = _SECONDARY[_lang(lang)]
    for pattern in _INNER_PAIRS:
        text = pattern.sub(lambda m: f"{left}{m.group(1)}{right}", text)
    return text


def quoted(text: str, lang: str) -> str:
    """Text in the quotation marks of `lang`: „…“ in German, “…” in English; quotes inside it in ‚…‘ / ‘…’."""
    text = nested(text, lang)
    return f"„{text}“" if lang == "de" else f"“{text}”"


# the words of a section reference ("Supported GPUs, row 'H200 NVL' (column Memory Size)") in German; compiled
# when first used (`gpukb ask --json` imports this module and never needs them)
_SECTION_WORDS = (
    (r"\brow\b", "Zeile"), (r"\brows\b", "Zeilen"), (r"\bcolumns?\b", "Spalte"), (r"\btab\b", "Reiter"),
    (r"\bcell\b", "Zelle"), (r"\bnote\b", "Hinweis"), (r"\bTable\b", "Tabelle"), (r"\btable\b", "Tabelle"),
    (r"\barchitecture\b", "Architektur"), (r"\bslices?\b", "Slices"), (r"\bline\b", "Zeile"),
    (r"\bfile\b", "Datei"), (r"\btag\b", "Tag"), (r"\bfootnote\b", "Fußnote"), (r"\bsection\b", "Abschnitt"),
    (r"\bheading\b", "Überschrift"), (r"\bexample\b", "Beispiel"),
)
# the notes a citation's place carries beyond the document's own headings ("line 97 (tag v0.20.0): the daemon refuses
# the configuration"), German first and longest first; the document's headings themselves stay as written
_PLACE_PHRASES = (
    (r"the first version of the page whose KubeVirt vGPU device list names it",
     "die erste Fassung der Seite, deren Liste der KubeVirt-vGPU-Geräte sie nennt"),
    (r"the first version of the page naming it", "die erste Fassung der Seite, die sie nennt"),
    (r"the documentation's GPU Operator version", "die GPU-Operator-Version der Dokumentation"),
    (r"release (\S+) was already out that day", r"Release \1 war an diesem Tag schon erschienen"),
    (r"the chart at the release tag", "das Chart beim Release-Tag"),
    (r"feature gate (\w+): stage (\w+), default (\w+)", r"Feature-Gate \1: Stufe \2, Voreinstellung \3"),
    (r"feature gate", "Feature-Gate"),
    (r"no device filter; its memory size is one of the memory sizes of the (\S+)'s all-balanced entry",
     r"ohne Gerätefilter; seine Speichergröße ist eine der Speichergrößen im all-balanced-Eintrag der \1"),
    (r"no device filter; block comment names (\S+)", r"ohne Gerätefilter; der Kommentar des Blocks nennt \1"),
    (r"device filter for", "Gerätefilter für"), (r"device filter", "Gerätefilter"),
    (r"the daemon refuses the configuration", "der Daemon lehnt die Konfiguration ab"),
    (r"an empty mig\.strategy sets no (MIG\\?_STRATEGY)", r"ein leeres mig.strategy setzt kein \1"),  # \_: site
    (r"GPU Feature Discovery only warns", "GPU Feature Discovery warnt nur"),
    (r"isAtLeastVolta compares the compute capability with 7\.5",
     "isAtLeastVolta vergleicht die Compute Capability mit 7.5"),
    (r"the first resource whose pattern matches a MIG device's profile gets it",
     "die erste Ressource, deren Muster auf das Profil eines MIG-Geräts passt, erhält es"),
    (r"the default active thread percentage", "der voreingestellte Anteil aktiver Threads"),
    (r"true only where the configuration leaves it out", "true nur, wo die Konfiguration es weglässt"),
    (r"MPS refuses a request above 1 only where the setting is true",
     "MPS lehnt eine Anforderung über 1 nur ab, wo die Einstellung true ist"),
    (r"the plugin sets it to true", "das Plugin setzt es auf true"),
    (r"the ConfigMap only where data is given", "die ConfigMap nur, wo data angegeben ist"),
    (r"not created where a custom one is named", "nicht angelegt, wo eine eigene genannt ist"),
    (r"else an existing one is overwritten", "sonst wird eine vorhandene überschrieben"),
    (r"the device plugin's DaemonSet mounts the ConfigMap as a volume",
     "das DaemonSet des Device-Plugins bindet die ConfigMap als Volume ein"),
    (r"\bset per client at\b", "je Client gesetzt in"), (r"\bset at\b", "gesetzt in"),
    (r"the same check since\b", "dieselbe Prüfung seit"), (r"the same since\b", "ebenso seit"),
    (r"the first release whose file has it", "das erste Release, dessen Datei sie enthält"),
    (r"the first release with it", "das erste Release damit"),
    (r"the vGPU Device Manager's default configurations for (\S+) vGPU types",
     r"die voreingestellten Konfigurationen des vGPU Device Managers für \1-vGPU-Typen"),
    (r"Maintainer's reply \(quoted in the thread,", "Antwort des Maintainers (im Thread zitiert,"),
    (r"Maintainer's reply of", "Antwort des Maintainers vom"),
    (r"first released in\b", "erstmals veröffentlicht in"), (r"\bmessage\b", "Nachricht"),
    (r"\bREADME at tag\b", "README, Tag"), (r" at tag\b", ", Tag"), (r" at commit\b", ", Commit"),
    (r"\b(commit \w+) of\b", r"\1 vom"), (r"\bcommit\b", "Commit"), (r"\bat (v\d)", r"in \1"),
    (r"\bintroduction\b", "Einleitung"), (r"\blines\b", "Zeilen"), (r"\bblock\b", "Block"),
    (r"\bentry\b", "Eintrag"),
)
#: English words of a place in a document that a German reader must never see outside the document's own names
#: (tests read German citations for them; the document's headings — "Install the GPU Operator" — are exempt)
ENGLISH_PLACE_WORDS = (
    "line", "lines", "row", "rows", "column", "columns", "tab", "note", "cell", "block", "entry", "footnote",
    "section", "heading", "example", "file", "at", "naming", "whose", "first", "refuses", "reply", "quoted",
    "stage", "default", "filter", "chart", "release", "same", "since", "set", "per", "gets", "compares", "warns",
    "only", "already", "message", "that", "day", "its", "no", "sets", "commit", "introduction",
)
_ISO_DATE = r"(?<![\w-])(?:19|20)\d\d-[01]\d-[0-3]\d(?![\w-])"
_SINGLE_QUOTED = r"(?<![\w])'([^']+)'(?![\w])"
_EN_DATE = r"\b([0-3]?\d) (" + "|".join(MONTHS["en"]) + r") ((?:19|20)\d\d)\b"


#: our own words in a document's title (what kind of document, which part of it), in German; the document's own
#: title ("Platform Support", an issue's title) stays as its publisher writes it
_TITLE_PHRASES = (
    (r", earlier versions of the page$", ", frühere Fassungen der Seite"),
    (r"\(chart customization options\)", "(Optionen zum Anpassen des Charts)"),
    (r"\(example ConfigMap\)", "(Beispiel-ConfigMap)"),
    (r"\(documentation build configuration\)", "(Build-Konfiguration der Dokumentation)"),
    (r"\(default MIG layouts\)", "(Standard-MIG-Layouts)"),
    (r"\(source code and documentation at each release tag\)", "(Quellcode und Dokumentation bei jedem Release-Tag)"),
    (r"\(docs _index\)", "(Übersichtsseite der Dokumentation)"),
    (r"\(the PCI ID list NVIDIA's code ships\)", "(die PCI-ID-Liste, die NVIDIAs Code mitliefert)"),
    (r"\bsource code\)", "Quellcode)"),
    (r" at each release tag$", " bei jedem Release-Tag"),
    (r"\bHelm chart:", "Helm-Chart:"),
    (r"^(\S+) issue #", r"\1, Issue #"), (r"^(\S+) pull request #", r"\1, Pull-Request #"),
    (r"^(.+) datasheet \((.+)\)$", r"\1, Datenblatt (\2)"), (r"^(.+) announcement$", r"\1, Ankündigung"),
)
#: English words of ours in a document's title that a German reader must not see (tests/test_wording.py)
ENGLISH_TITLE_WORDS = ("earlier versions", "customization", "example", "build configuration", "default MIG",
                       "source code", "at each", "docs _index", "Helm chart", " issue #", " pull request #",
                       "datasheet", "announcement", "PCI ID list")


@functools.lru_cache(maxsize=8192)
def title_text(title: str, lang: str) -> str:
    """A document's title for a reader in `lang`: in German, our words around NVIDIA's title in German ("NVIDIA
    device plugin for Kubernetes (source code)" → "… (Quellcode)"); NVIDIA's own words stay. Worked out once per
    title and language (a few hundred documents, cited by thousands of answers)."""
    if lang != "de" or not title:
        return title
    for pattern, word in _TITLE_PHRASES:
        title = re.sub(pattern, word, title)
    return title


@functools.lru_cache(maxsize=8192)
def section_text(section: str, lang: str) -> str:
    """A citation's place in its document in the reader's words: 'row' → 'Zeile', 'tab' → 'Reiter', 'note' →
    'Hinweis' …; names quoted 'like this' get the language's quotation marks. The document's own headings stay as
    the document writes them (they are what a reader searches for). Worked out once per place and language (some
    hundred places, cited by thousands of answers: ~10 regular expressions each)."""
    out = re.sub(_SINGLE_QUOTED, lambda m: quoted(m.group(1), lang), section)
    out = re.sub(_ISO_DATE, lambda m: date_text(m.group(0), lang), out)
    if lang == "de":  # a date written out in English ("3 May 2024") the German way
        out = re.sub(_EN_DATE, lambda m: f"{int(m.group(1))}. {MONTHS['de'][MONTHS['en'].index(m.group(2))]} "
                                         f"{m.group(3)}", out)
    if lang == "de":
        # only the words outside the quoted names are ours to translate
        parts = re.split(r"(„[^“]*“)", out)
        for i in range(0, len(parts), 2):
            for pattern, word in _PLACE_PHRASES:
                parts[i] = re.sub(pattern, word, parts[i])
            if i and parts[i].startswith(" and ") and i + 1 < len(parts):
                parts[i] = " und " + parts[i][5:]  # rows 'A' and 'B'
            for pattern, word in _SECTION_WORDS:
                parts[i] = re.sub(pattern, word, parts[i])
        out = "".join(parts)
    return out


def is_own(source: dict, publisher: str) -> bool:
    return source.get("publisher") == publisher


def own_fact(path: str) -> bool:
    """The fact at `path` (a card's, method's or release's field path) is one of our own statements."""
    path = re.sub(r"\[[^\]]*\]", "", path or "")
    if ".disputed_by" in path or path.startswith("disputed_by"):
        return True  # what another source says instead: that source's own claim, shown as such
    return any(path == own or path.startswith(own + ".") for own in OWN_FACTS)


def shown(data: dict, cites: list[dict], path: str = "", publisher: str | None = None) -> list[dict]:
    """The citations a reader sees for a fact, best first: NVIDIA's and other primary documents, then ours — ours
    only where the fact is our own statement, or where no other source backs it (each such citation is returned
    with `only_source: True`). Citations are the catalog's ({source, section?, quote, …}) or resolved ones;
    the input is not changed."""
    if publisher is None:
        from kb.publication import publication

        publisher = publication(resolve_ref=False).publisher
    sources = data.get("sources", {})
    primary = [c for c in cites if not is_own(sources.get(c["source"], {}), publisher)]
    own = [c for c in cites if is_own(sources.get(c["source"], {}), publisher)]
    if own_fact(path):
        return primary + own
    if primary:
        return primary
    return [{**c, "only_source": True} for c in own]


def translated(cite: dict, lang: str, source: dict | None = None) -> bool:
    """Whether a reader in `lang` sees the quote's English translation beside it: on English pages and answers,
    for a quote whose source is not in English (the source's `language`; where the source is not at hand, a
    translation is only ever written for such quotes — `gpukb lint`, check `translations`)."""
    return bool(cite.get("translation")) and lang != "de" and (source or {}).get("language", "de") != "en"


def translation_text(translation: str, lang: str) -> str:
    """' (German original; our translation: “…”)' — the mark after a German quote on an English page."""
    return f" ({TRANSLATION[_lang(lang)]}: {quoted(translation, lang)})"


def citation_text(cite: dict, lang: str, *, source: dict | None = None, title: str | None = None,
                  place_markup=None) -> str:
    """One citation as plain text in `lang`: 'Title, place: “quote” (German original; our translation: “…”)
    (as of …, retrieved …)' plus the only-source remark. `cite` is the catalog's or a resolved citation; `source` its source where known
    (for dates and language), `title` overrides the title (a Markdown link on the site), `place_markup` wraps the
    place in the document (the site marks it as the document's own words)."""
    source = source or {}
    text = title if title is not None else title_text(cite.get("title") or source.get("title") or cite["source"], lang)
    if cite.get("section"):
        place = section_text(cite["section"], lang)
        text += f", {place_markup(place) if place_markup else place}"
    text += ": " + quoted(cite["quote"], lang)
    if translated(cite, lang, source):
        text += translation_text(cite["translation"], lang)
    dates = []
    doc_date = cite.get("snapshot") or source.get("document_date")
    if doc_date:
        dates.append(f"{DOC_DATE[_lang(lang)]} {date_text(doc_date, lang)}")
    if source.get("retrieved"):
        dates.append(f"{RETRIEVED[_lang(lang)]} {date_text(source['retrieved'], lang)}")
    if dates:
        text += f" ({', '.join(dates)})"
    if cite.get("only_source"):
        text += f" {DASH[_lang(lang)]} {ONLY_SOURCE[_lang(lang)]}"
    return text
