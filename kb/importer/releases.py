"""Draft release entries of catalog/releases/*.yaml from the documents that list releases, with citations.

The drift extractors read the documents; this module only turns what they read into catalog entries and
merges them with what the catalog has (hand-written parts — dates, changes, extra citations, notes — kept):

    operator(notes_text, rfile, since="23.9.0", charts=Charts(git_dir)) -> Draft
        every GPU Operator release of the release notes from `since` on (default: the file's oldest), its
        components from the "software component versions" list (plus the driver the notes mark "(default)");
        with `charts` (values.yaml at each release tag, read from a clone of NVIDIA/gpu-operator) also what the
        chart deploys where the notes are silent or write another version (the chart decides), and the date of
        the tag's commit
    changelog(text, rfile, since="0.12.0") -> Draft
        every final release of a Markdown CHANGELOG (device plugin) from `since` on, cited by its heading

`Draft.file` is the merged releases file (plain data, newest release first); `added` and `changed` name the
releases that are new or whose entry changed; `render(entries)` writes entries in the catalog's YAML style;
`warnings` lists what a reviewer must look at (a component version that is no release of that component).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from kb import versions
from kb.drift.extractors import changelog as changelog_extractor
from kb.drift.extractors import helm_values, release_notes
from kb.text import Text

#: the source citing values.yaml at a release tag (no local snapshot: each citation names the tag in `page`)
CHART = "gpu-operator-chart"
#: the chart's file in NVIDIA/gpu-operator
VALUES = "deployments/gpu-operator/values.yaml"
#: the MIG Manager's default configuration (ConfigMap default-mig-parted-config) in NVIDIA/gpu-operator
MIG_CONFIG = "assets/state-mig-manager/0400_configmap.yaml"
#: the source citing files of the operator's repository at a release tag
CODE = "gpu-operator-code"
#: components whose version the chart deploys and the behaviour rules read (beside the release notes)
CHART_COMPONENTS = ("driver", "device-plugin", "gpu-feature-discovery", "mig-manager", "dra-driver",
                    "container-toolkit")


@dataclass
class Draft:
    file: dict
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    warnings: list[Text] = field(default_factory=list)

    def entries(self) -> list[dict]:
        """The release entries that are new or changed, newest first."""
        wanted = set(self.added) | set(self.changed)
        return [r for r in self.file["releases"] if r["version"] in wanted]

    def as_dict(self) -> dict:
        return {"added": self.added, "changed": self.changed, "warnings": [dict(w) for w in self.warnings],
                "releases": self.entries()}


class Charts:
    """values.yaml of the GPU Operator chart at each release tag, read from a git clone (a `fetch` mirror)."""

    def __init__(self, git_dir: Path):
        self.git_dir = Path(git_dir)

    def _git(self, *args: str) -> str | None:
        run = subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, text=True)
        return run.stdout if run.returncode == 0 else None

    def values(self, release: str) -> str | None:
        return self._git("show", f"v{release}:{VALUES}")

    def mig_config(self, release: str) -> str | None:
        return self._git("show", f"v{release}:{MIG_CONFIG}")

    def commit(self, release: str) -> tuple[str, dt.date] | None:
        out = self._git("log", "-1", "--format=%H %cs", f"v{release}")
        if not out:
            return None
        sha, day = out.split()
        return sha, dt.date.fromisoformat(day)


# ------------------------------------------------------------------------------------------- GPU Operator

def _notes_cite(source_id: str, version: str, item: dict) -> dict:
    return {"source": source_id, "section": f"{version}, {item.get('section') or 'New Features'}",
            "quote": item["item"]}


def _chart_cite(release: str, item: dict, block: str) -> dict:
    return {"source": CHART, "section": f"values.yaml at tag v{release}, {block}",
            "page": f"blob/v{release}/{VALUES}#L{item['line']}", "quote": item["quote"]}


_BLOCK = {v: k for k, v in helm_values.BLOCKS.items()}


def components_from_notes(source_id: str, rel: dict) -> list[dict]:
    """Components of one release as its notes list them (the driver marked "(default)" where the list has none)."""
    out: list[dict] = []
    for item in rel["components"]:
        if item["component"] and not any(c["component"] == item["component"] for c in out):
            out.append({"component": item["component"], "version": item["version"],
                        "cite": [_notes_cite(source_id, rel["version"], item)]})
    if not any(c["component"] == "driver" for c in out):
        default = next((d for d in rel.get("drivers", []) if d["default"]), None)
        if default:
            out.append({"component": "driver", "version": default["version"],
                        "cite": [_notes_cite(source_id, rel["version"], default)]})
    return out


def _shipped(releases: list[dict], below: str, component: str) -> str | None:
    """The version of `component` the nearest release older than `below` lists (releases newest first)."""
    for rel in releases:
        if versions.key(rel["version"]) < versions.key(below):
            for c in rel.get("components", []):
                if c["component"] == component:
                    return c["version"]
    return None


def _with_chart(version: str, notes: list[dict], chart: dict[str, dict], older: list[dict]) -> list[dict]:
    """The notes' components corrected by what the chart at the tag deploys (the chart decides), plus the chart's
    components the notes do not list where they differ from what the older releases ship."""
    out = []
    for comp in notes:
        theirs = chart.get(comp["component"])
        if theirs and theirs["version"] != comp["version"]:
            name = comp["component"]
            comp = {"component": name, "version": theirs["version"], "written": comp["version"],
                    "cite": comp["cite"] + [_chart_cite(version, theirs, _BLOCK[name])],
                    "note": {"en": f"The release notes write {comp['version']}; the chart at tag v{version} deploys "
                                   f"{theirs['version']}, which is what runs.",
                             "de": f"Die Release Notes schreiben {comp['version']}; das Chart am Tag v{version} "
                                   f"installiert {theirs['version']}, und das ist, was läuft."}}
        out.append(comp)
    listed = {c["component"] for c in out}
    for name in CHART_COMPONENTS:
        theirs = chart.get(name)
        if not theirs or name in listed or theirs["version"] == _shipped(older, version, name):
            continue
        out.append({"component": name, "version": theirs["version"],
                    "cite": [_chart_cite(version, theirs, _BLOCK[name])],
                    "note": {"en": f"The release notes of {version} do not list it; the chart at tag v{version} "
                                   "deploys this version.",
                             "de": f"Die Release Notes von {version} nennen sie nicht; das Chart am Tag v{version} "
                                   "installiert diese Version."}})
    return out


def _merge_components(drafted: list[dict], ours: list[dict], source_id: str, chart_read: bool) -> list[dict]:
    """Drafted components with what the catalog adds: citations of other sources, notes; without the chart a
    component the catalog corrected by the chart (`written`) or took from it keeps the catalog's entry."""
    mine = {c["component"]: c for c in ours}
    out = []
    for comp in drafted:
        have = mine.get(comp["component"])
        if have is None:
            out.append(comp)
            continue
        if not chart_read and have.get("written") == comp["version"]:
            out.append(copy.deepcopy(have))
            continue
        merged = dict(comp)
        kept = [c for c in have.get("cite", []) if c.get("source") not in (source_id, CHART)]
        merged["cite"] = comp["cite"] + kept
        if "note" not in merged and have.get("note"):
            merged["note"] = have["note"]
        out.append({k: merged[k] for k in ("component", "version", "written", "cite", "note") if k in merged})
    drafted_ids = {c["component"] for c in drafted}
    for comp in ours:
        if comp["component"] in drafted_ids:
            continue
        cites_chart_only = all(c.get("source") == CHART for c in comp.get("cite", []))
        if chart_read and cites_chart_only:
            continue  # the chart was read and no longer needs this entry
        out.append(copy.deepcopy(comp))
    return out


