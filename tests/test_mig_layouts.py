"""Whether a GPU Operator release's MIG Manager has layouts for a card (mig_layouts facts, rules MIG-015/016): by the
card's PCI device id and by the ids of cards with the very same MIG profiles (mig-parted's layouts name profiles;
only a device filter ties one to an id). The real question behind it: NVIDIA/gpu-operator#2249 (RTX PRO 6000 Max-Q
with GPU Operator 24.3.0)."""

from __future__ import annotations

import copy

import pytest

from kb.catalog.compiled import load_data
from kb.questions import Asker, mig, resolve

from conftest import REPO


@pytest.fixture(scope="module")
def data():
    return load_data(REPO / "catalog")


@pytest.fixture(scope="module")
def asker(data):
    return Asker(data)


def _rules(asker, card: str, operator: str) -> tuple[str, set[str]]:
    answer = asker.answer("mig", resolve("mig", asker.index, card=card, operator=operator, driver="580.126.16"))
    return answer["verdict"], {r["rule"] for r in answer["reasons"]}


def test_the_max_q_before_any_rtx_pro_6000_layout_is_no_by_the_mig_managers_code(asker):
    verdict, rules = _rules(asker, "RTX PRO 6000 Max-Q", "24.3.0")
    assert (verdict, "MIG-015" in rules) == ("no", True)
    answer = asker.answer("mig", resolve("mig", asker.index, card="RTX PRO 6000 Max-Q", operator="24.3.0"))
    text = next(r["text"]["en"] for r in answer["reasons"] if r["rule"] == "MIG-015")
    assert "GPU Operator 25.3.3 is the first release that has them" in text
    verdict, rules = _rules(asker, "RTX PRO 6000 Workstation Edition", "25.3.0")
    assert (verdict, "MIG-015" in rules) == ("no", True)


def test_from_the_first_release_with_rtx_pro_6000_layouts_the_max_q_is_served_by_them(asker):
    """25.3.3 added the RTX PRO 6000 Blackwell layouts (device filter 0x2BB5 only on all-balanced): the Max-Q (0x2BB4)
    has the same profiles, so MIG-015 stays quiet and the answer is the not-listed 'conditional'."""
    verdict, rules = _rules(asker, "RTX PRO 6000 Max-Q", "25.3.3")
    assert "MIG-015" not in rules and "MIG-016" not in rules
    assert verdict == "conditional"


def test_layout_ids_add_the_cards_with_the_same_profiles_only(data, asker):
    ids = mig.layout_ids(data["cards"]["rtx-pro-6000-blackwell-max-q"], asker.index)
    assert ids[0] == "0x2BB4" and sorted(ids) == ["0x2BB1", "0x2BB4", "0x2BB5"]
    assert mig.layout_ids(data["cards"]["h200"], asker.index) == ["0x2335"]
    assert mig.layout_ids(data["cards"]["l4"], asker.index) == []  # no MIG profiles


def test_without_a_card_of_the_same_profiles_the_max_q_has_no_layouts_in_25_3_3(data):
    """The sibling is what makes 25.3.3 cover the Max-Q: without the Server Edition's id MIG-015 fires there."""
    reduced = copy.deepcopy(data)
    reduced["cards"]["rtx-pro-6000-blackwell-server"].pop("pci_device_ids")
    reduced.pop("index", None)  # the compiled names index carries the ids too: let the asker derive it again
    verdict, rules = _rules(Asker(reduced), "RTX PRO 6000 Max-Q", "25.3.3")
    assert (verdict, "MIG-015" in rules) == ("no", True)
