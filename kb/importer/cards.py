"""Card drafts from the extractors' data: a whole card from a platform-support product, the MIG profiles of a
card from mig-parted's configuration (per PCI device id)."""

from __future__ import annotations

import re

from kb.catalog.names import normalise
from kb.drift.extractors.platform_support import VGPU_LEAD

SECTION = "Supported NVIDIA Data Center GPUs and Systems"
#: the system prefixes of the support list: a system is recorded under the card it contains
SYSTEM = re.compile(r"^NVIDIA (?:DGX|HGX) (?!Spark$)")  # DGX Spark is one GB10 machine, not built from a card
_PROFILE = re.compile(r"^(\d+)g\.(\d+)gb(?:([+-])(me\.all|me|gfx))?$")


def slug(name: str) -> str:
    """'NVIDIA RTX A6000' → 'rtx-a6000', 'NVIDIA RTX Pro 4500 Blackwell Server Edition' → 'rtx-pro-4500-…'."""
    name = re.sub(r"^NVIDIA\s+", "", name.strip())
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def group(name: str, tab: str) -> str:
    if re.search(r"(?i)\bRTX PRO\b", name):
        return "rtx-pro"
    if tab.startswith("RTX / T-series"):
        return "workstation"
    if tab.startswith("Supported ARM"):
        return "embedded"
    return "data-center"


def architecture(text: str) -> str:
    """'NVIDIA Hopper and NVSwitch' → 'Hopper', 'NVIDIA Grace Hopper' → 'Grace Hopper'."""
    return re.sub(r"\s+and\s+NVSwitch$", "", re.sub(r"^NVIDIA\s+", "", text.strip())) or text


def _cite(source: str, section: str, quote: str, snapshot: str | None, **extra) -> dict:
    out = {"source": source, "section": section, "quote": quote}
    if snapshot:
        out["snapshot"] = snapshot
    out.update(extra)
    return out


def _row(source: str, product: dict, snapshot: str | None) -> dict:
    return _cite(source, f"{SECTION}, tab '{product['tab']}'", product["quote"], snapshot)


def known_names(data: dict) -> dict[str, str]:
    """Normalised name → card id, for every name a card is known by (the support list's name included)."""
    out = {}
    for cid, card in data["cards"].items():
        names = [cid, card["name"], card["short_name"], *card.get("aliases", []), *(p["name"] for p in card.get("product_names", [])),
                 *(s["name"] for s in card.get("systems", []))]
        if card.get("operator_support", {}).get("listed_as"):
            names.append(card["operator_support"]["listed_as"])
        for n in names:
            out.setdefault(normalise(n), cid)
    return out


def vgpu_fact(product: dict, entries: list[dict], source: str, snapshot: str | None) -> dict:
    """kubevirt_vgpu: true citing the entry that names the product (without 'NVIDIA'), else false citing the lead."""
    key = normalise(product["name"])
    for e in entries:
        excluded = {normalise(x) for x in e["excluded"]}
        if key in e["normalised"] and key not in excluded:
            return {"value": True, "cite": [_cite(source, "Support for KubeVirt and OpenShift Virtualization",
                                                  e["entry"], snapshot)]}
    return {"value": False,
            "cite": [_cite(source, "Support for KubeVirt and OpenShift Virtualization", VGPU_LEAD, snapshot)],
            "note": {"en": "Not on the list of devices for KubeVirt and OpenShift Virtualization with NVIDIA vGPU.",
                     "de": "Nicht auf der Liste der Geräte für KubeVirt und OpenShift Virtualization mit NVIDIA vGPU."}}


