"""The one place that decides gpukb's exit codes (like pluto's GetReturnCode)."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0            # answered / clean / no drift
    FINDINGS = 1      # lint findings, check errors, drift found — and internal errors (see below)
    UNUSABLE = 2      # unusable input: unknown card/version/profile, unreadable file, bad combination
    UNREACHABLE = 3   # a watched source could not be fetched or parsed


def exit_code(*, unusable: bool = False, unreachable: bool = False, findings: bool = False,
              internal_error: bool = False) -> int:
    """Exit code for an outcome. Unusable input wins over everything: nothing else was checked."""
    if unusable:
        return Exit.UNUSABLE
    if unreachable:
        return Exit.UNREACHABLE
    if findings or internal_error:
        return Exit.FINDINGS
    return Exit.OK
