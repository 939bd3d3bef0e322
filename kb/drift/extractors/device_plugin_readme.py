"""NVIDIA/k8s-device-plugin README.md: the release it calls the latest, and the GPU sharing modes it documents.

"the latest release (`v0.17.1`)" names the release; the sharing modes are the headings under
"Shared Access to GPUs" ("With CUDA Time-Slicing", "With CUDA MPS"). Code blocks are skipped.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError

ID = "device-plugin-readme"

_LATEST = re.compile(r"latest release \(`v?(\d+\.\d+\.\d+)`\)")


def extract(text: str) -> dict:
    headings: list[tuple[int, str]] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if m:
            headings.append((len(m.group(1)), m.group(2)))
    latest = _LATEST.search(text)
    if not headings or not latest:
        raise ExtractError("not the device plugin README: no headings or no 'latest release (`vX.Y.Z`)'")
    sharing: list[str] = []
    level = None
    for depth, title in headings:
        if level is not None:
            if depth <= level:
                break
            if depth == level + 1:
                sharing.append(title)
        elif title.lower() == "shared access to gpus":
            level = depth
    return {"latest_release": latest.group(1), "sharing": sharing}
