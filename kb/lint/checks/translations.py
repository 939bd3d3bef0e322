"""Every quote from a document not in English carries its English `translation` (English pages and `--lang en`
answers show it beside the original), and only such quotes carry one. The language is the cited source's
`language` in sources.yaml — never a guess from the quote's words."""

from __future__ import annotations

from kb.text import Text

CHECK = "translations"
LANGUAGES = {"de": Text("German", "Deutsch")}
TITLE = "German quotes translated for English readers"


def check(ctx):
    sources = {s.id: s for s in ctx.catalog.sources.sources}
    problems = []
    for _rel, doc, path, cit in ctx.citations():
        src = sources.get(cit.get("source"))
        if src is None:
            continue  # an unknown source is the `sources` check's problem
        translation = cit.get("translation")
        translation = translation.strip() if isinstance(translation, str) else translation
        quote = str(cit.get("quote", "")).strip()
        if src.language != "en" and not translation:
            short = quote if len(quote) <= 70 else quote[:67] + "..."
            language = LANGUAGES.get(src.language, Text(src.language))
            problems.append(ctx.problem(doc, path + ("quote",), Text(
                f"{language.en} quote from {src.id!r} without `translation`: English readers would see {short!r} "
                "untranslated",
                f"Zitat auf {language.de} aus {src.id!r} ohne `translation`: Leser der englischen Seiten sähen „{short}“ "
                "unübersetzt"), CHECK))
        elif src.language == "en" and cit.get("translation") is not None:
            problems.append(ctx.problem(doc, path + ("translation",), Text(
                f"quote from {src.id!r} is English already: drop `translation`",
                f"das Zitat aus {src.id!r} ist schon Englisch: `translation` entfernen"), CHECK))
        elif translation and " ".join(translation.split()) == " ".join(quote.split()):
            problems.append(ctx.problem(doc, path + ("translation",), Text(
                "translation repeats the quote: write it in English",
                "die Übersetzung wiederholt das Zitat: auf Englisch schreiben"), CHECK))
    return problems
