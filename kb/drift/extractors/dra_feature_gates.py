"""DRA driver feature gates (kubernetes-sigs/dra-driver-nvidia-gpu `site/content/docs/reference/feature-gates.md`):
every gate of the "Available feature gates" table with its stage (Alpha, Beta, GA) and default.

The table is Markdown: `| Feature gate | Stage | Default | Description |`, gate and default in backticks.
Columns are found by their header, so a reordered or widened table reads the same.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.lint.snapshots import normalise as plain

ID = "dra-feature-gates"

SECTION = "available feature gates"
_STAGES = {"alpha": "alpha", "beta": "beta", "ga": "ga", "stable": "ga", "generally available": "ga",
           "deprecated": "deprecated"}


def extract(text: str) -> dict:
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if re.match(r"^#{1,6}\s+" + SECTION + r"\s*$", line.strip(), re.I)),
              None)
    if at is None:
        raise ExtractError(f"no section titled {SECTION!r}")
    rows = []
    for line in lines[at + 1:]:
        s = line.strip()
        if s.startswith("#"):
            break
        if s.startswith("|"):
            rows.append([c.strip() for c in s.strip("|").split("|")])
    if len(rows) < 3:
        raise ExtractError("the feature gate table has no rows")
    head = [plain(c).lower() for c in rows[0]]
    try:
        gate_c, stage_c, default_c = head.index("feature gate"), head.index("stage"), head.index("default")
    except ValueError:
        raise ExtractError(f"the feature gate table has no 'Feature gate', 'Stage' and 'Default' columns: {head}") from None
    desc_c = head.index("description") if "description" in head else None
    gates = []
    for row in rows[2:]:  # rows[1] is the |---| line
        if len(row) <= max(gate_c, stage_c, default_c):
            raise ExtractError(f"a feature gate row has too few cells: {row}")
        name = plain(row[gate_c])
        stage = _STAGES.get(plain(row[stage_c]).lower())
        default = plain(row[default_c]).lower()
        if not re.fullmatch(r"[A-Z][A-Za-z0-9]+", name) or stage is None or default not in ("true", "false"):
            raise ExtractError(f"unexpected feature gate row: {row}")
        gates.append({"gate": name, "stage": stage, "default": default == "true",
                      "description": plain(row[desc_c]) if desc_c is not None and desc_c < len(row) else ""})
    return {"gates": gates}
