"""Releases of the standalone DRA driver, read at each release tag of a clone of kubernetes-sigs/dra-driver-nvidia-gpu
(formerly NVIDIA/k8s-dra-driver-gpu; the clone holds the tags of both).

    standalone_releases(git_dir) -> [release entry, …]   newest first (by tag date: v25.12.0 is older than 0.4.0)

Per final tag (vX.Y.Z; release candidates left out), each value cited at the tag (`page: blob/<tag>/<file>#L<n>`,
source `dra-driver-code`):
- `date`: the tag's commit day (cited by the chart's `version:` line);
- `requirements.min_kubernetes`: the prerequisites page at the tag where it has one (docs/prerequisites.md,
  later site/content/docs/prerequisites.md), else the README's "For Kubernetes 1.32 or newer"; the README and the
  chart's `kubeVersion` are kept in `disputed_by` where they say less;
- `requirements.min_driver` / `min_driver_compute_domains`: the prerequisites page's driver row ("v565 or later
  for GPU allocation. v570.158.01 or later if using ComputeDomains");
- `feature_gates`: pkg/featuregates/featuregates.go (name, default, stage of its last versioned spec);
- `kubelet_plugins`: the README's word on the GPU plugin ("not yet officially supported") and the ComputeDomain
  plugin ("Officially supported.").
What the tag does not say stays out (unknown is not "no").
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from kb import versions

SOURCE = "dra-driver-code"
GATES = "pkg/featuregates/featuregates.go"
CHARTS = ("deployments/helm/dra-driver-nvidia-gpu", "deployments/helm/nvidia-dra-driver-gpu")
PREREQUISITES = ("site/content/docs/prerequisites.md", "docs/prerequisites.md")
_TAG = re.compile(r"^v(\d+\.\d+\.\d+)$")
_K8S_ROW = re.compile(r"^\| Kubernetes \| (v(\d+\.\d+(?:\.\d+)?) or later[^|]*?)\s*\|")
_DRIVER_ROW = re.compile(r"^\| NVIDIA Driver \| (v(\d{3}(?:\.\d+)*) or later for GPU allocation\.)"
                         r"(?: (v(\d{3}(?:\.\d+)*) or later if using))?")
_README_K8S = re.compile(r"For Kubernetes (\d+\.\d+) or newer")
_KUBE_VERSION = re.compile(r'^kubeVersion: ">=(\d+\.\d+)(?:\.\d+)?(?:-0)?"')
_SPEC = re.compile(r"^\t(\w+): \{$")
_GPU_WORD = "While some GPU allocation features can be tried out, they are not yet officially supported."
_CD_WORD = "An abstraction for robust and secure Multi-Node NVLink (MNNVL). Officially supported."


class Tags:
    """Files of the DRA driver's repository at its release tags."""

    def __init__(self, git_dir: Path):
        self.git_dir = Path(git_dir)

    def _git(self, *args: str) -> str | None:
        run = subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, text=True)
        return run.stdout if run.returncode == 0 else None

    def releases(self) -> list[tuple[str, str]]:
        """(version, commit day) of every final release tag, newest first by day (then version)."""
        out = []
        for tag in (self._git("tag", "--list", "v*") or "").split():
            match = _TAG.match(tag)
            day = match and self._git("log", "-1", "--format=%cs", tag)
            if day:
                out.append((match.group(1), day.strip()))
        return sorted(out, key=lambda r: (r[1], versions.key(r[0])), reverse=True)

    def show(self, version: str, path: str) -> list[str] | None:
        text = self._git("show", f"v{version}:{path}")
        return None if text is None else text.splitlines()


def _cite(version: str, path: str, number: int, quote: str, section: str) -> dict:
    return {"source": SOURCE, "section": f"{path} at tag v{version}, {section}",
            "page": f"blob/v{version}/{path}#L{number}", "quote": quote}


def _find(lines: list[str] | None, pattern: re.Pattern) -> tuple[int, re.Match] | None:
    for number, line in enumerate(lines or [], 1):
        match = pattern.search(line)
        if match:
            return number, match
    return None


def _chart(tags: Tags, version: str) -> tuple[str, list[str]] | None:
    for folder in CHARTS:
        lines = tags.show(version, f"{folder}/Chart.yaml")
        if lines is not None:
            return f"{folder}/Chart.yaml", lines
    return None


