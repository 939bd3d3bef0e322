"""What changed from one data version to the next: the changes page and the Atom feeds (feed.xml, en/feed.xml).

Built from the catalog's history in git: every commit that set a new `data_version` in catalog/sources.yaml
starts a data version; a version's facts are the catalog at the last commit before the next one (the newest:
the catalog being built). Between two versions it lists the facts added, changed and removed (every cited
value of every file, list items by their id, name, key or version), and the answers whose verdict changed: as
recorded in catalog/verdict-changes.yaml when the data version was set (`record`, run by scripts/record-verdicts;
tests/test_verdict_record.py keeps the newest entry equal to the engine's), else — for the newest step only — the
engine on both catalogs (the older one's every answer: ≈ 3 s CPU of a build). Without git or history the page says
so and shows the current version alone.
"""

from __future__ import annotations

import hashlib
import html
import json
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from kb.catalog.yamlsafe import already_read, safe_load
from kb.site.md import code, esc
from kb.wording import dash, date_text
from kb.text import Text

ROOT = Path(__file__).resolve().parent.parent.parent
LIMIT = 12  # data versions shown on the page and in the feeds
#: the catalog's record of the answers whose verdict changed with each data version (a file of catalog/, not read
#: by the loader: kb.catalog.inputs.CATALOG_OTHER)
RECORD = "verdict-changes.yaml"


@dataclass
class Version:
    version: str
    date: str  # ISO date of the commit that set it ('' for the catalog being built, not committed yet)
    commit: str | None  # the last commit of this version (None: the catalog being built)
    added: list[tuple[str, str]] = field(default_factory=list)  # (fact, value)
    changed: list[tuple[str, str, str]] = field(default_factory=list)  # (fact, old, new)
    removed: list[tuple[str, str]] = field(default_factory=list)
    verdicts: list[tuple[str, dict, str, str]] | None = None  # (question, inputs, old, new); None: not computed
    first: bool = False


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def _key(item, i: int) -> str:
    if isinstance(item, dict):
        for k in ("id", "name", "key", "version", "driver", "source"):
            if isinstance(item.get(k), (str, int, float)):
                return str(item[k])
    return str(i)


def flatten(node, path: str = "") -> dict[str, str]:
    """Every cited value of a catalog file: 'mig.profiles[1g.18gb]' → its value as text (list items by key)."""
    out: dict[str, str] = {}
    if isinstance(node, dict):
        if "cite" in node:
            value = node.get("value", node.get("text", {k: v for k, v in node.items() if k not in ("cite", "note")}))
            out[path] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        for k, v in node.items():
            if k not in ("cite", "value", "disputed_by"):
                out.update(flatten(v, f"{path}.{k}" if path else str(k)))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            out.update(flatten(item, f"{path}[{_key(item, i)}]"))
    return out


def _blob_id(raw: bytes) -> str:
    """The id git gives a file of these bytes (`git hash-object`)."""
    return hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest()


def _file_facts(raw: bytes) -> dict[str, str] | None:
    """`flatten` of one catalog file's bytes; None where they are not UTF-8 YAML."""
    try:
        text = raw.decode("utf-8")
        # (the catalog being built was read by its compilation in this process a moment ago: the same values)
        data = already_read(text)
        return flatten(safe_load(text) if data is None else data)
    except (UnicodeDecodeError, yaml.YAMLError):
        return None


def _assembled(files: dict[str, str], memo: dict[str, dict | None]) -> dict[str, str]:
    """'cards/l4 mig.status' → value, from {path below catalog/: blob id} and the facts of each blob."""
    out: dict[str, str] = {}
    for rel in sorted(files):
        facts = memo.get(files[rel])
        if facts is not None and not rel.startswith("schema/"):
            entity = rel.removesuffix(".yaml")
            out.update({f"{entity} {p}": v for p, v in facts.items()})
    return out


def catalog_facts(folder: Path, memo: dict[str, dict | None] | None = None) -> dict[str, str]:
    """'cards/l4 mig.status' → value, for every YAML file of a catalog folder. `memo` (blob id → the file's facts)
    keeps each file's facts for `facts_at`, which parses only the files of a commit that differ from these."""
    memo = {} if memo is None else memo
    files: dict[str, str] = {}
    for path in sorted(folder.rglob("*.yaml")):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith("schema/"):
            continue
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        files[rel] = blob = _blob_id(raw)
        if blob not in memo:
            memo[blob] = _file_facts(raw)
    return _assembled(files, memo)


