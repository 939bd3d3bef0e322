"""Cheap grids: a test that walks a grid (every card × release × driver line …) checks a fixed sample of it
by default and the whole grid with GPUKB_FULL=1 (CONTRIBUTING, "Tests that stay fast").

    from sampling import FULL, sample
    for cid in sample(data["cards"], 6, seed="mig"):   # 6 cards, the same 6 on every run
        ...

The sample is deterministic (seeded by `seed`), keeps the first and the last item (the grid's ends are
often its special cases) and is spread over the rest; `always` names items that must be in it (the one
case of a behaviour no other item shows). With GPUKB_FULL=1 every item is returned, in order.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable

FULL = os.environ.get("GPUKB_FULL", "") not in ("", "0")


def sample(items: Iterable, k: int, *, seed: str | int = 0, always: Iterable = ()) -> list:
    """`k` items of `items` (all with GPUKB_FULL=1 or when there are no more), in their original order."""
    items, always = list(items), list(always)
    if FULL or len(items) <= k:
        return items
    keep = {0, len(items) - 1} | {i for i, item in enumerate(items) if item in always}
    rest = [i for i in range(len(items)) if i not in keep]
    keep |= set(random.Random(f"gpukb:{seed}").sample(rest, max(0, min(len(rest), k - len(keep)))))
    return [items[i] for i in sorted(keep)]
