"""Card pages: one page per card with all its facts, the card index and the MIG profiles page."""

from __future__ import annotations

from kb.questions import words
from kb.questions.resource import mig_resource_name
from kb.site.md import code, esc, link, quote_html, table
from kb.wording import quoted
from kb.site.page import Ctx, method_name
from kb.text import Text

GB = lambda v: f"{v} GB"  # noqa: E731


def _rows(ctx: Ctx, entity: str, obj: dict, specs: list[tuple]) -> list[list[str]]:
    """Table rows for the facts of `obj` that are present; specs: (field, label Text[, formatter])."""
    rows = []
    for spec in specs:
        name, label = spec[:2]
        fmt = spec[2] if len(spec) > 2 else None
        prefix = entity.split(" ", 1)[1] + "." if " " in entity else ""
        if obj.get(name) is None:
            continue
        rows.append([label(ctx.lang), ctx.fact(entity.split(" ", 1)[0], prefix + name, fmt)])
    return rows


def profile_table(ctx: Ctx, card_id: str) -> str:
    """MIG profiles of a card: memory, instances and the resource name under each strategy."""
    card = ctx.data["cards"][card_id]
    single = _mig_resource(ctx, "nvidia.com/gpu")
    plain = _mig_resource(ctx, "nvidia.com/mig-<profile>")
    rows = []
    for p in card["mig"]["profiles"]:
        refs = ctx.notes.refs(p["cite"], f"cards/{card_id}", f"mig.profiles[{p['name']}]")
        mixed = code(mig_resource_name(p["name"])) + (_mig_resource(ctx, "nvidia.com/mig-<profile><variant>")
                                                        if p.get("variant") else plain)
        rows.append([code(p["name"]) + refs, GB(p["memory_gb"]), str(p["max_count"]),
                     code("nvidia.com/gpu") + single, mixed])
    headers = [Text("Profile", "Profil")(ctx.lang), Text("Memory per instance", "Speicher je Instanz")(ctx.lang),
               Text("Instances per card", "Instanzen je Karte")(ctx.lang), Text("Resource with `single`", "Ressource bei `single`")(ctx.lang),
               Text("Resource with `mixed`", "Ressource bei `mixed`")(ctx.lang)]
    return table(headers, rows)


VARIANTS = "mig-suffix-profiles-as-resources"  # the device-plugin statement: variants are resources of their own


def variant_note(ctx: Ctx, card_id: str) -> str:
    """Where a card has profile variants: from which device plugin (and GPU Operator release) on they are resources
    of their own, and what a pod requests before (from catalog/releases: the statement's `since`, the releases'
    components); "" for a card without variants or where the catalog does not say."""
    from kb.questions.behaviour import first_operator_shipping, release_feature

    card = ctx.data["cards"][card_id]
    variant = next((p for p in card["mig"].get("profiles", []) if p.get("variant")), None)
    feature = release_feature(ctx.data, "device-plugin", VARIANTS)
    if variant is None or feature is None or not feature.get("since"):
        return ""
    since = feature["since"]
    first = first_operator_shipping(ctx.data, "device-plugin", since)
    plain = mig_resource_name(variant["name"][: -len(variant["variant"])])
    kinds = ", ".join(code(v) for v in dict.fromkeys(p["variant"] for p in card["mig"]["profiles"] if p.get("variant")))
    refs = ctx.notes.fact_refs("releases/device-plugin", f"features[{VARIANTS}]")[1]
    op_en = f" (GPU Operator {code(first)} and later)" if first else ""
    op_de = f" (GPU Operator {code(first)} und neuer)" if first else ""
    return Text(f"The variants ({kinds}) are resources of their own only from device plugin "
        f"{code('v' + since)}{op_en} on. With older releases a pod requests the plain profile's resource, such as "
        f"{code(plain)}, and may get an instance of a variant.{refs}", f"Die Varianten ({kinds}) sind erst ab Device-Plugin {code('v' + since)}{op_de} eigene "
        f"Ressourcen. Mit älteren Releases fordert ein Pod die Ressource des einfachen Profils an, etwa {code(plain)}, "
        f"und kann dann auch eine Instanz einer Variante bekommen.{refs}")(ctx.lang)


