"""Customer voice in what `gpukb` prints, both languages: ask (every question), card (every card), cards and check
texts carry no internal word, German output has no English of ours, the recommendation reads as one. In-process
(click's runner), one catalog load for the module."""

from __future__ import annotations

import functools
import re

import pytest
from click.testing import CliRunner

from conftest import REPO
from kb.catalog.compiled import load_data
from kb.cli.main import cli
from kb.style import catalog_ids, internal_words, nested_quotes, style_problems

ASKS = [
    ("ask", "mig", "RTX PRO 6000 Server Edition", "--driver", "580.82.07"),
    ("ask", "mig", "RTX PRO 6000 Server Edition"),
    ("ask", "mig", "RTX PRO 4500"),
    ("ask", "methods", "L4"),
    ("ask", "methods", "H200 NVL"),
    ("ask", "resource", "H200 NVL", "--profile", "1g.18gb", "--mig-strategy", "mixed"),
    ("ask", "resource", "L4", "--time-slicing", "4", "--rename-by-default"),
    ("ask", "strategy", "--gpu", "H200 NVL:all-1g.18gb", "--gpu", "L4"),
    ("ask", "dra", "--operator", "26.7.0", "--k8s", "v1.34.2"),
    ("ask", "recommend", "--workload", "small-inference", "--isolation", "required"),
    ("ask", "recommend", "--workload", "dev", "--card", "L40S"),
    ("cards",),
]
CHECKS = [("check", str(REPO / "tests" / "rules" / "check" / "CHK-030" / "fires.yaml")),
          ("check", str(REPO / "tests" / "rules" / "check" / "CHK-022" / "fires.yaml"))]
