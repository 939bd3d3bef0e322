"""From the fired `check` rules to what a person reads: located, cited, and only what matters.

1. `locate`: a finding is reported where its rule's first fact was written; a rule that names a property in
   `then.details.at` is reported where that property stands (e.g. a node's label) when it is known. The
   citations of an answer the fact carries (a node's `ask mig` answer) join the rule's own.
2. `fold`: a finding whose rule says `details.fatal` means the object does not work at all (the device plugin
   refuses a configuration). Everything else said about that object, and about the objects that depend on it
   (the nodes selecting that configuration), follows from it: those findings are folded into it (`folded`).
3. `group`: findings of one rule that differ only in the name of the thing they speak about (20,000 pods of
   one Job requesting a resource nobody advertises) are shown once, with the others counted and named
   (`same_for`). Informational notes are thereby shown once per kind of object and situation.
4. `--quiet` drops informational notes.
"""

from __future__ import annotations

import itertools
import re

from kb.check.facts import FactSet
from kb.engine.syntax import SEVERITIES  # noqa: F401 - the one definition; kb.check.run imports it from here
from kb.text import Text
#: how many of the other objects a grouped finding names
NAMED = 5


class Finding(dict):
    """A finding as JSON-able dict, with the fact it came from kept aside (not serialised)."""

    __slots__ = ("fact", "obj", "deps", "group_key", "fatal", "folds")


def locate(conclusions: list[dict], facts: FactSet, lang: str, fixes=None) -> list[Finding]:
    out: list[Finding] = []
    seen: set = set()
    for c in conclusions:
        subject = c["facts"][0] if c["facts"] else {}
        details = c.get("details") or {}
        where = facts.location(subject, details.get("at"))  # a Where: its line is looked up once shown
        message = c["text"][lang]
        key = (c["rule"], where["file"], where["document"], where["path"], message)
        if key in seen:
            continue
        seen.add(key)
        ref = subject.get("ref", "")
        extra = facts.extra.get(ref, {})
        cites = list(c["cites"])
        if details.get("answer"):  # the rule reports an answer the fact carries: its citations too
            for cite in extra.get("citations", []):
                if cite not in cites:
                    cites.append(cite)
        f = Finding(rule=c["rule"], severity=c["severity"], title=c["title"][lang], message=message, where=where,
                    citations=cites)
        if c.get("build"):
            f["build"] = c["build"]
        if fixes is not None and c["severity"] != "info":
            from kb.check.fixes import fix

            found = fix(c["rule"], subject, fixes)
            if found is not None:
                f["fix"] = found(lang)
        more = extra.get("problems")
        if more:
            f["more"] = [Text.of(t)(lang) for t in more]
        f.fact = subject
        f.obj = facts.objects.get(ref)
        f.deps = facts.depends.get(ref, ())
        f.fatal = bool(details.get("fatal"))
        f.folds = details.get("folds")
        ident = set(facts.identity.get(ref, ())) | {"ref"}
        if c["severity"] == "info":  # a note: the same words apart from the names are the same note
            f.group_key = (c["rule"], c["severity"], _masked(message, [subject.get(k) for k in ident]))
        else:
            f.group_key = (c["rule"], c["severity"],
                           tuple(sorted((k, repr(v)) for k, v in subject.items() if k not in ident)))
        out.append(f)
    return out


def _masked(message: str, names: list) -> str:
    """The message with the names of the object it speaks about taken out."""
    for name in sorted((str(n) for n in names if isinstance(n, str) and n), key=len, reverse=True):
        message = re.sub(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])", "\x00", message)
    return message


def _summary_line(f: Finding) -> dict:
    return {"rule": f["rule"], "severity": f["severity"], "message": f["message"], "where": f["where"]}


def fold(findings: list[Finding]) -> list[Finding]:
    """Findings about an object that does not work (a `fatal` finding) and about the objects that depend on it
    go into that finding's `folded` list; fatal findings themselves stay. A rule whose `details.folds` names
    another rule and the properties that join them ({rule, join: {mine: theirs}}) takes that rule's findings about
    the same thing: one mistake, said once (a ClusterPolicy naming a ConfigMap that is not there, beside the
    ConfigMap nobody names)."""
    findings = _fold_named(findings)
    broken: dict = {}
    for f in findings:
        if f.fatal and f.obj and f.obj not in broken:
            broken[f.obj] = f
    if not broken:
        return findings
    out = []
    for f in findings:
        home = None
        if f.obj in broken and not f.fatal and f["severity"] != "error":
            home = broken[f.obj]
        elif not f.fatal:
            home = next((broken[d] for d in f.deps if d in broken), None)
        if home is not None and home is not f:
            home.setdefault("folded", []).append(_summary_line(f))
        else:
            out.append(f)
    return out


