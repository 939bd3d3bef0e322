"""The exported JSON Schema is current, and every field of every model is described."""

from __future__ import annotations

import json

from conftest import REPO
from kb.schema import schemas


def test_exported_schema_is_current():
    folder = REPO / "catalog" / "schema"
    for name, schema in schemas().items():
        path = folder / name
        assert path.is_file(), f"{path} missing: run scripts/export_schema"
        assert json.loads(path.read_text(encoding="utf-8")) == schema, f"{name} is stale: run scripts/export_schema"


def _undescribed(schema: dict) -> list[str]:
    missing = []
    for defs_name, model in [("(root)", schema), *schema.get("$defs", {}).items()]:
        for field, spec in model.get("properties", {}).items():
            if "description" not in spec:
                missing.append(f"{defs_name}.{field}")
    return missing


def test_every_field_is_described():
    for name, schema in schemas().items():
        assert _undescribed(schema) == [], name