def _mig_resource(ctx: Ctx, name: str) -> str:
    """Footnotes of a resource name of the MIG method (the naming rule behind a table cell)."""
    return ctx.notes.fact_refs("methods/mig", f"resource_names[{name}]")[1]


def methods_section(ctx: Ctx, card_id: str, answer: dict, ask_page: str) -> list[str]:
    """The verdict of every sharing method on the card, as `gpukb ask methods` gives it with the newest GPU
    Operator release and no driver, each with the conditions its rule named; links to the ask page for
    another release or a driver."""
    from kb.site.matrices import METHOD_ORDER, _method_of, verdict_badge
    from kb.site.page import method_name

    data = ctx.data
    methods = [m for m in METHOD_ORDER if m in answer["details"]["methods"]]
    conditions: dict[str, list[str]] = {}
    for c in answer.get("conditions", []):
        text = esc(c["text"][ctx.lang])
        bucket = conditions.setdefault(_method_of(answer, c, methods), [])
        if text not in bucket:
            bucket.append(text)
    rows = [[method_name(data, m, ctx.lang), verdict_badge(ctx, answer["details"]["methods"][m], card=card_id, method=m),
             " ".join(conditions.get(m, [])) or "—"] for m in methods]
    op = answer["inputs"]["operator"]
    out = [f"## {Text('Sharing: which method works', 'Teilen: welche Methode geht')(ctx.lang)}", "",
           Text(f"Our answer with GPU Operator {code(op)}, without a driver given.", f"Unsere Antwort mit GPU Operator {code(op)}, ohne Angabe des Treibers.")(ctx.lang), "",
           table([Text("Method", "Methode")(ctx.lang), Text("Verdict", "Urteil")(ctx.lang), Text("Conditions", "Bedingungen")(ctx.lang)], rows), ""]
    if conditions.get(""):
        out += [Text("For the whole card: ", "Für die ganze Karte: ")(ctx.lang) + " ".join(conditions[""]), ""]
    asks = [(Text("Check the methods with your driver and release", "Methoden mit Ihrem Treiber und Release prüfen")(ctx.lang), "methods"),
            (Text("Check MIG on this card", "MIG auf dieser Karte prüfen")(ctx.lang), "mig")]
    out += [" · ".join(link(label, f"{ask_page}?q={q}&card={card_id}") for label, q in asks), ""]
    return out


