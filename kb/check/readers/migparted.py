"""MIG Manager (mig-parted) configurations: named layouts under `mig-configs`, each a list of device entries.

They come as the `config.yaml` value of a ConfigMap (custom or the per-node generated one), as raw
files, or from the Helm values (`migManager.config.data`). A node selects a layout with `nvidia.com/mig.config`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import Doc, both, parse_embedded
from kb.check.readers.deviceplugin import not_text


@dataclass
class LayoutEntry:
    """One entry of a layout: which devices, MIG on or off, and the instances per profile."""

    devices: object
    device_filter: str  # the GPU types the entry applies to ("" = every type)
    mig_enabled: object
    mig_devices: dict
    where: dict


@dataclass
class Layout:
    name: str
    where: dict
    entries: list[LayoutEntry] = field(default_factory=list)
    error: dict | None = None  # {en, de}


@dataclass
class MigPartedConfig:
    origin: str
    configmap: str | None
    key: str
    where: dict
    error: dict | None = None  # {en, de}
    layouts: dict = field(default_factory=dict)  # name → Layout


def looks_like_config(data) -> bool:
    return isinstance(data, dict) and "mig-configs" in data


def from_doc(doc: Doc, origin: str, configmap: str | None, key: str, where: dict) -> MigPartedConfig:
    cfg = MigPartedConfig(origin, configmap, key, where)
    configs = doc.get("mig-configs")
    if not isinstance(configs, dict):
        cfg.error = both("mig-configs must be a mapping of layout names to device entries",
                         "mig-configs muss eine Zuordnung von Layout-Namen zu Geräteeinträgen sein")
        return cfg
    for name, entries in configs.items():
        layout = Layout(str(name), doc.where(("mig-configs", name)))
        if not isinstance(entries, list):
            layout.error = both(f"layout {name}: must be a list of device entries",
                                f"Layout {name}: muss eine Liste von Geräteeinträgen sein")
        else:
            for i, entry in enumerate(entries):
                path = ("mig-configs", name, i)
                if not isinstance(entry, dict):
                    layout.error = both(f"layout {name}: each device entry must be a mapping",
                                        f"Layout {name}: Jeder Geräteeintrag muss eine Zuordnung sein")
                    continue
                devices = entry.get("mig-devices")
                layout.entries.append(LayoutEntry(entry.get("devices", "all"), str(entry.get("device-filter", "")),
                                                  entry.get("mig-enabled"),
                                                  devices if isinstance(devices, dict) else {},
                                                  doc.where(path)))
        cfg.layouts[layout.name] = layout
    return cfg


def from_configmap_value(outer: Doc, path: tuple, text, origin: str, configmap: str | None) -> MigPartedConfig:
    key = str(path[-1])
    where = outer.where(path)
    if not isinstance(text, str):
        return MigPartedConfig(origin, configmap, key, where, error=not_text(text))
    inner, error = parse_embedded(outer, path, text)
    if inner is None:
        return MigPartedConfig(origin, configmap, key, where, error=error)
    return from_doc(inner, origin, configmap, key, where)
