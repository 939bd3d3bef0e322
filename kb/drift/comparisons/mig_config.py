"""mig-parted's default config against the cards' MIG profiles that cite it — per device.

A layout applies to a card through an entry without a device filter (every GPU), or one whose device filter
holds one of the card's PCI device ids, or one whose comment names the card. mig-parted writes no names,
only PCI ids and comments, so a card's names are the entry comments its citations name ("block '# RTX PRO
6000 Blackwell'", "device filter 'H100 NVL 94GB, RTX PRO 6000 Blackwell'") plus its own names, and its
device ids are the filters of every entry whose comment names it.

Each profile citing the source must still exist; its `all-<profile>` layout ("+" written ".") must still
apply to the card (a layout restricted to another device id is drift for the cards that lost it), and the
profile's `max_count` must be a count that layout creates on the card's entries.
"""

from __future__ import annotations

import re

from kb.drift.compare import Change, citations, cites
from kb.text import Text

_NAMED = re.compile(r"(?:block '#\s*|device filter ')([^']+)'")


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    layouts = {c["name"]: c for c in extracted["configs"]}
    profiles = set(extracted["profiles"])
    out = []
    for cid, card in sorted(data.get("cards", {}).items()):
        names = card_names(card, sid)
        ids = device_ids(extracted["configs"], names) | own_ids(card)
        for i, prof in enumerate(card.get("mig", {}).get("profiles", [])):
            if not cites(prof, sid):
                continue
            ref = f"cards/{cid} mig.profiles[{i}]"
            name, short = prof["name"], card["short_name"]
            if name not in profiles:
                out.append(Change(sid, "profile-removed", Text(
                    f"mig-parted's default config no longer has profile {name} (card {short})",
                    f"Die Standardkonfiguration von mig-parted kennt Profil {name} nicht mehr (Karte {short})"),
                    touches=[ref]))
                continue
            layout = layouts.get("all-" + name.replace("+", "."))
            if not layout:
                continue
            mine = [e for e in layout["entries"] if applies(e, names, ids)]
            if not mine:
                others = "; ".join(f"{', '.join(e['device_filter'])}" + (f" ({e['comment']})" if e["comment"] else "")
                                   for e in layout["entries"])
                out.append(Change(sid, "layout-other-devices", Text(
                    f"mig-parted's layout {layout['name']} now applies only to other GPUs ({others}); card {short} "
                    f"lost it",
                    f"Das Layout {layout['name']} von mig-parted gilt jetzt nur noch für andere GPUs ({others}); "
                    f"Karte {short} hat es verloren"),
                    touches=[ref], details={"layout": layout["name"], "device_ids": sorted(ids)}))
                continue
            counts = sorted({e["mig_devices"][name] for e in mine if name in e["mig_devices"]})
            if counts and prof["max_count"] not in counts:
                shown = Text(" or ", " oder ").map(lambda sep, _lang: sep.join(str(c) for c in counts))
                out.append(Change(sid, "profile-count", Text(
                    "mig-parted's layout {layout} creates {n} × {name} (our data on the {short}: at most {count})",
                    "Das Layout {layout} von mig-parted legt {n} × {name} an (unsere Daten zur {short}: höchstens {count})").format(
                    layout=layout["name"], n=shown, name=name, short=short, count=prof["max_count"]),
                    touches=[ref],
                    patch=[{"entity": f"cards/{cid}", "path": ["mig", "profiles", i, "max_count"], "value": counts[-1]}]
                    if len(counts) == 1 else []))
    return out


def card_names(card: dict, sid: str) -> list[str]:
    """How mig-parted's comments may name the card: the blocks its citations name, and its own names."""
    own = {card["short_name"], card["name"], *card.get("aliases", [])}
    numbers = {w.lower() for n in own for w in re.findall(r"\w*\d\w*", n)}  # "6000", "H200", "L40S"
    names = set(own)
    for _path, cit in citations(card):
        if cit.get("source") == sid:
            for m in _NAMED.finditer(cit.get("section", "")):
                # a block naming several GPUs ("H100 NVL 94GB, RTX PRO 6000 Blackwell"): the card's own part only
                names.update(n.strip() for n in m.group(1).split(",")
                             if {w.lower() for w in re.findall(r"\w*\d\w*", n)} & numbers)
    return sorted(n for n in names if n)


def _names_in(comment: str, names: list[str]) -> bool:
    parts = [p.strip().lower() for p in re.split(r",|\band\b", comment)]
    return any(n.lower() == p or (len(n) > 6 and n.lower() in comment.lower()) for n in names for p in parts)


def device_ids(configs: list[dict], names: list[str]) -> set[str]:
    """PCI device ids of the entries whose comment names the card (with a one-name comment only, so an id is
    never taken from a list of several GPUs)."""
    ids: set[str] = set()
    for layout in configs:
        for e in layout["entries"]:
            if e["device_filter"] and e["comment"] and "," not in e["comment"] and _names_in(e["comment"], names):
                ids.update(x.upper() for x in e["device_filter"])
    return ids


def own_ids(card: dict) -> set[str]:
    """The card's PCI device ids where the catalog records them (`pci_device_ids`: "0x2335" or "10de:2335"), written
    as mig-parted's device filters write them ("0x233510DE")."""
    fact = card.get("pci_device_ids")
    values = fact.get("value") if isinstance(fact, dict) else fact
    out = set()
    for v in values or []:
        device = str(v).lower().replace("10de:", "").replace("0x", "")
        if device.isalnum() and len(device) == 4:
            out.add(f"0X{device.upper()}10DE")
    return out


def applies(entry: dict, names: list[str], ids: set[str]) -> bool:
    if not entry["device_filter"]:
        return True
    if ids & {x.upper() for x in entry["device_filter"]}:
        return True
    return bool(entry["comment"]) and _names_in(entry["comment"], names)
