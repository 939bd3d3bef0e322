"""The ask page's data: for every question of `gpukb ask`, the engine's answers as templates (kb.site.askbatch),
indexed the way the page looks them up.

One JSON file per card and language (the questions about one card: mig, methods, resource, recommend and the
card's part of strategy) and one file per language for what no card decides (dra, recommend without a card,
the node part of strategy, names, releases, words). The page loads the shared file first, then the files of
the cards a question names.

Versions a visitor types are mapped onto classes (kb.site.askbatch.intervals) whose lines are every version
the card's facts (for drivers) or the DRA method's facts (for Kubernetes) name.
"""

from __future__ import annotations

import json
import re

from kb import versions
from kb.answer import _detail_lines
from kb.engine.syntax import VERDICTS
from kb.questions import bulk, words
from kb.questions.resource import MIN_REPLICAS
from kb import jsonbytes
from kb.site.askbatch import TemplateAsker, intervals, padded, slot
from kb.site.forked import Tickets, run_forked
from kb.wording import date_text, nested, section_text, title_text

VERSION = re.compile(r"^(\d+(\.\d+){1,3}|\d{3,})$")  # "595": a driver branch the MIG guide names as minimum
LANGS = ("de", "en")


def version_strings(node) -> set[str]:
    """Every text in `node` (any depth) that is a version: the lines a typed version is compared with."""
    found: set[str] = set()
    if isinstance(node, str):
        if VERSION.match(node):
            found.add(node)
    elif isinstance(node, dict):
        for v in node.values():
            found |= version_strings(v)
    elif isinstance(node, list):
        for v in node:
            found |= version_strings(v)
    return found


def driver_lines(card: dict, data: dict | None = None) -> list[str]:
    """The versions a typed driver is compared with for this card: every version its MIG prerequisites and
    its operator support name (minimum drivers, disputed minimums, driver exceptions, list entries) and every
    version of a known issue (`data` given)."""
    found = version_strings([card["mig"], card["operator_support"]])
    if data is not None:
        found |= version_strings([f.get("known_issues", []) for f in data["releases"].values()])
    return sorted(found, key=versions.key)


def k8s_lines(data: dict) -> list[str]:
    """The DRA method's versions and each standalone DRA driver release's own requirements."""
    releases = [r.get("requirements") for r in data["releases"].get("dra-driver", {}).get("releases", [])
                if r.get("standalone")]
    return sorted(version_strings([data["methods"].get("dra", {}), releases]), key=versions.key)


_OPS: dict[str, str] = {}


def _op(op: str) -> str:
    """The sentinel of a GPU Operator release."""
    if op not in _OPS:
        _OPS[op] = padded(versions.key(op), 3)
    return _OPS[op]


def _real(key: tuple, lines: list[str]) -> str:
    """The version a class representative stands for, as the catalog writes it where it is one of its lines."""
    return next((line for line in lines if versions.key(line) == tuple(key)), ".".join(map(str, key)))


def _classes_json(classes: list[dict]) -> list[dict]:
    return [{k: list(v) for k, v in c.items() if k != "rep" and v is not None} for c in classes]


def resource_combos(profiles: list[str], replica_classes: list[dict]) -> list[dict]:
    """Every request `gpukb ask resource` accepts for a card, one per class of replica counts."""
    out = []
    for profile in [None, *profiles]:
        strategies = ["single", "mixed"] if profile else [None]
        for strategy in strategies:
            if profile:
                out.append({"profile": profile, "mig_strategy": strategy, "mode": "mig", "replicas": None,
                            "rename_by_default": False, "class": None})
            for mode in ("time-slicing", "mps"):
                for rename in (False, True):
                    for n, cls in enumerate(replica_classes):
                        out.append({"profile": profile, "mig_strategy": strategy, "mode": mode, "replicas": cls["reps"],
                                    "rename_by_default": rename, "class": n})
    return out


def combo_key(c: dict) -> str:
    """'1g.18gb|mixed|time-slicing|1|0' (profile, strategy, sharing, renameByDefault, class of the replica
    count) — the page builds the same key from the form."""
    return "|".join([c["profile"] or "", c["mig_strategy"] or "", c["mode"], "1" if c["rename_by_default"] else "0",
                     "" if c["class"] is None else str(c["class"])])


def replica_classes(rules: dict) -> list[dict]:
    """The classes of a typed replica count: between the numbers the resource rules compare it with, from the
    smallest count the question accepts."""
    from kb.site.askbatch import number_classes

    return number_classes(_constants(rules.get("resource", []), "replicas"), MIN_REPLICAS)


def derived(prop: str, count: int, fact: dict):
    """What a fact property is for a replica count, as kb.questions.resource.facts builds it — the page
    computes the same (`DERIVED` in docs/javascripts/ask.js); the build checks both agree with the facts."""
    how = _DERIVED.get(prop)
    return None if how is None else how(count, fact)


_DERIVED = {
    "replicas": lambda count, fact: count,
    "client_thread_percentage": lambda count, fact: 100 // count,
    "client_memory_gb": lambda count, fact: round(fact["memory_gb"] / count, 1),
}
derived.props = frozenset(_DERIVED)  # the only properties it computes (askbatch._counted)


def profile_groups(card: dict) -> list[list[str]]:
    """The card's MIG profiles without a variant, and those with one (-me, +me.all, +gfx): what the resource facts take
    from a profile of a group follows from its name (`profile_derived`), so one template with the profile as a slot
    stands for all of a group."""
    profiles = (card.get("mig") or {}).get("profiles", [])
    return [[p["name"] for p in profiles if bool(p.get("variant")) is variant] for variant in (False, True)]


