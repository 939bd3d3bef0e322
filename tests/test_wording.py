"""How citations read (kb.wording) and where the site links to (kb.publication)."""

from __future__ import annotations

import re

import pytest

from kb import publication as publication_mod
from kb.publication import Publication, publication, source_url
from kb.wording import citation_text, date_text, quoted, section_text, shown

DATA = {"sources": {
    "mig-guide": {"publisher": "NVIDIA", "title": "MIG User Guide", "language": "en", "document_date": "2026-09-11",
                  "retrieved": "2026-11-29"},
    "article": {"publisher": "Eurokommerz", "title": "GPUs in Kubernetes", "language": "de", "retrieved": "2026-11-29"},
}}
NVIDIA = {"source": "mig-guide", "quote": "7 instances"}
OURS = {"source": "article", "quote": "bis zu sieben"}


@pytest.mark.parametrize("iso, lang, text", [("2026-09-21", "de", "21. September 2026"),
                                             ("2026-09-21", "en", "21 September 2026"),
                                             ("2026-03-01", "de", "1. März 2026")])
def test_one_date_format_per_language(iso, lang, text):
    assert date_text(iso, lang) == text


def test_nvidia_first_and_our_article_dropped_beside_it():
    assert shown(DATA, [OURS, NVIDIA], "mig.max_instances", "Eurokommerz") == [NVIDIA]


def test_our_article_stays_for_our_own_statements_after_nvidia():
    assert shown(DATA, [OURS, NVIDIA], "vendor.ships", "Eurokommerz") == [NVIDIA, OURS]
    assert shown(DATA, [OURS], "suited_for[2]", "Eurokommerz") == [OURS]


def test_our_article_as_the_only_source_of_an_nvidia_fact_is_marked():
    [only] = shown(DATA, [OURS], "memory_gb", "Eurokommerz")
    assert only["only_source"] is True
    assert citation_text(only, "de", source=DATA["sources"]["article"]).endswith(
        "– unser eigener Artikel; ein Dokument von NVIDIA dazu haben wir nicht gefunden")


def test_section_words_in_german_and_document_headings_kept():
    assert section_text("Supported GPUs, row 'H200 NVL' (column Memory Size)", "de") == \
        "Supported GPUs, Zeile „H200 NVL“ (Spalte Memory Size)"
    assert section_text("Platform Support, tab 'A, H and L-series Products', note", "de") == \
        "Platform Support, Reiter „A, H and L-series Products“, Hinweis"
    assert section_text("Supported GPUs, row 'H200 NVL'", "en") == "Supported GPUs, row “H200 NVL”"


def test_german_quote_on_an_english_page_carries_its_translation():
    cite = {**OURS, "translation": "up to seven"}
    text = citation_text(cite, "en", source=DATA["sources"]["article"])
    assert text == "GPUs in Kubernetes: “bis zu sieben” (German original; our translation: “up to seven”) (retrieved 29 November 2026)"
    assert "Übersetzung" not in citation_text(cite, "de", source=DATA["sources"]["article"])


def test_article_address_comes_from_the_configuration_and_is_unlinked_when_unset(monkeypatch):
    monkeypatch.setenv("GPUKB_ARTICLE_URL", "")
    assert source_url(DATA["sources"]["article"]) is None
    monkeypatch.setenv("GPUKB_ARTICLE_URL", "https://shop.example.org/blog/gpus")
    assert source_url(DATA["sources"]["article"]) == "https://shop.example.org/blog/gpus"
    assert source_url({"publisher": "NVIDIA", "url": "https://docs.nvidia.com/x"}) == "https://docs.nvidia.com/x"


def test_repository_links_point_at_the_data_version(monkeypatch):
    monkeypatch.setenv("GPUKB_DATA_REF", "data-2026.11.29")
    pub = publication()
    assert pub.repo_link("catalog/cards/l4.yaml").endswith("/blob/data-2026.11.29/catalog/cards/l4.yaml")
    assert pub.repo_link("rules/") .endswith("/tree/data-2026.11.29/rules")
    assert Publication(None, "x", None, "E").repo_link("catalog/") is None


