"""The real questions of tests/realworld/questions.yaml, asked through the gpukb CLI in this process and judged
against the answers NVIDIA's maintainers or code give (see that file's header). Used by tests/test_realworld.py
and scripts/realworld (the scoreboard)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

HERE = Path(__file__).resolve().parent / "realworld"
CASES = HERE / "questions.yaml"
STATUSES = ("right", "gap", "wrong")
#: the issue trackers the questions come from
TRACKERS = ("https://github.com/NVIDIA/gpu-operator/", "https://github.com/NVIDIA/k8s-device-plugin/",
            "https://github.com/NVIDIA/mig-parted/", "https://github.com/NVIDIA/k8s-dra-driver-gpu/",
            "https://github.com/kubernetes-sigs/dra-driver-nvidia-gpu/")


def load() -> list[dict]:
    return yamlsafe.safe_load(CASES.read_text(encoding="utf-8"))


def run(case: dict) -> dict:
    """The CLI's JSON for the case's arguments (--lang en --json; check's file names are this folder's)."""
    from kb.cli.main import cli

    args = list(case["args"])
    if args[0] == "check":
        args = ["check", *[str(HERE / a) if (HERE / a).is_file() else a for a in args[1:]]]
    result = CliRunner().invoke(cli, ["--lang", "en", *args, "--json"])
    try:
        out = json.loads(result.output)
    except ValueError:
        out = {"error": result.output.strip()[:300], "kind": "not-json"}
    out["_exit"] = result.exit_code
    return out


def _subset(want, have) -> bool:
    if isinstance(want, dict):
        return isinstance(have, dict) and all(_subset(v, have.get(k)) for k, v in want.items())
    return want == have


def problems(case: dict, out: dict) -> list[str]:
    """What in the answer differs from the case's expectation ([] for a right answer)."""
    exp, bad = case["expect"], []
    if "exit" in exp and out["_exit"] != exp["exit"]:
        bad.append(f"exit {out['_exit']}, not {exp['exit']}")
    for s in exp.get("error", []):
        if s not in str(out.get("error", "")):
            bad.append(f"error lacks {s!r}")
    if "error" in out and "error" not in exp:
        return bad + [f"error: {out['error']}"]
    if case["args"][0] == "check":
        rules = {f["rule"] for f in out.get("findings", [])}
        text = " ".join(f["message"] + " " + (f.get("fix") or "") for f in out.get("findings", []))
        bad += [f"no {r} finding" for r in exp.get("findings", []) if r not in rules]
        bad += [f"unexpected {r} finding" for r in exp.get("no_findings", []) if r in rules]
    else:
        rules = {r["rule"] for r in out.get("reasons", [])}
        text = " ".join([out.get("summary", "")] + [r["text"] for r in out.get("reasons", [])]
                        + [c["text"] for c in out.get("conditions", [])])
        if "verdict" in exp and out.get("verdict") != exp["verdict"]:
            bad.append(f"verdict {out.get('verdict')}, not {exp['verdict']}")
        if "details" in exp and not _subset(exp["details"], out.get("details")):
            bad.append(f"details {out.get('details')} lack {exp['details']}")
        bad += [f"rule {r} did not fire" for r in exp.get("rules", []) if r not in rules]
        facts = {d["fact"] for d in out.get("disputes", [])}
        bad += [f"dispute {d} not shown" for d in exp.get("disputes", []) if d not in facts]
    bad += [f"text lacks {s!r}" for s in exp.get("text", []) if s not in text]
    bad += [f"text says {s!r}" for s in exp.get("not_text", []) if s in text]
    return bad


def outcome(case: dict, out: dict) -> tuple[str, list[str]]:
    """right | refused (exit 2: the question names a card or release gpukb does not know) | wrong."""
    bad = problems(case, out)
    if not bad:
        return "right", []
    if out["_exit"] == 2 and out.get("kind") == "unusable-input" and "exit" not in case["expect"]:
        return "refused", [str(out.get("error"))]
    return "wrong", bad


def scoreboard(cases: list[dict] | None = None) -> list[tuple[dict, str, list[str]]]:
    return [(c, *outcome(c, run(c))) for c in (cases if cases is not None else load())]
