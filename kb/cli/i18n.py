"""The language a `gpukb` run speaks, and click's own words in German.

Which language: `--lang en|de` where given; otherwise the locale, as POSIX orders it — the first set of
`LC_ALL`, `LC_MESSAGES`, `LANG` decides: a value starting with "de" (de, de_DE.UTF-8, de_AT, de_CH@euro)
means German, anything else (C, POSIX, en_US, fr_FR) English. The edge (kb.cli.edge) decides it once,
before click parses anything, so that click's usage errors and `--help` speak it too.

Help texts carry both languages: English, a form feed (`\\f`), then German. Plain click shows the part
before the form feed (its documented truncation mark); `Command`/`Group` below show the part of the
run's language, for command help and option help alike:

    @click.command(cls=Command)
    @click.option("--driver", help="NVIDIA driver version.\\fNVIDIA-Treiberversion.")
    def mig(driver):
        \"\"\"Can CARD run MIG?

        \\f
        Kann KARTE MIG nutzen?
        \"\"\"

click's own messages ("Usage:", "Missing argument", "No such option", …) come from the stdlib's
`gettext` (module-level `_`/`ngettext` in each click module); `install()` points those names at
`gettext`/`ngettext` below, which answer from `CLICK_DE` while the run is German and pass the English
through otherwise. A message click adds later simply stays English until it is added here (a test
checks every entry still exists in click).
"""

from __future__ import annotations

import contextlib
import os
import re

import click

LANGS = ("en", "de")
_state = {"lang": "en"}