def facts_at(commit: str, memo: dict[str, dict | None]) -> dict[str, str] | None:
    """`catalog_facts` of catalog/ at `commit`, read from git's objects: only the files whose content `memo` (blob id
    → facts, filled here) does not hold yet are parsed — a data version changes a few files, and the catalog being
    built holds most of the older versions' files as they were. None where git cannot list that commit's catalog."""
    listing = _git("ls-tree", "-r", "-z", commit, "--", "catalog/")
    if listing is None:
        return None
    files: dict[str, str] = {}
    for entry in listing.split("\0"):
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob" and path.endswith(".yaml"):
            files[path.removeprefix("catalog/")] = parts[2]
    missing = sorted({b for b in files.values() if b not in memo})
    if missing:
        try:
            out = subprocess.run(["git", "-C", str(ROOT), "cat-file", "--batch"], capture_output=True, timeout=60,
                                 input="".join(f"{b}\n" for b in missing).encode())
        except (OSError, subprocess.SubprocessError):
            return None
        if out.returncode != 0:
            return None
        raw, at = out.stdout, 0
        for blob in missing:  # "<id> blob <size>\n<bytes>\n" each, in the order asked ("<id> missing\n": none)
            end = raw.index(b"\n", at)
            head = raw[at:end].split()
            at = end + 1
            if len(head) == 3 and head[1] == b"blob":
                size = int(head[2])
                memo[blob] = _file_facts(raw[at:at + size])
                at += size + 1
            else:
                memo[blob] = None
    return _assembled(files, memo)


#: HEAD's commit → what `_versions` found in its history (a commit's history does not change): the site build asks
#: twice (`compares_verdicts`, then `history`), each a `git log -G` over the whole history and a `git show` per version
_VERSIONS: dict[str, list] = {}


def _versions() -> list[tuple[str, str, str]] | None:
    """(commit, date, data_version) of every commit that set a data version, oldest first; None without git or in
    a shallow clone (its oldest commit would seem to set the data version it merely has: a history that is not)."""
    asked = (_git("rev-parse", "--is-shallow-repository", "HEAD") or "").split()
    if asked[:1] == ["true"]:
        return None
    head = asked[1] if len(asked) == 2 else ""
    if head in _VERSIONS:
        return list(_VERSIONS[head])
    log = _git("log", "--reverse", "--format=%H %cs", "-G^data_version:", "--", "catalog/sources.yaml")
    if log is None:
        return None
    out = []
    for line in log.splitlines():
        commit, date = line.split()
        text = _git("show", f"{commit}:catalog/sources.yaml") or ""
        version = (safe_load(text) or {}).get("data_version") if text else None
        if version and (not out or out[-1][2] != str(version)):
            out.append((commit, date, str(version)))
    if head:
        _VERSIONS[head] = list(out)
    return out


def _last_commit_before(commit: str | None) -> str | None:
    """The commit just before `commit` (the last one of the version before it)."""
    out = _git("rev-parse", f"{commit}^") if commit else None
    return out.strip() if out else None


def _extract(commit: str, into: Path) -> Path | None:
    """catalog/ at `commit`, written into `into` (git archive); None where git cannot."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "catalog"], capture_output=True, timeout=60)
        if archive.returncode != 0:
            return None
        into.mkdir(parents=True, exist_ok=True)
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return into / "catalog"


def _diff(entry: Version, old: dict[str, str], new: dict[str, str]) -> None:
    entry.added = [(k, new[k]) for k in sorted(set(new) - set(old))]
    entry.removed = [(k, old[k]) for k in sorted(set(old) - set(new))]
    entry.changed = [(k, old[k], new[k]) for k in sorted(set(old) & set(new)) if old[k] != new[k]]


def _verdicts(old_catalog: Path, answers: list[dict]) -> list[tuple[str, dict, str, str]] | None:
    """Answers (default inputs) whose verdict differs between the old catalog and the new answers; None where the
    old catalog cannot be compiled with today's code."""
    from kb.catalog.compiled import compile_catalog
    from kb.questions import compute_all

    try:
        old = compute_all(compile_catalog(old_catalog))
    except Exception:  # noqa: BLE001 - an old catalog in an older schema: the verdicts are not compared
        return None

    def key(a):
        return (a["question"], tuple(sorted((k, str(v)) for k, v in a["inputs"].items())))
    before = {key(a): a["verdict"] for a in old}
    out = []
    for a in answers:
        k = key(a)
        if k in before and before[k] != a["verdict"]:
            out.append((a["question"], a["inputs"], before[k], a["verdict"]))
    return sorted(out, key=_order)


