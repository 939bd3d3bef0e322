"""kb.catalog.facts: the one resolver of fact references (rules' cites, guide markers, seed coverage, lint)
and the one builder of citation dicts."""

from __future__ import annotations

import pytest

from kb.catalog.facts import FactError, citation, citations, get_path, resolve_ref


def fact(value, *quotes):
    return {"value": value, "cite": [{"source": "doc", "quote": q} for q in quotes or ("q",)]}


CARD = {
    "mig": {"status": fact("documented", "MIG"), "profiles": [
        {"name": "1g.24gb", "cite": [{"source": "doc", "section": "Profiles", "quote": "1g.24gb"}]},
        {"name": "2g.48gb", "cite": [{"source": "doc", "quote": "2g.48gb"}]}],
        "min_driver": {**fact("580", "580"), "disputed_by": [fact("575", "575")]}},
    "operator_support": {"driver_exceptions": [{"driver": "575.57.08", "fact": fact(True, "575.57.08")}]},
}
METHOD = {
    "limits": [{"id": "no-nccl", "cite": [{"source": "doc", "quote": "NCCL"}]}],
    "suited_for": [{"workload": "dev", "cite": [{"source": "doc", "quote": "dev"}]}],
    "config_keys": [
        {"key": "sharing.mps.resources[].replicas", "cite": [{"source": "doc", "quote": "replicas"}]},
        {"key": "resources.limits[nvidia.com/gpu]", "cite": [{"source": "doc", "quote": "limits"}]},
        {"key": "nvidia.com/mig.config", "cite": [{"source": "doc", "quote": "config"}]},
        {"key": "nvidia.com/mig.config.state", "cite": [{"source": "doc", "quote": "state"}]},
    ],
}
RELEASES = {
    "releases": [{"version": "26.7.0", "date": fact("2026-07-01"), "changes": [{"id": "dra-managed", **fact(None)}],
                  "components": [{"component": "device-plugin", "version": "0.20.0"}]}],
    "settings": [{"key": "toolkit.enabled", "default": fact(True, "toolkit")},
                 {"key": "cdi.enabled", "default": fact(True, "new")}, {"key": "cdi.enabled", "default": fact(False, "old")}],
}
DATA = {"sources": {"doc": {"title": "The doc", "url": "https://example.invalid/doc"}},
        "cards": {"h200-nvl": CARD}, "methods": {"mps": METHOD}, "releases": {"gpu-operator": RELEASES}}


@pytest.mark.parametrize("entity, path, expected", [
    (CARD, "mig.status", CARD["mig"]["status"]),                                       # fields
    (CARD, "", CARD),
    (CARD, "mig.profiles[1]", CARD["mig"]["profiles"][1]),                             # index
    (CARD, "mig.min_driver.disputed_by[0]", CARD["mig"]["min_driver"]["disputed_by"][0]),
    (CARD, "mig.profiles[2g.48gb]", CARD["mig"]["profiles"][1]),                       # [name]
    (CARD, "operator_support.driver_exceptions[575.57.08].fact", CARD["operator_support"]["driver_exceptions"][0]["fact"]),
    (METHOD, "limits[no-nccl]", METHOD["limits"][0]),                                  # [id]
    (METHOD, "limits.no-nccl", METHOD["limits"][0]),                                   # .id
    (METHOD, "suited_for[dev]", METHOD["suited_for"][0]),                              # [workload]
    (METHOD, "config_keys[sharing.mps.resources[].replicas]", METHOD["config_keys"][0]),  # brackets in a key
    (METHOD, "config_keys.sharing.mps.resources[].replicas", METHOD["config_keys"][0]),
    (METHOD, "config_keys[resources.limits[nvidia.com/gpu]]", METHOD["config_keys"][1]),
    (METHOD, "config_keys.resources.limits[nvidia.com/gpu]", METHOD["config_keys"][1]),
    (METHOD, "config_keys.nvidia.com/mig.config", METHOD["config_keys"][2]),           # the longest key that fits
    (METHOD, "config_keys.nvidia.com/mig.config.state", METHOD["config_keys"][3]),
    (METHOD, "config_keys[nvidia.com/mig.config]", METHOD["config_keys"][2]),
    (RELEASES, "releases[26.7.0].changes[dra-managed]", RELEASES["releases"][0]["changes"][0]),  # [version]
    (RELEASES, "releases.26.7.0.date", RELEASES["releases"][0]["date"]),
    (RELEASES, "releases[26.7.0].components[device-plugin]", RELEASES["releases"][0]["components"][0]),
    (RELEASES, "settings.toolkit.enabled", RELEASES["settings"][0]),                   # dotted key, no brackets
    (RELEASES, "settings[toolkit.enabled].default", RELEASES["settings"][0]["default"]),
    (RELEASES, "settings[cdi.enabled]", RELEASES["settings"][1:]),                     # two items with one key
    (RELEASES, "settings.cdi.enabled", RELEASES["settings"][1:]),
])
def test_get_path(entity, path, expected):
    assert get_path(entity, path) is expected or get_path(entity, path) == expected