def _date(version: str, day: str, chart: tuple[str, list[str]] | None) -> dict | None:
    if chart is None:
        return None
    path, lines = chart
    found = _find(lines, re.compile(r'^version: "?' + re.escape(version) + r'"?$'))
    if found is None:
        return None
    number, match = found
    from kb.wording import date_text

    return {"value": day, "cite": [_cite(version, path, number, match.group(0),
                                         f"the chart at the release tag ({date_text(day, 'en')})")]}


_OLDER = {
    "en": "The README and the Helm chart allow an older Kubernetes; the prerequisites page of the release requires the "
          "newer one. That the chart installs does not make the driver work.",
    "de": "README und Helm-Chart lassen ein älteres Kubernetes zu; die Seite mit den Voraussetzungen des Releases "
          "verlangt das neuere. Dass sich das Chart installieren lässt, heißt nicht, dass der Treiber funktioniert."}


def _requirements(tags: Tags, version: str, chart, readme: list[str] | None) -> dict:
    claims = []  # (value, cite) in order of precedence
    prerequisites = next(((path, lines) for path in PREREQUISITES
                          if (lines := tags.show(version, path)) is not None), (None, None))
    found = _find(prerequisites[1], _K8S_ROW)
    if found:
        claims.append((found[1].group(2), _cite(version, prerequisites[0], found[0], found[1].group(1),
                                                "Cluster requirements, Kubernetes")))
    found = _find(readme, _README_K8S)
    if found:
        claims.append((found[1].group(1), _cite(version, "README.md", found[0], found[1].group(0), "introduction")))
    if chart is not None:
        found = _find(chart[1], _KUBE_VERSION)
        if found:
            claims.append((found[1].group(1), _cite(version, chart[0], found[0], found[1].group(0), "kubeVersion")))
    out: dict = {}
    if claims:
        value = claims[0][0]
        fact = {"value": value, "cite": [c for v, c in claims if v == value]}
        others = [(v, c) for v, c in claims if v != value]
        if others:
            fact["disputed_by"] = [{"value": v, "cite": [c for w, c in others if w == v], "note": _OLDER}
                                   for v in dict.fromkeys(v for v, _ in others)]
        out["min_kubernetes"] = fact
    found = _find(prerequisites[1], _DRIVER_ROW)
    if found:
        number, match = found
        out["min_driver"] = {"value": match.group(2), "cite": [_cite(
            version, prerequisites[0], number, match.group(1), "Cluster requirements, NVIDIA Driver")]}
        if match.group(4):
            out["min_driver_compute_domains"] = {"value": match.group(4), "cite": [_cite(
                version, prerequisites[0], number, match.group(3), "Cluster requirements, NVIDIA Driver")]}
    return out


def _gates(tags: Tags, version: str) -> list[dict]:
    lines = tags.show(version, GATES)
    if lines is None:
        return []
    out = []
    for number, line in enumerate(lines, 1):
        spec = _SPEC.match(line)
        if not spec:
            continue
        name = spec.group(1)
        const = _find(lines, re.compile(r"^\t" + name + r' featuregate\.Feature = "' + name + '"'))
        default = stage = None
        for k in range(number, len(lines)):
            text = lines[k].strip()
            if text.startswith("Default:"):
                default = (k + 1, text.split(":", 1)[1].strip().rstrip(","))
            elif text.startswith("PreRelease:"):
                stage = (k + 1, text.split(".", 1)[1].strip().rstrip(","))
            elif text == "},":
                if k + 1 < len(lines) and lines[k + 1].strip() == "},":
                    break  # the last versioned spec of the gate
        if const is None or default is None or stage is None:
            continue
        maturity = {"Alpha": "alpha", "Beta": "beta", "GA": "ga"}.get(stage[1])
        if maturity is None:
            continue
        out.append({"name": name, "maturity": maturity, "default": default[1] == "true", "cite": [
            _cite(version, GATES, const[0], const[1].group(0).strip(), f"feature gate {name}"),
            _cite(version, GATES, stage[0], f"PreRelease: featuregate.{stage[1]}",
                  f"feature gate {name}: stage {maturity}, default {default[1]} (line {default[0]})")]})
    return out


def _plugins(version: str, readme: list[str] | None) -> list[dict]:
    out = []
    for plugin, words, status, section in (("gpu", _GPU_WORD, "not-officially-supported", "GPUs"),
                                           ("compute-domain", _CD_WORD, "supported", "ComputeDomains")):
        found = _find(readme, re.compile(re.escape(words)))
        if found:
            out.append({"id": plugin, "status": {"value": status, "cite": [
                _cite(version, "README.md", found[0], words, section)]}})
    return out


