"""Releases of the standalone DRA driver (catalog/releases/dra-driver.yaml, `standalone: true`): imported at each
release tag of a clone of kubernetes-sigs/dra-driver-nvidia-gpu (kb/importer/dra.py; $GPUKB_MIRROR or ../.mirror,
skipped with the reason without it), and `gpukb ask dra --dra-driver V` telling them from the operator-managed
driver."""

from __future__ import annotations

import json
import subprocess

import pytest
from click.testing import CliRunner

from kb.catalog.yamlsafe import safe_load  # libyaml: PyYAML's values for a file the catalog's checks read
from kb.cli.main import cli
from kb.importer import dra
from kb.lint.snapshots import normalise

from conftest import MIRROR, REPO

FILE = REPO / "catalog" / "releases" / "dra-driver.yaml"
CLONE = MIRROR / "kubernetes-sigs+dra-driver-nvidia-gpu" / "repo"


def clone():
    if not CLONE.is_dir():
        pytest.skip(f"no mirror of kubernetes-sigs/dra-driver-nvidia-gpu at {CLONE}: fetch it (search tool) to read "
                    "the DRA driver at its release tags")
    return CLONE


@pytest.fixture(scope="module")
def imported():
    return dra.standalone_releases(clone())


def test_the_committed_file_is_what_the_release_tags_say(imported):
    """Importing every release tag again changes nothing: each standalone release's date, requirements, feature
    gates and kubelet plugins are the tag's (hand-written changes and the operator-managed 0.5.0 kept)."""
    text = FILE.read_text(encoding="utf-8")
    assert dra.merge(text, imported) == (text, [], [])
    versions = [r["version"] for r in imported]
    assert versions == ["0.4.1", "0.4.0", "25.12.0", "25.8.1", "25.8.0", "25.3.2", "25.3.1", "25.3.0"]
    by = {r["version"]: r for r in imported}
    assert by["0.4.1"]["requirements"]["min_kubernetes"]["value"] == "1.34.2"
    assert [c["value"] for c in by["0.4.1"]["requirements"]["min_kubernetes"]["disputed_by"]] == ["1.32"]
    assert by["25.8.0"]["requirements"]["min_kubernetes"]["value"] == "1.32"
    assert (by["0.4.0"]["requirements"]["min_driver"]["value"],
            by["0.4.0"]["requirements"]["min_driver_compute_domains"]["value"]) == ("565", "570.158.01")
    assert "min_driver" not in by["25.12.0"]["requirements"]
    gates = {v: {g["name"] for g in r.get("feature_gates", [])} for v, r in by.items()}
    assert gates["25.3.2"] == set() and {"MPSSupport", "TimeSlicingSettings"} <= gates["25.8.0"]
    assert "DynamicMIG" not in gates["25.8.1"] and "DynamicMIG" in gates["25.12.0"]
    assert {p["id"]: p["status"]["value"] for p in by["25.3.0"]["kubelet_plugins"]} == {
        "gpu": "not-officially-supported", "compute-domain": "supported"}


