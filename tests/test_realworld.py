"""The real questions from NVIDIA's issue trackers (tests/realworld/questions.yaml): a case marked right must stay
right, a gap must be refused cleanly (exit 2), never answered wrong, and a known wrong answer fails the day it is
fixed so its status is updated. Every case is asked once, in this process (tests/realworld_cases.py)."""

from __future__ import annotations

import pytest

import realworld_cases as rw

CASES = rw.load()


@pytest.fixture(scope="module")
def answers():
    return {c["id"]: rw.run(c) for c in CASES}


#: the cases found after issue 10's 32: MPS and failRequestsGreaterThanOne (k8s-device-plugin#929, PR #1762), the MIG
#: Manager on RHEL 8 with a pre-installed driver (mig-parted#329, PR #345), a device-plugin ConfigMap outside the
#: operator's namespace (gpu-operator#412), chart values asking for a ConfigMap without data (gpu-operator#2641), a
#: layout added to the operator's default MIG ConfigMap (gpu-operator#384), a node GPU Feature Discovery labels
#: -MIG-INVALID (gpu-operator#603), one replica written for "not shared" (k8s-device-plugin#1022), a privileged
#: container that sees every GPU (k8s-device-plugin#1294), MPS in a hand-written DaemonSet without an MPS root
#: (k8s-device-plugin#1132)
ADDED = {"dp-929", "dp-1762-old", "dp-1762-new", "mp-329", "mp-329-fixed", "go-412", "go-2641", "go-384", "go-603",
         "dp-1022", "dp-1294", "dp-1132"}


def test_the_set_is_the_32_real_questions_with_evidence_and_those_found_since():
    assert len(CASES) == 32 + len(ADDED)
    assert len({c["id"] for c in CASES}) == len(CASES) and ADDED <= {c["id"] for c in CASES}
    for c in CASES:
        assert c["thread"].startswith(rw.TRACKERS), c["id"]
        assert c["status"] in rw.STATUSES and c["answer"] and c["asked"] and c["expect"], c["id"]
        assert c["status"] == "right" or c.get("why"), f"{c['id']}: a gap or wrong answer says why"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_real_question(case, answers):
    got, detail = rw.outcome(case, answers[case["id"]])
    want = {"right": "right", "gap": "refused", "wrong": "wrong"}[case["status"]]
    assert got == want, f"{case['id']} ({case['thread']}): {got}, recorded as {case['status']}: {detail}"


def test_the_judge_can_fail(answers):
    """A right case with its expectation turned around is judged wrong (the judge is not a rubber stamp), and a
    refusal where the case expects an answer is not counted as right."""
    case = next(c for c in CASES if c["id"] == "dp-713")
    assert rw.outcome({**case, "expect": {"verdict": "yes"}}, answers["dp-713"])[0] == "wrong"
    assert rw.outcome({**case, "expect": {"text": ["per CUDA process"]}}, answers["dp-713"])[0] == "wrong"
    check = next(c for c in CASES if c["id"] == "go-704-unset")
    assert rw.outcome({**check, "expect": {"findings": ["CHK-017"]}}, answers["go-704-unset"])[0] == "wrong"
    gap = next(c for c in CASES if c["status"] == "gap")
    assert rw.outcome(gap, answers[gap["id"]])[0] == "refused"
