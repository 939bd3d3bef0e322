"""kb.questions.bulk: many answers with Python's cyclic garbage collector paused, and what they leave moved out of
the young generations at the end without a walk (kb.questions.settle)."""

from __future__ import annotations

import gc

from kb.questions import bulk


def _collections_during(work) -> list[int]:
    seen: list[int] = []
    watch = lambda phase, info: seen.append(info["generation"]) if phase == "start" else None  # noqa: E731
    gc.callbacks.append(watch)
    try:
        work()
    finally:
        gc.callbacks.remove(watch)
    return seen


def test_what_a_bulk_leaves_is_not_walked_when_the_collector_runs_again():
    """More containers than any young generation's threshold (the suite's is 100,000) made inside: without the move
    the first allocation after the block collected the young generation, walking every one of them."""
    kept = []

    def work():
        with bulk():
            kept.append([[] for _ in range(150_000)])
        kept.append([[] for _ in range(1000)])  # allocations after the block

    assert gc.isenabled()
    assert _collections_during(work) == []
    assert gc.isenabled()
    assert gc.get_count()[0] < 2000
    oldest = gc.get_objects(generation=2)
    assert any(o is kept[0] for o in oldest) and any(o is kept[0][-1] for o in oldest)


def test_a_cycle_made_in_a_bulk_is_still_freed_by_a_full_collection():
    class Node:
        pass

    def work():
        with bulk():
            a, b = Node(), Node()
            a.other, b.other = b, a
            marker.append(id(a))

    marker: list[int] = []
    work()
    assert any(id(o) == marker[0] for o in gc.get_objects(generation=2))
    assert gc.collect() >= 2
    assert not any(id(o) == marker[0] and isinstance(o, Node) for o in gc.get_objects())


def test_bulk_inside_bulk_leaves_the_collector_paused_until_the_outer_one_ends():
    with bulk():
        with bulk():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_paused_collector_stays_paused_after_a_bulk():
    gc.disable()
    try:
        with bulk():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
