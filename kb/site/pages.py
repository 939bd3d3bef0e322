"""Which pages are generated, under which path (relative to docs/generated/), in both languages."""

from __future__ import annotations

from kb.site.cards import card_index, card_page, mig_profiles_page
from kb.site.cliref import cli_page
from kb.site.methods import dra_page, methods_page
from kb.site.page import Ctx
from kb.site.releases import releases_page
from kb.site.sources import sources_page

LANGS = ("de", "en")


def catalog_pages(data: dict, repo_url: str) -> dict[str, str]:
    """Every page that needs only the catalog: {"cards/l4.de.md": markdown, …}."""
    out: dict[str, str] = {}
    for lang in LANGS:
        def ctx() -> Ctx:
            return Ctx(data, lang, repo_url)

        out[f"cards/index.{lang}.md"] = card_index(ctx(), lambda cid: f"{cid}.md")
        for cid in data["cards"]:
            out[f"cards/{cid}.{lang}.md"] = card_page(ctx(), cid)
        out[f"mig-profiles.{lang}.md"] = mig_profiles_page(ctx(), lambda cid: f"cards/{cid}.md")
        out[f"methods.{lang}.md"] = methods_page(ctx())
        out[f"dra.{lang}.md"] = dra_page(ctx())
        out[f"releases.{lang}.md"] = releases_page(ctx())
        out[f"sources.{lang}.md"] = sources_page(ctx())
    return out


def cli_pages(helps: list[tuple[str, str]], version: str) -> dict[str, str]:
    return {f"cli.{lang}.md": cli_page(helps, lang, version) for lang in LANGS}