def verdicts_since(commit: str, answers: list[dict]) -> list[tuple[str, dict, str, str]] | None:
    """The answers whose verdict differs between the catalog at `commit` (read by `git archive`) and `answers`; None
    where git cannot give that catalog or today's code cannot evaluate it."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = _extract(commit, Path(tmp) / "catalog-then")
        return _verdicts(folder, answers) if folder else None


def _order(item: tuple) -> tuple:
    question, inputs, old, new = item
    return question, json.dumps(inputs, sort_keys=True, default=str), old, new


def newest_step(data: dict) -> tuple[str, str, str] | None:
    """(data version, the one before it, the last commit of the one before) of the newest step `history` lists,
    where git holds a data version before the catalog being built's; else None."""
    found = _versions()
    steps = _steps(found, data["data_version"]) if found else []
    if len(steps) < 2:
        return None
    end = _last_commit_before(steps[-1][0]) if steps[-1][0] else (_git("rev-parse", "HEAD") or "").strip()
    return (steps[-1][2], steps[-2][2], end) if end else None


def _record_entries(catalog: Path) -> list:
    try:
        entries = safe_load((catalog / RECORD).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return []
    return entries if isinstance(entries, list) else []


def recorded(catalog: Path, version: str, before: str) -> list[tuple[str, dict, str, str]] | None:
    """The answers whose verdict changed from data version `before` to `version`, as the catalog's record has
    them; None where it has no such entry (or the file is not one)."""
    for entry in _record_entries(catalog):
        if isinstance(entry, dict) and (str(entry.get("data_version")), str(entry.get("compared_with"))) == \
                (version, before):
            try:
                return sorted(((str(a["question"]), dict(a["inputs"]), str(a["before"]), str(a["after"]))
                               for a in entry.get("answers") or []), key=_order)
            except (KeyError, TypeError, ValueError):
                return None
    return None


_RECORD_HEAD = """\
# The answers whose verdict changed with each data version (newest first), as the engine gave them when the data
# version was set: the changes page and the feeds list them. Written by scripts/record-verdicts, never by hand;
# tests/test_verdict_record.py fails where the newest entry is not what the engine says today.
# - data_version: the data version (catalog/sources.yaml);
# - compared_with: the data version before it;
# - answers: every answer of `gpukb export answers` (each question's default inputs) whose verdict differs between
#   the two catalogs: the question, its inputs, the verdict before and after.
"""


class _Dumper(yaml.SafeDumper):
    """Versions quoted ("2026.12.02", "1.30"), as every version in the catalog is."""


_Dumper.add_representer(str, lambda dumper, value: dumper.represent_scalar(
    "tag:yaml.org,2002:str", value, style='"' if value[:1].isdigit() else None))


def record(data: dict, catalog: Path, answers: list[dict]) -> tuple[str, str, list] | None:
    """Compute the newest step's verdict changes (the older catalog's every answer against `answers`, the catalog
    being built's) and write them into the catalog's record, replacing an entry of the same data version; returns
    (data version, the one before, the changes), or None where there is no older data version to compare with or
    its catalog cannot be evaluated by today's code (nothing written)."""
    step = newest_step(data)
    if step is None:
        return None
    version, before, end = step
    found = verdicts_since(end, answers)
    if found is None:
        return None
    entry = {"data_version": version, "compared_with": before,
             "answers": [{"question": q, "inputs": inputs, "before": old, "after": new}
                         for q, inputs, old, new in found]}
    kept = [e for e in _record_entries(catalog) if not (isinstance(e, dict) and str(e.get("data_version")) == version)]
    text = yaml.dump([entry, *kept], Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
    (catalog / RECORD).write_text(_RECORD_HEAD + text, encoding="utf-8")
    return version, before, found


def unversioned(data: dict, catalog: Path) -> list[str] | None:
    """The facts of `catalog` (the checkout's catalog/, `data` compiled from it) that differ from the catalog at the
    commit that set its data version: a fact changed without raising the data version (which the changes page and
    the feeds would then list under no version). [] where none did or the data version is new (not committed
    yet); None without git's history."""
    found = _versions()
    if not found:
        return None
    commit, _date, version = found[-1]
    if version != str(data["data_version"]):
        return []
    memo: dict[str, dict | None] = {}
    new = catalog_facts(catalog, memo)
    old = facts_at(commit, memo)
    if old is None:
        return None
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))


