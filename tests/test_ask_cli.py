"""`gpukb ask …` and `gpukb export answers`: exact text, parsed JSON, bad input; every answer from the engine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kb.cli.main import cli

from conftest import FIXTURES, REPO

CATALOG = FIXTURES / "catalog"


def _use_fixture_catalog(monkeypatch):
    monkeypatch.setenv("GPUKB_CATALOG", str(CATALOG))
    monkeypatch.setenv("GPUKB_RULES", str(REPO / "rules"))


@pytest.fixture(autouse=True)
def fixture_catalog(monkeypatch):
    _use_fixture_catalog(monkeypatch)


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


H200_TEXT = """\
MIG (card H200 NVL, GPU Operator 26.7.0): yes
Yes: H200 NVL can run MIG with GPU Operator 26.7.0.

Why:
  - NVIDIA's MIG user guide lists H200 NVL among the MIG-capable GPUs. [1][2]
Details:
  MIG status: on NVIDIA's MIG list
  max instances: 7
  smallest profile: 1g.18gb
  profiles: 1g.18gb, 2g.35gb, 7g.141gb
  prerequisites:
    prerequisites published: yes
  on the operator's support list: yes
Sources:
  [1] NVIDIA MIG User Guide, Supported GPUs: “H200 NVL MIG status” https://docs.nvidia.com/datacenter/tesla/mig-user-guide/
  [2] NVIDIA MIG User Guide: “H200 NVL up to 7 instances” https://docs.nvidia.com/datacenter/tesla/mig-user-guide/
Data version: 2026.11.1-fixture
"""

SERVER_DE = """\
MIG (Karte RTX PRO 6000 Server Edition, GPU Operator 26.7.0, Treiber 575.57.08): nein
Nein: Die RTX PRO 6000 Server Edition kann MIG mit dem GPU Operator 26.7.0 und Treiber 575.57.08 nicht nutzen.

Warum:
  - NVIDIAs Supportliste zur RTX PRO 6000 Server Edition: MIG wird auf 575.57.08 nicht unterstützt [1]
  - NVIDIAs MIG-Benutzerhandbuch führt die RTX PRO 6000 Server Edition unter den MIG-fähigen GPUs. [2][3]
  - Treiber 575.57.08 erfüllt 575.57.08, das Minimum, das die Supportliste des GPU Operators für die RTX PRO 6000 Server Edition verlangt. [4]
Details:
  MIG-Status: auf NVIDIAs MIG-Liste
  Max. Instanzen: 4
  Kleinstes Profil: 1g.24gb
  Profile: 1g.24gb, 1g.24gb+gfx, 2g.48gb, 4g.96gb
  Voraussetzungen:
    Mindesttreiber: 575.51.03
    Umschaltung des Anzeigemodus: nein
    Voraussetzungen veröffentlicht: ja
  Auf der Supportliste des Operators: ja
  Mindesttreiber laut Operator: 575.57.08
Quellen:
  [1] GPU Operator Platform Support: „MIG is not supported on the 575.57.08 driver release.“ https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/platform-support.html
  [2] NVIDIA MIG User Guide, Supported GPUs: „RTX PRO 6000 Server Edition MIG status“ https://docs.nvidia.com/datacenter/tesla/mig-user-guide/
  [3] NVIDIA MIG User Guide: „RTX PRO 6000 Server Edition up to 4 instances“ https://docs.nvidia.com/datacenter/tesla/mig-user-guide/
  [4] GPU Operator Platform Support: „Driver versions 575.57.08 or later is required.“ https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/platform-support.html
