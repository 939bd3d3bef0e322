"""A Markdown CHANGELOG (NVIDIA/k8s-device-plugin, NVIDIA/mig-parted): the releases it lists, newest first.

Release headings are "## v0.15.0", "### v0.20.0" or "### Version v0.17.1"; "-rc.N" releases are marked
as pre-releases and never count as the newest.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.versions import key as version_key

ID = "device-plugin-changelog"

_HEADING = re.compile(r"^#{2,4}\s+(?:Version\s+)?v?(\d+\.\d+\.\d+)(-[\w.]+)?\s*$")


def extract(text: str) -> dict:
    releases = []
    fenced = False
    for n, line in enumerate(text.splitlines()):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        m = None if fenced else _HEADING.match(line.strip())
        if m:
            releases.append({"version": m.group(1) + (m.group(2) or ""), "line": n + 1,
                             "prerelease": bool(m.group(2))})
    final = [r["version"] for r in releases if not r["prerelease"]]
    if not final:
        raise ExtractError("no release headings ('## v1.2.3')")
    return {"newest": max(final, key=version_key), "releases": releases}
