"""kb.site.jsonbytes.dumps writes what json.dumps writes (compact, ensure_ascii=False), with and without orjson."""

import json
import random
import struct
from collections import namedtuple
from enum import IntEnum

import pytest

from kb.site import jsonbytes
from kb.text import Text


def plain(value, sort_keys=False) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys).encode("utf-8")


class Small(IntEnum):
    two = 2


class Flt(float):
    pass


Pair = namedtuple("Pair", "a b")

SAMPLES = [
    "".join(map(chr, range(0x800))) + "\u2028\u2029\ufeff\ue000\uffff\U0001f600 „…“ ‚‘",
    {"b": 1, "a": [1, -0, 2**63 - 1, -2**63, 2**64 - 1, True, False, None, (1, "x")], "ä": {}, "Z": [], "": ""},
    {"z\n": Text("en", "de"), "é": Text("same"), "\x00": "\x1f\x7f\"\\/"},
    [0.0, -0.0, 1.5, 0.1, 1 / 3, 100.0, 12.3, 1e-4, 1.5e-4, 9.9e-5, 1e-5, -1e-5, 1e-6, 1e-7, 5e-324, 1e16, 1e22,
     1.7976931348623157e308, 123456789012345678.0],
    1e-05, 2.5, -7e-9, "text", 7, None,
    {"x": "a:0.00001,b:[1e-7"},  # text that looks like a small number: json's text (the same)
    [2**64, 1], {1: "a", "b": 2}, {None: 1}, "\ud800", Small.two, Flt(1.5), Pair(1, 2), [[[[]]]],
    ["[" * 300],
]


def deep(n):
    out = []
    for _ in range(n):
        out = [out]
    return out


@pytest.mark.parametrize("sort_keys", [False, True])
def test_the_bytes_are_jsons_for_every_sample_with_orjson_and_without(sort_keys, monkeypatch):
    """Characters and their escapes, whole numbers to 64 bits and beyond, floats either side of 1e-4 and 1e16, text
    keys in and out of code point order, Texts, tuples, subclasses, keys that are no text, lone surrogates, deep
    nesting, text that looks like a small number. Fails without the search for orjson's small numbers (1e-05 is
    written 0.00001), with orjson's error not caught (2**64), with the keys not sorted."""
    samples = [*SAMPLES, deep(300), {"ü": 1, "u": 2, "z": 3, "\U0001f600": 4, "\uffff": 5}]
    for sample in samples:
        for with_orjson in (True, False):
            if not with_orjson:
                monkeypatch.setattr(jsonbytes, "orjson", None)
            try:
                expected = plain(sample, sort_keys)
            except (TypeError, ValueError, UnicodeEncodeError, RecursionError) as error:
                with pytest.raises(type(error)):
                    jsonbytes.dumps(sample, sort_keys=sort_keys)
            else:
                assert jsonbytes.dumps(sample, sort_keys=sort_keys) == expected, (sample, with_orjson)
            monkeypatch.undo()


def test_random_floats_are_written_as_json_writes_them():
    """Any finite double (random bit patterns and rounded decimals), alone and in a list."""
    rnd = random.Random(15)
    floats = [struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0] for _ in range(20000)]
    floats += [round(rnd.uniform(-1e3, 1e3), rnd.randint(0, 7)) for _ in range(5000)]
    floats = [f for f in floats if f == f and abs(f) != float("inf")]
    assert jsonbytes.dumps(floats) == plain(floats)
    assert all(jsonbytes.dumps(f) == plain(f) for f in floats[:3000])


def test_orjson_does_the_work_where_it_is_installed():
    """The site's data goes through orjson (the build's speed), not json, where the docs extra is installed."""
    pytest.importorskip("orjson", reason="orjson (the docs extra) is not installed: json writes the same, slower")
    value = {"a": [1, "x"]}
    expected, calls = plain(value), []
    real = jsonbytes.json.dumps
    jsonbytes.json.dumps = lambda *a, **k: calls.append(a) or real(*a, **k)
    try:
        assert jsonbytes.dumps(value) == expected and calls == []
    finally:
        jsonbytes.json.dumps = real