def operator(notes_text: str, rfile: dict, *, source_id: str = "gpu-operator-release-notes",
             since: str | None = None, charts: Charts | None = None) -> Draft:
    """Every GPU Operator release of the release notes from `since` on, merged into `rfile` (see module doc)."""
    extracted = release_notes.extract(notes_text)
    file = copy.deepcopy(rfile)
    ours = {r["version"]: r for r in file["releases"]}
    floor = since or min(ours, key=versions.key)
    listed = [r for r in extracted["releases"] if versions.key(r["version"]) >= versions.key(floor)]
    draft = Draft(file)
    built: list[dict] = []  # releases done so far, oldest first, newest first in `older` lookups
    for rel in sorted(listed, key=lambda r: versions.key(r["version"])):
        version = rel["version"]
        comps = components_from_notes(source_id, rel)
        chart = None
        if charts is not None:
            text = charts.values(version)
            if text is None:
                draft.warnings.append(Text(f"no values.yaml at tag v{version} in {charts.git_dir}",
                                           f"keine values.yaml am Tag v{version} in {charts.git_dir}"))
            else:
                chart = {c["component"]: c for c in helm_values.extract(text)["components"]}
                comps = _with_chart(version, comps, chart, list(reversed(built)))
        have = ours.get(version)
        entry = copy.deepcopy(have) if have else {"version": version}
        entry["components"] = _merge_components(comps, (have or {}).get("components", []), source_id, chart is not None)
        if not entry["components"]:
            del entry["components"]
        if chart is not None and "date" not in entry:
            commit = charts.commit(version)
            if commit:
                entry = _dated(entry, version, commit, chart)
        if charts is not None:
            entry = _with_mig_devices(entry, version, charts.mig_config(version), built)
        if have is None:
            draft.added.append(version)
        elif entry != have:
            draft.changed.append(version)
        ours[version] = entry
        built.append(entry)
    file["releases"] = sorted(ours.values(), key=lambda r: versions.key(r["version"]), reverse=True)
    draft.added.sort(key=versions.key, reverse=True)
    draft.changed.sort(key=versions.key, reverse=True)
    return draft


