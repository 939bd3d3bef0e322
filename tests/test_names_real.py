"""Card names on the real catalog (issues 11 and 13): every known name resolves to its card, a part of a name is
never guessed into one card, a name naming two cards is refused — in every command that takes a card name."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kb.catalog.compiled import load_data
from kb.catalog.names import NameError_, NameIndex, normalise, pci_key, words
from kb.cli.main import cli
from sampling import sample

CARDS = load_data(parts=("index",))["index"]["cards"]
INDEX = NameIndex(CARDS)


def names_of(card: dict) -> list[str]:
    return [*NameIndex._names(card), *NameIndex._pci(card)]


#: word sets of every name of every card: a prefix with one of them is a name, not a part of one
NAME_WORDS = {words(n) for card in CARDS.values() for n in names_of(card)}


def is_a_name(text: str) -> bool:
    return normalise(text) in INDEX.exact or (pci_key(text) or "") in INDEX.exact or words(text) in NAME_WORDS


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_every_known_name_resolves_to_its_card():
    """Official names, short forms, aliases, the driver's names, systems, PCI device ids and the GPU Feature
    Discovery label (hyphens, with -MIG-<profile> and -SHARED): the card itself, or — where several cards share
    the name (a DGX A100 holds either A100 SXM4) — an ambiguity that lists it."""
    checked = 0
    for cid, card in CARDS.items():
        for name in names_of(card):
            forms = [name]
            if not pci_key(name):
                label = "-".join(name.split())
                forms += [label, f"{label}-SHARED"]
                if card["profiles"]:
                    forms.append(f"{label}-MIG-{card['profiles'][0]}")
            for form in forms:
                shared = INDEX.exact.get(normalise(name)) or INDEX.exact.get(pci_key(name) or "") or {cid}
                try:
                    got = INDEX.resolve(form)
                except NameError_ as exc:
                    assert len(shared) > 1 and cid in exc.candidates and exc.ambiguous and not exc.several, (form, exc.candidates)
                else:
                    assert got == cid, (form, got)
                checked += 1
    assert checked > 600


def test_a_prefix_of_a_name_is_never_guessed_into_one_card():
    """Every prefix of every name (sampled cards; GPUKB_FULL=1: all) that is not itself a name of a card (case,
    spaces, hyphens and word order aside) fits no card or several — never one."""
    cards = sample(CARDS, 14, seed="name-prefixes", always=["h200", "h200-nvl", "h100-sxm5-80gb", "l40",
                                                             "rtx-pro-6000-blackwell-max-q", "a100-sxm4-40gb"])
    guessed, tried = [], 0
    for cid in cards:
        for name in names_of(CARDS[cid]):
            for end in range(1, len(name)):
                prefix = name[:end]
                if not prefix.strip() or is_a_name(prefix):
                    continue
                tried += 1
                try:
                    guessed.append((prefix, INDEX.resolve(prefix)))
                except NameError_ as exc:
                    assert not exc.ambiguous or len(exc.candidates) > 1
    assert guessed == [] and tried > 300


@pytest.mark.parametrize("typed, suggested", [
    ("H200 NV", "h200-nvl"), ("H200 N", "h200-nvl"), ("RTX PRO 6000 Max", "rtx-pro-6000-blackwell-max-q"),
    ("A10M", "a10"), ("L40G", "l40"),  # the A10M, the L40G: excluded from the vGPU list, cards of no list
    # a slip in a word of the name: the cards of the word it was meant to be (a letter O for a zero after a digit)
    ("H101", "h100-sxm5-80gb"), ("A1OO", "a100-sxm4-80gb"), ("H100 SXM6", "h100-sxm5-94gb"), ("H2OO NVL", "h200-nvl"),
])
def test_a_part_or_a_misspelling_suggests_without_answering(typed, suggested):
    result = run("ask", "mig", typed, "--json")
    error = json.loads(result.output)
    assert result.exit_code == 2 and error["kind"] == "unusable-input"
    assert error["error"].startswith(f"unknown card {typed!r} — did you mean: ")
    assert suggested in error["details"]["suggestions"]


def test_a_slip_in_the_model_number_suggests_every_card_of_that_number_in_both_languages():
    en, de = run("ask", "mig", "H101"), run("ask", "mig", "H101", "--lang", "de")
    assert (en.exit_code, de.exit_code) == (2, 2)
    assert en.output == ("Error: unknown card 'H101' — did you mean: H100 NVL; H100 PCIe 80GB; H100 SXM5 80GB; "
                         "H100 SXM5 94GB (list all: gpukb cards)\n")
    assert de.output.startswith("Fehler: unbekannte Karte „H101“ – meinten Sie: H100 NVL; H100 PCIe 80GB; ")
    assert json.loads(run("ask", "mig", "toaster", "--json").output)["details"]["suggestions"] == []  # nothing close


def test_h200_nv_suggests_the_h200_nvl_first_in_both_languages():
    en, de = run("ask", "mig", "H200 NV"), run("ask", "mig", "H200 NV", "--lang", "de")
    assert (en.exit_code, de.exit_code) == (2, 2)
    assert en.output.startswith("Error: unknown card 'H200 NV' — did you mean: H200 NVL; H200 SXM")
    assert de.output.startswith("Fehler: unbekannte Karte „H200 NV“ – meinten Sie: H200 NVL; H200 SXM")


@pytest.mark.parametrize("typed, cards", [
    ("RTX PRO 6000 Server Edition Max-Q", ["rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell-server"]),
    ("L4 L40S", ["l4", "l40s"]),
    ("H200 NVL or L4", ["h200-nvl", "l4"]),
    ("H200 NVL/L4", ["h200-nvl", "l4"]),
    ("L4, L40S", ["l4", "l40s"]),
    ("H200 und H200 NVL", ["h200", "h200-nvl"]),
])
def test_a_name_naming_several_cards_exits_2_listing_them_everywhere(typed, cards):
    """Issue 13: never an answer for one of them — nor one answer for all, even where their answers agree
    (L4 and L40S both answer "no" for MIG)."""
    for args in (["ask", "mig", typed], ["ask", "methods", typed], ["ask", "resource", typed, "--time-slicing", "4"],
                 ["ask", "recommend", "--workload", "dev", "--card", typed], ["ask", "strategy", "--gpu", typed],
                 ["card", typed]):
        result = run(*args, "--json")
        error = json.loads(result.output)
        assert result.exit_code == 2, (args, result.output)
        assert error["error"].startswith(f"{typed!r} names several cards: "), args
        assert error["details"]["suggestions"] == cards, args
    de = run("ask", "mig", typed, "--lang", "de")
    assert f"Fehler: „{typed}“ nennt mehrere Karten: " in de.output and "fragen Sie je Aufruf nach einer Karte" in de.output


def test_a_name_fitting_several_cards_with_one_answer_is_answered_once_naming_them():
    """Issue 11: "A100 80GB" is the PCIe and the SXM4 card; where their answers agree, one answer names both —
    for the strategy's --gpu too (it used to exit 2 for "RTX PRO 6000" even where the strategies agree)."""
    cases = [(["ask", "mig", "A100 80GB"], ["a100-pcie-80gb", "a100-sxm4-80gb"]),
             (["ask", "methods", "A100 80GB"], ["a100-pcie-80gb", "a100-sxm4-80gb"]),
             (["ask", "recommend", "--workload", "dev", "--card", "A100 80GB"], ["a100-pcie-80gb", "a100-sxm4-80gb"]),
             (["ask", "strategy", "--gpu", "RTX PRO 6000"], ["rtx-pro-6000-blackwell-max-q",
                                                            "rtx-pro-6000-blackwell-server",
                                                            "rtx-pro-6000-blackwell-workstation"]),
             (["ask", "strategy", "--gpu", "A100 80GB:all-1g.10gb", "--gpu", "A100 80GB"],
              ["a100-pcie-80gb", "a100-sxm4-80gb"])]
    for args, cards in cases:
        result = run(*args, "--json")
        assert result.exit_code == 0, (args, result.output)
        assert json.loads(result.output)["cards"] == cards, args
    text = run("ask", "strategy", "--gpu", "A100 80GB:all-1g.10gb").output
    assert text.startswith("MIG strategy (GPUs A100 PCIe 80GB / A100 SXM4 80GB (1g.10gb), GPU Operator ")
    assert "A100 80GB fits 2 cards (A100 PCIe 80GB, A100 SXM4 80GB); the answer is the same for all of them." in text


