"""GPU Operator release notes (`gpu-operator/release-notes.rst`): releases, component versions, drivers.

A release is a heading that is a version ("26.7.0" underlined with "=", any length; older files have no
`.. _v…:` anchor). Its component list follows a line ending in "software component versions:"
("Includes these …" ≤ 25.3, "Updated …" ≥ 25.10, "Added support for the following …" in 2024); the
items name components in several spellings, mapped here to the catalog's component ids. Driver versions
come from the component list ("NVIDIA GPU Driver 595.91.07") and from the driver bullets
("Added support for these NVIDIA Data Center GPU Driver versions:" with "580.95.05 (default)").
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.drift.extractors import rst

ID = "release-notes"

_VERSION_TITLE = re.compile(r"^v?(\d+\.\d+(?:\.\d+)?)$")
_ITEM = re.compile(r"^(?P<name>.+?)\s+(?:version\s+)?v?(?P<version>\d+(?:\.\d+)+(?:-\d+(?:\.\d+)*)?)\.?(?:\s+(?P<rest>.*))?$")
_DRIVER = re.compile(r"\b(\d{3}\.\d+(?:\.\d+)?)\b")

#: component names as the release notes write them (lower case) → catalog component id
NAMES = {
    "nvidia kubernetes device plugin": ["device-plugin"],
    "nvidia device plugin for kubernetes": ["device-plugin"],
    "nvidia kubernetes device plugin/nvidia gpu feature discovery": ["device-plugin", "gpu-feature-discovery"],
    "nvidia gpu feature discovery for kubernetes": ["gpu-feature-discovery"],
    "nvidia gpu feature discovery": ["gpu-feature-discovery"],
    "nvidia mig manager for kubernetes": ["mig-manager"],
    "nvidia mig manager": ["mig-manager"],
    "nvidia container toolkit": ["container-toolkit"],
    "nvidia gpu driver": ["driver"],
    "nvidia data center gpu driver": ["driver"],
    "nvidia dcgm exporter": ["dcgm-exporter"],
    "dcgm exporter": ["dcgm-exporter"],
    "node feature discovery": ["node-feature-discovery"],
    "nvidia dra driver for gpus": ["dra-driver"],
    "dra driver for nvidia gpus": ["dra-driver"],
}


def component_ids(name: str) -> list[str]:
    """Catalog component ids for a name as written; [] for components the catalog does not track."""
    return NAMES.get(re.sub(r"\s+version$", "", name.strip().lower()), [])


def extract(text: str) -> dict:
    lines = text.splitlines()
    heads = [h for h in rst.headings(lines) if h.char == "=" and _VERSION_TITLE.match(h.title)]
    if not heads:
        raise ExtractError("no release headings (a version underlined with '=')")
    releases = []
    for n, h in enumerate(heads):
        end = heads[n + 1].line if n + 1 < len(heads) else len(lines)
        body = lines[h.line + 2:end]
        subsections = [(s.line, s.title) for s in rst.headings(body) if s.char == "-"]
        releases.append({
            "version": _VERSION_TITLE.match(h.title).group(1),
            "line": h.line + 1,
            "components": _components(body, subsections),
            "drivers": _drivers(body, subsections),
        })
    return {"newest": releases[0]["version"], "releases": releases}


def _subsection(subsections: list[tuple[int, str]], at: int) -> str | None:
    """The title of the sub-section ("New Features") that holds body line `at`."""
    return next((title for line, title in reversed(subsections) if line < at), None)


def _components(body: list[str], subsections: list[tuple[int, str]] = ()) -> list[dict]:
    """Items of the "software component versions" lists: name, catalog component id (None for components the
    catalog does not track), version, `item` (the list item as written) and `section` (its sub-section)."""
    out = []
    for i, line in enumerate(body):
        if not re.search(r"software component versions:\s*$", line):
            continue
        section = _subsection(subsections, i)
        for item in _list_items(body, i + 1):
            m = _ITEM.match(item)
            if not m:
                continue
            name = m.group("name").strip()
            ids = component_ids(name) or [None]
            out += [{"name": name, "component": c, "version": m.group("version"), "item": item.rstrip("."),
                     "section": section} for c in ids]
    return out


def _list_items(body: list[str], start: int) -> list[str]:
    """The `- item` lines of the list that starts after body[start-1] (nested blocks skipped)."""
    items: list[str] = []
    item_indent = None
    for line in body[start:]:
        s = line.strip()
        if not s:
            continue
        if item_indent is None:
            if not s.startswith("- "):
                break
            item_indent = rst.indent(line)
        if rst.indent(line) < item_indent or (rst.indent(line) == item_indent and not s.startswith("- ")):
            break
        if rst.indent(line) == item_indent:
            items.append(s[2:].strip())
    return items


def _drivers(body: list[str], subsections: list[tuple[int, str]] = ()) -> list[dict]:
    """Driver versions of the release's driver bullets, with the one marked "(default)"; `item` is the list item
    or bullet line as written, `section` its sub-section."""
    out: list[dict] = []
    for i, line in enumerate(body):
        s = line.strip()
        if not (s.startswith("* ") and re.search(r"GPU Driver versions?\b", s)):
            continue
        section = _subsection(subsections, i)
        if s.endswith(":"):
            for item in _list_items(body, i + 1):
                m = _DRIVER.match(item)
                if m:
                    out.append({"version": m.group(1), "default": "(default)" in item, "item": item,
                                "section": section})
        else:
            tail = s.split("Driver version", 1)[1]
            out += [{"version": v, "default": False, "item": s[2:].rstrip("."), "section": section}
                    for v in _DRIVER.findall(tail)]
    return out
