"""Versions as integers the rules can compare: 26.7.0 → 26007000, v1.34.2 → 1034002, 575.57.08 → 575057008.

Each of the first three parts takes three decimal digits (major·10⁶ + minor·10³ + patch); a missing part
counts as 0, a fourth part is ignored. A Kubernetes version may carry a vendor suffix (v1.34.2-eks-1).
"""

from __future__ import annotations

import re

_VERSION = re.compile(r"^\s*v?(\d{1,3})(?:\.(\d{1,3}))?(?:\.(\d{1,3}))?(?:\.\d+)?(?:[-+][0-9A-Za-z.\-+]*)?\s*$")


def version_number(text) -> int | None:
    """The comparable integer of a version text, or None where it is not a version."""
    if not isinstance(text, str):
        return None
    m = _VERSION.match(text)
    if not m:
        return None
    major, minor, patch = (int(p) if p else 0 for p in m.groups())
    return major * 1_000_000 + minor * 1_000 + patch


def clean(text: str) -> str:
    """'v1.34.2-eks-1' → '1.34.2'; the text unchanged where it is not a version."""
    m = _VERSION.match(text) if isinstance(text, str) else None
    return ".".join(p for p in m.groups() if p) if m else text
