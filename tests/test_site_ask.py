"""The ask page's data against `gpukb ask`: every answer the page can show, filled in the way the page fills
it (tests/ask_oracle.py mirrors docs/javascripts/ask.js), equals the engine's answer for the same input —
for inputs of the exported tables (every card; a fixed sample of each card's releases, driver classes and
resource combinations — all of them with GPUKB_FULL=1), and for typed versions around every line of the catalog.

The page's own script is checked against the same oracle in tests/test_site_browser.py.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from ask_oracle import Oracle, cli_view, page_view
from conftest import REPO
from sampling import FULL, sample
from kb.answer import localise
from kb.catalog.compiled import load_data
from kb.engine.rules import load_rules
from kb.questions import Asker, resolve
from kb.site import askdata, forked
from kb.site.askbatch import OPEN, classify, intervals, number_classes, padded


@pytest.fixture(scope="module")
def world(site_built):
    """The ask page's data as the session's site build wrote it (docs/generated/ask/data/), and the engine on
    the catalog it was built from."""
    import json

    from kb.catalog import compiled

    folder = site_built.docs / "generated" / "ask" / "data"

    def read(path):
        return json.loads(path.read_text(encoding="utf-8"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GPUKB_CATALOG", str(site_built.catalog))
        # the catalog as the build compiled it (the cache is keyed by content: what a CLI on this folder reads)
        mp.setenv("GPUKB_CACHE_DIR", str(site_built.site.parent / "cache"))
        compiled.forget()
        data = load_data()
        rules = load_rules()
        payloads = {lang: {"shared": read(folder / f"shared.{lang}.json"),
                           "cards": {cid: read(folder / "cards" / f"{cid}.{lang}.json") for cid in data["cards"]}}
                    for lang in ("de", "en")}
        yield {"data": data, "rules": rules, "asker": Asker(data, rules=rules), "page": payloads,
               "oracle": {lang: Oracle(p) for lang, p in payloads.items()}}
    compiled.forget()


def cli(world, question: str, lang: str, **raw) -> dict:
    asker = world["asker"]
    inputs = resolve(question, asker.index, **raw)
    return cli_view(localise(asker.answer(question, inputs), lang))


def same(world, question: str, state: dict, raw: dict, lang: str = "en") -> None:
    shown = page_view(world["oracle"][lang].ask(question, state))
    expected = cli(world, question, lang, **raw)
    if shown != expected:  # name the first difference: the whole answers are long
        diff = next(((k, shown[k], expected[k]) for k in expected if shown.get(k) != expected[k]), None)
        raise AssertionError(f"{question} {state}: {diff}")


# --- intervals ---------------------------------------------------------------------------------------

def test_intervals_cover_every_version_once():
    classes = intervals(["575.57.08", "580.65.06", "575.57.08", "575.51.03"])
    for key in [(0, 0, 0, 0), (575, 51, 3, 0), (575, 51, 3, 1), (575, 57, 8, 0), (580, 0, 0, 0),
                (580, 65, 6, 0), (999, 999, 999, 999)]:
        hits = [i for i, c in enumerate(classes) if (c.get("at") == key) or ("at" not in c and (
            c["above"] is None or key > c["above"]) and (c["below"] is None or key < c["below"]))]
        assert hits == [classify(key, classes)], key
    assert [c.get("at") for c in classes if "at" in c] == [(575, 51, 3, 0), (575, 57, 8, 0), (580, 65, 6, 0)]
    for c in classes:  # every representative lies in its own class
        assert classify(c["rep"], classes) == classes.index(c)


def test_a_sentinel_decides_like_its_version_and_occurs_in_no_catalog_text(world):
    import json

    text = json.dumps(world["data"], ensure_ascii=False)
    from kb import versions
    from kb.site.askbatch import WIDTH

    assert padded((580, 82, 7), kind="driver") == "00580.00082.00007.00000"
    assert versions.key(padded((580, 82, 7), kind="driver")) == (580, 82, 7, 0)
    # one version as each kind: three different sentinels (an operator release can be a line for Kubernetes)
    assert len({padded((26, 7, 0), 3, kind) for kind in WIDTH}) == 3
    assert "00580.00082" not in text and OPEN not in text


def test_replica_counts_fall_into_classes_between_the_rules_numbers():
    classes = number_classes({48, 1}, 2)
    assert [(c.get("at"), c.get("above"), c.get("below")) for c in classes] == [
        (None, 1, 48), (48, None, None), (None, 48, None)]
    assert classes[0]["reps"] == [2, 3] and classes[2]["reps"] == [49, 50]
    from kb.site.askdata import derived

    # what follows from a replica count, as the facts have it (the page computes the same)
    for n in (2, 3, 7, 48, 49, 100, 101, 2**63 - 1):
        assert derived("client_thread_percentage", n, {}) == 100 // n
        assert derived("client_memory_gb", n, {"memory_gb": 141}) == round(141 / n, 1)


def test_a_cards_files_are_the_same_computed_alone_in_a_forked_process_or_after_another_card():
    """kb.site.askdata.files computes every second card in a forked process: a card's files may depend on
    nothing but the card (byte for byte), and the child's release cites and component versions come back."""
    from kb.site.askbatch import TemplateAsker

    data, rules = load_data(REPO / "catalog"), load_rules()  # compiled by earlier tests (not the site's copy)
    after = askdata._card_files(TemplateAsker(data, rules=rules), data, ["a10", "l4"])
    alone = forked.run_forked(lambda: askdata._card_files(TemplateAsker(data, rules=rules), data, ["l4"]), "l4")()
    assert alone[0] == {k: v for k, v in after[0].items() if "/l4." in k} and len(alone[0]) == 2
    assert alone[2] and all(v.get("component-device-plugin") for v in alone[2].values())
    with pytest.raises(KeyError, match="no such card"):  # raised as in one process (the build names it)
        forked.run_forked(lambda: {}["no such card"], "x")()