def profile_derived(data: dict):
    """derive(prop, profile, fact): what a resource fact holds of a MIG profile, as the page computes it from the
    profile's name, its variant and the card's profile counts (`profileValues` in docs/javascripts/ask.js); None for a
    property that does not follow from the profile. (A variant's `mig_resource` is its own resource or its plain
    profile's, by the release's device plugin: the template names whichever it is, kb.site.askbatch `_varied`.)"""
    from kb.questions.resource import base_profile, mig_resource_name

    def derive(prop: str, profile: str, fact: dict):
        if prop == "profile":
            return profile
        if prop == "own_resource" or prop == "mig_resource" and "variant" not in fact:
            return mig_resource_name(profile)
        if prop in ("profile_count", "base_profile", "base_resource"):
            found = next((p for p in data["cards"][fact["card"]]["mig"]["profiles"] if p["name"] == profile), None)
            if found is None:
                return None
            if prop == "profile_count":
                return found["max_count"]
            return base_profile(found) if prop == "base_profile" else mig_resource_name(base_profile(found))
        return None
    derive.props = ("profile", "own_resource", "mig_resource", "profile_count", "base_profile", "base_resource")
    return derive


def _resource_templates(asker, cid: str, ops: list[str], combos: list[dict], sent, classes: bool = True) -> list[dict]:
    """One template per (release, combination); a class of replica counts is computed with two counts of it
    (kb.site.askbatch.TemplateAsker.templates): what follows from the count is filled in by the page, and so is what
    follows from a MIG profile where the profile is shared (time-slicing or MPS on a MIG instance; a MIG request
    without sharing cites the profile's own entry): the combinations of one group's profiles (`profile_groups`: the
    plain ones, the variants) that agree but for the profile are asked once, with the group's first profile and the
    profile a slot (`varied`; each profile's facts are checked to differ only so, `check_varied`). With `classes`,
    one request per class of what a resource rule that may fire for it can read (`by_facts`: a variant profile's
    rules only under `mixed`, the MPS rules only for MPS, …) is asked."""
    derive = profile_derived(asker.data)
    group = {name: g for g in profile_groups(asker.data["cards"][cid]) if len(g) > 1 for name in g}
    requests, at, first, varying = [], [], {}, {}
    for op in ops:
        for c in combos:
            profiles = group.get(c["profile"]) if c["mode"] != "mig" else None
            if profiles:
                c = {**c, "profile": profiles[0]}
            key = (op, combo_key(c))
            if key not in first:
                first[key] = len(requests)
                base = {"card": cid, "operator": _op(op), **{k: v for k, v in c.items() if k not in ("class", "replicas")}}
                reps = c["replicas"] or [None]
                counted = ("replicas", reps[1]) if len(reps) == 2 else None
                inputs = {**base, "replicas": reps[0]}
                vary = None
                if profiles:
                    # each profile's facts differ from the first's of its group only in what the page fills in: checked
                    # once per sharing and strategy (what the profile decides is the card's data; what the release
                    # decides of it — a variant's resource — is checked for every request, `_varied`)
                    checked = (profiles[0], c["mode"], c["mig_strategy"])
                    if checked not in varying:
                        varying[checked] = asker.check_varied("resource", inputs, "profile", profiles, derive)
                    vary = ("profile", profiles[1], derive, varying[checked])
                requests.append((inputs, sent(op), counted, vary) if counted or vary else (inputs, sent(op)))
            at.append(first[key])
    out = asker.templates("resource", requests, derived, by_facts=("operator",) if classes else ())
    return [out[n] for n in at]


def compute(data: dict, rules: dict) -> dict:
    """Every template the page needs, both languages still in them: {"cards": {id: …}, "shared": …}."""
    asker = TemplateAsker(data, rules=rules)
    with bulk():
        cards = compute_cards(asker, data, list(data["cards"]))
        shared = compute_shared(asker, data, rules)
        shared["releases"] = release_table(asker, data, shared["ops"])
        return {"cards": cards, "shared": shared}


def release_classes(asker, card: dict | None, ops: list[str], drivers: list[str | None]) -> dict[str, str]:
    """Each release → the first (newest) release of its class: releases whose parts (kb.questions.release.key:
    everything the facts of a question about the card take from the release, its version and the components'
    versions as the tokens the templates carry; of the known issues those a rule of CARD_QUESTIONS may match) are
    equal. Their requests have equal facts but for those tokens,
    so they get the very same templates (kb.site.askbatch, "Releases share templates"): only the first is asked."""
    from kb.questions import release
    from kb.site.askbatch import RELEASE, component_token

    asker.component_tokens()  # (checks that no rule reads what the templates' facts leave out)
    memo = asker.__dict__.setdefault("_release_parts", {})  # the parts no card decides are the same for every card
    first: dict[str, str] = {}
    # (of the known issues, a card's classes compare those a rule of a question asked per release of it may match;
    # the shared file's, asked without a card, every one)
    keep = issues_read(asker, CARD_QUESTIONS) if card is not None else None
    return {op: first.setdefault(release.key(asker.data, _op(op), card, asker.index, drivers, token=RELEASE,
                                             component_token=component_token, memo=memo, keep=keep), op) for op in ops}


#: the questions asked per release of a card (`compute_cards`; recommend is asked with the newest release only)
CARD_QUESTIONS = ("mig", "methods", "resource", "strategy")


def resource_classes(asker, card: dict, ops: list[str]) -> dict[str, str]:
    """Each of `ops` → the first of them whose resource templates equal its own (the release's version and its
    components' versions, which the templates leave open, aside): what the resource facts read of the release
    (`release_reads`) and the card's MIG verdict under it without a driver. Every request of such a release has the
    same inputs (the release aside) and fires the same rules on the same values as one of the first's: its template
    is the first's, so it need not be asked."""
    first: dict = {}
    out = {}
    for op in ops:
        verdict = asker.answer("mig", {"card": card["id"], "operator": _op(op), "driver": None}, cited=False)["verdict"]
        out[op] = first.setdefault((release_reads(asker, card, op, "resource"), verdict), op)
    return out