def _fold_named(findings: list[Finding]) -> list[Finding]:
    """`details.folds` by an index (linear in the findings: a dump has thousands)."""
    index: dict = {}
    for h in findings:
        if not h.folds:
            continue
        join = h.folds.get("join") or {}
        values = []
        for mine in join:
            v = (h.fact or {}).get(mine)
            if v is None:
                break
            values.append({v, *(v.split(", ") if isinstance(v, str) else ())})
        else:
            for combo in itertools.product(*values):
                index.setdefault((h.folds.get("rule"), tuple(join.values()), combo), h)
    if not index:
        return findings
    specs: dict = {}
    for rule, theirs, _ in index:
        specs.setdefault(rule, set()).add(theirs)
    out = []
    for f in findings:
        home = next((h for theirs in specs.get(f["rule"], ()) for h in [index.get(
            (f["rule"], theirs, tuple((f.fact or {}).get(t) for t in theirs)))] if h is not None and h is not f), None)
        if home is not None:
            home.setdefault("folded", []).append(_summary_line(f))
            # the home says what the folded finding said: with its sources, and as fatal as it was
            home["citations"] += [c for c in f["citations"] if c not in home["citations"]]
            home.fatal = home.fatal or f.fatal
        else:
            out.append(f)
    return out


def _name(f: Finding) -> str:
    fact = f.fact or {}
    for key in ("workload", "name", "config", "layout", "cluster"):
        if fact.get(key):
            ns = fact.get("namespace")
            return f"{ns}/{fact[key]}" if key == "workload" and ns else str(fact[key])
    return f["where"]["path"]


def group(findings: list[Finding]) -> list[Finding]:
    """One finding per (rule, severity, facts apart from what names the object); the others counted."""
    firsts: dict = {}
    out = []
    for f in findings:
        home = firsts.get(f.group_key)
        if home is None:
            firsts[f.group_key] = f
            out.append(f)
            continue
        same = home.setdefault("same_for", {"count": 0, "names": [], "where": []})
        same["count"] += 1
        if len(same["names"]) < NAMED:
            same["names"].append(_name(f))
            same["where"].append(f["where"])
        for folded in f.get("folded", []):
            if len(home.setdefault("folded", [])) < 50:
                home["folded"].append(folded)
    return out


def resolve(findings: list[Finding]) -> list[Finding]:
    """The locations of the findings shown, as plain dicts (lines looked up now, for these only)."""
    for f in findings:
        f["where"] = _plain(f["where"])
        same = f.get("same_for")
        if same:
            same["where"] = [_plain(w) for w in same["where"]]
        for g in f.get("folded", []):
            g["where"] = _plain(g["where"])
    return findings


def _plain(where) -> dict:
    d = where.as_dict() if hasattr(where, "as_dict") else dict(where)
    out = {"file": d.get("file", ""), "document": d.get("document", 0), "path": d.get("path", ""), "line": d.get("line")}
    if d.get("patches"):  # a value a Kustomize patch wrote: the object it patches
        out["patches"] = dict(d["patches"])
    return out


def order(findings: list[dict], files: list[str]) -> list[dict]:
    """By input file (in the order given), most severe first, then document, line and rule."""
    rank = {f: i for i, f in enumerate(files)}
    return sorted(findings, key=lambda f: (rank.get(f["where"]["file"], len(rank)), SEVERITIES.index(f["severity"]),
                                           f["where"]["document"], f["where"]["line"] or 0, f["rule"],
                                           f["where"]["path"], f["message"]))


def findings(runs: list[tuple], lang: str, files: list[str], *, quiet: bool = False) -> list[dict]:
    """The findings of one or more runs (one per `kustomize build`: (conclusions, facts)). A finding several
    builds make is shown once, naming the builds (`builds`)."""
    located: list[Finding] = []
    index: dict = {}
    for run in runs:
        conclusions, facts = run[0], run[1]
        for f in fold(locate(conclusions, facts, lang, run[2] if len(run) > 2 else None)):
            key = (f["rule"], f["where"]["file"], f["where"]["document"], f["where"]["path"], f["message"])
            build = f.pop("build", None)
            if key in index:
                if build:
                    index[key].setdefault("builds", []).append(build)
                continue
            if build:
                f["builds"] = [build]
            index[key] = f
            located.append(f)
    if len(runs) > 1:  # a finding every build makes needs no build named
        for f in located:
            if len(f.get("builds", [])) == len(runs):
                del f["builds"]
    shown = order(resolve(group(located)), files)
    if quiet:
        shown = [f for f in shown if f["severity"] != "info"]
    return shown
