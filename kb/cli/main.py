"""The `gpukb` command group. Subcommands are imported only when called, so start-up stays fast; every
run goes through the one edge (kb.cli.edge), which turns every error into text or JSON and an exit code."""

from __future__ import annotations

import importlib

import click

from kb.cli import edge, i18n

#: command name → "module:attribute". Each command group lives in its own module.
COMMANDS = {
    "cards": "kb.cli.cards:cards",
    "card": "kb.cli.cards:card",
    "lint": "kb.cli.lint:lint",
    "ask": "kb.cli.ask:ask",
    "export": "kb.cli.export:export",
    "check": "kb.cli.check:check",
    "sources": "kb.cli.sources:sources",
}


class LazyGroup(i18n.Group):
    """A click group that imports a subcommand's module only when that subcommand runs, and runs
    through the edge."""

    def list_commands(self, ctx):
        return sorted(n for n in COMMANDS if self._available(n))

    @staticmethod
    def _available(name: str) -> bool:
        module = COMMANDS[name].split(":")[0]
        return importlib.util.find_spec(module) is not None

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None or not self._available(name):
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        return edge.run(super().main, args, prog_name=prog_name, complete_var=complete_var,
                        standalone_mode=standalone_mode, **extra)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gpukb", help="Show the version and exit.\fDie Version zeigen und beenden.")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, param, value: value and edge.note("debug", True),
              help="Print the traceback of an internal error (also GPUKB_DEBUG=1)."
                   "\fDen Traceback eines internen Fehlers ausgeben (auch GPUKB_DEBUG=1).")
def cli():
    """gpukb — sharing NVIDIA GPUs in Kubernetes: cited facts and derived answers.

    Output language: --lang en|de; without it German where the locale (LC_ALL, LC_MESSAGES, LANG,
    the first set) starts with "de", else English. Exit codes: 0 ok, 1 findings, 2 unusable input,
    3 source unreachable, 4 internal error.

    \b
    Example:
      gpukb card "H200 NVL"
    \f
    gpukb – NVIDIA-GPUs in Kubernetes teilen: belegte Fakten und abgeleitete Antworten.

    Sprache der Ausgabe: --lang en|de; ohne Angabe Deutsch, wenn die Locale (LC_ALL, LC_MESSAGES, LANG,
    die erste gesetzte) mit „de“ beginnt, sonst Englisch. Exit-Codes: 0 in Ordnung, 1 Befunde,
    2 unbrauchbare Eingabe, 3 Quelle nicht erreichbar, 4 interner Fehler.

    \b
    Beispiel:
      gpukb card "H200 NVL" --lang de
    """


if __name__ == "__main__":  # python -m kb.cli.main …
    cli()
