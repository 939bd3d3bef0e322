"""Version strings as users type them: parse, normalise, encode as integers for the rules.

durable-rules compares numbers, not version strings, so facts carry versions as integers:
`as_int("575.57.08") == 575_057_008_000` (four parts of three digits each; missing parts are 0).
"""

from __future__ import annotations

import re

_VERSION = re.compile(r"^\s*[vV]?(\d+(?:\.\d+){0,3})\s*$")


class VersionError(ValueError):
    """A version that cannot be used; `known` lists the accepted ones where that is a closed set;
    `de` is the message in German where it differs from the generic one."""

    def __init__(self, message: str, known: list[str] | None = None, de: str | None = None):
        super().__init__(message)
        self.known = known or []
        self.de = de


def shown(text, limit: int = 60) -> str:
    """User input quoted for a message, cut where it is long."""
    text = str(text)
    return repr(text if len(text) <= limit else text[:limit] + "…")


#: an example of each kind of version, for messages
EXAMPLE = {"Kubernetes version": "1.34.2", "driver version": "575.57.08"}


def parse(text: str, what: str = "version") -> tuple[int, ...]:
    """'v26.7.0' / '26.7.0' / '26.7' → (26, 7, 0) / (26, 7); VersionError otherwise."""
    m = _VERSION.match(str(text))
    if not m:
        raise VersionError(f"{shown(text)} is not a {what} (expected digits and dots, e.g. {EXAMPLE.get(what, '26.7.0')})")
    parts = tuple(int(p) for p in m.group(1).split("."))
    if any(p > 999 for p in parts):
        raise VersionError(f"{shown(text)} is not a {what}: each part must be below 1000")
    return parts


def as_int(text: str) -> int:
    """The integer the rules compare: '26.7.0' → 26_007_000_000; '26.7' encodes the same."""
    parts = parse(text) + (0, 0, 0)
    major, minor, patch, build = parts[:4]
    return ((major * 1000 + minor) * 1000 + patch) * 1000 + build


def key(text: str) -> tuple[int, ...]:
    """Sort key with missing parts as 0 ('26.7' == '26.7.0')."""
    return (parse(text) + (0, 0, 0))[:4]


def driver(text: str) -> str:
    """A driver version as NVIDIA writes it: '575.57.08' (the parts' leading zeros kept)."""
    m = _VERSION.match(str(text))
    if not m or len(m.group(1).split(".")) < 2:
        raise VersionError(f"{shown(text)} is not a driver version (e.g. 575.57.08 or 580.82)")
    parse(text, "driver version")
    return m.group(1)


def kubernetes(text: str) -> str:
    """'v1.34.2' / '1.34.2' / '1.34' → '1.34.2' / '1.34.0' (a missing patch counts as .0)."""
    parts = parse(text, "Kubernetes version")
    if len(parts) < 2 or len(parts) > 3:
        raise VersionError(f"{shown(text)} is not a Kubernetes version (e.g. 1.34.2)")
    return ".".join(str(p) for p in (parts + (0,))[:3])


def operator(text: str, known: list[str]) -> str:
    """The known GPU Operator release the user means: 'v26.7.0', '26.7.0' or '26.7' → '26.7.0'.

    A short version that fits several releases ('26.3' with 26.3.0 … 26.3.3 known) is not guessed, and a
    version the catalog does not know raises VersionError listing the known releases.
    """
    ordered = sorted(known, key=key, reverse=True)
    try:
        parts = parse(text, "GPU Operator version")
    except VersionError as exc:
        raise VersionError(f"{exc}; known releases: {', '.join(ordered)}", ordered) from None
    shown = ".".join(str(p) for p in parts)
    if len(parts) < 3:
        prefix = [v for v in ordered if key(v)[:len(parts)] == parts]
        if len(prefix) == 1:
            return prefix[0]
        if len(prefix) > 1:
            raise VersionError(f"GPU Operator {shown} fits several releases: {', '.join(prefix)}; "
                               "name the patch release", prefix,
                               de=f"GPU Operator {shown} passt auf mehrere Releases: {', '.join(prefix)}; "
                                  "nennen Sie das Patch-Release")
    wanted = key(text)
    exact = [v for v in ordered if key(v) == wanted]
    if exact:
        return exact[0]
    raise VersionError(f"GPU Operator {shown} is not a release the catalog knows; known releases: "
                       f"{', '.join(ordered)}", ordered)


def in_range(version: str, since: str | None = None, until: str | None = None) -> bool:
    """Does a fact that holds `since` (inclusive) `until` (exclusive) hold for `version`?"""
    k = key(version)
    return (since is None or key(since) <= k) and (until is None or k < key(until))
