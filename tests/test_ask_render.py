"""What a person reads: the answers of the matrix (of the real catalog: every card and question on a sample of
the operator releases; GPUKB_FULL=1 all), in German and English, without raw catalog ids.

The JSON keeps ids (`details.maturity == "ga"`); the text form and every reason, condition and summary
use words. A condition reads the same for every GPU Operator release it applies to (the site numbers
equal conditions once).
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from kb.answer import render_text
from kb.catalog.compiled import load_data

from conftest import FIXTURES, REPO
from realmatrix import matrix
from sampling import sample

#: catalog ids that are not words of either language (the values the catalog defines, read from it)
_INDEX = load_data(REPO / "catalog")["index"]
IDS = tuple(i for i in ("not-listed", "datasheet-only", "ga", *_INDEX["workloads"], *_INDEX["dra_features"],
                        *_INDEX["methods"]) if "-" in i and i != "time-slicing")  # time-slicing: English too
#: ids that are English words but not German ones
ENGLISH = ("documented", "announced", "conditional", "unconfirmed", "yes", "no", "none", "partial", "full", "whole",
           "training", "dev", "time-slicing", "mps", "alpha", "mode", "feature", "profile", "replicas", "isolation",
           "workload", "why", "rank", "method", "risk", "maturity", "strategy")


@pytest.fixture(scope="module", params=["fixture", "real"])
def answers(request):
    root = FIXTURES / "catalog" if request.param == "fixture" else REPO / "catalog"
    return matrix(load_data(root))


@pytest.fixture(scope="module")
def rendered(answers):
    """(answer, {lang: its text form}) for every answer about a sample of the operator releases (every answer of
    the fixture catalog; of the real one, each card and question on the oldest, the newest and 3 more releases:
    GPUKB_FULL=1 renders all), each rendered once for the tests below."""
    releases = sorted({a["inputs"]["operator"] for a in answers if a["inputs"].get("operator")},
                      key=lambda v: tuple(int(p) for p in v.split(".")))
    kept = set(sample(releases, 5, seed="ask-render"))
    return [(a, {lang: render_text(a, lang) for lang in ("en", "de")})
            for a in answers if a["inputs"].get("operator") in kept or not a["inputs"].get("operator")]


def _reading(text: str) -> str:
    """The part of a text answer a person reads (sources are titles and quotes of the documents)."""
    for head in ("\nSources:", "\nQuellen:"):
        text = text.split(head)[0]
    return text


def _words(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w./<-])[a-z][a-z-]*[a-z](?![\w./>-])", text))


def test_no_catalog_id_in_any_text_answer(rendered):
    found = defaultdict(set)
    for a, text in rendered:
        for lang in ("en", "de"):
            for w in _words(_reading(text[lang])) & set(IDS):
                found[(lang, w)].add(f"{a['question']} {a['inputs']}")
    assert {k: sorted(v)[:2] for k, v in found.items()} == {}


def test_no_english_value_in_a_german_text_answer(rendered):
    found = defaultdict(set)
    for a, text in rendered:
        for w in _words(_reading(text["de"])) & set(ENGLISH):
            found[w].add(f"{a['question']} {a['inputs']}")
    assert {k: sorted(v)[:2] for k, v in found.items()} == {}


def test_no_english_value_in_german_rule_titles_with_explain(answers):
    titles = {(r["rule"], r["title"]["de"]) for a in answers for r in a["reasons"]}
    assert sorted(t for t in titles if _words(t[1]) & set(ENGLISH + IDS)) == []


def test_a_condition_reads_the_same_for_every_operator_release(answers):
    texts = defaultdict(set)
    for a in answers:
        if "operator" not in a["inputs"]:
            continue
        same = tuple(sorted((k, repr(v)) for k, v in a["inputs"].items() if k != "operator"))
        for lang in ("en", "de"):
            for rule in {c["rule"] for c in a["conditions"]}:
                texts[(a["question"], same, rule, lang)].add(
                    tuple(c["text"][lang] for c in a["conditions"] if c["rule"] == rule))
    assert {k: v for k, v in texts.items() if len(v) > 1} == {}


def test_a_mig_condition_reads_the_same_for_every_card(answers):
    """`ask mig` answers about one card, named in its heading: its conditions need not name it, so the site's
    card × release matrix shows each condition once with the cards it applies to."""
    texts = defaultdict(set)
    for a in answers:
        if a["question"] == "mig":
            for c in a["conditions"]:
                texts[c["rule"]].add(c["text"]["en"])
    assert {rule: sorted(t) for rule, t in texts.items() if len(t) > 1 and rule != "MIG-011"} == {}


def test_product_names_keep_their_case(rendered):
    shown = {w for _a, text in rendered for lang in ("en", "de") for w in ("VGPU", "Vgpu", "Mps", "Dra") if w in text[lang]}
    assert shown == set()
