"""kb.jsonbytes.dumps and dumps_indented write what json.dumps writes (compact, or indent=2 as the CLI's --json
output; ensure_ascii=False), with and without orjson."""

import json
import random
import struct
from collections import namedtuple
from enum import IntEnum

import pytest

from kb import jsonbytes
from kb.text import Text


def plain(value, sort_keys=False) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys).encode("utf-8")


def indented(value, sort_keys=False) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=sort_keys).encode("utf-8")


#: (jsonbytes' function, json's text it must equal)
FORMS = {"compact": (lambda: jsonbytes.dumps, plain), "indented": (lambda: jsonbytes.dumps_indented, indented)}


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
    # the indented form's layout: empty containers inside others, text with newlines and spaces, a float after a key
    {"a": {}, "b": [], "c": [{}, [], [[]], {"d": {}}], "e": "x\n  y", " ": {"f": 1e-5, "g": [0.5]}},
    [{"k": [1, 2]}, {}, ""],
]


def deep(n):
    out = []
    for _ in range(n):
        out = [out]
    return out


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("sort_keys", [False, True])
def test_the_bytes_are_jsons_for_every_sample_with_orjson_and_without(sort_keys, form, monkeypatch):
    """Characters and their escapes, whole numbers to 64 bits and beyond, floats either side of 1e-4 and 1e16, text
    keys in and out of code point order, Texts, tuples, subclasses, keys that are no text, lone surrogates, deep
    nesting, text that looks like a small number; indented: empty containers, nesting, newlines in text. Fails
    without the search for orjson's small numbers (1e-05 is written 0.00001), with orjson's error not caught
    (2**64), with the keys not sorted, with another indent or separator."""
    dumps, expect = FORMS[form][0](), FORMS[form][1]
    samples = [*SAMPLES, deep(300), {"ü": 1, "u": 2, "z": 3, "\U0001f600": 4, "\uffff": 5}]
    for sample in samples:
        for with_orjson in (True, False):
            if not with_orjson:
                monkeypatch.setattr(jsonbytes, "orjson", None)
            try:
                expected = expect(sample, sort_keys)
            except (TypeError, ValueError, UnicodeEncodeError, RecursionError) as error:
                with pytest.raises(type(error)):
                    dumps(sample, sort_keys=sort_keys)
            else:
                assert dumps(sample, sort_keys=sort_keys) == expected, (sample, with_orjson)
            monkeypatch.undo()


def random_value(rnd: random.Random, depth: int = 0):
    """A random JSON value as the CLI's output holds them: mappings with text keys (Texts too), lists, tuples, text
    from every plane (escapes, „…“, emoji), whole numbers to 64 bits, floats of every magnitude, booleans, None."""
    kind = rnd.randrange(10 if depth < 4 else 6)
    if kind == 0:
        return rnd.choice([True, False, None])
    if kind == 1:
        return rnd.randint(-2**63, 2**64 - 1) if rnd.random() < 0.3 else rnd.randint(-1000, 1000)
    if kind == 2:
        return rnd.choice([rnd.uniform(-1e3, 1e3), 10.0 ** rnd.randint(-12, 20) * rnd.random(), round(rnd.random(), 3)])
    if kind in (3, 4, 5):
        return "".join(chr(rnd.choice([rnd.randrange(0x80), rnd.randrange(0x80, 0xd800), rnd.randrange(0xe000, 0x110000)]))
                       for _ in range(rnd.randrange(12)))
    if kind in (6, 7):
        items = [random_value(rnd, depth + 1) for _ in range(rnd.randrange(5))]
        return tuple(items) if rnd.random() < 0.2 else items
    mapping = {random_value(rnd, 4) if rnd.random() < 0.9 else "": random_value(rnd, depth + 1)
               for _ in range(rnd.randrange(5))}
    mapping = {k: v for k, v in mapping.items() if isinstance(k, str)}
    return Text(*mapping.values()) if rnd.random() < 0.1 and 1 <= len(mapping) <= 2 and all(
        isinstance(v, str) for v in mapping.values()) else mapping


@pytest.mark.parametrize("form", FORMS)
def test_random_values_are_written_as_json_writes_them(form, monkeypatch):
    """1,000 random nested values, in either key order, with orjson and without."""
    dumps, expect = FORMS[form][0](), FORMS[form][1]
    rnd = random.Random(9)
    values = [random_value(rnd) for _ in range(1000)]
    for with_orjson in (True, False):
        if not with_orjson:
            monkeypatch.setattr(jsonbytes, "orjson", None)
        for sort_keys in (False, True):
            assert [dumps(v, sort_keys=sort_keys) for v in values] == [expect(v, sort_keys) for v in values]


def test_random_floats_are_written_as_json_writes_them():
    """Any finite double (random bit patterns and rounded decimals), alone and in a list."""
    rnd = random.Random(15)
    floats = [struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0] for _ in range(20000)]
    floats += [round(rnd.uniform(-1e3, 1e3), rnd.randint(0, 7)) for _ in range(5000)]
    floats = [f for f in floats if f == f and abs(f) != float("inf")]
    assert jsonbytes.dumps(floats) == plain(floats)
    assert all(jsonbytes.dumps(f) == plain(f) for f in floats[:3000])


@pytest.mark.parametrize("form", FORMS)
def test_orjson_does_the_work_where_it_is_installed(form):
    """The site's data and the CLI's --json output (kb.cli.options.json_text) go through orjson (the speed), not
    json, where orjson is installed."""
    pytest.importorskip("orjson", reason="orjson is not installed: json writes the same, slower")
    from kb.cli.options import json_text

    dumps, expect = FORMS[form][0](), FORMS[form][1]
    value = {"a": [1, "x"], "b": {}}
    expected, calls = expect(value), []
    real = jsonbytes.json.dumps
    jsonbytes.json.dumps = lambda *a, **k: calls.append(a) or real(*a, **k)
    try:
        assert dumps(value) == expected and calls == []
        if form == "indented":
            assert json_text(value) == expected.decode() and calls == []
    finally:
        jsonbytes.json.dumps = real


@pytest.mark.parametrize("with_orjson", [True, False])
def test_the_newline_is_written_with_the_text(with_orjson, monkeypatch):
    """dumps(…, newline=True) is the text and a newline (the site's data files), with orjson and without: for every
    sample that json writes, in either key order."""
    if not with_orjson:
        monkeypatch.setattr(jsonbytes, "orjson", None)
    for sample in SAMPLES:
        for sort_keys in (False, True):
            try:
                expected = plain(sample, sort_keys) + b"\n"
            except (TypeError, ValueError, UnicodeEncodeError, RecursionError):
                continue
            assert jsonbytes.dumps(sample, sort_keys=sort_keys, newline=True) == expected, sample
