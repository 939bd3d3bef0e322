"""kb.drift.impact within one process: the unpatched answers of a catalog and rule base are computed once (and
the answers a patch changes), recomputed for other data and after the engine forgets; a reworded quote changes no
answer — the same as computing the patched catalog's answers in full."""

from __future__ import annotations

from kb import engine
from kb.catalog.compiled import load_data
from kb.drift import impact
from kb.drift.compare import Change
from kb.text import Text


def unlisted(card: str) -> Change:
    return Change("gpu-operator-platform-support", "product-removed", Text("not listed", "nicht gelistet"),
                  touches=[f"cards/{card} operator_support.listed"],
                  patch=[{"entity": f"cards/{card}", "path": ["operator_support", "listed", "value"], "value": False}])


def reworded(card: str) -> Change:
    return Change("gpu-operator-platform-support", "quote-reworded", Text("reworded", "umformuliert"),
                  touches=[f"cards/{card} operator_support.listed"], rank="reworded",
                  patch=[{"entity": f"cards/{card}", "path": ["operator_support", "listed", "cite", 0, "quote"],
                          "value": "NVIDIA H200 NVL (PCIe)"}],
                  details={"quote": "NVIDIA H200 NVL", "new_quote": "NVIDIA H200 NVL (PCIe)"})


def test_the_unpatched_answers_are_computed_once_per_catalog_and_rule_base(drift_catalog):
    # from an engine that remembers nothing: an earlier test of this process may have asked the same patches of
    # the same catalog (the drift check's tests do), and then nothing here is asked at all
    engine.forget()
    data = load_data()
    first = unlisted("h200-nvl")
    assert impact.attach(data, [first]) == []
    assert first.answers and {a["question"] for a in first.answers} == {"mig"}
    asked = engine.STATS["queries"]
    again = unlisted("h200-nvl")
    impact.attach(data, [again])
    assert (again.answers, engine.STATS["queries"]) == (first.answers, asked)  # nothing answered twice
    other = unlisted("rtx-pro-6000-blackwell-server")  # another patch: its answers only
    impact.attach(data, [other])
    assert 0 < engine.STATS["queries"] - asked < len(load_data()["cards"]) * 100
    # a forgetting engine and other data (another hash): everything answered again, the same answers
    for before in (None, {**data, "hash": f"{data['hash']}-other"}):
        if before is None:
            engine.forget()
            before = data
        asked = engine.STATS["queries"]
        third = unlisted("h200-nvl")
        impact.attach(before, [third])
        assert third.answers == first.answers
        assert engine.STATS["queries"] - asked > len(first.answers)


def test_a_reworded_quote_changes_no_answer_as_computing_them_all_shows(drift_catalog, monkeypatch):
    data = load_data()
    fast = reworded("h200-nvl")
    impact.attach(data, [fast])
    monkeypatch.setattr(impact, "_rewords_only", lambda patch: False)
    impact._DIFFS.clear()
    asked = engine.STATS["queries"]
    full = reworded("h200-nvl")
    impact.attach(data, [full])
    assert engine.STATS["queries"] > asked  # the patched catalog was answered in full
    assert fast.answers == full.answers == []
    # while another value of the same fact does change answers
    assert impact.attach(data, [changed := unlisted("h200-nvl")]) == [] and changed.answers


def test_a_patched_copy_is_answered_from_its_own_facts_not_the_memos_of_the_catalog(monkeypatch):
    """The engine keeps citations, conditions and disputes per catalog content key: a patched copy carrying the
    catalog's key would be answered with the catalog's conditions (here: the GB200's vGPU condition, patched away,
    would still stand in its answers and no answer would be listed as changed)."""
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("methods",))  # the real catalog, one question
    data = load_data()
    assert data["cards"]["gb200"]["operator_support"]["kubevirt_vgpu"].get("condition")
    gone = Change("gpu-operator-platform-support", "note-changed", Text("condition gone", "Bedingung entfallen"),
                  touches=["cards/gb200 operator_support.kubevirt_vgpu"],
                  patch=[{"entity": "cards/gb200", "path": ["operator_support", "kubevirt_vgpu", "condition"],
                          "value": None}])
    assert impact.attach(data, [gone]) == []
    assert {a["question"] for a in gone.answers} == {"methods"}
    assert all(a["inputs"]["card"] == "gb200" for a in gone.answers if "card" in a["inputs"])
    patched = impact.apply(data, gone.patch)
    assert patched["hash"] != data["hash"] and impact.apply(data, gone.patch)["hash"] == patched["hash"]


def test_the_answers_citing_a_lost_quote_are_those_of_the_data_at_hand(drift_catalog):
    """A quote gone from a document lists the answers whose reasons cite it — of the data asked about, not of the
    data an earlier check indexed (kb.drift.impact keeps the index of the last unpatched answers)."""
    import copy

    def gone() -> Change:
        return Change("mig-user-guide", "quote-gone", Text("gone", "weg"), touches=["cards/h200-nvl mig.status"],
                      details={"quote": "H200 NVL"})

    def requote(node):
        if isinstance(node, dict):
            if node.get("source") == "mig-user-guide" and node.get("quote") == "H200 NVL":
                node["quote"] = "NVIDIA H200 NVL"
            for value in node.values():
                requote(value)
        elif isinstance(node, list):
            for value in node:
                requote(value)

    data = load_data()
    first, again = gone(), gone()
    impact.attach(data, [first])
    impact.attach(data, [again])
    assert first.answers and again.answers == first.answers
    assert {a["inputs"].get("card") for a in first.answers} == {"h200-nvl"}
    other = copy.deepcopy(data)
    other["hash"] = f"{data['hash']}-requoted"
    requote(other["cards"]["h200-nvl"])
    elsewhere = gone()
    impact.attach(other, [elsewhere])
    assert elsewhere.answers == []
