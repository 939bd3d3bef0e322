"""GPU Operator component matrix (`gpu-operator/life-cycle-policy.rst`): the operator releases it describes
and the default version of every component in each.

Since December 2025 the matrix is a `flat-table` with two header rows: the second names the releases
("v26.3.0 … v26.3.3", one column each) and a version cell may span several releases (`:cspan:`).
Before, it was a `list-table` for one release written `${version}` (the documentation's current
release, set in repo.toml): read then as release None; in 2023 a `list-table` with one row per release and
one column per component ("Release | NVIDIA GPU Driver | …"). A component cell may wrap as a line block; the
driver cell lists several drivers, the default marked "(**R**, **D**)" ("(default, recommended)"
before). Component names map to catalog component ids like the release notes' names do.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.drift.extractors import rst
from kb.drift.extractors.release_notes import component_ids
from kb.lint.snapshots import normalise as plain

ID = "component-matrix"

SECTION = "GPU Operator Component Matrix"
_VERSION = re.compile(r"v?(\d+(?:\.\d+)+(?:-\d+(?:\.\d+)*)?)")
_DEFAULT = re.compile(r"\((?:[^)]*\bD\b|[^)]*\bdefault\b)[^)]*\)")


def extract(text: str) -> dict:
    """{"releases": [release or None, …], "release": the newest of them, "components": [{name, component,
    version, versions?}] of that newest release, "columns": {release: [components]}}."""
    lines = text.splitlines()
    start, body = rst.section(lines, SECTION)
    tables = rst.directives(body, "flat-table") or rst.directives(body, "list-table")
    if not tables:
        raise ExtractError(f"section {SECTION!r} has no flat-table or list-table")
    table = rst.parse_list_table(body, tables[0][0], start)
    grid = rst.span_grid(table)
    heads = [g for g, r in zip(grid, table.rows) if r.header]
    rows = [(g, r) for g, r in zip(grid, table.rows) if not r.header]
    if not heads or not rows:
        raise ExtractError("the component matrix has no header or no rows")
    if plain(" ".join(heads[-1][0] or [])).lower() == "release":
        return _by_release(heads[-1], rows)
    releases, where = _releases(heads)
    columns: dict = {}
    for k, release in zip(where, releases):
        components = []
        for cells, row in rows:
            if cells[0] is None:
                raise ExtractError(f"line {row.line + 1}: matrix row without a component cell")
            if k >= len(cells) or cells[k] is None:
                continue  # a short row (no :cspan:) states nothing for the later releases
            entry = _entry(cells[0], cells[k])
            if entry:
                components.append(entry)
        if not components:
            raise ExtractError(f"the component matrix lists no component versions for {release or '${version}'}")
        columns[release] = components
    from kb.versions import key as version_key

    known = [r for r in releases if r]
    newest = max(known, key=version_key) if known else None
    return {"releases": releases, "release": newest, "components": columns[newest], "columns": columns}


def _by_release(head: list, rows: list) -> dict:
    """The 2023 layout, one row per release ("v23.9.0") and one column per component."""
    from kb.versions import key as version_key

    columns: dict = {}
    for cells, row in rows:
        m = _VERSION.fullmatch(plain(" ".join(cells[0] or [])))
        if not m:
            raise ExtractError(f"line {row.line + 1}: a matrix row names no GPU Operator release")
        columns[m.group(1)] = [e for k in range(1, len(cells)) if cells[k] is not None and k < len(head)
                               and head[k] is not None and (e := _entry(head[k], cells[k]))]
    if not columns:
        raise ExtractError("the component matrix lists no release")
    newest = max(columns, key=version_key)
    return {"releases": list(columns), "release": newest, "components": columns[newest], "columns": columns}


def _releases(heads: list[list]) -> tuple[list[str | None], list[int]]:
    """The release of each version column ("26.3.1", or None for the one-release form with a "Version"
    header) and the columns' indices. A header slot no cell fills (a spanning title one column too wide,
    as in December 2025) is no release."""
    last = heads[-1]
    if len(heads) == 1:
        label = plain(" ".join(last[1] or [])) if len(last) > 1 else ""
        if len(last) == 2 and label.lower() == "version":
            return [None], [1]
    found, where = [], []
    for k, cell in enumerate(last[1:], start=1):
        if cell is None:
            continue
        label = plain(" ".join(cell))
        m = _VERSION.fullmatch(label)
        if not m:
            raise ExtractError(f"the matrix header names no GPU Operator release in {label!r}")
        found.append(m.group(1))
        where.append(k)
    if not found or len(set(found)) != len(found):
        raise ExtractError(f"the matrix header names no release or one twice: {found}")
    return found, where


def _entry(name_cell: list[str], cell: list[str]) -> dict | None:
    name = plain(rst.drop_substitutions(" ".join(t for t, _ in rst.cell_items(name_cell))))
    versions, default = [], None
    for item, _k in rst.cell_items(cell):
        text = plain(item)
        m = _VERSION.match(text)
        if not m:
            continue
        versions.append(m.group(1))
        if _DEFAULT.search(text):
            default = m.group(1)
    if not versions:
        return None  # e.g. "${version}" for the validator: the release itself
    entry = {"name": name, "component": (component_ids(name) or [None])[0], "version": default or versions[0]}
    if len(versions) > 1:
        entry["versions"] = versions
    return entry