@pytest.mark.parametrize("path, message", [
    ("mig.colour", "no field 'colour' in 'mig'"),
    ("mig.statuss", "no field 'statuss' in 'mig'; did you mean 'status'?"),
    ("mig.profiles[3g.48gb]", "no item [3g.48gb] in 'mig.profiles'; did you mean '2g.48gb'?"),
    ("mig.profiles.9g", "no item '9g' in 'mig.profiles'"),
    ("mig.profiles[5]", "no item [5] in 'mig.profiles' (it has 2)"),
    ("mig.status[x]", "[x] selects from 'mig.status', which is not a list"),
    ("mig.status.value.x", "'mig.status.value' is a single value: nothing to select with 'x'"),
    ("mig..status", "cannot read 'mig..status' at '..status'"),
    ("mig.", "cannot read 'mig.' at '.'"),
    ("mig]", "cannot read 'mig]' at ']'"),
    ("mig.profiles[1g.24gb", "unclosed [ in 'mig.profiles[1g.24gb'"),
])
def test_get_path_errors(path, message):
    with pytest.raises(FactError) as exc:
        get_path(CARD, path)
    assert str(exc.value) == message
    assert isinstance(exc.value, KeyError)  # callers that catch KeyError keep working


def test_several_items_with_one_key_end_the_path():
    with pytest.raises(FactError) as exc:
        get_path(RELEASES, "settings[cdi.enabled].default")
    assert str(exc.value) == "2 items in 'settings' have the key [cdi.enabled]: the path cannot go on from them"


@pytest.mark.parametrize("ref", ["cards/h200-nvl#mig.status", "cards/h200-nvl mig.status", " cards/h200-nvl  mig.status "])
def test_resolve_ref_reads_rule_and_guide_form(ref):
    assert resolve_ref(DATA, ref) is CARD["mig"]["status"]


@pytest.mark.parametrize("ref, message", [
    ("cards/h200#mig.status", "cards/h200#mig.status: no card 'h200' in the catalog; did you mean 'h200-nvl'?"),
    ("gpus/h200-nvl#mig.status", "gpus/h200-nvl#mig.status: unknown entity kind 'gpus' (use one of cards, releases, methods)"),
    ("methods/mps#limits[no-ncl]", "methods/mps#limits[no-ncl]: no item [no-ncl] in 'limits'; did you mean 'no-nccl'?"),
    ("releases/gpu-operator releases[26.7.1]", "releases/gpu-operator releases[26.7.1]: no item [26.7.1] in 'releases'; "
     "did you mean '26.7.0'?"),
])
def test_resolve_ref_errors(ref, message):
    with pytest.raises(FactError) as exc:
        resolve_ref(DATA, ref)
    assert str(exc.value) == message and exc.value.ref == ref


def test_citation_adds_title_and_url():
    assert citation(DATA, {"source": "doc", "section": "S", "quote": "q", "snapshot": "2026-01-01"}) == {
        "source": "doc", "title": "The doc", "url": "https://example.invalid/doc", "section": "S", "quote": "q"}
    assert citation(DATA, {"source": "gone", "quote": "q"}) == {
        "source": "gone", "title": "gone", "url": None, "section": None, "quote": "q"}


def test_citations_of_a_fact_a_list_and_an_uncited_node():
    doc = {"source": "doc", "title": "The doc", "url": "https://example.invalid/doc"}
    assert citations(DATA, resolve_ref(DATA, "cards/h200-nvl#mig.status")) == [{**doc, "section": None, "quote": "MIG"}]
    assert citations(DATA, resolve_ref(DATA, "cards/h200-nvl#mig.profiles")) == [
        {**doc, "section": "Profiles", "quote": "1g.24gb"}, {**doc, "section": None, "quote": "2g.48gb"}]
    assert citations(DATA, resolve_ref(DATA, "releases/gpu-operator#settings[cdi.enabled]")) == []  # cited one level down
    assert citations(DATA, resolve_ref(DATA, "cards/h200-nvl#mig")) == []
    twice = {"value": 1, "cite": [{"source": "doc", "quote": "same"}, {"source": "doc", "quote": "same"}]}
    assert citations(DATA, twice) == [{**doc, "section": None, "quote": "same"}]
