"""Every statement of our article ends up as a cited fact, a rule or a sentence of the guide
(catalog/seed-coverage.yaml), and every reference in that map names something that exists: a catalog
fact that cites NVIDIA or our article, a rule id of rules/, or a sentence that stands in the named section of a
German guide page under docs/ (which has its English twin). Only the article's cross-references to our other
articles are dropped, each named, never alone."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import markdown
import pytest

from conftest import REPO, SHARED
from kb.catalog.compiled import load_data
from kb.catalog.yamlsafe import safe_load  # libyaml: PyYAML's values for the files the catalog's checks read
from kb.catalog.facts import get_path
from kb.publication import publication
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

COVERAGE = safe_load((REPO / "catalog" / "seed-coverage.yaml").read_text(encoding="utf-8"))
SEED = SHARED / "seed" / "000_36cb64a2234e4a83.txt"


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def strip_note(ref: str) -> str:
    """'methods/mig#summary (note)' → 'methods/mig#summary'."""
    return re.sub(r"\s*\(.*\)$", "", ref)


def refs():
    for i, entry in enumerate(COVERAGE):
        for ref in entry["covered_by"]:
            yield i, ref


def test_every_entry_is_covered_by_something():
    """A fact, a rule or a guide sentence — a `dropped:` note alone covers nothing."""
    assert [e["seed"][:60] for e in COVERAGE if not any(not r.startswith("dropped:") for r in e["covered_by"])] == []


#: the article's cross-references to other articles of ours: no pages of this knowledge base, no public address
DROPPED = ("Unser Monitoring-Leitfaden", "Unser Vergleich von MIG und vGPU", "wie unser Artikel zum Nutanix-Cluster",
           "beschrieben in unserem MIG-Runbook")


def test_only_the_cross_references_are_dropped():
    dropped = [e["seed"] for e in COVERAGE if any(r.startswith("dropped:") for r in e["covered_by"])]
    assert [next((d for d in DROPPED if d in seed), seed) for seed in dropped] == list(DROPPED)


def test_seed_is_covered_in_order_without_gaps():
    if not SEED.is_file():
        pytest.skip(f"seed article not found at {SEED}")
    seed = squash(SEED.read_text(encoding="utf-8"))
    pos = 0
    for entry in COVERAGE:
        piece = squash(entry["seed"])
        found = seed.find(piece, pos)
        assert found >= 0, f"not in the seed (or out of order): {piece[:80]!r}"
        gap = seed[pos:found].strip()
        assert gap == "", f"seed text not covered: {gap[:120]!r}"
        pos = found + len(piece)
    assert seed[pos:].strip() == ""


#: fields the schema keeps without a citation of their own: flags and our own prose (summary, unit, …),
#: backed by the cited facts beside them
UNCITED_FIELDS = ("plain_product", "excludes_mig", "requires_mig", "vendor.methods",
                  "summary", "unit", "neighbour_risk", "vendor.note")


def _has_citations(node) -> bool:
    """The node is cited itself or holds cited facts (a setting's default, a list of profiles)."""
    if isinstance(node, list):
        return bool(node) and all(_has_citations(n) for n in node)
    if isinstance(node, dict):
        return bool(node.get("cite")) or any(_has_citations(v) for v in node.values() if isinstance(v, (dict, list)))
    return False


def test_fact_references_resolve():
    data = load_data()
    bad = []
    for i, ref in refs():
        if ref.startswith(("guide:", "rule:", "dropped:")):
            continue
        target = strip_note(ref)
        entity, _, path = target.partition("#")
        if entity == "sources":
            if path not in data["sources"]:
                bad.append((i, ref))
            continue
        kind, _, ident = entity.partition("/")
        try:
            node = get_path(data[kind][ident], path)
        except KeyError:
            bad.append((i, ref))
            continue
        if not (_has_citations(node) or path.endswith(UNCITED_FIELDS)):
            bad.append((i, ref))
        elif _has_citations(node) and not any("NVIDIA" in p or p == publication().publisher
                                                for p in _publishers(data, node) if p):
            bad.append((i, f"{ref}: cites neither NVIDIA nor our article"))
    assert bad == [], "\n".join(f"entry {i}: {r}" for i, r in bad)


def _publishers(data: dict, node) -> set[str]:
    """The publishers of every citation in a node (its own and its nested facts')."""
    if isinstance(node, list):
        return set().union(*(_publishers(data, n) for n in node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = {data["sources"].get(c.get("source"), {}).get("publisher") for c in node.get("cite", [])}
    return found.union(*(_publishers(data, v) for k, v in node.items() if k != "cite" and isinstance(v, (dict, list))))


RULE_REF = re.compile(r"^rule: (?P<id>[A-Z]+-\d{3})$")
GUIDE_REF = re.compile(r"^guide: (?P<page>[a-z0-9-]+(?:/[a-z0-9-]+)*)#(?P<anchor>[^\s#]+) „(?P<sentence>.+)“"
                       r"(?: \((?P<note>[^“]*)\))?$")
DOCS = REPO / "docs"


@functools.cache
def rule_ids(rules_dir: Path = REPO / "rules") -> frozenset[str]:
    """The `id` of every rule file under rules/<question>/."""
    return frozenset(safe_load(f.read_text(encoding="utf-8"))["id"] for f in rules_dir.glob("*/*.yaml"))


@functools.cache
def _markdown_extensions() -> tuple[list, dict]:
    """The Markdown extensions of mkdocs.yml with their settings (toc, attr_list, …): anchors come out as mkdocs makes them."""
    names, configs = [], {}
    for item in yamlsafe.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))["markdown_extensions"]:
        name, config = next(iter(item.items())) if isinstance(item, dict) else (item, None)
        names.append(name)
        configs[name] = config or {}
    return names, configs


def heading_anchors(text: str) -> set[str]:
    """The ids mkdocs' toc gives the headings of a Markdown page (an explicit `{#id}` or the slug of the text)."""
    names, configs = _markdown_extensions()
    md = markdown.Markdown(extensions=names, extension_configs=configs)
    md.convert(text)

    def walk(tokens):
        for token in tokens:
            yield token["id"]
            yield from walk(token["children"])

    return set(walk(md.toc_tokens))


@functools.cache
def page_anchors(page: str) -> frozenset[str] | None:
    """Anchors of the German guide page docs/<page>.de.md; None where there is no such hand-written page."""
    path = DOCS / f"{page}.de.md"
    if page.split("/")[0] == "generated" or not path.is_file():
        return None
    return frozenset(heading_anchors(path.read_text(encoding="utf-8")))


def prose(md: str) -> str:
    """A guide page's Markdown as a reader reads its words: markers, link targets, emphasis, code marks, admonition
    syntax and list marks left out, whitespace squashed (`{{ value: … }}` markers stay as written)."""
    md = re.sub(r"\{\{ (?:cite|table|config): [^}]*\}\}", "", md)
    md = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", md)
    md = re.sub(r"\{[:#][^}]*\}", "", md)
    md = md.replace("**", "").replace("`", "")
    md = re.sub(r'^!!! \w+ "([^"]*)"', r"\1", md, flags=re.M)
    md = re.sub(r"^\s*(?:#+|[-*]|\d+\.)\s+", "", md, flags=re.M)
    return squash(md)


@functools.cache
def sections(page: str) -> dict[str, str]:
    """Anchor → the prose of its section (its heading up to the next heading of the same or a higher level)."""
    lines = (DOCS / f"{page}.de.md").read_text(encoding="utf-8").splitlines()
    heads = [(i, len(m[1]), line) for i, line in enumerate(lines) if (m := re.match(r"^(#+) ", line))]
    out = {}
    for n, (i, level, line) in enumerate(heads):
        end = next((j for j, lvl, _ in heads[n + 1:] if lvl <= level), len(lines))
        for anchor in heading_anchors(line + "\n"):
            out[anchor] = prose("\n".join(lines[i:end]))
    return out


def reference_problem(ref: str) -> str | None:
    """Why a `rule:` or `guide:` reference of the coverage map names nothing that exists (None: it does)."""
    target = strip_note(ref)
    if ref.startswith("rule:"):
        m = RULE_REF.match(target)
        if not m:
            return "not 'rule: <RULE-ID>'"
        return None if m["id"] in rule_ids() else f"no rule {m['id']} under rules/"
    m = GUIDE_REF.match(ref)  # the sentence may hold parentheses: the note is split off by the pattern
    if not m:
        return "not 'guide: <page>#<anchor> „<sentence>“'"
    anchors = page_anchors(m["page"])
    if anchors is None:
        return f"no guide page docs/{m['page']}.de.md"
    if m["anchor"] not in anchors:
        return f"no heading #{m['anchor']} in docs/{m['page']}.de.md (has: {sorted(anchors)})"
    if not (DOCS / f"{m['page']}.en.md").is_file():
        return f"no English twin docs/{m['page']}.en.md"
    if squash(m["sentence"]) not in sections(m["page"])[m["anchor"]]:
        return f"sentence not in section #{m['anchor']} of docs/{m['page']}.de.md: {m['sentence'][:60]!r}"
    return None


def test_rule_and_guide_references_exist():
    bad = [(i, ref, reference_problem(ref)) for i, ref in refs() if ref.startswith(("guide:", "rule:"))]
    bad = [b for b in bad if b[2]]
    assert bad == [], "\n".join(f"entry {i}: {r}: {why}" for i, r, why in bad)


def test_every_reference_is_a_fact_a_rule_id_a_guide_sentence_or_a_named_drop():
    kinds = {"cards/", "methods/", "releases/", "sources#", "rule: ", "guide: ", "dropped: "}
    assert [r for _, r in refs() if not r.startswith(tuple(kinds))] == []


@pytest.mark.parametrize("ref, problem", [
    ("rule: MIG-006", None),
    ("rule: MIG-006 (display-mode switch)", None),
    ("rule: MIG-999", "no rule MIG-999 under rules/"),
    ("rule: MIG on these cards is conditional", "not 'rule: <RULE-ID>'"),
    ("guide: guide/mig#welche-karten-mig-konnen „Die Tabelle zeigt, was NVIDIA für jede Karte dokumentiert.“", None),
    ("guide: guide/mps#einschrankungen „Einschränkungen“ (umlaut dropped as mkdocs does)", None),
    ("guide: index#nachschlagen „Nachschlagen“", None),
    ("guide: guide/mig#voraussetzungen-je-karte „ein Mindest-vBIOS, dessen Version in keiner unserer Quellen steht“", None),
    ("guide: guide/mig#strategien-single-und-mixed „Die Tabelle zeigt, was NVIDIA für jede Karte dokumentiert.“",
     "sentence not in section #strategien-single-und-mixed of docs/guide/mig.de.md: 'Die Tabelle zeigt, was NVIDIA für jede Karte dokumentiert.'"),
    ("guide: guide/mig#welche-karten-mig-konnen „Die Tabelle zeigt, was NVIDIA für jede Karte dokumentiert“",
     None),
    ("guide: guide/mig#welche-karten-mig-konnen „MIG ist überall verfügbar.“",
     "sentence not in section #welche-karten-mig-konnen of docs/guide/mig.de.md: 'MIG ist überall verfügbar.'"),
    ("guide: guide/mig#welche-karten-mig-können „MIG“", "no heading #welche-karten-mig-können in docs/guide/mig.de.md"),
    ("guide: guide/nowhere#einrichten „Einrichten“", "no guide page docs/guide/nowhere.de.md"),
    ("guide: generated/dra#dra „DRA“", "no guide page docs/generated/dra.de.md"),
    ("guide: guide/mig#welche-karten-mig-konnen", "not 'guide: <page>#<anchor> „<sentence>“'"),
    ("guide: heading (MIG)", "not 'guide: <page>#<anchor> „<sentence>“'"),
])
def test_reference_check_tells_good_from_bad(ref, problem):
    found = reference_problem(ref)
    assert (found.split(" (has:")[0] if found else found) == problem


@pytest.mark.parametrize("heading, anchor", [
    ("## Einschränkungen", "einschrankungen"),
    ("## Strategien: `single` und `mixed`", "strategien-single-und-mixed"),
    ("## GPUs für virtuelle Maschinen", "gpus-fur-virtuelle-maschinen"),
    ("## Sonderfall { #eigener-anker }", "eigener-anker"),
])
def test_anchors_are_computed_like_mkdocs_toc(heading, anchor):
    assert anchor in heading_anchors(f"# Seite\n\n{heading}\n\nText.\n")
