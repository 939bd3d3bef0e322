"""What the device plugin really does, pinned to NVIDIA's code and maintainers (issue 10, classes 1–4 and 7).

Evidence (NVIDIA/k8s-device-plugin):
- internal/rm/rm.go:145 at v0.20.0 — `resourceName := strings.ReplaceAll("mig-"+p.String(), "+", ".")`
- PR #1807 / commit 0dfdfb979 (first in v0.20.0) — "patterns like '1g.24gb' to match '1g.24gb-me' via
  substring"; before it, internal/rm/device_map.go gave a MIG device to the first resource whose pattern matched
- api/config/v1/replicas.go:252 at v0.20.0 (line 210 at v0.12.0) — `return fmt.Errorf("number of replicas must be >= 2")`
- cmd/mps-control-daemon/mps/daemon.go:268 at v0.20.0 — `limits[index] = fmt.Sprintf("%vM", totalMemory/replicas/1024/1024)`
- issue #720 (https://github.com/NVIDIA/k8s-device-plugin/issues/720), maintainer: "Note that this memory
  limit is applied per CUDA client -- not per GPU replica"

The answers are computed on the real catalog; where a mirror of the repository exists (/work/.mirror, made by
the `fetch` tool) the catalog's code quotes are checked against the file at the tag they name.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from kb.catalog.compiled import load_data
from kb.questions import Asker, resolve
from kb.questions.behaviour import component_version, facts as behaviour_facts, status
from kb.questions.resource import mig_resource_name

from conftest import REPO

MIRRORS = Path(os.environ.get("GPUKB_MIRROR") or REPO.parent / ".mirror")
#: the source of NVIDIA's code → the mirror `fetch` makes of its repository
CODE_SOURCES = {"device-plugin-code": MIRRORS / "NVIDIA+k8s-device-plugin" / "repo",
                "gpu-operator-code": MIRRORS / "NVIDIA+gpu-operator" / "repo"}


@pytest.fixture(scope="module")
def asker():
    return Asker(load_data(REPO / "catalog"))  # durable (memoised per distinct engine input): the reference
    # evaluator gives the same answers (tests/test_engine_matrix.py) and took a minute for the resource matrix


def ask(asker, question, **raw):
    return asker.answer(question, resolve(question, asker.index, **raw))


# --- class 1: resource names ------------------------------------------------------------------------------

@pytest.mark.parametrize("profile, resource", [
    ("1g.24gb", "nvidia.com/mig-1g.24gb"),
    ("1g.24gb+gfx", "nvidia.com/mig-1g.24gb.gfx"),        # issue 10: not nvidia.com/mig-1g.24gb+gfx
    ("1g.24gb+me.all", "nvidia.com/mig-1g.24gb.me.all"),
    ("1g.24gb-me", "nvidia.com/mig-1g.24gb-me"),          # "-me" stays
    ("1g.18gb+me", "nvidia.com/mig-1g.18gb.me"),
])
def test_mig_resource_name_replaces_every_plus_with_a_dot(profile, resource):
    assert mig_resource_name(profile) == resource


@pytest.mark.parametrize("profile, resource", [
    ("1g.24gb+gfx", "nvidia.com/mig-1g.24gb.gfx"), ("1g.24gb+me.all", "nvidia.com/mig-1g.24gb.me.all"),
    ("1g.24gb-me", "nvidia.com/mig-1g.24gb-me"), ("2g.48gb+gfx", "nvidia.com/mig-2g.48gb.gfx"),
])
def test_ask_resource_names_variant_resources_as_the_device_plugin_does(asker, profile, resource):
    answer = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile=profile, mig_strategy="mixed",
                 operator="26.7.0")
    assert answer["details"]["resource"] == resource
    assert "+" not in answer["details"]["resource"]
    assert "RES-005" in [r["rule"] for r in answer["reasons"]]


def test_no_answer_of_the_matrix_names_a_resource_with_a_plus(asker):
    """Every resource answer of the real matrix (tests/realmatrix.py: computed once per run, ≈ 1.3 s CPU less than
    asking the resource question's ~4,000 inputs again here)."""
    from kb.questions import module

    from realmatrix import matrix

    answers = [a for a in matrix(asker.data) if a["question"] == "resource"]
    assert [a["inputs"] for a in answers] == module("resource").defaults(asker.index)
    bad = [(a["inputs"]["card"], a["inputs"]["operator"], a["inputs"]["profile"], a["details"]["resource"])
           for a in answers if a["details"]["resource"] and "+" in a["details"]["resource"]]
    assert bad == []


# --- class 2: version-bound behaviour -----------------------------------------------------------------------

def test_which_device_plugin_each_operator_release_ships(asker):
    data = asker.data
    assert component_version(data, "26.7.0", "device-plugin") == ("0.20.0", "26.7.0")
    assert component_version(data, "26.3.3", "device-plugin") == ("0.19.3", "26.3.3")
    # 26.3.1 lists no device plugin: it ships the one of the nearest older release that lists it
    assert component_version(data, "26.3.1", "device-plugin") == ("0.19.0", "26.3.0")


def test_behaviour_status_follows_since_and_until():
    assert status("0.19.3", "0.20.0", None) == "not-yet"
    assert status("0.20.0", "0.20.0", None) == "holds"
    assert status("0.21.0", "0.15.0", "0.21.0") == "no-longer"
    assert status(None, "0.20.0", None) == "unknown"


def test_variant_profiles_are_separate_resources_only_from_device_plugin_0_20_0(asker):
    """PR #1807: before v0.20.0, '1g.24gb' matched '1g.24gb+gfx' by substring. An answer for a release that
    ships an older plugin must not name a resource that does not exist there."""
    old = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile="1g.24gb+gfx", mig_strategy="mixed",
              operator="26.3.3")
    assert old["details"]["resource"] == "nvidia.com/mig-1g.24gb"
    assert old["verdict"] == "conditional"
    reason = next(r for r in old["reasons"] if r["rule"] == "RES-006")
    assert "v0.19.3" in reason["text"]["en"] and "nvidia.com/mig-1g.24gb.gfx does not exist there" in reason["text"]["en"]
    new = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile="1g.24gb+gfx", mig_strategy="mixed",
              operator="26.7.0")
    assert new["details"]["resource"] == "nvidia.com/mig-1g.24gb.gfx"
    assert "RES-006" not in [r["rule"] for r in new["reasons"]]


