"""The first GPU Operator release whose support list names each card, from the history of the list's page.

    first_listed(git_dir, data) -> {card_id: {"value": "24.6.1", "cite": [...]} or None}

`git_dir` is a clone of NVIDIA/cloud-native-docs (a `fetch` mirror). Every version of
`gpu-operator/platform-support.rst` is read, oldest first, by the drift check's extractor; a card is named by a
version where a product of it equals the name the list uses for the card (`listed_as`), one of the card's
`systems` or `aliases`. The release such a version documents is the later of

- the documentation's own version at that commit (`repo.toml`, section `[repo_docs.projects.gpu-operator]`:
  `version = "v26.3.0"` in its substitutions, else `version = "24.9.0"`; "26.3" counts as 26.3.0), and
- the newest release of the catalog dated on or before the commit's day (a page updated after a release tag
  but before the version in repo.toml was raised),

so where the two differ the answer says "listed" for fewer releases, never for more. A card first named in a
version that documents a release older than every release the catalog knows gets None: it is listed in all of
them. Each `since` cites the row of the first version naming the card and the documentation's version line, at
that commit (`page: blob/<commit>/<file>#L<line>`; the tests check the quotes against the mirror).
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

from kb import versions
from kb.catalog.names import normalise

#: the catalog source citing files of NVIDIA/cloud-native-docs at a commit
HISTORY = "gpu-operator-platform-support-history"
PAGE = "gpu-operator/platform-support.rst"
CONFIG = "repo.toml"
_SECTION = "[repo_docs.projects.gpu-operator]"
_FULL = re.compile(r'\bversion = "v(\d+\.\d+\.\d+)"')
_PLAIN = re.compile(r'^version = "(\d+\.\d+(?:\.\d+)?)"')


#: files read at a commit named by its full hash (what it holds never changes): {(git dir, commit, path): text}.
#: An import walks the page's history twice (first_listed, first_in_vgpu_list: ~140 versions, one `git show`
#: each); the second walk reads them from here. Emptied when it holds more than _SHOWN_LIMIT files.
_SHOWN: dict[tuple[str, str, str], str] = {}
_SHOWN_LIMIT = 1024
_FULL_HASH = re.compile(r"[0-9a-f]{40}")


class DocsRepository:
    """Versions of files of NVIDIA/cloud-native-docs, read from a git clone."""

    def __init__(self, git_dir: Path):
        self.git_dir = Path(git_dir)

    def _git(self, *args: str) -> str:
        run = subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, text=True)
        return run.stdout if run.returncode == 0 else ""

    def commits(self, path: str = PAGE) -> list[tuple[str, dt.date]]:
        """Commits that changed `path`, oldest first: (full hash, commit day)."""
        out = []
        for line in self._git("log", "--reverse", "--format=%H %cs", "--", path).splitlines():
            sha, day = line.split()
            out.append((sha, dt.date.fromisoformat(day)))
        return out

    def show(self, commit: str, path: str) -> str:
        """The file at the commit ("" where git cannot show it). Kept per process where `commit` is a full hash and
        git showed it (a tag or branch can move; a failure is asked again)."""
        if not _FULL_HASH.fullmatch(commit):
            return self._git("show", f"{commit}:{path}")
        key = (str(self.git_dir.resolve()), commit, path)
        found = _SHOWN.get(key)
        if found is None:
            found = self._git("show", f"{commit}:{path}")
            if found:
                if len(_SHOWN) >= _SHOWN_LIMIT:
                    _SHOWN.clear()
                _SHOWN[key] = found
        return found


def docs_version(config: str) -> tuple[str, int, str] | None:
    """(release, line, quote) of the GPU Operator documentation's version in repo.toml; None without one."""
    inside = False
    found = None
    for number, line in enumerate(config.splitlines(), 1):
        if line.startswith("["):
            inside = line.strip() == _SECTION
            continue
        if not inside:
            continue
        full = _FULL.search(line)
        if full and line.lstrip().startswith("source_substitutions"):
            return full.group(1), number, full.group(0)
        plain = _PLAIN.match(line)
        if plain and found is None:
            value = plain.group(1)
            found = (value if value.count(".") == 2 else value + ".0", number, plain.group(0))
    return found


