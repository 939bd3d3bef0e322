"""kb.cli.jsonout.dumps writes what json.dumps(…, ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import json

import pytest

from kb.answer import localise
from kb.cli.jsonout import dumps
from kb.questions import answer

EDGE = [
    {}, [], "", 0, -1, 2.5, 1e300, float("nan"), float("inf"), -float("inf"), True, False, None,
    {"a": [], "b": {}, "c": [1, True, None, "ü\"\n\t\\ \u2028 „x“"]},
    {1: "int key", 2.0: "float key", True: "bool key", None: "none key"},
    [[[]], [{}], {"x": [{"y": ({"z": 1},)}]}],
]


@pytest.mark.parametrize("value", EDGE, ids=range(len(EDGE)))
def test_edge_values_read_as_json_writes_them(value):
    assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_answers_read_as_json_writes_them():
    for question, raw in [("mig", {"card": "H200 NVL"}), ("methods", {"card": "L4"}),
                          ("recommend", {"workload": "small-inference", "card": "L4"})]:
        for lang in ("en", "de"):
            shown = localise(answer(question, **raw), lang)
            assert dumps(shown) == json.dumps(shown, ensure_ascii=False, indent=2)


def test_what_json_cannot_write_it_refuses():
    with pytest.raises(TypeError):
        dumps({"a": object()})
    with pytest.raises(TypeError):
        dumps({(1, 2): "tuple key"})
