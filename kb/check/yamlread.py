"""YAML of any size, read by libyaml, keeping the line of every key and list item — in time linear in the text.

libyaml (inside PyYAML's wheel, `yaml.CSafeLoader`) composes the node tree; `Builder` turns each document
into plain data (dict, list, str, int, float, bool, None) and records lines *beside* the data: one list of
lines per mapping (in key order) and per sequence, keyed by the container's id. A line is looked up only when
a finding or a refusal needs it (`YamlLines.line(root, path)`), by walking the data along the path — nothing is
re-scanned per object, so a 20,000-item `kind: List` costs what its text costs.

Guards:
- duplicate keys are problems (Kubernetes rejects them; YAML readers silently keep one value);
- aliases are not copied: an aliased node becomes the same Python object. What is counted is the number of
  values aliases *add* (the size of the aliased subtree, at each use, merges included); past
  `MAX_ALIAS_VALUES` the document is refused ("billion laughs"), however small its text. Honest files that
  use anchors now and then stay far below the limit, whatever their size;
- nesting deeper than libyaml's limit (1,000) is refused by libyaml itself.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from kb.text import Text

#: values that aliases may add to one document (expanded size of aliased nodes, summed over their uses)
MAX_ALIAS_VALUES = 1_000_000

_STR = "tag:yaml.org,2002:str"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
#: scalar tags whose values the checks keep as typed values; every other tag (timestamps, binary, local
#: tags such as `!vault`) keeps its text
_TYPED = {"tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}
#: an alias token can only start with '*' after one of these (or at the start of a line)
_ALIAS = re.compile(r"(?:^|[\s,\[{:\-?])\*[^\s,\[\]{}]", re.M)


class AliasBomb(ValueError):
    """A document whose aliases expand without end (or into themselves); `text` says which, in both languages."""

    def __init__(self, text: Text):
        super().__init__(text.en)
        self.text = text


_TOO_MANY = Text(f"aliases add more than {MAX_ALIAS_VALUES:,} values (a YAML alias bomb?)",
                 f"Aliase fügen mehr als {MAX_ALIAS_VALUES:,} Werte hinzu (eine YAML-Alias-Bombe?)".replace(",", "."))
_RECURSIVE = Text("an alias refers to the node that contains it (a recursive YAML alias)",
                  "ein Alias verweist auf den Knoten, der ihn enthält (ein rekursiver YAML-Alias)")


class YamlLines:
    """Lines of one parsed YAML text: `of[id(container)]` lists the lines of its keys (mapping, in key order)
    or items (sequence); `styles` marks block scalars (`|`, `>`) by (id(container), key)."""

    __slots__ = ("of", "styles", "root_line")

    def __init__(self, root_line: int):
        self.of: dict = {}
        self.styles: dict = {}
        self.root_line = root_line

    def line(self, data, path: tuple) -> int | None:
        """Line of the field `path` inside `data` (or of its nearest parent that has one)."""
        line = self.root_line
        node = data
        for part in path:
            lines = self.of.get(id(node))
            if lines is None:
                return line
            if isinstance(node, dict):
                if part not in node:
                    return line
                for i, key in enumerate(node):
                    if key == part and type(key) is type(part):
                        break
                else:
                    return line
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                i = part
            else:
                return line
            if i < len(lines):
                line = lines[i]
            node = node[part]
        return line

    def style(self, data, path: tuple) -> str | None:
        """'|' or '>' where the scalar at `path` is a block scalar, else None."""
        if not path:
            return None
        node = data
        for part in path[:-1]:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return None
        return self.styles.get((id(node), path[-1]))


class Builder:
    """Plain data from the node tree of one document, lines recorded in `lines`."""

    def __init__(self, lines: YamlLines, aliases_possible: bool):
        self.lines = lines
        self.constructor = yaml.SafeLoader("")
        self.duplicates: list[tuple[tuple, int, int]] = []  # (path of the key, line, line of the first)
        self.memo: dict | None = {} if aliases_possible else None
        self.sizes: dict = {}
        self.count = 0
        self.added = 0

    # --- aliases ---------------------------------------------------------------------------------------------
    def _reuse(self, node):
        """The value already built for an aliased node (None if not built yet); counts what the alias adds."""
        key = id(node)
        if key not in self.memo:
            return None
        if key not in self.sizes:
            raise AliasBomb(_RECURSIVE)
        size = self.sizes.get(key, 1)
        self.added += size
        self.count += size  # sizes are expanded sizes: an alias inside an aliased node counts at each use
        if self.added > MAX_ALIAS_VALUES:
            raise AliasBomb(_TOO_MANY)
        return self.memo[key]

    # --- building --------------------------------------------------------------------------------------------
    def build(self, node, path: tuple = ()) -> Any:
        memo = self.memo
        if memo is not None and not isinstance(node, yaml.ScalarNode):
            found = self._reuse(node)
            if found is not None:
                return found[0]
            before = self.count
        self.count += 1
        if isinstance(node, yaml.MappingNode):
            value = self._mapping(node, path)
        elif isinstance(node, yaml.SequenceNode):
            items = []
            lines = []
            if memo is not None:
                memo[id(node)] = (items,)
            self.lines.of[id(items)] = lines
            build = self.build
            for i, item in enumerate(node.value):
                lines.append(item.start_mark.line + 1)
                if isinstance(item, yaml.ScalarNode):
                    self.count += 1
                    items.append(item.value if item.tag == _STR else self.scalar(item))
                else:
                    items.append(build(item, path + (i,)))
            value = items
        else:
            return self.scalar(node)
        if memo is not None:
            self.sizes[id(node)] = self.count - before
        return value

    def scalar(self, node) -> Any:
        tag = node.tag
        if tag == _STR:
            return node.value
        if tag in _TYPED:
            return self.constructor.yaml_constructors[tag](self.constructor, node)
        return node.value

    def _key(self, node) -> Any:
        if isinstance(node, yaml.ScalarNode):
            key = self.scalar(node)
        else:
            key = repr(self.build(node, ()))
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            key = str(key)
        return key

    def _mapping(self, node, path: tuple) -> dict:
        out: dict = {}
        lines: list = []
        if self.memo is not None:
            self.memo[id(node)] = (out,)
        self.lines.of[id(out)] = lines
        styles = self.lines.styles
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merges.append(value_node)
                continue
            key = key_node.value if (key_node.tag == _STR and isinstance(key_node, yaml.ScalarNode)) else self._key(key_node)
            line = key_node.start_mark.line + 1
            if key in out:
                self.duplicates.append((path + (key,), line, lines[list(out).index(key)]))
                continue
            if isinstance(value_node, yaml.ScalarNode):
                self.count += 1
                if value_node.tag == _STR:
                    out[key] = value_node.value
                    if value_node.style in ("|", ">"):
                        styles[(id(out), key)] = value_node.style
                else:
                    out[key] = self.scalar(value_node)
            else:
                out[key] = self.build(value_node, path + (key,))
            lines.append(line)
        if merges:
            self._merge(out, lines, merges, path)
        return out

    def _merge(self, out: dict, lines: list, merges: list, path: tuple) -> None:
        """YAML merge keys (`<<: *base` or `<<: [*a, *b]`): explicit keys win, then the sources in order."""
        sources = []
        for value_node in merges:
            nodes = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for n in nodes:
                if not isinstance(n, yaml.MappingNode):
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping", None, "expected a mapping for merging", n.start_mark)
                built = self.build(n, path)
                self.added += len(built)
                if self.added > MAX_ALIAS_VALUES:
                    raise AliasBomb(_TOO_MANY)
                sources.append(built)
        merged: dict = {}
        merged_lines: list = []
        for src in sources:
            src_lines = self.lines.of.get(id(src), [])
            for i, (k, v) in enumerate(src.items()):
                if k not in merged and k not in out:
                    merged[k] = v
                    merged_lines.append(src_lines[i] if i < len(src_lines) else None)
        if merged:
            own = list(out.items())
            out.clear()
            out.update(merged)
            out.update(own)
            lines[:] = merged_lines + lines


def aliases_possible(text: str) -> bool:
    return "*" in text and _ALIAS.search(text) is not None


def compose_all(text: str):
    """(document node or None for an empty document) for each document, parsed by libyaml."""
    loader = yaml.CSafeLoader(text)
    try:
        while loader.check_node():
            yield loader.get_node()
    finally:
        loader.dispose()