def _release(documented: str | None, day: dt.date, releases: list[dict]) -> str | None:
    """The later of the documented release and the newest release dated on or before `day`."""
    dated = [r["version"] for r in releases if r.get("date") and dt.date.fromisoformat(str(r["date"]["value"])) <= day]
    candidates = [v for v in (documented, max(dated, key=versions.key, default=None)) if v]
    return max(candidates, key=versions.key, default=None)


def card_names(card: dict) -> set[str]:
    """The names under which the support list may name the card (normalised)."""
    support = card.get("operator_support") or {}
    names = [support.get("listed_as"), *(s["name"] for s in card.get("systems", [])), *card.get("aliases", [])]
    return {normalise(n) for n in names if n}


def first_listed(git_dir: Path, data: dict) -> dict[str, dict | None]:
    """For every card the newest list names: its `since` fact (None where every known release lists it)."""
    from kb.drift.extractors import ExtractError, get

    extractor = get("platform-support")
    wanted = {cid: card_names(card) for cid, card in data["cards"].items()
              if (card.get("operator_support") or {}).get("listed", {}).get("value")}

    def named_in(page: str) -> dict | None:
        try:
            products = extractor.extract(page)["products"]
        except ExtractError:
            return None  # a version the extractor cannot read names nothing it can see
        return {normalise(p["name"]): p for p in products}

    return _first_naming(git_dir, data, wanted, named_in, "the first version of the page naming it")


def first_in_vgpu_list(git_dir: Path, data: dict) -> dict[str, dict | None]:
    """For every card whose KubeVirt vGPU support cites the platform-support page's device list: the first release
    whose list names it (the list itself first appears with v24.3.0), as a fact; None where every known release's
    list names it. A card's names are its list name, name, short name, aliases and systems; an entry's excluded names count
    as not named."""
    from kb.drift.comparisons.platform import list_names
    from kb.drift.extractors import ExtractError
    from kb.drift.extractors.platform_support import kubevirt_vgpu

    wanted = {}
    for cid, card in data["cards"].items():
        fact = (card.get("operator_support") or {}).get("kubevirt_vgpu") or {}
        if fact.get("value") is True and any(c["source"] == "gpu-operator-platform-support" for c in fact["cite"]):
            wanted[cid] = {normalise(n) for n in list_names(card)}

    def named_in(page: str) -> dict | None:
        try:
            entries = kubevirt_vgpu(page.splitlines())
        except ExtractError:
            return None  # no device list in this version
        named = {}
        for entry in entries:
            excluded = {normalise(x) for x in entry["excluded"]}
            for key in entry["normalised"]:
                if key not in excluded:
                    named.setdefault(key, {"line": entry["line"], "quote": entry["entry"]})
        return named

    return _first_naming(git_dir, data, wanted, named_in,
                         "the first version of the page whose KubeVirt vGPU device list names it")


def _first_naming(git_dir: Path, data: dict, wanted: dict[str, set[str]], named_in, what: str) -> dict[str, dict | None]:
    """Walk the page's history from the oldest version: for each card of `wanted` ({id: normalised names}) the fact
    of the first version whose `named_in(page)` ({normalised name: {line, quote}}, None for an unreadable version)
    holds one of its names; None where that version is older than every release we know."""
    repo = DocsRepository(git_dir)
    releases = data["releases"]["gpu-operator"]["releases"]
    oldest = min((r["version"] for r in releases), key=versions.key)
    found: dict[str, dict | None] = {}
    for sha, day in repo.commits():
        if len(found) == len(wanted):
            break
        named = named_in(repo.show(sha, PAGE))
        if not named:
            continue
        new = [cid for cid, names in wanted.items() if cid not in found and names & set(named)]
        if not new:
            continue
        config = docs_version(repo.show(sha, CONFIG))
        release = _release(config[0] if config else None, day, releases)
        for cid in new:
            if release is None or versions.key(release) < versions.key(oldest):
                found[cid] = None
            else:
                found[cid] = _fact(sha, day, named[sorted(wanted[cid] & set(named))[0]], config, release, what)
    return found