def test_the_two_processes_of_the_ask_data_compute_each_card_once_the_first_ones_before_forking(monkeypatch, tmp_path):
    """kb.site.askdata.files with two processes: the first WARM cards in this process before it forks (the forked
    process starts with their memos), then each card taken once by whichever process gets to it, every card's files
    in the result (the cards' work stubbed: a log of who computed which card when)."""
    import os

    log = tmp_path / "log"
    parent = os.getpid()

    def card_files(asker, data, cids):
        files = {}
        for cid in cids:
            with open(log, "a", encoding="utf-8") as fh:  # one write per line (O_APPEND): the processes' lines stay whole
                fh.write(f"{cid} {'parent' if os.getpid() == parent else 'child'} {len(forks)}\n")
            files.update({f"data/cards/{cid}.{lang}.json": f"{cid}.{lang}" for lang in askdata.LANGS})
        return files, {}, {}
    forks = []
    real_fork = askdata.run_forked

    def run_forked(work, what):
        forks.append(what)
        return real_fork(work, what)
    monkeypatch.setattr(askdata, "_card_files", card_files)
    monkeypatch.setattr(askdata, "run_forked", run_forked)
    monkeypatch.setattr(askdata, "compute_shared", lambda asker, data, rules: {"ops": []})
    monkeypatch.setattr(askdata, "release_table", lambda asker, data, ops: {})
    monkeypatch.setattr(askdata, "shared_payload", lambda data, computed, lang: {"lang": lang})
    data = dict(load_data(REPO / "catalog"))
    cids = list(data["cards"])[:12]
    data["cards"] = {cid: data["cards"][cid] for cid in cids}
    out = askdata.files(data, load_rules(), workers=2)
    assert forks == ["computing half of the ask page's cards"]
    assert {k: v for k, v in out.items() if "/cards/" in k} == {
        f"data/cards/{cid}.{lang}.json": f"{cid}.{lang}" for lang in askdata.LANGS for cid in cids}
    lines = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    assert sorted(cid for cid, _, _ in lines) == sorted(cids)  # each card once
    assert lines[:askdata.WARM] == [[cid, "parent", "0"] for cid in cids[:askdata.WARM]]  # before the fork
    assert all(forked_ == "1" for _, _, forked_ in lines[askdata.WARM:])


def test_tickets_are_handed_out_once_each_across_forked_processes():
    """kb.site.forked.Tickets: 0 … n−1 in order, each to one process only; None once all are taken."""
    tickets = forked.Tickets(300)
    assert [tickets.take(), tickets.take()] == [0, 1]

    def take_all():
        out = []
        while (n := tickets.take()) is not None:
            out.append(n)
        return out
    other = forked.run_forked(take_all, "tickets")
    mine = take_all()
    theirs = other()
    assert sorted(mine + theirs) == list(range(2, 300)) and mine == sorted(mine) and theirs == sorted(theirs)
    assert tickets.take() is None
    tickets.close()
    assert tickets.take() is None and forked.Tickets(0).take() is None
    with pytest.raises(ValueError):
        forked.Tickets(forked.Tickets.MOST + 1)


