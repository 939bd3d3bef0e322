"""Which pages are generated, under which path (relative to docs/generated/), in both languages."""

from __future__ import annotations

from kb.site.cards import card_index, card_page, mig_profiles_page
from kb.site.cliref import cli_page
from kb.site.methods import dra_page, methods_page
from kb.site.page import Ctx
from kb.site.releases import releases_page
from kb.site.sources import sources_page

LANGS = ("de", "en")


def catalog_pages(data: dict, pub) -> dict[str, str]:
    """Every page that needs only the catalog: {"cards/l4.de.md": markdown, …}."""
    out: dict[str, str] = {}
    for lang in LANGS:
        def ctx() -> Ctx:
            return Ctx(data, lang, pub)

        out[f"cards/index.{lang}.md"] = card_index(ctx(), lambda cid: f"{cid}.md")
        for cid in data["cards"]:
            out[f"cards/{cid}.{lang}.md"] = card_page(ctx(), cid)
        out[f"mig-profiles.{lang}.md"] = mig_profiles_page(ctx(), lambda cid: f"cards/{cid}.md")
        out[f"methods.{lang}.md"] = methods_page(ctx())
        out[f"dra.{lang}.md"] = dra_page(ctx())
        out[f"releases.{lang}.md"] = releases_page(ctx())
        out[f"sources.{lang}.md"] = sources_page(ctx())
    return out


def cli_pages(data: dict, helps: list[tuple[str, str]], version: str, pub) -> dict[str, str]:
    return {f"cli.{lang}.md": cli_page(Ctx(data, lang, pub), helps, version) for lang in LANGS}


def ask_files(data: dict, rules: dict, pub) -> dict[str, str]:
    """The ask page in both languages and its data (kb.site.askdata): ask.<lang>.md, ask/data/…"""
    from kb.site.ask import ask_page
    from kb.site.askdata import files

    out = {f"ask.{lang}.md": ask_page(Ctx(data, lang, pub)) for lang in LANGS}
    out.update({f"ask/{name}": text for name, text in files(data, rules).items()})
    return out


def engine_pages(data: dict, export: dict, rules: dict, pub) -> dict[str, str]:
    """Pages made of engine answers: MIG and method matrices, rule reference, the ask page and its data."""
    from kb.site.matrices import method_matrix_page, mig_matrix_page
    from kb.site.rulesref import rules_page

    out: dict[str, str] = {}
    for lang in LANGS:
        out[f"mig-matrix.{lang}.md"] = mig_matrix_page(Ctx(data, lang, pub), export,
                                                       lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"method-matrix.{lang}.md"] = method_matrix_page(Ctx(data, lang, pub), export,
                                                             lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"rules.{lang}.md"] = rules_page(Ctx(data, lang, pub), rules)
    out.update(ask_files(data, rules, pub))
    return out
