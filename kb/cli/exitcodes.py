"""The one place that decides gpukb's exit codes (like pluto's GetReturnCode)."""

from __future__ import annotations


class Exit:
    """The codes (plain ints: creating an IntEnum class costs every run of gpukb ~1 M instructions)."""

    OK = 0            # answered / clean / no drift
    FINDINGS = 1      # lint findings, check errors, drift found — never an error of gpukb itself
    UNUSABLE = 2      # unusable input: unknown card/version/profile, unreadable file, bad option, broken catalog
    UNREACHABLE = 3   # a watched source could not be fetched or parsed
    INTERNAL = 4      # an error inside gpukb (a bug, a failing rule engine): one line, traceback in a file
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)


#: a domain error's `outcome` (kb.errors) → its exit code
OUTCOMES = {"unusable": Exit.UNUSABLE, "unreachable": Exit.UNREACHABLE, "internal": Exit.INTERNAL}


def exit_code(*, internal: bool = False, unusable: bool = False, unreachable: bool = False,
              findings: bool = False, interrupted: bool = False, outcome: str | None = None) -> int:
    """Exit code for an outcome. An internal error wins (no result can be trusted), then an interruption,
    then unusable input (nothing was checked), then an unreachable source, then findings."""
    if outcome is not None:
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        internal |= outcome == "internal"
        unusable |= outcome == "unusable"
        unreachable |= outcome == "unreachable"
    if internal:
        return Exit.INTERNAL
    if interrupted:
        return Exit.INTERRUPTED
    if unusable:
        return Exit.UNUSABLE
    if unreachable:
        return Exit.UNREACHABLE
    if findings:
        return Exit.FINDINGS
    return Exit.OK