@pytest.mark.parametrize("args, differ", [
    (["ask", "mig", "A100"], "(the answers differ in: profiles, smallest profile)"),
    (["ask", "methods", "RTX PRO 6000"], "RTX PRO 6000 Server Edition: yes"),
    (["ask", "resource", "A100 80GB", "--profile", "1g.10gb"], "(the answers differ in: node labels)"),
    (["ask", "mig", "H100 SXM5"], "H100 SXM5 94GB: yes"),
])
def test_a_name_fitting_several_cards_with_different_answers_exits_2_listing_the_verdicts(args, differ):
    result = run(*args)
    assert result.exit_code == 2 and "fits several cards whose answers differ — " in result.output
    assert differ in result.output and result.output.rstrip().endswith("name one of them")


def test_the_differences_of_several_cards_answers_are_named_in_the_runs_language():
    """German words for what differs, the reasons included (was the English key "reasons")."""
    result = run("--lang", "de", "ask", "mig", "RTX PRO 6000")
    assert result.exit_code == 2, result.output
    differ = result.output.split("(die Antworten unterscheiden sich in: ")[1].split(")")[0]
    assert "Begründungen" in differ.split(", ") and "reasons" not in differ, differ
    english = run("ask", "mig", "RTX PRO 6000").output
    assert "reasons" in english.split("(the answers differ in: ")[1].split(")")[0].split(", ")