def release_reads(asker, card: dict, op: str, question: str, drivers: list = (None,)) -> tuple:
    """What the facts of `question` (mig, methods, resource) read of release `op` about the card: its module's
    RELEASE_PARTS (kb.questions.release.key, the parts read with a driver for each of `drivers`); of the part
    `behaviour` only the facts the module reads itself (STATEMENTS) and those a rule of the question may match — the
    others change no firing and no text. Releases with equal keys give the question equal templates (with the
    driver's verdict of the MIG question where the question reads it)."""
    from kb.questions import module, release
    from kb.site.askbatch import RELEASE, component_token, matchable

    mod = module(question)
    memo = asker.__dict__.setdefault("_release_parts", {})
    key = release.key(asker.data, _op(op), card, asker.index, list(drivers), token=RELEASE,
                      component_token=component_token, memo=memo,
                      names=tuple(n for n in mod.RELEASE_PARTS if n != "behaviour"), keep=issues_read(asker, (question,)))
    if "behaviour" not in mod.RELEASE_PARTS:
        return key
    seen = asker.__dict__.setdefault("_behaviour_seen", {})
    if (question, op) not in seen:
        may_match = matchable(asker.rules[question])
        shipped = [f for f in release.part("behaviour", asker.data, _op(op))
                   if (f["component"], f["statement"]) in mod.STATEMENTS or may_match(f)]
        seen[question, op] = release.written("behaviour", shipped, _op(op), token=RELEASE, component_token=component_token)
    return (*key, seen[question, op])


def issues_read(asker, questions: tuple):
    """A test whether a known issue's fact may match a condition of a rule of `questions` (kb.site.askbatch.matchable):
    of the known issues, the keys of releases and drivers compare only those — the others fire no rule of theirs, so
    requests whose facts differ only in them get equal templates."""
    from kb.site.askbatch import matchable

    memo = asker.__dict__.setdefault("_issues_read", {})
    found = memo.get(questions)
    if found is None:
        found = memo[questions] = matchable([r for q in questions for r in asker.rules[q]])
    return found


#: (text, driver sentinel) → the text with the sentinel written as the driver's token (the same texts of the
#: release parts come back for every release of a card and for every card: replaced once)
_TOKENED: dict = {}


def tokened(text: str, driver: str) -> str:
    """`text` with `driver` (a sentinel) written as DRIVER."""
    from kb.site.askbatch import DRIVER

    key = (text, driver)
    found = _TOKENED.get(key)
    if found is None:
        if len(_TOKENED) > 100_000:
            _TOKENED.clear()
        found = _TOKENED[key] = text.replace(driver, DRIVER)
    return found


def by_driver(reads: tuple) -> dict:
    """The texts of `release_reads` per driver they were read with."""
    out: dict = {}
    for _name, _with_card, driver, text in reads:
        out.setdefault(driver, []).append(text)
    return out


def mig_driver_key(card: dict, reads: dict, driver: str | None, texts: dict) -> int | None:
    """What the MIG facts of a release whose parts are `reads` (`by_driver` of `release_reads`, for every driver
    class) take from driver class `driver` (a sentinel): the card's facts (kb.questions.mig.card_facts: comparisons
    with its minimum drivers, which driver exception applies) and the release's known issues for it, the driver's
    version as a token; a number (`texts`). Drivers of one release with equal keys get the same MIG facts but for
    that version, which the templates leave open (TemplateAsker.templates `alike`; no rule reads it: checked there)."""
    from kb.questions.mig import card_facts

    if driver is None:
        return None
    issues = tuple(tokened(text, driver) for text in reads.get(driver, ()))
    own = _CARD_FACTS.get((card["id"], driver))  # (the same for every release)
    if own is None or own[0] is not card:
        if len(_CARD_FACTS) > 100_000:
            _CARD_FACTS.clear()
        written = tokened(repr(card_facts(card, "", driver, listed=False)), driver)
        own = _CARD_FACTS[card["id"], driver] = (card, written)
    return texts.setdefault((issues, own[1]), len(texts))


#: (card id, driver sentinel) → (the card, its MIG card facts for the driver as mig_driver_key writes them)
_CARD_FACTS: dict = {}


def driver_classes(asker, card: dict, op: str, drivers: list[str | None], verdicts: list[str]) -> list[tuple]:
    """Per driver class of `drivers` (sentinels), what the methods and strategy facts read of the driver under release
    `op` (their DRIVER_PARTS, with kb.questions.release.key, and the card's MIG verdict under it, one of `verdicts`),
    with the driver's version as a token: drivers with equal keys get the same facts but for that version, which the
    templates leave open (TemplateAsker.templates `alike`; strategy_gpu)."""
    from kb.questions import methods, release, strategy
    from kb.site.askbatch import DRIVER, RELEASE, component_token

    memo = asker.__dict__.setdefault("_release_parts", {})
    names = tuple(sorted({*methods.DRIVER_PARTS, *strategy.DRIVER_PARTS}))
    keep = issues_read(asker, ("methods", "strategy"))
    out = []
    for driver, verdict in zip(drivers, verdicts):
        key = release.key(asker.data, _op(op), card, asker.index, [driver], token=RELEASE, component_token=component_token,
                          memo=memo, names=names, keep=keep)
        out.append((verdict, tuple((name, with_card, DRIVER, tokened(text, driver)) for name, with_card, _d, text in key)
                    if driver else key))
    return out


