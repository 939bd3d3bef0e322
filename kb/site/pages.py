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


def cli_pages(data: dict, helps: list[tuple[str, str]], version: str, repo_url: str) -> dict[str, str]:
    return {f"cli.{lang}.md": cli_page(Ctx(data, lang, repo_url), helps, version) for lang in LANGS}


def known_drivers(data: dict) -> list[str]:
    """Driver versions the catalog names for MIG (minimums, disputed minimums, exceptions): the choices of
    the ask page, each answered by the engine at build time."""
    from kb import versions

    found: set[str] = set()
    for card in data["cards"].values():
        pre = (card["mig"].get("prerequisites") or {}).get("min_driver")
        sup = card["operator_support"]
        for fact in (pre, sup.get("min_driver")):
            if fact:
                found.add(fact["value"])
                found.update(c["value"] for c in fact.get("disputed_by", []))
        found.update(e["driver"] for e in sup.get("driver_exceptions", []))
    return sorted(found, key=versions.key)


def ask_inputs(data: dict, mig_answers: list[dict]) -> list[dict]:
    """The ask page's questions beyond the precomputed matrix: each MIG question of the matrix again with
    every known driver (grouped by driver)."""
    return [{**a["inputs"], "driver": driver} for driver in known_drivers(data) for a in mig_answers]


def engine_pages(data: dict, export: dict, rules: dict, ask_answers: list[dict], repo_url: str) -> dict[str, str]:
    """Pages made of engine answers: MIG and method matrices, rule reference, the ask page and its JSON."""
    import json

    from kb.site.ask import JSON_NAME, ask_page, payload
    from kb.site.matrices import method_matrix_page, mig_matrix_page
    from kb.site.rulesref import rules_page

    out: dict[str, str] = {}
    for lang in LANGS:
        out[f"mig-matrix.{lang}.md"] = mig_matrix_page(Ctx(data, lang, repo_url), export,
                                                       lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"method-matrix.{lang}.md"] = method_matrix_page(Ctx(data, lang, repo_url), export,
                                                             lambda cid: f"cards/{cid}.md", "rules.md")
        out[f"rules.{lang}.md"] = rules_page(Ctx(data, lang, repo_url), rules)
        out[f"ask.{lang}.md"] = ask_page(Ctx(data, lang, repo_url))
        # one file per language: mkdocs-static-i18n serves `ask-answers.<lang>.json` as ask-answers.json
        stem, ext = JSON_NAME.rsplit(".", 1)
        out[f"{stem}.{lang}.{ext}"] = json.dumps(payload(data, ask_answers, lang), ensure_ascii=False, sort_keys=True) + "\n"
    return out
