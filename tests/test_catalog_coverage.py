"""The catalog covers NVIDIA's lists: every product of the GPU Operator's supported-GPU list (read by the drift
extractor from the newest snapshot), every GPU of the MIG user guide's list, every GPU Feature Discovery label
of the real manifests; and every card answers every question (one engine batch per question)."""

from __future__ import annotations

import re

import pytest

from conftest import REPO

SHARED = REPO.parent / "shared"
PLATFORM = SHARED / "sources" / "cloud-native-docs" / "platform-support@2026-08-21.rst"
MIG_PARTED = SHARED / "sources" / "mig-parted" / "config-default@2026-02-18.yaml"

#: rows of the MIG user guide's "Supported GPUs" table (docs.nvidia.com/datacenter/tesla/mig-user-guide/
#: supported-gpus.html, unversioned = R590, and 610/supported-gpus.html) and the GPUs the R620 guide's
#: deployment considerations add; (product, memory) → card id. The guide has no local snapshot to extract from.
MIG_GUIDE = {
    ("RTX PRO 6000 Blackwell Server Edition", 96): "rtx-pro-6000-blackwell-server",
    ("RTX PRO 6000 Blackwell Workstation Edition", 96): "rtx-pro-6000-blackwell-workstation",
    ("RTX PRO 6000 Blackwell Max-Q Workstation Edition", 96): "rtx-pro-6000-blackwell-max-q",
    ("RTX PRO 5000 Blackwell", 48): "rtx-pro-5000-blackwell",
    ("RTX PRO 4500 Blackwell", 32): "rtx-pro-4500-blackwell",
    ("GB200", 186): "gb200", ("B200", 180): "b200",
    ("H100-SXM5", 80): "h100-sxm5-80gb", ("H100-SXM5", 94): "h100-sxm5-94gb", ("Thor iGPU", None): "jetson-thor", ("H100-PCIE", 80): "h100-pcie-80gb", ("H100-PCIE", 94): "h100-nvl",
    ("H100 on GH200", 96): "gh200", ("H20", 96): "h20", ("H200-SXM5", 141): "h200", ("H200 NVL", 141): "h200-nvl",
    ("A100-SXM4", 40): "a100-sxm4-40gb", ("A100-SXM4", 80): "a100-sxm4-80gb",
    ("A100-PCIE", 40): "a100-pcie-40gb", ("A100-PCIE", 80): "a100-pcie-80gb", ("A30", 24): "a30",
    ("B300", None): "b300", ("GB300 (DGX Station)", None): "gb300",
}


@pytest.fixture(scope="module")
def data():
    from kb.catalog.compiled import load_data

    return load_data(REPO / "catalog")


@pytest.mark.skipif(not PLATFORM.is_file(), reason="../shared/sources (platform-support snapshot) not present")
def test_every_product_of_the_operators_list_is_a_card_or_a_system_of_one(data):
    from kb.catalog.names import normalise
    from kb.drift.extractors import get
    from kb.importer.cards import known_names

    products = get("platform-support").extract(PLATFORM.read_text(encoding="utf-8"))["products"]
    known = known_names(data)
    assert len({normalise(p["name"]) for p in products}) >= 56
    assert sorted({p["name"] for p in products if normalise(p["name"]) not in known}) == []


def test_every_gpu_of_the_mig_guide_is_a_card_with_mig_facts(data):
    for (row, memory), cid in MIG_GUIDE.items():
        card = data["cards"][cid]
        assert card["mig"]["status"]["value"] == "documented", cid
        if memory:
            assert card["memory_gb"]["value"] == memory, cid
        most = 4 if row.startswith(("RTX PRO 6000", "A30")) else 2 if row.startswith(("RTX PRO", "Thor")) else 7
        assert card["mig"]["max_instances"]["value"] == most, cid
        if card["mig"].get("profiles"):  # the profiles recorded (mig-parted's layouts, the MIG User Guide's table)
            assert max(p["max_count"] for p in card["mig"]["profiles"]) == most, cid


