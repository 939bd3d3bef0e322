"""The real catalog: lint-clean (schema, citations, sources, aliases, versions, quotes, rules) and the
issue's name-resolution examples."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import SHARED
from kb.catalog.compiled import load_data
from kb.catalog.names import NameError_, NameIndex
from kb.cli.main import cli


def test_real_catalog_is_lint_clean():
    result = CliRunner().invoke(cli, ["lint", "--json"], env={"GPUKB_SHARED": str(SHARED)})
    data = json.loads(result.output)
    assert data["problems"] == []
    assert result.exit_code == 0
    expected_quotes = "passed" if (SHARED / "sources").is_dir() else f"skipped: {SHARED} not found"
    assert data["checks"]["quotes"] == expected_quotes
    assert list(data["checks"]) == ["schema", "sources", "aliases", "versions", "quotes", "citations", "rules",
                                    "known_issues", "files", "links", "jargon", "style", "translations"]
    assert all(state == "passed" for name, state in data["checks"].items() if name != "quotes")


@pytest.fixture(scope="module")
def index():
    return NameIndex(load_data()["cards"])


@pytest.mark.parametrize("typed, card", [
    ("H200NVL", "h200-nvl"),
    ("NVIDIA-H200-NVL", "h200-nvl"),
    ("rtx pro 6000 workstation", "rtx-pro-6000-blackwell-workstation"),
    ("RTX PRO 6000 Max-Q", "rtx-pro-6000-blackwell-max-q"),
    ("RTX PRO 6000 Server Edition", "rtx-pro-6000-blackwell-server"),
    ("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", "rtx-pro-6000-blackwell-server"),
    ("RTX PRO 5000", "rtx-pro-5000-blackwell"),
    ("RTX PRO 5000 72GB", "rtx-pro-5000-blackwell-72gb"),
    ("RTX PRO 4500", "rtx-pro-4500-blackwell"),
    ("RTX Pro 4500 Blackwell Server Edition", "rtx-pro-4500-blackwell-server"),
    ("l40s", "l40s"),
    ("L4", "l4"),
    ("L40", "l40"),                      # NVIDIA's L40, not the L40S
    ("H200", "h200"),                    # the support list's and nvidia-smi's "NVIDIA H200" is the SXM card
    ("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "a100-sxm4-40gb"),
    ("Tesla-T4-SHARED", "t4"),
    ("0x2335", "h200"),
    ("DGX H100", "h100-sxm5-80gb"),
    ("DGX Station", "gb300"),
])
def test_names_support_staff_type(index, typed, card):
    assert index.resolve(typed) == card


def test_rtx_pro_6000_alone_is_ambiguous(index):
    with pytest.raises(NameError_) as exc:
        index.resolve("RTX PRO 6000")
    assert exc.value.ambiguous
    assert exc.value.candidates == ["rtx-pro-6000-blackwell-max-q", "rtx-pro-6000-blackwell-server",
                                    "rtx-pro-6000-blackwell-workstation"]


def test_a100_alone_is_ambiguous_without_the_a100x(index):
    with pytest.raises(NameError_) as exc:
        index.resolve("A100")
    assert exc.value.ambiguous
    assert exc.value.candidates == ["a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm4-40gb", "a100-sxm4-80gb"]


@pytest.mark.parametrize("typed, suggested", [("A10M", "a10"), ("L40G", "l40"), ("RTX PRO 550", "rtx-pro-5500-blackwell")])
def test_other_products_are_not_guessed(index, typed, suggested):
    with pytest.raises(NameError_) as exc:
        index.resolve(typed)
    assert suggested in exc.value.candidates


def test_a_short_operator_version_fitting_several_releases_exits_2_in_both_languages():
    en = CliRunner().invoke(cli, ["ask", "mig", "H200 NVL", "--operator", "26.3"])
    de = CliRunner().invoke(cli, ["ask", "mig", "H200 NVL", "--operator", "26.3", "--lang", "de"])
    assert (en.exit_code, de.exit_code) == (2, 2)
    assert en.output == ("Error: GPU Operator 26.3 fits several releases: 26.3.3, 26.3.2, 26.3.1, 26.3.0; "
                         "name the patch release\n")
    assert de.output == ("Fehler: GPU Operator 26.3 passt auf mehrere Releases: 26.3.3, 26.3.2, 26.3.1, 26.3.0; "
                         "nennen Sie das Patch-Release\n")


def test_every_card_fact_has_a_label_in_both_languages():
    """`gpukb card` never shows a raw field path where a person expects words."""
    import re

    from kb.render.card import card_facts
    from kb.render.labels import FIELD_LABELS

    data = load_data()
    paths = {re.sub(r"\[\d+\]", "", f["path"]) for cid in data["cards"] for f in card_facts(data, cid)}
    assert sorted(p for p in paths if p not in FIELD_LABELS) == []


def test_card_text_in_german_has_words_for_the_vgpu_list():
    from kb.render.card import card_text

    text = card_text(load_data(), "rtx-pro-5000-blackwell", "de")
    assert "GPU Operator: KubeVirt mit NVIDIA vGPU: nicht auf der Geräteliste" in text


def test_l40s_vgpu_follows_the_operators_code_and_keeps_the_device_list_as_disputed():
    """gpu-operator#719: the operator ships L40S vGPU types since v24.6.0 (assets/state-vgpu-device-manager/
    0500_configmap.yaml), the platform-support device list does not name the L40S: the code decides."""
    from kb.render.card import card_text

    text = card_text(load_data(), "l40s", "de")
    assert "GPU Operator: KubeVirt mit NVIDIA vGPU: unterstützt" in text
    assert "Abweichend: nicht auf der Geräteliste" in text


def test_check_and_ask_dra_treat_a_kubernetes_minor_alike(tmp_path):
    """'1.34' could be below or above the DRA driver's 1.34.2: neither `ask dra` nor `check` guesses."""
    manifest = tmp_path / "node.yaml"
    manifest.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    for args in (["ask", "dra", "--k8s", "1.34"], ["check", str(manifest), "--k8s", "1.34"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, args
        assert result.output == ("Error: Kubernetes 1.34 without a patch release cannot be answered: NVIDIA's DRA "
                                 "driver needs 1.34.2 or newer; say which 1.34.x the cluster runs\n")
    assert CliRunner().invoke(cli, ["check", str(manifest), "--k8s", "1.35"]).exit_code == 0
