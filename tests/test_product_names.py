"""The names the driver reports (`product_names`, issue 11): each cited to an NVIDIA document or code that shows it,
each resolving to its card in the forms tools write it (nvidia-smi, GPU Feature Discovery labels with -SHARED and
-MIG-<profile>), and the quotes of NVIDIA's code and PCI id list standing at their tag or commit and line in a clone
($GPUKB_MIRROR or ../.mirror; skipped, saying so, without it)."""

from __future__ import annotations

import re
import subprocess

import pytest

from kb.catalog.compiled import load_data
from kb.catalog.names import NameError_, NameIndex
from kb.lint.checks.citations import name_shown

from conftest import MIRROR, REPO

#: sources cited at a line of a repository → the clone of that repository
CLONES = {"nvidia-pci-ids": "NVIDIA+gpu-operator", "gpu-operator-code": "NVIDIA+gpu-operator",
          "mig-parted-code": "NVIDIA+mig-parted", "dra-driver-code": "kubernetes-sigs+dra-driver-nvidia-gpu"}


@pytest.fixture(scope="module")
def data():
    return load_data(REPO / "catalog")


@pytest.fixture(scope="module")
def names(data):
    return NameIndex(data["cards"])


def test_every_product_name_is_cited_and_its_quote_shows_it(data):
    count = 0
    for cid, card in data["cards"].items():
        for product in card.get("product_names", []):
            assert product["cite"] and name_shown(product["name"], product["cite"]), (cid, product["name"])
            assert all(c["source"] in data["sources"] for c in product["cite"]), (cid, product["name"])
            count += 1
    assert count >= 28


def test_name_shown_takes_spaces_and_hyphens_alike_but_not_a_longer_name():
    assert name_shown("Tesla V100 SXM2 16GB", [{"quote": "1db1  GV100GL [Tesla V100 SXM2 16GB]"}])
    assert name_shown("NVIDIA H100 80GB HBM3", [{"quote": '"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",'}])
    assert name_shown("NVIDIA A100-SXM4-40GB", [{"quote": "nvidia.com/gpu.product: A100-SXM4-40GB"}])
    assert not name_shown("NVIDIA H200", [{"quote": "NVIDIA H2000"}])
    assert not name_shown("NVIDIA L4", [{"quote": "NVIDIA L40S"}])
    assert not name_shown("NVIDIA A30", [{"quote": "The following NVIDIA data center GPUs are supported"}])


@pytest.mark.parametrize("typed", [
    "Tesla-V100-SXM2-16GB", "Tesla V100-SXM2-32GB", "Tesla-V100-PCIE-16GB", "Tesla V100-PCIE-32GB",
    "Tesla-V100-SXM2-16GB-SHARED", "Tesla V100-SXM3-32GB", "0x1DB1", "NVIDIA V100"])
def test_v100_names_as_tools_write_them_resolve_to_the_v100(names, typed):
    assert names.resolve(typed) == "v100"


def test_a_v100s_is_not_guessed_but_suggests_the_v100(names):
    with pytest.raises(NameError_) as exc:
        names.resolve("Tesla V100S-PCIE-32GB")
    assert exc.value.candidates[:1] == ["v100"]


@pytest.mark.parametrize("typed, card", [
    ("NVIDIA-H100-PCIe", "h100-pcie-80gb"), ("NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", "h100-sxm5-80gb"),
    ("NVIDIA-A100-80GB-PCIe", "a100-pcie-80gb"), ("NVIDIA-GH200-480GB", "gh200"),
    ("NVIDIA-RTX-PRO-6000-Blackwell-Max-Q-Workstation-Edition", "rtx-pro-6000-blackwell-max-q"),
    ("NVIDIA-A100-PCIE-40GB-MIG-1g.5gb", "a100-pcie-40gb"), ("0x2BB4", "rtx-pro-6000-blackwell-max-q"),
])
def test_labels_of_real_nodes_resolve(names, typed, card):
    assert names.resolve(typed) == card


def _cites(node):
    if isinstance(node, dict):
        for c in node.get("cite", []) if isinstance(node.get("cite"), list) else []:
            yield c
        for v in node.values():
            yield from _cites(v)
    elif isinstance(node, list):
        for v in node:
            yield from _cites(v)


def test_every_quote_of_nvidias_code_in_names_and_device_ids_stands_at_its_line(data):
    """Product names and PCI device ids citing a line of NVIDIA's code or PCI id list (`page: blob/<ref>/<path>#L<n>`):
    the line at that ref is the quote."""
    files: dict[tuple, list[str]] = {}
    checked, missing = 0, set()
    for cid, card in data["cards"].items():
        for cite in _cites({"p": card.get("product_names", []), "i": card.get("pci_device_ids") or {}}):
            clone = CLONES.get(cite["source"])
            if clone is None or "#L" not in cite.get("page", ""):
                continue
            repo = MIRROR / clone / "repo"
            if not repo.is_dir():
                missing.add(clone)
                continue
            blob, _, line = cite["page"].partition("#L")
            ref, _, path = blob.removeprefix("blob/").partition("/")
            if (clone, ref, path) not in files:
                files[clone, ref, path] = subprocess.run(["git", "-C", str(repo), "show", f"{ref}:{path}"], check=True,
                                                         capture_output=True, text=True).stdout.splitlines()
            assert files[clone, ref, path][int(line) - 1].strip() == cite["quote"], (cid, cite)
            checked += 1
    if not checked:
        pytest.skip(f"no clone of {', '.join(sorted(missing))} under {MIRROR}: fetch them (search tool) to check the "
                    "quotes at their lines")
    assert checked >= 20