# --- every exported answer ------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_mig_and_methods_answer_of_the_page_is_the_clis(world, lang):
    oracle = world["oracle"][lang]
    checked = 0
    for cid, card in world["page"][lang]["cards"].items():
        states = [(op, n, cls) for op in card["ops"] for n, cls in enumerate([None, *card["classes"]])]
        for op, n, cls in sample(states, 4, seed=f"mig-{cid}-{lang}"):
            driver = None if cls is None else oracle.version_in(cls)
            state = {"card": cid, "operator": op, "driver": driver}
            same(world, "mig", state, dict(card=cid, operator=op, driver=driver), lang)
            same(world, "methods", {**state, "mig-enabled": False}, dict(card=cid, operator=op, driver=driver), lang)
            if len(card["groups"][card["ops"][op]]["methods"][n]) > 1:
                same(world, "methods", {**state, "mig-enabled": True},
                     dict(card=cid, operator=op, driver=driver, mig_enabled=True), lang)
            checked += 1
    assert checked >= 2 * len(world["page"][lang]["cards"])


def test_every_resource_answer_of_the_page_is_the_clis(world):
    """Each kind of combination (profile or none × strategy × mode × renaming × replica class) at least once,
    and a few combinations of every card under a few releases; every one of them with GPUKB_FULL=1."""
    rnd = random.Random(15)
    card_classes = world["page"]["en"]["shared"]["replica_classes"]
    cards = world["page"]["en"]["cards"]
    triples = [(cid, op, combo) for cid, card in cards.items() for op in card["ops"] for combo in card["resource_combos"]]
    kinds: dict = {}
    for cid, op, combo in random.Random(16).sample(triples, len(triples)):
        profile, *rest = combo.split("|")
        kinds.setdefault((bool(profile), *rest), (cid, op, combo))
    cases = set(kinds.values())
    for cid in cards:
        cases.update(sample([t for t in triples if t[0] == cid], 4, seed=cid))
    for cid, op, combo in sorted(cases):
        profile, strategy, mode, rename, cls = combo.split("|")
        if cls:
            c = card_classes[int(cls)]
            n = str(c["at"]) if "at" in c else str(rnd.randint(c["above"] + 1, (c["below"] or 2**63) - 1))
        else:
            n = "4"
        state = {"card": cid, "operator": op, "profile": profile, "strategy": strategy or None,
                 "rename-by-default": rename == "1",
                 "time-slicing": n if mode == "time-slicing" else None, "mps": n if mode == "mps" else None}
        raw = dict(card=cid, operator=op, profile=profile or None, mig_strategy=strategy or None,
                   rename_by_default=rename == "1", time_slicing=int(n) if mode == "time-slicing" else None,
                   mps=int(n) if mode == "mps" else None)
        same(world, "resource", state, raw)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_releases_share_answers_and_the_page_fills_in_what_the_release_ships(world, lang):
    """Releases share templates (kb.site.askbatch): the device plugin version RES-005/006/023 quote and the
    release's own entry RES-006 cites are filled in from the shared file's per-release table. Every release
    of a variant profile under the mixed strategy (RES-006 before device plugin 0.20.0, RES-005 from it on),
    and MPS under every release (RES-023 where the device plugin has no MPS), equal `gpukb ask resource`."""
    page = world["page"][lang]
    card = page["cards"]["a100-pcie-40gb"]
    assert len(card["groups"]) < len(card["ops"]) / 2, "releases whose answers agree share one group"
    assert all(len(page["shared"]["releases"][op]["cites"]) == len(page["shared"]["releases"][page["shared"]["ops"][0]]["cites"])
               for op in page["shared"]["ops"])
    fired = set()
    for op in page["shared"]["ops"]:
        state = {"card": "a100-pcie-40gb", "operator": op, "profile": "1g.5gb+me", "strategy": "mixed"}
        same(world, "resource", state, dict(card="a100-pcie-40gb", operator=op, profile="1g.5gb+me",
                                             mig_strategy="mixed"), lang)
        fired |= {r["rule"] for r in world["oracle"][lang].ask("resource", state)["reasons"]}
        same(world, "resource", {"card": "l4", "operator": op, "mps": "3"}, dict(card="l4", operator=op, mps=3), lang)
    assert {"RES-005", "RES-006"} <= fired


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_recommend_and_dra_answer_of_the_page_is_the_clis(world, lang):
    shared = world["page"][lang]["shared"]
    oracle = world["oracle"][lang]
    for w in shared["workloads"]:
        for iso in (None, "required"):
            same(world, "recommend", {"workload": w["id"], "isolation": iso}, dict(workload=w["id"], isolation=iso), lang)
            for cid in world["page"][lang]["cards"]:
                same(world, "recommend", {"workload": w["id"], "isolation": iso, "card": cid},
                     dict(workload=w["id"], isolation=iso, card=cid), lang)
    ops = random.Random(lang).sample(shared["ops"], len(shared["ops"]))
    n = 0
    for f in shared["features"]:
        for cls in shared["k8s_classes"]:
            k8s = oracle.version_in(cls, parts=3)
            if k8s is None:
                continue
            for install in (None, "operator", "standalone"):
                # each feature × Kubernetes class × install under one release (rotating); all with GPUKB_FULL=1
                for op in (shared["ops"] if FULL else [ops[n % len(ops)]]):
                    same(world, "dra", {"operator": op, "k8s": k8s, "feature": f["id"], "install": install},
                         dict(operator=op, k8s=k8s, feature=f["id"], install=install), lang)
                n += 1


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_standalone_dra_release_answer_of_the_page_is_the_clis(world, lang):
    """`ask dra --dra-driver V`: every standalone release × feature × Kubernetes class, each under one operator
    release (rotating: the page keeps one table per release for every operator release; all with GPUKB_FULL=1)."""
    shared = world["page"][lang]["shared"]
    oracle = world["oracle"][lang]
    assert shared["dra_drivers"] == world["asker"].index["dra_driver_releases"] and "25.8.0" in shared["dra_drivers"]
    ops = random.Random(f"release-{lang}").sample(shared["ops"], len(shared["ops"]))
    n = 0
    for release in shared["dra_drivers"]:
        for f in shared["features"]:
            for cls in shared["k8s_classes"]:
                k8s = oracle.version_in(cls, parts=3)
                if k8s is None:
                    continue
                for op in (shared["ops"] if FULL else [ops[n % len(ops)]]):
                    install = ("standalone", None)[n % 2]  # with or without install=standalone: the same answer
                    same(world, "dra", {"operator": op, "k8s": k8s, "feature": f["id"], "install": install,
                                        "dra-driver": ("v" if n % 3 == 0 else "") + release},
                         dict(operator=op, k8s=k8s, feature=f["id"], install=install, dra_driver=release), lang)
                n += 1
    assert n >= len(shared["dra_drivers"]) * len(shared["features"]) * 2


