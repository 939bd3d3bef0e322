"""Platform support against catalog/platform-support.yaml (every product) and the cards' operator_support.

Products are compared by normalised name: gone, new, another architecture, another tab, other notes. A
card that is `listed` must still be found under its `listed_as` name, one that is not listed must not
appear; a card's driver minimum and driver exceptions, where they cite this source, must equal what the
product's notes say. A card's `kubevirt_vgpu` fact citing this source must match the KubeVirt vGPU
device list: a card on it must still be named there (by name, short name, alias, `listed_as` or one of the
`systems` built from it, such as "NVIDIA HGX GB200 NVL72"; not excluded), a card not on it must not be named now.
A card that is not listed must not appear under any of these names either.
"""

from __future__ import annotations

from kb.catalog.names import normalise
from kb.drift.compare import Change, cites
from kb.text import Text
from kb.wording import quoted


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    now: dict[str, list[dict]] = {}
    for p in extracted["products"]:
        now.setdefault(p["normalised"], []).append(p)
    out: list[Change] = []
    platform = data.get("platform")
    gone: dict[str, Change] = {}
    if platform and platform.get("source") == sid:
        out += _products(sid, platform["products"], now, gone, extracted.get("kubevirt_vgpu", []))
    out += _cards(sid, data.get("cards", {}), now, gone)
    if "kubevirt_vgpu" in extracted:
        out += _kubevirt_vgpu(sid, data.get("cards", {}), extracted["kubevirt_vgpu"])
    return out


def _products(sid: str, products: list[dict], now: dict, gone: dict, vgpu: list[dict]) -> list[Change]:
    before: dict[str, list[tuple[int, dict]]] = {}
    for i, p in enumerate(products):
        before.setdefault(p["normalised"], []).append((i, p))
    out = []
    for key, rows in before.items():
        i, p = rows[0]
        ref = f"platform-support products[{i}]"
        if key not in now:
            change = Change(sid, "product-removed", Text(
                f"platform support no longer lists {p['name']}",
                f"Die Plattform-Unterstützung nennt {p['name']} nicht mehr"), touches=[ref])
            gone[key] = change
            out.append(change)
            continue
        theirs = now[key]
        for field, en, de in (("architecture", "the architecture", "die Architektur"), ("tab", "the tab", "den Reiter")):
            old = sorted({r[field] for _, r in rows})
            new = sorted({r[field] for r in theirs})
            if old != new:
                out.append(Change(sid, f"product-{field}", Text(
                    f"platform support gives {p['name']} {en} {' / '.join(new)} (our data: {' / '.join(old)})",
                    f"Die Plattform-Unterstützung gibt {p['name']} {de} {' / '.join(new)} (unsere Daten: {' / '.join(old)})"),
                    touches=[ref]))
        old_notes = sorted({n for _, r in rows for n in r.get("notes", [])})
        new_notes = sorted({n for r in theirs for n in r["notes"]})
        if old_notes != new_notes:
            added = [n for n in new_notes if n not in old_notes]
            dropped = [n for n in old_notes if n not in new_notes]
            en = "; ".join([f"new: {quoted(n, 'en')}" for n in added] + [f"gone: {quoted(n, 'en')}" for n in dropped])
            de = "; ".join([f"neu: {quoted(n, 'de')}" for n in added] + [f"entfallen: {quoted(n, 'de')}" for n in dropped])
            out.append(Change(sid, "product-notes", Text(
                f"platform support notes on {p['name']} changed — {en}",
                f"Die Hinweise der Plattform-Unterstützung zu {p['name']} haben sich geändert – {de}"),
                touches=[ref]))
    for key, rows in now.items():
        if key not in before:
            p = rows[0]
            out.append(Change(sid, "product-added", Text(
                f"platform support now lists {p['name']} ({p['tab']})",
                f"Die Plattform-Unterstützung nennt jetzt {p['name']} ({p['tab']})"),
                touches=["platform-support products"], details={"card_draft": card_draft(sid, p, vgpu)}))
    return out