def _steps(found: list[tuple[str, str, str]], current: str) -> list[tuple[str | None, str, str]]:
    """The data versions `history` lists: those git has (`_versions`), the catalog being built's own appended where
    it is new (no commit yet), the newest LIMIT + 1."""
    steps = list(found)
    if steps[-1][2] != current:
        steps.append((None, "", current))
    return steps[-(LIMIT + 1):]


def compares_verdicts(data: dict, catalog: Path) -> bool:
    """Whether `history` computes verdicts of an older data version (and so asks for every answer): where git
    holds a data version before the catalog being built's and the catalog's record has no entry for that step.
    The site build then computes the whole matrix in its own process (kb/docs_hooks.py), not a part of it there
    and the rest again in the JSON API's."""
    step = newest_step(data)
    return step is not None and recorded(catalog, step[0], step[1]) is None


def ahead(catalog: Path) -> dict:
    """What a site build needs of the catalog's history, computed before the catalog is compiled (kb.docs_hooks forks
    it at the start of a build from nothing, on the CPU the compilation leaves idle) for the data version
    catalog/sources.yaml names: {"data_version": it, "compares": `compares_verdicts`, "versions": `history`'s versions
    where it does not compare verdicts (the engine's answers are not there yet), else None}."""
    version = str((safe_load((catalog / "sources.yaml").read_text(encoding="utf-8")) or {}).get("data_version"))
    data = {"data_version": version}
    compares = compares_verdicts(data, catalog)

    def answers():  # (history asks for them only where the newest step compares verdicts: never here)
        raise RuntimeError("the verdicts of the newest step need the engine's answers")
    return {"data_version": version, "compares": compares, "versions": None if compares else history(data, catalog, answers)}


def history(data: dict, catalog: Path, answers) -> list[Version] | None:
    """The data versions, newest first (at most LIMIT), with what changed; None without git history. `data` and
    `catalog` are the catalog being built, `answers` a function giving its engine answers (all of them; called
    only where the newest step compares verdicts with an older data version)."""
    found = _versions()
    if not found:
        return None
    steps = _steps(found, data["data_version"])
    out: list[Version] = []
    facts_of: dict[int, dict | None] = {}
    memo: dict[str, dict | None] = {}  # blob id → its facts: each content parsed once (`facts_at`)

    def facts(i: int) -> dict[str, str] | None:
        if i not in facts_of:
            nxt = steps[i + 1][0] if i + 1 < len(steps) else None
            if i == len(steps) - 1:
                facts_of[i] = catalog_facts(catalog, memo)
            else:
                facts_of[i] = facts_at(f"{nxt}^", memo) if nxt else None  # (the last commit before the next)
        return facts_of[i]

    for i in range(len(steps) - 1, -1, -1):
        commit, date, version = steps[i]
        entry = Version(version, date, commit)
        if i == 0 and len(steps) < LIMIT + 1 and steps[0][0] == found[0][0]:
            entry.first = True
            entry.added = sorted(facts(i).items()) if facts(i) else []
        elif i > 0:
            old, new = facts(i - 1), facts(i)
            if old is not None and new is not None:
                _diff(entry, old, new)
            entry.verdicts = recorded(catalog, version, steps[i - 1][2])
            if entry.verdicts is None and i == len(steps) - 1:
                step = newest_step(data)
                entry.verdicts = verdicts_since(step[2], answers()) if step else None
        out.append(entry)
    return out


# --- the page and the feeds --------------------------------------------------------------------------------

def _count(n: int, what: Text, lang: str) -> str:
    return f"{n} {what(lang)}"


def _lines(items, fmt, lang: str, limit: int = 40) -> list[str]:
    rows = [f"    - {fmt(i)}" for i in items[:limit]]
    if len(items) > limit:
        rows.append("    - " + Text("… and {n} more", "… und {n} weitere").format(n=len(items) - limit)(lang))
    return rows


