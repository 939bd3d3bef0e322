"""What `gpukb check` is given, read within bounds: non-regular files, the size cap, Helm templates, alias
bombs, big JSON, terminal escapes — each input read or refused on its own, never a traceback."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
from click.testing import CliRunner

from kb.check import inputs, yamlread
from kb.check.documents import parse_text
from kb.check.inputs import read_all
from kb.check.load import load
from kb.cli.main import cli

NODE = "apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n    nvidia.com/gpu.product: NVIDIA-L4\n"


def run(*args, stdin=None):
    result = CliRunner().invoke(cli, ["check", *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    good = tmp_path / "node.yaml"
    good.write_text(NODE.format(name="n1"), encoding="utf-8")
    done = []
    worker = threading.Thread(target=lambda: done.append(run(str(fifo), str(good), "--json")), daemon=True)
    worker.start()
    worker.join(20)
    assert done, "gpukb check blocked on a FIFO"
    out = json.loads(done[0].output)
    assert done[0].exit_code == 0
    assert out["summary"]["not_read"] == [{
        "file": str(fifo), "line": None, "path": "", "kind": "refused",
        "message": "not read: a pipe (FIFO), not a regular file (pipe it in with '-' instead)"}]
    assert out["summary"]["checked"] == {"Node": 1}


def test_dev_zero_is_refused_quickly_and_alone_it_exits_2():
    start = time.monotonic()
    result = run("/dev/zero")
    assert time.monotonic() - start < 10
    assert result.exit_code == 2
    assert result.output == ("Error: cannot read the input, nothing was checked:\n"
                             "  /dev/zero: not read: a character device, not a regular file (pipe it in with '-' instead)\n")


def test_a_file_over_the_cap_is_refused_the_others_are_checked(tmp_path, monkeypatch):
    monkeypatch.setattr(inputs, "MAX_BYTES", 2 * 1024 * 1024)
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (3 * 1024 * 1024) + "\n", encoding="utf-8")
    good = tmp_path / "node.yaml"
    good.write_text(NODE.format(name="n1"), encoding="utf-8")
    out = json.loads(run(str(big), str(good), "--json", "--lang", "de").output)
    assert out["summary"]["not_read"][0]["message"] == (
        "nicht gelesen: 3 MiB, mehr als die 2 MiB, die gpukb check je Datei liest")


def test_stdin_over_the_cap_is_refused_with_exit_2(monkeypatch):
    monkeypatch.setattr(inputs, "MAX_BYTES", 1024)
    result = run("-", stdin="#" * 5000)
    assert result.exit_code == 2
    assert result.output == ("Error: cannot read the input, nothing was checked:\n"
                             "  <stdin>: not read: more than 1 KiB, the most gpukb check reads per input\n")


def test_the_documented_cap_is_512_mib():
    assert inputs.MAX_BYTES == 512 * 1024 * 1024
    assert "512 MiB" in run("--help").output


def test_a_helm_template_is_refused_with_its_line_and_the_fix(tmp_path):
    # the head of NVIDIA/gpu-operator deployments/gpu-operator/templates/clusterpolicy.yaml (a22dbf67)
    tpl = tmp_path / "clusterpolicy.yaml"
    tpl.write_text("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cluster-policy\n"
                   "  labels:\n    {{- include \"gpu-operator.labels\" . | nindent 4 }}\n"
                   "spec:\n  hostPaths:\n    rootFS: {{ .Values.hostPaths.rootFS }}\n", encoding="utf-8")
    good = tmp_path / "node.yaml"
    good.write_text(NODE.format(name="n1"), encoding="utf-8")
    result = run(str(tmp_path))
    assert result.exit_code == 0
    assert (f"Not read\n  {tpl}:6: not read: a Helm template — render it with `helm template` first and check "
            "the output\n") in result.output


def test_a_helm_template_reformatted_by_a_yaml_formatter_is_refused_too():
    """`{ { .Chart.Name } }` (a formatter's spaces between the braces, as found in public charts) is valid YAML —
    nested flow mappings — and was read as a Deployment named by a mapping."""
    text = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: { { .Chart.Name } }\nspec:\n  replicas: 1\n"
    loaded = load(read_all(["-"], stdin=__import__("io").BytesIO(text.encode())))
    assert loaded.docs == [] and [(p.line, p.kind) for p in loaded.problems] == [(4, "refused")]


def test_curly_braces_inside_a_value_are_not_a_helm_template():
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alerts\ndata:\n  t: '{{ .Labels.alertname }}'\n"
    loaded = load(read_all(["-"], stdin=__import__("io").BytesIO(text.encode())))
    assert loaded.problems == [] and len(loaded.docs) == 1


def test_a_billion_laughs_fails_fast_and_names_the_reason():
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        levels.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    start = time.monotonic()
    docs, problems = parse_text("\n".join(levels) + "\n", "lol.yaml")
    assert time.monotonic() - start < 5
    assert docs == []
    assert problems[0].message == "not read: aliases add more than 1,000,000 values (a YAML alias bomb?)"


def test_a_recursive_alias_is_refused():
    docs, problems = parse_text("a: &a\n  b: *a\n", "rec.yaml")
    assert docs == [] and "recursive" in problems[0].message


def test_honest_anchors_are_read_and_merge_keys_keep_explicit_values():
    text = ("base: &base\n  strategy: single\n  enabled: true\n"
            "spec:\n  <<: *base\n  strategy: mixed\n")
    (doc,), problems = parse_text(text, "anchors.yaml")
    assert problems == []
    assert doc.data["spec"] == {"strategy": "mixed", "enabled": True}
    assert doc.line(("spec", "strategy")) == 6 and doc.line(("spec", "enabled")) == 3


def test_a_big_honest_file_with_many_aliases_is_read():
    """30,000 uses of one small anchor: far below the alias budget, far above the old value cap of 200,000."""
    text = "tpl: &t {k8s.io/a: '1', k8s.io/b: '2'}\nitems:\n" + "".join(f"- {{n: {i}, l: *t}}\n" for i in range(30000))
    (doc,), problems = parse_text(text, "many.yaml")
    assert problems == [] and len(doc.data["items"]) == 30000
    assert yamlread.MAX_ALIAS_VALUES >= 1_000_000


def test_json_lines_are_found_when_shown():
    text = json.dumps({"kind": "List", "items": [{"metadata": {"name": f"n{i}", "labels": {"a": "b"}}}
                                                 for i in range(500)]}, indent=2)
    (doc,), _ = parse_text(text, "x.json")
    item = doc.sub(("items", 321))
    line = item.where(("metadata", "labels", "a"))["line"]
    assert text.splitlines()[line - 1].strip() == '"a": "b"'
    assert text.splitlines()[item.where(("metadata", "name"))["line"] - 1].strip() == '"name": "n321",'


def test_a_duplicate_key_in_json_is_named():
    docs, problems = parse_text('{\n  "kind": "Node",\n  "kind": "Pod"\n}\n', "d.json")
    assert docs == [] and (problems[0].line, problems[0].message.split(":")[0]) == (3, "duplicate key 'kind'")


def test_escape_sequences_from_the_input_are_shown_not_obeyed(tmp_path):
    """A ConfigMap name that would clear the screen (ESC [2J), set the title (OSC) and reorder text (RLO)."""
    name = "ts\x1b[2J\x1b[H\x1b]0;pwned\x07\u202egnp.\x9b31m"
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + json.dumps(name) + "\ndata:\n"
            "  any: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n"
            "        - name: nvidia.com/gpu\n          replicas: 1\n")
    path = tmp_path / ("cm\x1b[31m.yaml")
    path.write_text(text, encoding="utf-8")
    out = run(str(path)).output
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert "ts\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\u202egnp.\\u009b31m" in out
    assert "cm\\x1b[31m.yaml" in out
    as_json = run(str(path), "--json").output
    assert not any(c in as_json for c in "\x1b\x07\x9b\u202e")
    assert json.loads(as_json)["findings"][0]["message"].startswith("ts\x1b[2J")  # the JSON keeps the value


@pytest.mark.parametrize("data", [b"\xff\xfe\x00k", b"kind: Node\n\x00", b"\xc3\x28 broken utf-8"])
def test_bytes_that_are_not_text_exit_2_with_a_reason(data):
    result = CliRunner().invoke(cli, ["check", "-"], input=data)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith("Error: cannot read the input, nothing was checked:\n  <stdin>")
