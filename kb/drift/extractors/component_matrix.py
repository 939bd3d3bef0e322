"""GPU Operator component matrix (`gpu-operator/life-cycle-policy.rst`): the operator release it describes
and the default version of every component.

The matrix is a `flat-table` with two header rows (the second names the release, "v26.7.0"); a
component cell may wrap as a line block; the driver cell lists several drivers, the default marked
"(**R**, **D**)". Component names map to catalog component ids like the release notes' names do.
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


def extract(text: str) -> dict:
    lines = text.splitlines()
    start, body = rst.section(lines, SECTION)
    tables = rst.directives(body, "flat-table")
    if not tables:
        raise ExtractError(f"section {SECTION!r} has no flat-table")
    table = rst.parse_list_table(body, tables[0][0], start)
    heads = [r for r in table.rows if r.header]
    releases = [m.group(1) for r in heads[1:] for c in r.cells if (m := _VERSION.fullmatch(plain(" ".join(c))))]
    if len(releases) != 1:
        raise ExtractError(f"expected one GPU Operator release in the matrix header, found {releases or 'none'}")
    components = []
    for row in table.body():
        if len(row.cells) < 2:
            raise ExtractError(f"line {row.line + 1}: matrix row without a version cell")
        name = " ".join(t for t, _ in rst.cell_items(row.cells[0]))
        name = plain(rst.drop_substitutions(name))
        versions, default = [], None
        for item, _k in rst.cell_items(row.cells[1]):
            text = plain(item)
            m = _VERSION.match(text)
            if not m:
                continue
            versions.append(m.group(1))
            if re.search(r"\(.*\bD\b.*\)", text):
                default = m.group(1)
        if not versions:
            continue  # e.g. "${version}" for the validator: the release itself
        entry = {"name": name, "component": (component_ids(name) or [None])[0], "version": default or versions[0]}
        if len(versions) > 1:
            entry["versions"] = versions
        components.append(entry)
    if not components:
        raise ExtractError("the component matrix lists no component versions")
    return {"release": releases[0], "components": components}