def card_page(ctx: Ctx, card_id: str, methods: dict | None = None, ask_page: str = "../ask.md") -> str:
    """Everything the catalog knows about one card, with its citations; with `methods` (the engine's answer to
    the methods question for it) the verdict of every method first."""
    data = ctx.data
    card = data["cards"][card_id]
    e = f"cards/{card_id}"
    prop = [Text("Property", "Eigenschaft")(ctx.lang), Text("Value", "Wert")(ctx.lang)]
    # the page's own meta description (its first paragraph is a sentence every card page shares)
    described = (Text("Sharing the {name} in Kubernetes: our verdict per method (MIG, time-slicing, MPS, VMs, DRA) and "
                      "what NVIDIA says about MIG and GPU Operator support, every fact with its source.",
                      "Die {name} in Kubernetes teilen: unser Urteil je Methode (MIG, Time-Slicing, MPS, VMs, DRA) "
                      "und was NVIDIA zu MIG und zur Unterstützung durch den GPU Operator sagt, jede Angabe mit Quelle.")
                 if methods is not None else
                 Text("The {name} in Kubernetes: what NVIDIA says about MIG and GPU Operator support, every fact with "
                      "its source.",
                      "Die {name} in Kubernetes: was NVIDIA zu MIG und zur Unterstützung durch den GPU Operator sagt, "
                      "jede Angabe mit Quelle."))
    out = [ctx.front(described.format(name=card["name"])(ctx.lang)),
           f"# {esc(card['name'])}", "", ctx.header([data["files"][e]]), ""]

    basics = _rows(ctx, e, card, [
        ("architecture", Text("Architecture", "Architektur")),
        ("memory_gb", Text("Memory", "Speicher"), GB),
        ("form_factor", Text("Form factor", "Bauform")),
        ("availability", Text("Availability", "Verfügbarkeit")),
    ])
    names = [card["short_name"], *card.get("aliases", [])]
    basics.append([Text("Also called", "Auch genannt")(ctx.lang), ", ".join(code(n) for n in names)])
    reported = card.get("product_names") or []
    if reported:  # each name with the NVIDIA document that shows it
        basics.append([Text("Reported by the driver as", "Vom Treiber gemeldet als")(ctx.lang),
                       ", ".join(code(p["name"]) + ctx.notes.refs(p["cite"], e, f"product_names[{i}]")
                                 for i, p in enumerate(reported))])
    # what `lspci -nn` shows of the card ("[10de:27b8]"): the ask page and `gpukb card` take either form
    basics += _rows(ctx, e, card, [("pci_device_ids", Text("PCI device IDs", "PCI-Geräte-IDs"),
                                    lambda ids: ", ".join(code(i) for i in ids))])
    out += [table(prop, basics), ""]
    if methods is not None:
        out += methods_section(ctx, card_id, methods, ask_page)

    mig = card["mig"]
    out += ["## MIG", ""]
    rows = _rows(ctx, f"{e} mig", mig, [
        ("status", Text("Status", "Status")),
        ("max_instances", Text("Maximum instances", "Höchstzahl der Instanzen")),
        ("smallest_profile", Text("Smallest profile", "Kleinstes Profil"), code),
    ])
    pre = mig.get("prerequisites") or {}
    rows += _rows(ctx, f"{e} mig.prerequisites", pre, [
        ("prerequisites_published", Text("Prerequisites published by NVIDIA", "Voraussetzungen von NVIDIA veröffentlicht")),
        ("min_driver", Text("Minimum driver for MIG", "Mindesttreiber für MIG"), code),
        ("min_vbios", Text("Minimum vBIOS", "Mindest-vBIOS"), code),
        ("display_mode_switch", Text("Display mode switch needed", "Umschaltung des Anzeigemodus nötig")),
        ("written_confirmation", Text("Written confirmation advised", "Schriftliche Bestätigung empfohlen")),
    ])
    out += [table(prop, rows), ""]
    if mig["profiles"]:
        out += [f"### {Text('Profiles', 'Profile')(ctx.lang)}", "", profile_table(ctx, card_id), ""]
        note = variant_note(ctx, card_id)
        out += [note, ""] if note else []

    sup = card["operator_support"]
    out += ["## GPU Operator", ""]
    rows = _rows(ctx, f"{e} operator_support", sup, [
        ("listed", Text("On the support list", "Auf der Supportliste")),
        ("min_driver", Text("Minimum driver", "Mindesttreiber"), code),
    ])
    if sup.get("listed_as"):
        rows.append([Text("Name in the list", "Name in der Liste")(ctx.lang), quoted(quote_html(sup["listed_as"]), ctx.lang)])
    rows += _rows(ctx, f"{e} operator_support", sup, [("since", Text("Listed since release", "Gelistet seit Release"), code)])
    for ex in sup.get("driver_exceptions", []):
        label = Text(f"Exception driver {ex['driver']}", f"Ausnahme Treiber {ex['driver']}")(ctx.lang)
        rows.append([esc(label), ctx.fact(e, f"operator_support.driver_exceptions[{ex['driver']}].fact")])
    vgpu_words = lambda v: esc(words.word(words.KUBEVIRT_VGPU, v, ctx.lang))  # noqa: E731
    rows += _rows(ctx, f"{e} operator_support", sup, [
        ("kubevirt_vgpu", Text("KubeVirt with NVIDIA vGPU", "KubeVirt mit NVIDIA vGPU"), vgpu_words),
        ("kubevirt_vgpu_since", Text("KubeVirt with NVIDIA vGPU since release", "KubeVirt mit NVIDIA vGPU seit Release"), code),
    ])
    out += [table(prop, rows), ""]

    vendor = card["vendor"]
    out += [f"## {Text('What we ship', 'Was wir liefern')(ctx.lang)}", ""]
    rows = _rows(ctx, f"{e} vendor", vendor, [("ships", Text("We ship the card", "Wir liefern die Karte"))])
    if vendor.get("methods"):
        rows.append([Text("For", "Für")(ctx.lang), ", ".join(method_name(data, m, ctx.lang) for m in vendor["methods"])])
    if vendor.get("note"):
        rows.append([Text("Note", "Hinweis")(ctx.lang), ctx.pick(vendor["note"])])
    out += [table(prop, rows), ""]

    if card.get("note"):
        out += [f"## {Text('Note', 'Hinweis')(ctx.lang)}", "", ctx.pick(card["note"]), ""]
    report = ctx.report_link(card["name"], e)
    if report:
        out += [Text("Is a fact wrong?", "Stimmt eine Angabe nicht?")(ctx.lang) + " " + report, ""]
    return "\n".join(out).rstrip("\n") + ctx.footer()