def _cards(sid: str, cards: dict, now: dict, gone: dict) -> list[Change]:
    out = []
    for cid, card in sorted(cards.items()):
        support = card.get("operator_support", {})
        listed = support.get("listed", {})
        entity = f"cards/{cid}"
        if listed.get("value"):
            # a card the list names only through the systems built from it (DGX B200, HGX B200) is listed while
            # one of them is
            systems = [sy["name"] for sy in card.get("systems", [])]
            names = [support["listed_as"]] if support.get("listed_as") else systems or [card["name"]]
            keys = [normalise(n) for n in names]
            key = next((k for k in keys if k in now), next((k for k in keys if k in gone), keys[0]))
            ref = f"{entity} operator_support.listed"
            patch = {"entity": entity, "path": ["operator_support", "listed", "value"], "value": False}
            if key in gone and not any(k in now for k in keys):
                gone[key].touches.append(ref)
                gone[key].patch.append(patch)
            elif key not in now:
                shown = ", ".join(names)
                out.append(Change(sid, "card-unlisted", Text(
                    f"platform support no longer lists {shown} (card {card['short_name']})",
                    f"Die Plattform-Unterstützung nennt {shown} nicht mehr (Karte {card['short_name']})"),
                    touches=[ref], patch=[patch]))
            else:
                out += _driver_facts(sid, entity, card, support, now[key][0])
        elif listed:
            names = {normalise(n) for n in list_names(card)}
            hit = next((now[k][0] for k in sorted(names) if k in now), None)
            if hit:
                out.append(Change(sid, "card-listed", Text(
                    f"platform support now lists {hit['name']}; our data say card {card['short_name']} is not listed",
                    f"Die Plattform-Unterstützung nennt jetzt {hit['name']}; laut unseren Daten ist Karte "
                    f"{card['short_name']} nicht gelistet"),
                    touches=[f"{entity} operator_support.listed"],
                    patch=[{"entity": entity, "path": ["operator_support", "listed", "value"], "value": True}]))
    return out


def list_names(card: dict) -> list[str]:
    """Every name NVIDIA's lists may use for a card: its list name (`listed_as`), name, short name, aliases and the
    systems built from it ("NVIDIA HGX GB200 NVL72" is the GB200 on the list, not a product of its own)."""
    support = card.get("operator_support") or {}
    return [n for n in [support.get("listed_as"), card["name"], card["short_name"], *card.get("aliases", []),
                        *(s["name"] if isinstance(s, dict) else s for s in card.get("systems", []))] if n]


def _driver_facts(sid: str, entity: str, card: dict, support: dict, product: dict) -> list[Change]:
    """The card's driver minimum and exceptions that cite this source, against the product's notes."""
    out = []
    fact = support.get("min_driver")
    theirs = product.get("min_driver")
    if fact and cites(fact, sid) and fact["value"] != theirs:
        en = f"requires driver {theirs} or later" if theirs else "no longer states a driver minimum"
        de = f"verlangt Treiber {theirs} oder neuer" if theirs else "nennt keinen Mindesttreiber mehr"
        out.append(Change(sid, "min-driver", Text(
            f"platform support {en} for {product['name']} (our data: {fact['value']})",
            f"Die Plattform-Unterstützung {de} für {product['name']} (unsere Daten: {fact['value']})"),
            touches=[f"{entity} operator_support.min_driver"],
            patch=[{"entity": entity, "path": ["operator_support", "min_driver", "value"], "value": theirs}] if theirs else []))
    ours = {(e["driver"], e["feature"]) for e in support.get("driver_exceptions", []) if cites(e.get("fact"), sid)}
    doc = {(e["driver"], e["feature"]) for e in product.get("driver_exceptions", [])}
    if (ours or _cited_anywhere(support, sid)) and ours != doc:
        fmt = lambda s: ", ".join(f"{f} on {d}" for d, f in sorted(s)) or "none"  # noqa: E731
        fmt_de = lambda s: ", ".join(f"{f} auf {d}" for d, f in sorted(s)) or "keine"  # noqa: E731
        out.append(Change(sid, "driver-exceptions", Text(
            f"platform support names these driver exceptions for {product['name']}: {fmt(doc)} (our data: {fmt(ours)})",
            f"Die Plattform-Unterstützung nennt diese Treiber-Ausnahmen für {product['name']}: {fmt_de(doc)} "
            f"(unsere Daten: {fmt_de(ours)})"),
            touches=[f"{entity} operator_support.driver_exceptions"]))
    return out


