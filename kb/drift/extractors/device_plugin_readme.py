"""NVIDIA/k8s-device-plugin README.md: the release it calls the latest, and the GPU sharing modes it documents.

"the latest release (`v0.17.1`)" names the release; a pre-release ("`v0.14.0-rc.3`", as in April 2023) is
kept as written and marked `prerelease`. The sharing modes are the headings one level under "Shared Access
to GPUs" ("With CUDA Time-Slicing", "With CUDA MPS"); before MPS (2023) the heading itself was "Shared
Access to GPUs with CUDA Time-Slicing", read as the mode "With CUDA Time-Slicing". Code blocks are skipped.
A README without the "latest release" sentence (before 2023) still has its sharing modes compared: the
release is one part that could not be read.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.text import Text

ID = "device-plugin-readme"

_LATEST = re.compile(r"latest release (?:of the plugin )?\(`v?(\d+\.\d+\.\d+)(-[\w.]+)?`\)")
_SHARED = re.compile(r"^shared access to gpus(?: (with .+))?$", re.IGNORECASE)
LATEST_PART = Text("latest release", "neuestes Release")


def headings(text: str) -> list[tuple[int, str]]:
    """(level, title) of every Markdown heading outside fenced code."""
    found: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            found.append((len(m.group(1)), m.group(2)))
    return found


def extract(text: str) -> dict:
    heads = headings(text)
    if not heads or "device plugin" not in heads[0][1].lower():
        raise ExtractError("not the device plugin README: no '# NVIDIA device plugin for Kubernetes' heading")
    out: dict = {"sharing": sharing_modes(heads)}
    latest = _LATEST.search(text)
    if latest:
        out["latest_release"] = latest.group(1) + (latest.group(2) or "")
        out["prerelease"] = bool(latest.group(2))
    else:
        out["unreadable"] = [{"part": LATEST_PART, "error": "no 'the latest release (`vX.Y.Z`)' sentence"}]
    return out


def sharing_modes(heads: list[tuple[int, str]]) -> list[str]:
    modes: list[str] = []
    level = None
    for depth, title in heads:
        if level is not None:
            if depth <= level:
                level = None
            elif depth == level + 1:
                modes.append(title)
                continue
        m = _SHARED.match(title)
        if m:
            level = depth
            if m.group(1):
                modes.append(m.group(1)[0].upper() + m.group(1)[1:])
    return modes
