"""Citations carry the value they are attached to (issue 10, class 9):

1. A number, version or MIG profile name in a fact's value (and in each disputing claim's value) stands in one of
   its quotes or their sections (a table row named in the section counts) — unless the fact is marked `inferred`,
   which says how the value follows and is shown with it. A MIG profile's name stands in one of its quotes.
   A card's product name (what the driver reports) stands in one of its quotes, case, spaces and hyphens aside.
2. A citation of a source whose url is the root of a document of several pages (`multi_page`) names its `page`,
   so the link opens the page the quote is on.
3. Where versions of one document disagree (sources sharing `document`, ordered by `version`), the newest
   version's value is the fact's value and the older ones are kept in `disputed_by` — the one tie-break, applied
   to every card.
"""

from __future__ import annotations

import re

from kb import versions

CHECK = "citations"
TITLE = "citations carry their values; guide pages linked; newest guide version wins"

_VERSION = re.compile(r"^\d+(\.\d+){1,3}$")
_PROFILE = re.compile(r"^\d+g\.\d+gb([+-][a-z.]+)?$")


def _checked(value) -> str | None:
    """The words of a value this check looks for: numbers, versions and profile names; None for the rest."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str) and (_VERSION.match(value) or _PROFILE.match(value)):
        return value
    return None


#: small numbers as the sources write them in words (the article is German)
_WORDS = {1: ("one", "ein", "eine", "einer"), 2: ("two", "zwei"), 3: ("three", "drei"), 4: ("four", "vier"),
          5: ("five", "fünf"), 6: ("six", "sechs"), 7: ("seven", "sieben"), 8: ("eight", "acht")}


def _stands_in(word: str, cites: list[dict]) -> bool:
    """`word` occurs in a quote or section as a token of its own: not inside a longer number or version (a unit
    may follow: "141GB"; a version may carry a "v": "v1.34.2"); a small number may be written as a word."""
    forms = [re.escape(word)] + [re.escape(w) for w in _WORDS.get(int(word), ())] if word.isdigit() else [re.escape(word)]
    pattern = re.compile(r"(?<![\w.])v?(?:" + "|".join(forms) + r")(?=GB\b|gb\b|[^\w.]|\.(?!\d)|$)", re.IGNORECASE)
    return any(pattern.search(c.get("quote", "")) or pattern.search(c.get("section") or "") for c in cites)


def _facts(node, path: tuple = ()):
    """(path, fact) for every {value, cite} of a YAML document, and (path, profile) for MIG profiles."""
    if isinstance(node, dict):
        if "cite" in node and ("value" in node or ("name" in node and "max_count" in node)):
            yield path, node
        for key, child in node.items():
            if key not in ("cite",):
                yield from _facts(child, path + (key,))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _facts(child, path + (i,))


def _value_problems(ctx, rel, doc, path, node) -> list:
    if "value" not in node:  # a MIG profile: its name stands in a quote
        if not _stands_in(node["name"], node["cite"]):
            return [ctx.problem(doc, path + ("name",), f"MIG profile {node['name']!r} stands in none of its quotes", CHECK)]
        return []
    if node.get("inferred") or path[-1:] == ("disputed_by",):
        return []
    out = []
    word = _checked(node["value"])
    if word is not None and not _stands_in(word, node["cite"]):
        out.append(ctx.problem(doc, path + ("value",), f"value {word} stands in none of its quotes or sections: quote it "
                                                     "(a table row in the section counts) or say how it is `inferred`", CHECK))
    for i, claim in enumerate(node.get("disputed_by", [])):
        word = _checked(claim.get("value"))
        if word is not None and not _stands_in(word, claim.get("cite", [])):
            out.append(ctx.problem(doc, path + ("disputed_by", i, "value"),
                                   f"disputing value {word} stands in none of its quotes or sections", CHECK))
    return out


def name_shown(name: str, cites: list[dict]) -> bool:
    """Whether a product name stands in one of the quotes: its words in order, joined by spaces or hyphens (GPU
    Feature Discovery's label form), case aside; a leading 'NVIDIA' may be missing in the quote (labels of older
    drivers and NVIDIA's PCI id list write 'A100-SXM4-40GB')."""
    words = [w for w in re.split(r"[\s-]+", name.strip()) if w]
    if len(words) > 1 and words[0].lower() == "nvidia":
        words = words[1:]
    pattern = re.compile(r"(?<![\w.])" + r"[\s-]+".join(re.escape(w) for w in words) + r"(?![\w])", re.IGNORECASE)
    return any(pattern.search(c.get("quote", "")) for c in cites)


def _name_problems(ctx, doc) -> list:
    out = []
    for i, product in enumerate(doc.data.get("product_names") or [] if isinstance(doc.data, dict) else []):
        if isinstance(product, dict) and product.get("cite") and not name_shown(product.get("name", ""), product["cite"]):
            out.append(ctx.problem(doc, ("product_names", i, "name"),
                                   f"product name {product.get('name')!r} stands in none of its quotes: quote the "
                                   "nvidia-smi output, label or list row that shows it", CHECK))
    return out


def _page_problems(ctx, doc, sources: dict) -> list:
    out = []
    for cpath, cite in ctx.citations_in(doc):
        src = sources.get(cite.get("source"))
        if src and src.multi_page and not cite.get("page"):
            out.append(ctx.problem(doc, cpath, f"{src.id} spans several pages: name the `page` this quote is on "
                                               f"(relative to {src.url})", CHECK))
    return out


def _version_problems(ctx, doc, path, node, sources: dict) -> list:
    """Versions of one document: the fact's value must come from the newest version cited for it."""
    def versioned(cites):
        out = {}
        for c in cites:
            src = sources.get(c.get("source"))
            if src and src.document and src.version:
                out.setdefault(src.document, []).append(src.version)
        return out

    mine = versioned(node["cite"])
    out = []
    for i, claim in enumerate(node.get("disputed_by", [])):
        for document, claim_versions in versioned(claim.get("cite", [])).items():
            newest_claim = max(claim_versions, key=versions.key)
            newest_mine = max(mine.get(document, ["0"]), key=versions.key)
            if versions.key(newest_claim) > versions.key(newest_mine):
                out.append(ctx.problem(
                    doc, path + ("disputed_by", i, "value"),
                    f"{document} {newest_claim} gives {claim['value']!r}, the fact follows an older version "
                    f"({newest_mine if newest_mine != '0' else 'none'}): the newest version of a document wins — swap "
                    "value and claim", CHECK))
    return out


def check(ctx):
    sources = {s.id: s for s in ctx.catalog.sources.sources}
    problems = []
    for rel, doc in ctx.documents():
        if rel == "sources.yaml":
            continue
        for path, node in _facts(doc.data):
            problems += _value_problems(ctx, rel, doc, path, node)
            if "value" in node:
                problems += _version_problems(ctx, doc, path, node, sources)
        problems += _page_problems(ctx, doc, sources)
        if rel.startswith("cards/"):
            problems += _name_problems(ctx, doc)
    return sorted(problems, key=lambda p: (p.file, p.line or 0))
