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


def _family(card: dict) -> str:
    """The architecture without 'NVIDIA' ('NVIDIA Hopper' → 'Hopper'); '' where the catalog has none."""
    arch = (card.get("architecture") or {}).get("value", "")
    return arch.replace("NVIDIA ", "").strip()


def _select(data: dict, mig: bool, listed: bool, family: str | None) -> list[str]:
    """Card ids that pass the filters; UnusableInput for a family no card has (with the known ones)."""
    from kb.errors import UnusableInput

    ids = list(data["cards"])
    if family:
        known = sorted({_family(data["cards"][c]) for c in ids} - {""})
        wanted = family.strip().lower()
        ids = [c for c in ids if _family(data["cards"][c]).lower() == wanted]
        if not ids:
            raise UnusableInput(Text(f"no card of the family {family!r}; known: {', '.join(known)}",
                                     f"keine Karte der Familie {family!r}; bekannt: {', '.join(known)}"),
                                suggestions=known)
    if mig:
        ids = [c for c in ids if data["cards"][c]["mig"]["status"]["value"] != "not-listed"]
    if listed:
        ids = [c for c in ids if data["cards"][c]["operator_support"]["listed"]["value"]]
    return ids


def _grouped_table(headers: list[str], groups: list[tuple[str, list[list[str]]]]) -> str:
    """One table whose rows stand under a heading per group; the columns align across groups."""
    from kb.render.table import text_table

    rows = [r for _, rs in groups for r in rs]
    lines = text_table(headers, rows).split("\n")
    out, at = lines[:2], 2
    for title, rs in groups:
        out += ["", f"{title} ({len(rs)})"] + lines[at:at + len(rs)]
        at += len(rs)
    return "\n".join(out)


@click.command(cls=Command)
@click.option("--mig", is_flag=True,
              help="Only cards NVIDIA documents MIG for in some way (MIG list, mig-parted, datasheet, announcement)."
                   "\fNur Karten, für die NVIDIA MIG irgendwie dokumentiert (MIG-Liste, mig-parted, Datenblatt, "
                   "Ankündigung).")
@click.option("--listed", is_flag=True,
              help="Only cards on the GPU Operator's list of supported GPUs."
                   "\fNur Karten auf der Liste der vom GPU Operator unterstützten GPUs.")
@click.option("--family", metavar="ARCHITECTURE",
              help="Only cards of one architecture, e.g. Hopper, Ampere, Blackwell, Ada."
                   "\fNur Karten einer Architektur, z. B. Hopper, Ampere, Blackwell, Ada.")
@output_options
def cards(mig, listed, family, as_json, lang):
    """List the cards with their MIG and GPU Operator support status, grouped.

    Groups: data center, RTX PRO Blackwell, workstation, embedded and Arm. The MIG column is the engine's
    verdict for the newest known operator release without a given driver (details: gpukb ask mig CARD);
    "MIG status" says whether NVIDIA's MIG list names the card.

    \b
    Example:
      gpukb cards --mig --listed
      gpukb cards --family Hopper --json
    \f
    Listet die Karten mit MIG-Status und Eintrag in der Supportliste des GPU Operators, gruppiert
    (Rechenzentrum, RTX PRO Blackwell, Workstation, Embedded und Arm). Die Spalte MIG ist das Urteil der
    Regeln für das neueste bekannte Operator-Release ohne Treiberangabe (Einzelheiten: gpukb ask mig
    KARTE); „MIG-Status“ sagt, ob NVIDIAs MIG-Liste die Karte nennt.

    \b
    Beispiel:
      gpukb cards --mig --listed --lang de
      gpukb cards --family Hopper --json
    """
    from kb.questions import Asker, words
    from kb.questions.base import operator_version

    data = load_data()
    ids = _select(data, mig, listed, family)
    asker = Asker(data)
    newest = operator_version(asker.index, None)
    answers = asker.answer_many("mig", [{"card": c, "operator": newest, "driver": None} for c in ids])
    rows = [_summary(data, cid, a) for cid, a in zip(ids, answers)]
    if as_json:
        print_json({"cards": rows, "data_version": data["data_version"]})
        return
    table = {r["id"]: [r["short_name"],
                       words.word(words.VERDICT, r["mig_verdict"], lang),
                       words.word(words.MIG_STATUS, r["mig_status"], lang),
                       str(r["mig_max_instances"] or "–"),
                       words.word(words.OPERATOR_LISTED, r["operator_listed"], lang)
                       + (f" (≥ {r['operator_min_driver']})" if r["operator_listed"] and r["operator_min_driver"] else ""),
                       words.word(words.TRUTH, r["vendor_ships"], lang)]
             for r in rows}
    groups = [(words.word(words.GROUP, g, lang), [table[c] for c in ids if data["cards"][c]["group"] == g])
              for g in words.GROUP]
    headers = [Text("Card", "Karte")(lang), "MIG", Text("MIG status", "MIG-Status")(lang), Text("Instances", "Instanzen")(lang),
               Text("GPU Operator list", "Supportliste GPU Operator")(lang), Text("We ship", "Von uns geliefert")(lang)]
    click.echo(_grouped_table(headers, [(t, rs) for t, rs in groups if rs]))
    count = (Text("1 card", "1 Karte") if len(rows) == 1 else Text(f"{len(rows)} cards", f"{len(rows)} Karten"))(lang)
    click.echo(Text("{count}. MIG: verdict for GPU Operator {operator}, no driver given (gpukb ask mig CARD). "
                    "Data version {version}",
                    "{count}. MIG: Urteil für GPU Operator {operator}, ohne Treiberangabe (gpukb ask mig KARTE). "
                    "Datenversion {version}")
               .format(count=count, operator=newest, version=data["data_version"])(lang))


@click.command(cls=Command)
@click.argument("card")
@output_options
def card(card, as_json, lang):
    """Every fact about one card, each with its citations.

    CARD may be the official name, a short form or a GPU Feature Discovery label.

    \b
    Example:
      gpukb card "rtx pro 6000 workstation"
      gpukb card NVIDIA-H200-NVL --json
    \f
    Alle Fakten zu einer Karte, jeder mit seinen Belegen.

    KARTE darf der offizielle Name sein, eine Kurzform oder ein Label der GPU Feature Discovery.

    \b
    Beispiel:
      gpukb card "rtx pro 6000 workstation" --lang de
      gpukb card NVIDIA-H200-NVL --json
    """
    from kb.render.card import card_json, card_text

    data = load_data()
    cid = resolve_card(data, card)
    if as_json:
        print_json(card_json(data, cid))
    else:
        click.echo(card_text(data, cid, lang))