def test_a_standalone_release_is_refused_on_the_page_as_in_the_cli(world):
    from kb.errors import UnusableInput as InputError

    index, oracle = world["asker"].index, world["oracle"]["en"]
    for raw, state, message in [
        (dict(k8s="1.34.2", dra_driver="0.5.0"), {"k8s": "1.34.2", "dra-driver": "0.5.0"},
         "unknown standalone DRA driver release '0.5.0'"),
        (dict(k8s="1.34.2", dra_driver="25.8.0", install="operator"),
         {"k8s": "1.34.2", "dra-driver": "25.8.0", "install": "operator"}, "installed on its own"),
    ]:
        with pytest.raises(InputError) as cli_exc:
            resolve("dra", index, **raw)
        assert message in cli_exc.value.text["en"]
        with pytest.raises(ValueError) as page_exc:
            oracle.ask("dra", state)
        assert message in str(page_exc.value)


# --- typed versions -----------------------------------------------------------------------------------

def _around(version: str) -> list[str]:
    """Versions at, just below and just above a line, written as people write them."""
    from kb import versions

    parts = list(versions.parse(version))
    below = parts[:-1] + [parts[-1] - 1] if parts[-1] > 0 else parts[:-2] + [parts[-2] - 1, 99]
    above = parts[:-1] + [parts[-1] + 1]
    return [version, ".".join(map(str, below)), ".".join(map(str, above)), "v" + version, version + ".0"]


def _covering(cards: dict) -> list[str]:
    """Cards whose driver lines together are every line of the catalog (each card that adds a line), and a fixed
    sample of the others — every card with GPUKB_FULL=1."""
    seen, covering = set(), []
    for cid, card in cards.items():
        lines = set(askdata.driver_lines(card))
        if lines - seen:
            covering.append(cid)
            seen |= lines
    return sample(list(cards), len(covering) + 4, seed="typed-drivers", always=covering)


