"""One extractor per document kind. Each module has ID (the `watch.extractor` of catalog/sources.yaml)
and `extract(text) -> dict` (plain, JSON-able data), raising ExtractError where the document does not
have the structure the extractor knows (an unexpected format is never read as "nothing changed")."""

from __future__ import annotations

import importlib
from types import ModuleType

#: extractor id (as catalog/sources.yaml writes it) → module under kb.drift.extractors
EXTRACTORS = {
    "release-notes": "release_notes",
    "platform-support": "platform_support",
    "component-matrix": "component_matrix",
    "device-plugin-readme": "device_plugin_readme",
    "device-plugin-changelog": "changelog",
    "mig-parted-config": "mig_parted_config",
    "dra-prerequisites": "dra_prerequisites",
    "dra-feature-gates": "dra_feature_gates",
    "helm-chart": "helm_chart",
    "helm-values": "helm_values",
    "quotes-only": "quotes_only",
}


class ExtractError(ValueError):
    """The document does not look like the kind the extractor reads (heading, table or list missing)."""


def get(extractor_id: str) -> ModuleType:
    """The extractor module for an id; KeyError for an unknown id."""
    return importlib.import_module(f"kb.drift.extractors.{EXTRACTORS[extractor_id]}")
