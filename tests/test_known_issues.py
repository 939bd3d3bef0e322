"""Known issues with version ranges are data that rules evaluate (issue 10, class 5).

Evidence:
- GPU Operator release notes (snapshot cloud-native-docs/release-notes@2026-08-21.rst, 25.3.2 Known Issues):
  "For drivers 570.124.06, 570.133.20, 570.148.08, and 570.158.01, GPU workloads cannot be scheduled on nodes
  that have a mix of MIG slices and full GPUs. … NVIDIA recommends that you upgrade the driver to version
  570.172.08 to avoid this issue."
- https://github.com/NVIDIA/gpu-operator/issues/1361, maintainer (2025-08-11): "The driver `575.57.08` was
  released before `570.172.08`, so it will not have the fix. … the driver container for `580.65.06` … will also
  have the fix for this bug".
- Same release notes, 25.10.0 Known Issues: "When using MIG-backed vGPU on the RTX Pro 6000 Blackwell Server
  Edition, the vgpu-device-manager will fail to configure nodes with the default vgpu-device-manager configuration."
"""

from __future__ import annotations

import pytest

from kb.catalog.compiled import load_data
from kb.questions import Asker, resolve
from kb.questions.known_issues import affected, all_issues, facts

from conftest import REPO, need_sources

ISSUE_1361 = "https://github.com/NVIDIA/gpu-operator/issues/1361"


@pytest.fixture(scope="module")
def asker():
    return Asker(load_data(REPO / "catalog"), engine="reference")


def ask(asker, question, **raw):
    return asker.answer(question, resolve(question, asker.index, **raw))


def rules_of(answer):
    return [r["rule"] for r in answer["reasons"]]


@pytest.mark.parametrize("driver, hit", [
    ("570.124.06", True), ("570.133.20", True), ("570.148.08", True), ("570.158.01", True),  # the release notes' four
    ("575.57.08", True),       # maintainer: released before the fix
    ("570.86.15", False),      # the older advice's downgrade target
    ("570.172.08", False), ("580.65.06", False), ("580.82.07", False),  # fixed
])
def test_driver_range_of_gpu_operator_1361(asker, driver, hit):
    issue = next(i for _, i in all_issues(asker.data) if i["id"] == "mixed-mig-and-full-gpu-pending")
    assert affected(driver, issue["affects"]) is hit
    assert issue["fixed_in"] == ["570.172.08", "580.65.06"]


def test_ask_mig_with_an_affected_driver_says_so_with_workaround_and_fix(asker):
    answer = ask(asker, "mig", card="H200 NVL", driver="570.148.08")
    assert answer["verdict"] == "conditional"
    reason = next(r for r in answer["reasons"] if r["rule"] == "MIG-013")
    assert "570.172.08, 580.65.06" in reason["text"]["en"] and "Pending" in reason["text"]["en"]
    condition = next(c for c in answer["conditions"] if c["rule"] == "MIG-013")
    assert "Upgrade the driver to 570.172.08, 580.65.06 or later" in condition["text"]["en"]
    assert ISSUE_1361 in {c["url"] for c in reason["citations"]}


def test_ask_mig_with_a_fixed_driver_or_none_stays_quiet(asker):
    assert "MIG-013" not in rules_of(ask(asker, "mig", card="H200 NVL", driver="570.172.08"))
    assert "MIG-013" not in rules_of(ask(asker, "mig", card="H200 NVL"))


def test_ask_methods_with_an_affected_driver_carries_it_through_mig(asker):
    answer = ask(asker, "methods", card="H200 NVL", driver="570.158.01")
    assert answer["details"]["methods"]["mig"] == "conditional"


