"""The site generators on the small fixture catalog: exact Markdown, escaping, errors that fail the build.

The expected pages live in tests/fixtures/site-expected/ (one file per generated page). After an
intended change of the output, rewrite them with GPUKB_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import click
import markdown
import pytest

from kb.catalog.compiled import compile_catalog
from kb.catalog.facts import FactError
from kb.site.cliref import cli_page, command_help
from kb.site.markers import MarkerError, expand
from kb.site.md import esc, table
from kb.publication import Publication
from kb.site.page import Ctx
from kb.site.pages import catalog_pages

HERE = Path(__file__).parent
CATALOG = HERE / "fixtures" / "site-catalog"
EXPECTED = HERE / "fixtures" / "site-expected"
#: where the generated pages link to (kb.publication): a repository at a data tag, no article address
REPO = Publication(repo_url="https://example.org/gpukb", data_ref="data-2026.11.01", article_url=None,
                   publisher="Eurokommerz")
EXTENSIONS = ["abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "sane_lists", "tables", "toc"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    os.environ.setdefault("GPUKB_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    return compile_catalog(CATALOG)


# --- escaping -------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("a | b *c* _d_ [e](f) {g} #h !i +j `k` \\l & m",
     "a \\| b \\*c\\* \\_d\\_ \\[e\\](f) \\{g\\} \\#h \\!i \\+j \\`k\\` \\\\l &amp; m"),
    ("- not a list", "\\- not a list"),
    ("12. not a list", "12\\. not a list"),
    ("version 26.7.0", "version 26.7.0"),
    ("two\nlines  here", "two lines here"),
    (" \u00a0a\u2009\u2009b\u3000\t", "a b"),  # any white space, also Unicode's, is one space; none at the ends
    ("1.\tnot a list", "1\\. not a list"),
])
def test_esc(raw, expected):
    assert esc(raw) == expected


@pytest.mark.parametrize("raw", ["<script>x</script> | *a*", "- a", "1. b", "[^c1]", "<img src=x onerror=y>", "a & b"])
def test_escaped_text_renders_to_exactly_the_text(raw):
    html = markdown.markdown(esc(raw), extensions=EXTENSIONS)
    import html as h
    assert html.startswith("<p>") and html.endswith("</p>")
    assert h.unescape(html[3:-4]) == raw
    assert "<script" not in html and "<img" not in html


def test_table():
    assert table(["A", "B"], [["1", "2"]]) == "| A | B |\n|---|---|\n| 1 | 2 |"


# --- facts ----------------------------------------------------------------------------------------

def test_resolve(data):
    notes = Ctx(data, "en", REPO).notes
    assert notes.fact_refs("cards/h200-nvl", "mig.max_instances")[0]["value"] == 7
    assert notes.fact_refs("releases/gpu-operator", "releases[26.7.0].changes[dra-managed]")[0]["id"] == "dra-managed"
    assert notes.fact_refs("methods/dra", "capabilities[dynamic-mig].maturity")[0]["value"] == "alpha"


@pytest.mark.parametrize("entity, path, message", [
    ("cards/h100", "mig.status", "cards/h100 mig.status: no card 'h100' in the catalog"),
    ("gpus/h200-nvl", "mig.status", "gpus/h200-nvl mig.status: unknown entity kind 'gpus' (use one of cards, releases, methods)"),
    ("cards/h200-nvl", "mig.colour", "cards/h200-nvl mig.colour: no field 'colour' in 'mig'"),
    ("cards/h200-nvl", "mig", "cards/h200-nvl mig: not a cited fact"),
    ("cards/h200-nvl", "mig.profiles[9g.99gb]", "cards/h200-nvl mig.profiles[9g.99gb]: no item [9g.99gb] in 'mig.profiles'"),
    ("cards/h200-nvl", "mig..status", "cards/h200-nvl mig..status: cannot read 'mig..status' at '..status'"),
    ("releases/gpu-operator", "releases[26.7.0].changes[dra-manged]", "releases/gpu-operator releases[26.7.0].changes"
     "[dra-manged]: no item [dra-manged] in 'releases[26.7.0].changes'; did you mean 'dra-managed'?"),
])
def test_resolve_errors(data, entity, path, message):
    with pytest.raises(FactError) as exc:
        Ctx(data, "en", REPO).notes.fact_refs(entity, path)
    assert str(exc.value) == message


# --- markers --------------------------------------------------------------------------------------

def test_markers_expand_to_values_and_footnotes(data):
    page = "# MIG\n\nDie H200 NVL hat bis zu {{ value: cards/h200-nvl mig.max_instances }} Instanzen{{ cite: cards/h200-nvl mig.status }}.\n"
    assert expand(page, Ctx(data, "de", REPO)) == (
        "# MIG\n\nDie H200 NVL hat bis zu 7[^c1] Instanzen[^c2].\n\n"
        "[^c1]: [NVIDIA Multi-Instance GPU User Guide](https://docs.nvidia.com/datacenter/tesla/mig-user-guide/), <span class=\"gpukb-place\">H200</span>: "
        "„<span class=\"gpukb-quote\" lang=\"en\">7 instances</span>“ (Stand 11. September 2026, abgerufen am 20. September 2026)\n"
        "[^c2]: [NVIDIA Multi-Instance GPU User Guide](https://docs.nvidia.com/datacenter/tesla/mig-user-guide/), "
        "<span class=\"gpukb-place\">Supported GPUs</span>: „<span class=\"gpukb-quote\" lang=\"en\">H200 NVL</span>“ (Stand 11. September 2026, "
        "abgerufen am 20. September 2026)\n"
    )


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", ["cards", "mig-cards", "operator-components", "method-properties",
                                  "method-suitability", "dra-capabilities"])
def test_table_markers(data, name, lang):
    _golden(f"tables/{name}.{lang}.md", expand(f"{{{{ table: {name} }}}}", Ctx(data, lang, REPO)))


def test_page_without_markers_is_unchanged(data):
    assert expand("# Start\n\nText.\n", Ctx(data, "en", REPO)) == "# Start\n\nText.\n"


@pytest.mark.parametrize("page, message", [
    ("ok\n{{ quote: cards/l4 mig.status }}", "line 2: unknown marker {{ quote: cards/l4 mig.status }} (use cite:, value:, table: or config:)"),
    ("{{ table: nope }}", "line 1: unknown table 'nope' (known: cards, dra-capabilities, method-properties, method-suitability, mig-cards, operator-components)"),
    ("{{ cite: cards/l4 mig.max_instances }}", "line 1: cards/l4 mig.max_instances: no field 'max_instances' in 'mig'"),
    ("{{ cite: cards/l4 }}", "line 1: marker {{ cite: cards/l4 }} needs an entity and a path, e.g. 'cards/l4 mig.status'"),
    ("text {{ cite: cards/l4 mig.status", "line 1: unbalanced marker braces"),
    ("a\nis `{{ value: cards/l4 mig.status }}`", "line 2: marker {{ value: cards/l4 mig.status }} inside a code span; "
     "put it after the closing backtick"),
])
def test_bad_markers_fail(data, page, message):
    with pytest.raises(MarkerError) as exc:
        expand(page, Ctx(data, "de", REPO))
    assert str(exc.value) == message


# --- whole pages ----------------------------------------------------------------------------------

def test_generated_pages_match_the_expected_markdown(data, export):
    pages = catalog_pages(data, REPO, export)
    if os.environ.get("GPUKB_UPDATE_GOLDEN") == "1":
        for rel, text in pages.items():
            (EXPECTED / rel).parent.mkdir(parents=True, exist_ok=True)
            (EXPECTED / rel).write_text(text, encoding="utf-8")
    expected = {p.relative_to(EXPECTED).as_posix(): p.read_text(encoding="utf-8")
                for p in EXPECTED.rglob("*.md") if p.parent.name not in ("engine", "tables")}
    assert sorted(pages) == sorted(expected)
    for rel, text in pages.items():
        assert text == expected[rel], rel


def test_catalog_html_in_card_text_is_shown_as_text(data):
    for lang in ("de", "en"):
        page = catalog_pages(data, REPO)[f"cards/l4.{lang}.md"]
        html = markdown.markdown(page, extensions=EXTENSIONS)
        assert "&lt;script&gt;window.__gpukb_pwned = 1&lt;/script&gt;" in html
        assert "<script" not in html
        assert "&lt;b&gt;" in html  # a quote with markup, in a footnote


def test_every_page_shows_data_version_verified_date_and_yaml_link(data):
    for rel, text in catalog_pages(data, REPO).items():
        de = rel.endswith(".de.md")
        assert ("Datenversion 2026.11.01 · geprüft am 2. November 2026" if de else
                "Data version 2026.11.01 · verified as of 2 November 2026") in text, rel
        # repository links point at the data version, never at a moving branch
        assert "](https://example.org/gpukb/blob/data-2026.11.01/catalog/" in text or \
            "](https://example.org/gpukb/tree/data-2026.11.01/catalog/" in text, rel
        assert "/main/" not in text, rel


def test_missing_fact_fails_the_generator(data):
    broken = {**data, "methods": {k: v for k, v in data["methods"].items() if k != "dra"}}
    with pytest.raises(FactError, match="methods/dra: the catalog has no DRA method"):
        catalog_pages(broken, REPO)


# --- CLI reference --------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def demo():
    """Demo tool.

    \b
    Example:
      demo hello --name x
    """


@demo.command()
@click.option("--name", default="world", help="Whom to greet.")
def hello(name):
    """Say hello."""


def test_cli_reference_lists_every_command_with_its_help(data):
    assert cli_page(Ctx(data, "en", REPO), command_help(demo, prog="demo"), "9.9") == """---