def compute_cards(asker, data: dict, cids: list[str], classes: bool = True) -> dict:
    """The templates of the questions about each of these cards: {id: …}. What a card's templates say depends
    on that card only (the asker's memos hold answers by their inputs, card included): cards may be computed
    apart, in any grouping, with the same result. `classes=False` asks every release and every driver class (the
    same result: tests/test_release_parts.py)."""
    index = asker.index
    ops = index["operator_releases"]
    replicas = replica_classes(asker.rules)
    asker.real.update({_op(op): op for op in ops})
    cards = {}
    for cid in cids:
        card = data["cards"][cid]
        lines = driver_lines(card, data)
        classes = intervals(lines)
        drivers = [None] + [padded(c["rep"], kind="driver") for c in classes]
        asker.real.update({padded(c["rep"], kind="driver"): _real(c["rep"], lines) for c in classes})
        out = {"classes": classes, "ops": {}}

        def sent(op, driver=None):
            s = {_op(op): "operator"}
            if driver:
                s[driver] = "driver"
            return s

        enabled = [False] + ([True] if index["cards"][cid]["mig_status"] != "not-listed" else [])
        nd, ne = len(drivers), len(enabled)
        # the answers of one release per class of releases the card's facts cannot tell apart (kb.questions.release)
        standing = release_classes(asker, card, ops, drivers) if classes else {op: op for op in ops}
        reps = [op for op in ops if standing[op] == op]
        # mig and methods read less of the release than all questions together, and of the driver only its
        # comparisons with the card's facts and its known issues (mig_driver_key), methods only the MIG verdict and
        # known issues: one request per class of what they read (TemplateAsker.templates `alike`)
        texts: dict = {}  # (each long text of what a question reads a number: quicker to compare)
        raw = {op: release_reads(asker, card, op, "mig", drivers) for op in reps} if classes else {}
        reads = {op: texts.setdefault(raw[op], len(texts)) if classes else op for op in reps}
        parts = {op: by_driver(raw[op]) for op in raw}
        mig = asker.templates("mig", [({"card": cid, "operator": _op(op), "driver": d}, sent(op, d))
                                      for op in reps for d in drivers],
                              alike=([(reads[op], mig_driver_key(card, parts[op], d, texts) if classes else d)
                                      for op in reps for d in drivers], ("operator", "driver")))
        alike_drivers = {op: [texts.setdefault(key, len(texts)) for key in driver_classes(
                              asker, card, op, drivers, [a["verdict"] for a in mig[k * nd:(k + 1) * nd]])]
                         if classes else drivers for k, op in enumerate(reps)}
        reads = {op: texts.setdefault(release_reads(asker, card, op, "methods"), len(texts)) if classes else op
                 for op in reps}
        alike = [(reads[op], key, e) for op in reps for key in alike_drivers[op] for e in enabled]
        meth = asker.templates("methods", [({"card": cid, "operator": _op(op), "driver": d, "mig_enabled": e},
                                            sent(op, d)) for op in reps for d in drivers for e in enabled],
                               alike=(alike, ("operator", "driver")))
        combos = resource_combos(index["cards"][cid]["profiles"], replicas)
        nc = len(combos)
        # the resource question reads less of the release: one release per class of its own (resource_classes)
        # stands for the others, whose requests would get its very templates (the same objects)
        res_standing = resource_classes(asker, card, reps) if classes else {op: op for op in reps}
        res_reps = [op for op in reps if res_standing[op] == op]
        res_first = _resource_templates(asker, cid, res_reps, combos, sent, classes)
        res = []
        for op in reps:
            i = res_reps.index(res_standing[op])
            res += res_first[i * nc:(i + 1) * nc]
        # `gpukb ask recommend` has no --operator: the newest release answers
        rec_combos = [(w, i) for w in index["workloads"] for i in (None, "required")]
        rec = asker.templates("recommend", [({"workload": w, "card": cid, "isolation": i, "operator": _op(ops[0])},
                                             sent(ops[0])) for w, i in rec_combos])
        # releases whose templates are the same objects (kb.site.askbatch: what an answer says of the release is
        # filled in by the page) share one group
        out["groups"] = []
        seen: dict = {}
        for op in ops:
            if standing[op] != op:  # its class's first release stands for it
                out["ops"][op] = out["ops"][standing[op]]
                continue
            k = reps.index(op)
            group = {
                "mig": mig[k * nd:(k + 1) * nd],
                "methods": [meth[(k * nd + d) * ne:(k * nd + d + 1) * ne] for d in range(nd)],
                "resource": res[k * nc:(k + 1) * nc],
                "strategy": strategy_gpu(asker, cid, op, drivers, alike_drivers[op]),
            }
            same = (tuple(map(id, group["mig"])), tuple(id(a) for row in group["methods"] for a in row),
                    tuple(map(id, group["resource"])), tuple((key, id(v)) for key, v in sorted(group["strategy"].items())))
            if same not in seen:
                seen[same] = len(out["groups"])
                out["groups"].append(group)
            out["ops"][op] = seen[same]
        out["recommend"] = rec
        out["resource_combos"] = [combo_key(c) for c in combos]
        out["recommend_combos"] = [f"{w}|{i or ''}" for w, i in rec_combos]
        cards[cid] = out
    return cards


def compute_shared(asker, data: dict, rules: dict) -> dict:
    """The templates no card decides (dra, recommend without a card, the node part of strategy). The table per
    release of what the page fills in (`release_table`) comes after every card: it holds the release cites
    their templates use."""
    index = asker.index
    ops = index["operator_releases"]
    replicas = replica_classes(rules)
    asker.real.update({_op(op): op for op in ops})
    shared = {"ops": ops, "recommend": {}, "dra": {}, "replica_classes": replicas}
    for w in index["workloads"]:
        for i in (None, "required"):
            [shared["recommend"][f"{w}|{i or ''}"]] = asker.templates(
                "recommend", [({"workload": w, "card": None, "isolation": i, "operator": None}, {})])
    k8s = intervals(k8s_lines(data))
    asker.real.update({padded(c["rep"], 3, "k8s"): _real(c["rep"], k8s_lines(data)) for c in k8s})
    shared["k8s_classes"] = k8s
    features = index["dra_features"]
    shared["dra_features"] = features
    from kb.questions.dra import INSTALLS

    # one release per class of releases whose parts no card decides are equal (kb.questions.release): the others
    # would get the very same templates
    standing = release_classes(asker, None, ops, [None])
    reps = [op for op in ops if standing[op] == op]
    dra_req = [({"operator": _op(op), "k8s": padded(c["rep"], 3, "k8s"), "feature": f, "install": how},
                {_op(op): "operator", padded(c["rep"], 3, "k8s"): "k8s"})
               for op in reps for f in features for how in INSTALLS for c in k8s]
    dra = asker.templates("dra", dra_req) if features else []
    nf, ni, nk = len(features), len(INSTALLS), len(k8s)
    shared["installs"] = list(INSTALLS)
    shared["strategy"] = strategy_node(asker, ops)
    rows = [[[dra[((i * nf + j) * ni + h) * nk:((i * nf + j) * ni + h + 1) * nk] for h in range(ni)] for j in range(nf)]
            for i in range(len(reps))]
    shared["dra"] = {op: rows[reps.index(standing[op])] for op in ops}
    # `--dra-driver V`: of the operator release a standalone release's answer reads only whether that release
    # manages the DRA driver (a detail line): asked under the newest release that does and the newest that does not
    drivers = index.get("dra_driver_releases", [])
    mo = index.get("dra_min_operator")
    sides = [next((op for op in ops if (bool(mo) and versions.compare(op, mo) == "meets") == managed), ops[0])
             for managed in (True, False)]
    rel_req = [({"operator": _op(op), "k8s": padded(c["rep"], 3, "k8s"), "feature": f, "install": "standalone",
                 "dra_driver": v}, {_op(op): "operator", padded(c["rep"], 3, "k8s"): "k8s"})
               for v in drivers for op in sides for f in features for c in k8s]
    rel = asker.templates("dra", rel_req) if features else []
    shared["dra_drivers"] = drivers
    shared["dra_release"] = {v: [[rel[((i * 2 + m) * nf + j) * nk:((i * 2 + m) * nf + j + 1) * nk] for j in range(nf)]
                                 for m in range(2)] for i, v in enumerate(drivers)}
    return shared


