"""Name resolution: official names, aliases, spelling variants, ambiguity and the plain product."""

from __future__ import annotations

import pytest

from kb.catalog.names import NameError_, NameIndex, normalise


def card(cid, name, short, aliases=(), plain=False):
    return cid, {"id": cid, "name": name, "short_name": short, "aliases": list(aliases), "plain_product": plain}


CARDS = dict([
    card("h200-nvl", "NVIDIA H200 NVL", "H200 NVL", ["NVIDIA-H200-NVL"]),
    card("l4", "NVIDIA L4", "L4", ["NVIDIA-L4"]),
    card("l40s", "NVIDIA L40S", "L40S", ["NVIDIA-L40S"]),
    card("rtx-pro-6000-blackwell-workstation", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
         "RTX PRO 6000 Workstation"),
    card("rtx-pro-6000-blackwell-max-q", "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
         "RTX PRO 6000 Max-Q"),
    card("rtx-pro-6000-blackwell-server", "NVIDIA RTX PRO 6000 Blackwell Server Edition",
         "RTX PRO 6000 Server Edition"),
    card("rtx-pro-5000-blackwell", "NVIDIA RTX PRO 5000 Blackwell", "RTX PRO 5000", ["RTX PRO 5000 48GB"], plain=True),
    card("rtx-pro-5000-blackwell-72gb", "NVIDIA RTX PRO 5000 72GB Blackwell", "RTX PRO 5000 72GB"),
    card("rtx-pro-4500-blackwell", "NVIDIA RTX PRO 4500 Blackwell", "RTX PRO 4500", plain=True),
    card("rtx-pro-4500-blackwell-server", "NVIDIA RTX PRO 4500 Blackwell Server Edition", "RTX PRO 4500 Server Edition"),
])
INDEX = NameIndex(CARDS)


@pytest.mark.parametrize("typed, expected", [
    ("H200 NVL", "h200-nvl"),
    ("h200nvl", "h200-nvl"),
    ("NVIDIA-H200-NVL", "h200-nvl"),
    ("nvidia h200-nvl", "h200-nvl"),
    ("L4", "l4"),
    ("l40s", "l40s"),
    ("rtx pro 6000 workstation", "rtx-pro-6000-blackwell-workstation"),
    ("RTX PRO 6000 Max-Q", "rtx-pro-6000-blackwell-max-q"),
    ("rtx pro 6000 server", "rtx-pro-6000-blackwell-server"),
    ("RTX PRO 5000", "rtx-pro-5000-blackwell"),
    ("rtx pro 5000 72gb", "rtx-pro-5000-blackwell-72gb"),
    ("RTX PRO 4500", "rtx-pro-4500-blackwell"),
    ("RTX Pro 4500 Blackwell Server Edition", "rtx-pro-4500-blackwell-server"),
])
def test_resolves(typed, expected):
    assert INDEX.resolve(typed) == expected


def test_ambiguous_lists_the_cards():
    with pytest.raises(NameError_) as exc:
        INDEX.resolve("RTX PRO 6000")
    assert exc.value.ambiguous
    assert exc.value.candidates == ["rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell-server",
                                    "rtx-pro-6000-blackwell-workstation"]


@pytest.mark.parametrize("typed, suggested", [
    ("L40", ["l40s"]),          # the L40 is another product, not the L40S
    ("H200", ["h200-nvl"]),     # nor is the H200 (SXM) the H200 NVL
    ("rtx pro 6000 max", ["rtx-pro-6000-blackwell-max-q"]),
])
def test_part_of_one_name_is_a_suggestion_not_a_guess(typed, suggested):
    with pytest.raises(NameError_) as exc:
        INDEX.resolve(typed)
    assert not exc.value.ambiguous
    assert exc.value.candidates == suggested


def test_full_width_characters_are_read_as_ascii():
    assert INDEX.resolve("Ｈ２００ ＮＶＬ") == "h200-nvl"


def test_words_in_any_order():
    assert INDEX.resolve("6000 rtx pro server edition") == "rtx-pro-6000-blackwell-server"


def test_unknown_suggests_closest():
    with pytest.raises(NameError_) as exc:
        INDEX.resolve("H200 NLV")
    assert not exc.value.ambiguous
    assert exc.value.candidates[0] == "h200-nvl"


def test_nonsense_has_no_suggestion():
    with pytest.raises(NameError_) as exc:
        INDEX.resolve("toaster")
    assert exc.value.candidates == []


def test_empty_name():
    with pytest.raises(NameError_):
        INDEX.resolve("  ")


def test_normalise():
    assert normalise("NVIDIA RTX-PRO_6000 (Blackwell)") == "rtxpro6000blackwell"


LABELLED = NameIndex({
    "a100-sxm4-40gb": {"id": "a100-sxm4-40gb", "name": "NVIDIA A100 SXM4 40GB", "short_name": "A100 SXM4 40GB",
                       "aliases": [], "product_names": ["NVIDIA A100-SXM4-40GB"], "pci_device_ids": ["0x20B0"],
                       "systems": ["NVIDIA DGX A100"]},
    "t4": {"id": "t4", "name": "NVIDIA T4", "short_name": "T4", "aliases": [], "product_names": ["Tesla T4"],
           "pci_device_ids": {"value": ["0x1EB8"]}},
})