def _name(ctx, fact: str) -> str:
    """'cards/h200-nvl mig.status' → 'H200 NVL · mig.status': the card, method or document by its name."""
    entity, _, path = fact.partition(" ")
    kind, _, ident = entity.partition("/")
    d = ctx.data
    if kind == "cards" and ident in d["cards"]:
        name = d["cards"][ident]["short_name"]
    elif kind == "methods" and ident in d["methods"]:
        name = d["methods"][ident]["name"][ctx.lang]
    elif kind == "releases":
        name = {"gpu-operator": "GPU Operator", "device-plugin": Text("device plugin", "Device-Plugin")(ctx.lang),
                "mig-manager": "MIG Manager", "dra-driver": Text("DRA driver", "DRA-Treiber")(ctx.lang)}.get(ident, ident)
    elif kind == "sources":
        name = Text("Sources", "Quellen")(ctx.lang)
    else:
        name = entity
    return f"{esc(name)} · {_field(ctx, path)}" if path else esc(name)


def _field(ctx, path: str) -> str:
    """A fact's field in the reader's words where we have them ('mig.status' → 'MIG-Status', 'mig.profiles[3g.40gb]'
    → 'MIG-Profil 3g.40gb'); a field without words stays as written, in code."""
    import re

    from kb.render.labels import FIELD_LABELS

    key = re.sub(r"\[[^\]]*\]", "", path)
    if key not in FIELD_LABELS:
        return code(path)
    keys = [k for k in re.findall(r"\[([^\]]*)\]", path) if not k.isdigit()]
    return esc(" ".join([FIELD_LABELS[key](ctx.lang), *keys]))


def _value(ctx, value: str, limit: int) -> str:
    """A changed value in words where it is one of ours (a status, yes/no), else as written, in code."""
    from kb.questions import words

    if value in ("true", "false"):
        return esc(words.TRUTH[value == "true"][ctx.lang])
    if value in words.VALUES:
        return esc(words.VALUES[value][ctx.lang])
    if value.startswith("["):  # a list of plain values (PCI ids, names): each in code, not the list's JSON
        try:
            items = json.loads(value)
        except ValueError:
            items = None
        if isinstance(items, list) and items and all(isinstance(i, (str, int, float)) for i in items):
            return ", ".join(code(str(i)[:limit]) for i in items)
    return code(value[:limit])


def changes_page(ctx, versions: list[Version] | None) -> str:
    """The changes page: one section per data version, newest first."""
    out = [ctx.front(Text("What changed in the data: facts added, changed and removed and answers with another "
                       "verdict, per data version.", "Was sich an den Daten geändert hat: neue, geänderte und entfernte Angaben und Antworten "
                       "mit anderem Urteil, je Datenversion.")(ctx.lang)),
           f"# {Text('What changed', 'Was sich geändert hat')(ctx.lang)}", "", ctx.header([], ("catalog/",)), "",
           Text("Every data version with what changed since the one before. The same entries are a feed: "
             "<a href=\"../feed.xml\" type=\"application/atom+xml\">feed.xml</a> (Atom).", "Jede Datenversion mit dem, was sich gegenüber der vorigen geändert hat. Dieselben Einträge gibt es als "
             "Feed: <a href=\"../feed.xml\" type=\"application/atom+xml\">feed.xml</a> (Atom).")(ctx.lang), ""]
    if not versions:
        out += [Text(f"No version history is available for this copy; it shows data version {ctx.data['data_version']}.", f"Für diese Ausgabe ist keine Versionsgeschichte verfügbar; sie zeigt die Datenversion "
                  f"{ctx.data['data_version']}.")(ctx.lang), ""]
        return "\n".join(out).rstrip("\n") + "\n"
    for v in versions:
        when = f" ({date_text(str(v.date)[:10], ctx.lang)})" if v.date else ""
        out += [f"## {Text('Data version', 'Datenversion')(ctx.lang)} {esc(v.version)}{when} {{ #v{v.version.replace('.', '-')} }}", ""]
        if v.first:
            out += [Text(f"The first published data version, with {len(v.added)} cited facts.", f"Die erste veröffentlichte Datenversion, mit {len(v.added)} belegten Angaben.")(ctx.lang), ""]
            continue
        summary = ", ".join([_count(len(v.added), Text("added", "neu"), ctx.lang),
                             _count(len(v.changed), Text("changed", "geändert"), ctx.lang),
                             _count(len(v.removed), Text("removed", "entfernt"), ctx.lang)])
        out += [f"{Text('Facts', 'Angaben')(ctx.lang)}: {summary}.", ""]
        for title, items, fmt in (
                (Text("Added", "Neu")(ctx.lang), v.added, lambda i: f"{_name(ctx, i[0])}: {_value(ctx, i[1], 120)}"),
                (Text("Changed", "Geändert")(ctx.lang), v.changed,
                 lambda i: f"{_name(ctx, i[0])}: {_value(ctx, i[1], 80)} → {_value(ctx, i[2], 80)}"),
                (Text("Removed", "Entfernt")(ctx.lang), v.removed, lambda i: _name(ctx, i[0])),
        ):
            if items:
                out += [f'??? note "{title} ({len(items)})"', ""] + _lines(items, fmt, ctx.lang) + [""]
        if v.verdicts is None and v is versions[0]:
            out += [Text("Answers with another verdict: not compared (the older data version cannot be evaluated by "
                      "today's program).", "Antworten mit anderem Urteil: nicht verglichen (die ältere Datenversion lässt sich mit dem "
                      "heutigen Programm nicht auswerten).")(ctx.lang), ""]
        elif v.verdicts is not None:
            out += [f"{Text('Answers with another verdict', 'Antworten mit anderem Urteil')(ctx.lang)}: {len(v.verdicts)}.", ""]
            if v.verdicts:
                out += [line[4:] for line in _lines(v.verdicts, lambda i: _verdict_line(ctx, *i), ctx.lang)] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def _verdict_line(ctx, question: str, inputs: dict, old: str, new: str) -> str:
    """'Kann die Karte MIG nutzen? — H200 NVL, GPU Operator 26.7.0: Ja → Bedingt'."""
    from kb.site.matrices import verdict_word
    from kb.site.rulesref import QUESTION

    asked = QUESTION.get(question, Text(question))(ctx.lang)
    card = ctx.data["cards"].get(inputs.get("card") or "", {}).get("short_name") or inputs.get("card")
    parts = [p for p in (card, inputs.get("operator") and f"GPU Operator {inputs['operator']}",
                         inputs.get("workload")) if p]
    return (f"{esc(asked)} {dash(ctx.lang)} {esc(', '.join(map(str, parts)))}: {verdict_word(old, ctx.lang)} → "
            f"{verdict_word(new, ctx.lang)}")


