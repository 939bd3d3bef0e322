"""GPU Operator releases back to 23.9.0: imported from NVIDIA's documents (kb.importer.releases), and answered.

The import reads the release notes of ../shared/sources (skipped, saying so, without them) and, for what the notes
do not say or say wrong, the operator repository at each release tag from the fetched mirror ($GPUKB_MIRROR or
../.mirror; skipped, saying so, without it). Nothing fetched is committed.
"""

from __future__ import annotations

import copy
import json
import subprocess

import pytest
import yaml
from click.testing import CliRunner

from conftest import MIRROR, REPO, need_sources
from kb.catalog.yamlsafe import safe_load  # libyaml: PyYAML's values for a file the catalog's checks read
from kb.cli.main import cli
from kb.importer import releases as imp
from kb.lint.snapshots import normalise

OPERATOR_FILE = REPO / "catalog" / "releases" / "gpu-operator.yaml"
NOTES = "cloud-native-docs/release-notes@2026-08-21.rst"
GPU_OPERATOR = MIRROR / "NVIDIA+gpu-operator" / "repo"


@pytest.fixture(scope="module")
def committed() -> dict:
    return safe_load(OPERATOR_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def notes() -> str:
    return (need_sources() / NOTES).read_text(encoding="utf-8")


def charts() -> imp.Charts:
    if not (GPU_OPERATOR / "HEAD").is_file():
        pytest.skip(f"no mirror of NVIDIA/gpu-operator at {GPU_OPERATOR}: fetch it (search tool) to read values.yaml "
                    "and the MIG Manager's ConfigMap at each release tag")
    return imp.Charts(GPU_OPERATOR)


def _without_chart(release: dict) -> dict:
    """What the release notes alone give for a committed release: components citing them, as the notes write them."""
    out = {"version": release["version"]}
    comps = []
    for c in release.get("components", []):
        notes_cites = [x for x in c["cite"] if x["source"] == "gpu-operator-release-notes"]
        if notes_cites:
            comps.append({"component": c["component"], "version": c.get("written") or c["version"],
                          "cite": notes_cites})
    if comps:
        out["components"] = comps
    return out


# --- the import -------------------------------------------------------------------------------------

def test_the_import_of_the_newest_notes_changes_nothing(committed, notes):
    draft = imp.operator(notes, committed)
    assert (draft.added, draft.changed, draft.warnings) == ([], [], [])
    assert draft.file == committed


IMPORTED = ("gpu-operator-release-notes", imp.CHART)


def hand_written(file: dict) -> dict:
    """The committed file without what the import writes: component citations of the notes and the chart (a
    component left without citations goes), the MIG layouts' device ids, dates from the chart; releases left
    with nothing but their version go too."""
    out = copy.deepcopy(file)
    releases = []
    for rel in out["releases"]:
        comps = []
        for c in rel.pop("components", []):
            c["cite"] = [x for x in c["cite"] if x["source"] not in IMPORTED]
            if c["cite"]:
                comps.append({k: v for k, v in c.items() if k not in ("written", "note")})
        if comps:
            rel["components"] = comps
        rel.pop("mig_devices", None)
        if rel.get("date") and all(x["source"] == imp.CHART for x in rel["date"]["cite"]):
            del rel["date"]
        if set(rel) != {"version"} or rel["version"] in ("26.7.0", "25.3.4"):
            releases.append(rel)
    out["releases"] = releases
    return out


def test_the_notes_alone_reproduce_every_release_from_23_9_0(committed, notes):
    """From the hand-written parts alone, the notes give every release 23.9.0 … 26.7.0 with the components they
    list, cited as committed."""
    draft = imp.operator(notes, hand_written(committed), since="23.9.0")
    assert set(draft.added) | set(draft.changed) == {r["version"] for r in committed["releases"]} - {"26.3.1"}
    assert [_without_chart(r) for r in draft.file["releases"]] == [_without_chart(r) for r in committed["releases"]]
    # NVIDIA's 23.9.x notes write the device plugin v0.14.x as "v1.14.x": read as written, the chart corrects it
    first = next(r for r in draft.file["releases"] if r["version"] == "23.9.0")
    assert next(c for c in first["components"] if c["component"] == "device-plugin")["version"] == "1.14.2"


def test_notes_and_repository_reproduce_the_committed_file(committed, notes):
    """From the hand-written parts, the notes and the operator's repository at each tag: every release, its
    components (the chart's version where the notes are silent or wrong), its date and its MIG layouts' device
    ids — the committed file exactly."""
    draft = imp.operator(notes, hand_written(committed), since="23.9.0", charts=charts())
    assert draft.warnings == []
    assert draft.file == committed


def test_every_quote_of_the_repository_at_a_tag_is_there():
    """Citations of values.yaml and the MIG Manager's ConfigMap at a release tag have no local snapshot: the quotes
    are checked here against the mirror, at the tag and line the citation names."""
    git = charts().git_dir
    text = OPERATOR_FILE.read_text(encoding="utf-8")
    checked = 0
    for rel in safe_load(text)["releases"]:
        for _path, cite in _cites(rel):
            if cite["source"] not in (imp.CHART, imp.CODE):
                continue
            tag, _, rest = cite["page"].removeprefix("blob/").partition("/")
            path, _, line = rest.partition("#L")
            lines = subprocess.run(["git", "--git-dir", str(git), "show", f"{tag}:{path}"], capture_output=True,
                                   text=True, check=True).stdout.splitlines()
            around = "\n".join(lines[max(int(line) - 2, 0):int(line)])
            assert normalise(cite["quote"]) in normalise(around), (rel["version"], cite)
            checked += 1
    assert checked >= 40


def _cites(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "cite":
                yield from ((path, c) for c in v)
            else:
                yield from _cites(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _cites(v, path + (i,))


def test_render_writes_what_the_file_holds(committed):
    entries = [r for r in committed["releases"] if r["version"] in ("25.3.3", "23.9.0")]
    shown = yaml.safe_load("releases:\n" + imp.render(entries))["releases"]
    keep = ("version", "cite", "date", "components", "mig_devices")
    assert shown == [{k: v for k, v in r.items() if k in keep} for r in entries]


def test_a_version_no_release_of_its_component_is_named(committed, notes):
    """Without the chart, 23.9.x's "v1.14.2" is a device plugin version the catalog has no release of: a warning."""
    from kb.catalog.compiled import load_data

    bare = copy.deepcopy(committed)
    bare["releases"] = [r for r in committed["releases"] if r["version"] != "23.9.0"]
    draft = imp.operator(notes, bare)
    assert draft.added == []  # 23.9.0 is older than the file's oldest: not imported without `since`
    draft = imp.operator(notes, bare, since="23.9.0")
    imp.check_components(draft, load_data()["releases"])
    assert [w.en for w in draft.warnings] == ["23.9.0: device-plugin 1.14.2 is no release of releases/device-plugin"]


# --- older releases answer ------------------------------------------------------------------------

#: (gpukb ask arguments, verdict, rules that fired, a detail) — one CLI round each, in one test
OLD_RELEASES = [
    (["mig", "H200 NVL", "--operator", "23.9.0"], "no", ["MIG-001", "MIG-007", "MIG-015"], None),
    (["mig", "H200 NVL", "--operator", "24.6.1"], "conditional", ["MIG-001", "MIG-016"], None),
    (["mig", "H200 NVL", "--operator", "24.9.1"], "yes", ["MIG-001"], None),
    (["mig", "RTX PRO 6000 Server Edition", "--operator", "25.3.2", "--driver", "580.65.06"], "conditional",
     ["MIG-001", "MIG-012", "MIG-016"], None),
    (["mig", "RTX PRO 6000 Server Edition", "--operator", "25.3.3", "--driver", "580.65.06"], "yes",
     ["MIG-001", "MIG-012"], None),
    # the KubeVirt vGPU device list names the L4 from v24.3.0 on: unconfirmed before (METHODS-046), never "no"
    (["methods", "L4", "--operator", "23.9.0"], "yes",
     ["METHODS-001", "METHODS-005", "METHODS-010", "METHODS-023", "METHODS-030", "METHODS-046", "METHODS-051"],
     ("methods", {"whole": "yes", "mig": "no", "time-slicing": "yes", "mps": "no", "vm-passthrough": "conditional",
                  "vgpu": "unconfirmed", "dra": "conditional"})),
    (["methods", "L4", "--operator", "24.3.0"], "yes",
     ["METHODS-001", "METHODS-005", "METHODS-010", "METHODS-021", "METHODS-022", "METHODS-030", "METHODS-040",
      "METHODS-041", "METHODS-042", "METHODS-051"],
     ("methods", {"whole": "yes", "mig": "no", "time-slicing": "yes", "mps": "conditional",
                  "vm-passthrough": "conditional", "vgpu": "conditional", "dra": "conditional"})),
    (["resource", "L4", "--mps", "4", "--operator", "23.9.2"], "no", ["RES-010", "RES-023"], ("resource", None)),
    (["resource", "L4", "--mps", "4", "--operator", "24.3.0"], "conditional", ["RES-010", "RES-020", "RES-026"],
     ("resource", "nvidia.com/gpu")),
    (["resource", "L4", "--time-slicing", "4", "--operator", "23.9.0"], "yes", ["RES-010", "RES-022"],
     ("resource", "nvidia.com/gpu")),
    # device plugin v0.17.4 (25.3.4) matches MIG profiles by substring: the +gfx variant is counted as plain
    (["resource", "RTX PRO 6000 Server Edition", "--profile", "1g.24gb+gfx", "--mig-strategy", "mixed",
      "--operator", "25.3.4"], "conditional", ["RES-002", "RES-003", "RES-006"], ("resource", "nvidia.com/mig-1g.24gb")),
    (["strategy", "--gpu", "H200 NVL:all-1g.18gb", "--operator", "24.9.0"], "conditional", ["STR-003", "STR-005"], None),
]


def test_older_releases_answer():
    got = []
    for args, _verdict, _rules, detail in OLD_RELEASES:
        result = CliRunner().invoke(cli, ["ask", *args, "--json"])
        assert result.exit_code == 0, (args, result.output)
        answer = json.loads(result.output)
        shown = answer["details"].get(detail[0]) if detail else None
        got.append((args, answer["verdict"], sorted({r["rule"] for r in answer["reasons"]}), (detail[0], shown) if detail else None))
    assert got == [(a, v, r, d) for a, v, r, d in OLD_RELEASES]


def test_components_each_release_ships():
    from kb.catalog.compiled import load_data
    from kb.questions.behaviour import component_version

    data = load_data()
    shipped = {op: {c: component_version(data, op, c) for c in ("device-plugin", "mig-manager", "driver")}
               for op in ("23.9.0", "23.9.2", "24.3.0", "24.9.2", "25.3.3", "26.3.1")}
    assert shipped == {
        "23.9.0": {"device-plugin": ("0.14.2", "23.9.0"), "mig-manager": ("0.5.5", "23.9.0"), "driver": ("535.104.12", "23.9.0")},
        "23.9.2": {"device-plugin": ("0.14.5", "23.9.2"), "mig-manager": ("0.6.0", "23.9.2"), "driver": ("550.54.14", "23.9.2")},
        "24.3.0": {"device-plugin": ("0.15.0", "24.3.0"), "mig-manager": ("0.7.0", "24.3.0"), "driver": ("550.54.15", "24.3.0")},
        "24.9.2": {"device-plugin": ("0.17.0", "24.9.0"), "mig-manager": ("0.10.0", "24.9.0"), "driver": ("550.144.03", "24.9.2")},
        "25.3.3": {"device-plugin": ("0.17.4", "25.3.3"), "mig-manager": ("0.12.3", "25.3.3"), "driver": ("580.82.07", "25.3.3")},
        "26.3.1": {"device-plugin": ("0.19.0", "26.3.0"), "mig-manager": ("0.14.0", "26.3.0"), "driver": ("580.126.20", "26.3.0")},
    }


def test_a_release_older_than_the_history_exits_2_naming_the_oldest():
    result = CliRunner().invoke(cli, ["ask", "mig", "L4", "--operator", "23.6.2"])
    assert result.exit_code == 2
    assert result.output == "Error: GPU Operator 23.6.2 is older than every release we know; the oldest is 23.9.0\n"
    german = CliRunner().invoke(cli, ["ask", "mig", "L4", "--operator", "v22.9", "--lang", "de", "--json"])
    assert german.exit_code == 2
    assert json.loads(german.output)["error"] == ("GPU Operator 22.9 ist älter als alle Releases, die wir "
                                                  "kennen; das älteste ist 23.9.0")


def test_the_command_says_when_the_newest_notes_hold_nothing_new():
    result = CliRunner().invoke(cli, ["sources", "import", "gpu-operator-release-notes", str(need_sources() / NOTES)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "# nothing to draft: the catalog has every release of the document as written")