def mig_devices(config_text: str) -> list[str]:
    """The PCI device ids ("0x2BB5") the layouts of a mig-parted configuration (the operator's ConfigMap embeds
    one) name in their device filters, read by the mig-parted-config extractor."""
    from kb.drift.extractors import mig_parted_config

    ids = {f[:6].upper().replace("0X", "0x") for layout in mig_parted_config.extract(config_text)["configs"]
           for e in layout["entries"] for f in e["device_filter"]}
    return sorted(ids)


def _recorded_devices(older: list[dict]) -> list[str] | None:
    """The MIG device ids of the nearest older release that records them (`older` oldest first)."""
    for rel in reversed(older):
        if rel.get("mig_devices"):
            return rel["mig_devices"]["value"]
    return None


def _with_mig_devices(entry: dict, version: str, config_text: str | None, older: list[dict]) -> dict:
    """`entry` with the device ids its default MIG configuration has layouts for, where they differ from the older
    releases' (the first device filter naming a new id cited)."""
    if config_text is None:
        return entry
    ids = mig_devices(config_text)
    before = _recorded_devices(older)
    out = {k: v for k, v in entry.items() if k != "mig_devices"}
    if before is not None and set(before) == set(ids):
        return out
    new = [i for i in ids if before is None or i not in before] or ids
    lines = config_text.splitlines()
    line = next(n for n, ln in enumerate(lines) if "device-filter" in ln and new[0].lower() in ln.lower())
    fact = {"value": ids, "cite": [{
        "source": CODE, "section": f"{MIG_CONFIG} (tag v{version})",
        "page": f"blob/v{version}/{MIG_CONFIG}#L{line + 1}", "quote": lines[line].strip().lstrip("- ").strip()}],
        "inferred": {"en": f"Every PCI device id the device filters of the ConfigMap default-mig-parted-config name at tag v{version}.",
                     "de": f"Jede PCI-Geräte-ID, die die Gerätefilter der ConfigMap default-mig-parted-config am Tag v{version} nennen."}}
    keys = list(out)
    at = keys.index("changes") if "changes" in keys else len(keys)
    items = list(out.items())
    return dict(items[:at] + [("mig_devices", fact)] + items[at:])


def _dated(entry: dict, version: str, commit: tuple[str, dt.date], chart: dict) -> dict:
    sha, day = commit
    anchor = chart.get("device-plugin") or next(iter(chart.values()))
    date = {"value": day, "cite": [{
        "source": CHART, "section": f"values.yaml at tag v{version} (commit {sha[:7]} of {day})",
        "page": f"blob/v{version}/{VALUES}#L{anchor['line']}", "quote": anchor["quote"]}],
        "note": {"en": f"Date of the commit the v{version} tag points at (the release notes carry no dates).",
                 "de": f"Datum des Commits, auf den der Tag v{version} zeigt (die Release Notes enthalten keine Daten)."}}
    out = {"version": entry["version"]}
    out.update({k: v for k, v in entry.items() if k == "cite"})
    out["date"] = date
    out.update({k: v for k, v in entry.items() if k not in out})
    return out


