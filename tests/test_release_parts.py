"""The ask page builds the answers of one GPU Operator release per class of releases a card's facts cannot tell
apart (kb.site.askdata.release_classes, from kb.questions.release.key). These tests make that unsafe shortcut
fail loudly: a fact builder that reads the release other than through kb.questions.release.part, a part the key
leaves out, or a class whose releases would have got different answers."""

from __future__ import annotations

import copy
import pickle

import pytest

from kb import versions
from kb.catalog.compiled import load_data
from kb.engine.rules import load_rules
from kb.questions import bulk, module, release
from kb.site import askdata
from kb.site.askbatch import TemplateAsker, intervals, padded

#: a listed MIG card with few profiles (cheap), and the questions whose facts take the release
CARD = "a30"
QUESTIONS = ("mig", "methods", "resource", "strategy")


@pytest.fixture(scope="module")
def real():
    return load_data(), load_rules()


#: (id of the data, card) → the release classes of the real catalog: the same for every part's test
_STANDING: dict = {}


def _drivers(data, cid):
    return [None] + [padded(c["rep"], kind="driver") for c in intervals(askdata.driver_lines(data["cards"][cid], data))]


def _classes(data, rules, cid):
    asker = TemplateAsker(data, rules=rules)
    return askdata.release_classes(asker, data["cards"][cid], asker.index["operator_releases"], _drivers(data, cid))


def _pair(data, rules, cid):
    """Two releases of one class of the real catalog (the class's first, newest, and an older one)."""
    key = (id(data), cid)
    if key not in _STANDING:
        _STANDING[key] = _classes(data, rules, cid)
    return next((first, op) for op, first in _STANDING[key].items() if first != op)


def _two_releases(patched: dict, newer: str, older: str) -> dict:
    """The patched catalog with only `newer` and `older` in its index of releases (newest first, as the index
    orders them): classes and answers are computed for these two only. A release's class is the first release with
    its key and its templates are its own facts' (kb.site.askdata), so the two compare as they would among all."""
    from kb.questions.base import make_index

    index = make_index(patched)
    assert [op for op in index["operator_releases"] if op in (newer, older)] == [newer, older]
    return {**patched, "index": {**index, "operator_releases": [newer, older]}}


def _groups(data, rules, cid, classes=True):
    asker = TemplateAsker(data, rules=rules)
    with bulk():
        return askdata.compute_cards(asker, data, [cid], classes)[cid]["ops"]


def _compared_inside(monkeypatch, version: str, what: str):
    """versions.key made to fail on `version` but inside the functions wrapped by the returned `inside(fn)`."""
    depth = []
    original_key = versions.key

    def key(text):
        if text == version and not depth:
            raise AssertionError(f"{what} is compared outside kb.questions.release.part (and the MIG answer)")
        return original_key(text)
    monkeypatch.setattr(versions, "key", key)

    def inside(fn):
        def wrapped(*args, **kw):
            depth.append(1)
            try:
                return fn(*args, **kw)
            finally:
                depth.pop()
        return wrapped
    return inside


def test_the_facts_compare_the_release_only_through_its_parts(real, monkeypatch):
    """Every question about a card, with a release whose version raises when compared anywhere but inside
    kb.questions.release.part: a fact builder reading the release any other way fails here."""
    data, rules = real
    op = askdata._op(data["releases"]["gpu-operator"]["releases"][3]["version"])
    part = _compared_inside(monkeypatch, op, "the release's version")(release.part)
    monkeypatch.setattr(release, "part", part)
    for mod in ("mig", "methods", "resource", "strategy", "dra"):
        monkeypatch.setattr(f"kb.questions.{mod}.part", part)
    asker = TemplateAsker(data, rules=rules)
    profile = asker.index["cards"][CARD]["profiles"][0]
    inputs = {
        "mig": {"card": CARD, "operator": op, "driver": None},
        "methods": {"card": CARD, "operator": op, "driver": "580.82.07", "mig_enabled": True},
        "resource": {"card": CARD, "operator": op, "profile": profile, "mig_strategy": "mixed", "mode": "mps",
                     "replicas": 4, "rename_by_default": False},
        "strategy": {"gpus": [{"card": CARD, "profiles": [profile]}, {"card": CARD, "profiles": []}],
                     "operator": op, "driver": None},
        "dra": {"operator": op, "k8s": "1.34.2", "feature": asker.index["dra_features"][0], "install": "operator"},
    }
    for question in (*QUESTIONS, "dra"):
        facts = module(question).facts(asker, inputs[question])
        assert any(f.get("operator") == op for f in facts), question  # (the release was asked about)
        asker.answer(question, inputs[question])  # the fold (mig's details read the release) too


def _copy(data: dict) -> dict:
    """A deep copy of plain catalog data (as copy.deepcopy gives; pickle's C code: ≈ 0.030 → 0.014 s CPU for the real catalog)."""
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


