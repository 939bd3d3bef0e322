"""`gpukb cards` and `gpukb card NAME` — the catalog's cards and their cited facts."""

from __future__ import annotations

import click

from kb.catalog.compiled import load_data
from kb.cli.i18n import Command
from kb.cli.options import output_options, print_json, resolve_card
from kb.text import Text


def _summary(data: dict, cid: str, mig_answer: dict) -> dict:
    card = data["cards"][cid]
    mig = card["mig"]
    op = card["operator_support"]
    return {
        "id": cid,
        "name": card["name"],
        "short_name": card["short_name"],
        "mig_verdict": mig_answer["verdict"],
        "mig_operator": mig_answer["inputs"]["operator"],
        "mig_status": mig["status"]["value"],
        "mig_max_instances": (mig.get("max_instances") or {}).get("value"),
        "operator_listed": op["listed"]["value"],
        "operator_min_driver": (op.get("min_driver") or {}).get("value"),
        "vendor_ships": card["vendor"]["ships"]["value"],
    }


@click.command(cls=Command)
@output_options
def cards(as_json, lang):
    """List all cards with their MIG and GPU Operator support status.

    The MIG column is the engine's verdict for the newest known operator release without a given
    driver (details: gpukb ask mig CARD); "MIG status" says whether NVIDIA's MIG list names the card.

    \b
    Example:
      gpukb cards --json
    \f
    Listet alle Karten mit MIG-Status und Eintrag in der Supportliste des GPU Operators. Die Spalte
    MIG ist das Urteil der Regeln für das neueste bekannte Operator-Release ohne Treiberangabe
    (Einzelheiten: gpukb ask mig KARTE); „MIG-Status“ sagt, ob NVIDIAs MIG-Liste die Karte nennt.

    \b
    Beispiel:
      gpukb cards --lang de
    """
    from kb.questions import answer, words
    from kb.render.table import text_table

    data = load_data()
    rows = [_summary(data, cid, answer("mig", card=cid)) for cid in data["cards"]]
    if as_json:
        print_json({"cards": rows, "data_version": data["data_version"]})
        return
    table = [[r["short_name"],
              words.word(words.VERDICT, r["mig_verdict"], lang),
              words.word(words.MIG_STATUS, r["mig_status"], lang),
              str(r["mig_max_instances"] or "–"),
              words.word(words.OPERATOR_LISTED, r["operator_listed"], lang)
              + (f" (≥ {r['operator_min_driver']})" if r["operator_listed"] and r["operator_min_driver"] else ""),
              words.word(words.TRUTH, r["vendor_ships"], lang)]
             for r in rows]
    headers = [Text("Card", "Karte")(lang), "MIG", Text("MIG status", "MIG-Status")(lang), Text("Instances", "Instanzen")(lang),
               Text("GPU Operator list", "Supportliste GPU Operator")(lang), Text("We ship", "Lieferbar")(lang)]
    click.echo(text_table(headers, table))
    operator = rows[0]["mig_operator"] if rows else "–"
    click.echo(Text("MIG: verdict for GPU Operator {operator}, no driver given (gpukb ask mig CARD). Data version {version}",
                    "MIG: Urteil für GPU Operator {operator}, ohne Treiberangabe (gpukb ask mig KARTE). Datenstand {version}")
               .format(operator=operator, version=data["data_version"])(lang))


@click.command(cls=Command)
@click.argument("name")
@output_options
def card(name, as_json, lang):
    """Every fact about one card, each with its citations.

    NAME may be the official name, a short form or a GPU Feature Discovery label.

    \b
    Example:
      gpukb card "rtx pro 6000 workstation"
      gpukb card NVIDIA-H200-NVL --json
    \f
    Alle Fakten zu einer Karte, jeder mit seinen Belegen.

    NAME darf der offizielle Name sein, eine Kurzform oder ein Label der GPU Feature Discovery.

    \b
    Beispiel:
      gpukb card "rtx pro 6000 workstation" --lang de
      gpukb card NVIDIA-H200-NVL --json
    """
    from kb.render.card import card_json, card_text

    data = load_data()
    cid = resolve_card(data, name)
    if as_json:
        print_json(card_json(data, cid))
    else:
        click.echo(card_text(data, cid, lang))