def test_a_node_mixing_mig_and_whole_gpus_on_an_affected_driver_does_not_work(asker):
    node = ["H200 NVL:all-1g.18gb", "L4"]
    bad = ask(asker, "strategy", gpus=node, driver="570.148.08")
    assert bad["verdict"] == "no" and "STR-007" in rules_of(bad)
    assert bad["details"]["strategy"] == "mixed"
    ok = ask(asker, "strategy", gpus=node, driver="580.65.06")
    assert ok["verdict"] == "yes" and "STR-007" not in rules_of(ok)
    no_driver = ask(asker, "strategy", gpus=node)
    assert "STR-007" not in rules_of(no_driver)
    # all GPUs in MIG: the issue does not bite, the driver's MIG answer still warns
    uniform = ask(asker, "strategy", gpus=["H200 NVL:all-1g.18gb", "H200 NVL:all-1g.18gb"], driver="570.148.08")
    assert "STR-007" not in rules_of(uniform) and uniform["verdict"] == "conditional"


def test_mig_backed_vgpu_issue_of_25_10_0_on_the_rtx_pro_6000_server(asker):
    old = ask(asker, "methods", card="RTX PRO 6000 Server Edition", operator="25.10.0")
    assert "METHODS-045" in rules_of(old)
    assert any("DC-1-2QGFX" in c["text"]["en"] for c in old["conditions"])
    assert "METHODS-045" not in rules_of(ask(asker, "methods", card="RTX PRO 6000 Server Edition", operator="26.7.0"))
    assert "METHODS-045" not in rules_of(ask(asker, "methods", card="H200 NVL", operator="25.10.0"))


def test_every_known_issue_of_the_catalog_has_a_range_a_trigger_and_a_workaround(asker):
    issues = all_issues(asker.data)
    assert len(issues) >= 2
    for _, issue in issues:
        assert issue["affects"] and issue["trigger"] and issue["workaround"]["en"] and issue["workaround"]["de"]


def test_status_is_unknown_without_a_version(asker):
    by_id = {f["issue"]: f for f in facts(asker.data, operator="26.7.0")}
    assert by_id["mixed-mig-and-full-gpu-pending"]["status"] == "unknown"
    assert by_id["mig-backed-vgpu-needs-gfx"]["status"] == "unaffected"


def test_the_release_notes_still_list_the_driver_issue():
    notes = (need_sources() / "cloud-native-docs" / "release-notes@2026-08-21.rst").read_text(encoding="utf-8")
    assert "For drivers 570.124.06, 570.133.20, 570.148.08, and 570.158.01," in notes
    assert "NVIDIA recommends that you upgrade the driver to version 570.172.08 to avoid this issue." in notes


@pytest.mark.parametrize("lang, heading, fixed", [("en", "### Known issues", "Fixed in"),
                                                  ("de", "### Bekannte Probleme", "Behoben in")])
def test_the_releases_page_lists_each_known_issue_under_its_component(lang, heading, fixed):
    """A customer reading the site learns of every known issue the catalog holds (not only `gpukb check`'s users):
    under the component whose releases file holds it, with the versions it affects, those that fix it and what to
    do, cited; a component without known issues gets no such section."""
    from kb.publication import publication
    from kb.site.page import Ctx
    from kb.site.releases import releases_page

    data = load_data(REPO / "catalog")
    page = releases_page(Ctx(data, lang, publication()))
    sections = {s.split("\n", 1)[0]: s for s in page.split("\n## ")[1:]}
    holding = {component for component, _issue in all_issues(data)}
    for component, file in data["releases"].items():
        section = sections[file["name"]]
        assert (heading in section) == (component in holding), component
    mig = sections[data["releases"]["mig-manager"]["name"]]
    table = mig[mig.index(heading):].split("\n\n", 2)[1]
    assert table.splitlines()[0].split(" | ")[2] == fixed
    row = table.splitlines()[2]
    assert "GLIBC 2.32" in row and "| NVIDIA MIG Manager for Kubernetes `0.13.1`–`0.14.0` | `0.14.1` |" in row
    assert "v0.12.3" in row.rsplit(" | ", 1)[1] and "[^" in row  # what to do, and the citations
