"""The device plugin README's "latest release" against the newest device plugin version the catalog knows
(releases/device-plugin.yaml, or the device plugin versions GPU Operator releases ship). A README that
lags behind is not drift; one that names a newer release is."""

from __future__ import annotations

from kb.drift.compare import Change
from kb.text import Text
from kb.models.common import version_key


def known_versions(data: dict) -> list[str]:
    releases = data.get("releases", {})
    versions = [r["version"] for r in releases.get("device-plugin", {}).get("releases", [])]
    for r in releases.get("gpu-operator", {}).get("releases", []):
        versions += [c["version"] for c in r.get("components", []) if c["component"] == "device-plugin"]
    return versions


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    versions = known_versions(data)
    latest = extracted["latest_release"]
    if not versions:
        return []
    newest = max(versions, key=version_key)
    if version_key(latest) <= version_key(newest):
        return []
    return [Change(source["id"], "release-newer", Text(
        f"the device plugin README names v{latest} as the latest release, newer than any device plugin "
        f"version in the catalog ({newest})",
        f"Das README des Device Plugins nennt v{latest} als neuestes Release, neuer als jede Version des "
        f"Device Plugins im Katalog ({newest})"),
        touches=["releases/device-plugin releases" if "device-plugin" in data.get("releases", {})
                 else "releases/gpu-operator releases"])]