def test_typed_drivers_around_every_line_get_the_clis_answer(world):
    rnd = random.Random(7)
    data = world["data"]
    for cid in _covering(data["cards"]):
        card = data["cards"][cid]
        # a branch the MIG guide names as minimum ("595") is typed as its first release
        lines = askdata.driver_lines(card)
        typed = [t for line in lines for t in (_around(line) if "." in line else
                                               [f"{line}.01.01", f"{int(line) - 1}.99.99", f"{line}.00"])]
        typed += [f"{rnd.randint(300, 700)}.{rnd.randint(0, 199)}.{rnd.randint(0, 99):02d}" for _ in range(5)]
        typed += ["580.82", "999.999.999"]
        for op in rnd.sample(world["page"]["en"]["shared"]["ops"], 2):
            for driver in sample(typed, 12, seed=f"{cid}-{op}"):
                same(world, "mig", {"card": cid, "operator": op, "driver": driver}, dict(card=cid, operator=op, driver=driver))
                same(world, "methods", {"card": cid, "operator": op, "driver": driver},
                     dict(card=cid, operator=op, driver=driver), "de")


def test_typed_kubernetes_versions_get_the_clis_answer(world):
    typed = ["1.34.2", "v1.34.2", "1.34.3", "1.35", "1.33.9", "1.32", "1.32.0", "1.31.5", "2.0.0", "1.34.10"]
    for k8s in typed:
        for feature in ("whole-gpu", "dynamic-mig"):
            same(world, "dra", {"k8s": k8s, "feature": feature}, dict(k8s=k8s, feature=feature))


@pytest.mark.parametrize("raw, message", [
    ({"k8s": "1.34"}, "Kubernetes 1.34 without a patch release cannot be answered"),
    ({"k8s": "banana"}, "'banana' is not a Kubernetes version"),
])
def test_the_page_refuses_what_the_cli_refuses(world, raw, message):
    from kb.errors import UnusableInput as InputError

    with pytest.raises(InputError) as cli_exc:
        resolve("dra", world["asker"].index, **raw)
    assert message in cli_exc.value.text["en"]
    with pytest.raises(ValueError) as page_exc:
        world["oracle"]["en"].ask("dra", raw)
    assert message in str(page_exc.value)


# --- strategy: assembled from the engine's conclusions per fact ------------------------------------------

def _nodes(world, count: int, seed: int) -> list[list[str]]:
    rnd = random.Random(seed)
    index = world["asker"].index
    with_profiles = [c for c, card in index["cards"].items() if card["profiles"]]
    out = []
    for _ in range(count):
        gpus = []
        for _ in range(rnd.randint(1, 6)):
            cid = rnd.choice(list(index["cards"]))
            profiles = index["cards"][cid]["profiles"]
            kind = rnd.random()
            if cid in with_profiles and kind < 0.5:
                gpus.append(f"{index['cards'][cid]['short_name']}:all-{rnd.choice(profiles)}")
            elif cid in with_profiles and kind < 0.75:
                gpus.append(f"{cid}:{rnd.choice(profiles)}")
            else:
                gpus.append(cid)
        out.append(gpus)
    return out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_strategy_answers_for_random_nodes_are_the_clis(world, lang):
    ops = world["page"][lang]["shared"]["ops"]
    rnd = random.Random(3)
    drivers = [None, *askdata.node_driver_lines(world["data"]), "580.82.07", "570.150.1", "999.1"]
    for n, gpus in enumerate(_nodes(world, 120, seed=15 if lang == "en" else 16)):
        op = ops[n % len(ops)]
        driver = rnd.choice(drivers)
        same(world, "strategy", {"gpu": gpus, "operator": op, "driver": driver}, dict(gpus=gpus, operator=op, driver=driver), lang)


def test_strategy_answers_for_the_examples_of_the_cli_are_the_clis(world):
    for gpus in (["H200 NVL:all-1g.18gb", "L4"], ["H200 NVL:all-1g.18gb", "H200 NVL"], ["L4", "L40S"],
                 ["H200 NVL:1g.18gb,1g.18gb,2g.35gb"], ["RTX PRO 6000 Server Edition:all-1g.24gb"] * 4):
        same(world, "strategy", {"gpu": gpus}, dict(gpus=gpus))


# --- names -----------------------------------------------------------------------------------------------