def release_table(asker, data: dict, ops: list[str]) -> dict:
    """What the page fills into a template of any release (kb.site.askbatch, "Releases share templates"): per
    release, the version each component ships (the behaviour facts' versions; the facts the templates were
    written from had the same) and the citations each release cite stands for."""
    from kb.questions import behaviour
    from kb.site.askbatch import component_slot

    out = {}
    for op in ops:
        values = {component_slot(f["component"]): f["version"] for f in behaviour.facts(data, op)}
        seen = asker.release_values.get(_op(op), {})
        if any(values.get(k) != v for k, v in seen.items()):
            raise ValueError(f"GPU Operator {op}: the facts' component versions {seen} are not the release's {values}")
        out[op] = {"values": values, "cites": {key: asker.release_cites(key, op) for key in sorted(asker.release_refs.values())}}
    return out


# ---------------------------------------------------------------- strategy: the engine's conclusions per fact

def _gpu_alone(rules: list[dict]) -> None:
    """The page puts a strategy answer together from the conclusions about the node (with every fact that is
    not a GPU) and those about each GPU: no rule may match a GPU together with another fact."""
    joined = [r["id"] for r in rules if len(r["when"]) > 1 and any('"kind": "gpu"' in json.dumps(c) for _a, c in r["when"])]
    if joined:
        raise KeyError(f"the ask page assembles strategy answers from the node and each GPU, but rules "
                       f"{', '.join(joined)} match a GPU together with another fact")


def _slotted(fact: dict, props: dict[str, str], reads: set[str]) -> dict:
    """The fact with some properties replaced by slots; a property a rule reads cannot be one."""
    for prop, name in props.items():
        if prop in fact:
            if prop in reads:
                raise KeyError(f"the ask page fills in the strategy fact property {prop!r}, but a rule reads it")
            fact = {**fact, prop: slot(name)}
    return fact


def strategy_gpu(asker, cid: str, op: str, drivers: list[str | None], alike: list | None = None) -> dict[str, list]:
    """The conclusions about one GPU of a node, by driver class and (GPU uses MIG, node uses MIG):
    {"<class>|00": […], "<class>|01": […], "<class>|11": […]}. Its number and layout are slots; the facts are
    what `ask strategy` builds (kb.questions.strategy.facts). `alike`: a key per driver (driver_classes); drivers
    with equal keys get the same facts but for the driver's version, which the fact of a GPU does not hold."""
    from kb.engine import evaluate_many
    from kb.questions import strategy
    from kb.site.askbatch import read_props

    rules = asker.rules["strategy"]
    _gpu_alone(rules)
    reads = read_props(rules)
    # the node's other GPU (shape 01) is the same card using MIG: the fact of this GPU does not name it, and its
    # MIG answer (with the release's and the driver class's sentinels) is one the mig templates computed already
    shapes = {"00": [{"card": cid, "profiles": []}],
              "01": [{"card": cid, "profiles": []}, {"card": cid, "profiles": ["x"]}],
              "11": [{"card": cid, "profiles": ["x"]}]}
    keys, facts, texts = [], [], []
    first: dict = {}
    for n, driver in enumerate(drivers):
        m = first.setdefault(alike[n], n) if alike is not None else n
        for s, (shape, gpus) in enumerate(shapes.items()):
            keys.append(f"{n}|{shape}")
            if m != n:  # the first driver of its class stands for it
                facts.append(facts[m * len(shapes) + s])
                texts.append(texts[m * len(shapes) + s])
                continue
            gpu = strategy.facts(asker, {"gpus": gpus, "operator": _op(op), "driver": driver})[1]
            facts.append([_slotted(gpu, {"index": "index", "profiles": "gpu_profiles"}, reads)])
            texts.append(json.dumps(facts[-1], sort_keys=True))
    # the same facts, the same conclusions: a GPU's facts repeat across releases and driver classes (what they
    # hold of them is the MIG verdict), so each distinct fact list is evaluated once per build
    memo = asker.__dict__.setdefault("_strategy_gpu", {})
    todo = {t: f for t, f in zip(texts, facts) if t not in memo}
    if todo:
        results = evaluate_many("strategy", list(todo.values()), engine=asker.engine, data=asker.data, rules=asker.rules)
        for text, conclusions in zip(todo, results):
            memo[text] = [{x: v for x, v in c.items() if x != "facts"} for c in conclusions]
    return {k: memo[t] for k, t in zip(keys, texts)}


def _constants(rules: list[dict], prop: str) -> set:
    """The numbers the rules compare a property with."""
    found: set = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == prop and isinstance(v, (int, float)) and not isinstance(v, bool):
                    found.add(v)
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)
    for rule in rules:
        for _alias, cond in rule["when"]:
            walk(cond)
    return found


