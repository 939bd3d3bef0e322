"""`gpukb cards` and `gpukb card NAME` — the catalog's cards and their cited facts."""

from __future__ import annotations

import click

from kb.cli.options import load_catalog_data, output_options, print_json, resolve_card, t


def _summary(data: dict, cid: str) -> dict:
    card = data["cards"][cid]
    mig = card["mig"]
    op = card["operator_support"]
    return {
        "id": cid,
        "name": card["name"],
        "short_name": card["short_name"],
        "mig_status": mig["status"]["value"],
        "mig_max_instances": (mig.get("max_instances") or {}).get("value"),
        "operator_listed": op["listed"]["value"],
        "operator_min_driver": (op.get("min_driver") or {}).get("value"),
        "vendor_ships": card["vendor"]["ships"]["value"],
    }


_MIG_SHORT = {"documented": ("yes", "ja"), "datasheet-only": ("datasheet only", "nur Datenblatt"),
              "announced": ("announced", "angekündigt"), "not-listed": ("no", "nein")}


@click.command()
@output_options
def cards(as_json, lang):
    """List all cards with their MIG and GPU Operator support status.

    Listet alle Karten mit MIG-Status und Eintrag in der Supportliste des GPU Operators.

    \b
    Example / Beispiel:
      gpukb cards --lang de
    """
    from kb.render.labels import value_text
    from kb.render.table import text_table

    data = load_catalog_data()
    rows = [_summary(data, cid) for cid in data["cards"]]
    if as_json:
        print_json({"cards": rows, "data_version": data["data_version"]})
        return
    no_entry = t(lang, "no entry found", "kein Eintrag")
    table = [[r["short_name"],
              _MIG_SHORT[r["mig_status"]][lang == "de"],
              str(r["mig_max_instances"] or "–"),
              t(lang, "listed", "gelistet") + (f" (≥ {r['operator_min_driver']})" if r["operator_min_driver"] else "")
              if r["operator_listed"] else no_entry,
              value_text(r["vendor_ships"], lang)]
             for r in rows]
    headers = [t(lang, "Card", "Karte"), "MIG", t(lang, "Instances", "Instanzen"),
               t(lang, "GPU Operator list", "Supportliste GPU Operator"), t(lang, "We ship", "Lieferbar")]
    click.echo(text_table(headers, table))
    click.echo(t(lang, "Data version ", "Datenstand ") + data["data_version"])


@click.command()
@click.argument("name")
@output_options
def card(name, as_json, lang):
    """Every fact about one card, each with its citations.

    Alle Fakten zu einer Karte, jeder mit seinen Belegen.

    NAME may be the official name, a short form or a GPU Feature Discovery label.

    \b
    Example / Beispiel:
      gpukb card "rtx pro 6000 workstation" --lang de
      gpukb card NVIDIA-H200-NVL --json
    """
    from kb.render.card import card_json, card_text

    data = load_catalog_data()
    cid = resolve_card(data, name, lang)
    if as_json:
        print_json(card_json(data, cid))
    else:
        click.echo(card_text(data, cid, lang))
