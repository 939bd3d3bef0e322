"""JSON as the site writes its data files and the CLI its `--json` output, as UTF-8 bytes: what `json.dumps(value,
ensure_ascii=False, separators=(",", ":"), sort_keys=…)` writes (`dumps`), or with `indent=2` (`dumps_indented`, the
CLI's form: `": "` after a key, two spaces a level, `[]` / `{}` for empty containers, no newline at the end), encoded —
by orjson where it is installed (a base dependency), else by json itself. orjson is ≈ 10–20 × faster on the JSON API's
79 MB of answers (≈ 1.3–2.6 s CPU of a build from nothing → 0.1–0.2 s) and on `gpukb export answers --json` (json's
indenting encoder is pure Python: ≈ 4 s CPU for the 112 MB).

The two write the same bytes for every value json writes with finite numbers: texts (every character written or
escaped alike: tests/test_jsonbytes.py), whole numbers, booleans, None, lists, tuples, mappings with text keys (dict
subclasses such as kb.text.Text included), keys sorted by code point. Where they differ, json's text is taken:
- orjson refuses what it cannot write as json would (a key that is no text, a whole number beyond 64 bits, a text
  with a lone surrogate, a tuple or float subclass, nesting deeper than 255): json writes it (or fails) as before;
- a float of magnitude below 1e-4: orjson writes `0.00001` / `1e-7` where json writes `1e-05` / `1e-07` (from
  1e-10 down both write `1e-10`); orjson's output holding `0.0000` or a digit, `e-` and one digit (`_written_alike`:
  ≈ 0.1 s for the 79 MB; text that looks like such a number only costs json's time) sends the value to json.
Not covered: NaN and ±infinity (json writes `NaN`, which is no JSON; orjson `null`) — the site's data holds none:
the catalog's numbers are whole and the one float an answer computes is a rounded quotient of whole numbers
(kb.questions.resource: client_memory_gb). Values json cannot write at all (a dataclass, an enum, a date), orjson
may write.
"""

from __future__ import annotations

import json
import re

try:
    import orjson
except ImportError:  # (the build without the docs extra: the same bytes, slower)
    orjson = None

#: a negative exponent of one digit (`1e-7`, json: `1e-07`; a literal start, quick to search)
_EXPONENT = re.compile(rb"e-[1-9](?![0-9])")


def _written_alike(out: bytes) -> bool:
    """Whether orjson's `out` holds no float that json writes otherwise (`0.0000…`, or a digit before `e-` and one
    digit); text that looks like one counts as one."""
    if b"0.0000" in out:
        return False
    return not any(out[m.start() - 1:m.start()].isdigit() for m in _EXPONENT.finditer(out))


def _orjson(value, option: int) -> bytes | None:
    """orjson's text of `value`, or None where it refuses or writes a float otherwise than json."""
    try:
        out = orjson.dumps(value, option=option)
    except TypeError:  # (orjson.JSONEncodeError is one)
        return None
    return out if _written_alike(out) else None


def dumps(value, *, sort_keys: bool = False, newline: bool = False) -> bytes:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)` as UTF-8 bytes, and a
    newline after it with `newline` (written by orjson with the text, not appended to a copy: the JSON API's 79 MB
    copied once more cost its process ≈ 20,000 page faults)."""
    if orjson is not None:
        out = _orjson(value, (orjson.OPT_SORT_KEYS if sort_keys else 0) | (orjson.OPT_APPEND_NEWLINE if newline else 0))
        if out is not None:
            return out
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    return (text + "\n" if newline else text).encode("utf-8")


def dumps_indented(value, *, sort_keys: bool = False) -> bytes:
    """`json.dumps(value, ensure_ascii=False, indent=2, sort_keys=sort_keys)` as UTF-8 bytes (no newline at the end)."""
    if orjson is not None:
        out = _orjson(value, orjson.OPT_INDENT_2 | (orjson.OPT_SORT_KEYS if sort_keys else 0))
        if out is not None:
            return out
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=sort_keys).encode("utf-8")
