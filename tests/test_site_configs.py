"""The configuration to copy on the guide pages (kb.site.configs): every block is read by `gpukb check`, together
with the blocks it refers to, with no error or warning — the site never shows a configuration our own checker
rejects — and the guide shows at least eight YAML blocks in each language."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from kb.catalog.compiled import load_data
from kb.catalog.facts import FactError
from kb.check.run import check
from kb.site import configs
from kb.site.markers import MarkerError, expand
from kb.site.page import Ctx

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide"
MARKER = re.compile(r"\{\{\s*config:\s*([\w.-]+)\s*\}\}")


@pytest.fixture(scope="module")
def data():
    return load_data()


def run(data: dict, tmp_path: Path, texts: dict[str, str]):
    """gpukb check on the texts as files (name → text), as a customer would run it on the copied blocks."""
    names = []
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text + "\n", encoding="utf-8")
        names.append(str(path))
    return check(names, data, lang="en")


def files_of(data: dict, *ids: str) -> dict[str, str]:
    return {f"{i}.{'sh' if configs.BLOCKS[i].lang == 'sh' else 'yaml'}": configs.block_text(data, i) for i in ids}


@pytest.mark.parametrize("block_id", sorted(configs.BLOCKS))
def test_gpukb_check_reads_the_block_and_finds_nothing_wrong(data, tmp_path, block_id):
    block = configs.BLOCKS[block_id]
    report = run(data, tmp_path, files_of(data, block_id, *block.with_))
    assert [(f["severity"], f["rule"], f["message"]) for f in report.findings if f["severity"] != "info"] == []
    assert report.summary["not_read"] == [] and report.summary["ignored"] == []
    # what the block is was read from the block itself: the blocks it refers to are of other kinds
    assert block.reads and all(report.summary["checked"].get(kind) for kind in block.reads), report.summary["checked"]
    for other in block.with_:
        assert not set(configs.BLOCKS[other].reads) & set(block.reads), (block_id, other)


def test_a_block_changed_into_a_mistake_is_caught(data, tmp_path):
    """The check above can fail: the pod of the time-slicing page, asking for the renamed resource while the
    ConfigMap keeps the name, is an error for gpukb check."""
    texts = files_of(data, "time-slicing-pod", "time-slicing-configmap", "time-slicing-values")
    texts["time-slicing-pod.yaml"] = texts["time-slicing-pod.yaml"].replace("nvidia.com/gpu: 1", "nvidia.com/gpu.shared: 1")
    assert "nvidia.com/gpu.shared" in texts["time-slicing-pod.yaml"]
    report = run(data, tmp_path, texts)
    assert any(f["severity"] == "error" for f in report.findings)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_guide_shows_every_block_and_at_least_eight_yaml_blocks(lang):
    used = [m.group(1) for page in sorted(GUIDE.glob(f"*.{lang}.md"))
            for m in MARKER.finditer(page.read_text(encoding="utf-8"))]
    assert set(used) == set(configs.BLOCKS)
    assert sum(configs.BLOCKS[b].lang == "yaml" for b in used) >= 8


def test_facts_in_the_blocks_come_from_the_catalog(data):
    card = configs.example_card(data)
    smallest = min((p for p in card["mig"]["profiles"] if not p.get("variant")), key=lambda p: p["memory_gb"])
    assert f"nvidia.com/mig-{smallest['name']}: 1" in configs.block_text(data, "mig-mixed-pod")
    assert f"{smallest['name']}: {smallest['max_count']}" in configs.block_text(data, "mig-custom-config")
    assert f"nvidia.com/mig.config=all-{smallest['name']}" in configs.block_text(data, "mig-label")
    # a resource name the catalog no longer has fails the build instead of showing a guess
    changed = copy.deepcopy(data)
    changed["methods"]["time-slicing"]["resource_names"] = [
        r for r in changed["methods"]["time-slicing"]["resource_names"] if r["name"] != "nvidia.com/gpu"]
    with pytest.raises(FactError, match="nvidia.com/gpu"):
        configs.block_text(changed, "time-slicing-configmap")
    changed = copy.deepcopy(data)
    changed["releases"]["gpu-operator"]["settings"] = [
        s for s in changed["releases"]["gpu-operator"]["settings"] if s["key"] != "mig.strategy"]
    with pytest.raises(FactError, match="mig.strategy"):
        configs.block_text(changed, "mig-values-mixed")


def test_the_marker_renders_a_titled_code_block_in_the_pages_language(data):
    de = expand("Text\n\n{{ config: mps-values }}\n", Ctx(data, "de", "https://example.org/r"))
    en = expand("- item\n\n    {{ config: mps-values }}\n", Ctx(data, "en", "https://example.org/r"))
    assert '```yaml title="Helm-Werte des GPU Operators: MPS für alle Nodes (values.yaml)"\ndevicePlugin:' in de
    assert '    ```yaml title="GPU Operator Helm values: MPS for all nodes (values.yaml)"\n    devicePlugin:\n' in en
    assert en.rstrip().endswith("    ```")


@pytest.mark.parametrize("page, message", [
    ("See {{ config: mps-values }}\n", "must stand alone on its line"),
    ("{{ config: mps-values }} {{ config: mps-pod }}\n", "must stand alone on its line"),
    ("{{ config: no-such-block }}\n", "unknown configuration block 'no-such-block'"),
])
def test_bad_config_markers_fail_the_build(data, page, message):
    with pytest.raises(MarkerError, match=message):
        expand(page, Ctx(data, "en", "https://example.org/r"))
