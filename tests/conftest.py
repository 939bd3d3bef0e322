"""Shared test setup: every test gets its own cache folder; paths to fixtures and ../shared."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
SHARED = REPO.parent / "shared"
SOURCES = SHARED / "sources"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path_factory.mktemp("gpukb-cache")))


@pytest.fixture
def drift_catalog(tmp_path, monkeypatch):
    """The drift fixture catalog (tests/fixtures/drift/catalog plus the real platform-support.yaml) in use."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "drift" / "catalog", root)
    shutil.copy(REPO / "catalog" / "platform-support.yaml", root / "platform-support.yaml")
    monkeypatch.setenv("GPUKB_CATALOG", str(root))
    # the fixture catalog has cards, not every method: only the MIG question's rules resolve against it
    monkeypatch.setattr("kb.questions.QUESTIONS", ("mig",))
    return root


def need_sources() -> Path:
    """../shared/sources, or skip the test saying why."""
    if not SOURCES.is_dir():
        pytest.skip(f"../shared/sources not found at {SOURCES}: the real NVIDIA snapshots are needed for this test")
    return SOURCES


@pytest.fixture
def old_platform(tmp_path):
    """An offline folder whose only platform-support snapshot is the page of 2025-10-27."""
    folder = tmp_path / "offline"
    (folder / "cloud-native-docs").mkdir(parents=True)
    shutil.copy(need_sources() / "cloud-native-docs/platform-support@2025-10-27.rst",
                folder / "cloud-native-docs/platform-support@2025-10-27.rst")
    return folder