def test_a_plain_profile_is_the_same_resource_before_and_after_0_20_0(asker):
    for op in ("26.3.3", "26.7.0"):
        answer = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile="1g.24gb", mig_strategy="mixed",
                     operator=op)
        assert answer["details"]["resource"] == "nvidia.com/mig-1g.24gb"
        assert not {"RES-005", "RES-006", "RES-007"} & {r["rule"] for r in answer["reasons"]}


def test_time_slicing_of_a_variant_uses_the_name_of_the_release(asker):
    old = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile="1g.24gb+me.all", mig_strategy="mixed",
              time_slicing=2, rename_by_default=True, operator="26.3.3")
    new = ask(asker, "resource", card="RTX PRO 6000 Server Edition", profile="1g.24gb+me.all", mig_strategy="mixed",
              time_slicing=2, rename_by_default=True, operator="26.7.0")
    assert old["details"]["resource"] == "nvidia.com/mig-1g.24gb.shared"
    assert new["details"]["resource"] == "nvidia.com/mig-1g.24gb.me.all.shared"


def test_the_behaviour_facts_come_from_the_releases_files(asker):
    by_id = {(f["component"], f["statement"]): f for f in behaviour_facts(asker.data, "26.3.3")}
    assert by_id[("device-plugin", "mig-suffix-profiles-as-resources")]["status"] == "not-yet"
    assert by_id[("device-plugin", "mps-sharing")]["status"] == "holds"
    assert by_id[("device-plugin", "replicas-at-least-two")]["since"] == "0.12.0"


# --- class 3: MPS limits are per CUDA process -------------------------------------------------------------

def test_mps_answer_says_the_share_is_per_cuda_process_and_what_to_do(asker):
    answer = ask(asker, "resource", card="L4", mps=4)
    texts = " ".join(r["text"]["en"] for r in answer["reasons"])
    assert "per CUDA process, not per replica or pod" in texts
    assert "starts two CUDA processes gets two shares" in texts
    conditions = [c["text"]["en"] for c in answer["conditions"]]
    assert any("one CUDA process per replica" in c and "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT" in c for c in conditions)
    cited = {c["url"] for r in answer["reasons"] for c in r["citations"]}
    assert "https://github.com/NVIDIA/k8s-device-plugin/issues/720" in cited


def test_no_text_claims_a_neighbour_cannot_exceed_its_mps_share():
    """The old wording ('limits each of the N clients to an equal share', 'a neighbour cannot exceed its share')
    is what issue #720's maintainer contradicts."""
    wrong = re.compile(r"cannot exceed its (memory and compute )?share|limits each of the \{?\w+\}? clients|"
                       r"kann seinen Speicher- und Rechenanteil nicht überschreiten")
    hits = [str(p.relative_to(REPO)) for base in ("catalog", "rules", "docs") for p in (REPO / base).rglob("*")
            if p.suffix in (".yaml", ".md") and "generated" not in p.parts and wrong.search(p.read_text(encoding="utf-8"))]
    assert hits == []