#: components with a releases file of their own: their versions in an operator release must be releases there
_OWN_FILES = ("device-plugin", "mig-manager", "dra-driver")


def check_components(draft: Draft, data_releases: dict) -> None:
    """Add a warning for every component version of a drafted release that is no release of the component's own
    file (from that file's oldest release on)."""
    known = {comp: {versions.key(r["version"]) for r in data_releases[comp]["releases"]}
             for comp in _OWN_FILES if comp in data_releases}
    oldest = {comp: min(v) for comp, v in known.items() if v}
    for rel in draft.entries():
        for c in rel.get("components", []):
            have = known.get(c["component"])
            if have and versions.key(c["version"]) >= oldest[c["component"]] and versions.key(c["version"]) not in have:
                draft.warnings.append(Text(
                    f"{rel['version']}: {c['component']} {c['version']} is no release of releases/{c['component']}",
                    f"{rel['version']}: {c['component']} {c['version']} ist kein Release in releases/{c['component']}"))


# ------------------------------------------------------------------------------------------- CHANGELOG

def changelog(text: str, rfile: dict, *, source_id: str, since: str | None = None) -> Draft:
    """Every final release of a Markdown CHANGELOG from `since` on (default: the file's oldest), cited by its
    heading; releases the catalog has keep everything and gain the heading citation where they have none."""
    extracted = changelog_extractor.extract(text)
    lines = text.splitlines()
    file = copy.deepcopy(rfile)
    ours = {r["version"]: r for r in file["releases"]}
    floor = since or min(ours, key=versions.key)
    draft = Draft(file)
    for rel in extracted["releases"]:
        if rel["prerelease"] or versions.key(rel["version"]) < versions.key(floor):
            continue
        heading = lines[rel["line"] - 1].strip().lstrip("#").strip()
        cite = {"source": source_id, "section": heading, "quote": heading}
        have = ours.get(rel["version"])
        if have is None:
            ours[rel["version"]] = {"version": rel["version"], "cite": [cite]}
            draft.added.append(rel["version"])
        elif not have.get("cite") and not have.get("date") and not have.get("changes"):
            ours[rel["version"]] = {"version": rel["version"], "cite": [cite], **{k: v for k, v in have.items() if k != "version"}}
            draft.changed.append(rel["version"])
    file["releases"] = sorted(ours.values(), key=lambda r: versions.key(r["version"]), reverse=True)
    draft.added.sort(key=versions.key, reverse=True)
    draft.changed.sort(key=versions.key, reverse=True)
    return draft


# ------------------------------------------------------------------------------------------- YAML

def _q(value) -> str:
    """A scalar as the catalog writes it: strings double-quoted (versions always), dates plain."""
    if isinstance(value, dt.date):
        return value.isoformat()
    return json.dumps(value, ensure_ascii=False)


def _cite_line(cite: dict) -> str:
    parts = [f"source: {cite['source']}"]
    for key in ("section", "page", "quote", "snapshot"):
        if key in cite:
            parts.append(f"{key}: {_q(cite[key])}")
    return "{" + ", ".join(parts) + "}"


def _text(key: str, text: dict, indent: str) -> list[str]:
    return [f"{indent}{key}:", f"{indent}  en: {_q(text['en'])}", f"{indent}  de: {_q(text['de'])}"]


def render(entries: list[dict]) -> str:
    """Release entries (version, cite, date, components, mig_devices) as YAML items of a `releases:` list, in the
    catalog's style (flow-style citations, versions quoted); other keys of an entry (changes …) are not
    written: a reviewer pastes the draft into the file, where they stay as they are."""
    out = []
    for rel in entries:
        out.append(f"  - version: {_q(rel['version'])}")
        if rel.get("cite"):
            out.append("    cite:")
            out += [f"      - {_cite_line(c)}" for c in rel["cite"]]
        if rel.get("date"):
            date = rel["date"]
            out += ["    date:", f"      value: {_q(date['value'])}", "      cite:"]
            out += [f"        - {_cite_line(c)}" for c in date["cite"]]
            if date.get("note"):
                out += _text("note", date["note"], "      ")
        if rel.get("mig_devices"):
            fact = rel["mig_devices"]
            out.append("    mig_devices:")
            out.append("      value: [" + ", ".join(_q(p) for p in fact["value"]) + "]")
            out.append("      cite:")
            out += [f"        - {_cite_line(c)}" for c in fact["cite"]]
            if fact.get("inferred"):
                out += _text("inferred", fact["inferred"], "      ")
        if rel.get("components"):
            out.append("    components:")
            for c in rel["components"]:
                out.append(f"      - component: {c['component']}")
                out.append(f"        version: {_q(c['version'])}")
                if c.get("written"):
                    out.append(f"        written: {_q(c['written'])}")
                out.append("        cite:")
                out += [f"          - {_cite_line(x)}" for x in c["cite"]]
                if c.get("note"):
                    out += _text("note", c["note"], "        ")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------- entry point

