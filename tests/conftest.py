"""Shared test setup: every test gets its own cache folder; paths to fixtures and ../shared."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SHARED = REPO.parent / "shared"
SOURCES = SHARED / "sources"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path_factory.mktemp("gpukb-cache")))


def need_sources() -> Path:
    """../shared/sources, or skip the test saying why."""
    if not SOURCES.is_dir():
        pytest.skip(f"../shared/sources not found at {SOURCES}: the real NVIDIA snapshots are needed for this test")
    return SOURCES
