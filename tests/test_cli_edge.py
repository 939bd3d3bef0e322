"""The CLI's one edge (kb.cli.edge): every kind of error, through a real command, as text and as JSON —
one JSON shape, exit codes from kb.cli.exitcodes — and the language of click's own words."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from kb.cli import i18n
from kb.cli.exitcodes import Exit, exit_code
from kb.cli.main import cli

KEYS = ["error", "kind", "exit_code", "lang", "details"]

RULE = """\
id: E-001
question: mig
title: {en: The card has MIG, de: Die Karte hat MIG}
when:
  c: {$and: [{kind: card}, {mig_status: documented}]}
then:
  verdict: "yes"
  text: {en: "{name} has MIG.", de: "{name} hat MIG."}
cites:
  - cards/{card}#mig.status
"""


def gpukb(*args, env=None):
    return CliRunner().invoke(cli, [str(a) for a in args], env=env)


def both(*args, env=None):
    """(text result, parsed JSON of the --json result); the JSON has the one shape."""
    text = gpukb(*args, env=env)
    as_json = gpukb(*args, "--json", env=env)
    data = json.loads(as_json.stdout)
    assert list(data) == KEYS, data
    assert as_json.exit_code == text.exit_code == data["exit_code"]
    return text, data


@pytest.fixture
def small_base(tmp_path, monkeypatch):
    """The lint fixture catalog with a one-rule rule base in tmp; returns the rule file to break."""
    rules = tmp_path / "rules"
    (rules / "mig").mkdir(parents=True)
    rule = rules / "mig" / "E-001-mig.yaml"
    rule.write_text(RULE, encoding="utf-8")
    monkeypatch.setenv("GPUKB_CATALOG", str(FIXTURES / "lint" / "good"))
    monkeypatch.setenv("GPUKB_RULES", str(rules))
    return rule


def test_the_small_base_answers(small_base):
    result = gpukb("ask", "mig", "alpha-100")
    assert result.exit_code == 0 and result.output.startswith("MIG (card Alpha 100, GPU Operator 26.1.0): yes")


def test_unusable_input():
    text, data = both("ask", "mig", "L40G", "--lang", "de")  # the L40G is another product than the L40
    error = "unbekannte Karte „L40G“ – meinten Sie: L40; L40S; L4 (alle anzeigen: gpukb cards)"
    assert (text.exit_code, text.output) == (2, f"Fehler: {error}\n")
    assert data == {"error": error, "kind": "unusable-input", "exit_code": 2, "lang": "de",
                    "details": {"suggestions": ["l40", "l40s", "l4"], "command": "ask mig"}}


def test_unreadable_file(tmp_path):
    missing = tmp_path / "nodes.yaml"
    text, data = both("check", missing)
    assert (text.exit_code, text.output) == (2, "Error: cannot read the input, nothing was checked:\n"
                                                f"  {missing}: cannot read file: No such file or directory\n")
    assert (data["kind"], data["details"]["problems"][0]["file"]) == ("unreadable-file", str(missing))


def test_catalog_invalid(tmp_path, monkeypatch):
    broken = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "lint" / "good", broken)
    (broken / "cards" / "beta-10.yaml").write_text("id: beta-10\nname: [unclosed\n", encoding="utf-8")
    monkeypatch.setenv("GPUKB_CATALOG", str(broken))
    text, data = both("cards")
    assert text.exit_code == 2
    assert text.output.splitlines()[:2] == ["Error: the catalog is not usable (run 'gpukb lint'):",
                                            "  catalog/cards/beta-10.yaml:3: not valid YAML: expected ',' or ']', "
                                            "but got '<stream end>'"]
    assert data["kind"] == "catalog-invalid"
    assert data["details"]["problems"] == [{"file": "catalog/cards/beta-10.yaml", "line": 3, "path": "", "kind": "yaml",
                                            "message": "not valid YAML: expected ',' or ']', but got '<stream end>'"}]


def test_rule_base_invalid(small_base):
    small_base.write_text(RULE.replace('verdict: "yes"', "verdict: maybe"), encoding="utf-8")
    text, data = both("ask", "mig", "alpha-100")
    assert (text.exit_code, text.output) == (2, (
        "Error: the rule base is not usable (run 'gpukb lint'):\n"
        "  rules/mig/E-001-mig.yaml:7: then.verdict: verdict 'maybe' is not one of yes, conditional, unconfirmed, no\n"))
    assert (data["kind"], data["details"]["problems"][0]["path"]) == ("rules-invalid", "then.verdict")


def test_engine_failure_is_an_internal_error_with_its_traceback_in_a_file(small_base, tmp_path, monkeypatch):
    """A rule citing a fact the catalog does not have fails in the engine: exit 4, one line, never a finding."""
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    small_base.write_text(RULE.replace("cards/{card}#mig.status", "cards/{card}#mig.nothing"), encoding="utf-8")
    text, data = both("ask", "mig", "alpha-100")
    assert text.exit_code == Exit.INTERNAL == 4
    (line,) = text.output.splitlines()
    assert line.startswith("Error: internal error: rules/mig/E-001-mig.yaml: cites cards/alpha-100#mig.nothing, "
                           "which is not a cited fact of the catalog")
    written = re.search(r"the traceback is in (\S+) \(gpukb --debug … prints it\)$", line)
    assert written and "Traceback (most recent call last)" in Path(written.group(1)).read_text(encoding="utf-8")
    assert Path(written.group(1)).parent == tmp_path / "cache" / "tracebacks"
    assert data["kind"] == "engine-failure" and data["details"]["exception"] == "EngineFailure"


def test_source_unreachable(monkeypatch, tmp_path):
    from kb.errors import SourceUnreachable

    def unreachable(*args, **kwargs):
        raise SourceUnreachable("https://docs.nvidia.com/x: connection refused", details={"source": "x"})

    monkeypatch.setattr("kb.drift.check.run", unreachable)
    text, data = both("sources", "check", "--offline", tmp_path)
    assert (text.exit_code, text.output) == (3, "Error: https://docs.nvidia.com/x: connection refused\n")
    assert (data["kind"], data["details"]) == ("source-unreachable", {"source": "x", "command": "sources check"})


def test_usage_errors_are_click_words_in_the_run_language():
    text, data = both("ask", "resource", "L4", "--mig-strategy", "both", "--lang", "de")
    assert text.exit_code == 2
    assert text.output.splitlines()[-1] == ("Fehler: Ungültiger Wert für „--mig-strategy“: „both“ ist keiner der Werte "
                                            "„single“, „mixed“.")
    assert "Aufruf: gpukb ask recommend [OPTIONEN]" in gpukb("ask", "recommend", "--lang", "de").output.replace("cli", "gpukb")
    assert data == {"error": "Ungültiger Wert für „--mig-strategy“: „both“ ist keiner der Werte „single“, „mixed“.",
                    "kind": "usage", "exit_code": 2, "lang": "de",
                    "details": {"command": "ask resource", "parameter": "mig_strategy"}}
    text, data = both("nonsense")
    assert (text.exit_code, data["kind"], data["error"]) == (2, "usage", "No such command 'nonsense'.")


def test_an_option_named_like_the_commands_argument_says_how_the_argument_is_given():
    """`gpukb ask mig --card "H100 PCIe"` (the ask page's address says card=…): CARD is the argument without a name;
    the error says so with the command line that works (exit 2 all the same)."""
    text, data = both("ask", "mig", "--card", "H100 PCIe", "--driver", "580.82.07")
    line = 'gpukb ask mig "H100 PCIe" --driver 580.82.07'
    assert text.exit_code == 2
    assert text.output.splitlines()[-1] == f"Error: No such option '--card'. CARD is given without an option name: {line}"
    assert data["error"].startswith("No such option '--card'. CARD is given without an option name: ")
    assert data["details"] == {"suggestions": [line + " --json"], "command": "ask mig"}
    german = gpukb("--lang", "de", "ask", "resource", "--card=A100 80GB", "--mps", "4")
    assert german.output.splitlines()[-1] == ("Fehler: Unbekannte Option „--card“. KARTE wird ohne Optionsnamen "
                                              'angegeben: gpukb --lang de ask resource "A100 80GB" --mps 4')
    shell = gpukb("ask", "mig", "--card", 'L4 "x" $HOME `id`')
    assert shell.output.splitlines()[-1].endswith(r'gpukb ask mig "L4 \"x\" \$HOME \`id\`"')
    # no hint where the line would not work either: the card given as well, or no value after the option
    for args in (("ask", "mig", "L4", "--card", "L4"), ("ask", "mig", "--card"), ("ask", "mig", "L4", "--cards")):
        out = gpukb(*args).output.splitlines()[-1]
        assert out.startswith("Error: No such option") and "without an option name" not in out, out
    # `gpukb card` takes the card the same way (its argument was NAME: no hint)
    card = gpukb("--lang", "de", "card", "--card", "L4", "--json")
    assert card.exit_code == 2 and json.loads(card.output)["details"]["suggestions"] == ["gpukb --lang de card L4 --json"]


def test_values_the_catalog_defines_are_checked_against_it_with_suggestions():
    """--workload and --feature take what the catalog defines (no list in the CLI): unusable input, not usage."""
    text, data = both("ask", "recommend", "--workload", "trainng")
    assert (text.exit_code, data["kind"]) == (2, "unusable-input")
    assert data["error"] == ("unknown workload 'trainng' — did you mean: training; known: training, large-model, "
                             "small-inference, dev, multi-tenant")
    assert data["details"]["suggestions"] == ["training"]
    from kb.catalog.compiled import load_data

    index = load_data()["index"]
    help_text = "".join((gpukb("ask", "recommend", "--help").output + gpukb("ask", "dra", "--help").output).split())
    for value in index["workloads"] + index["dra_features"]:
        assert value in help_text


def test_the_methods_question_lists_the_catalogs_methods_in_its_help(monkeypatch):
    """`ask methods --help` names the methods the catalog defines, in both languages and in `ask --help`'s short
    line — read when the help is shown, not written in the CLI; without a loadable catalog the help goes without."""
    from kb.catalog import compiled

    index = compiled.load_data(parts=("index",))["index"]
    listed = "(" + ", ".join(index["methods"]) + ")"
    assert len(index["methods"]) >= 7
    for lang, start in (("en", "Which sharing methods work on CARD "), ("de", "Welche Sharing-Methoden gehen auf KARTE ")):
        text = " ".join(gpukb("ask", "methods", "--help", "--lang", lang).output.split())
        assert start + listed + "?" in text.replace("vm- passthrough", "vm-passthrough")
    line = next(x for x in gpukb("ask", "--help").output.splitlines() if x.split()[:1] == ["methods"])
    assert " ".join(line.split()[1:]).startswith("Which sharing methods work on CARD (whole,")
    real = compiled.load_data

    def other(*args, **kwargs):
        data = real(*args, **kwargs)
        return {**data, "index": {**data["index"], "methods": ["whole", "time-slicing", "teleport"]}}
    monkeypatch.setattr(compiled, "load_data", other)
    assert "Which sharing methods work on CARD (whole, time-slicing, teleport)?" in gpukb("ask", "methods", "--help").output
    monkeypatch.setattr(compiled, "load_data", lambda *a, **k: 1 / 0)
    assert "Which sharing methods work on CARD?" in gpukb("ask", "methods", "--help").output
    assert "{methods}" not in gpukb("ask", "--help").output


def test_an_unexpected_exception_is_exit_4_with_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("kb.questions.answer", lambda *a, **k: 1 / 0)
    text, data = both("ask", "mig", "L4", "--lang", "de")
    assert text.exit_code == 4
    (line,) = text.output.splitlines()
    assert line.startswith("Fehler: interner Fehler: ZeroDivisionError: division by zero – bitte melden; der Traceback "
                           f"steht in {tmp_path / 'cache' / 'tracebacks'}/")
    assert data["kind"] == "internal-error" and data["details"]["exception"] == "ZeroDivisionError"
    assert Path(data["details"]["traceback"]).is_file()
    debug = gpukb("--debug", "ask", "mig", "L4")
    assert debug.exit_code == 4
    assert "Traceback (most recent call last)" in debug.output and "ZeroDivisionError" in debug.output
    assert gpukb("ask", "mig", "L4", env={"GPUKB_DEBUG": "1"}).output.count("Traceback (most recent call last)") == 1


def test_an_unwritable_traceback_folder_still_gives_one_line(monkeypatch, tmp_path):
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("GPUKB_CACHE_DIR", str(tmp_path / "file"))  # a file: no folder can be made below it
    monkeypatch.setattr("kb.questions.answer", lambda *a, **k: 1 / 0)
    result = gpukb("ask", "mig", "L4")
    assert (result.exit_code, result.output) == (
        4, "Error: internal error: ZeroDivisionError: division by zero — gpukb --debug … prints the traceback\n")


def test_ctrl_c_is_130(monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr("kb.questions.answer", interrupted)
    result = gpukb("ask", "mig", "L4")
    assert (result.exit_code, result.output) == (130, "\nAborted!\n")


def test_findings_are_not_errors_and_commands_return_their_code(small_base):
    assert gpukb("ask", "mig", "alpha-100", "--json").exit_code == 0


def test_one_function_decides_the_exit_code():
    assert exit_code() == Exit.OK
    assert exit_code(findings=True) == 1
    assert exit_code(findings=True, unreachable=True) == 3
    assert exit_code(unusable=True, unreachable=True) == 2
    assert exit_code(internal=True, unusable=True) == 4
    assert [exit_code(outcome=o) for o in ("unusable", "unreachable", "internal")] == [2, 3, 4]
    with pytest.raises(ValueError):
        exit_code(outcome="fine")


# ------------------------------------------------------------------ language


@pytest.mark.parametrize("env,lang", [
    ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT"}, "de"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "C"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_CH.UTF-8"}, "de"),
    ({"LC_MESSAGES": "de_DE", "LC_ALL": "C.UTF-8"}, "en"),
    ({"LANG": "C", "LC_ALL": "de_DE.UTF-8"}, "de"),
    ({"LANG": ""}, "en"),
])
def test_the_default_language_follows_the_locale(env, lang):
    assert i18n.from_locale(env) == lang


def test_locale_and_lang_option_through_a_run(monkeypatch):
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert gpukb("ask", "mig", "L40G").output.startswith("Fehler: unbekannte Karte „L40G“")
    assert json.loads(gpukb("ask", "mig", "L4", "--json").stdout)["lang"] == "de"
    assert gpukb("ask", "mig", "L40G", "--lang", "en").output.startswith("Error: unknown card 'L40G'")
    assert gpukb("ask", "mig", "--help").output.startswith("Aufruf: ")
    monkeypatch.setenv("LC_ALL", "C")
    assert gpukb("ask", "mig", "L40G").output.startswith("Error: unknown card 'L40G'")


def test_click_messages_in_german():
    def out(*args):
        return gpukb(*args, "--lang", "de").output

    assert out("ask", "mig").splitlines()[-1] == "Fehler: Es fehlt das Argument „KARTE“."
    assert out("ask", "mig", "L4", "--driverr", "1").splitlines()[-1] == (
        "Fehler: Unbekannte Option „--driverr“. Meinten Sie „--driver“?")
    assert gpukb("ask", "mig", "L4", "--lang", "de", "--driver").output.splitlines()[-1] == (
        "Fehler: Die Option „--driver“ braucht einen Wert.")
    assert out("ask", "resource", "L4", "--mps", "x").splitlines()[-1] == (
        "Fehler: Ungültiger Wert für „--mps“: „x“ ist keine gültige Zahl.")
    assert out("ask", "mig", "L4", "H200").splitlines()[-1] == "Fehler: Unerwartetes zusätzliches Argument (H200)"
    assert out("ask").splitlines()[0] == "Aufruf: cli ask [OPTIONEN] BEFEHL [ARGUMENTE]..."
    assert "Hilfe zeigt „cli ask mig --help“." in out("ask", "mig")


def test_every_command_has_help_in_both_languages_with_an_example():
    def walk(cmd, path):
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(None):
                yield from walk(cmd.get_command(None, name), [*path, name])

    for path, cmd in walk(cli, []):
        assert isinstance(cmd, (i18n.Command, i18n.Group)), path
        en, sep, de = cmd.help.partition("\f")
        assert sep and "Example:" in en and "Beispiel:" in de, path
        english, german = gpukb(*path, "--help").output, gpukb(*path, "--help", "--lang", "de").output
        assert "Beispiel:" not in english and "Example" not in german, path
        assert "Options:" in english and "Optionen:" in german, path
        for param in cmd.params:
            if getattr(param, "help", None) and param.name not in ("help",):
                assert "\f" in param.help, (path, param.name)


def test_every_german_click_message_is_still_a_message_of_click():
    """A click upgrade that renames a message makes this fail (the German would silently disappear)."""
    source = "".join(Path(click.__file__).with_name(n).read_text(encoding="utf-8")
                     for n in ("core.py", "decorators.py", "exceptions.py", "formatting.py", "parser.py", "types.py"))
    for key in i18n.CLICK_DE:
        for message in key if isinstance(key, tuple) else [key]:
            assert json.dumps(message) in source or repr(message) in source or f'"{message}"' in source, message


def test_help_text_parts():
    assert i18n.part("English\fDeutsch", "de") == "Deutsch"
    assert i18n.part("English\fDeutsch", "en") == "English"
    assert i18n.part("English only", "de") == "English only"
