"""Version strings as users type them."""

from __future__ import annotations

import pytest

from kb import versions
from kb.text import Text
from kb.versions import VersionError

KNOWN = ["25.10.0", "26.3.0", "26.3.3", "26.7.0"]


@pytest.mark.parametrize("typed, meant", [("v26.7.0", "26.7.0"), ("26.7.0", "26.7.0"), ("26.7", "26.7.0"),
                                          (" V25.10.0 ", "25.10.0"), ("26.3.3", "26.3.3"), ("26.3.0", "26.3.0"),
                                          ("25.10", "25.10.0")])
def test_operator_versions_resolve_to_known_releases(typed, meant):
    assert versions.operator(typed, KNOWN) == meant


@pytest.mark.parametrize("typed", ["25.10.1", "26.7.1", "27", "latest", "26..7"])
def test_an_unknown_operator_version_lists_the_known_ones(typed):
    with pytest.raises(VersionError) as err:
        versions.operator(typed, KNOWN)
    assert "known releases: 26.7.0, 26.3.3, 26.3.0, 25.10.0" in str(err.value)
    assert err.value.known == ["26.7.0", "26.3.3", "26.3.0", "25.10.0"]


@pytest.mark.parametrize("typed", ["24.9.0", "v25.3", "1.11.1"])
def test_a_release_older_than_the_history_names_the_oldest_known(typed):
    with pytest.raises(VersionError) as err:
        versions.operator(typed, KNOWN)
    shown = typed.strip().lstrip("v")
    assert err.value.text == Text(f"GPU Operator {shown} is older than every release we know; the oldest is 25.10.0",
                                  f"GPU Operator {shown} ist älter als alle Releases, die wir kennen; das älteste ist 25.10.0")
    assert err.value.known == ["25.10.0"]


def test_a_prefix_matching_one_release_resolves():
    assert versions.operator("25.10", ["25.10.1", "26.3.0"]) == "25.10.1"


@pytest.mark.parametrize("typed", ["26.3", "v26.3", "26"])
def test_a_short_version_fitting_several_releases_is_not_guessed(typed):
    with pytest.raises(VersionError) as err:
        versions.operator(typed, KNOWN)
    assert "fits several releases: 26.3.3, 26.3.0" in str(err.value) or typed == "26"
    assert "name the patch release" in str(err.value)


@pytest.mark.parametrize("typed, meant", [("575.57.08", "575.57.08"), ("v580.82.07", "580.82.07"), ("580.82", "580.82")])
def test_driver_versions(typed, meant):
    assert versions.driver(typed) == meant


@pytest.mark.parametrize("typed", ["575", "latest", "575.57.08.1.2", "1000.1"])
def test_bad_driver_versions(typed):
    with pytest.raises(VersionError):
        versions.driver(typed)


@pytest.mark.parametrize("typed, meant", [("1.34.2", "1.34.2"), ("v1.34.2", "1.34.2"), ("1.35", "1.35.0")])
def test_kubernetes_versions(typed, meant):
    assert versions.kubernetes(typed) == meant


def test_versions_compare_as_numbers_not_text():
    assert versions.key("26.7") == versions.key("26.7.0") < versions.key("26.10.0")
    assert versions.key("1.34.10") > versions.key("1.34.2")
    assert versions.compare("575.57.08", "580") == "below"
    assert versions.compare("580.82.07", "580") == "meets"
    assert versions.compare("v1.34.2-eks-1", "1.34.2") == "meets"
    assert versions.compare(None, "1.34.2") is versions.compare("latest", "1.34.2") is None


@pytest.mark.parametrize("written, meant", [("v1.34.2-eks-1", "1.34.2"), ("v0.20.0", "0.20.0"), ("580.82.07+abc", "580.82.07"),
                                            (" 26.7 ", "26.7"), ("latest", None), ("1.2.3.4.5", None), (3, None),
                                            ("1000.1", None)])
def test_versions_as_manifests_write_them(written, meant):
    assert versions.from_manifest(written) == meant


def test_a_version_error_is_unusable_input_in_both_languages():
    with pytest.raises(VersionError) as err:
        versions.driver("latest")
    assert err.value.kind == "unusable-input" and isinstance(err.value, ValueError)
    assert err.value.text == {"en": "'latest' is not a driver version (e.g. 575.57.08 or 580.82)",
                              "de": "„latest“ ist keine Treiberversion (z. B. 575.57.08)"}


def test_ranges_include_since_and_exclude_until():
    assert versions.in_range("26.3.0", since="26.3.0")
    assert not versions.in_range("25.10.0", since="26.3.0")
    assert versions.in_range("26.3.3", since="26.3.0", until="26.7.0")
    assert not versions.in_range("26.7.0", until="26.7.0")
