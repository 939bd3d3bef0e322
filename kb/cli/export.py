"""`gpukb export answers --json`: every precomputed answer, for the site and other tools."""

from __future__ import annotations

import json

import click

from kb.cli.options import UsageProblem


@click.group()
def export():
    """Export derived data / Abgeleitete Daten exportieren.

    \b
    Example / Beispiel:
      gpukb export answers --json > answers.json
    """


@export.command()
@click.option("--json", "as_json", is_flag=True, required=True, help="Write JSON (the only format) / JSON schreiben.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write to a file instead of stdout.")
def answers(as_json, output):
    """Every answer for every card × known GPU Operator release × question (default inputs).

    Jede Antwort für jede Karte × bekanntes GPU-Operator-Release × Frage (Standardeingaben).

    \b
    Example / Beispiel:
      gpukb export answers --json -o docs/generated/answers.json
    """
    from kb.cli.ask import call
    from kb.questions import export_all

    data = call(export_all, "en")
    text = json.dumps(data, ensure_ascii=False, indent=2)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise UsageProblem(f"cannot write {output}: {exc.strerror or exc}") from None
    else:
        click.echo(text)