def _corpus_labels() -> set[str]:
    root = REPO.parent / "shared" / "corpus" / "manifests"
    if not root.is_dir():
        pytest.skip(f"{root} not present: the real manifests are read from ../shared/corpus")
    labels = set()
    for path in root.glob("*.y*ml"):
        text = path.read_text(errors="replace")
        labels |= set(re.findall(r"nvidia\.com/(?:gpu|mig-[\w.+-]+)\.product\"?\s*[:=]\s*\"?([A-Za-z0-9._+-]+)", text))
        labels |= set(re.findall(r"\b((?:NVIDIA|Tesla|Quadro)-[A-Za-z0-9.+-]+)", text))
    return labels


#: names in the real manifests that are no GPU of NVIDIA's lists, with what they are
NOT_A_GPU: dict[str, str] = {}


def test_every_product_label_of_the_real_manifests_resolves_or_is_stated(names):
    labels = _corpus_labels()
    assert len(labels) >= 6
    unresolved = {}
    for label in sorted(labels):
        try:
            names.resolve(label)
        except NameError_:
            unresolved[label] = NOT_A_GPU.get(label)
    assert {k: v for k, v in unresolved.items() if v is None} == {}


#: the PCI id list the cards cite (NVIDIA go-nvlib's copy of the public PCI ID repository, vendored in the GPU
#: Operator), at the tag their citations name
PCI_IDS = ("NVIDIA+gpu-operator", "v25.10.0", "vendor/github.com/NVIDIA/go-nvlib/pkg/pciids/default_pci.ids")


def _nvidia_devices() -> list[tuple[str, str]]:
    """(device id, the name in brackets) of every NVIDIA device in the PCI id list at PCI_IDS's tag."""
    clone, ref, path = PCI_IDS
    repo = MIRROR / clone / "repo"
    if not repo.is_dir():
        pytest.skip(f"no clone of {clone} under {MIRROR}: fetch it (search tool) to read NVIDIA's PCI id list")
    text = subprocess.run(["git", "-C", str(repo), "show", f"{ref}:{path}"], check=True, capture_output=True,
                          text=True).stdout
    block = text.split("\n10de  NVIDIA Corporation\n", 1)[1]
    block = block[:re.search(r"^[0-9a-f]{4}  ", block, re.M).start()]  # up to the next vendor
    return re.findall(r"^\t([0-9a-f]{4})  [^\[\n]*\[([^\]\n]+)\]", block, re.M)


def test_every_card_named_in_nvidias_pci_id_list_carries_that_id(data):
    """A card one of whose names is the name NVIDIA's PCI id list gives a device (or one of the names it gives one
    device: "A2 / A16") has that device id, so that support can type what `lspci -nn` shows ("[10de:27b8]"); no
    card carries the id of a laptop GPU."""
    devices = _nvidia_devices()
    assert len(devices) > 1000
    by_name: dict[str, set] = {}
    for cid, card in data["cards"].items():
        names = {card["name"], card["short_name"], *card.get("aliases", []),
                 *(p["name"] for p in card.get("product_names", []))}
        for n in names | {n.removeprefix("NVIDIA ") for n in names}:
            by_name.setdefault(n.lower(), set()).add(cid)
    missing, laptop = [], []
    for dev, listed in devices:
        for part in listed.split(" / "):
            for cid in by_name.get(part.strip().lower(), ()):
                if f"0x{dev.upper()}" not in ((data["cards"][cid].get("pci_device_ids") or {}).get("value") or []):
                    missing.append((cid, dev, listed))
        if re.search(r"Mobile|Laptop", listed):
            laptop += [(cid, dev) for cid, card in data["cards"].items()
                       if f"0x{dev.upper()}" in ((card.get("pci_device_ids") or {}).get("value") or [])]
    assert missing == [] and laptop == []


def test_lspci_ids_resolve_and_a_shared_id_names_both_cards(names):
    assert names.resolve("10de:27b8") == "l4" and names.resolve("0x1EB8") == "t4"
    for typed, cards in (("25b6", ["a16", "a2"]), ("10de:1e30", ["quadro-rtx-6000", "quadro-rtx-8000"])):
        with pytest.raises(NameError_) as exc:
            names.resolve(typed)
        assert exc.value.ambiguous and sorted(exc.value.candidates) == cards