def from_locale(environ=None) -> str:
    """'de' where the locale is German (LC_ALL, then LC_MESSAGES, then LANG: the first that is set), else 'en'."""
    environ = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def from_args(args: list[str]) -> str | None:
    """The value of `--lang` in a command line, if one is given and known (before `--`)."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found if found in LANGS else None


def current() -> str:
    """The language of the run in progress ('en' outside a run)."""
    return _state["lang"]


def set_current(lang: str) -> None:
    _state["lang"] = lang if lang in LANGS else "en"


@contextlib.contextmanager
def using(lang: str):
    """Speak `lang` inside the block (help texts, click's messages); the previous language afterwards."""
    before = _state["lang"]
    set_current(lang)
    try:
        yield
    finally:
        _state["lang"] = before


def part(text: str | None, lang: str | None = None) -> str | None:
    """The `lang` part of an 'English\\fDeutsch' help text (the whole text where it has no German part)."""
    if text is None:
        return None
    en, sep, de = text.partition("\f")
    return de.strip("\n") if sep and (lang or current()) == "de" and de.strip() else en


# ---------------------------------------------------------------- help in the run's language


class _Localised:
    """Mixin for click commands: help, short help and option help in the run's language."""

    def format_help_text(self, ctx, formatter):
        import inspect

        if self.help is not None and current() == "de":
            text = part(inspect.cleandoc(self.help))
            if text:
                formatter.write_paragraph()
                with formatter.indentation():
                    formatter.write_text(inspect.cleandoc(text))
            return
        super().format_help_text(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        if current() != "de" or self.short_help or not self.help:
            return super().get_short_help_str(limit)
        import inspect

        from click.utils import _make_default_short_help

        return _make_default_short_help(inspect.cleandoc(part(inspect.cleandoc(self.help))), limit).strip()

    def format_options(self, ctx, formatter):
        params = self.get_params(ctx)
        saved = [p.help for p in params if hasattr(p, "help")]
        try:
            for p in params:
                if getattr(p, "help", None):
                    p.help = click_words(part(p.help))  # click's --help option keeps the words of its first run
            super().format_options(ctx, formatter)
        finally:
            for p, help_ in zip((p for p in params if hasattr(p, "help")), saved):
                p.help = help_

    def collect_usage_pieces(self, ctx):
        pieces = super().collect_usage_pieces(ctx)
        if current() == "de":
            pieces = [USAGE_DE.get(p, metavar_de(p)) for p in pieces]
        return pieces


class Command(_Localised, click.Command):
    """A click command whose help speaks the run's language."""


def _set_lang(ctx, param, value):
    if value:
        set_current(value)
    return value


class Group(_Localised, click.Group):
    """A click group whose help speaks the run's language; its subcommands are `Command`s by default.
    A group takes `--lang` too (`gpukb ask --help --lang de`)."""

    command_class = Command

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not any(p.name == "lang" for p in self.params):
            self.params.append(click.Option(
                ["--lang"], type=click.Choice(list(LANGS)), expose_value=False, is_eager=True, callback=_set_lang,
                help="Language of the output and of the help (default: the locale's); every command takes --lang "
                     "too.\fSprache der Ausgabe und der Hilfe (Standard: die der Locale); jeder Befehl kennt "
                     "--lang auch."))


Group.group_class = Group

#: the metavars click puts into usage lines
USAGE_DE = {"[OPTIONS]": "[OPTIONEN]", "COMMAND [ARGS]...": "BEFEHL [ARGUMENTE]..."}
#: our arguments' metavars in German (usage lines, help texts, "Es fehlt das Argument „KARTE“")
METAVAR_DE = {"CARD": "KARTE", "FILE": "DATEI", "FILES": "DATEIEN", "SOURCE_ID": "QUELLE", "LAYOUT": "LAYOUT"}
_METAVAR_WORD = re.compile(r"\b(" + "|".join(METAVAR_DE) + r")\b")


def metavar_de(metavar: str) -> str:
    """'CARD' → 'KARTE', 'FILES...' → 'DATEIEN...', 'CARD[:LAYOUT]' → 'KARTE[:LAYOUT]'."""
    return _METAVAR_WORD.sub(lambda m: METAVAR_DE[m.group(1)], metavar)


def german_quotes(text: str) -> str:
    """click puts names and values in 'single quotes' (its format strings and repr()): „…“ in German."""
    return re.sub(r"(?<![\w])'([^'\n]+)'(?![\w])", "„\\1“", text)


# ---------------------------------------------------------------- click's own messages

#: click's messages (msgid as in click's source) → German. Plural forms are keyed by (singular, plural).
CLICK_DE: dict = {
    "Usage:": "Aufruf:",
    "Options": "Optionen",
    "Positional arguments": "Argumente",
    "Commands": "Befehle",
    "Show this message and exit.": "Diese Hilfe zeigen und beenden.",
    "Show the version and exit.": "Die Version zeigen und beenden.",
    "%(prog)s, version %(version)s": "%(prog)s, Version %(version)s",
    "Aborted!": "Abgebrochen!",
    "deprecated": "veraltet",
    "Missing command.": "Es fehlt ein Befehl.",
    "env var: {var}": "Umgebungsvariable: {var}",
    "default: {default}": "Standard: {default}",
    "required": "erforderlich",
    "(dynamic)": "(dynamisch)",
    "Error: {message}": "Fehler: {message}",
    "Try '{command} {option}' for help.": "Hilfe zeigt „{command} {option}“.",
    "Invalid value: {message}": "Ungültiger Wert: {message}",
    "Invalid value for {param_hint}: {message}": "Ungültiger Wert für {param_hint}: {message}",
    "Missing argument": "Es fehlt das Argument",
    "Missing option": "Es fehlt die Option",
    "Missing parameter": "Es fehlt der Parameter",
    "Missing {param_type}": "Es fehlt: {param_type}",
    "Missing parameter: {param_name}": "Es fehlt der Parameter {param_name}",
    "No such option {name!r}.": "Unbekannte Option „{name}“.",
    "No such command {name!r}.": "Unbekannter Befehl „{name}“.",
    "Option {name!r} does not take a value.": "Die Option „{name}“ nimmt keinen Wert.",
    "Argument {name!r} takes {nargs} values.": "Das Argument „{name}“ nimmt {nargs} Werte.",
    "Value must be an iterable.": "Der Wert muss eine Folge sein.",
    "Choose from:\n\t{choices}": "Zur Wahl stehen:\n\t{choices}",
    "{value!r} is not a valid {number_type}.": "„{value}“ ist keine gültige Zahl.",
    "{value} is not in the range {range}.": "{value} liegt nicht im Bereich {range}.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "„{value}“ ist kein Wahrheitswert; möglich sind: {states}",
    "file": "Datei",
    "directory": "Ordner",
    "path": "Pfad",
    "{name} {filename!r} does not exist.": "{name} „{filename}“ existiert nicht.",
    "{name} {filename!r} is a file.": "{name} „{filename}“ ist eine Datei.",
    "{name} {filename!r} is a directory.": "{name} „{filename}“ ist ein Ordner.",
    "{name} {filename!r} is not readable.": "{name} „{filename}“ ist nicht lesbar.",
    "{name} {filename!r} is not writable.": "{name} „{filename}“ ist nicht beschreibbar.",
    "{name} {filename!r} is not executable.": "{name} „{filename}“ ist nicht ausführbar.",
    "Could not open file {filename!r}: {message}": "Die Datei „{filename}“ lässt sich nicht öffnen: {message}",
    "unknown error": "unbekannter Fehler",
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("Unerwartetes zusätzliches Argument ({args})", "Unerwartete zusätzliche Argumente ({args})"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("Die Option „{name}“ braucht einen Wert.", "Die Option „{name}“ braucht {nargs} Werte."),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Meinten Sie {possibility}?", "(Meinten Sie eine von: {possibilities}?)"),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("„{value}“ ist nicht {choice}.", "„{value}“ ist keiner der Werte {choices}."),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("Nimmt {nargs} Werte, aber 1 wurde angegeben.", "Nimmt {nargs} Werte, aber {len} wurden angegeben."),
    ("{len_type} values are required, but {len_value} was given.",
     "{len_type} values are required, but {len_value} were given."):
        ("{len_type} Werte sind nötig, aber {len_value} wurde angegeben.",
         "{len_type} Werte sind nötig, aber {len_value} wurden angegeben."),
}


def _localised_metavar(plain):
    def make_metavar(self, *args, **kwargs):
        """A parameter's metavar (CARD) in the run's language: usage, help and error hints say KARTE in German."""
        metavar = plain(self, *args, **kwargs)
        return metavar_de(metavar) if current() == "de" else metavar

    make_metavar._gpukb = True
    return make_metavar


_CLICK_EN = {de: en for en, de in CLICK_DE.items() if isinstance(en, str)}


def click_words(text: str) -> str:
    """A text click wrote once and keeps (the --help option's help is made in the first run of a process): in the
    words of the run in progress."""
    return CLICK_DE.get(text, text) if current() == "de" else _CLICK_EN.get(text, text)


def gettext(message: str) -> str:
    """click's `_`: the German words while the run is German, the English otherwise."""
    if current() == "de":
        return CLICK_DE.get(message, message)
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """click's `ngettext` (German has the same two forms as English: one, and everything else)."""
    if current() == "de" and (singular, plural) in CLICK_DE:
        singular, plural = CLICK_DE[(singular, plural)]
    return singular if n == 1 else plural


#: click's modules that translate with module-level `_` / `ngettext`
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")


def install() -> None:
    """Point click's translation functions at ours (idempotent)."""
    import importlib

    for name in CLICK_MODULES:
        try:
            mod = importlib.import_module(f"click.{name}")
        except ImportError:  # pragma: no cover - a click without that module
            continue
        if hasattr(mod, "_"):
            mod._ = gettext
        if hasattr(mod, "ngettext"):
            mod.ngettext = ngettext
    for kind in (click.Argument, click.Option):
        if not getattr(kind.make_metavar, "_gpukb", False):
            kind.make_metavar = _localised_metavar(kind.make_metavar)


install()

__all__ = ["LANGS", "from_locale", "from_args", "current", "set_current", "using", "part", "Command", "Group",
           "CLICK_DE", "METAVAR_DE", "metavar_de", "german_quotes", "gettext", "ngettext", "install"]