def _patched(data, name: str, newer: str, older: str, cid: str) -> dict:
    """A copy of the catalog where releases `newer` and `older` differ in one part only (for the card `cid`)."""
    out = _copy({k: v for k, v in data.items() if k != "index"})
    out["hash"] = f"{data.get('hash')}+test-release-parts-{name}"
    operator = out["releases"]["gpu-operator"]
    rel = next(r for r in operator["releases"] if r["version"] == newer)
    card = out["cards"][cid]
    if name == "behaviour":  # the newer release ships a device plugin too old for MPS
        rel["components"] = [{"component": "device-plugin", "version": "0.12.0"}, *rel.get("components", [])]
    elif name == "listed":  # the support list names the card from the newer release on
        card["operator_support"]["since"] = {"value": newer, "cite": card["operator_support"]["listed"]["cite"]}
    elif name == "kubevirt_vgpu":
        support = card["operator_support"]
        support["kubevirt_vgpu"] = {"value": True, "cite": support["listed"]["cite"]}
        support["kubevirt_vgpu_since"] = {"value": newer, "cite": support["listed"]["cite"]}
    elif name == "dra_driver":  # the newer release deploys another DRA driver
        rel["components"] = [{"component": "dra-driver", "version": "0.1.0"}, *rel.get("components", [])]
    elif name == "dra":  # the newer release is the first to manage the DRA driver
        out["methods"]["dra"]["requirements"]["min_operator"]["value"] = newer
    elif name == "layouts":  # only the newer release's MIG Manager has layouts for the card
        ids = card["pci_device_ids"]["value"]
        operator["features"] = [f for f in operator.get("features", []) if f["id"] != "dynamic-mig-config"]
        for r in operator["releases"]:
            r["mig_devices"] = {**(r.get("mig_devices") or {"cite": rel["cite"]}), "value": ids if r is rel else ["0xdead"]}
    elif name == "issues":  # a known issue of the newer release itself (the mig rule about it reads the release's)
        issue = next(i for _c, f in sorted(out["releases"].items()) for i in f.get("known_issues", []))
        issue["component"] = "gpu-operator"
        issue["affects"] = [{"first": newer, "last": newer}]
    else:
        raise AssertionError(f"no patch for part {name!r}: add one")
    return out


@pytest.mark.parametrize("name", [n for n in release.PARTS if n != "dra_driver"])
def test_two_releases_differing_in_one_part_get_different_answers(real, name):
    """For every part: two releases of one class, the catalog patched so they differ in that part only, are
    classes apart and their answers differ (the page would show the newer one's answers for both if the key
    left the part out)."""
    data, rules = real
    newer, older = _pair(data, rules, CARD)
    patched = _two_releases(_patched(data, name, newer, older, CARD), newer, older)
    if name == "issues":  # the mig rule about a known issue reads the driver's; make it read the release's
        rules = {**rules, "mig": [_about_release(r) if r["id"] == "MIG-013" else r for r in rules["mig"]]}
    standing = _classes(patched, rules, CARD)
    assert standing[newer] != standing[older], f"{name}: the key does not tell {newer} and {older} apart"
    ops = _groups(patched, rules, CARD)
    assert ops[newer] != ops[older], f"{name}: {newer} and {older} get the same answers"


def _about_release(rule: dict) -> dict:
    out = copy.deepcopy(rule)
    out["when"] = [(alias, _swap(cond)) for alias, cond in out["when"]]
    return out