def count_classes(constants: set) -> list[dict]:
    """Classes of a count (0, 1, 2 …): each count up to the largest number the rules compare it with is a class
    of its own ({"at": n}), the counts above it one class ({"above": n}); each with `real`, a count inside it."""
    top = max([int(x) for x in constants if x >= 0], default=-1)
    return [{"at": n, "real": n} for n in range(top + 1)] + [{"above": top, "below": None, "real": top + 1}]


#: a count standing for "any count of this class" (no catalog text holds it), one per property
COUNT_SENTINEL = {"mig_gpus": 7000001, "whole_gpus": 7000003, "distinct_profiles": 7000007}


def node_driver_lines(data: dict) -> list[str]:
    """The versions a typed driver is compared with for the node as a whole: the known issues' ranges."""
    return sorted(version_strings([f.get("known_issues", []) for f in data["releases"].values()]), key=versions.key)


def strategy_node(asker, ops: list[str]) -> dict:
    """The conclusions about the node as a whole (the node fact and every fact that is not a GPU: known issues),
    by release, driver class and the classes of its counts (mig GPUs, whole GPUs, distinct profiles) between
    the numbers the rules compare them with; the counts, the GPU total, the profiles, the release and the driver
    are slots. Also the summary of each (strategy, verdict), as kb.questions.strategy.fold words it."""
    from kb.engine import evaluate_many
    from kb.questions import strategy
    from kb.site.askbatch import read_props, template_value

    rules = asker.rules["strategy"]
    _gpu_alone(rules)
    reads = read_props(rules)
    card = next(iter(asker.index["cards"]))
    counts = ("mig_gpus", "whole_gpus", "distinct_profiles")
    classes = {prop: count_classes(_constants(rules, prop)) for prop in counts}
    lines = node_driver_lines(asker.data)
    drivers = intervals(lines)
    driver_reps = [None] + [padded(c["rep"], kind="driver") for c in drivers]
    asker.real.update({padded(c["rep"], kind="driver"): _real(c["rep"], lines) for c in drivers})
    keys, facts, sentinels = [], [], []
    for op in ops:
        for d, driver in enumerate(driver_reps):
            for i, mig in enumerate(classes["mig_gpus"]):
                for j, whole in enumerate(classes["whole_gpus"]):
                    for k, distinct in enumerate(classes["distinct_profiles"]):
                        m, w, n = mig["real"], whole["real"], distinct["real"]
                        if m + w == 0 or (m == 0) != (n == 0):
                            continue
                        gpus = [{"card": card, "profiles": [f"p{x}" for x in range(n)] if g == 0 else ["p0"]} for g in range(m)]
                        gpus += [{"card": card, "profiles": []}] * w
                        found = strategy.facts(asker, {"gpus": gpus, "operator": _op(op), "driver": driver})
                        node = dict(found[0])
                        shown = {_op(op): "operator", **({driver: "driver"} if driver else {})}
                        for prop, cls in (("mig_gpus", mig), ("whole_gpus", whole), ("distinct_profiles", distinct)):
                            if prop in node and "at" not in cls:  # any count of the class: a sentinel in its place
                                node[prop] = COUNT_SENTINEL[prop]
                                shown[str(COUNT_SENTINEL[prop])] = prop
                        for prop in node:
                            if prop != "kind" and prop not in counts:
                                if prop in reads:
                                    raise KeyError(f"the ask page fills in the node property {prop!r}, but a strategy rule reads it")
                                node[prop] = slot(prop)
                        keys.append(f"{op}|{d}|{i}|{j}|{k}")
                        facts.append([node, *(f for f in found[1:] if f["kind"] != "gpu")])
                        sentinels.append(shown)
    results = evaluate_many("strategy", facts, engine=asker.engine, data=asker.data, rules=asker.rules)
    nodes = {key: [template_value({k: v for k, v in c.items() if k != "facts"}, shown) for c in conclusions]
             for key, conclusions, shown in zip(keys, results, sentinels)}
    summaries = {}
    op = ops[0]
    for strat in ("single", "mixed"):
        for verdict in VERDICTS:
            fake = {"rule": "", "title": {"en": "", "de": ""}, "verdict": verdict, "text": {"en": "", "de": ""},
                    "condition": None, "details": {"strategy": strat}, "cites": [], "facts": []}
            summaries[f"{strat}|{verdict}"] = strategy.fold(asker, {"gpus": [], "operator": op, "driver": None}, [fake])["summary"]
    none = strategy.fold(asker, {"gpus": [], "operator": op, "driver": None}, [])
    return {"nodes": nodes, "summaries": summaries, "driver_classes": drivers,
            "classes": {p: [{k: v for k, v in c.items() if k != "real"} for c in cls] for p, cls in classes.items()},
            "none": {"verdict": none["verdict"], "strategy": none["details"]["strategy"]}}


# ---------------------------------------------------------------- the JSON files

def _once(memo: dict, obj, render) -> int:
    """`render(obj)` once per object (by identity; `memo` holds the object too, so its id is not reused)."""
    seen = memo.get(id(obj))
    if seen is not None and seen[0] is obj:
        return seen[1]
    n = memo[id(obj)] = (obj, render(obj))
    return n[1]


#: (language, repr of an answer's details) → its lines (kb.answer._detail_lines: words only, no catalog data)
_DETAILS: dict[tuple, list] = {}