def card_table(ctx: Ctx, page_of=None, card_ids=None) -> str:
    """All cards (or `card_ids`) with architecture, memory, MIG status and operator support; linked where
    `page_of` is given. The facts' notes are left to the card pages: the overview stays one line per card."""
    data = ctx.data
    rows = []
    for cid in card_ids if card_ids is not None else data["cards"]:
        card = data["cards"][cid]
        e = f"cards/{cid}"
        mig = card["mig"]
        name = link(esc(card["short_name"]), page_of(cid)) if page_of else esc(card["short_name"])
        row = [f'<span data-card="{cid}">{name}</span>' if page_of else name]
        row.append(ctx.fact(e, "architecture", note=False) if card.get("architecture") else "—")
        row.append(ctx.fact(e, "memory_gb", GB, note=False) if card.get("memory_gb") else "—")
        row.append(ctx.fact(e, "mig.status", note=False))
        row.append(ctx.fact(e, "mig.max_instances", note=False) if mig.get("max_instances") else "—")
        row.append(ctx.fact(e, "operator_support.listed", note=False))
        rows.append(row)
    headers = [Text("Card", "Karte")(ctx.lang), Text("Architecture", "Architektur")(ctx.lang), Text("Memory", "Speicher")(ctx.lang),
               Text("MIG", "MIG")(ctx.lang), Text("MIG instances", "MIG-Instanzen")(ctx.lang),
               Text("GPU Operator support list", "Supportliste GPU Operator")(ctx.lang)]
    return table(headers, rows)


def _smallest_instance(ctx: Ctx, card_id: str) -> str:
    """The smallest MIG instance: the cited smallest profile where the catalog has one, else the profile
    (without variant suffix) with the least memory, each with its memory per instance."""
    e = f"cards/{card_id}"
    mig = ctx.data["cards"][card_id]["mig"]
    plain = [p for p in mig["profiles"] if not p.get("variant")] or mig["profiles"]
    if mig.get("smallest_profile"):
        name = mig["smallest_profile"]["value"]
        memory = next((p["memory_gb"] for p in mig["profiles"] if p["name"] == name), None)
        cell = ctx.fact(e, "mig.smallest_profile", code)
    elif plain:
        p = min(plain, key=lambda p: p["memory_gb"])
        name, memory = p["name"], p["memory_gb"]
        cell = code(name) + ctx.notes.refs(p["cite"], e, f"mig.profiles[{name}]")
    else:
        return "—"
    return cell + (f" ({GB(memory)})" if memory else "")


