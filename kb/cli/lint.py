"""`gpukb lint` — validate the catalog."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.exitcodes import exit_code
from kb.cli.options import output_options, print_json, t


@click.command()
@click.option("--catalog", "catalog_path", type=click.Path(path_type=Path), default=None,
              help="Catalog folder to check (default: the repository's catalog/).")
@output_options
def lint(catalog_path, as_json, lang):
    """Check the catalog: schema, citations, source ids, aliases, versions, quotes, rules.

    Prüft den Katalog: Schema, Belege, Quellen-IDs, Aliasse, Versionen, Zitate, Regeln.

    The rule files ($GPUKB_RULES, default rules/) must be valid and their cites must resolve in the
    catalog. Die Regeldateien ($GPUKB_RULES, sonst rules/) müssen gültig sein und ihre Belege im Katalog
    auflösen. Exit 0 clean, 1 findings, 2 unreadable input.

    \b
    Example / Beispiel:
      gpukb lint --json
    """
    from kb.catalog.compiled import catalog_dir
    from kb.lint.run import lint as run_lint

    root = catalog_path or catalog_dir()
    result = run_lint(root)
    code = exit_code(unusable=result.unreadable, findings=bool(result.problems))
    if as_json:
        print_json({"catalog": str(root), "checks": result.checks,
                    "problems": [p.as_dict() for p in result.problems], "exit_code": int(code)})
    else:
        for p in result.problems:
            click.echo(f"{p} [{p.kind}]")
        for name, state in result.checks.items():
            click.echo(f"{name}: {_state(state, lang)}", err=bool(result.problems))
        if result.problems:
            click.echo(t(lang, f"{len(result.problems)} problem(s)", f"{len(result.problems)} Problem(e)"), err=True)
        else:
            click.echo(t(lang, "catalog is clean", "Katalog ist fehlerfrei"))
    raise SystemExit(int(code))


STATES = {"passed": "bestanden", "failed": "fehlgeschlagen", "skipped": "übersprungen"}


def _state(state: str, lang: str) -> str:
    """A check's state ('passed', 'skipped: <why>') in the output language; JSON keeps the English words."""
    if lang != "de":
        return state
    word, _, why = state.partition(": ")
    why = why.replace("the catalog does not load", "der Katalog lädt nicht").replace(" not found", " nicht gefunden")
    return STATES.get(word, word) + (f": {why}" if why else "")
