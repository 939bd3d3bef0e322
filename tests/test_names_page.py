"""The ask page resolves card names as the CLI does (docs/javascripts/ask.js mirrors kb/catalog/names.py) and
suggests the same cards in the same order: the page's resolver runs in node — one process for every name — on the
real catalog's names, each outcome compared whole (the kind of error and the cards it lists)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import REPO
from kb.catalog.compiled import load_data
from kb.catalog.names import NameError_, NameIndex, normalise, words
from sampling import sample

HARNESS = """
var FILLER = { nvidia: 1, blackwell: 1, edition: 1, gpu: 1 };
var WORDS = { en: { emptyCard: "empty", unknownCard: "unknown {name}", didYouMean: " did-you-mean {list}",
                    ambiguousCard: "fits {list}", severalCards: "several {list}" } };
function say(key, values) {
  return String(WORDS.en[key]).replace(/\\{([a-z]+)\\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
}
function Problem(message) { this.message = message; }
function shown(text) { return "'" + text + "'"; }
%s
var input = JSON.parse(require("fs").readFileSync(0, "utf-8"));
var out = {};
input.names.forEach(function (n) {
  try { out[n] = { id: resolveCard(input.data, n) }; }
  catch (e) { out[n] = { error: e.message }; }
});
process.stdout.write(JSON.stringify(out));
"""


def page_resolver_source() -> str:
    text = (REPO / "docs" / "javascripts" / "ask.js").read_text(encoding="utf-8")
    start = text.index("  // ---------------------------------------------------------------- card names")
    end = text.index("  // ---------------------------------------------------------------- answers")
    return text[start:end]


def cli_outcome(index: NameIndex, name: str) -> dict:
    """What the CLI says of `name`, in the harness's words (kb.questions.base.card_id's message, shortened)."""
    try:
        return {"id": index.resolve(name)}
    except NameError_ as exc:
        if not normalise(name):
            return {"error": "empty"}
        shorts = [index.cards[c]["short_name"] for c in exc.candidates]
        listed = "; ".join(s if shorts.count(s) == 1 else f"{s} ({c})" for s, c in zip(shorts, exc.candidates))
        if exc.several:
            return {"error": f"several {listed}"}
        if exc.ambiguous:
            return {"error": f"fits {listed}"}
        return {"error": f"unknown '{name}'" + (f" did-you-mean {listed}" if listed else "")}


def slips(names: list[str]) -> list[str]:
    """Each name with one typing slip: a character dropped, doubled, replaced by its neighbour on the keyboard
    row or a letter O for a zero — the names "did you mean" is for."""
    out = []
    for i, name in enumerate(names):
        at = (7 * i) % len(name)
        out += [name[:at] + name[at + 1:], name[:at] + name[at] + name[at:],
                name[:at] + {"0": "O", "1": "l"}.get(name[at], chr(ord(name[at]) + 1)) + name[at + 1:]]
    return out


def test_the_page_resolves_names_as_the_cli():
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.skip("node is not installed: the page's resolver cannot run outside a browser here")
    data = load_data(parts=("cards",))
    cards = [{"id": cid, "name": c["name"], "short": c["short_name"], "plain": bool(c.get("plain_product")),
              "names": [cid, c["name"], c["short_name"], *c.get("aliases", []), *(p["name"] for p in c.get("product_names", [])),
                        *(s["name"] for s in c.get("systems", []))],
              "pci": (c.get("pci_device_ids") or {}).get("value", [])} for cid, c in data["cards"].items()]
    index = NameIndex({c["id"]: {"id": c["id"], "name": c["name"], "short_name": c["short"], "aliases": c["names"][3:],
                                 "plain_product": c["plain"], "pci_device_ids": c["pci"]} for c in cards})
    pci = sorted({d for c in cards for d in c["pci"]})
    assert len(pci) > 20  # the real catalog's device ids, written as the driver, lspci and mig-parted write them
    names = ["H200 NV", "H200", "H200 NVL", "L4 L40S", "H200 NVL or L4", "L4, L40S", "H200 und H200 NVL",
             "RTX PRO 6000 Server Edition Max-Q", "RTX PRO 6000", "A100", "A100 80GB", "H100 SXM5", "A10G", "L40G",
             "6000 rtx pro server edition", "rtx pro 6000 max", "toaster", "Ｌ４", "DGX A100", "NVIDIA-H200-NVL",
             # typing slips (close names), words holding a whole name, node labels, a long text (difflib's autojunk)
             "H20O NVL", "L40G", "L40x", "B200x", "H101", "A1OO", "RTX PRO 9000", "H100 SXM5 80GB HBM3",
             "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "NVIDIA-H100-80GB-HBM3-SHARED", "NVIDIA-L4-SHARED", "L4-SHARED x",
             "H200 NVL " * 30, "h" * 250 + "200"]
    every = [n for c in cards for n in c["names"]]
    prefixes = sorted({n[:end] for n in every for end in range(1, len(n)) if n[:end].strip()})
    names += sample(every, 40, seed="page-names") + sample(prefixes, 300, seed="page-prefixes",
                                                           always=[p for p in prefixes if words(p) == {"h", "200", "nv"}])
    names += slips(sample(every, 60, seed="page-slips"))
    names += [form.format(d[-4:]) for d in sample(pci, 8, seed="page-pci")
              for form in ("0x{}", "{}", "0x{}10DE", "10de:{}", " 10DE:{} ")] + ["10de:2330", "0x0000", "10de:zzzz", "2330x"]
    names = list(dict.fromkeys(names))
    result = subprocess.run([node, "-e", HARNESS % page_resolver_source()], input=json.dumps({"data": {"cards": cards},
                            "names": names}), capture_output=True, text=True, timeout=120, check=True)
    page = json.loads(result.stdout)
    differ = {n: (page[n], cli_outcome(index, n)) for n in names if page[n] != cli_outcome(index, n)}
    assert differ == {}
    assert page["H200 NV"] == {"error": "unknown 'H200 NV' did-you-mean H200 NVL; H200 SXM; H100 NVL"}
    assert page["L4 L40S"] == {"error": "several L4; L40S"}
    assert page["L40G"] == {"error": "unknown 'L40G' did-you-mean L40; L40S; L4"}
    assert page["NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"] == {"id": "a100-sxm4-40gb"}
    assert page["10de:2330"] == {"id": "h100-sxm5-80gb"}  # the device id lspci shows
    # a slip in the model number: the cards of the number it was meant to be (a letter O for a zero)
    assert page["H101"] == {"error": "unknown 'H101' did-you-mean H100 NVL; H100 PCIe 80GB; H100 SXM5 80GB; H100 SXM5 94GB"}
    assert page["A1OO"] == {"error": "unknown 'A1OO' did-you-mean A100 PCIe 40GB; A100 PCIe 80GB; A100 SXM4 40GB; "
                                     "A100 SXM4 80GB"}
    assert sum("did-you-mean" in str(v) for v in page.values()) > 50  # the slips found their cards