def card_draft(source: str, product: dict, entries: list[dict] = (), snapshot: str | None = None) -> dict:
    """A card for one product of the support list: what the list states, cited; MIG stays 'not-listed' for review
    against the MIG user guide, and our offer (`vendor`) is 'not shipped' until a person says otherwise."""
    name = product["name"]
    row = _row(source, product, snapshot)
    support: dict = {"listed": {"value": True, "cite": [row]}, "listed_as": name}
    for note in product["notes"]:
        if product.get("min_driver") and product["min_driver"] in note and "min_driver" not in support:
            support["min_driver"] = {"value": product["min_driver"],
                                     "cite": [_cite(source, f"{SECTION}, tab '{product['tab']}', note", note, snapshot)]}
    for exc in product.get("driver_exceptions", []):
        note = next(n for n in product["notes"] if exc["driver"] in n and "not supported" in n)
        what = {"mig": ("MIG is", "wird MIG"), "all": ("the card is", "wird die Karte")}[exc["feature"]]
        support.setdefault("driver_exceptions", []).append({
            "driver": exc["driver"], "feature": exc["feature"],
            "fact": {"value": {"en": f"On driver release {exc['driver']} {what[0]} not supported.",
                               "de": f"Auf dem Treiber-Release {exc['driver']} {what[1]} nicht unterstützt."},
                     "cite": [_cite(source, f"{SECTION}, tab '{product['tab']}', note", note, snapshot)]}})
    support["kubevirt_vgpu"] = vgpu_fact(product, entries, source, snapshot)
    short = re.sub(r"^NVIDIA\s+", "", name)
    card = {
        "id": slug(name), "name": name if name.startswith("NVIDIA") else name, "short_name": short,
        "group": group(name, product["tab"]),
        "architecture": {"value": architecture(product["architecture"]), "cite": [row]},
        "availability": {"value": "available", "cite": [row],
                         "inferred": {"en": "On the GPU Operator's list of supported GPUs.",
                                      "de": "Auf der Liste der vom GPU Operator unterstützten GPUs."}},
        "mig": {"status": {
            "value": "not-listed",
            "cite": [{"source": "mig-user-guide", "section": "Supported GPUs",
                      "quote": "The following table provides a list of supported GPUs:", "page": "supported-gpus.html"}],
            "note": {"en": "Not on the MIG user guide's list of supported GPUs.",
                     "de": "Nicht auf der Liste unterstützter GPUs des MIG-Benutzerhandbuchs."}}},
        "operator_support": support,
        "vendor": {"ships": {"value": False, "cite": [{
            "source": "seed-article", "section": "Was wir liefern",
            "quote": "Eurokommerz liefert die MIG-fähigen Modelle RTX PRO 6000 Workstation Edition und Max-Q, "
                     "RTX PRO 5000 und H200 NVL"}]},
            "note": {"en": "Not in our list of shipped cards; we build servers to order, so ask.",
                     "de": "Nicht in unserer Liste gelieferter Karten; wir bauen Server nach Auftrag, also fragen Sie an."}},
    }
    if product["notes"]:
        card["note"] = {"en": " ".join(product["notes"]), "de": "REVIEW: " + " ".join(product["notes"])}
    return card


def platform_drafts(source: str, extracted: dict, data: dict, snapshot: str | None) -> dict:
    """A card draft per product of the list that no card knows; systems (DGX/HGX) are reported for `systems`."""
    known = known_names(data)
    entries = extracted.get("kubevirt_vgpu", [])
    drafts, systems, seen = [], [], set()
    for product in extracted["products"]:
        key = normalise(product["name"])
        if key in seen:
            continue  # listed in an x86 tab and in the ARM table: one card
        seen.add(key)
        if key in known:
            continue
        if SYSTEM.match(product["name"]):
            systems.append({"name": product["name"], "cite": [_row(source, product, snapshot)]})
            continue
        drafts.append({"id": slug(product["name"]), "new": True, "card": card_draft(source, product, entries, snapshot)})
    notes = [{"en": f"{s['name']}: a system; record it under `systems` of the card it contains.",
              "de": f"{s['name']}: ein System; tragen Sie es unter `systems` der Karte ein, die es enthält.",
              "system": s} for s in systems]
    return {"source": source, "extractor": "platform-support", "drafts": drafts, "notes": notes}


# --- mig-parted ---------------------------------------------------------------------------------------------

def _device(value: str) -> str:
    """'0x20B010DE' → '0x20B0'."""
    return "0x" + value.strip()[2:6].upper()


def _names(comment: str) -> set[str]:
    return {n.strip() for n in comment.split(",") if n.strip()}


#: memory slices a GPU instance of N compute slices takes (1g may take two: 1g.10gb on A100 40GB)
_MEMORY_SLICES = {1: (1, 2), 2: (2,), 3: (4,), 4: (4,), 7: (8,)}


def _scaled(profile: str, base: int | None) -> bool:
    """Whether a profile's memory is the card's smallest 1g profile (`base`) times the memory slices of its compute
    slices (within 2.5 %, NVIDIA rounds: B200's 23 GB → 3g.90gb, 7g.180gb); a layout of another GPU that leaked into
    a block fails ('2g.35gb' on B200, '3g.95gb' on a 96 GB card)."""
    m = _PROFILE.match(profile)
    if not (m and base):
        return False
    return any(abs(int(m.group(2)) - j * base) <= 0.025 * j * base + 0.5
               for j in _MEMORY_SLICES.get(int(m.group(1)), ()))


