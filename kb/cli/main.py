"""The `gpukb` command group. Subcommands are imported only when called, so start-up stays fast."""

from __future__ import annotations

import importlib

import click

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


class LazyGroup(click.Group):
    """A click group that imports a subcommand's module only when that subcommand runs."""

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


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gpukb")
def cli():
    """gpukb — sharing NVIDIA GPUs in Kubernetes: cited facts and derived answers.

    gpukb — NVIDIA-GPUs in Kubernetes teilen: belegte Fakten und abgeleitete Antworten.

    \b
    Example / Beispiel:
      gpukb card "H200 NVL" --lang de
    """