def _cited_anywhere(support: dict, sid: str) -> bool:
    """Whether the card's support facts rely on this source at all (then new exceptions concern it)."""
    return cites(support.get("listed"), sid) or cites(support.get("min_driver"), sid)


def _kubevirt_vgpu(sid: str, cards: dict, entries: list[dict]) -> list[Change]:
    """Cards whose `operator_support.kubevirt_vgpu` (citing this source) no longer matches the device list."""
    excluded = {normalise(n) for e in entries for n in e["excluded"]}
    named = {k: n for e in entries for n, k in zip(e["names"], e["normalised"]) if k not in excluded}
    out = []
    for cid, card in sorted(cards.items()):
        support = card.get("operator_support", {})
        fact = support.get("kubevirt_vgpu")
        keys = [normalise(n) for n in list_names(card)]
        hit = next((named[k] for k in keys if k in named), None)
        entity, short = f"cards/{cid}", card["short_name"]
        if not cites(fact, sid):
            out += _disputed_vgpu(sid, entity, short, fact, hit)
            continue
        if fact["value"] and hit is None:
            text = Text(f"platform support's KubeVirt vGPU device list no longer names card {short}",
                       f"Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt Karte "
                       f"{short} nicht mehr")
        elif not fact["value"] and hit is not None:
            text = Text(f"platform support's KubeVirt vGPU device list now names {hit}; our data say card {short} "
                       "is not on it",
                       f"Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt jetzt "
                       f"{hit}; laut unseren Daten steht Karte {short} nicht darauf")
        else:
            continue
        out.append(Change(sid, "vgpu-unlisted" if fact["value"] else "vgpu-listed", text,
                          touches=[f"{entity} operator_support.kubevirt_vgpu"],
                          patch=[{"entity": entity, "path": ["operator_support", "kubevirt_vgpu", "value"],
                                  "value": not fact["value"]}]))
    return out


def _disputed_vgpu(sid: str, entity: str, short: str, fact: dict | None, hit: str | None) -> list[Change]:
    """A `kubevirt_vgpu` that follows another source (the operator's code) and keeps this list's value as disputed:
    the list now agrees with the value followed, so the dispute is settled (or the list contradicts it anew)."""
    out = []
    for i, claim in enumerate((fact or {}).get("disputed_by", [])):
        if not cites(claim, sid) or bool(claim["value"]) == (hit is not None):
            continue
        where = f"{entity} operator_support.kubevirt_vgpu.disputed_by[{i}]"
        if hit is not None:
            text = Text(f"platform support's KubeVirt vGPU device list now names {hit}: it no longer disputes that "
                        f"card {short} is supported; drop the disputed value",
                        f"Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt jetzt "
                        f"{hit}: Die Liste widerspricht nicht mehr, dass Karte {short} unterstützt wird; den abweichenden "
                        f"Wert entfernen")
        else:
            text = Text(f"platform support's KubeVirt vGPU device list no longer names card {short}, which our data "
                        f"keep as the disputed value",
                        f"Die Geräteliste für KubeVirt mit NVIDIA vGPU in der Plattform-Unterstützung nennt Karte "
                        f"{short} nicht mehr; unsere Daten führen ihre Nennung dort als abweichenden Wert")
        out.append(Change(sid, "vgpu-listed" if hit is not None else "vgpu-unlisted", text, touches=[where]))
    return out


def card_draft(sid: str, product: dict, vgpu: list[dict]) -> dict:
    """A card file drafted for a product NVIDIA newly lists, for a maintainer to review: what `gpukb sources
    import` writes (kb.importer.card_draft: listing, architecture, driver minimum and exceptions, the KubeVirt vGPU
    list, each citing the page)."""
    from kb.importer import card_draft as importer_draft

    return importer_draft(sid, product, vgpu)
