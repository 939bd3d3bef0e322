"""Reading big data (an 80 MB JSON export, the pickled answer matrix) with the cyclic garbage collector paused.

Parsing creates millions of containers, none of them garbage, yet every 700 allocations start a collection and the
older generations are walked again and again: json.loads of the 83 MB export takes 1.3–1.7 s CPU with the
collector, 0.45–0.7 s without; pickle.loads of the matrix (16 MB) 0.7–1.2 s against 0.33 s. The collector's state
is put back afterwards (it stays off where it was off)."""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def gc_paused():
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