#: English words that never stand in German text of ours (NVIDIA's quotes and titles are cut off before)
ENGLISH = re.compile(r"\b(the|and|with|only|not|is|are|of|for|which|Why|Sources|Conditions|yes|no)\b")


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in (0, 1), (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def ids():
    return catalog_ids(load_data())


def ours(output: str) -> str:
    """The text we wrote: without the source list (NVIDIA's titles and quotes) and without quotes „…“ “…”."""
    head = re.split(r"\n(?:Sources|Quellen):?\n", output)[0]
    return re.sub(r"„[^“]*“|“[^”]*”|<[^>]*>", "", head)


@functools.lru_cache(maxsize=1)
def _outputs() -> tuple:
    cards = sorted(c["short_name"] for c in load_data()["cards"].values())
    return tuple((args, lang, run(*args, "--lang", lang)) for args in ASKS + [("card", c) for c in cards]
                 for lang in ("en", "de"))


def outputs():
    """Every command of ASKS and `card` for every card, in both languages — run once per worker."""
    return iter(_outputs())


def german_quotes(data: dict) -> dict[str, str]:
    """Every quote from a document not in English (its source's language) → its English translation ('' if none)."""
    out: dict[str, str] = {}

    def walk(node):
        if isinstance(node, dict):
            if "quote" in node and "source" in node and \
                    data["sources"].get(node["source"], {}).get("language", "en") != "en":
                out[node["quote"]] = node.get("translation") or out.get(node["quote"], "")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk({k: data[k] for k in ("cards", "releases", "methods", "platform") if k in data})
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_cli_texts_carry_no_internal_word(ids, lang):
    found = {}
    for args, out_lang, output in outputs():
        if out_lang != lang:
            continue
        words = sorted({w for w, _ in internal_words(ours(output), ids)})
        if words:
            found[" ".join(args)] = words
    assert found == {}


def test_no_quote_inside_a_quote_in_any_answer_or_card():
    """Issue 16: every output of ASKS and `card` (both languages), source lines included: a quote inside a quote in
    ‚…‘ / ‘…’ (our article quotes NVIDIA in „…“: `ask methods L4` cites it), never „…„…“…“."""
    found = {f"{' '.join(args)} --lang {lang}": hits[:1] for args, lang, output in outputs()
             if (hits := nested_quotes(output, lang))}
    assert found == {}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_check_quotes_nvidia_in_the_languages_quotation_marks(lang):
    """Issue 16: every quote a finding cites stands in „…“ (German) / “…” (English), never in straight quotes."""
    import json

    for args in CHECKS + [("check", str(REPO / "tests" / "rules" / "check" / "CHK-006" / "fires.yaml"))]:
        text = run(*args, "--lang", lang)
        quotes = {c["quote"] for f in json.loads(run(*args, "--lang", lang, "--json"))["findings"]
                  for c in f["citations"]}
        assert quotes, args
        marks = ("„", "“") if lang == "de" else ("“", "”")
        for quote in quotes:
            assert f'"{quote}"' not in text, (args, lang, quote[:60])
            assert f"{marks[0]}{quote}{marks[1]}" in text, (args, lang, quote[:60])
        sources = re.split(r"\n(?:Sources|Quellen)\n", text)[1]
        assert not re.search(r'^  \[\d+\] .*: "', sources, re.M), (args, lang)


def test_check_texts_carry_no_internal_word_but_the_customers_own_keys(ids):
    for args in CHECKS:
        for lang in ("en", "de"):
            text = ours(run(*args, "--lang", lang)).replace(str(REPO), "<checkout>")  # the checkout's own path
            text = "\n".join(line for line in text.splitlines() if not line.startswith("      "))  # fix commands
            assert [w for w, _ in internal_words(text, ids) if not w.startswith("--")] == [], (args, lang)


def test_english_output_shows_every_german_quote_with_its_translation():
    """Issue 16: an English reader never meets a German quote alone — each stands with our translation after it."""
    quotes = german_quotes(load_data())
    assert quotes and all(quotes.values()), [q for q, t in quotes.items() if not t][:3]
    seen, bare = 0, {}
    for args, lang, output in outputs():
        if lang != "en":
            continue
        for quote, translation in quotes.items():
            for hit in re.finditer(re.escape(f"“{quote}”"), output):
                seen += 1
                if not output[hit.end():].startswith(f" (German original; our translation: “{translation}”)"):
                    bare.setdefault(" ".join(args), []).append(quote[:50])
    assert seen > 20  # the outputs do quote our article (its own statements)
    assert bare == {}


def test_german_output_shows_no_translation():
    for args, lang, output in outputs():
        if lang == "de":
            assert "our translation" not in output and "Übersetzung:" not in output, args


def test_german_cli_output_is_german():
    found = {}
    for args, lang, output in outputs():
        if lang != "de":
            continue
        english = sorted(set(ENGLISH.findall(ours(output))))
        problems = sorted({e for e, _ in style_problems(ours(output), "de", prose=False)})
        if english or problems:
            found[" ".join(args)] = english + problems
    assert found == {}


def test_methods_for_l4_in_german_names_the_card_not_its_id():
    out = run("ask", "methods", "L4", "--lang", "de")
    assert out.splitlines()[0] == "Sharing-Methoden (Karte L4, GPU Operator 26.7.0): ja"
    assert "Bedingungen:" in out and "Sie akzeptieren" not in out and "sind erfüllt" not in out
    conditions = out.split("Bedingungen:\n")[1].split("Details:")[0].splitlines()
    assert all(re.match(r"  - [^:]+: Nur(,| mit| auf)", line) for line in conditions), conditions


# --- the recommendation --------------------------------------------------------------------------------------------

def test_recommendation_headline_names_the_method():
    assert run("ask", "recommend", "--workload", "dev", "--lang", "de").splitlines()[0] == \
        "Empfehlung (Workload Entwicklung und Notebooks): Time-Slicing"
    assert run("ask", "recommend", "--workload", "small-inference", "--isolation", "required").splitlines()[0] == \
        "Recommendation (workload small inference services, isolation required): MIG"


def test_an_excluded_method_is_never_ranked_and_ranks_match_reasons():
    import json

    answer = json.loads(run("ask", "recommend", "--workload", "small-inference", "--isolation", "required", "--json"))
    ranking = answer["details"]["ranking"]
    assert [r["method"] for r in ranking] == ["mig", "whole"]
    assert [r["rank"] for r in ranking] == [1, 2]
    assert set(answer["details"]["excluded"]) == {"mps", "time-slicing"}
    suits = [r for r in answer["reasons"] if r["rule"] == "REC-001"]
    assert [r["facts"][0]["method"] for r in suits] == ["mig", "whole"]  # same order, no excluded method
    assert not any("MPS" in c["text"] or "Time-slicing" in c["text"] for c in answer["conditions"])


# --- click's own words: usage errors and help, `--lang de` and a German locale (issue 16) ----------------------------

USAGE_ERRORS = [
    ("ask", "mig"),                                   # missing argument
    ("ask", "mig", "L4", "--bogus"),                  # no such option
    ("ask", "mig", "L4", "--driverr", "1"),           # no such option, with a suggestion
    ("ask", "nope"),                                  # no such command
    ("ask", "resource", "L4", "--mps", "x"),          # not a number
    ("ask", "resource", "L4", "--mig-strategy", "x"),  # not one of the choices
    ("ask", "mig", "L4", "extra"),                    # unexpected extra argument
    ("check",),                                       # missing argument (FILES...)
    ("card",),
    ("sources", "diff", "x"),
]
#: click's English that must never reach a German reader
CLICK_ENGLISH = re.compile(r"Usage:|Error:|Try '|No such|Missing|Invalid value|is not one of|is not a valid|"
                           r"Options:|Show this message|unexpected extra|Did you mean|\b(?:CARD|FILES?|SOURCE_ID)\b")


def german_runs(*args):
    """The same command line with `--lang de` and with a German locale (LANG=de_DE.UTF-8, no --lang)."""
    env = {"LC_ALL": "", "LC_MESSAGES": ""}
    yield "--lang de", CliRunner().invoke(cli, [*args, "--lang", "de"], env=env, prog_name="gpukb").output
    yield "LANG=de_DE.UTF-8", CliRunner().invoke(cli, list(args), env={**env, "LANG": "de_DE.UTF-8"}, prog_name="gpukb").output


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=" ".join)
def test_click_usage_errors_are_german(args):
    for how, output in german_runs(*args):
        assert output.startswith("Aufruf: gpukb "), (how, output)
        assert "\nFehler: " in output, (how, output)
        assert not CLICK_ENGLISH.search(output), (how, output)
        # names and values in German quotation marks, never 'like this'
        assert not re.search(r"(?<!\w)'[^'\n]+'(?!\w)", output), (how, output)