def standalone_releases(git_dir: Path, oldest: str | None = None) -> list[dict]:
    """Every final release tag as a release entry of catalog/releases/dra-driver.yaml, newest first."""
    tags = Tags(git_dir)
    out = []
    for version, day in tags.releases():
        chart = _chart(tags, version)
        readme = tags.show(version, "README.md")
        entry: dict = {"version": version}
        date = _date(version, day, chart)
        if date:
            entry["date"] = date
        entry["standalone"] = True
        requirements = _requirements(tags, version, chart, readme)
        if requirements:
            entry["requirements"] = requirements
        gates = _gates(tags, version)
        if gates:
            entry["feature_gates"] = gates
        plugins = _plugins(version, readme)
        if plugins:
            entry["kubelet_plugins"] = plugins
        out.append(entry)
    return out


#: the keys of a release entry the import writes; the others (changes, cite) are hand-written and kept
IMPORTED = ("date", "standalone", "requirements", "feature_gates", "kubelet_plugins")


def _entries(text: str) -> tuple[int, int, list[tuple[str, list[str]]]]:
    """(first line, end line, [(version, lines)]) of the `releases:` list of a releases file."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.rstrip() == "releases:") + 1
    end = next((i for i in range(start, len(lines)) if lines[i].strip() and not lines[i].startswith(" ")), len(lines))
    items: list[tuple[str, list[str]]] = []
    for line in lines[start:end]:
        match = re.match(r'^  - version: "?([\d.]+)"?', line)
        if match:
            items.append((match.group(1), []))
        if items:
            items[-1][1].append(line)
    return start, end, items


def _split(block: list[str]) -> tuple[str, str]:
    """(imported keys, hand-written keys) of one written entry, as written; the first line goes with the imported."""
    imported, kept, keep = [block[0]], [], False
    for line in block[1:]:
        match = re.match(r"^    ([a-z_]+):", line)
        if match:
            keep = match.group(1) not in IMPORTED
        (kept if keep else imported).append(line)
    return "".join(imported), "".join(kept)


def render(entry: dict) -> str:
    import yaml

    body = {k: entry[k] for k in IMPORTED if k in entry}
    dumped = yaml.safe_dump(body, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    dumped = re.sub(r"(?m)^(\s*(?:- )?value: )'?(\d+(?:\.\d+)*)'?$", r'\1"\2"', dumped)  # versions quoted
    dumped = re.sub(r"(?m)^(\s*value: )'?(\d{4}-\d\d-\d\d)'?$", r"\1\2", dumped)
    return f'  - version: "{entry["version"]}"\n' + "".join("    " + line + "\n" for line in dumped.splitlines())


def merge(text: str, imported: list[dict]) -> tuple[str, list[str], list[str]]:
    """The releases file `text` with the imported entries written (hand-written keys of an entry kept, entries the
    import does not know kept as they are), newest first by date; (text, added versions, changed versions)."""
    import yaml

    start, end, items = _entries(text)
    written = {v: block for v, block in items}
    have = {r["version"]: r for r in (yaml.safe_load(text) or {}).get("releases", [])}
    by_version = {e["version"]: e for e in imported}
    added = [v for v in by_version if v not in written]
    changed = [v for v, e in by_version.items() if v in written and render(e) != _split(written[v])[0]]
    order = [(v, (have.get(v) or {}).get("date", {}).get("value") if v not in by_version else by_version[v].get("date", {}).get("value"))
             for v in dict.fromkeys([*written, *by_version])]
    # undated entries (the operator-managed 0.5.0) stay before dated ones they are newer than by version
    dated = sorted((o for o in order if o[1]), key=lambda o: (str(o[1]), versions.key(o[0])), reverse=True)
    undated = [o for o in order if not o[1]]
    ordered = [o[0] for o in undated] + [o[0] for o in dated]
    blocks = []
    for v in ordered:
        if v in by_version:
            blocks.append(render(by_version[v]) + (_split(written[v])[1] if v in written else ""))
        else:
            blocks.append("".join(written[v]))
    lines = text.splitlines(keepends=True)
    return "".join(lines[:start]) + "".join(blocks) + "".join(lines[end:]), added, changed
