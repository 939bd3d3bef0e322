"""mig-parted's default config against the cards' MIG profiles that cite it.

Each such profile must still exist, and its `max_count` must be a count the `all-<profile>` layout creates
("+" written "." in layout names; counts differ per device where an entry has a device filter).
"""

from __future__ import annotations

from kb.drift.compare import Change, cites
from kb.text import Text


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    sid = source["id"]
    layouts = {c["name"]: c for c in extracted["configs"]}
    profiles = set(extracted["profiles"])
    out = []
    for cid, card in sorted(data.get("cards", {}).items()):
        for i, prof in enumerate(card.get("mig", {}).get("profiles", [])):
            if not cites(prof, sid):
                continue
            ref = f"cards/{cid} mig.profiles[{i}]"
            name = prof["name"]
            if name not in profiles:
                out.append(Change(sid, "profile-removed", Text(
                    f"mig-parted's default config no longer has profile {name} (card {card['short_name']})",
                    f"Die Standardkonfiguration von mig-parted kennt Profil {name} nicht mehr (Karte {card['short_name']})"),
                    touches=[ref]))
                continue
            layout = layouts.get("all-" + name.replace("+", "."))
            counts = sorted({e["mig_devices"][name] for e in layout["entries"] if name in e["mig_devices"]}) if layout else []
            if counts and prof["max_count"] not in counts:
                shown = " or ".join(str(c) for c in counts)
                out.append(Change(sid, "profile-count", Text(
                    f"mig-parted's layout {layout['name']} creates {shown} × {name} "
                    f"(card {card['short_name']}: max_count {prof['max_count']})",
                    f"Das Layout {layout['name']} von mig-parted legt {shown.replace(' or ', ' oder ')} × {name} an "
                    f"(Karte {card['short_name']}: max_count {prof['max_count']})"),
                    touches=[ref],
                    patch=[{"entity": f"cards/{cid}", "path": ["mig", "profiles", i, "max_count"], "value": counts[-1]}]
                    if len(counts) == 1 else []))
    return out