def test_click_usage_errors_pinned_in_german():
    out = dict(german_runs("ask", "resource", "L4", "--mig-strategy", "x"))
    assert out["--lang de"] == out["LANG=de_DE.UTF-8"]
    assert out["--lang de"].splitlines() == [
        "Aufruf: gpukb ask resource [OPTIONEN] KARTE",
        "Hilfe zeigt „gpukb ask resource --help“.",
        "",
        "Fehler: Ungültiger Wert für „--mig-strategy“: „x“ ist keiner der Werte „single“, „mixed“."]
    assert dict(german_runs("ask", "mig"))["LANG=de_DE.UTF-8"].splitlines()[-1] == \
        "Fehler: Es fehlt das Argument „KARTE“."


def test_english_usage_errors_stay_english():
    out = CliRunner().invoke(cli, ["ask", "mig"], env={"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}, prog_name="gpukb").output
    assert out.splitlines()[0] == "Usage: gpukb ask mig [OPTIONS] CARD"
    assert out.splitlines()[-1] == "Error: Missing argument 'CARD'."


def test_every_german_help_is_german():
    """`--help` of every command, with `--lang de` and with a German locale: click's words, our texts, the
    metavars, the glossary — German; only examples (command lines), option names and choices stay as typed."""
    import click

    def walk(cmd, path):
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(None):
                yield from walk(cmd.get_command(None, name), [*path, name])

    found = {}
    for path, _cmd in walk(cli, []):
        for how, output in german_runs(*path, "--help"):
            lines = [line for line in output.splitlines() if not re.match(r"^\s{4,}(gpukb|kubectl) ", line)]
            text = re.sub(r"`[^`]*`|„[^“]*“|\[[^\]]*\]", "", "\n".join(lines))
            text = re.sub(r"^\s*(?:-\w, )?--[\w-]+(?: [A-Z][\w:\[\]]*)?", "", text, flags=re.M)
            problems = sorted(set(ENGLISH.findall(text)) | set(CLICK_ENGLISH.findall(output)) |
                              {e for e, _ in style_problems(text, "de", prose=False)})
            if problems or not output.startswith("Aufruf: "):
                found[f"{' '.join(path) or 'gpukb'} ({how})"] = problems
    assert found == {}


# --- the drift report: its reader's part in the customer voice (kb/drift/report.py says which part is whose) --------

def reader_part(report: str) -> str:
    """What a support engineer reads in the drift report: everything but the maintainer's part — code spans (source
    ids, rule ids, fact paths, files read), the finding sentences (they compare NVIDIA's document with our data),
    the touches / read-by / read lines, the tools' own messages and the footer."""
    keep = []
    for line in report.splitlines():
        if re.match(r"^- (?!\*\*)", line) or re.match(r"^  - (touches|betrifft|read by the rules|gelesen von den "
                                                       r"Regeln)", line) or re.match(r"^(read|gelesen): ", line) \
                or line.startswith("_"):
            continue
        line = re.sub(r"(: |; die Meldung lautet: )„?[^„]*$", "", line) if line.startswith("- **") else line
        keep.append(line)
    return re.sub(r"`[^`]*`", "", "\n".join(keep))


def finding_sentences(report: str) -> list[str]:
    """The reader's words of each finding: its sentence without the code-formatted reference part (the touches /
    read-by lines under it and code spans are the maintainer's)."""
    return [re.sub(r"`[^`]*`", "", line) for line in report.splitlines() if re.match(r"^- (?!\*\*)", line)]


def test_finding_sentences_of_every_comparison_speak_of_our_data():
    """Every sentence a drift comparison can write (the string parts of its Text(…)), not only those the fixtures
    trigger: „unsere Daten“ / "our data", never the catalog."""
    import ast

    for path in sorted((REPO / "kb" / "drift" / "comparisons").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Text":
                words = " ".join(n.value for arg in node.args for n in ast.walk(arg)
                                 if isinstance(n, ast.Constant) and isinstance(n.value, str))
                assert not re.search(r"catalog|katalog", words, re.IGNORECASE), (path.name, words)


def _drift_answer(lang_answer: dict) -> dict:
    """A real answer as the drift report lists one that changes."""
    return {"question": lang_answer["question"], "inputs": lang_answer["inputs"], "before": "yes",
            "after": lang_answer["verdict"], "rules_added": [], "rules_removed": [], "summary": lang_answer["summary"]}


def test_drift_report_reader_part_is_customer_voice(drift_catalog, old_platform, tmp_path, ids):
    from kb.catalog.compiled import load_data as load
    from kb.drift.report import answer_lines
    from kb.questions import answer

    texts = {}
    for lang in ("en", "de"):
        report = tmp_path / f"drift.{lang}.md"
        result = CliRunner().invoke(cli, ["sources", "check", "--offline", str(old_platform), "--source",
                                          "gpu-operator-platform-support", "--source", "device-plugin-readme",
                                          "--report", str(report), "--lang", lang])
        assert result.exit_code == 3, result.output
        texts[lang] = report.read_text(encoding="utf-8")
    data = load()
    names = {c: card["short_name"] for c, card in data["cards"].items()}
    real = [_drift_answer(answer("mig", card=c)) for c in sorted(data["cards"])[:2]]
    for lang, text in texts.items():
        lines = answer_lines(real, lang, markdown=True, names=names)
        assert all(names[a["inputs"]["card"]] in line for a, line in zip(real, lines))
        reader = reader_part(text) + "\n" + "\n".join(lines)
        assert [w for w, _ in internal_words(reader, ids)] == [], (lang, reader)
        assert "catalog" not in reader.lower() and "katalog" not in reader.lower(), (lang, reader)
        findings = finding_sentences(text)
        assert findings, text  # the old platform support differs: there are findings to read
        for sentence in findings:
            assert not re.search(r"catalog|katalog|\bcards/|\bmethods/|\breleases/|\b[a-z]+_[a-z_]+\.[a-z_]+",
                                 sentence, re.IGNORECASE), (lang, sentence)
        if lang == "de":
            assert not ENGLISH.findall(re.sub(r"\*\*[^*]*\*\*|„[^“]*“", "", reader)), reader
            assert [e for e, _ in style_problems(reader, "de", prose=False)] == [], reader
    assert texts["de"].splitlines()[0].startswith("# Abweichungen in der Dokumentation – ")
    assert "; die Meldung lautet: „" in texts["de"]  # the tool's English inside a German sentence


def test_quote_findings_name_what_the_quote_backs_not_its_path(ids):
    """Issue 16: a gone quote's sentence names the card (method, component) in words and „das Dokument“; the fact
    path and the source id stand only in the reference part (touches)."""
    from kb.drift.compare import quotes_gone
    from kb.questions import words

    data = load_data()
    sid = "gpu-operator-platform-support"
    changes = quotes_gone({**data["sources"][sid], "id": sid}, "a page that quotes nothing of ours", data)
    assert changes and {c.kind for c in changes} == {"quote-gone"}
    inner = ids + tuple(data["methods"]) + tuple(data["releases"]) + tuple(words.DRA_FEATURE)
    for change in changes:
        for lang in ("en", "de"):
            sentence = re.sub(r"„[^“]*“|“[^”]*”", "", change.text[lang])
            assert [w for w, _ in internal_words(sentence, inner)] == [], sentence
            assert not re.search(r"\b(cards|methods|releases)/|" + re.escape(sid), sentence), sentence
        assert change.touches and change.touches[0].split(" ", 1)[0] in change.touches[0]
    l4 = next(c for c in changes if c.touches[0].startswith("cards/l4 "))
    assert l4.text["de"].startswith("Das Zitat „") and "unsere Daten zu L4 belegt" in l4.text["de"], l4.text
    assert "behind our data on L4 is gone from the document" in l4.text["en"], l4.text
