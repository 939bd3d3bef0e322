"""GPU Operator platform support (`gpu-operator/platform-support.rst`): every supported GPU.

Reads the tabs of "Supported NVIDIA Data Center GPUs and Systems" (one a list-table, the others grid
tables; names wrap over rows, several products share a cell as line blocks) and the table of
"Supported ARM Based Platforms". Notes are the Notes column plus the `.. note::` and footnote sentences
that name a product; a note block led by "<product> notes:" belongs to that product. From the notes come
the driver minimum ("… 575.57.08 or later …") and driver exceptions ("MIG is not supported on the
575.57.08 driver release").

Also read: the list led by "KubeVirt and OpenShift Virtualization with NVIDIA vGPU is supported on the
following devices:", one entry per bullet. A family line ("AD10x: L40, RTX 6000 Ada, L4.") is split into its
names; the bullet's "The L40G GPU is excluded." gives excluded names; a trailing "on Ubuntu 24.04 LTS" is
kept as the entry's condition.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.catalog.names import normalise as name_key
from kb.drift.extractors import ExtractError
from kb.drift.extractors import rst
from kb.lint.snapshots import normalise
from kb.text import Text

#: kb.lint.snapshots.normalise, memoised: the vGPU list's lead is searched line by line, and the versions of the page
#: a history walk reads (kb/importer/history.py, kb.drift.replay) share most of their lines
plain = lru_cache(maxsize=1 << 16)(normalise)

ID = "platform-support"

#: the x86 section's title, as written since December 2023 and before
X86_SECTION = ("Supported NVIDIA Data Center GPUs and Systems", "Supported NVIDIA GPUs and Systems",
               "Supported NVIDIA GPUs/Systems")
ARM_SECTION = "Supported ARM Based Platforms"

_MIN_DRIVER = re.compile(r"(?i)driver\b[^.]*?\b(\d{3}\.\d+(?:\.\d+)?) or later")
_EXCEPTION = re.compile(r"(?i)^(.*?) (?:is|are) not supported on the (\d{3}\.\d+(?:\.\d+)?) driver")
VGPU_PART = Text("KubeVirt vGPU device list", "Geräteliste für KubeVirt mit NVIDIA vGPU")
VGPU_LEAD = "KubeVirt and OpenShift Virtualization with NVIDIA vGPU is supported on the following devices:"
_FAMILY = re.compile(r"^([A-Z]{2}\d{2,3}x):\s*(.+)$")
_CONDITION = re.compile(r"^(.*?)\s+on\s+(.+)$")
_EXCLUDED = re.compile(r"(?i)^The (.+?) GPUs? (?:is|are) excluded\.?$")


def extract(text: str) -> dict:
    lines = text.splitlines()
    products: list[dict] = []
    start, body = rst.section(lines, X86_SECTION)
    # sphinx-design tabs since 2023-09, sphinx-tabs (`.. tab::`) before, one table without tabs in between
    tabs = rst.directives(body, "tab-item") or rst.directives(body, "tab")
    for idx, title in tabs:
        tab_lines = rst.block(body, idx)
        products += _read_part(tab_lines, start + idx + 1, title)
    if not tabs:
        tabs = [(0, X86_SECTION[0])]
        products += _read_part(body, start, X86_SECTION[0])
    arm_start, arm_body = rst.section(lines, ARM_SECTION)
    products += _read_part(arm_body, arm_start, ARM_SECTION)
    if not products:
        raise ExtractError("no products found in the supported-GPU tables")
    for p in products:
        _derive(p)
    out = {"tabs": [t for _, t in tabs] + [ARM_SECTION], "products": products}
    try:
        out["kubevirt_vgpu"] = kubevirt_vgpu(lines)
    except ExtractError as exc:  # one part: the products are still compared
        out["unreadable"] = [{"part": VGPU_PART, "error": str(exc)}]
    return out


def kubevirt_vgpu(lines: list[str]) -> list[dict]:
    """The bullets after the vGPU device list's lead sentence: entry text, family, names, excluded names,
    condition and the bullet's line (1-based)."""
    at = next((i for i, line in enumerate(lines) if plain(line) == VGPU_LEAD), None)
    if at is None:
        raise ExtractError(f"the KubeVirt vGPU device list ({VGPU_LEAD!r}) is not found")
    bullets: list[tuple[int, list[str]]] = []
    for i in range(at + 1, len(lines)):
        s = lines[i].strip()
        if not s:
            continue
        if rst.indent(lines[i]) == 0 and s[:2] in ("- ", "* "):
            bullets.append((i, [s[2:].strip()]))
        elif rst.indent(lines[i]) > 0 and bullets:
            bullets[-1][1].append(s)
        else:
            break
    if not bullets:
        raise ExtractError(f"line {at + 1}: the KubeVirt vGPU device list has no entries")
    return [_vgpu_entry(i, parts) for i, parts in bullets]


