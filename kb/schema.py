"""JSON Schema of each catalog file, exported from the pydantic models (for editors and CI)."""

from __future__ import annotations

import json
from pathlib import Path


def schemas() -> dict[str, dict]:
    """File name under catalog/schema/ → JSON Schema."""
    from kb.catalog.loader import LAYOUT

    names = {"SourcesFile": "sources", "Card": "card", "ReleasesFile": "releases", "Method": "method",
             "PlatformSupportFile": "platform-support"}
    out = {}
    for model in LAYOUT.values():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        out[f"{names.get(model.__name__, model.__name__.lower())}.schema.json"] = schema
    return out


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / name
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written