def feed(versions: list[Version] | None, data: dict, lang: str, site_url: str) -> str:
    """An Atom feed of the data versions (absolute links from the site's address)."""
    base = site_url.rstrip("/") + "/" + ("en/" if lang == "en" else "")
    page = base + "changes/"
    title = Text("GPU sharing in Kubernetes: data versions", "GPU-Sharing in Kubernetes: Datenversionen")(lang)
    entries = versions or [Version(data["data_version"], data["verified"], None, first=True)]
    updated = max((v.date or data["verified"]) for v in entries) + "T00:00:00Z"
    out = ['<?xml version="1.0" encoding="utf-8"?>', f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{lang}">',
           f"  <title>{html.escape(title)}</title>", f'  <link rel="alternate" href="{html.escape(page)}"/>',
           f'  <link rel="self" href="{html.escape(base + "feed.xml")}"/>', f"  <id>{html.escape(page)}</id>",
           f"  <updated>{updated}</updated>", "  <author><name>Eurokommerz</name></author>"]
    for v in entries:
        anchor = page + "#v" + v.version.replace(".", "-")
        if v.first:
            text = Text("First published data version, {n} cited facts.",
                        "Erste veröffentlichte Datenversion, {n} belegte Angaben.").format(n=len(v.added))(lang)
        else:
            text = Text("Facts: {a} added, {c} changed, {r} removed.", "Angaben: {a} neu, {c} geändert, {r} entfernt.") \
                .format(a=len(v.added), c=len(v.changed), r=len(v.removed))(lang)
            if v.verdicts is not None:
                text += Text(" Answers with another verdict: {n}.", " Antworten mit anderem Urteil: {n}.") \
                    .format(n=len(v.verdicts))(lang)
        name = Text("Data version ", "Datenversion ")(lang) + v.version
        out += ["  <entry>", f"    <title>{html.escape(name)}</title>", f'    <link rel="alternate" href="{html.escape(anchor)}"/>',
                f"    <id>{html.escape(anchor)}</id>", f"    <updated>{(v.date or data['verified'])}T00:00:00Z</updated>",
                f"    <summary>{html.escape(text)}</summary>", "  </entry>"]
    out.append("</feed>")
    return "\n".join(out) + "\n"