NAMES = ["H200 NVL", "h200nvl", "NVIDIA-H200-NVL", "RTX PRO 6000 Server Edition", "rtx pro 6000 workstation",
         "RTX PRO 5000", "RTX PRO 4500", "Ｌ４", "L4", "l40s", "RTX PRO 6000 Blackwell Max-Q Workstation Edition"]


@pytest.mark.parametrize("name", NAMES + ["H200", "RTX PRO 6000", "L40", "Blackwell Max-Q", "", "  "])
def test_card_names_resolve_on_the_page_as_in_the_cli(world, name):
    from kb.errors import UnusableInput as InputError
    from kb.questions.base import card_id

    try:
        expected = card_id(world["asker"].index, name)
    except InputError:
        expected = None
    try:
        got = world["oracle"]["en"].resolve(name)
    except ValueError:
        got = None
    assert got == expected


def test_the_cli_itself_agrees_for_a_typed_driver(world):
    """One round through the real command line (`gpukb ask mig … --json`), not only through the engine."""
    import json

    from kb.cli.main import cli as gpukb

    result = CliRunner().invoke(gpukb, ["ask", "mig", "RTX PRO 6000 Server Edition", "--driver", "575.57.9",
                                        "--json", "--lang", "de"])
    assert result.exit_code == 0, result.output
    oracle = world["oracle"]["de"]
    shown = page_view(oracle.ask("mig", {"card": "RTX PRO 6000 Server Edition", "driver": "575.57.9"}))
    assert shown == cli_view(json.loads(result.output))


# --- a name that fits several cards: answered once where all answers agree, as the CLI --------------------

@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("question, state", [
    ("mig", {"card": "A100 80GB"}), ("methods", {"card": "A100 80GB"}),
    ("recommend", {"card": "A100 80GB", "workload": "dev"}),
])
def test_a_name_fitting_several_cards_with_one_answer_gets_the_clis_one_answer(world, question, state, lang):
    from kb.questions import one_for_all
    from kb.questions.base import AmbiguousCard

    raw = dict(state)
    asker = world["asker"]
    with pytest.raises(AmbiguousCard) as exc:
        resolve(question, asker.index, **raw)
    expected = localise(one_for_all(question, asker, raw, exc.value), lang)
    assert expected["cards"] == ["a100-pcie-80gb", "a100-sxm4-80gb"]
    assert page_view(world["oracle"][lang].ask(question, state)) == cli_view(expected)


@pytest.mark.parametrize("question, state, differ", [
    ("mig", {"card": "A100"}, None),
    ("methods", {"card": "RTX PRO 6000"}, "RTX PRO 6000 Server Edition: yes"),
    ("mig", {"card": "H100 SXM5"}, "H100 SXM5 94GB: yes"),
])
def test_a_name_fitting_several_cards_with_different_answers_is_refused_in_the_clis_words(world, question, state, differ):
    from kb.errors import UnusableInput as InputError
    from kb.questions import one_for_all
    from kb.questions.base import AmbiguousCard

    asker = world["asker"]
    with pytest.raises(AmbiguousCard) as exc:
        resolve(question, asker.index, **state)
    with pytest.raises(InputError) as cli_exc:
        one_for_all(question, asker, state, exc.value)
    with pytest.raises(ValueError) as page_exc:
        world["oracle"]["en"].ask(question, state)
    said = cli_exc.value.text["en"]
    # the page says what the CLI says up to the CLI's "(the answers differ in: …)", which it leaves out
    assert str(page_exc.value) == said.split(" (the answers differ in: ")[0] + (
        "; name one of them" if " (the answers differ in: " in said else "")
    assert differ is None or differ in str(page_exc.value)


def test_the_ask_data_takes_a_second_process_only_on_four_cpus_or_more(monkeypatch):
    """In the build from nothing the build's own process and the JSON API's take two CPUs: on two CPUs the ask
    page's data is one process (a second one only competed and computed the memos again), on four it is two; never
    where the build may not fork, or for a handful of cards."""
    import os

    monkeypatch.setattr(forked, "may_fork", lambda: True)
    for cpus, workers in ((1, 1), (2, 1), (3, 1), (4, 2), (16, 2)):
        monkeypatch.setattr(os, "cpu_count", lambda cpus=cpus: cpus)
        assert askdata._workers(61) == workers, cpus
    assert askdata._workers(5) == 1
    monkeypatch.setattr(forked, "may_fork", lambda: False)
    assert askdata._workers(61) == 1