def test_mps_refuses_more_than_48_replicas(asker):
    answer = ask(asker, "resource", card="L4", mps=49)
    assert answer["verdict"] == "no" and "RES-024" in [r["rule"] for r in answer["reasons"]]
    assert ask(asker, "resource", card="L4", mps=48)["verdict"] == "conditional"


# --- class 4: replicas >= 2 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["time_slicing", "mps"])
def test_one_replica_is_refused_like_the_device_plugin_does(asker, option):
    from kb.errors import UnusableInput

    with pytest.raises(UnusableInput) as exc:
        resolve("resource", asker.index, card="L4", **{option: 1})
    assert "number of replicas must be >= 2" in exc.value.text["en"]


# --- class 7: every method under the operator carries the support-list condition -------------------------------

def test_an_unlisted_card_gets_the_support_list_condition_for_every_method(asker):
    answer = ask(asker, "methods", card="RTX PRO 4500")
    assert answer["details"]["methods"]["whole"] == "conditional"
    assert answer["details"]["methods"]["time-slicing"] == "conditional"
    condition = "running the card with the GPU Operator although its support list does not name it (untested by NVIDIA)"

    def said(a):
        return [c["rule"] for c in a["conditions"] if condition in c["text"]["en"]]

    assert said(answer) == ["METHODS-060"]
    mig = ask(asker, "mig", card="RTX PRO 4500")
    assert said(mig) == ["MIG-007"]
    shared = ask(asker, "resource", card="RTX PRO 4500", time_slicing=4)
    assert shared["verdict"] == "conditional" and said(shared) == ["RES-025"]


def test_a_listed_card_gets_no_support_list_condition(asker):
    answer = ask(asker, "methods", card="L4")
    assert answer["details"]["methods"]["whole"] == "yes"
    assert "METHODS-060" not in [r["rule"] for r in answer["reasons"]]


# --- the catalog's code quotes are in NVIDIA's code at the tag they name --------------------------------------

def _code_citations():
    data = load_data(REPO / "catalog")
    from kb.catalog.facts import iter_facts

    out = []
    for group in ("cards", "releases", "methods"):
        for ident, entity in data[group].items():
            for path, node in iter_facts(entity):
                for cite in node.get("cite", []):
                    if cite["source"] in CODE_SOURCES and cite.get("page", "").startswith("blob/"):
                        out.append((f"{group}/{ident}", cite))
    return out


CODE_CITES = _code_citations()


def test_code_citations_name_tag_file_and_line():
    assert len(CODE_CITES) >= 6
    for where, cite in CODE_CITES:
        assert re.fullmatch(r"blob/v\d+\.\d+\.\d+/[\w/.-]+#L\d+(-L\d+)?", cite["page"]), (where, cite["page"])


@pytest.mark.parametrize("where, cite", CODE_CITES, ids=lambda v: v if isinstance(v, str) else v["page"])
def test_code_quote_is_in_the_file_at_the_tag(where, cite):
    mirror = CODE_SOURCES[cite["source"]]
    if not mirror.is_dir():
        pytest.skip(f"no mirror of {cite['source']} at {mirror} (fetch the repository; $GPUKB_MIRROR)")
    m = re.fullmatch(r"blob/(v[\d.]+)/([\w/.-]+)#L(\d+)(?:-L(\d+))?", cite["page"])
    tag, path, first, last = m.group(1), m.group(2), int(m.group(3)), int(m.group(4) or m.group(3))
    text = subprocess.run(["git", "-C", str(mirror), "show", f"{tag}:{path}"], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    lines = " ".join(line.strip() for line in text[first - 1:last])
    assert cite["quote"].strip() in lines, (where, cite["page"], lines)


def test_card_page_says_from_which_release_variants_are_resources(asker):
    """issue 10, class 2 on the site: the profile table names nvidia.com/mig-1g.24gb.gfx; the page says that this
    resource exists only from device plugin v0.20.0 (GPU Operator 26.7.0) on — both read from the releases files."""
    from kb.publication import publication
    from kb.site.cards import variant_note
    from kb.site.page import Ctx

    en = variant_note(Ctx(asker.data, "en", publication()), "rtx-pro-6000-blackwell-server")
    assert "only from device plugin `v0.20.0` (GPU Operator `26.7.0` and later) on" in en
    assert "`+gfx`, `-me`, `+me.all`" in en and "`nvidia.com/mig-1g.24gb`" in en
    de = variant_note(Ctx(asker.data, "de", publication()), "rtx-pro-6000-blackwell-server")
    assert "`v0.20.0` (GPU Operator `26.7.0` und neuer) eigene Ressourcen" in de
    assert variant_note(Ctx(asker.data, "en", publication()), "l4") == ""
