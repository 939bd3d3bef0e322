"""Citations carry their values, MIG-guide citations link their page, the newest MIG guide wins, and evidence
newer than the seed is in the catalog (issue 10, classes 9 and 10).

Evidence:
- NVIDIA MIG User Guide R620, deployment-considerations.html: "RTX PRO 5000 Blackwell | CUDA 12 | R575 (>= 575.57.08)
  or later"; the unversioned (R590) guide: "RTX PRO 6000 Blackwell (All editions) / RTX PRO 5000 Blackwell | CUDA 12 |
  R575 (>= 575.51.03) or later"; R620: "H200 | CUDA 12 | R550 (>= 550.90.07) or later".
- NVIDIA AI Enterprise release 8, vGPU reference, Blackwell
  (https://docs.nvidia.com/ai-enterprise/release-8/latest/infra-software/vgpu/reference/blackwell.html), "Table 52
  MIG-Backed NVIDIA vGPU for Compute for NVIDIA RTX Pro 4500 SE 32 GB": DC-2-32C … MIG 2g.32gb; DC-1-16C … MIG 1g.16gb.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.catalog.facts import citations, iter_facts, resolve_ref
from kb.cli.main import cli
from kb.questions import Asker, resolve

from conftest import REPO


@pytest.fixture(scope="module")
def data():
    return load_data(REPO / "catalog")


@pytest.fixture(autouse=True)
def _real_catalog(monkeypatch):
    monkeypatch.delenv("GPUKB_CATALOG", raising=False)
    monkeypatch.delenv("GPUKB_RULES", raising=False)


def ask(data, question, **raw):
    asker = Asker(data, engine="reference")
    return asker.answer(question, resolve(question, asker.index, **raw))


def test_every_mig_guide_citation_links_the_page_it_quotes(data):
    seen = 0
    for group in ("cards", "methods", "releases"):
        for entity in data[group].values():
            for _, node in iter_facts(entity):
                for cite in citations(data, node):
                    if cite["source"].startswith("mig-user-guide"):
                        seen += 1
                        assert cite["url"].endswith(".html"), cite
                        page = cite["url"].rsplit("/", 1)[1]
                        assert page.replace(".html", "").replace("-", " ") in (cite["section"] or "").lower() or \
                            page == "getting-started-with-mig.html", cite
    assert seen > 40


def test_the_newest_mig_guide_gives_the_rtx_pro_5000_minimum_driver(data):
    node = resolve_ref(data, "cards/rtx-pro-5000-blackwell#mig.prerequisites.min_driver")
    assert node["value"] == "575.57.08" and node["cite"][0]["source"] == "mig-user-guide-620"
    assert [c["value"] for c in node["disputed_by"]] == ["575.51.03"]
    h200 = resolve_ref(data, "cards/h200-nvl#mig.prerequisites.min_driver")
    assert h200["value"] == "550.90.07" and h200["cite"][0]["source"] == "mig-user-guide-620"
    assert [c["value"] for c in h200["disputed_by"]] == ["450.80.02"]


def test_a_driver_between_the_two_guide_values_is_below_the_rtx_pro_5000_minimum(data):
    answer = ask(data, "mig", card="RTX PRO 5000", driver="575.51.03")
    assert "MIG-009" in [r["rule"] for r in answer["reasons"]]
    dispute = next(d for d in answer["disputes"] if d["fact"].endswith("mig.prerequisites.min_driver"))
    assert [v["value"] for v in dispute["values"]] == ["575.57.08", "575.51.03"]


def test_the_rtx_pro_4500_server_edition_has_the_profiles_nvidia_ai_enterprise_names(data):
    card = data["cards"]["rtx-pro-4500-blackwell-server"]
    assert [(p["name"], p["memory_gb"], p["max_count"]) for p in card["mig"]["profiles"]] == [
        ("1g.16gb", 16, 2), ("2g.32gb", 32, 1)]
    assert {c["source"] for p in card["mig"]["profiles"] for c in p["cite"]} >= {"nvaie-vgpu-blackwell"}
    answer = ask(data, "resource", card="RTX PRO 4500 Server Edition", profile="1g.16gb", mig_strategy="mixed")
    assert answer["details"]["resource"] == "nvidia.com/mig-1g.16gb"
    assert ask(data, "mig", card="RTX PRO 4500 Server Edition")["verdict"] in ("yes", "conditional")
    # the workstation card the vendor ships stays unconfirmed: no vBIOS, no display-mode step named for it
    assert ask(data, "mig", card="RTX PRO 4500")["verdict"] == "unconfirmed"


def test_an_inferred_value_says_so_in_card_text_and_json():
    text = CliRunner().invoke(cli, ["card", "RTX PRO 4500"]).output
    assert "Inferred, not quoted: The newest MIG guide (R620) names a driver minimum" in text
    doc = json.loads(CliRunner().invoke(cli, ["card", "RTX PRO 2000", "--json"]).output)
    availability = next(f for f in doc["facts"] if f["path"] == "availability")
    assert availability["inferred"]["en"].startswith("No source says it is on sale.")
