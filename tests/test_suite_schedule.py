"""The suite's xdist scheduling (tests/conftest.py pytest_xdist_make_scheduler): a module's tests that share a
module fixture, and the REAL_ANSWERS modules, are one work unit; every test is sent once; a finished unit leaves
the node's assigned work (xdist counted pending tests over every unit a node ever got, at each test's end)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import conftest


class _Node:
    def __init__(self, name: str):
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[int] = []

    def send_runtest_some(self, indices):
        self.sent.extend(indices)

    def shutdown(self):
        self.shutting_down = True


def _scheduler():
    config = SimpleNamespace(getvalue=lambda name: {"dist": "load", "tx": ["popen"] * 2}.get(name),
                             option=SimpleNamespace(numprocesses=2, maxschedchunk=None, loadscopereorder=True))
    return conftest.pytest_xdist_make_scheduler(config, SimpleNamespace(loadscopesched=lambda *args: None))


def _scheduled():
    """A scheduler with two nodes that collected ITEMS, after its first distribution of work."""
    sched = _scheduler()
    nodes = [_Node("gw0"), _Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, ITEMS)
    sched.schedule()
    return sched, nodes


ITEMS = ([f"tests/test_ask_render.py::t{i}" for i in range(30)] + [f"tests/test_disputes.py::t{i}" for i in range(5)]
         + [f"tests/test_words.py::t{i}" for i in range(300)])


def test_every_test_runs_once_a_group_on_one_node_and_finished_units_leave_the_assigned_work():
    sched, nodes = _scheduled()
    done = dict.fromkeys(nodes, 0)
    while any(done[n] < len(n.sent) for n in nodes):
        for node in nodes:
            if done[node] < len(node.sent):
                sched.mark_test_complete(node, node.sent[done[node]])
                done[node] += 1
                assert sum(len(units) for units in sched.assigned_work.values()) <= 6  # only units not finished
    assert sorted(i for n in nodes for i in n.sent) == list(range(len(ITEMS)))
    group = set(range(35))  # test_ask_render and test_disputes: REAL_ANSWERS, one unit
    assert [n.gateway.id for n in nodes if group & set(n.sent)] in (["gw0"], ["gw1"])
    assert sched.tests_finished and not sched.has_pending


def test_a_crashed_nodes_unfinished_unit_is_sent_again():
    sched, nodes = _scheduled()
    crashed = next(n for n in nodes if 0 in n.sent)  # the group's unit
    for index in crashed.sent[:3]:
        sched.mark_test_complete(crashed, index)
    other = next(n for n in nodes if n is not crashed)
    before = len(other.sent)
    assert sched.remove_node(crashed) == ITEMS[crashed.sent[3]]
    again = set(other.sent[before:]) | {ITEMS.index(nodeid) for unit in sched.workqueue.values()
                                        for nodeid, finished in unit.items() if not finished}
    assert set(crashed.sent[3:]) <= again


def test_a_site_build_stopped_at_one_workers_end_is_built_by_the_worker_still_waiting(tmp_path, monkeypatch):
    """The worker that began the shared site build in the background may finish its tests first: its session's end
    kills the build (sitebuild.stop). That was recorded as the run's failed build (ok false, empty log), and the
    worker waiting for it failed every site test (`pytest -n 2 tests/test_site_generators.py tests/test_site_ask.py`:
    45 errors). A stopped build leaves no result: the next caller builds."""
    import sitebuild

    made = []

    def build(base):
        made.append(base)
        if len(made) == 1:
            sitebuild.stop()  # the building process's session ends meanwhile; its mkdocs is killed
            return {"ok": False, "log": "", "site": str(base / "site"), "docs": "", "catalog": "", "poisoned": ""}
        return {"ok": True, "log": "built", "site": str(base / "site"), "docs": str(base / "docs"),
                "catalog": str(base / "catalog"), "poisoned": "l4"}
    monkeypatch.setattr(sitebuild, "build", build)
    monkeypatch.setattr(sitebuild, "_STOPPED", [])
    with pytest.raises(RuntimeError, match="stopped"):
        sitebuild.shared(tmp_path)
    assert not (tmp_path / "gpukb-site").exists()
    monkeypatch.setattr(sitebuild, "_STOPPED", [])  # the worker still waiting: its session goes on
    site = sitebuild.shared(tmp_path)
    assert (site.ok, site.log, len(made)) == (True, "built", 2)
    assert sitebuild.shared(tmp_path).log == "built" and len(made) == 2  # its result is the run's
