"""The CLI reference, generated from the click help of `gpukb` itself (every command, every subcommand)."""

from __future__ import annotations

import click

from kb.site.md import code
from kb.text import Text

WIDTH = 100


def _walk(cmd: click.Command, ctx: click.Context, path: list[str]):
    """(command path, help text) for `cmd` and all its subcommands, depth first in listed order."""
    yield path, cmd.get_help(ctx)
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx, terminal_width=WIDTH, max_content_width=WIDTH)
            yield from _walk(sub, sub_ctx, path + [name])


def command_help(cli: click.Command, prog: str = "gpukb") -> list[tuple[str, str]]:
    """Every command's full name and help text, as `gpukb <cmd> --help` prints it."""
    settings = {**cli.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    root = click.Context(cli, info_name=prog, **settings)
    return [(" ".join([prog, *path]), text) for path, text in _walk(cli, root, [])]


def cli_page(ctx, helps: list[tuple[str, str]], version: str) -> str:
    """One section per command with its help in a text block (the CLI's own words, in both languages)."""
    title = Text("CLI reference", "CLI-Referenz")(ctx.lang)
    intro = Text(f"This page is generated from the help of `gpukb` {version}; `gpukb <command> --help` prints the same.", f"Diese Seite wird aus der Hilfe von `gpukb` {version} erzeugt; `gpukb <Befehl> --help` zeigt dasselbe.")(ctx.lang)
    described = Text("Every command of gpukb with its help, as gpukb <command> --help prints it: for support staff.",
                     "Jeder Befehl von gpukb mit seiner Hilfe, wie gpukb <Befehl> --help sie zeigt: für den Support.")
    out = [ctx.front(described(ctx.lang)), f"# {title}", "", ctx.header([], ("kb/cli/",), intro), ""]
    for name, text in helps:
        fence = "````" if "```" in text else "```"
        out += [f"## {code(name)}", "", f"{fence}text", text.rstrip("\n"), fence, ""]
    return "\n".join(out).rstrip("\n") + "\n"