def mig_cards_table(ctx: Ctx, page_of=None) -> str:
    """Every card's MIG status by NVIDIA (without the status's note), its instances at most, its smallest
    instance, the lowest driver NVIDIA names for MIG on it and whether MIG needs the manual display-mode switch first."""
    rows = []
    for cid, card in ctx.data["cards"].items():
        e = f"cards/{cid}"
        mig = card["mig"]
        pre = mig.get("prerequisites") or {}
        rows.append([
            link(esc(card["short_name"]), page_of(cid)) if page_of else esc(card["short_name"]),
            ctx.fact(e, "mig.status", note=False),
            ctx.fact(e, "mig.max_instances") if mig.get("max_instances") else "—",
            _smallest_instance(ctx, cid),
            ctx.fact(e, "mig.prerequisites.min_driver", code) if pre.get("min_driver") else "—",
            ctx.fact(e, "mig.prerequisites.display_mode_switch") if pre.get("display_mode_switch") is not None else "—",
        ])
    headers = [Text("Card", "Karte")(ctx.lang), Text("MIG status", "MIG-Status")(ctx.lang),
               Text("Instances at most", "Instanzen höchstens")(ctx.lang), Text("Smallest instance", "Kleinste Instanz")(ctx.lang),
               Text("Minimum driver for MIG", "Mindesttreiber für MIG")(ctx.lang),
               Text("Display mode switch", "Anzeigemodus umschalten")(ctx.lang)]
    return table(headers, rows)


def card_index(ctx: Ctx, page_of) -> str:
    """All cards, one table per family (where there is more than one), with a filter by family and name;
    `page_of(card_id)` gives the relative link to a card's page."""
    from kb.site.matrices import family, filter_form

    files = [ctx.data["files"][f"cards/{cid}"] for cid in ctx.data["cards"]]
    out = [f"# {Text('Cards', 'Karten')(ctx.lang)}", "", ctx.header(files), "",
           filter_form(ctx, list(ctx.data["cards"]), verdicts=False), ""]
    groups: dict[tuple, list[str]] = {}
    for cid in ctx.data["cards"]:
        groups.setdefault(family(ctx.data, cid, ctx.lang), []).append(cid)
    if len(groups) == 1:
        out.append(card_table(ctx, page_of))
    else:
        for (_, label), ids in groups.items():
            out += [f"## {esc(label)} ({len(ids)})", "", card_table(ctx, page_of, ids), ""]
    return "\n".join(out).rstrip("\n") + ctx.footer()


def mig_profiles_page(ctx: Ctx, page_of) -> str:
    """MIG profiles of every card that has them, with resource names under `single` and `mixed`."""
    data = ctx.data
    with_profiles = [cid for cid, c in data["cards"].items() if c["mig"]["profiles"]]
    files = [data["files"][f"cards/{cid}"] for cid in with_profiles]
    files.append(data["files"]["methods/mig"])
    out = [f"# {Text('MIG profiles per card', 'MIG-Profile je Karte')(ctx.lang)}", "", ctx.header(files), ""]
    for r in data["methods"]["mig"]["resource_names"]:
        out.append(f"- {code(r['name'])}: {ctx.pick(r['when'])}{_mig_resource(ctx, r['name'])}")
    out.append("")
    for cid in with_profiles:
        card = data["cards"][cid]
        out += [f"## {esc(card['short_name'])}", "", link(Text("All facts about the card", "Alle Fakten zur Karte")(ctx.lang), page_of(cid)),
                "", profile_table(ctx, cid), ""]
        note = variant_note(ctx, cid)
        out += [note, ""] if note else []
    return "\n".join(out).rstrip("\n") + ctx.footer()