class _Pool:
    """Answers, reasons and citations stored once per file; answers refer to them by index."""

    def __init__(self, data: dict, lang: str):
        self.data, self.lang = data, lang
        self.tables: dict[str, list] = {"answers": [], "reasons": [], "cites": [], "parts": []}
        self._index: dict = {}
        self._seen: dict[int, tuple[dict, int]] = {}
        self._parts_seen: dict[int, tuple[dict, int]] = {}
        self._cite_lists: dict[int, tuple[list, tuple]] = {}

    def _intern(self, table: str, item, key=None) -> int:
        """The index of `item` in its table, stored once. `key` (hashable) stands for the item where the
        caller builds one; else the item's JSON text is its key."""
        key = (table, key if key is not None else jsonbytes.dumps(item, sort_keys=True))  # (json's text, as bytes)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.tables[table])
            self.tables[table].append(item)
        return found

    def answer(self, a: dict) -> int:
        """The index of a template's answer (templates are shared objects: each is rendered once)."""
        return _once(self._seen, a, self._answer)

    def part(self, c: dict) -> int:
        """One conclusion of the engine, as the page assembles a strategy answer from them (its index). The
        conclusions about a GPU are shared objects (askdata.strategy_gpu): each is rendered once."""
        return _once(self._parts_seen, c, self._part)

    def _part(self, c: dict) -> int:
        lang = self.lang
        cites = [self._cite(x) for x in c["cites"]]
        out = {"rule": c["rule"], "title": c["title"][lang], "verdict": c.get("verdict"), "text": c["text"][lang],
               "cites": cites, "strategy": c["details"].get("strategy")}
        if c.get("condition"):
            out["condition"] = c["condition"][lang]
            out["condition_en"] = c["condition"]["en"]  # conditions count once by their English text
        return self._intern("parts", out)

    def _cite(self, c: dict) -> int:
        if "release" in c:  # the citations of the asked release's own entry (shared file: `releases`)
            return self._intern("cites", {"release": c["release"]})
        key = ("cite", c["source"], c.get("section"), c["quote"], c.get("url"), c.get("title"))
        if key not in self._index:
            cite = {k: c[k] for k in ("title", "section", "quote", "url") if c.get(k)}
            if cite.get("title"):
                cite["title"] = title_text(cite["title"], self.lang)  # our words in it in the reader's language
            if cite.get("section"):
                cite["section"] = section_text(cite["section"], self.lang)  # the place in the reader's words
            cite["quote"] = nested(cite["quote"], self.lang)  # ask.js sets it in <q>: quotes inside it in ‚…‘ / ‘…’
            if self.lang != "de" and c.get("translation"):
                cite["translation"] = c["translation"]  # a German quote's English, shown beside it (ask.js)
            self._index[key] = self._intern("cites", cite)
        return self._index[key]

    def _cite_list(self, cites: list) -> tuple:
        """The indexes of a reason's citations (templates share their lists of citations: each is rendered once)."""
        return tuple(self._cite(c) for c in cites)

    def _detail_lines(self, details: dict) -> list:
        """kb.answer's lines of an answer's details in the file's language (many answers share their details, in
        one card's files and across cards: kept for the process, `_DETAILS`)."""
        key = (self.lang, repr(details))  # (order and all: the lines follow the order of the keys)
        found = _DETAILS.get(key)
        if found is None:
            if len(_DETAILS) > 100_000:
                _DETAILS.clear()
            found = _DETAILS[key] = _detail_lines(details, self.lang, "")
        return found

    def _answer(self, a: dict) -> int:
        lang = self.lang
        reasons = []
        for r in a["reasons"]:
            cites = _once(self._cite_lists, r["citations"], self._cite_list)
            item = {"rule": r["rule"], "title": r["title"][lang], "text": r["text"][lang], "cites": list(cites)}
            reasons.append(self._intern("reasons", item, (item["rule"], item["title"], item["text"], cites)))
        item = {"verdict": a["verdict"], "summary": a["summary"][lang],
                "conditions": [c["text"][lang] for c in a["conditions"]], "reasons": reasons,
                "details": self._detail_lines(a["details"])}
        return self._intern("answers", item, (item["verdict"], item["summary"], tuple(item["conditions"]),
                                              tuple(reasons), tuple(item["details"])))


def card_payload(data: dict, computed: dict, cid: str, lang: str) -> dict:
    c = computed["cards"][cid]
    pool = _Pool(data, lang)
    out = {"card": cid, "classes": _classes_json(c["classes"]), "resource_combos": c["resource_combos"],
           "recommend_combos": c["recommend_combos"], "ops": c["ops"], "groups": []}
    for qs in c["groups"]:
        out["groups"].append({
            "mig": [pool.answer(a) for a in qs["mig"]],
            "methods": [[pool.answer(a) for a in row] for row in qs["methods"]],
            "resource": [pool.answer(a) for a in qs["resource"]],
            "strategy": {k: [pool.part(c) for c in parts] for k, parts in qs["strategy"].items()},
        })
    out["recommend"] = [pool.answer(a) for a in c["recommend"]]
    out.update(pool.tables)
    return out


def shared_payload(data: dict, computed: dict, lang: str) -> dict:
    from kb.questions.base import make_index

    s = computed["shared"]
    pool = _Pool(data, lang)
    index = make_index(data)
    cards = [{"id": cid, "name": card["name"], "short": card["short_name"], "names": [cid, card["name"],
              card["short_name"], *card.get("aliases", []), *(p["name"] for p in card.get("product_names", [])),
              *(sy["name"] for sy in card.get("systems", []))], "plain": bool(card.get("plain_product")),
              "mig_status": index["cards"][cid]["mig_status"], "profiles": index["cards"][cid]["profiles"],
              "counts": index["cards"][cid]["profile_counts"],
              "variants": {p["name"]: p["variant"] for p in (card.get("mig") or {}).get("profiles", []) if p.get("variant")},
              "memory_gb": (card.get("memory_gb") or {}).get("value"),
              "pci": (card.get("pci_device_ids") or {}).get("value", [])}
             for cid, card in data["cards"].items()]
    node = s["strategy"]
    out = {
        "data_version": data["data_version"], "verified": data["verified"],
        "verified_text": date_text(data["verified"], lang), "ops": s["ops"], "cards": cards,
        "strategy": {"nodes": {k: [pool.part(c) for c in parts] for k, parts in node["nodes"].items()},
                     "summaries": {k: v[lang] for k, v in node["summaries"].items()}, "none": node["none"],
                     "classes": node["classes"], "driver_classes": _classes_json(node["driver_classes"]), "detail": _detail_lines({"strategy": slot("strategy")}, lang, "")[0]},
        "workloads": [{"id": w, "name": words.word(words.WORKLOAD, w, lang)} for w in index["workloads"]],
        "features": [{"id": f, "name": words.word(words.DRA_FEATURE, f, lang)} for f in s["dra_features"]],
        "dra_min_kubernetes": index.get("dra_min_kubernetes"),
        "min_replicas": MIN_REPLICAS,
        "replica_classes": [{k: v for k, v in c.items() if k != "reps"} for c in s["replica_classes"]],
        "verdicts": {v: words.capital(words.VERDICT[v][lang]) for v in VERDICTS},
        "k8s_classes": _classes_json(s["k8s_classes"]),
        "recommend": {k: pool.answer(a) for k, a in s["recommend"].items()},
        "dra": {op: [[[pool.answer(a) for a in row] for row in how] for how in rows] for op, rows in s["dra"].items()},
        "installs": s["installs"], "dra_min_operator": index.get("dra_min_operator"),
        "dra_drivers": s["dra_drivers"],
        "releases": {op: {"values": r["values"], "cites": {key: [pool._cite(c) for c in cites] for key, cites in r["cites"].items()}}
                     for op, r in s["releases"].items()},
        "dra_release": {v: [[[pool.answer(a) for a in row] for row in side] for side in sides]
                        for v, sides in s["dra_release"].items()},
    }
    out.update(pool.tables)
    return out


