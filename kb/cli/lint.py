"""`gpukb lint` — validate the catalog and the rule base."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.exitcodes import exit_code
from kb.cli.i18n import Command
from kb.cli.options import output_options, print_json
from kb.text import Text, pick

#: a check's state in words (JSON keeps the ids)
STATES = {"passed": Text("passed", "bestanden"), "failed": Text("failed", "fehlgeschlagen"),
          "skipped": Text("skipped", "übersprungen")}


@click.command(cls=Command)
@click.option("--catalog", "catalog_path", type=click.Path(path_type=Path), default=None,
              help="Catalog folder to check (default: the repository's catalog/)."
                   "\fZu prüfender Katalogordner (Standard: catalog/ des Repositorys).")
@output_options
def lint(catalog_path, as_json, lang):
    """Check the catalog: schema, citations, source ids, aliases, versions, quotes, rules.

    The rule files ($GPUKB_RULES, default rules/) must be valid and their cites must resolve in the
    catalog. Exit 0 clean, 1 findings, 2 the catalog cannot be read (nothing else was checked).

    \b
    Example:
      gpukb lint --json
    \f
    Prüft den Katalog: Schema, Belege, Quellen-IDs, Aliasse, Versionen, Zitate, Regeln.

    Die Regeldateien ($GPUKB_RULES, sonst rules/) müssen gültig sein und ihre Belege im Katalog
    auflösen. Exit 0 fehlerfrei, 1 Befunde, 2 der Katalog ist nicht lesbar (sonst nichts geprüft).

    \b
    Beispiel:
      gpukb lint --lang de
    """
    from kb.catalog.compiled import catalog_dir
    from kb.errors import CatalogInvalid
    from kb.lint.run import lint as run_lint

    root = catalog_path or catalog_dir()
    result = run_lint(root)
    if result.unreadable:
        raise CatalogInvalid(result.problems, Text("the catalog cannot be read; nothing else was checked",
                                                   "der Katalog ist nicht lesbar; sonst wurde nichts geprüft"),
                             details={"catalog": str(root), "checks": result.checks})
    code = exit_code(findings=bool(result.problems))
    if as_json:
        print_json({"catalog": str(root), "checks": result.checks,
                    "problems": [pick(p.as_dict(), lang) for p in result.problems], "exit_code": int(code)})
        return code
    for p in result.problems:
        click.echo(f"{p.text(lang)} [{p.kind}]")
    for name, state in result.checks.items():
        word = STATES[state.partition(":")[0]](lang)
        why = result.skipped.get(name)
        click.echo(f"{name}: {word}{': ' + why(lang) if why else ''}", err=bool(result.problems))
    if result.problems:
        n = len(result.problems)
        click.echo(Text("{n} problem(s)", "{n} Problem(e)").format(n=n)(lang), err=True)
    else:
        click.echo(Text("catalog is clean", "Katalog ist fehlerfrei")(lang))
    return code
