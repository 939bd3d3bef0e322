"""catalog/verdict-changes.yaml has the newest data version's verdict changes as the engine gives them today: the
site build reads that entry instead of computing the older catalog's every answer (kb/site/changes.py)."""

from __future__ import annotations

import pytest

from kb.catalog.compiled import catalog_dir, load_data
from kb.site import changes
from realmatrix import matrix


def test_the_newest_data_versions_verdict_changes_are_recorded_as_the_engine_gives_them():
    data = load_data()
    step = changes.newest_step(data)
    if step is None:
        pytest.skip("no older data version in git's history here (no git, or a shallow clone): nothing to compare")
    version, before, end = step
    computed = changes.verdicts_since(end, matrix(data))
    assert computed is not None, f"the catalog of data version {before} (commit {end}) cannot be read or evaluated"
    found = changes.recorded(catalog_dir(), version, before)
    assert found is not None, (f"catalog/{changes.RECORD} has no entry for data version {version} against {before}: run "
                               "scripts/record-verdicts")
    assert found == computed, f"catalog/{changes.RECORD} is out of date for data version {version}: run scripts/record-verdicts"