@pytest.mark.parametrize("typed, expected", [
    ("NVIDIA-A100-SXM4-40GB", "a100-sxm4-40gb"),             # GPU Feature Discovery's product label
    ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "a100-sxm4-40gb"),  # … with the mixed strategy's MIG suffix
    ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb+me", "a100-sxm4-40gb"),
    # … with the single strategy's mark of a MIG setup it cannot serve (k8s-device-plugin internal/lm/mig-strategy.go:256)
    ("NVIDIA-A100-SXM4-40GB-MIG-INVALID", "a100-sxm4-40gb"),
    ("Tesla-T4", "t4"), ("Tesla-T4-SHARED", "t4"),            # … renamed by time-slicing
    ("NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"),             # nvidia-smi's name
    ("0x20B0", "a100-sxm4-40gb"), ("20b0", "a100-sxm4-40gb"), ("0x20B010DE", "a100-sxm4-40gb"),
    ("10de:1eb8", "t4"),                                       # PCI device id, as lspci -n and mig-parted write it
    ("DGX A100", "a100-sxm4-40gb"),                            # a system resolves to the card it holds
])
def test_labels_device_ids_and_systems_resolve(typed, expected):
    assert LABELLED.resolve(typed) == expected


def test_an_unknown_device_id_is_unknown():
    with pytest.raises(NameError_):
        LABELLED.resolve("0x9999")


def test_a_letter_glued_to_the_model_number_is_another_product():
    index = NameIndex(dict([card("a10", "NVIDIA A10", "A10"), card("l40", "NVIDIA L40", "L40"),
                            card("l40s", "NVIDIA L40S", "L40S")]))
    assert index.resolve("L40S") == "l40s" and index.resolve("nvidia l40") == "l40"
    for typed, suggested in (("A10G", "a10"), ("L40G", "l40")):  # AWS's A10G, the L40G: not on NVIDIA's lists
        with pytest.raises(NameError_) as exc:
            index.resolve(typed)
        assert not exc.value.ambiguous and suggested in exc.value.candidates


def test_glued_tokens_are_the_expressions_matches_found_in_linear_time():
    """kb.catalog.names.glued finds _GLUED's matches without its scan from every start inside a run (a 5,000-letter
    name took ~1.3 s): the same tokens as `_GLUED.finditer` for every text of up to six letters, digits and spaces."""
    import itertools

    from kb.catalog import names

    for size in range(7):
        for chars in itertools.product("ab12 ", repeat=size):
            text = "".join(chars)
            assert names._glued_tokens(text) == [m.group(0) for m in names._GLUED.finditer(text)], text
    assert names.glued("x" * 5000 + " 1" * 3 + "y" * 4000 + " a100x h200nvl") == {"1" + "y" * 4000, "a100x", "h200nvl"}


@pytest.mark.parametrize("typed, cards", [
    ("L4 L40S", ["l4", "l40s"]),
    ("H200 NVL or L4", ["h200-nvl", "l4"]),
    ("RTX PRO 6000 Server Edition Max-Q", ["rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell-server"]),
])
def test_a_name_naming_several_cards_is_refused_listing_them(typed, cards):
    with pytest.raises(NameError_) as exc:
        INDEX.resolve(typed)
    assert exc.value.several and exc.value.candidates == cards


@pytest.mark.parametrize("typed", ["H200 NV", "H200 NVL 141GB", "L4 24GB", "NVIDIA H200 NVL PCIe"])
def test_a_part_or_more_words_than_a_name_are_not_guessed(typed):
    with pytest.raises(NameError_) as exc:
        INDEX.resolve(typed)
    assert not exc.value.several and exc.value.candidates


def test_a_name_index_is_built_once_for_cards_with_the_same_names_and_again_for_others():
    """kb.catalog.names.name_index: the same names and device ids give the index built before, holding the caller's
    cards (their plain products decide); an alias added gives a new one."""
    from kb.catalog import names

    same = {cid: {**c} for cid, c in CARDS.items()}
    first, again = names.name_index(CARDS), names.name_index(same)
    assert again.exact is first.exact and again.cards is same
    assert again.resolve("H200 NVL") == "h200-nvl"
    renamed = {**same, "l4": {**same["l4"], "aliases": ["NVIDIA-L4", "Ada L4"]}}
    assert names.name_index(renamed).resolve("Ada L4") == "l4"
    with pytest.raises(NameError_):
        names.name_index(CARDS).resolve("Ada L4")
    twins = dict([card("a", "NVIDIA A", "A", ["Twin"]), card("b", "NVIDIA B", "B", ["Twin"])])
    with pytest.raises(NameError_):
        names.name_index(twins).resolve("Twin")
    assert names.name_index({**twins, "b": {**twins["b"], "plain_product": True}}).resolve("Twin") == "b"