def test_every_quote_stands_at_its_tag_and_line():
    git = clone()
    checked = 0

    def cites(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "cite":
                    yield from value
                else:
                    yield from cites(value)
        elif isinstance(node, list):
            for item in node:
                yield from cites(item)

    for cite in cites(safe_load(FILE.read_text(encoding="utf-8"))["releases"]):
        if cite["source"] != dra.SOURCE:
            continue
        tag, _, rest = cite["page"].removeprefix("blob/").partition("/")
        path, _, line = rest.partition("#L")
        lines = subprocess.run(["git", "--git-dir", str(git), "show", f"{tag}:{path}"], capture_output=True,
                               text=True, check=True).stdout.splitlines()
        assert normalise(cite["quote"]) in normalise(lines[int(line) - 1]), cite
        checked += 1
    assert checked >= 100


def test_releases_renumbered_stay_newest_first_by_date():
    """v25.12.0 (February 2026) is older than 0.4.0 (May 2026): the file is ordered by date, lint accepts it."""
    rels = safe_load(FILE.read_text(encoding="utf-8"))["releases"]
    dated = [r for r in rels if r.get("date")]
    assert [str(r["date"]["value"]) for r in dated] == sorted((str(r["date"]["value"]) for r in dated), reverse=True)
    assert rels[0]["version"] == "0.5.0" and not rels[0].get("standalone")


def ask(*args):
    result = CliRunner().invoke(cli, ["ask", "dra", *args, "--json"])
    return result.exit_code, json.loads(result.output)


def _rules(answer):
    return [r["rule"] for r in answer["reasons"]]


@pytest.mark.parametrize("args, verdict, rules, absent", [
    # DynamicMIG first appears in v25.12.0: the gate's absence is the code's no
    (("--dra-driver", "25.8.0", "--k8s", "1.33.4", "--feature", "dynamic-mig"), "no", ["DRA-009", "DRA-011"],
     ["DRA-006", "DRA-016"]),
    # the release's own DynamicMIG gate (alpha) is cited, not the operator's maturity table (DRA-006)
    (("--dra-driver", "25.12.0", "--k8s", "1.33.4", "--feature", "dynamic-mig"), "conditional", ["DRA-016", "DRA-011"],
     ["DRA-009", "DRA-006"]),
    # v25.3.x defines no feature gates at all: whether it has MPS is not documented
    (("--dra-driver", "25.3.2", "--k8s", "1.33.4", "--feature", "mps"), "unconfirmed", ["DRA-010"], ["DRA-009"]),
    # the release's own Kubernetes minimum: 1.32 for v25.8.0, 1.34.2 for 0.4.1
    (("--dra-driver", "25.8.0", "--k8s", "1.33.0", "--feature", "compute-domains"), "conditional", ["DRA-002", "DRA-014"],
     ["DRA-001", "DRA-011"]),
    (("--dra-driver", "0.4.1", "--k8s", "1.33.0", "--feature", "compute-domains"), "no", ["DRA-001", "DRA-013"], ["DRA-014"]),
    (("--dra-driver", "v0.4.1", "--k8s", "1.34.2", "--feature", "whole-gpu"), "conditional", ["DRA-011", "DRA-012"],
     ["DRA-005", "DRA-008"]),
])
def test_a_standalone_release_answers_with_its_own_requirements(args, verdict, rules, absent):
    code, answer = ask(*args)
    assert code == 0
    assert answer["verdict"] == verdict
    assert set(rules) <= set(_rules(answer)) and not set(absent) & set(_rules(answer)), _rules(answer)
    assert answer["inputs"]["install"] == "standalone"
    assert answer["details"]["dra_driver"] == args[1].removeprefix("v")


def test_the_answer_says_which_driver():
    _, managed = ask("--operator", "26.7.0", "--k8s", "1.34.2")
    assert managed["details"]["dra_driver"] == "0.5.0"
    assert managed["summary"].startswith("Conditional: NVIDIA's DRA driver 0.5.0, managed by GPU Operator 26.7.0,")
    _, alone = ask("--dra-driver", "25.8.0", "--k8s", "1.34.2", "--lang", "de")
    assert alone["summary"].startswith("Bedingt: NVIDIAs DRA-Treiber 25.8.0, eigenständig mit seinem Helm-Chart "
                                             "installiert,")
    reason = next(r for r in alone["reasons"] if r["rule"] == "DRA-011")
    assert reason["text"].startswith("Das README des DRA-Treibers 25.8.0 sagt,")
    assert reason["citations"][0]["url"].endswith("/blob/v25.8.0/README.md#L38")
    _, current = ask("--install", "standalone", "--k8s", "1.34.2")
    assert "dra_driver" not in current["details"] and "DRA-008" in _rules(current)


def test_a_standalone_release_says_ga_with_its_own_document_not_the_operators():
    """ComputeDomains are GA in v25.8.0 because that release's README supports the compute-domain kubelet plugin:
    the reason cites the release's own file at its tag (DRA-015), not the GPU Operator's maturity table (DRA-005)."""
    _, alone = ask("--dra-driver", "25.8.0", "--k8s", "1.34.2", "--feature", "compute-domains")
    assert "DRA-015" in _rules(alone) and "DRA-005" not in _rules(alone)
    reason = next(r for r in alone["reasons"] if r["rule"] == "DRA-015")
    assert reason["text"] == "DRA support for ComputeDomains (Multi-Node NVLink) is generally available (GA) in NVIDIA's DRA driver 25.8.0."
    assert {c["source"] for c in reason["citations"]} == {"dra-driver-code"}
    assert all("/v25.8.0/" in c["url"] for c in reason["citations"]), reason["citations"]
    _, managed = ask("--operator", "26.7.0", "--k8s", "1.34.2", "--feature", "compute-domains")
    ga = next(r for r in managed["reasons"] if r["rule"] == "DRA-005")
    assert {c["source"] for c in ga["citations"]} >= {"gpu-operator-dra"} and "DRA-015" not in _rules(managed)


@pytest.mark.parametrize("args, words", [
    (("--dra-driver", "0.5.0", "--k8s", "1.34.2"), "unknown standalone DRA driver release '0.5.0'"),
    (("--dra-driver", "25.8.0", "--install", "operator", "--k8s", "1.34.2"), "--dra-driver names a release of the DRA "
                                                                               "driver installed on its own"),
])
def test_a_release_that_is_no_standalone_one_exits_2(args, words):
    code, answer = ask(*args)
    assert code == 2 and words in answer["error"]