def drafts(source_id: str, text: str, data: dict, files: dict[str, str], *, repository: Path | None = None,
           since: str | None = None) -> dict:
    """Release drafts from a release-notes or CHANGELOG document for every releases file whose `source` it is.

    `files` are those releases files as written (component → YAML text); `repository` a clone of
    NVIDIA/gpu-operator (values.yaml and the MIG Manager's ConfigMap at each release tag) for the release notes.
    Returns {"source", "extractor", "drafts": [{"file", "release", "new", "entry"}], "notes": [Text…],
    "yaml": {file: the drafted entries in the catalog's style}, "files": {file: the whole file with them}}."""
    extractor = data["sources"][source_id]["watch"]["extractor"]
    out: dict = {"source": source_id, "extractor": extractor, "drafts": [], "notes": [], "yaml": {}, "files": {}}
    for component, written in sorted(files.items()):
        rfile = yaml.safe_load(written)
        if extractor == "release-notes":
            draft = operator(text, rfile, source_id=source_id, since=since,
                             charts=Charts(repository) if repository else None)
            check_components(draft, data["releases"])
        else:
            draft = changelog(text, rfile, source_id=source_id, since=since)
        name = f"catalog/releases/{component}.yaml"
        for entry in draft.entries():
            out["drafts"].append({"file": name, "release": entry["version"], "new": entry["version"] in draft.added,
                                  "entry": entry})
        if draft.entries():
            out["yaml"][name] = render(draft.entries())
            out["files"][name] = splice(written, draft)
        out["notes"] += [dict(w) for w in draft.warnings]
    return out

_RENDERED = ("cite", "date", "mig_devices", "components")


def _blocks(text: str) -> dict[str, str]:
    """The top-level keys of one rendered or written release entry (its lines after `- version:`)."""
    parts: dict[str, str] = {}
    key = None
    for line in text.splitlines(keepends=True)[1:]:
        m = re.match(r"    ([a-z_]+):", line)
        if m:
            key = m.group(1)
            parts[key] = ""
        if key:
            parts[key] += line
    return parts


def splice(text: str, draft: Draft) -> str:
    """The releases file `text` with the draft's new and changed releases written into its `releases:` list in the
    catalog's style; everything else — comments, other releases, a changed release's hand-written keys — as it was."""
    head, sep, rest = text.partition("\nreleases:\n")
    if not sep:
        raise ValueError("no top-level 'releases:' list")
    m = re.search(r"(?m)^[a-z_]+:", rest)
    body, tail = (rest[:m.start()], rest[m.start():]) if m else (rest, "")
    old = {}
    for block in re.split(r"(?m)^(?=  - version: )", body):
        found = re.match(r'  - version: "([^"]+)"', block)
        if found:
            old[found.group(1)] = block if block.endswith("\n") else block + "\n"
    wanted = set(draft.added) | set(draft.changed)
    out = []
    for rel in draft.file["releases"]:
        version = rel["version"]
        if version not in wanted and version in old:
            out.append(old[version].rstrip("\n") + "\n")
            continue
        rendered = render([rel])
        if version not in old:
            out.append(rendered)
            continue
        mine, theirs = _blocks(old[version]), _blocks(rendered)
        entry = old[version].splitlines(keepends=True)[0]
        for key in _RENDERED:
            entry += mine[key] if key == "date" and key in mine else theirs.get(key, "")
        entry += "".join(v if v.endswith("\n") else v + "\n" for k, v in mine.items() if k not in _RENDERED)
        out.append(entry)
    return head + sep + "".join(out) + tail