description: "Every command of gpukb with its help, as gpukb <command> --help prints it: for support staff."
---

# CLI reference

!!! info gpukb-stamp "Data version 2026.11.01 · verified as of 2 November 2026"

    This page is generated from the help of `gpukb` 9.9; `gpukb <command> --help` prints the same. Data and corrections: [command line](https://example.org/gpukb/tree/data-2026.11.01/kb/cli)

## `demo`

```text
Usage: demo [OPTIONS] COMMAND [ARGS]...

  Demo tool.

  Example:
    demo hello --name x

Options:
  -h, --help  Show this message and exit.

Commands:
  hello  Say hello.
```

## `demo hello`

```text
Usage: demo hello [OPTIONS]

  Say hello.

Options:
  --name TEXT  Whom to greet.
  -h, --help   Show this message and exit.
```
"""


def test_cli_reference_of_gpukb_covers_every_registered_command():
    from kb.cli.main import cli

    names = [name for name, _ in command_help(cli)]
    top = click.Context(cli)
    assert names[0] == "gpukb"
    for command in cli.list_commands(top):
        assert f"gpukb {command}" in names


# --- engine-backed pages (a hand-made export: the tests pin the rendering, not the rules) -------------

import json  # noqa: E402

from kb.site.ask import ask_page  # noqa: E402
from kb.site.matrices import mig_matrix_page  # noqa: E402
from kb.site.rulesref import rules_page  # noqa: E402

RULES = {"mig": [{
    "id": "MIG-011", "question": "mig", "title": {"en": "MIG depends on the driver", "de": "MIG hängt vom Treiber ab"},
    "when": [["c", {"kind": "card"}]],
    "then": {"verdict": "conditional", "text": {"en": "On {name} <i>", "de": "Auf der {name} <i>"},
             "condition": {"en": "Not {e.driver}.", "de": "Nicht {e.driver}."}},
    "cites": ["cards/{card}#mig.status"], "file": "rules/mig/MIG-011-driver.yaml", "line": 7}]}


@pytest.fixture(scope="module")
def export():
    return json.loads((HERE / "fixtures" / "site-answers.json").read_text(encoding="utf-8"))


def _golden(name: str, text: str) -> None:
    path = EXPECTED / name
    if os.environ.get("GPUKB_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), name


@pytest.mark.parametrize("lang", ["de", "en"])
def test_mig_matrix_page(data, export, lang):
    page = mig_matrix_page(Ctx(data, lang, REPO), export, lambda c: f"cards/{c}.md", "rules.md")
    _golden(f"engine/mig-matrix.{lang}.md", page)
    # 26.3.0 and 26.3.1 give every card the same answer: one column
    assert page.count('data-operators="26.3.1 26.3.0"') == 2 and "data-operators=\"26.3.0\"" not in page
    # one note per rule: MIG-011's text, shared by both (= all) cards, once; MIG-007's per-card texts together
    # under one number, without a card list (each names its card)
    assert page.count("<sup>1, 2</sup>") == 2 and "<sup>3" not in page
    assert page.count("575.57.08.") == 1
    assert page.count("Gilt für" if lang == "de" else "Applies to") == 1
    assert ("Gilt für alle Karten." if lang == "de" else "Applies to every card.") in page
    # a row's problem report names the part of the card's entry the row's answers read (its MIG part)
    assert _reported_fact(page, "h200-nvl") == "cards/h200-nvl mig"


def test_mig_matrix_without_an_answer_fails(data, export):
    partial = {**export, "answers": export["answers"][1:]}
    with pytest.raises(KeyError, match="no MIG answer for h200-nvl with GPU Operator 26.7.0"):
        mig_matrix_page(Ctx(data, "de", REPO), partial, lambda c: c, "rules.md")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_rules_page(data, lang):
    page = rules_page(Ctx(data, lang, REPO), RULES)
    _golden(f"engine/rules.{lang}.md", page)
    # placeholders in words, never raw braces outside code (`{name}` → *(Name)*, `{e.driver}` → *(driver version)*)
    assert not re.search(r"\\?\{[A-Za-z_][\w.]*\\?\}", re.sub(r"`[^`]*`", "", page))
    assert ("Auf der *(Name)* &lt;i&gt;" if lang == "de" else "On *(name)* &lt;i&gt;") in page
    assert ("Nicht *(Treiberversion)*." if lang == "de" else "Not *(driver version)*.") in page


@pytest.mark.parametrize("lang", ["de", "en"])
def test_ask_page(data, lang):
    _golden(f"engine/ask.{lang}.md", ask_page(Ctx(data, lang, REPO)))


def test_ask_page_without_javascript_links_the_tables(data):
    for lang in ("de", "en"):
        page = ask_page(Ctx(data, lang, REPO))
        nojs = page[page.index("<noscript>"):page.index("</noscript>")]
        assert 'href="../method-matrix/"' in nojs and 'href="../mig-matrix/"' in nojs
        assert ("JavaScript" in nojs) and '<div id="gpukb-ask" hidden' in page
        for q in ("mig", "methods", "resource", "strategy", "dra", "recommend"):
            assert f'<option value="{q}">' in page


@pytest.mark.parametrize("lang", ["de", "en"])
def test_method_matrix_page(data, export, lang):
    from kb.site.matrices import method_matrix_page

    page = method_matrix_page(Ctx(data, lang, REPO), export, lambda c: f"cards/{c}.md", "rules.md")
    _golden(f"engine/method-matrix.{lang}.md", page)
    assert "26.3.0" not in page  # the newest release only
    # the note goes to the cell of the method the rule matched; without such a fact, beside the card's name
    assert 'data-method="dra">' + ("Bedingt" if lang == "de" else "Conditional") + "</span> <sup>1</sup> |" in page
    assert re.search(r"\[L4\]\(cards/l4\.md\) \[⚑\]\([^)]+\)\{[^}]+\} <sup>1</sup> \|", page)
    assert re.search(r"\[H200 NVL\]\(cards/h200-nvl\.md\) \[⚑\]\([^)]+\)\{[^}]+\} \|", page)
    assert _reported_fact(page, "l4") == "cards/l4 mig, operator_support"  # what `ask methods` reads of the card


def _reported_fact(page: str, card: str) -> str:
    """The fact path the problem report of `card`'s row is pre-filled with."""
    from urllib.parse import parse_qs, urlparse

    url = re.search(rf"\(cards/{re.escape(card)}\.md\) \[⚑\]\(([^)]+)\)", page).group(1)
    body = parse_qs(urlparse(url).query)["body"][0]
    return re.search(r"^(?:Fact|Angabe): (.*)$", body, re.M).group(1)


@pytest.mark.parametrize("when, lang, words", [
    ({"$and": [{"kind": "card"}, {"mig_status": "documented"}]}, "de", "`kind` = `card` und `mig_status` = `documented`"),
    ({"$neq": {"driver_given": False}}, "en", "`driver_given` ≠ `false`"),
    ({"$or": [{"$gt": {"replicas": 48}}, {"$nex": {"name": 1}}]}, "en", "one of: (`replicas` > `48`) or (`name` missing)"),
    ({"$ex": {"name": 1}}, "de", "`name` vorhanden"),
    ({"$mt": {"name": "a.*"}}, "en", '`{"$mt":{"name":"a.*"}}`'),  # an operator without words: as it is
])
def test_rule_conditions_in_words(when, lang, words):
    from kb.site.rulesref import _test

    assert _test(when, lang) == words


@pytest.mark.parametrize("url", ["javascript:alert`document.domain`", "JavaScript:void%200", "data:text/html;base64,PGI+",
                                 "vbscript:msgbox", "file:///etc/passwd"])
def test_a_link_other_than_http_is_refused(url):
    """Issue 13: a javascript: source URL became a clickable link on every page citing the source — lint refuses it
    in the catalog, and the site's one link writer refuses it too (the build fails naming the URL)."""
    from kb.site.md import link, link_or_text

    for write in (link, link_or_text):
        with pytest.raises(ValueError, match="URL not usable in a Markdown link"):
            write("NVIDIA", url)
    assert link("x", "https://docs.nvidia.com/a") == "[x](https://docs.nvidia.com/a)"
    assert link("x", "../cards/h200-nvl/#mig") == "[x](../cards/h200-nvl/#mig)"  # relative links stay


def test_a_catalog_source_with_a_script_url_never_becomes_a_link(data):
    import copy

    bad = copy.deepcopy(data)
    source = next(iter(bad["sources"].values()))
    source["url"] = "javascript:alert`document.domain`"
    with pytest.raises(ValueError, match="javascript:alert"):
        catalog_pages(bad, REPO)


class _Unshown(dict):
    """An answer to a question the pages do not show: reading anything of it but its question fails the test."""

    def __getitem__(self, key):
        if key != "question":
            raise AssertionError(f"a page read {key!r} of a {dict.__getitem__(self, 'question')} answer")
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        return self[key] if key in self else default


def test_the_pages_read_only_the_answers_of_the_shown_questions(data, export, monkeypatch, tmp_path):
    """The build computes the answers of pages.SHOWN before the pages and the others in the JSON API's process
    (kb/docs_hooks.py): a page reading another question's answer fails here. (Where git holds an older data
    version and the catalog records no verdict changes for it, the changes page compares every verdict, and the build
    computes every answer in its own process beforehand: `changes.compares_verdicts`; here git's history is one data
    version, the catalog's own.)"""
    from kb.site import changes
    from kb.site.pages import SHOWN, data_pages, engine_pages

    monkeypatch.setattr(changes, "_versions", lambda: [("c1", "2026-11-01", data["data_version"])])
    assert not changes.compares_verdicts(data, tmp_path)

    assert {a["question"] for a in export["answers"]} == set(SHOWN)
    other = [_Unshown(question=q, inputs={"card": "h200-nvl"}) for q in ("dra", "recommend", "resource", "strategy")]
    full = {**export, "answers": other + export["answers"]}
    assert catalog_pages(data, REPO, full) == catalog_pages(data, REPO, export)
    assert engine_pages(data, full, RULES, REPO, with_data=False) == engine_pages(data, export, RULES, REPO,
                                                                                   with_data=False)
    assert data_pages(data, full, REPO, "", with_api=False) == data_pages(data, export, REPO, "", with_api=False)


def test_the_matrix_computes_each_question_once_in_compute_alls_order(monkeypatch):
    from types import SimpleNamespace

    import kb.questions as questions
    from kb.questions import Matrix

    asked = []

    class Asker:
        index: dict = {}

        def answer_many(self, question, inputs):
            asked.append(question)
            return [{"question": question, "n": len(asked)}]

    monkeypatch.setattr(questions, "questions", lambda: ("dra", "mig", "methods", "resource"))
    monkeypatch.setattr(questions, "module", lambda question: SimpleNamespace(defaults=lambda index: []))
    monkeypatch.setattr(questions, "Asker", lambda *args, **kwargs: Asker())
    matrix = Matrix({})
    shown = matrix.answers(("methods", "mig"))
    assert [a["question"] for a in shown] == ["mig", "methods"]
    assert matrix.answers() == [{"question": "dra", "n": 3}, *shown, {"question": "resource", "n": 4}]
    assert asked == ["mig", "methods", "dra", "resource"]