def _fact(sha: str, day: dt.date, product: dict, config: tuple | None, release: str,
          what: str = "the first version of the page naming it") -> dict:
    from kb.wording import date_text

    when = date_text(day, "en")
    cite = [{"source": HISTORY,
             "section": f"platform-support.rst at commit {sha[:7]} ({when}), {what}",
             "page": f"blob/{sha}/{PAGE}#L{product['line']}", "quote": product["quote"]}]
    if config is not None:
        version, line, quote = config
        later = "" if version == release else f"; release {release} was already out that day"
        cite.append({"source": HISTORY,
                     "section": f"repo.toml at commit {sha[:7]}: the documentation's GPU Operator version, "
                                f"{version}{later}",
                     "page": f"blob/{sha}/{CONFIG}#L{line}", "quote": quote})
    fact = {"value": release, "cite": cite}
    if config is None or config[0] != release:
        fact["inferred"] = {
            "en": f"The page named the card first on {when}, when GPU Operator {release} was already released.",
            "de": f"Die Seite nannte die Karte zuerst am {date_text(day, 'de')}, als GPU Operator {release} "
                  f"schon erschienen war."}
    return fact


def set_since(text: str, fact: dict | None, key: str = "since", after: tuple[str, ...] = ("listed_as", "listed")) -> str:
    """The card file `text` with `operator_support.<key>` replaced by `fact` (removed for None): the block is
    written after the first key of `after` the file has; every other line is kept as it was."""
    import yaml

    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == "operator_support:"), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i].startswith(" ")),
               len(lines))
    keys = [i for i in range(start + 1, end) if re.match(r"^  [a-z_]+:", lines[i])]

    def block(i: int) -> range:
        nxt = next((k for k in keys if k > i), end)
        return range(i, nxt)

    old = next((i for i in keys if lines[i].startswith(f"  {key}:")), None)
    if old is not None:
        gone = block(old)
        lines = lines[:gone.start] + lines[gone.stop:]
        return set_since("".join(lines), fact, key, after)
    if fact is None:
        return text
    place = next(i for name in after for i in keys if lines[i].startswith(f"  {name}:"))
    at = block(place).stop
    dumped = yaml.safe_dump({key: fact}, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    dumped = re.sub(r"(?m)^(  value: )'?(\d+(?:\.\d+)+)'?$", r'\1"\2"', dumped)  # versions are quoted strings
    new = "".join("  " + line + "\n" for line in dumped.splitlines())
    return "".join(lines[:at]) + new + "".join(lines[at:])


def first_in_code(git_dir: Path, data: dict) -> dict[str, dict | None]:
    """For every card whose KubeVirt vGPU support cites the operator's code (a file and line at a release tag,
    e.g. the vGPU Device Manager's default configuration): the first release whose tag has the quoted line in
    that file (`git_dir`: a clone of NVIDIA/gpu-operator), as a fact; None where the oldest known release has it."""
    run = lambda *a: subprocess.run(["git", "--git-dir", str(git_dir), *a], capture_output=True, text=True)  # noqa: E731
    releases = sorted((r["version"] for r in data["releases"]["gpu-operator"]["releases"]), key=versions.key)
    found: dict[str, dict | None] = {}
    for cid, card in data["cards"].items():
        fact = (card.get("operator_support") or {}).get("kubevirt_vgpu") or {}
        cite = next((c for c in fact.get("cite", []) if c["source"] == "gpu-operator-code" and c.get("page")), None)
        if fact.get("value") is not True or cite is None:
            continue
        path = cite["page"].removeprefix("blob/").partition("/")[2].partition("#")[0]
        for release in releases:
            shown = run("show", f"v{release}:{path}")
            lines = shown.stdout.splitlines() if shown.returncode == 0 else []
            number = next((i for i, line in enumerate(lines, 1) if cite["quote"] in line), None)
            if number is None:
                continue
            found[cid] = None if release == releases[0] else {"value": release, "cite": [{
                "source": "gpu-operator-code",
                "section": f"{path}, line {number} at tag v{release}, the first release whose file has it",
                "page": f"blob/v{release}/{path}#L{number}", "quote": cite["quote"]}]}
            break
    return found


#: where each imported part of `operator_support` goes in a card file: after the first of these keys it has
PLACES = {"since": ("listed_as", "listed"), "kubevirt_vgpu_since": ("kubevirt_vgpu", "listed_as", "listed")}


def set_support(text: str, support: dict) -> str:
    """The card file `text` with each part of `support` (since, kubevirt_vgpu_since) set (None: removed)."""
    for key, fact in support.items():
        text = set_since(text, fact, key, PLACES[key])
    return text
