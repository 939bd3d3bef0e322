"""The device plugin README against the catalog.

The "latest release": a README that lags behind is not drift; one that names a release newer than any device
plugin version in our data (releases/device-plugin.yaml, or the versions GPU Operator releases ship) is.
A pre-release ("v0.21.0-rc.1") is noted, never drift.

The sharing modes: each mode the catalog rests on (a citation of this README whose section is the mode's
heading, e.g. "With CUDA MPS") must still be a heading under "Shared Access to GPUs"; a mode heading the
catalog does not know is new.
"""

from __future__ import annotations

from kb.drift.compare import Change, cited_sections
from kb.text import Text
from kb.wording import quoted
from kb.versions import key as version_key


def known_versions(data: dict) -> list[str]:
    releases = data.get("releases", {})
    versions = [r["version"] for r in releases.get("device-plugin", {}).get("releases", [])]
    for r in releases.get("gpu-operator", {}).get("releases", []):
        versions += [c["version"] for c in r.get("components", []) if c["component"] == "device-plugin"]
    return versions


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    return _latest(source["id"], extracted, data) + _sharing(source["id"], extracted, data)


def _latest(sid: str, extracted: dict, data: dict) -> list[Change]:
    versions = known_versions(data)
    latest = extracted.get("latest_release")
    if not versions or not latest:
        return []
    newest = max(versions, key=version_key)
    base = latest.split("-", 1)[0]
    touches = ["releases/device-plugin releases" if "device-plugin" in data.get("releases", {})
               else "releases/gpu-operator releases"]
    if extracted.get("prerelease"):
        if version_key(base) <= version_key(newest):
            return []
        return [Change(sid, "prerelease", Text(
            f"the device plugin README names the pre-release v{latest} as the latest release (not a release yet; "
            f"the newest in our data: {newest})",
            f"Das README des Device-Plugins nennt die Vorabversion v{latest} als neuestes Release (noch kein "
            f"Release; neuestes in unseren Daten: {newest})"), touches=touches, rank="note")]
    if version_key(latest) <= version_key(newest):
        return []
    return [Change(sid, "release-newer", Text(
        f"the device plugin README names v{latest} as the latest release, newer than any device plugin "
        f"version in our data ({newest})",
        f"Das README des Device-Plugins nennt v{latest} als neuestes Release, neuer als jede Version des "
        f"Device-Plugins in unseren Daten ({newest})"), touches=touches)]


def _sharing(sid: str, extracted: dict, data: dict) -> list[Change]:
    modes = extracted.get("sharing", [])
    sections = cited_sections(data, sid)
    out = []
    known = {s for s in sections if s.lower().startswith("with ")}
    for mode in sorted(known):
        if mode not in modes:
            refs = sections[mode]
            out.append(Change(sid, "sharing-mode-removed", Text(
                f"the device plugin README no longer documents the sharing mode {quoted(mode, 'en')} "
                f"({len(refs)} facts of our data rest on that section)",
                f"Das README des Device-Plugins beschreibt den Sharing-Modus {quoted(mode, 'de')} nicht mehr "
                f"({len(refs)} Fakten unserer Daten stützen sich auf diesen Abschnitt)"),
                touches=refs, details={"quotes": sorted({q for q in sections.quotes(mode)})}))
    for mode in modes if known else []:  # a catalog that rests on no mode does not track them
        if mode not in known:
            out.append(Change(sid, "sharing-mode-added", Text(
                f"the device plugin README documents a sharing mode our data do not know: {quoted(mode, 'en')}",
                f"Das README des Device-Plugins beschreibt einen Sharing-Modus, den unsere Daten nicht kennen: "
                f"{quoted(mode, 'de')}"), touches=["methods"]))
    return out