Datenversion: 2026.11.1-fixture
"""


def test_text_answer_in_english():
    result = run("ask", "mig", "H200 NVL")
    assert result.exit_code == 0 and result.output == H200_TEXT


def test_text_answer_in_german_with_a_driver():
    result = run("ask", "mig", "rtx pro 6000 server", "--driver", "v575.57.08", "--lang", "de")
    assert result.exit_code == 0 and result.output == SERVER_DE


def test_explain_adds_the_rules_and_the_facts_they_read():
    result = run("ask", "mig", "RTX PRO 6000 Workstation", "--explain")
    assert result.exit_code == 0
    explain = result.output.split("Rules that apply:\n")[1].split("Sources:")[0].splitlines()
    assert [line.split()[0] for line in explain if not line.startswith("    ")] == ["MIG-006", "MIG-007", "MIG-001"]
    assert "  MIG-006 MIG needs a manual display-mode switch → conditional" in explain
    assert "    read: card(card=rtx-pro-6000-blackwell-workstation, name=RTX PRO 6000 Workstation, operator=26.7.0, " \
           "mig_status=documented" in result.output


def test_json_answer_contract():
    result = run("ask", "mig", "RTX PRO 6000 Workstation", "--operator", "v26.7", "--json")
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert list(answer) == ["question", "inputs", "verdict", "summary", "conditions", "reasons", "disputes", "details",
                            "data_version", "lang"]
    assert answer["inputs"] == {"card": "rtx-pro-6000-blackwell-workstation", "operator": "26.7.0", "driver": None}
    assert answer["verdict"] == "conditional" and answer["lang"] == "en"
    assert answer["summary"] == ("Conditional: RTX PRO 6000 Workstation can run MIG with GPU Operator 26.7.0 "
                                 "only if the conditions below hold.")
    assert [c["rule"] for c in answer["conditions"]] == ["MIG-006", "MIG-007"]
    assert [r["rule"] for r in answer["reasons"]] == ["MIG-006", "MIG-007", "MIG-001"]
    assert answer["reasons"][0]["citations"] == [{
        "source": "mig-guide", "title": "NVIDIA MIG User Guide", "url": "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/",
        "section": None, "quote": "DisplayModeSelector"}]
    assert answer["details"]["max_instances"] == 4 and answer["data_version"] == "2026.11.1-fixture"


@pytest.mark.parametrize("args", [
    ("mig", "RTX PRO 6000 Server Edition", "--driver", "v580.82.07"),
    ("methods", "h200 nvl", "--operator", "v26.3"),
    ("resource", "H200 NVL", "--profile", "2g.35gb", "--mig-strategy", "mixed"),
    ("resource", "RTX PRO 4500", "--mps", "3"),
    ("strategy", "--gpu", "H200 NVL:1g.18gb,2g.35gb", "--gpu", "L4"),
    ("dra", "--k8s", "v1.34.2", "--feature", "mps"),
    ("recommend", "--workload", "small-inference", "--card", "RTX PRO 4500"),
])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_question_keeps_the_answer_contract(args, lang):
    result = run("ask", *args, "--json", "--lang", lang)
    assert result.exit_code == 0
    a = json.loads(result.output)
    assert list(a) == ["question", "inputs", "verdict", "summary", "conditions", "reasons", "disputes", "details",
                       "data_version", "lang"]
    for d in a["disputes"]:
        assert set(d) == {"fact", "values"} and len(d["values"]) >= 2 and d["values"][0]["followed"] is True
        assert all({"value", "followed", "citations"} <= set(v) and v["citations"] for v in d["values"])
        assert all(isinstance(v["note"], str) for v in d["values"][1:])
    assert a["question"] == args[0] and a["lang"] == lang and a["data_version"] == "2026.11.1-fixture"
    assert a["verdict"] in ("yes", "conditional", "unconfirmed", "no")
    assert isinstance(a["summary"], str) and a["summary"]
    assert all(set(c) == {"rule", "text"} and isinstance(c["text"], str) for c in a["conditions"])
    assert a["reasons"] and all({"rule", "text", "citations"} <= set(r) and isinstance(r["text"], str) for r in a["reasons"])
    assert all({"source", "url", "quote"} <= set(c) for r in a["reasons"] for c in r["citations"])
    versions = {k: v for k, v in a["inputs"].items() if k in ("operator", "driver", "k8s")}
    assert all(v is None or not v.startswith("v") for v in versions.values())
    if "card" in a["inputs"] and a["inputs"]["card"] is not None:
        assert a["inputs"]["card"] in ("rtx-pro-6000-blackwell-server", "h200-nvl", "rtx-pro-4500-blackwell")


def test_json_in_german_and_the_other_questions():
    methods = json.loads(run("ask", "methods", "H200 NVL", "--mig-enabled", "--json", "--lang", "de").output)
    assert methods["details"]["methods"] == {"whole": "yes", "mig": "yes", "time-slicing": "yes", "mps": "no",
                                             "vm-passthrough": "conditional", "vgpu": "conditional", "dra": "conditional"}
    assert methods["summary"] == "Die H200 NVL lässt sich teilen; das Urteil je Methode steht unten."
    resource = json.loads(run("ask", "resource", "H200 NVL", "--profile", "1g.18gb", "--mig-strategy", "mixed", "--json").output)
    assert resource["details"]["resource"] == "nvidia.com/mig-1g.18gb" and resource["verdict"] == "yes"
    shared = json.loads(run("ask", "resource", "L4", "--time-slicing", "4", "--rename-by-default", "--json").output)
    assert shared["details"]["resource"] == "nvidia.com/gpu.shared"
    strategy = json.loads(run("ask", "strategy", "--gpu", "H200 NVL:all-1g.18gb", "--gpu", "H200 NVL", "--json").output)
    assert strategy["details"] == {"strategy": "mixed"} and strategy["reasons"][0]["rule"] == "STR-001"
    dra = json.loads(run("ask", "dra", "--operator", "26.7.0", "--k8s", "v1.34.1", "--json").output)
    assert dra["verdict"] == "no" and dra["inputs"]["k8s"] == "1.34.1"
    rec = json.loads(run("ask", "recommend", "--workload", "multi-tenant", "--isolation", "required", "--json").output)
    # DRA isolates as its allocated device does (issue 10): kept, with the condition to allocate whole GPUs or MIG devices
    assert [r["method"] for r in rec["details"]["ranking"]] == ["mig", "whole", "vm-passthrough", "dra"]
    assert rec["details"]["excluded"] == ["vgpu"]
    assert any(c["rule"] == "REC-007" for c in rec["conditions"])


def test_vgpu_follows_the_kubevirt_vgpu_list_of_the_fixture_cards():
    """Listed: conditional with its three conditions; not listed: unconfirmed; not recorded: unconfirmed, never no."""
    listed = json.loads(run("ask", "methods", "H200 NVL", "--json").output)
    assert listed["details"]["methods"]["vgpu"] == "conditional"
    assert {"METHODS-040", "METHODS-041", "METHODS-042"} <= {c["rule"] for c in listed["conditions"]}
    for card, rule in (("RTX PRO 6000 Workstation", "METHODS-043"), ("L4", "METHODS-044")):
        a = json.loads(run("ask", "methods", card, "--json").output)
        assert a["details"]["methods"]["vgpu"] == "unconfirmed"
        assert [r["rule"] for r in a["reasons"] if r["rule"].startswith("METHODS-04")] == [rule]


def test_vgpu_on_the_real_catalog(monkeypatch):
    """The operator's KubeVirt vGPU device list names the RTX PRO 6000 Server Edition, H200 NVL and (AD10x) L4; the
    L40S follows the operator's code (vGPU configurations since v24.6.0, gpu-operator#719), the list kept as disputed."""
    if not any((REPO / "catalog" / "cards").glob("*.yaml")):
        pytest.skip("catalog/cards is empty: the real catalog is not written yet")
    monkeypatch.setenv("GPUKB_CATALOG", str(REPO / "catalog"))
    got = {card: json.loads(run("ask", "methods", card, "--json").output)["details"]["methods"]["vgpu"]
           for card in ("H200 NVL", "RTX PRO 6000 Server Edition", "L4", "L40S", "RTX PRO 6000 Workstation",
                        "RTX PRO 6000 Max-Q", "RTX PRO 5000", "RTX PRO 4500 Server Edition", "RTX PRO 2000")}
    assert got == {"H200 NVL": "conditional", "RTX PRO 6000 Server Edition": "conditional", "L4": "conditional",
                   "L40S": "conditional", "RTX PRO 6000 Workstation": "unconfirmed", "RTX PRO 6000 Max-Q": "unconfirmed",
                   "RTX PRO 5000": "unconfirmed", "RTX PRO 4500 Server Edition": "unconfirmed",
                   "RTX PRO 2000": "unconfirmed"}


