"""mig-parted configuration (`deployments/systemd/config-default.yaml`, or the operator's
`default-mig-parted-config` ConfigMap that embeds one): every named MIG layout with its profiles per device.

Layout names replace "+" with "." ("all-1g.24gb.gfx" creates "1g.24gb+gfx"). Which GPUs a layout or an
entry is for is only written in comments ("# RTX PRO 6000 Blackwell") and PCI ids (device-filter), so
the comment above each layout and each entry is kept.
"""

from __future__ import annotations

import re

import yaml

from kb.catalog.yamlsafe import safe_load
from kb.drift.extractors import ExtractError

ID = "mig-parted-config"


def extract(text: str) -> dict:
    # read by libyaml (kb.catalog.yamlsafe.safe_load: yaml.safe_load's values, ~10× faster; a text libyaml refuses
    # is read again in pure Python, whose error is the one reported) — a release import reads one per release
    try:
        data = safe_load(text)
    except yaml.YAMLError as exc:
        raise ExtractError(f"not valid YAML: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("data"), dict) and "config.yaml" in data["data"]:
        text = data["data"]["config.yaml"]  # a ConfigMap: the config is a string inside it
        data = safe_load(text)
    configs = data.get("mig-configs") if isinstance(data, dict) else None
    if not isinstance(configs, dict) or not configs:
        raise ExtractError("no 'mig-configs' mapping")
    comments = _comments(text)
    out = []
    profiles: set[str] = set()
    unreadable = []
    for name, entries in configs.items():
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            # one broken layout (upstream on 2023-03-07: a mapping instead of a list) fails on its own
            unreadable.append({"part": f"mig-configs.{name}", "error": "expected a list of entries"})
            continue
        layout = {"name": name, "comment": comments.get((name, None), ""), "entries": []}
        for i, entry in enumerate(entries):
            devices = entry.get("mig-devices") or {}
            filt = entry.get("device-filter", [])
            layout["entries"].append({
                "comment": comments.get((name, i), ""),
                "device_filter": [filt] if isinstance(filt, str) else list(filt),
                "mig_enabled": bool(entry.get("mig-enabled")),
                "mig_devices": {str(k): v for k, v in devices.items()},
            })
            profiles.update(str(k) for k in devices)
        out.append(layout)
    if not out:
        raise ExtractError("no readable layout in 'mig-configs'")
    result = {"configs": out, "profiles": sorted(profiles)}
    if unreadable:
        result["unreadable"] = unreadable
    return result


def _comments(text: str) -> dict[tuple[str, int | None], str]:
    """Comment lines right above a layout key ((name, None)) or above its i-th entry ((name, i))."""
    found: dict[tuple[str, int | None], str] = {}
    pending: list[str] = []
    base = None
    name, index = None, -1
    for line in text.splitlines():
        s = line.strip()
        if not s:
            pending = []
            continue
        if s.startswith("#"):
            pending.append(s.lstrip("#").strip())
            continue
        depth = len(line) - len(line.lstrip())
        if s == "mig-configs:":
            base = None
            continue
        if base is None and re.match(r"^[\w.+-]+:\s*$", s):
            base = depth
        if base is not None and depth == base and re.match(r"^[\w.+-]+:\s*$", s):
            name, index = s[:-1], -1
            if pending:
                found[(name, None)] = " ".join(pending)
        elif name is not None and s.startswith("- "):
            index += 1
            if pending:
                found[(name, index)] = " ".join(pending)
        pending = []
    return found
