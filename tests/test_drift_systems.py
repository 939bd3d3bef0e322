"""The drift check matches NVIDIA's list entries to cards by every name the list may use, the systems built from a
card included: "NVIDIA HGX GB200 NVL72" on the KubeVirt vGPU device list or the product list is the GB200, not a new
product nor a sign that the card left the list. Hand-written look-alike data, no snapshot needed."""

from __future__ import annotations

from kb.catalog.names import normalise
from kb.drift.comparisons import platform

SID = "gpu-operator-platform-support"
CITE = [{"source": SID, "section": "s", "quote": "q"}]


def _card(listed: bool, vgpu: bool) -> dict:
    return {"name": "NVIDIA Foo200", "short_name": "Foo200", "aliases": [],
            "systems": [{"name": "NVIDIA HGX Foo200 NVL72", "cite": CITE}],
            "operator_support": {"listed": {"value": listed, "cite": CITE},
                                 "kubevirt_vgpu": {"value": vgpu, "cite": CITE}}}


def _extracted(products: list[str], vgpu: list[str]) -> dict:
    return {"products": [{"name": n, "normalised": normalise(n), "tab": "B-series Products", "architecture": "X",
                          "notes": [], "quote": n} for n in products],
            "kubevirt_vgpu": [{"entry": ", ".join(vgpu), "names": vgpu, "normalised": [normalise(n) for n in vgpu],
                               "excluded": []}]}


def _kinds(card: dict, extracted: dict) -> list[str]:
    return [c.kind for c in platform.compare({"id": SID}, extracted, {"cards": {"foo200": card}})]


def test_a_card_on_the_vgpu_list_under_its_system_name_is_still_on_it():
    assert _kinds(_card(True, True), _extracted(["NVIDIA HGX Foo200 NVL72"], ["NVIDIA HGX Foo200 NVL72"])) == []


def test_a_card_not_on_the_vgpu_list_is_reported_when_its_system_appears_there():
    assert _kinds(_card(True, False), _extracted(["NVIDIA HGX Foo200 NVL72"], ["NVIDIA HGX Foo200 NVL72"])) == [
        "vgpu-listed"]


def test_a_card_on_the_vgpu_list_is_reported_when_its_system_leaves_it():
    assert _kinds(_card(True, True), _extracted(["NVIDIA HGX Foo200 NVL72"], ["NVIDIA L40S"])) == ["vgpu-unlisted"]


def test_an_unlisted_card_is_reported_when_the_product_list_names_its_system():
    assert _kinds(_card(False, False), _extracted(["NVIDIA HGX Foo200 NVL72"], ["NVIDIA L40S"])) == ["card-listed"]


def test_list_names_hold_the_systems_and_the_list_name():
    card = _card(True, True)
    card["operator_support"]["listed_as"] = "NVIDIA Foo200 Superchip"
    assert platform.list_names(card) == ["NVIDIA Foo200 Superchip", "NVIDIA Foo200", "Foo200",
                                         "NVIDIA HGX Foo200 NVL72"]
