"""`gpukb export answers --json`: every answer of the matrix, for the site and other tools."""

from __future__ import annotations

import click

from kb.cli.i18n import Group
from kb.cli.options import json_text, output_options


@click.group(cls=Group)
def export():
    """Export derived data.

    \b
    Example:
      gpukb export answers --json > answers.json
    \f
    Abgeleitete Daten exportieren.

    \b
    Beispiel:
      gpukb export answers --json > answers.json
    """


@export.command()
@click.option("--output", "-o", type=click.Path(dir_okay=False),
              help="Write to FILE (replaced in one step) instead of stdout."
                   "\fIn DATEI schreiben (in einem Schritt ersetzt) statt auf stdout.")
@output_options
def answers(output, as_json, lang):
    """Every answer for every card × known GPU Operator release × question (default inputs), as JSON
    (--json is required: it is the only format).

    \b
    Example:
      gpukb export answers --json -o answers.json
    \f
    Jede Antwort für jede Karte × bekanntes GPU-Operator-Release × Frage (Standardeingaben), als JSON
    (--json ist nötig: es ist das einzige Format).

    \b
    Beispiel:
      gpukb export answers --json -o answers.json
    """
    from kb.errors import UnusableInput
    from kb.fsutil import atomic_write
    from kb.questions import export_all
    from kb.text import Text

    if not as_json:
        raise UnusableInput(Text("say --json: JSON is the only format of the export",
                                 "geben Sie --json an: JSON ist das einzige Format des Exports"))
    text = json_text(export_all())
    if output:
        try:
            atomic_write(output, text + "\n")
        except OSError as exc:
            raise UnusableInput(Text("cannot write {file}: {why}", "kann {file} nicht schreiben: {why}")
                                .format(file=output, why=exc.strerror or str(exc)), details={"file": output}) from None
    else:
        click.echo(text)