def _swap(node):
    if isinstance(node, dict):
        return {k: ("gpu-operator" if k == "component" and v == "driver" else _swap(v)) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return type(node)(_swap(v) for v in node)
    return node


@pytest.mark.parametrize("cid", ["h200-nvl", "l4"])
def test_the_page_data_of_a_card_is_the_same_with_every_release_asked(real, cid):
    """The card's files, computed with one release per class and one driver per class (methods) and with every
    release and driver: byte for byte equal."""
    data, rules = real
    assert _page_data(data, rules, cid, True) == _page_data(data, rules, cid, False)


def _page_data(data, rules, cid, classes: bool) -> list[bytes]:
    """The card's files (both languages), computed with one release and driver per class or with every one."""
    asker = TemplateAsker(data, rules=rules)
    with bulk():
        computed = {"cards": askdata.compute_cards(asker, data, [cid], classes)}
    return [askdata._dump(askdata.card_payload(data, computed, cid, lang)) for lang in askdata.LANGS]


@pytest.mark.parametrize("name", release.NO_CARD)
def test_two_releases_differing_in_one_part_no_card_decides_get_different_dra_answers(real, name):
    """The shared file's DRA table is computed for one release per class of the parts no card decides: two releases
    of one class, patched to differ in one such part, are classes apart (and where the DRA question reads the
    part, their answers differ)."""
    data, rules = real
    key = (id(data), None)
    if key not in _STANDING:
        asker = TemplateAsker(data, rules=rules)
        _STANDING[key] = askdata.release_classes(asker, None, asker.index["operator_releases"], [None])
    newer, older = next((first, op) for op, first in _STANDING[key].items() if first != op)
    patched = _two_releases(_patched(data, name, newer, older, CARD), newer, older)
    asker = TemplateAsker(patched, rules=rules)
    ops = asker.index["operator_releases"]
    standing = askdata.release_classes(asker, None, ops, [None])
    assert standing[newer] != standing[older], f"{name}: the key does not tell {newer} and {older} apart"
    if name in ("dra", "dra_driver"):
        with bulk():
            dra = askdata.compute_shared(asker, patched, rules)["dra"]
        assert dra[newer] != dra[older]


class _Unreadable(dict):
    """A card that fails every read."""

    def _fail(self, *args, **kw):
        raise AssertionError("the part read the card")

    __getitem__ = get = __contains__ = __iter__ = keys = items = values = __len__ = __bool__ = _fail


@pytest.mark.parametrize("name", release.CARDLESS)
def test_the_parts_said_not_to_read_the_card_do_not(real, name):
    """release.key shares the text of the CARDLESS parts between cards (its memo ignores the card): their helpers
    answer for a card that fails every read (here, for every release)."""
    data, _rules = real
    for op in (r["version"] for r in data["releases"]["gpu-operator"]["releases"]):
        assert release.part(name, data, op, _Unreadable()) == release.part(name, data, op, None)


def test_cards_the_known_issues_read_alike_get_the_same_issue_facts(real):
    """release.key shares the text of the part `issues` between cards whose known_issues.card_reads are equal:
    for every card, every release and driver line, their facts are those of the first card read alike; and a card
    an issue is limited to is read otherwise than one it is not."""
    from kb.questions import known_issues

    data, _rules = real
    first: dict = {}
    ops = [r["version"] for r in data["releases"]["gpu-operator"]["releases"]]
    drivers = [None, *askdata.node_driver_lines(data)]
    for cid in data["cards"]:
        same = first.setdefault(known_issues.card_reads(data, cid), cid)
        if same != cid:
            for op in ops:
                for driver in drivers:
                    assert (known_issues.facts(data, operator=op, driver=driver, card=cid)
                            == known_issues.facts(data, operator=op, driver=driver, card=same)), (cid, same, op, driver)
    limited = next(issue for _file, issue in known_issues.all_issues(data) if issue.get("cards"))
    outside = next(c for c in data["cards"] if c not in limited["cards"])
    assert known_issues.card_reads(data, limited["cards"][0]) != known_issues.card_reads(data, outside)
    assert len(first) >= 2


class _Verdict(dict):
    """A MIG answer of which only the verdict may be read."""

    def __getitem__(self, key):
        assert key == "verdict", f"the facts read {key!r} of the MIG answer"
        return super().__getitem__(key)

    def get(self, key, default=None):
        return self[key] if key in self else default


def _reading_only_parts(monkeypatch, data, rules, question: str):
    """An asker whose `question` facts fail on reading a part of the release not in its module's RELEASE_PARTS, or
    anything but the verdict of another question's answer: (asker, [(question asked, driver)])."""
    mod = module(question)
    original = release.part

    def part(name, *args, **kw):
        assert name in mod.RELEASE_PARTS, f"the {question} facts read the release's part {name}"
        return original(name, *args, **kw)
    monkeypatch.setattr(mod, "part", part)
    asker = TemplateAsker(data, rules=rules)
    asked = []
    answer = asker.answer

    def recorded(q, inputs, **kw):
        asked.append((q, inputs.get("driver")))
        return answer(q, inputs, **kw) if q == question else _Verdict(answer(q, inputs, **kw))
    monkeypatch.setattr(asker, "answer", recorded)
    return asker, asked


def test_the_resource_facts_read_of_the_release_only_its_parts_and_the_mig_verdict(real, monkeypatch):
    """askdata.resource_classes asks one release per class of kb.questions.resource.RELEASE_PARTS and the card's
    MIG verdict without a driver: the resource facts of every request the page makes for a card must read no other
    part of the release and nothing of the MIG answer but its verdict."""
    from kb.questions import resource

    data, rules = real
    asker, asked = _reading_only_parts(monkeypatch, data, rules, "resource")
    ops = asker.index["operator_releases"]
    combos = askdata.resource_combos(asker.index["cards"][CARD]["profiles"], askdata.replica_classes(rules))
    with bulk():
        for op in (ops[0], ops[-1]):
            for c in combos:
                resource.facts(asker, {"card": CARD, "operator": askdata._op(op), "replicas": (c["replicas"] or [None])[0],
                                       **{k: v for k, v in c.items() if k not in ("class", "replicas")}})
    assert set(asked) == {("mig", None)}


# --- classes of drivers: the methods question asks one driver per class (askdata.driver_classes) -------------------

@pytest.mark.parametrize("question", ["methods", "strategy"])
def test_the_facts_read_the_driver_only_through_their_parts_and_the_mig_verdict(real, monkeypatch, question):
    """askdata.driver_classes asks the methods question (and builds the strategy facts of a GPU) for one driver per
    class of their DRIVER_PARTS and the card's MIG verdict under the driver: their facts must read the driver asked
    about no other way (a part read with the driver, the MIG answer beyond its verdict, or the driver's version
    compared outside)."""
    mod = module(question)
    data, rules = real
    driver = _drivers(data, CARD)[3]
    inside = _compared_inside(monkeypatch, driver, "the driver's version")
    original_part = inside(release.part)

    def part(name, *args, **kw):
        assert kw.get("driver") is None or name in mod.DRIVER_PARTS, f"the {question} facts read {name} with the driver"
        return original_part(name, *args, **kw)

    asker = TemplateAsker(data, rules=rules)
    answer = asker.answer

    def mig(q, inputs, **kw):
        assert q == "mig"
        return _Verdict(answer(q, inputs, **kw))
    monkeypatch.setattr(mod, "part", part)
    monkeypatch.setattr(asker, "answer", inside(mig))
    profile = asker.index["cards"][CARD]["profiles"][0]
    for op in asker.index["operator_releases"][:3]:
        for variant in (False, True):
            inputs = ({"card": CARD, "mig_enabled": variant} if question == "methods" else
                      {"gpus": [{"card": CARD, "profiles": [profile] if variant else []}, {"card": CARD, "profiles": [profile]}]})
            facts = mod.facts(asker, {**inputs, "operator": askdata._op(op), "driver": driver})
            assert any(f.get("version") == driver for f in facts)  # (the driver was asked about)


def _driver_pair(data, rules, cid):
    """The newest release and two drivers (sentinels, the older first) of one class of the real catalog."""
    asker = TemplateAsker(data, rules=rules)
    op = asker.index["operator_releases"][0]
    drivers = _drivers(data, cid)
    with bulk():
        verdicts = [asker.answer("mig", {"card": cid, "operator": askdata._op(op), "driver": d})["verdict"] for d in drivers]
        keys = askdata.driver_classes(asker, data["cards"][cid], op, drivers, verdicts)
    older, newer = next((drivers[i], drivers[j]) for i in range(1, len(drivers)) for j in range(i + 1, len(drivers))
                        if keys[i] == keys[j])
    return op, older, newer


@pytest.mark.parametrize("read", ["issues", "mig verdict"])
def test_two_drivers_differing_in_what_the_methods_facts_read_are_classes_apart(real, read):
    """Two drivers of one class, the catalog patched so they differ in one thing the methods facts read of the driver
    (a known issue of the newer driver only; the card's minimum MIG driver between them): their keys differ, and so do
    their methods answers (one class would have given them one answer)."""
    data, rules = real
    op, older, newer = _driver_pair(data, rules, CARD)
    patched = _copy({k: v for k, v in data.items() if k != "index"})
    patched["hash"] = f"{data.get('hash')}+test-driver-classes-{read}"
    if read == "issues":  # the vGPU issue (read by a methods rule) as one of the newer driver on this card
        issue = next(i for _c, f in sorted(patched["releases"].items()) for i in f.get("known_issues", [])
                     if i["trigger"] == "mig-backed-vgpu")
        issue.update(component="driver", affects=[{"first": newer, "last": newer}], cards=[CARD])
    else:  # MIG on the card from the newer driver on
        patched["cards"][CARD]["mig"]["prerequisites"]["min_driver"]["value"] = newer
    asker = TemplateAsker(patched, rules=rules)
    card = patched["cards"][CARD]
    with bulk():
        inputs = [{"card": CARD, "operator": askdata._op(op), "driver": d} for d in (older, newer)]
        verdicts = [asker.answer("mig", i)["verdict"] for i in inputs]
        keys = askdata.driver_classes(asker, card, op, [older, newer], verdicts)
        answers = [asker.answer("methods", {**i, "mig_enabled": False}) for i in inputs]
    assert keys[0] != keys[1], f"{read}: the key does not tell {older} and {newer} apart"
    said = [(a["verdict"], a["details"], [r["rule"] for r in a["reasons"]]) for a in answers]
    assert said[0] != said[1], f"{read}: {older} and {newer} get the same methods answer"


def test_a_rule_reading_the_driver_left_open_stops_the_classes(real):
    """A mig rule whose condition or citation reads the driver asked about (the card fact's `driver`): two drivers given
    as alike are refused, not answered alike. The real rules name it in texts only (a slot the page fills in); the
    citation of MIG-010 and MIG-011 reads a driver exception's own `driver`, another fact's."""
    data, rules = real
    op = askdata._op(TemplateAsker(data, rules=rules).index["operator_releases"][0])
    drivers = _drivers(data, CARD)[1:3]
    requests = [({"card": CARD, "operator": op, "driver": d}, {op: "operator", d: "driver"}) for d in drivers]
    with bulk():
        TemplateAsker(data, rules=rules).templates("mig", requests, alike=([0, 0], ("driver",)))  # (no error)
    swapped = copy.deepcopy(next(r for r in rules["mig"] if r["id"] == "MIG-009"))
    swapped["cites"] = [*swapped["cites"], "cards/{card}#operator_support.driver_exceptions[{driver}].fact?"]
    for rule in (swapped, {**swapped, "cites": swapped["cites"][:-1], "when": [
            (alias, {"$and": [*cond["$and"], {"driver": "580.82.07"}]}) for alias, cond in swapped["when"]]}):
        patched = {**rules, "mig": [rule if r["id"] == "MIG-009" else r for r in rules["mig"]]}
        with bulk(), pytest.raises(KeyError, match="a mig rule reads driver, which holds a version the ask page leaves"):
            TemplateAsker(data, rules=patched).templates("mig", requests, alike=([0, 0], ("driver",)))


# --- the resource question's classes of releases compare only the behaviour facts it may read ---------------------

@pytest.mark.parametrize("question", ["mig", "methods"])
def test_the_mig_and_methods_facts_read_of_the_release_only_their_parts(real, monkeypatch, question):
    """askdata.release_reads compares releases by the RELEASE_PARTS of mig and methods (and methods by the card's MIG
    verdict under the release and driver): their facts and folds must read no other part of the release and nothing
    of the MIG answer but its verdict."""
    data, rules = real
    asker, asked = _reading_only_parts(monkeypatch, data, rules, question)
    ops = asker.index["operator_releases"]
    with bulk():
        for op in (ops[0], ops[-1]):
            for driver in _drivers(data, CARD)[:3]:
                inputs = {"card": CARD, "operator": askdata._op(op), "driver": driver}
                asker.answer(question, inputs if question == "mig" else {**inputs, "mig_enabled": True})  # (and fold)
    assert {q for q, _d in asked} == ({"mig"} if question == "mig" else {"mig", "methods"})


@pytest.mark.parametrize("question", ["resource", "methods"])
def test_the_facts_read_of_the_behaviour_only_their_statements(real, monkeypatch, question):
    """askdata.release_reads compares of the part `behaviour` only the question's STATEMENTS and the facts a rule of it
    may match: the facts themselves may read no other behaviour fact (they pass them on)."""
    mod = module(question)
    data, rules = real
    original = release.part

    class Unread(dict):
        """A behaviour fact whose identity (component, statement) may be looked at, nothing else."""

        def __getitem__(self, key):
            if key not in ("component", "statement"):
                raise AssertionError(f"the resource facts read {key} of the behaviour fact {dict(self)['statement']}")
            return super().__getitem__(key)

        def _fail(self, *args, **kw):
            raise AssertionError(f"the resource facts read the behaviour fact {dict(self)['statement']}")
        get = __contains__ = keys = items = values = _fail

    def part(name, *args, **kw):
        value = original(name, *args, **kw)
        if name != "behaviour":
            return value
        return [f if (f["component"], f["statement"]) in mod.STATEMENTS else Unread(f) for f in value]

    monkeypatch.setattr(mod, "part", part)
    asker = TemplateAsker(data, rules=rules)
    combos = askdata.resource_combos(asker.index["cards"][CARD]["profiles"], askdata.replica_classes(rules))
    if question == "methods":
        combos = [{"driver": None, "mig_enabled": e} for e in (False, True)]
    with bulk():
        for op in asker.index["operator_releases"]:
            for c in combos:
                facts = mod.facts(asker, {"card": CARD, "operator": askdata._op(op), **{k: v for k, v in c.items() if k != "class"},
                                          **({"replicas": (c["replicas"] or [None])[0]} if question == "resource" else {})})
    assert any(isinstance(f, Unread) for f in facts)  # (there are behaviour facts it does not read)


def test_a_behaviour_fact_a_resource_rule_matches_splits_the_resource_classes(real):
    """Two releases of one resource class whose behaviour facts differ in a statement no resource rule matches: with
    RES-023 made to match that statement (as the newer release has it), they are classes apart and a pod requesting
    MPS gets different answers under them."""
    from kb.questions import behaviour

    data, rules = real
    asker = TemplateAsker(data, rules=rules)
    card = data["cards"][CARD]
    ops = asker.index["operator_releases"]
    with bulk():
        standing = askdata.resource_classes(asker, card, ops)
    facts = {op: {(f["component"], f["statement"]): f for f in behaviour.facts(data, op)} for op in ops}
    newer, older, (component, statement) = next(
        (first, op, s) for op, first in standing.items() if first != op
        for s, f in facts[first].items() if f["status"] != facts[op].get(s, {}).get("status"))
    swapped = copy.deepcopy(next(r for r in rules["resource"] if r["id"] == "RES-023"))
    swapped["when"] = [(alias, {"$and": [{"kind": "behaviour"}, {"component": component}, {"statement": statement},
                                          {"status": facts[newer][component, statement]["status"]}]} if alias == "b" else cond)
                       for alias, cond in swapped["when"]]
    patched_rules = {**rules, "resource": [swapped if r["id"] == "RES-023" else r for r in rules["resource"]]}
    asker = TemplateAsker(data, rules=patched_rules)
    with bulk():
        split = askdata.resource_classes(asker, card, [newer, older])
        answers = [asker.answer("resource", {"card": CARD, "operator": askdata._op(op), "profile": None, "mig_strategy": None,
                                             "mode": "mps", "replicas": 4, "rename_by_default": False}) for op in (newer, older)]
    assert split[older] == older, f"{statement}: the classes do not tell {newer} and {older} apart"
    assert answers[0]["verdict"] != answers[1]["verdict"]


# --- the resource requests of one release class's first releases: one asked per class of what may fire ------------

def _time_slicing(op: str) -> tuple:
    inputs = {"card": CARD, "operator": askdata._op(op), "profile": None, "mig_strategy": None, "mode": "time-slicing",
              "replicas": 4, "rename_by_default": False}
    return inputs, {askdata._op(op): "operator"}


def test_a_behaviour_fact_a_rule_that_may_fire_matches_splits_the_requests_classed_by_facts(real):
    """Two releases that differ in the device plugin's MPS sharing: their time-slicing requests are one class
    (`templates` by_facts: no rule that may fire for time-slicing matches that statement). With RES-022 (time-slicing)
    made to need the newer release's status of it, they are classes apart and get the answers `gpukb ask` gives,
    which differ."""
    from kb.questions import behaviour

    data, rules = real
    asker = TemplateAsker(data, rules=rules)
    ops = asker.index["operator_releases"]
    status = {op: behaviour.status_of(behaviour.facts(data, op), *behaviour.MPS_SHARING) for op in ops}
    newer, older = next((a, b) for a, b in zip(ops, ops[1:]) if status[a] != status[b])

    def classed(asker):
        asker.real.update({askdata._op(op): op for op in (newer, older)})
        requests = [_time_slicing(op) for op in (newer, older)]
        with bulk():
            keys = [asker._fact_class("resource", i, module("resource").facts(asker, i), askdata._op(op), None)
                    for (i, _s), op in zip(requests, (newer, older))]
            got = asker.templates("resource", requests, askdata.derived, by_facts=("operator",))
            # (an asker of its own: this one answers from the templates just computed)
            alone = TemplateAsker(data, rules=asker.rules)
            said = [alone.answer("resource", {**i, "operator": op}) for (i, _s), op in zip(requests, (newer, older))]
        return keys, got, said

    keys, got, _said = classed(asker)
    assert keys[0] == keys[1] and got[0] is got[1]
    swapped = copy.deepcopy(next(r for r in rules["resource"] if r["id"] == "RES-022"))
    swapped["when"] = [*swapped["when"], ("b", {"$and": [{"kind": "behaviour"}, {"component": behaviour.MPS_SHARING[0]},
                                                         {"statement": behaviour.MPS_SHARING[1]}, {"status": status[newer]}]})]
    patched = {**rules, "resource": [swapped if r["id"] == "RES-022" else r for r in rules["resource"]]}
    keys, got, said = classed(TemplateAsker(data, rules=patched))
    assert keys[0] != keys[1], "the classes do not tell apart what a rule that may fire matches"
    rules_said = [[r["rule"] for r in a["reasons"]] for a in said]
    assert "RES-022" in rules_said[0] and "RES-022" not in rules_said[1]
    assert [[r["rule"] for r in t["reasons"]] for t in got] == rules_said


def test_a_condition_reading_the_release_stops_the_classes_by_facts(real):
    """A resource rule whose condition compares the release's version: requests classed by their facts are refused
    (the version is left open in a class), not answered alike."""
    data, rules = real
    swapped = copy.deepcopy(next(r for r in rules["resource"] if r["id"] == "RES-022"))
    swapped["when"] = [(alias, {"$and": [*cond["$and"], {"operator": "25.3.0"}]}) for alias, cond in swapped["when"]]
    patched = {**rules, "resource": [swapped if r["id"] == "RES-022" else r for r in rules["resource"]]}
    asker = TemplateAsker(data, rules=patched)
    ops = asker.index["operator_releases"][:2]
    with bulk(), pytest.raises(KeyError, match="leaves open"):
        asker.templates("resource", [_time_slicing(op) for op in ops], askdata.derived, by_facts=("operator",))


def test_requests_classed_by_facts_keep_what_the_request_fact_takes_from_the_release(real):
    """Two releases whose support lists differ about a card (the request fact's `operator_listed`, which RES-025 reads)
    and whose time-slicing requests no rule that may fire tells apart by a behaviour fact: classes apart, and the
    templates say what `gpukb ask` says under each."""
    data, rules = real
    asker = TemplateAsker(data, rules=rules)
    ops = asker.index["operator_releases"]
    cid, newer, older = next((cid, a, b) for cid, card in data["cards"].items() for a, b in zip(ops, ops[1:])
                             if release.part("listed", data, a, card) != release.part("listed", data, b, card))
    asker.real.update({askdata._op(op): op for op in (newer, older)})
    requests = [({**_time_slicing(op)[0], "card": cid}, _time_slicing(op)[1]) for op in (newer, older)]
    alone = TemplateAsker(data, rules=rules)
    with bulk():
        got = asker.templates("resource", requests, askdata.derived, by_facts=("operator",))
        said = [alone.answer("resource", {**i, "operator": op}) for (i, _s), op in zip(requests, (newer, older))]
    rules_said = [[r["rule"] for r in a["reasons"]] for a in said]
    assert rules_said[0] != rules_said[1]
    assert [[r["rule"] for r in t["reasons"]] for t in got] == rules_said


# --- classes of drivers: the mig question asks one driver per class of what its facts read (askdata.mig_driver_key) --

def _mig_keys(data, rules, cid, op):
    asker = TemplateAsker(data, rules=rules)
    drivers = _drivers(data, cid)
    with bulk():
        raw = askdata.release_reads(asker, data["cards"][cid], op, "mig", drivers)
    texts: dict = {}
    return drivers, [askdata.mig_driver_key(data["cards"][cid], askdata.by_driver(raw), d, texts) for d in drivers]


@pytest.mark.parametrize("read", ["issues", "minimum", "exception"])
def test_two_drivers_differing_in_what_the_mig_facts_read_are_classes_apart(real, read):
    """compute_cards asks the mig question for one driver per class of askdata.mig_driver_key (the card's facts with the
    driver compared, the release's known issues for it). Two drivers of one class, the catalog patched so they differ
    in one thing the MIG facts read of the driver (a known issue of the newer one only; the card's minimum MIG driver
    between them; a driver exception for the newer one): their keys differ, and so do their MIG answers."""
    data, rules = real
    op = TemplateAsker(data, rules=rules).index["operator_releases"][0]
    drivers, keys = _mig_keys(data, rules, CARD, op)
    older, newer = next((drivers[i], drivers[j]) for i in range(1, len(drivers)) for j in range(i + 1, len(drivers))
                        if keys[i] == keys[j])
    patched = _copy({k: v for k, v in data.items() if k != "index"})
    patched["hash"] = f"{data.get('hash')}+test-mig-driver-classes-{read}"
    card = patched["cards"][CARD]
    if read == "issues":  # the mixed MIG and whole GPUs issue as one of the newer driver on this card
        issue = next(i for _c, f in sorted(patched["releases"].items()) for i in f.get("known_issues", [])
                     if i["component"] == "driver" and i["trigger"] == "node-mixes-mig-and-full-gpus")
        issue.update(affects=[{"first": newer, "last": newer}])
    elif read == "minimum":
        card["mig"]["prerequisites"]["min_driver"]["value"] = newer
    else:
        card["operator_support"]["driver_exceptions"] = [{"driver": newer, "feature": "mig", "fact": {
            "value": {"en": "No MIG on this driver.", "de": "Kein MIG auf diesem Treiber."},
            "cite": card["mig"]["status"]["cite"]}}]
    drivers, keys = _mig_keys(patched, rules, CARD, op)
    assert keys[drivers.index(older)] != keys[drivers.index(newer)], f"{read}: the key does not tell them apart"
    asker = TemplateAsker(patched, rules=rules)
    with bulk():
        said = [asker.answer("mig", {"card": CARD, "operator": askdata._op(op), "driver": d}) for d in (older, newer)]
    assert [[r["rule"] for r in a["reasons"]] for a in said][0] != [[r["rule"] for r in a["reasons"]] for a in said][1]


def test_a_known_issue_no_rule_of_the_question_may_match_leaves_two_drivers_in_one_class(real):
    """The keys of drivers (mig: askdata.mig_driver_key; methods and strategy: askdata.driver_classes) compare only
    the known issues a rule of the question may match (askdata.issues_read): an issue of the newer driver only
    whose trigger no rule reads is in both drivers' facts (affected for one, not for the other), yet leaves them
    in one class, and their answers are indeed the same. (Without the test the keys of most drivers of a release
    differed: the mig question was asked 2,810 times for 309 templates, methods 4,107 times for 903.)"""
    data, rules = real
    op = TemplateAsker(data, rules=rules).index["operator_releases"][0]
    drivers, keys = _mig_keys(data, rules, CARD, op)
    older, newer = next((drivers[i], drivers[j]) for i in range(1, len(drivers)) for j in range(i + 1, len(drivers))
                        if keys[i] == keys[j])
    patched = _with_unread_issue(data, "driver", older, newer)
    drivers, keys = _mig_keys(patched, rules, CARD, op)
    assert keys[drivers.index(older)] == keys[drivers.index(newer)]
    asker = TemplateAsker(patched, rules=rules)
    with bulk():
        inputs = [{"card": CARD, "operator": askdata._op(op), "driver": d} for d in (older, newer)]
        verdicts = [asker.answer("mig", i)["verdict"] for i in inputs]
        classes = askdata.driver_classes(asker, patched["cards"][CARD], op, [older, newer], verdicts)
        said = [(asker.answer("mig", i), asker.answer("methods", {**i, "mig_enabled": False})) for i in inputs]
    assert classes[0] == classes[1]
    assert [[(a["verdict"], [r["rule"] for r in a["reasons"]]) for a in pair] for pair in said][0] == \
        [[(a["verdict"], [r["rule"] for r in a["reasons"]]) for a in pair] for pair in said][1]


def test_two_releases_differing_only_in_a_known_issue_no_rule_of_a_card_may_match_are_one_class(real):
    """A card's classes of releases (askdata.release_classes) compare of the known issues only those a rule of
    CARD_QUESTIONS may match: a known issue of the newer release only whose trigger no rule reads leaves the two in
    one class, and the card's page data is byte for byte what asking every release gives. (Without it, 800 of the
    1,342 releases of the 61 cards were asked; with it 277.)"""
    data, rules = real
    newer, older = _pair(data, rules, CARD)
    patched = _two_releases(_with_unread_issue(data, "gpu-operator", older, newer), newer, older)
    assert _classes(patched, rules, CARD) == {newer: newer, older: newer}
    assert _page_data(patched, rules, CARD, True) == _page_data(patched, rules, CARD, False)


def _with_unread_issue(data: dict, component: str, older: str, newer: str) -> dict:
    """The catalog with one more known issue of `component`, affecting version `newer` only, whose trigger no rule
    reads: in the facts of both versions (affected for one, not for the other)."""
    from kb.questions import known_issues

    patched = _copy({k: v for k, v in data.items() if k != "index"})
    patched["hash"] = f"{data.get('hash')}+test-unread-issue-{component}"
    model = next(i for _c, f in sorted(patched["releases"].items()) for i in f.get("known_issues", [])
                 if i["component"] == component)
    patched["releases"]["gpu-operator"]["known_issues"].append(
        {**_copy(model), "id": "read-by-no-rule", "trigger": "read-by-no-rule", "affects": [{"first": newer, "last": newer}]})
    asked = "driver" if component == "driver" else "operator"
    read = [f["status"] for v in (older, newer) for f in known_issues.facts(patched, card=CARD, **{asked: v})
            if f["issue"] == "read-by-no-rule"]
    assert read == ["unaffected", "affected"]  # (the facts of the two versions differ)
    return patched


# --- plain MIG profiles shared by time-slicing or MPS: one template, the profile a slot (askdata.profile_derived) ----

PROFILED = "h100-sxm5-80gb"


def _filled(value, values: dict):
    """A template's text with its slots filled (as ask.js `fill`)."""
    from kb.site.askbatch import CLOSE, OPEN

    if isinstance(value, str):
        for name, v in values.items():
            value = value.replace(f"{OPEN}{name}{CLOSE}", v)
        return value
    if isinstance(value, dict):
        return {k: _filled(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, values) for v in value]
    return value


def _profile_templates(data, rules, combos_of=None, cid=PROFILED, op=None):
    asker = TemplateAsker(data, rules=rules)
    op = op or asker.index["operator_releases"][0]
    asker.real[askdata._op(op)] = op
    card = data["cards"][cid]
    combos = askdata.resource_combos(asker.index["cards"][cid]["profiles"], askdata.replica_classes(rules))
    combos = [c for c in combos if combos_of is None or combos_of(c)]
    with bulk():
        got = askdata._resource_templates(asker, cid, [op], combos, lambda o: {askdata._op(o): "operator"})
    return asker, op, card, combos, got


def _page_says_what_the_cli_says(asker, data, rules, cid, op, profile, template, n):
    said = TemplateAsker(data, rules=rules).answer("resource", {
        "card": cid, "operator": op, "profile": profile, "mig_strategy": "mixed", "mode": "time-slicing", "replicas": n,
        "rename_by_default": False})
    derive = askdata.profile_derived(data)
    values = {"operator": op, "replicas": str(n), "profile": profile, **asker.release_values.get(askdata._op(op), {}),
              **{k: str(derive(k, profile, {"card": cid})) for k in ("own_resource", "profile_count", "base_profile",
                                                                      "base_resource")}}
    values["mig_resource"] = values["own_resource"]  # (as ask.js: a variant's template names which one it is)
    shown = _filled(template, values)
    assert shown["summary"] == said["summary"] and shown["details"]["resource"] == said["details"]["resource"]
    assert [(r["rule"], r["text"]) for r in shown["reasons"]] == [(r["rule"], r["text"]) for r in said["reasons"]]
    return said


def test_one_resource_template_stands_for_a_cards_plain_profiles_where_one_is_shared(real):
    """Time-slicing on each plain MIG profile of a card: one template object, which — the profile, its resource name
    and count filled in as the page does — says what `gpukb ask resource` says for each profile; a variant profile
    and a MIG request without sharing (which cites the profile's own entry) keep templates of their own."""
    data, rules = real
    plain = askdata.profile_groups(data["cards"][PROFILED])[0]
    assert len(plain) >= 3
    asker, op, card, combos, got = _profile_templates(
        data, rules, lambda c: c["profile"] and c["mig_strategy"] == "mixed" and not c["rename_by_default"]
        and c["mode"] in ("time-slicing", "mig") and c["class"] in (None, 0))
    by = {(c["profile"], c["mode"]): t for c, t in zip(combos, got)}
    shared = {id(by[p, "time-slicing"]) for p in plain}
    assert len(shared) == 1
    assert len({id(by[p, "mig"]) for p in plain}) == len(plain)  # (RES-002 cites the profile's own entry)
    variant = next(p["name"] for p in card["mig"]["profiles"] if p.get("variant"))
    assert id(by[variant, "time-slicing"]) not in shared
    n = askdata.replica_classes(rules)[0]["reps"][0]
    with bulk():
        for profile in plain:
            _page_says_what_the_cli_says(asker, data, rules, PROFILED, op, profile, by[profile, "time-slicing"], n)


def test_one_resource_template_stands_for_a_cards_variants_under_each_release(real):
    """Time-slicing on A30's two variant profiles (1g.6gb+me, 2g.12gb+me): one template per release; the page fills in
    the resource the release's device plugin advertises them as — the plain profile's under GPU Operator 25.3.0
    (device plugin v0.17.1), their own under the newest release — and says what `gpukb ask resource` says."""
    data, rules = real
    variants = askdata.profile_groups(data["cards"]["a30"])[1]
    assert len(variants) == 2
    n = askdata.replica_classes(rules)[0]["reps"][0]
    resources = []
    for op in (None, "25.3.0"):
        asker, op, _card, combos, got = _profile_templates(
            data, rules, lambda c: c["profile"] in variants and c["mig_strategy"] == "mixed" and c["mode"] == "time-slicing"
            and not c["rename_by_default"] and c["class"] == 0, cid="a30", op=op)
        assert len({id(t) for t in got}) == 1
        with bulk():
            resources.append([_page_says_what_the_cli_says(asker, data, rules, "a30", op, c["profile"], t, n)["details"]["resource"]
                              for c, t in zip(combos, got)])
    assert resources == [["nvidia.com/mig-1g.6gb.me", "nvidia.com/mig-2g.12gb.me"],
                         ["nvidia.com/mig-1g.6gb", "nvidia.com/mig-2g.12gb"]]


def _rule_changed(rules, rid, **change):
    rule = copy.deepcopy(next(r for r in rules["resource"] if r["id"] == rid))
    rule.update(change)
    return {**rules, "resource": [rule if r["id"] == rid else r for r in rules["resource"]]}


def test_a_shared_profiles_rule_citing_the_profile_keeps_the_profiles_apart(real):
    """RES-014 (time-slicing on MIG, mixed) made to cite the profile's own entry, as RES-002 does: the one template
    would cite the first profile for all of them; refused."""
    data, rules = real
    rule = next(r for r in rules["resource"] if r["id"] == "RES-014")
    patched = _rule_changed(rules, "RES-014", cites=[*rule["cites"], "cards/{card}#mig.profiles[{profile}]"])
    with pytest.raises(ValueError, match="a resource rule reads profile, which follows from profile"):
        _profile_templates(data, patched, lambda c: c["profile"] and c["mode"] == "time-slicing")


def test_a_text_reading_what_the_page_cannot_compute_from_the_profile_is_refused(real):
    """RES-014's text made to read the profile's memory, which the page does not compute from the profile's name:
    refused, not written as the first profile's."""
    data, rules = real
    rule = next(r for r in rules["resource"] if r["id"] == "RES-014")
    text = {k: v + " {profile_memory_gb}" for k, v in rule["then"]["text"].items()}
    patched = _rule_changed(rules, "RES-014", then={**rule["then"], "text": text})
    with pytest.raises(ValueError, match="does not know how profile_memory_gb follows from profile"):
        _profile_templates(data, patched, lambda c: c["profile"] and c["mode"] == "time-slicing")


def test_what_follows_from_the_first_profile_must_follow_from_every_plain_one(real):
    """A page that computed the profile count wrong for one profile (here: the first profile's count for all) would
    fill in a wrong count: every plain profile's facts are checked against it."""
    data, rules = real
    asker = TemplateAsker(data, rules=rules)
    plain = askdata.profile_groups(data["cards"][PROFILED])[0]
    right = askdata.profile_derived(data)

    def wrong(prop, profile, fact):
        return right(prop, plain[0], fact) if prop == "profile_count" else right(prop, profile, fact)
    inputs = {"card": PROFILED, "operator": asker.index["operator_releases"][0], "profile": plain[0],
              "mig_strategy": "mixed", "mode": "time-slicing", "replicas": 4, "rename_by_default": False}
    with bulk():
        asker.check_varied("resource", inputs, "profile", plain, right)
        with pytest.raises(ValueError, match="computes profile_count for profile"):
            asker.check_varied("resource", inputs, "profile", plain, wrong)


def test_a_condition_reading_what_differs_only_for_a_third_profile_is_refused_too(real, monkeypatch):
    """1g.20gb and 2g.20gb hold the same memory, 1g.10gb another. With those two first and RES-015 (renamed: not the
    first combination of its sharing, where every plain profile is compared) made to need 20 GB, the request's two
    profiles fire it alike: still refused (`check_varied` tells what differs for any plain profile), not answered for
    1g.10gb as for 1g.20gb."""
    data, rules = real
    monkeypatch.setattr(askdata, "profile_groups", lambda card: [["1g.20gb", "2g.20gb", "1g.10gb"], []])
    rule = next(r for r in rules["resource"] if r["id"] == "RES-015")
    when = [(alias, {"$and": [*cond["$and"], {"profile_memory_gb": 20}]}) for alias, cond in rule["when"]]
    patched = _rule_changed(rules, "RES-015", when=when)
    with pytest.raises(ValueError, match="does not know how profile_memory_gb follows from profile"):
        _profile_templates(data, patched, lambda c: c["profile"] and c["mode"] == "time-slicing")