def _same_gpu(own: set[str], named: set[str]) -> bool:
    """A name of the block is one of the card's, or one is the other with more words ('GB200 HGX' / 'GB200')."""
    return any(a.startswith(b) or b.startswith(a) for a in own for b in named)


def profiles_for(extracted: dict, device_ids: list[str]) -> list[dict]:
    """MIG profiles mig-parted's configuration creates on a card with these device ids, from its single-profile
    layouts (a mixed one says nothing about a profile's maximum): an entry whose device-filter holds one of the
    ids, and an unfiltered entry (`devices: all`) of a block whose comment names a GPU that the filtered entries for
    these ids name (a layout without a comment belongs to the block above) and whose memory scales with the card's
    smallest 1g profile of the filtered entries (_scaled): mig-parted's file does not keep its blocks together.
    Each: {name, memory_gb, max_count, variant?, layout, comment, quote}."""
    wanted = {_device(d) for d in device_ids}
    own: set[str] = set()
    base = None
    for layout in extracted["configs"]:
        for entry in layout["entries"]:
            if entry["device_filter"] and wanted & {_device(d) for d in entry["device_filter"]}:
                own |= {normalise(n) for n in _names(entry["comment"] or layout["comment"])}
                for profile in entry["mig_devices"]:
                    m = _PROFILE.match(profile)
                    if m and m.group(1) == "1" and (base is None or int(m.group(2)) < base):
                        base = int(m.group(2))
    found: dict[str, dict] = {}
    block = ""
    for layout in extracted["configs"]:
        block = layout["comment"] or block
        for entry in layout["entries"]:
            devices = entry["mig_devices"]
            if len(devices) != 1 or not entry["mig_enabled"]:
                continue
            (profile, count), = devices.items()
            m = _PROFILE.match(profile)
            if not m:
                continue
            comment = entry["comment"] or block
            if entry["device_filter"]:
                if not wanted & {_device(d) for d in entry["device_filter"]}:
                    continue
            elif not (_same_gpu(own, {normalise(n) for n in _names(comment)}) and _scaled(profile, base)):
                continue
            if profile not in found or count > found[profile]["max_count"]:
                found[profile] = {"name": profile, "memory_gb": int(m.group(2)), "max_count": count,
                                  "layout": layout["name"], "comment": comment, "quote": f'"{profile}": {count}'}
                if m.group(3):
                    found[profile]["variant"] = m.group(3) + m.group(4)
    order = lambda p: (int(p["name"].split("g.")[0]), p["memory_gb"], p.get("variant", ""))  # noqa: E731
    return sorted(found.values(), key=order)


def mig_draft(extracted: dict, device_ids: list[str], source: str, snapshot: str | None) -> dict:
    """`mig.profiles`, `mig.max_instances` and `mig.smallest_profile` of a card from its device ids."""
    profiles = profiles_for(extracted, device_ids)
    out: dict = {"profiles": []}
    for p in profiles:
        where = f"mig-configs.{p['layout']}" + (f" (block '# {p['comment']}')" if p["comment"] else "")
        item = {"name": p["name"], "memory_gb": p["memory_gb"], "max_count": p["max_count"]}
        if p.get("variant"):
            item["variant"] = p["variant"]
        item["cite"] = [_cite(source, where, p["quote"], snapshot)]
        out["profiles"].append(item)
    plain = [p for p in profiles if not p.get("variant")]
    if plain:
        most = max(plain, key=lambda p: (p["max_count"], -p["memory_gb"]))
        where = f"mig-configs.{most['layout']}"
        out["max_instances"] = {"value": most["max_count"], "cite": [_cite(source, where, most["quote"], snapshot)]}
        smallest = min(plain, key=lambda p: (p["memory_gb"], -p["max_count"]))
        out["smallest_profile"] = {"value": smallest["name"], "cite": [_cite(source, f"mig-configs.{smallest['layout']}",
                                                                             smallest["quote"], snapshot)]}
    return out


def mig_drafts(source: str, extracted: dict, data: dict, snapshot: str | None, cards: list[str] | None) -> dict:
    """The MIG part of every card with PCI device ids (or of the cards named)."""
    drafts = []
    for cid, card in data["cards"].items():
        ids = (card.get("pci_device_ids") or {}).get("value", [])
        if (cards and cid not in cards) or not ids:
            continue
        mig = mig_draft(extracted, ids, source, snapshot)
        if mig["profiles"]:
            drafts.append({"id": cid, "new": False, "mig": mig})
    return {"source": source, "extractor": "mig-parted-config", "drafts": drafts, "notes": []}
