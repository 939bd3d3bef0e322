"""Versions read from manifests, as the integers the rules compare (kb.versions.as_int: 26.7.0 → 26_007_000_000).

Manifests write versions loosely: a kubelet reports 'v1.34.2-eks-1', images are tagged 'v0.20.0'.
The vendor suffix is dropped; anything else that is not a version is left unknown (None).
"""

from __future__ import annotations

import re

from kb import versions

_SUFFIX = re.compile(r"^\s*(v?\d+(?:\.\d+){0,3})(?:[-+][0-9A-Za-z.\-+]*)?\s*$")


def clean(text) -> str | None:
    """'v1.34.2-eks-1' → '1.34.2'; None where the text is not a version."""
    m = _SUFFIX.match(text) if isinstance(text, str) else None
    if not m:
        return None
    try:
        versions.parse(m.group(1))
    except versions.VersionError:
        return None
    return m.group(1).lstrip("vV")


def version_number(text) -> int | None:
    """The comparable integer of a version text, or None where it is not one."""
    c = clean(text)
    return versions.as_int(c) if c is not None else None
