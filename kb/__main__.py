"""`gpukb` (the console script) and `python -m kb`: the command line, run as the short-lived process it is.

Python's cyclic garbage collector walks every object that is alive each time it runs a full collection, and
interpreter shutdown runs such collections too. Start-up creates tens of thousands of objects that live until the
process ends (click's and durable-rules' modules, the compiled catalog's JSON), so a `gpukb ask` spent about a
tenth of its instructions walking them (callgrind: ~30 M of ~300 M). Hence:

- the collector is paused while the CLI's modules are imported (nothing they create is garbage);
- what exists then is frozen (`gc.freeze`: moved where no collection visits it) and the collector runs again for
  the command itself — a long `gpukb check` of a cluster dump still frees its cycles — except for `gpukb ask`
  and `gpukb card`: one answer or card, a bounded amount of memory, no collection needed (~4 M instructions);
- when the command has finished, what exists is frozen again: shutdown frees it by reference counting without
  walking it (output is flushed by the interpreter as always).

Tests and other callers that import `kb.cli.main.cli` run it unchanged.
"""

from __future__ import annotations

import gc
import sys

#: commands that run with the collector paused throughout (one bounded piece of work)
PAUSED = ("ask", "card")


def _command(args: list[str]) -> str | None:
    """The command named on the command line (the first word that is not an option)."""
    return next((a for a in args if not a.startswith("-")), None)


def main():
    gc.disable()
    try:
        from kb.cli.main import cli
    finally:
        gc.freeze()
        if _command(sys.argv[1:]) not in PAUSED:
            gc.enable()
    try:
        return cli(prog_name="gpukb")
    finally:
        gc.freeze()


if __name__ == "__main__":
    main()