def test_without_a_configured_ref_the_checkout_commit_is_used(monkeypatch):
    monkeypatch.delenv("GPUKB_DATA_REF", raising=False)
    monkeypatch.setattr(publication_mod, "_raw", lambda: {"repo_url": "https://example.org/r"})
    monkeypatch.setattr(publication_mod, "git_head", lambda: "a" * 40)
    assert publication().repo_link("catalog/") == "https://example.org/r/tree/" + "a" * 40 + "/catalog"
    assert "/main/" not in publication().repo_link("catalog/x.yaml")


def test_the_shipped_configuration_has_no_placeholder_address():
    raw = publication_mod._raw()
    assert all(".example" not in str(v) for v in raw.values())


def test_publication_toml_is_read_without_tomllib_as_tomllib_reads_it():
    """kb.publication reads its plain `key = "text"` file without importing tomllib (start-up time of every
    `gpukb ask`); anything else goes to tomllib, which reads it the same or reports what is wrong."""
    import tomllib

    from kb.publication import CONFIG, plain_toml

    real = CONFIG.read_bytes()
    assert plain_toml(real) == tomllib.loads(real.decode("utf-8")) != {}
    for text in (b'a = "x" # note\n', b'a = ""\n', b'a = "x\xc3\xa4 = y"\r\n', b'a = "x\ty"\n'):
        assert plain_toml(text) == tomllib.loads(text.decode("utf-8"))
    for text in (b'a = "x\\ny"\n', b"a = 'x'\n", b"a = 1\n", b'[t]\na = "x"\n', b'a.b = "x"\n', b'"a" = "x"\n',
                 b'a = """x"""\n', b'a = "x"\na = "y"\n', b'a = "x" y\n', b'a = "x\x01"\n', b'a = "\xff"\n'):
        assert plain_toml(text) is None, text


def english_place_words(text: str) -> list[str]:
    """The English place words (kb.wording.ENGLISH_PLACE_WORDS) left in a German citation place or source line,
    outside the document's own names („…“) and outside file paths and identifiers (they contain / . _)."""
    import re

    from kb.wording import ENGLISH_PLACE_WORDS

    from kb.wording import MONTHS

    text = re.sub(r"\S*[/._]\S*", "", re.sub(r"„[^“]*“", "", text))
    dates = re.findall(r"\b\d{1,2} (?:" + "|".join(MONTHS["en"]) + r") \d{4}", text)  # written the English way
    return [w for w in ENGLISH_PLACE_WORDS if re.search(rf"(?<![\w'-]){w}(?![\w'-])", text)] + dates


@pytest.mark.parametrize("section, german", [
    ("cmd/mps-control-daemon/mps/manager.go, lines 97–98 (tag v0.20.0): the daemon refuses the configuration",
     "cmd/mps-control-daemon/mps/manager.go, Zeilen 97–98 (Tag v0.20.0): der Daemon lehnt die Konfiguration ab"),
    ("Deployment Considerations, rows 'A' and 'B'", "Deployment Considerations, Zeilen „A“ und „B“"),
    ("platform-support.rst at commit adfe922 (2026-03-20), the first version of the page naming it",
     "platform-support.rst, Commit adfe922 (20. März 2026), die erste Fassung der Seite, die sie nennt"),
    ("Support for KubeVirt and OpenShift Virtualization, note",  # the heading's "and" is NVIDIA's
     "Support for KubeVirt and OpenShift Virtualization, Hinweis"),
])
def test_a_places_notes_read_german(section, german):
    assert section_text(section, "de") == german
    assert section_text(section, "en") == section.replace("'A'", "“A”").replace("'B'", "“B”").replace(
        "2026-03-20", "20 March 2026")
    assert english_place_words(german) == []
    assert english_place_words(section_text(section, "en")) or "note" in section  # the helper does see English


def test_a_place_escaped_for_markdown_reads_german_too():
    from kb.site.md import esc

    section = "controllers/object_controls.go, line 2788 (tag v26.7.0): an empty mig.strategy sets no MIG_STRATEGY"
    assert section_text(esc(section), "de") == \
        "controllers/object\\_controls.go, Zeile 2788 (Tag v26.7.0): ein leeres mig.strategy setzt kein MIG\\_STRATEGY"