def files(data: dict, rules: dict, workers: int | None = None) -> dict[str, bytes]:
    """The JSON files below the ask page's folder, per language, as UTF-8: {"data/shared.de.json": …, "data/l4.en.json": …}.

    With `workers` 2 (the default where the machine has four CPUs or more, the process runs one thread and
    GPUKB_SITE_WORKERS is not 1: `_workers`), a forked process computes and writes cards' files meanwhile: this process computes
    the first WARM cards, forks, computes the shared templates, and then each process takes the next card not taken
    yet (kb.site.forked.Tickets) until none is left — so they end together, whatever each card costs and whatever
    else the machine runs. Cards are computed apart with the same result (`compute_cards`), and release cites carry
    keys that are the same in both processes: the files are byte for byte those of one process
    (tests/test_site_ask.py)."""
    cids = list(data["cards"])
    if workers is None:
        workers = _workers(len(cids))
    asker = TemplateAsker(data, rules=rules)
    child, out_cards = None, {}
    if workers > 1 and len(cids) > 1:
        tickets = Tickets(len(cids))
        # the first cards alone, then the forked process starts with what every card reads through the asker's
        # memos (the engine's firings by projection, release parts, conclusions, detail lines) instead of computing
        # it again; then both take the next card as they get to it (and end within a card of each other)
        out_cards.update(_card_files(asker, data, [cids[tickets.take()] for _ in range(min(WARM, len(cids) - 1))])[0])
        child = run_forked(lambda: _card_files(asker, data, _taken(cids, tickets)),
                           "computing half of the ask page's cards")
        mine = _taken(cids, tickets)
    else:
        mine = cids
    with bulk():
        shared = compute_shared(asker, data, rules)
    out_cards.update(_card_files(asker, data, mine)[0])
    with bulk():
        if child is not None:
            tickets.close()
            files_, refs, values = child()
            out_cards.update(files_)
            for ref, key in refs.items():
                if asker.release_refs.setdefault(ref, key) != key:
                    raise ValueError(f"two keys for one release citation: {ref}")
            for op, vals in values.items():
                for name, v in vals.items():
                    if asker.release_values.setdefault(op, {}).setdefault(name, v) != v:
                        raise ValueError(f"two versions of {name} for one release: {v}")
        shared["releases"] = release_table(asker, data, shared["ops"])
    out = {}
    for lang in LANGS:
        out[f"data/shared.{lang}.json"] = _dump(shared_payload(data, {"shared": shared}, lang))
        for cid in cids:
            out[f"data/cards/{cid}.{lang}.json"] = out_cards[f"data/cards/{cid}.{lang}.json"]
    return out


def names(data: dict) -> list[str]:
    """The files `files` writes, in its order."""
    return [name for lang in LANGS for name in (f"data/shared.{lang}.json",
                                                *(f"data/cards/{cid}.{lang}.json" for cid in data["cards"]))]


def _card_files(asker, data: dict, cids: list[str]):
    """The files of these cards (both languages), and the release cites and component versions their templates
    use: (files, asker.release_refs, asker.release_values)."""
    out = {}
    with bulk():
        for cid in cids:  # one card at a time: its templates are dropped once its files are written
            computed = {"cards": compute_cards(asker, data, [cid])}
            for lang in LANGS:
                out[f"data/cards/{cid}.{lang}.json"] = _dump(card_payload(data, computed, cid, lang))
            asker.forget_templates()
    return out, dict(asker.release_refs), {k: dict(v) for k, v in asker.release_values.items()}


#: how many cards this process computes before it forks the one computing cards beside it (`files`). The two
#: processes made 5.2 % more Python calls than one where the fork came first, 2.9 % after 4 cards (2.6 % after 8,
#: 1.8 % after 12: each still meets projections the other has fired); in the site build the other CPU is busy
#: meanwhile (the build's own process), on an idle machine 4 cards keep it waiting ≈ 0.5 s
WARM = 4


def _taken(cids: list[str], tickets):
    """The cards whose tickets this process takes, one by one, until there are none left."""
    while (n := tickets.take()) is not None:
        yield cids[n]


def _workers(cards: int) -> int:
    """Two processes where the machine has four CPUs or more: in the site build from nothing the build's own process
    and the JSON API's take two already. On two CPUs a second process only competes with them and computes the memos
    again (the build measured with one against two: 5.76 against 6.59 s, the median of 8 alternating pairs)."""
    import os

    from kb.site.forked import may_fork

    if not may_fork() or cards < 8 or cards > Tickets.MOST:
        return 1
    return 2 if (os.cpu_count() or 1) >= 4 else 1


def _dump(value) -> bytes:
    """The file's JSON text as UTF-8 (kb.jsonbytes: json's compact text with sorted keys, faster)."""
    return jsonbytes.dumps(value, sort_keys=True, newline=True)


__all__ = ["compute", "files", "card_payload", "shared_payload", "driver_lines", "k8s_lines", "slot"]
