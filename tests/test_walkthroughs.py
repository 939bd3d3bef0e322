"""CONTRIBUTING's three walk-throughs, done for real on copies: add a card, add a question, add a check rule —
each touching exactly the files the walk-through lists, and nothing else needed for gpukb to use it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from unittest.mock import ANY

import yaml
from click.testing import CliRunner

from conftest import FIXTURES, REPO
from kb.cli.main import cli
from rulefixtures import OUTCOMES


#: runs gpukb commands (a JSON list of [argument list, extra environment], argv[1]) in ONE process, with the kb
#: package of $GPUKB_TRY_REPO where set (not the installed, editable one); prints [{code, stdout, stderr}, …]
RUN = ("import json, os, sys\n"
       "repo = os.environ.get('GPUKB_TRY_REPO')\n"
       "if repo:\n"
       "    sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith('__editable__')]\n"
       "    sys.path.insert(0, repo)\n"
       "from click.testing import CliRunner\n"
       "from kb.cli.main import cli\n"
       "out = []\n"
       "for args, env in json.loads(sys.argv[1]):\n"
       "    r = CliRunner().invoke(cli, args, env=env)\n"
       "    out.append({'code': r.exit_code, 'stdout': r.stdout, 'stderr': r.stderr})\n"
       "print(json.dumps(out))")


def gpukb_process(*commands: list, env: dict) -> list[SimpleNamespace]:
    """Several gpukb commands in one new process (for a kb package other than the one under test); a command
    may end with a dict: environment variables of its own (GPUKB_CATALOG …)."""
    runs = [[list(map(str, c[:-1])), c[-1]] if isinstance(c[-1], dict) else [list(map(str, c)), {}] for c in commands]
    proc = subprocess.run([sys.executable, "-c", RUN, json.dumps(runs)], env=env, cwd=REPO, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [SimpleNamespace(returncode=r["code"], stdout=r["stdout"], stderr=r["stderr"]) for r in json.loads(proc.stdout)]


def gpukb(*args, env: dict, monkeypatch) -> SimpleNamespace:
    """One gpukb command in this process, with the environment `env` (GPUKB_CATALOG, GPUKB_RULES …)."""
    for key in ("GPUKB_CATALOG", "GPUKB_RULES"):
        if key in env:
            monkeypatch.setenv(key, env[key])
        else:
            monkeypatch.delenv(key, raising=False)
    r = CliRunner().invoke(cli, [str(a) for a in args])
    return SimpleNamespace(returncode=r.exit_code, stdout=r.stdout, stderr=r.stderr)


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_add_a_card_touches_one_file(tmp_path, monkeypatch):
    """Walk-through 1: catalog/cards/<id>.yaml (citing sources catalog/sources.yaml already has)."""
    catalog = tmp_path / "catalog"
    shutil.copytree(REPO / "catalog", catalog)
    before = _files(catalog)
    card = yaml.safe_load((catalog / "cards" / "l4.yaml").read_text(encoding="utf-8"))
    card.update(id="l4-demo", name="NVIDIA L4 Demo Edition", short_name="L4 Demo", aliases=["NVIDIA-L4-Demo"])
    for key in ("product_names", "pci_device_ids", "systems"):
        card.pop(key, None)
    (catalog / "cards" / "l4-demo.yaml").write_text(yaml.safe_dump(card, sort_keys=False, allow_unicode=True),
                                                     encoding="utf-8")
    assert _files(catalog) - before == {"cards/l4-demo.yaml"}
    env = {"GPUKB_CATALOG": str(catalog)}  # the test's own (warm) cache
    lint = gpukb("lint", "--json", env=env, monkeypatch=monkeypatch)
    assert json.loads(lint.stdout)["problems"] == [], lint.stdout
    ask = gpukb("ask", "mig", "L4 Demo", "--json", env=env, monkeypatch=monkeypatch)
    assert json.loads(ask.stdout)["inputs"]["card"] == "l4-demo"
    cards = gpukb("cards", "--json", env=env, monkeypatch=monkeypatch)
    assert "l4-demo" in [c["id"] for c in json.loads(cards.stdout)["cards"]]
    assert gpukb("card", "NVIDIA-L4-Demo", env=env, monkeypatch=monkeypatch).stdout.startswith("NVIDIA L4 Demo Edition")


#: a whole question: the module, one rule, its two fixtures
QUESTION_MODULE = '''\
"""`ask memory CARD`: does the card have at least 48 GB of memory (a walk-through's demo question)."""

from kb.questions import base
from kb.text import Text

DATA = ("cards", "sources")
USES = ()
TITLE = Text("Memory", "Speicher")
HELP = Text("Does CARD have at least 48 GB?\\n\\n\\b\\nExample:\\n  gpukb ask memory L4",
            "Hat CARD mindestens 48 GB?\\n\\n\\b\\nBeispiel:\\n  gpukb ask memory L4 --lang de")
PARAMS = (base.CARD,)


def resolve(index, card):
    return {"card": base.card_id(index, card)}


def defaults(index):
    return [{"card": c} for c in index["cards"]]


def facts(asker, inputs):
    card = asker.data["cards"][inputs["card"]]
    fact = {"kind": "card", "card": card["id"], "name": card["short_name"]}
    if "memory_gb" in card:  # unknown stays unknown: no property, no rule fires
        fact["memory_gb"] = card["memory_gb"]["value"]
    return [fact]


def fold(asker, inputs, conclusions):
    verdict = base.fold_verdict(conclusions)
    return base.build("memory", inputs, conclusions, verdict=verdict, summary=Text(verdict, verdict), details={},
                      data=asker.data)
'''
QUESTION_RULE = """\
id: MEM-001
question: memory
title: {en: The card has 48 GB or more, de: Die Karte hat 48 GB oder mehr}
when:
  c: {$and: [{kind: card}, {$gte: {memory_gb: 48}}]}
then:
  verdict: "yes"
  text: {en: "{name} has {memory_gb} GB.", de: "Die {name} hat {memory_gb} GB."}
cites:
  - cards/{card}#memory_gb
"""


def test_add_a_question_touches_four_files(tmp_path):
    """Walk-through 2: kb/questions/<question>.py, rules/<question>/<ID>-<slug>.yaml and the rule's fixtures
    tests/rules/<question>/<ID>/fires.yaml and quiet.yaml. The CLI, the question list, the export and the
    answer's text need nothing else."""
    repo = tmp_path / "repo"
    for part in ("kb", "rules", "tests/rules"):
        shutil.copytree(REPO / part, repo / part)  # with the byte code: the processes below need not compile kb
    shutil.copy(REPO / "tests" / "rulefixtures.py", repo / "tests")
    before = _files(repo)
    (repo / "kb" / "questions" / "memory.py").write_text(QUESTION_MODULE, encoding="utf-8")
    (repo / "rules" / "memory").mkdir()
    (repo / "rules" / "memory" / "MEM-001-48gb.yaml").write_text(QUESTION_RULE, encoding="utf-8")
    fixtures = repo / "tests" / "rules" / "memory" / "MEM-001"
    fixtures.mkdir(parents=True)
    for outcome, gb in zip(OUTCOMES, (141, 24)):
        (fixtures / f"{outcome}.yaml").write_text(textwrap.dedent(f"""\
            rule: MEM-001
            facts:
            - {{kind: card, card: demo, name: Demo, memory_gb: {gb}}}
            """), encoding="utf-8")
    assert _files(repo) - before == {"kb/questions/memory.py", "rules/memory/MEM-001-48gb.yaml",
                                     "tests/rules/memory/MEM-001/fires.yaml", "tests/rules/memory/MEM-001/quiet.yaml"}
    env = dict(os.environ, GPUKB_TRY_REPO=str(repo), GPUKB_RULES=str(repo / "rules"),
               GPUKB_CATALOG=str(REPO / "catalog"))
    # the export of the real catalog is 110 MB of JSON (8 s): the question's place in it is shown on the fixture
    # catalog's (its cards: H200 NVL and L4 among them)
    small = {"GPUKB_CATALOG": str(FIXTURES / "catalog")}
    helps, answer, l4, lint, export = gpukb_process(
        ["ask", "--help"], ["ask", "memory", "H200 NVL", "--lang", "de"], ["ask", "memory", "L4", "--json"],
        ["lint", "--json"], ["export", "answers", "--json", small], env=env)
    assert "memory" in helps.stdout
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.startswith("Speicher (Karte H200 NVL): ja") and "Die H200 NVL hat 141 GB." in answer.stdout
    assert json.loads(l4.stdout)["verdict"] == "unconfirmed"
    assert [p for p in json.loads(lint.stdout)["problems"]] == [], lint.stdout
    export = json.loads(export.stdout)
    memory = {a["inputs"]["card"]: a["verdict"] for a in export["answers"] if a["question"] == "memory"}
    assert memory == {p.stem: ANY for p in (FIXTURES / "catalog" / "cards").glob("*.yaml")}
    assert memory["h200-nvl"] == "yes" and memory["l4"] == "unconfirmed"
    code = ("import sys, yaml; from pathlib import Path; sys.path.insert(0, sys.argv[1])\n"
            "sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith('__editable__')]\n"
            "sys.path.insert(0, str(Path(sys.argv[1]).parent))\n"
            "import rulefixtures; from kb import engine; from kb.engine.rules import compile_rules\n"
            "rules = compile_rules(Path(sys.argv[2]))[0]\n"
            "assert rulefixtures.missing('memory', [r['id'] for r in rules['memory']]) == []\n"
            "for f in rulefixtures.fixtures('memory'):\n"
            "    facts = yaml.safe_load(f.path.read_text())['facts']\n"
            "    fired = {r for r, _ in engine.fire('memory', [facts], engine='reference', rules=rules)[0]}\n"
            "    assert (f.rule in fired) == f.fires, f\n"
            "print('ok')")
    check = subprocess.run([sys.executable, "-c", code, str(repo / "tests"), str(repo / "rules")], env=env,
                           capture_output=True, text=True)
    assert check.stdout.strip() == "ok", check.stderr


CHECK_RULE = """\
id: CHK-900
question: check
title: {en: A demo check, de: Eine Demo-Prüfung}
when:
  n: {$and: [{kind: node}, {name: demo-node}]}
then:
  severity: info
  text: {en: "Node {name} is the demo node.", de: "Node {name} ist der Demo-Node."}
cites:
  - methods/whole#isolation.memory
"""
NODE = """\
apiVersion: v1
kind: Node
metadata:
  name: {name}
  labels:
    nvidia.com/gpu.product: NVIDIA-L4
"""


def test_add_a_check_rule_touches_three_files(tmp_path, monkeypatch):
    """Walk-through 3: rules/check/<ID>-<slug>.yaml and its fixtures tests/rules/check/<ID>/fires.yaml and
    quiet.yaml (a fourth, kb/check/facts/*.py, only where the rule needs a fact property no builder states)."""
    repo = tmp_path / "repo"
    for part in ("rules", "tests/rules"):
        shutil.copytree(REPO / part, repo / part)
    before = _files(repo)
    (repo / "rules" / "check" / "CHK-900-demo.yaml").write_text(CHECK_RULE, encoding="utf-8")
    fixtures = repo / "tests" / "rules" / "check" / "CHK-900"
    fixtures.mkdir()
    (fixtures / "fires.yaml").write_text(NODE.format(name="demo-node"), encoding="utf-8")
    (fixtures / "quiet.yaml").write_text(NODE.format(name="other-node"), encoding="utf-8")
    assert _files(repo) - before == {"rules/check/CHK-900-demo.yaml", "tests/rules/check/CHK-900/fires.yaml",
                                     "tests/rules/check/CHK-900/quiet.yaml"}
    env = {"GPUKB_RULES": str(repo / "rules")}
    for outcome in OUTCOMES:
        result = gpukb("check", fixtures / f"{outcome}.yaml", "--json", env=env, monkeypatch=monkeypatch)
        fired = [f["rule"] for f in json.loads(result.stdout)["findings"]]
        assert ("CHK-900" in fired) == (outcome == "fires"), (outcome, result.stdout[-2000:])
    lint = gpukb("lint", "--json", env=env, monkeypatch=monkeypatch)
    assert json.loads(lint.stdout)["problems"] == [], lint.stdout