def _vgpu_entry(line: int, parts: list[str]) -> dict:
    text = plain(parts[0])
    excluded = []
    for extra in parts[1:]:
        m = _EXCLUDED.match(plain(extra))
        if not m:
            raise ExtractError(f"line {line + 1}: unexpected text in a KubeVirt vGPU entry: {extra!r}")
        excluded += [n.strip() for n in re.split(r",\s*|\s+and\s+", m.group(1)) if n.strip()]
    family, rest = None, text.rstrip(".")
    m = _FAMILY.match(rest)
    if m:
        family, rest = m.group(1), m.group(2)
    condition = None
    m = _CONDITION.match(rest)
    if m:
        rest, condition = m.group(1), m.group(2)
    names = [n.strip() for n in rest.split(",") if n.strip()]
    return {"entry": text, "family": family, "names": names, "normalised": [name_key(n) for n in names],
            "excluded": excluded, "condition": condition, "line": line + 1}


def _read_part(part: list[str], offset: int, tab: str) -> list[dict]:
    """Products and notes of one tab (or of the ARM section); part[0] is line `offset` (0-based) of the page."""
    found: list[dict] = []
    for idx, _arg in rst.directives(part, "list-table"):
        found += _products(rst.parse_list_table(part, idx, offset), tab)
    for _at, table in rst.grid_tables(part, offset):
        found += _products(table, tab)
    _attach_notes(part, found)
    return found


def _products(table: rst.Table, tab: str) -> list[dict]:
    columns = [c.lower() for c in table.columns()]
    if "product" not in columns:
        return []  # not a product table (e.g. deployment options)
    if "architecture" not in columns:
        raise ExtractError(f"line {table.rows[0].line + 1}: product table without an Architecture column")
    pc, ac = columns.index("product"), columns.index("architecture")
    nc = columns.index("notes") if "notes" in columns else None
    out = []
    for row in table.body():
        arch = " ".join(x.strip() for x in row.cells[ac] if x.strip())
        note = plain(" ".join(row.cells[nc])) if nc is not None and nc < len(row.cells) else ""
        for name, k in rst.cell_items([rst.drop_substitutions(x) for x in row.cells[pc]]):
            name = re.sub(r"\s+", " ", name).rstrip(",").strip()
            # the quote: what the row's line shows (every column of a grid row), as the normalised page reads it
            cells = row.cells if table.kind == "grid" else [row.cells[pc]]
            quote = plain(" ".join(rst.drop_substitutions(c[k]) if k < len(c) else "" for c in cells))
            out.append({
                "name": name,
                "normalised": name_key(name),
                "architecture": arch,
                "tab": tab,
                "notes": [note] if note else [],
                "quote": quote,
                "line": row.line + k + 1,
            })
    return out


def _attach_notes(part: list[str], products: list[dict]) -> None:
    """Give every note sentence to the products it names (a '<product> notes:' lead names them for all)."""
    for idx, _arg in rst.directives(part, "note"):
        lead: list[dict] = []
        for kind, text in _items(rst.block(part, idx)):
            named = _named(text, products)
            if kind == "para" and text.endswith(":") and named:
                lead = named
                continue
            for p in (named or (lead if kind == "bullet" else [])):
                p["notes"].append(text)
    for k, line in enumerate(part):
        if line.strip().startswith(":sup:"):
            para = [line.strip().split("`", 2)[-1]]
            for nxt in part[k + 1:]:
                if not nxt.strip():
                    break
                para.append(nxt.strip())
            text = plain(" ".join(para))
            for p in _named(text, products):
                p["notes"].append(text)


def _items(body: list[str]) -> list[tuple[str, str]]:
    """A note body as ('bullet' | 'para', text) items, markup removed."""
    items: list[tuple[str, list[str]]] = []
    base = min((rst.indent(b) for b in body if b.strip()), default=0)
    fresh = True
    for line in body:
        s = line.strip()
        if not s:
            fresh = True
            continue
        if s[:2] in ("* ", "- ") and (rst.indent(line) == base or fresh or (items and items[-1][0] == "bullet")
                                      or (items and items[-1][1][-1].endswith(":"))):
            # a bullet, also one indented under its lead ("<product> notes:" with the list nested, 2025-10-08)
            items.append(("bullet", [s[2:]]))
        elif fresh and rst.indent(line) == base:
            items.append(("para", [s]))
        elif items:
            items[-1][1].append(s)
        fresh = False
    return [(kind, plain(" ".join(words))) for kind, words in items]


def _named(text: str, products: list[dict]) -> list[dict]:
    """Products the text names (with or without 'NVIDIA'); a name inside a longer named one does not count."""
    spans = []
    for p in products:
        for form in {p["name"], re.sub(r"^NVIDIA\s+", "", p["name"])}:
            pat = r"(?<![\w-])" + r"\s+".join(map(re.escape, form.split())) + r"(?![\w-])"
            spans += [(m.start(), m.end(), id(p), p) for m in re.finditer(pat, text, re.IGNORECASE)]
    keep = [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and (o[1] - o[0]) > (s[1] - s[0]) for o in spans)]
    out: list[dict] = []
    for *_x, p in keep:
        if all(p is not q for q in out):
            out.append(p)
    return out


def _derive(product: dict) -> None:
    """Driver minimum and driver exceptions from the product's notes."""
    exceptions = []
    for note in product["notes"]:
        m = _EXCEPTION.search(note)
        if m:
            feature = "mig" if re.search(r"\bMIG\b", m.group(1)) else "all"
            exceptions.append({"driver": m.group(2), "feature": feature})
            continue
        m = _MIN_DRIVER.search(note)
        if m and "min_driver" not in product:
            product["min_driver"] = m.group(1)
    if exceptions:
        product["driver_exceptions"] = exceptions