@pytest.mark.parametrize("args, message", [
    (("ask", "mig", "RTX PRO 9000"), "Error: unknown card 'RTX PRO 9000' — did you mean: "),
    (("ask", "mig", "H200 NVL", "--operator", "24.9.0"),
     "Error: GPU Operator 24.9.0 is older than every release we know; the oldest is 25.10.0\n"),
    (("ask", "mig", "H200 NVL", "--operator", "26.1.0"),
     "Error: GPU Operator 26.1.0 is not a release we know; known releases: 26.7.0, 26.3.0, 25.10.0"),
    (("ask", "mig", "H200 NVL", "--driver", "latest"), "Error: 'latest' is not a driver version"),
    (("ask", "resource", "H200 NVL", "--profile", "3g.71gb"), "Error: unknown MIG profile '3g.71gb' for H200 NVL; known: 1g.18gb, 2g.35gb, 7g.141gb"),
    (("ask", "resource", "L4", "--profile", "1g.6gb"), "Error: L4 has no MIG profiles"),
    (("ask", "resource", "L4"), "Error: say what the pod gets: --profile P (MIG), --time-slicing N or --mps N"),
    (("ask", "resource", "L4", "--time-slicing", "2", "--mps", "2"), "Error: choose one of --time-slicing and --mps"),
    # k8s-device-plugin api/config/v1/replicas.go (line 252 at tag v0.20.0, line 210 at v0.12.0):
    #   if s.Replicas < 2 { return fmt.Errorf("number of replicas must be >= 2") }
    (("ask", "resource", "L4", "--time-slicing", "0"), "Error: replicas must be at least 2, not 0: the device plugin refuses"),
    (("ask", "resource", "L4", "--time-slicing", "1"), 'refuses a shared resource with fewer ("number of replicas must be >= 2")'),
    (("ask", "resource", "L4", "--mps", "1"), 'refuses a shared resource with fewer ("number of replicas must be >= 2")'),
    (("ask", "resource", "H200 NVL", "--mig-strategy", "mixed", "--time-slicing", "2"), "Error: --mig-strategy needs --profile"),
    (("ask", "strategy"), "Error: name the node's GPUs"),
    (("ask", "strategy", "--gpu", "L4:all-1g.6gb"), "Error: unknown MIG profile '1g.6gb' for L4"),
    (("ask", "dra", "--k8s", "one.thirty"), "Error: 'one.thirty' is not a Kubernetes version (expected digits and dots, e.g. 1.34.2)"),
    (("ask", "resource", "L4", "--time-slicing", str(2**63)), "Error: replicas must be a whole number below 2^63"),
    (("ask", "recommend", "--workload", "dev", "--card", ""), "Error: the card name is empty"),
    (("ask", "strategy", "--gpu", "H200 NVL:all-"), "Error: incomplete MIG layout in 'H200 NVL:all-'; profiles of H200 NVL: 1g.18gb"),
    (("ask", "strategy", "--gpu", "H200 NVL:"), "Error: incomplete MIG layout in 'H200 NVL:'"),
    (("ask", "strategy", "--gpu", "H200 NVL:1g.18gb,,2g.35gb"), "Error: incomplete MIG layout"),
    (("ask", "strategy", "--gpu", "H200 NVL:7g.141gb,7g.141gb"),
     "Error: 'H200 NVL:7g.141gb,7g.141gb' does not fit on one H200 NVL: 2 × 7g.141gb, but the card holds at most 1"),
    (("ask", "strategy", "--gpu", "H200 NVL:2g.35gb,2g.35gb,2g.35gb,1g.18gb,1g.18gb"),
     "Error: 'H200 NVL:2g.35gb,2g.35gb,2g.35gb,1g.18gb,1g.18gb' does not fit on one H200 NVL: its profiles need 8 compute slices, the card has 7"),
    (("ask", "mig", "x" * 5000), "Error: unknown card 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (list all: gpukb cards)"),
    (("ask", "dra"), "Error: say which Kubernetes version the cluster runs"),
    (("ask", "methods", "L4", "--mig-enabled"),
     "Error: --mig-enabled does not fit L4: it is not on NVIDIA's list of MIG-capable GPUs (see gpukb ask mig l4)"),
    (("ask", "dra", "--k8s", "v1.34"), "Error: Kubernetes 1.34 without a patch release cannot be answered: NVIDIA's DRA "
                                      "driver needs 1.34.2 or newer; say which 1.34.x the cluster runs"),
])
def test_unusable_input_exits_2_with_a_suggestion(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_profiles_are_matched_whatever_the_case():
    resource = json.loads(run("ask", "resource", "H200 NVL", "--profile", "1G.18GB", "--json").output)
    assert resource["inputs"]["profile"] == "1g.18gb" and resource["details"]["resource"] == "nvidia.com/gpu"
    strategy = json.loads(run("ask", "strategy", "--gpu", "H200 NVL:ALL-1G.18GB", "--json").output)
    assert strategy["inputs"]["gpus"] == [{"card": "h200-nvl", "profiles": ["1g.18gb"]}]


def test_unusable_input_with_json_is_json_with_the_suggestions():
    result = run("ask", "mig", "L40", "--json", "--lang", "de")
    assert result.exit_code == 2
    assert json.loads(result.output) == {
        "error": "unbekannte Karte „L40“ – meinten Sie: L4 (alle anzeigen: gpukb cards)",
        "kind": "unusable-input", "exit_code": 2, "lang": "de",
        "details": {"suggestions": ["l4"], "command": "ask mig"}}


def test_unusable_input_in_german():
    result = run("ask", "mig", "RTX PRO 9000", "--lang", "de")
    assert result.exit_code == 2 and "Fehler: unbekannte Karte „RTX PRO 9000“ – meinten Sie: " in result.output


def test_an_ambiguous_name_lists_the_cards():
    result = run("ask", "mig", "RTX PRO 6000")
    assert result.exit_code == 2 and "fits several cards" in result.output \
        and "RTX PRO 6000 Server Edition: conditional" in result.output and "rtx-pro-6000-blackwell-server" not in result.output


def test_a_broken_rule_file_exits_2_naming_file_and_line(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules, ignore=shutil.ignore_patterns("check"))
    path = rules / "mig" / "MIG-001-documented.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('verdict: "yes"', "verdict: perhaps"), encoding="utf-8")
    monkeypatch.setenv("GPUKB_RULES", str(rules))
    result = run("ask", "mig", "H200 NVL")
    assert result.exit_code == 2
    assert "rules/mig/MIG-001-documented.yaml:10: then.verdict: verdict 'perhaps' is not one of" in result.output


def test_export_answers(tmp_path):
    result = run("export", "answers", "--json")
    assert result.exit_code == 0
    export = json.loads(result.output)
    assert list(export) == ["data_version", "verified", "hash", "answers"]
    from realmatrix import matrix

    assert export["answers"] == json.loads(json.dumps(matrix()))
    out = tmp_path / "answers.json"
    assert run("export", "answers", "--json", "-o", str(out)).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8")) == export


def test_export_to_a_place_that_cannot_be_written_exits_2(tmp_path):
    target = tmp_path / "missing" / "answers.json"
    result = run("export", "answers", "--json", "-o", str(target))
    assert (result.exit_code, json.loads(result.stdout)) == (2, {
        "error": f"cannot write {target}: No such file or directory", "kind": "unusable-input", "exit_code": 2,
        "lang": "en", "details": {"file": str(target), "command": "export answers"}})


def test_export_without_json_says_json_is_the_only_format():
    result = run("export", "answers", "--lang", "de")
    assert (result.exit_code, result.output) == (
        2, "Fehler: geben Sie --json an: JSON ist das einzige Format des Exports\n")


def test_a_changed_rule_is_answered_fresh_never_from_the_stale_cache(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules", rules, ignore=shutil.ignore_patterns("check"))
    monkeypatch.setenv("GPUKB_RULES", str(rules))
    from kb.questions import answer

    before = answer("mig", card="H200 NVL")
    path = rules / "mig" / "MIG-001-documented.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("among the MIG-capable GPUs", "as MIG-capable"), encoding="utf-8")
    after = answer("mig", card="H200 NVL")
    assert before["reasons"][0]["text"]["en"].endswith("among the MIG-capable GPUs.")
    assert after["reasons"][0]["text"]["en"] == "NVIDIA's MIG user guide lists H200 NVL as MIG-capable."


def test_both_engines_give_the_same_answer_outside_the_matrix():
    from kb.questions import answer, export_all

    live = answer("mig", card="RTX PRO 6000 Server Edition", driver="580.82.07")
    assert live["verdict"] == "yes" and live not in export_all()["answers"]
    assert answer("mig", card="RTX PRO 6000 Server Edition", engine="reference", driver="580.82.07") == live


def _modules_after(cache, *argvs) -> list[str]:
    """The modules of pydantic, PyYAML and durable-rules a fresh process has loaded after running each command line
    of `argvs` in turn, with the compiled-data cache in `cache`."""
    code = ("import sys; from kb.cli.main import cli\n"
            "for argv in %r:\n    try:\n        cli(argv)\n    except SystemExit:\n        pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'yaml', 'durable'}), file=sys.stderr)"
            % ([list(argv) for argv in argvs],))
    env = dict(os.environ, GPUKB_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO)
    return json.loads(proc.stderr.strip().splitlines()[-1].replace("'", '"'))


ONCE_COMPILED = [("ask", "mig", "H200 NVL", "--json"),
                 ("ask", "mig", "RTX PRO 6000 Server Edition", "--driver", "580.82.07"),
                 ("ask", "recommend", "--workload", "dev", "--card", "L4", "--json")]


@pytest.fixture(scope="module")
def compiled_cache(tmp_path_factory):
    """A cache into which one process compiled the catalog and the rule base, asking each question below once."""
    cache = tmp_path_factory.mktemp("compiled") / "cache"
    with pytest.MonkeyPatch.context() as monkeypatch:  # the catalog the tests use (set up after this fixture)
        _use_fixture_catalog(monkeypatch)
        assert "yaml" in _modules_after(cache, *ONCE_COMPILED)  # it did compile
    return cache


@pytest.mark.parametrize("argv", ONCE_COMPILED)
def test_an_answer_loads_durable_but_neither_pydantic_nor_yaml_once_compiled(compiled_cache, argv):
    assert _modules_after(compiled_cache, argv) == ["durable"]


def test_the_cache_holds_no_answers_and_stays_small(tmp_path):
    for argv in (("ask", "mig", "H200 NVL"), ("ask", "methods", "L4"), ("ask", "dra", "--k8s", "1.34.2"),
                 ("ask", "resource", "L4", "--mps", "2"), ("cards",)):
        _modules_after(tmp_path / "cache", argv)
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert not [p for p in files if "answer" in p.name]
    assert sum(p.stat().st_size for p in files) < 2_000_000

