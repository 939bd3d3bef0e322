"""Which pages are generated, under which path (relative to docs/generated/), in both languages."""

from __future__ import annotations

from kb.site.cards import card_index, card_page, mig_profiles_page
from kb.site.cliref import cli_page
from kb.site.methods import dra_page, methods_page
from kb.site.page import Ctx
from kb.site.releases import releases_page
from kb.site.sources import sources_page

LANGS = ("de", "en")
#: the questions whose answers the generated pages show (the MIG and method matrices, the card pages); the others'
#: answers only the JSON API carries (tests/test_site_generators.py: the pages are the same with these alone)
SHOWN = ("mig", "methods")


def newest_methods(export: dict | None) -> dict[str, dict]:
    """Card id → the engine's answer to the methods question with the newest GPU Operator release, no driver,
    MIG not enabled (what the card pages and the method matrix show)."""
    from kb import versions

    answers = [a for a in (export or {}).get("answers", []) if a["question"] == "methods"
               and not a["inputs"].get("driver") and not a["inputs"].get("mig_enabled")]
    if not answers:
        return {}
    newest = max({a["inputs"]["operator"] for a in answers}, key=versions.key)
    return {a["inputs"]["card"]: a for a in answers if a["inputs"]["operator"] == newest}


def catalog_pages(data: dict, pub, export: dict | None = None) -> dict[str, str]:
    """Every page about the catalog's facts: {"cards/l4.de.md": markdown, …}; with the engine's `export`, the
    card pages show every method's verdict."""
    out: dict[str, str] = {}
    methods = newest_methods(export)
    for lang in LANGS:
        def ctx() -> Ctx:
            return Ctx(data, lang, pub)

        out[f"cards/index.{lang}.md"] = card_index(ctx(), lambda cid: f"{cid}.md")
        for cid in data["cards"]:
            if export is not None and cid not in methods:
                raise KeyError(f"the engine exported no methods answer for {cid}")
            out[f"cards/{cid}.{lang}.md"] = card_page(ctx(), cid, methods.get(cid))
        out[f"mig-profiles.{lang}.md"] = mig_profiles_page(ctx(), lambda cid: f"cards/{cid}.md")
        out[f"methods.{lang}.md"] = methods_page(ctx())
        out[f"dra.{lang}.md"] = dra_page(ctx())
        out[f"releases.{lang}.md"] = releases_page(ctx())
        out[f"sources.{lang}.md"] = sources_page(ctx())
    return out


def catalog_page_names(data: dict) -> list[str]:
    """The pages `catalog_pages` writes (known before they are computed)."""
    return [f"{name}.{lang}.md" for lang in LANGS
            for name in ("cards/index", *(f"cards/{cid}" for cid in data["cards"]), "mig-profiles", "methods", "dra",
                         "releases", "sources")]


def cli_pages(data: dict, helps: list[tuple[str, str]], version: str, pub) -> dict[str, str]:
    return {f"cli.{lang}.md": cli_page(Ctx(data, lang, pub), helps, version) for lang in LANGS}


def ask_files(data: dict, rules: dict, pub, with_data: bool = True) -> dict[str, str]:
    """The ask page in both languages and its data (kb.site.askdata): ask.<lang>.md, ask/data/… (the data only
    `with_data`; `ask_data` computes it alone)."""
    from kb.site.ask import ask_page

    out = {f"ask.{lang}.md": ask_page(Ctx(data, lang, pub)) for lang in LANGS}
    if with_data:
        out.update(ask_data(data, rules))
    return out


def ask_data(data: dict, rules: dict) -> dict[str, bytes]:
    """The ask page's data (no page includes it: the page's script loads it): ask/data/…"""
    from kb.site.askdata import files

    return {f"ask/{name}": text for name, text in files(data, rules).items()}


def ask_data_names(data: dict) -> list[str]:
    """The files `ask_data` writes (known before they are computed)."""
    from kb.site.askdata import names

    return [f"ask/{name}" for name in names(data)]


def engine_pages(data: dict, export: dict, rules: dict, pub, with_data: bool = True) -> dict[str, str]:
    """Pages made of engine answers: MIG and method matrices, rule reference, the ask page and (`with_data`) its
    data."""
    from kb.site.matrices import method_matrix_page, mig_matrix_page
    from kb.site.rulesref import rules_page

    out: dict[str, str] = {}
    for lang in LANGS:
        out[f"mig-matrix.{lang}.md"] = mig_matrix_page(Ctx(data, lang, pub), export,
                                                       lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"method-matrix.{lang}.md"] = method_matrix_page(Ctx(data, lang, pub), export,
                                                             lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"rules.{lang}.md"] = rules_page(Ctx(data, lang, pub), rules)
    out.update(ask_files(data, rules, pub, with_data))
    return out


def data_pages(data: dict, export: dict, pub, site_url: str, with_api: bool = True, every=None,
               known: dict | None = None) -> dict[str, str]:
    """Data for machines and what changed: the JSON API (api/v1/; only `with_api`, `api_files` writes it alone)
    and its page, the changes page and the Atom feeds (feed.xml in German, en/feed.xml in English). `every`: a
    function giving every answer of the matrix, where `export` holds only some (called only where the changes page
    compares verdicts with an older data version). `known`: the history as `changes.ahead` read it before, for this
    catalog's data version, where it compares no verdicts (else read here)."""
    from kb.catalog.compiled import catalog_dir
    from kb.site import api, changes

    out = api_files(data, export) if with_api else {}
    if known is not None and not known["compares"] and known["data_version"] == str(data["data_version"]):
        versions = known["versions"]
    else:
        versions = changes.history(data, catalog_dir(), every or (lambda: export["answers"]))
    for lang in LANGS:
        out[f"json-api.{lang}.md"] = api.api_page(Ctx(data, lang, pub))
        out[f"changes.{lang}.md"] = changes.changes_page(Ctx(data, lang, pub), versions)
        out[f"feed.{lang}.xml"] = changes.feed(versions, data, lang, site_url or "http://127.0.0.1:8000/")
    return out


def api_files(data: dict, export: dict) -> dict[str, str | bytes]:
    """The JSON API's files (no page includes them): api/v1/…"""
    from kb.catalog.compiled import input_key
    from kb.site import api

    return dict(api.files(data, export, input_key()))


def api_names(data: dict) -> list[str]:
    """The files `api_files` writes (known before they are computed)."""
    from kb.site import api

    return api.names(data)
