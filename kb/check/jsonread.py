"""JSON of any size, read by the C `json` module; lines found only where a finding needs one.

`json.loads` keeps no positions. `JsonLines.line(path)` finds a field's line in the text when asked: it walks
the text along the path, skipping the values it passes with the C decoder (`raw_decode`), and remembers the
offsets of every array's items the first time it descends into that array — so a finding on item 19,000 of
a dump costs one pass over that array, and every further finding in it almost nothing.
"""

from __future__ import annotations

import bisect
import json
import re

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_scanstring = json.decoder.scanstring


class Duplicates:
    """An object_pairs_hook that builds dicts and records the keys written twice (first value kept, as in
    Kubernetes' strict decoding the second is an error)."""

    def __init__(self):
        self.found: list[str] = []

    def __call__(self, pairs):
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set = set()
            for k, _ in pairs:
                if k in seen:
                    self.found.append(k)
                seen.add(k)
        return out


class JsonLines:
    """Lines of one JSON text, found lazily."""

    def __init__(self, text: str):
        self.text = text
        self._newlines: list[int] | None = None
        self._items: dict[int, list[int]] = {}
        self._asked = 0

    def _line_at(self, offset: int) -> int:
        """Counting newlines is fast (C); after a few dozen lookups a table of them is faster."""
        self._asked += 1
        if self._newlines is None and self._asked < 40:
            return self.text.count("\n", 0, offset) + 1
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        return bisect.bisect_left(self._newlines, offset) + 1

    def _ws(self, pos: int) -> int:
        return _WS.match(self.text, pos).end()

    def _skip(self, pos: int) -> int:
        """End of the JSON value starting at `pos`."""
        return _DECODER.raw_decode(self.text, pos)[1]

    def _member(self, pos: int, key) -> int | None:
        """Offset of `key` (its opening quote) in the object starting at `pos`; None where it is not there."""
        text = self.text
        pos = self._ws(pos + 1)
        while pos < len(text) and text[pos] == '"':
            name, end = _scanstring(text, pos + 1)
            value = self._ws(self._ws(end) + 1)  # past ':'
            if name == key:
                return pos
            pos = self._ws(self._skip(value))
            if pos < len(text) and text[pos] == ",":
                pos = self._ws(pos + 1)
            else:
                return None
        return None

    def _item(self, pos: int, index: int) -> int | None:
        offsets = self._items.get(pos)
        if offsets is None:
            offsets = []
            text = self.text
            p = self._ws(pos + 1)
            while p < len(text) and text[p] != "]":
                offsets.append(p)
                p = self._ws(self._skip(p))
                if p < len(text) and text[p] == ",":
                    p = self._ws(p + 1)
                else:
                    break
            self._items[pos] = offsets
        return offsets[index] if 0 <= index < len(offsets) else None

    def line(self, data, path: tuple) -> int | None:
        """Line of the field `path` (the line of its key, or of the list item); nearest parent where missing."""
        text = self.text
        try:
            pos = self._ws(0)
            mark = pos
            for part in path:
                if pos >= len(text):
                    break
                if text[pos] == "{" and isinstance(part, str):
                    found = self._member(pos, part)
                    if found is None:
                        break
                    mark = found
                    _, end = _scanstring(text, found + 1)
                    pos = self._ws(self._ws(end) + 1)
                elif text[pos] == "[" and isinstance(part, int):
                    found = self._item(pos, part)
                    if found is None:
                        break
                    mark = pos = found
                else:
                    break
            return self._line_at(mark)
        except (ValueError, IndexError):
            return None

    def style(self, data, path: tuple) -> None:
        return None

    def key_line(self, key: str, nth: int = 2) -> int | None:
        """Line of the nth occurrence of `"key":` in the text (where a duplicate key stands)."""
        pattern = re.compile(re.escape(json.dumps(key)) + r"\s*:")
        for i, m in enumerate(pattern.finditer(self.text), start=1):
            if i == nth:
                return self._line_at(m.start())
        return None


def loads(text: str):
    """(data, JsonLines, duplicate keys). Raises ValueError / RecursionError like json.loads."""
    dups = Duplicates()
    data = json.loads(text, object_pairs_hook=dups)
    return data, JsonLines(text), dups.found