@pytest.mark.skipif(not MIG_PARTED.is_file(), reason="../shared/sources (mig-parted config) not present")
def test_the_profiles_of_a_card_are_what_mig_parted_creates_for_its_device_ids(data):
    from kb.drift.extractors import get
    from kb.importer.cards import profiles_for

    config = get("mig-parted-config").extract(MIG_PARTED.read_text(encoding="utf-8"))
    a100 = [(p["name"], p["max_count"]) for p in profiles_for(config, ["0x20B0"])]
    assert a100 == [("1g.5gb", 7), ("1g.5gb+me", 1), ("1g.10gb", 4), ("2g.10gb", 3), ("3g.20gb", 2), ("4g.20gb", 1),
                    ("7g.40gb", 1)]
    # the uncommented H200 layouts after '# GB200, B200' do not leak into B200 (2g.35gb is not 1/2/4/8 × 23 GB)
    assert "2g.35gb" not in [p["name"] for p in profiles_for(config, ["0x2901"])]
    card = {p["name"]: p["max_count"] for p in data["cards"]["a100-sxm4-40gb"]["mig"]["profiles"]}
    assert card == dict(a100)


def test_every_card_answers_every_question(data):
    """One batch per question for every card at the newest operator release: no error, a verdict each, and the
    answer renders as the CLI prints it (text in both languages, with --explain, and JSON) — what would otherwise be
    an internal error, exit 4, of `gpukb ask`."""
    from kb.answer import localise, render_text
    from kb.questions import Asker, module, questions

    asker = Asker(data)
    newest = asker.index["operator_releases"][0]
    asked = set()
    for question in questions():
        inputs = [i for i in module(question).defaults(asker.index) if i.get("operator") in (None, newest)]
        answered = {i["card"] for i in inputs if i.get("card")}
        if answered:
            assert answered == set(data["cards"]), question
            asked.add(question)
        for a in asker.answer_many(question, inputs):
            assert a["verdict"] in ("yes", "conditional", "unconfirmed", "no"), (question, a["inputs"])
            for lang in ("en", "de"):
                assert render_text(a, lang, lang == "de").strip(), (question, a["inputs"], lang)
                assert localise(a, lang)["verdict"] == a["verdict"]
    assert {"mig", "methods", "resource", "recommend"} <= asked, asked
    # strategy asks about a node's GPUs (its defaults are the MIG cards' layouts): every card as a node's whole GPU
    from kb.questions import resolve

    nodes = [resolve("strategy", asker.index, gpus=[cid], operator=newest) for cid in data["cards"]]
    for a in asker.answer_many("strategy", nodes):
        assert a["verdict"] in ("yes", "conditional", "unconfirmed", "no"), a["inputs"]
        assert render_text(a, "en", False).strip() and render_text(a, "de", True).strip()


@pytest.mark.skipif(not (SHARED / "corpus" / "manifests").is_dir(), reason="../shared/corpus not present")
def test_the_product_labels_of_the_real_manifests_resolve(data):
    from kb.catalog.names import NameIndex

    labels = set()
    for path in (SHARED / "corpus" / "manifests").glob("*.y*ml"):
        labels |= set(re.findall(r"nvidia\.com/gpu\.product\"?:\s*\"?([A-Za-z0-9._+-]+)", path.read_text(errors="replace")))
        labels |= set(re.findall(r"\b((?:NVIDIA|Tesla)-[A-Za-z0-9.+-]+)", path.read_text(errors="replace")))
    names = NameIndex(data["cards"])
    assert {"NVIDIA-A100-SXM4-40GB", "Tesla-T4", "Tesla-T4-SHARED", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"} <= labels
    assert {label: names.resolve(label) for label in sorted(labels)} == {
        label: ("t4" if "T4" in label else "a100-sxm4-40gb") for label in sorted(labels)}