def test_card_facts_of_a_name_fitting_several_cards_exit_2_listing_them():
    result = run("card", "A100 80GB", "--json")
    assert result.exit_code == 2
    assert json.loads(result.output)["details"]["suggestions"] == ["a100-pcie-80gb", "a100-sxm4-80gb"]


def test_prefixes_through_the_command_line_never_answer_for_one_card():
    """The resolver's property, seen by a user: `gpukb ask mig <prefix>` exits 2 or answers naming every card the
    prefix fits (sampled prefixes; GPUKB_FULL=1 more)."""
    prefixes = sorted({name[:end] for cid in ("h200-nvl", "h100-sxm5-80gb", "rtx-pro-6000-blackwell-server", "l40s")
                       for name in names_of(CARDS[cid]) for end in range(2, len(name))
                       if name[:end].strip() and not is_a_name(name[:end])})
    for prefix in sample(prefixes, 12, seed="cli-prefixes", always=["H200 NV", "H100 SXM5", "RTX PRO 6000"]):
        result = run("ask", "mig", prefix, "--json")
        answer = json.loads(result.output)
        assert result.exit_code == 2 or len(answer.get("cards", ())) > 1, (prefix, result.output)


def test_a_typed_name_with_control_characters_is_shown_not_obeyed():
    """Issue 13 (terminal): the name as typed is repeated in the answer and the errors — escaped."""
    for args in (["ask", "mig", "A100 80GB\x1b"], ["ask", "mig", "A100\x1b"], ["ask", "mig", "L4 L40S\x1b"]):
        output = run(*args).output
        assert "\x1b" not in output and "\\x1b" in output, args


#: a nvidia.com/gpu.product label as manifests, node dumps and NVIDIA's docs write it ("nvidia.com/gpu.product:
#: NVIDIA-A100-SXM4-40GB", "nvidia.com/gpu.product=Tesla-T4-SHARED", '"nvidia.com/gpu.product": "NVIDIA-H100-…"')
_GFD_LABEL = re.compile(r"""nvidia\.com/gpu\.product["']?\s*[:=]\s*["']?([A-Za-z0-9][A-Za-z0-9._+-]*)""")
#: the name nvidia-smi prints ("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-…)")
_SMI_NAME = re.compile(r"GPU \d+: ([^()\n]+?) \(UUID: GPU-")


def _real_gpu_names() -> dict[str, str]:
    """Every GFD product label and nvidia-smi name in the real manifests (../shared/corpus) and NVIDIA's dated
    documents (../shared/sources): name → the file it is in."""
    from conftest import SHARED

    found: dict[str, str] = {}
    for root in (SHARED / "corpus", SHARED / "sources"):
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in {".yaml", ".yml", ".json",
                                                                                      ".md", ".rst", ".txt"}):
            text = path.read_text(encoding="utf-8", errors="replace")
            for m in (*_GFD_LABEL.finditer(text), *_SMI_NAME.finditer(text)):
                found.setdefault(m.group(1).strip(), str(path.relative_to(SHARED)))
    return found


def test_every_gpu_name_the_real_manifests_and_nvidias_documents_write_resolves_to_one_card():
    """GFD labels of real node dumps and pod selectors (Tesla-T4-SHARED, NVIDIA-A100-SXM4-40GB) and the names
    nvidia-smi prints in NVIDIA's documents resolve to exactly one card; none is a documented non-card today."""
    from conftest import SHARED

    if not (SHARED / "corpus" / "manifests").is_dir():
        pytest.skip(f"the real manifests are not there ({SHARED / 'corpus' / 'manifests'})")
    names = _real_gpu_names()
    assert len(names) >= 5, names  # the corpus and docs hold at least T4, A100 SXM4/PCIe, H100 labels
    unresolved = {}
    for name, where in names.items():
        try:
            INDEX.resolve(name)
        except NameError_ as exc:
            unresolved[name] = (where, exc.candidates)
    assert unresolved == {}


def test_every_question_taking_a_card_says_in_its_help_what_a_card_may_be_and_each_form_it_names_answers():
    from kb.questions import base, module, questions

    taking = sorted(q for q in questions() if base.CARD in module(q).PARAMS)
    assert {"mig", "methods", "resource"} <= set(taking)
    for q in taking:
        en, de = run("ask", q, "--help"), run("ask", q, "--help", "--lang", "de")
        assert "CARD: the card's name as NVIDIA writes it (L40S, H100 SXM5 80GB), another" in en.output, q
        assert "KARTE: der Name der Karte, wie NVIDIA ihn schreibt (L40S, H100 SXM5 80GB)" in de.output, q
    # the forms the help names, each answered for its card
    for typed, card in (("L40S", "l40s"), ("H100 SXM5 80GB", "h100-sxm5-80gb"), ("NVIDIA-H100-80GB-HBM3", "h100-sxm5-80gb"),
                        ("10de:2330", "h100-sxm5-80gb")):
        result = run("ask", "mig", typed, "--json")
        assert result.exit_code == 0 and json.loads(result.output)["inputs"]["card"] == card, (typed, result.output)
