"""The daily drift workflow (.github/workflows/drift.yml): what it runs, when it touches the issue, and — run
with a stand-in `gh` — that people are notified only when the set of changes differs from the last report."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import REPO
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

WORKFLOW = REPO / ".github" / "workflows" / "drift.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yamlsafe.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(workflow: dict) -> dict:
    return {s.get("name") or s.get("uses"): s for s in workflow["jobs"]["drift"]["steps"]}


def test_runs_daily_and_checks_with_a_report_cut_for_an_issue_body(workflow):
    assert workflow[True]["schedule"][0]["cron"].endswith("* * *")  # PyYAML reads the key `on` as True
    run = steps(workflow)["Check the watched sources"]["run"]
    assert 'gpukb sources check --report drift-report.md --report-limit "$BODY_LIMIT" --json > drift.json' in run
    assert int(workflow["env"]["BODY_LIMIT"]) < 65536
    assert workflow["env"]["ISSUE_LABEL"] == "docs-drift"


def test_the_cache_is_saved_on_every_run(workflow):
    s = steps(workflow)
    assert s["Restore the HTTP cache"]["uses"].startswith("actions/cache/restore@")
    save = s["Save the HTTP cache"]
    assert save["uses"].startswith("actions/cache/save@") and save["if"] == "always()"
    assert save["with"]["path"] == s["Restore the HTTP cache"]["with"]["path"]


def test_internal_errors_and_unusable_input_never_touch_the_issue(workflow):
    s = steps(workflow)
    update = s["Open or update the drift issue; comment when the set of changes is new"]["if"]
    close = s["Close the drift issue when everything matches"]["if"]
    for code in ("2", "4"):
        assert f"code == '{code}'" not in update and f"code == '{code}'" not in close
    assert "code != '0' && steps.check.outputs.code != '1'" in s["Fail when something could not be checked or gpukb failed"]["if"]


def test_keep_alive_reenables_the_schedule(workflow):
    step = steps(workflow)["Keep the schedule alive"]
    assert "github.event_name == 'schedule'" in step["if"]
    assert "actions/workflows/drift.yml/enable" in step["run"] and "--method PUT" in step["run"]
    assert workflow["permissions"]["actions"] == "write"


# --- the issue step, run with a stand-in gh ---------------------------------------------------------------------
FAKE_GH = """#!/bin/sh
echo "$*" >> "$GH_LOG"
case "$1 $2" in
  "issue list") cat "$GH_STATE/number" 2>/dev/null ;;
  "issue view") cat "$GH_STATE/body" ;;
  "issue edit") shift 2; while [ $# -gt 0 ]; do [ "$1" = "--body-file" ] && cp "$2" "$GH_STATE/body"; shift; done ;;
  "issue create") echo 7 > "$GH_STATE/number"; shift 2; while [ $# -gt 0 ]; do [ "$1" = "--body-file" ] && cp "$2" "$GH_STATE/body"; shift; done ;;
esac
exit 0
"""


def run_issue_step(workflow: dict, tmp_path: Path, fingerprint: str, report: str = "# Drift\n") -> list[str]:
    if not shutil.which("bash"):
        pytest.skip("bash is needed to run the workflow's step")
    bin_dir, state = tmp_path / "bin", tmp_path / "state"
    bin_dir.mkdir(exist_ok=True)
    state.mkdir(exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(FAKE_GH)
    gh.chmod(0o755)
    log = tmp_path / "gh.log"
    log.write_text("")
    (tmp_path / "drift-report.md").write_text(report)
    script = steps(workflow)["Open or update the drift issue; comment when the set of changes is new"]["run"]
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "GH_LOG": str(log), "GH_STATE": str(state),
           "RUN_URL": "https://example.invalid/run/1", "FINGERPRINT": fingerprint,
           "ISSUE_LABEL": "docs-drift", "ISSUE_TITLE": "Documentation drift"}
    subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, check=True)
    return [line.split(" --")[0] for line in log.read_text().splitlines()]


def test_first_report_opens_the_issue(workflow, tmp_path):
    calls = run_issue_step(workflow, tmp_path, "aaa")
    assert "issue create" in calls and "issue comment 7" not in calls
    assert "<!-- drift-fingerprint: aaa -->" in (tmp_path / "state" / "body").read_text()


def test_same_set_of_changes_updates_quietly_a_new_set_comments(workflow, tmp_path):
    run_issue_step(workflow, tmp_path, "aaa")
    same = run_issue_step(workflow, tmp_path, "aaa", "# Drift, another day\n")
    assert "issue edit 7" in same and not any(c.startswith("issue comment") for c in same)
    assert "another day" in (tmp_path / "state" / "body").read_text()
    new = run_issue_step(workflow, tmp_path, "bbb")
    assert "issue edit 7" in new and "issue comment 7" in new


def test_the_check_step_passes_code_fingerprint_and_count_on(workflow, tmp_path):
    # a stand-in gpukb: exit 1 with a JSON whose summary counts one changed fact
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "gpukb"
    fake.write_text('#!/bin/sh\necho \'{"fingerprint": "f00", "summary": {"facts_changed": 1, "quotes_reworded": 2, '
                    '"notes": 0, "could_not_check": 0}}\'\necho "# report" > drift-report.md\nexit 1\n')
    fake.chmod(0o755)
    out, summary = tmp_path / "out", tmp_path / "summary"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "GITHUB_OUTPUT": str(out),
           "GITHUB_STEP_SUMMARY": str(summary), "BODY_LIMIT": "60000"}
    subprocess.run(["bash", "-e", "-c", steps(workflow)["Check the watched sources"]["run"]], cwd=tmp_path, env=env,
                   check=True)
    assert out.read_text().splitlines() == ["code=1", "fingerprint=f00", "changes=3"]
    assert summary.read_text() == "# report\n"