def test_every_citation_place_of_catalog_and_rules_reads_german():
    from conftest import REPO
    from kb.catalog.yamlsafe import safe_load  # libyaml: the values PyYAML reads (test_site_api), 10× faster

    sections = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("section"), str):
                sections.add(node["section"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in [*(REPO / "catalog").rglob("*.yaml"), *(REPO / "rules").rglob("*.yaml")]:
        walk(safe_load(path.read_text(encoding="utf-8")))
    assert len(sections) > 400
    from kb.site.md import esc  # the site renders the place escaped for Markdown

    left = {s: english_place_words(section_text(s, "de")) + english_place_words(section_text(esc(s), "de"))
            for s in sections}
    assert {s: words for s, words in left.items() if words} == {}


@pytest.mark.parametrize("args", [
    ("ask", "methods", "GB300", "--operator", "26.3.0"), ("ask", "methods", "L4"), ("ask", "mig", "L40S"),
    ("ask", "mig", "H200 NVL"), ("ask", "resource", "H100 NVL", "--mps", "4"), ("ask", "recommend", "--workload", "dev"),
    ("ask", "dra", "--dra-driver", "25.8.0", "--k8s", "1.33.4", "--feature", "mps"),
], ids=lambda a: "-".join(a[1:3]))
def test_the_german_clis_source_lines_name_places_in_german(args):
    from click.testing import CliRunner

    from kb.cli.main import cli

    result = CliRunner().invoke(cli, [*args, "--lang", "de"])
    assert result.exit_code in (0, 1), result.output
    sources = [line for line in result.output.splitlines() if line.lstrip().startswith("[")]
    assert sources, result.output
    # the documents' titles are the publishers' own (English) names; the place after a title is ours to word
    from kb.catalog.compiled import load_data

    titles = sorted((s["title"] for s in load_data()["sources"].values()), key=len, reverse=True)
    for title in titles:
        sources = [line.replace(title, "") for line in sources]
    assert [(line, english_place_words(line)) for line in sources if english_place_words(line)] == []


@pytest.mark.parametrize("lang, condition", [
    ("en", "Only on nodes running Ubuntu 24.04 LTS: the only system NVIDIA's list names for this card"),
    ("de", "Nur auf Nodes mit Ubuntu 24.04 LTS: Das ist das einzige System, das NVIDIAs Liste für diese Karte nennt"),
])
def test_a_facts_restriction_is_a_condition_of_the_answer(lang, condition):
    """The support list names the GB300 for KubeVirt vGPU only 'on Ubuntu 24.04 LTS': the fact's `condition`
    stands in the answer's conditions (not only in a quoted source), beside the rule's own condition."""
    from click.testing import CliRunner

    from kb.cli.main import cli

    out = CliRunner().invoke(cli, ["ask", "methods", "GB300", "--operator", "26.3.0", "--lang", lang]).output
    head = "Conditions:\n" if lang == "en" else "Bedingungen:\n"
    conditions = out.split(head)[1].split("Details:")[0].splitlines()
    [vgpu] = [c for c in conditions if condition in c]
    assert vgpu.startswith("  - vGPU: ") and "vm-vgpu" in vgpu  # joined to METHODS-040's own condition
    l40s = CliRunner().invoke(cli, ["ask", "methods", "L40S", "--lang", lang]).output
    assert "Ubuntu 24.04" not in l40s  # a card the list names without a system gets no such condition


@pytest.mark.parametrize("lang, inner, expected", [
    ("de", "ein Fehler „wird allen Clients gemeldet“, sodass", "„ein Fehler ‚wird allen Clients gemeldet‘, sodass“"),
    ("en", "ein Fehler „wird allen Clients gemeldet“, sodass", "“ein Fehler ‘wird allen Clients gemeldet’, sodass”"),
    ("en", "select “Enable MIG” first", "“select ‘Enable MIG’ first”"),
    ("de", "select “Enable MIG” first", "„select ‚Enable MIG‘ first“"),
    ("de", "plain", "„plain“"),
])
def test_a_quote_inside_a_quote_takes_the_secondary_marks(lang, inner, expected):
    """Issue 16: „…„…“…“ never; our article quotes NVIDIA in „…“, and a citation quotes our article."""
    from kb.style import nested_quotes

    assert quoted(inner, lang) == expected
    assert nested_quotes(expected, lang) == []
    raw = f"„{inner}“" if lang == "de" else f"“{inner}”"
    if "„" in inner or (lang == "en" and "“" in inner):  # what quoting without nesting wrote: the check fails on it
        assert nested_quotes(raw, lang) != []


def test_nested_quotes_reads_only_the_marks_and_finds_what_a_walk_of_every_character_finds():
    """kb.style.nested_quotes jumps from mark to mark (a walk of every character of every built page cost ~1–2 s
    in test_voice_site): the same excerpts as that walk for every text of up to five of „ “ ” ‚ x and a line end,
    in both languages, and an excerpt cut 30 characters either side."""
    import itertools

    from kb.style import nested_quotes

    def walk(text, lang):
        opening, closing = ("„", "“") if lang == "de" else ("“", "”")
        depth, out = 0, []
        for i, ch in enumerate(text):
            if ch == opening or (ch == "„" and lang != "de"):
                if depth:
                    out.append(text[max(0, i - 30):i + 30])
                depth += 1
            elif ch == closing and depth:
                depth -= 1
            elif ch == "\n":
                depth = 0
        return out

    for size in range(6):
        for chars in itertools.product("„“”‚x\n", repeat=size):
            text = "".join(chars)
            for lang in ("de", "en"):
                assert nested_quotes(text, lang) == walk(text, lang), (text, lang)
    long = "a" * 40 + "„b „c“ d“" + "e" * 40
    assert nested_quotes(long, "de") == [long[43 - 30:43 + 30]]


def test_every_source_title_reads_german_around_nvidias_words():
    """Issue 16: our words in a document's title ("(source code)", "earlier versions of the page", "issue #720")
    are German on German pages and answers; NVIDIA's own title stays as written."""
    from kb.catalog.compiled import load_data
    from kb.wording import ENGLISH_TITLE_WORDS, title_text

    titles = [s["title"] for s in load_data()["sources"].values()]
    assert sum(any(w in t for w in ENGLISH_TITLE_WORDS) for t in titles) >= 10  # the check has something to do
    left = {t: [w for w in ENGLISH_TITLE_WORDS if w in title_text(t, "de")] for t in titles}
    assert {t: w for t, w in left.items() if w} == {}
    # every parenthesis of a title is NVIDIA's own words or said in German on German pages (one added without a
    # German phrase in kb.wording showed English there: "(the PCI ID list NVIDIA's code ships)")
    nvidias_own = {"(README)", "(CHANGELOG)", "(R610)", "(R620)", "(CUDA MPS)", "(CDI)", "(NRI)", "(72 GB)", "(mig-parted)"}
    english = {(t, p) for t in titles for p in re.findall(r"\([^()]*\)", t)
               if p not in nvidias_own and p in title_text(t, "de")}
    assert english == set()
    assert title_text("NVIDIA device plugin for Kubernetes (source code)", "de") == \
        "NVIDIA device plugin for Kubernetes (Quellcode)"
    assert title_text("NVIDIA device plugin for Kubernetes (source code)", "en").endswith("(source code)")


def test_internal_words_finds_the_catalog_ids_the_pattern_of_every_id_finds():
    """kb.style.internal_words tries only the ids its text holds (the pattern of all of them, tried at every position
    of every built page, cost ~0.4 s in test_voice_site): the same ids at the same places as the pattern of every id,
    for every text of up to three pieces of ids that share beginnings, ends and words, and the separators around them."""
    import itertools

    from kb.catalog.compiled import load_data
    from kb.style import _ids_pattern, catalog_ids, internal_words

    ids = catalog_ids(load_data())
    assert {"a100-sxm4-40gb", "a100-sxm4-80gb", "rtx-pro-6000-blackwell-server"} <= set(ids)
    whole = _ids_pattern(ids)
    pieces = ["a100-sxm4-40gb", "a100-sxm4", "-80gb", "rtx-pro-6000-blackwell-server", "rtx-pro-6000-blackwell",
              "-max-q", " ", ".", "/", "-", "x", ".yaml", sorted(ids, key=len)[-1]]
    for size in range(4):
        for parts in itertools.product(pieces, repeat=size):
            text = "".join(parts)
            found = [w for w, why in internal_words(text, ids) if why[0].startswith("catalog id")]
            assert found == [m.group(0) for m in whole.finditer(text)], text


def test_internal_words_tries_a_pattern_only_where_its_match_could_be_and_finds_what_every_pattern_finds():
    """kb.style.internal_words tries each pattern only where the text holds a piece all its matches hold (each pattern
    tried at every position of every built page cost ~1 s in test_voice_site): the same words, in the same order, as
    every pattern tried, for every text of up to two pieces — each pattern's words in other cases, and the characters
    (?i) matches to an ASCII letter that lowercase does not (ı, İ, ſ)."""
    import itertools

    from kb.style import _FIELD, _NEEDED, _OUR_PATH, INTERNAL, internal_words

    assert len(_NEEDED) == len(INTERNAL) + 2
    field, path = ("field name of our data", "Feldname unserer Daten"), ("field path of our data", "Feldpfad unserer Daten")
    pieces = ["Seed", "SEEDS", "ſeed", "Snapshot", "SNAPSHOTS", "snapſhot", "Local Copy", "lokale Kopie",
              "LIEGT NICHT LOKAL", "Catalog", "Katalogue", "Katalog", "fires", "FIRED", "fıre", "fİre", "gefeuert",
              "Rule Engine", "Regel-Engine", "RULES-ENGINE", "eurokommerz.example", "x.example/", "--flag", "min_vbios",
              "data_version", "mig.status", "isolation.fault", "İ", "K", " ", "x", "."]
    hit = set()
    for size in range(3):
        for parts in itertools.product(pieces, repeat=size):
            text = "".join(parts)
            every = [(m.group(0), why) for pattern, why in INTERNAL for m in pattern.finditer(text)]
            every += [(m.group(0), field) for m in _FIELD.finditer(text)] + [(m.group(0), path) for m in _OUR_PATH.finditer(text)]
            assert internal_words(text) == every, text
            hit.update(why for _w, why in every)
    assert hit == {why for _p, why in INTERNAL} | {field, path}  # every pattern found something


def test_the_checkouts_commit_is_asked_of_git_once_per_process_until_head_or_its_ref_moves(tmp_path, monkeypatch):
    """kb.publication.git_head: a commit, a checkout of another commit and a worktree's own HEAD are seen; while
    nothing moved, git is not started again (the site build asked it for every page)."""
    import subprocess

    def git(*args, cwd=tmp_path / "repo"):
        return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=cwd,
                              check=True, capture_output=True, text=True).stdout.strip()

    (tmp_path / "repo").mkdir()
    git("init", "-q", "-b", "main")
    git("commit", "-q", "--allow-empty", "-m", "one")
    asked = []
    ask = publication_mod._ask_git_head
    monkeypatch.setattr(publication_mod, "_ask_git_head", lambda: asked.append(1) or ask())
    monkeypatch.setattr(publication_mod, "_HEAD", [None, None])
    monkeypatch.setattr(publication_mod, "ROOT", tmp_path / "repo")
    first = git("rev-parse", "HEAD")
    assert [publication_mod.git_head() for _ in range(3)] == [first] * 3 and len(asked) == 1
    git("commit", "-q", "--allow-empty", "-m", "two")
    second = git("rev-parse", "HEAD")
    assert second != first and publication_mod.git_head() == second and len(asked) == 2
    git("pack-refs", "--all")  # the branch's ref moves into packed-refs: the same commit, asked again
    assert publication_mod.git_head() == second
    git("checkout", "-q", "--detach", first)
    assert publication_mod.git_head() == first
    git("worktree", "add", "-q", "--detach", str(tmp_path / "wt"), second)  # a .git file naming its folder
    monkeypatch.setattr(publication_mod, "ROOT", tmp_path / "wt")
    assert publication_mod.git_head() == second
    git("commit", "-q", "--allow-empty", "-m", "three", cwd=tmp_path / "wt")
    assert publication_mod.git_head() == git("rev-parse", "HEAD", cwd=tmp_path / "wt") != second
    calls = len(asked)
    assert publication_mod.git_head() == publication_mod.git_head() and len(asked) == calls
