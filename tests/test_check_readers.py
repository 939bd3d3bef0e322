"""Reading customer input: documents, lines, `kind: List`, JSON, stdin, embedded configurations, object kinds."""

from __future__ import annotations

import io

import pytest

from kb.catalog.compiled import load_data
from kb.check.documents import parse_text
from kb.check.facts import Environment, build_facts, product_name
from kb.check.inputs import read_all
from kb.check.load import load
from kb.check.readers import read_objects
from conftest import FIXTURES

INPUTS = FIXTURES / "check" / "inputs"


def read_inputs(names, stdin=None):
    """The documents of the named inputs (asserting that every one was read)."""
    loaded = load(read_all(names, stdin=stdin))
    assert loaded.problems == []
    return loaded.docs


def objects(*names):
    return read_objects(read_inputs([str(INPUTS / n) for n in names]))


def test_documents_are_counted_from_one_including_empty_ones():
    docs = read_inputs([str(INPUTS / "multi.yaml")])
    assert [(d.index, d.data["kind"]) for d in docs] == [(1, "Service"), (3, "ClusterPolicy"), (4, "ConfigMap")]
    assert docs[1].line(("spec", "mig", "strategy")) == 14


def test_objects_by_kind_and_ignored_ones():
    inv = objects("multi.yaml")
    assert [p.name for p in inv.policies] == ["cluster-policy"]
    assert [(c.configmap, c.key) for c in inv.dp_configs] == [("time-slicing-config", "any")]
    (ignored,) = inv.ignored
    assert (ignored.kind, ignored.name, ignored.reason, ignored.where["document"], ignored.where["line"]) == \
        ("Service", "web", "kind", 1, 3)


def test_embedded_configuration_lines_point_into_the_file():
    (cfg,) = objects("multi.yaml").dp_configs
    replicas = cfg.sharing["timeSlicing"].items[0].replicas
    assert replicas.value == 4
    assert replicas.where.as_dict() == {"file": str(INPUTS / "multi.yaml"), "document": 4,
                              "path": "data.any → sharing.timeSlicing.resources[0].replicas", "line": 33}
    assert cfg.mig_strategy.where["line"] == 28


def test_json_list_with_tabs_is_unpacked_item_by_item():
    (node,) = objects("nodes.json").nodes
    assert node.name == "gpu-1"
    assert node.label("nvidia.com/gpu.product") == "NVIDIA-H200-NVL-SHARED"
    assert node.resources == {"nvidia.com/gpu": "16"}
    assert node.where["path"] == "items[0] → metadata.name"


def test_json_without_tabs_keeps_lines():
    (doc,) = parse_text('{\n  "kind": "Node",\n  "metadata": {"name": "a"}\n}\n', "x.json")[0]
    assert doc.line(("metadata", "name")) == 3


def test_kubelet_version_and_product_suffixes_feed_the_facts():
    facts = build_facts(objects("nodes.json"), load_data(), Environment()).facts
    cluster = next(f for f in facts if f["kind"] == "cluster")
    node = next(f for f in facts if f["kind"] == "node")
    assert cluster["k8s"] == "1.34.2"
    assert (node["card"], node["card_known"]) == ("h200-nvl", True)
    assert product_name("NVIDIA-H200-NVL-MIG-1g.18gb") == "NVIDIA-H200-NVL"


def test_workload_requests_from_a_cronjob():
    (w,) = objects("workloads.yaml").workloads
    assert (w.kind, w.name, w.containers, w.gpu_hints) == ("CronJob", "nightly", 2, ["nodeSelector nvidia.com/gpu.product"])
    (req,) = w.requests
    assert (req.container, req.resource, req.count) == ("train", "nvidia.com/mig-1g.18gb", "2")
    assert req.where["line"] == 23  # the limit, which is what the scheduler uses


def test_stdin_is_read_for_a_dash():
    docs = read_inputs(["-"], stdin=io.BytesIO(b"apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n"))
    assert docs[0].file == "<stdin>"


@pytest.mark.parametrize("name, line, text", [
    ("malformed.yaml", 5, "not valid YAML"),
    ("duplicate-key.yaml", 7, "duplicate key 'a'"),
])
def test_unreadable_files_name_file_and_line(name, line, text):
    (problem,) = load(read_all([str(INPUTS / name)])).problems
    assert (problem.file, problem.line) == (str(INPUTS / name), line)
    assert text in problem.message


def test_every_unreadable_file_is_named_and_the_others_are_read(tmp_path):
    (tmp_path / "empty.yaml").write_text("# only a comment\n", encoding="utf-8")
    (tmp_path / "binary.yaml").write_bytes(b"kind: Node\n\x00\x01")
    (tmp_path / "latin1.yaml").write_bytes("name: Gr\xfc\xdfe\n".encode("latin-1"))
    loaded = load(read_all([str(tmp_path / n) for n in ("empty.yaml", "binary.yaml", "latin1.yaml", "missing.yaml")]
                           + [str(INPUTS / "multi.yaml")]))
    assert sorted((p.file.rsplit("/", 1)[-1], p.line) for p in loaded.problems) == [
        ("binary.yaml", 2), ("empty.yaml", None), ("latin1.yaml", 1), ("missing.yaml", None)]
    assert [d.index for d in loaded.docs] == [1, 3, 4]


def test_alias_bombs_are_refused():
    text = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\n" for p, n in zip("abcde", "bcdef"))
    docs, problems = parse_text(text, "bomb.yaml")
    assert docs == [] and "more than" in problems[0].message


def test_cluster_policy_of_another_vendor_is_ignored():
    inv = read_objects(parse_text("apiVersion: xdxct.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: p\n", "x")[0])
    assert inv.policies == [] and inv.ignored[0].kind == "ClusterPolicy"


def test_partial_helm_values_render_a_policy_and_the_configmaps_they_create():
    text = ("devicePlugin:\n  config:\n    create: true\n    name: dp\n    default: ts\n    data:\n"
            "      ts: |-\n        version: v1\n        sharing:\n          timeSlicing:\n            resources:\n"
            "            - name: nvidia.com/gpu\n              replicas: 3\n")
    inv = read_objects(parse_text(text, "my-values.yaml")[0])
    (policy,) = inv.policies
    assert (policy.origin, policy.value("devicePlugin.config.default"), policy.value("mig.strategy")) == \
        ("Helm values", "ts", None)
    (cfg,) = inv.dp_configs
    assert (cfg.origin, cfg.configmap, cfg.key) == ("Helm values", "dp", "ts")
    assert cfg.sharing["timeSlicing"].items[0].replicas.where["line"] == 13


def test_gpu_cluster_from_helm_values_only_with_deploy_cr():
    on = read_objects(parse_text("gpuCluster:\n  deployCR: true\nclusterPolicy:\n  deployCR: false\n", "v")[0])
    off = read_objects(parse_text("gpuCluster:\n  deployCR: false\n", "v")[0])
    assert (len(on.gpu_clusters), len(on.policies)) == (1, 0)
    assert (len(off.gpu_clusters), len(off.policies)) == (0, 1)


def test_configmap_without_gpu_configuration_is_ignored():
    inv = read_objects(parse_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  k: hello\n", "c")[0])
    assert inv.dp_configs == [] and inv.ignored[0].reason == "configmap"


def test_layout_profiles_mix_only_within_one_gpu_type():
    text = ("version: v1\nmig-configs:\n  per-type:\n"
            "    - device-filter: [\"0x233010DE\"]\n      devices: all\n      mig-enabled: true\n"
            "      mig-devices: {\"1g.10gb\": 7}\n"
            "    - device-filter: [\"0x2BB510DE\"]\n      devices: all\n      mig-enabled: true\n"
            "      mig-devices: {\"1g.24gb\": 4}\n"
            "  two-profiles:\n    - devices: all\n      mig-enabled: true\n"
            "      mig-devices: {\"1g.10gb\": 2, \"3g.40gb\": 1}\n")
    facts = build_facts(read_objects(parse_text(text, "mig.yaml")[0]), load_data()).facts
    shapes = {f["layout"]: (f["mixed_profiles"], f["profiles"]) for f in facts if f["kind"] == "mig_layout"}
    assert shapes == {"per-type": (False, "1g.10gb, 1g.24gb"), "two-profiles": (True, "1g.10gb, 3g.40gb")}


def test_node_driver_label_meets_the_cards_driver_exception():
    node = ("apiVersion: v1\nkind: Node\nmetadata:\n  name: se\n  labels:\n"
            "    nvidia.com/gpu.product: NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition\n"
            "    nvidia.com/mig.config: all-1g.24gb\n    nvidia.com/cuda.driver.major: \"575\"\n"
            "    nvidia.com/cuda.driver.minor: \"57\"\n    nvidia.com/cuda.driver.rev: \"08\"\n")
    inv = read_objects(parse_text(node, "node.yaml")[0])
    (fact,) = [f for f in build_facts(inv, load_data()).facts if f["kind"] == "node"]
    # the node's driver goes into the `ask mig` answer: NVIDIA's support list names 575.57.08 as a release without
    # MIG for this card (MIG-010)
    assert (fact["driver"], fact["mig_verdict"], fact["mig_driver"]) == ("575.57.08", "no", "575.57.08")
    assert "MIG-010" in fact["mig_rules"].split(",")
    later = build_facts(inv, load_data(), Environment(driver="580.82.07")).facts
    assert [(f["mig_verdict"], "MIG-010" in f["mig_rules"]) for f in later if f["kind"] == "node"] == [("yes", False)]


def test_a_script_is_read_in_order_with_json_patches_and_here_documents():
    """After MMahdiSetak/multi-node-GPU production/gpu-operator (held-out scripts, 2026-12-01): helm sets
    mig.strategy=single, a later `kubectl patch --type json` replaces it with mixed (the later command wins: no
    CHK-030 for the mixed layout), and a ConfigMap applied from a here-document is read as a manifest."""
    import io

    from kb.catalog.compiled import load_data
    from kb.check.facts import Environment
    from kb.check.run import check

    script = (
        "helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator --set mig.strategy=single\n"
        "kubectl patch clusterpolicies.nvidia.com/cluster-policy \\\n    --type='json' \\\n"
        "    -p='[{\"op\":\"replace\", \"path\":\"/spec/mig/strategy\", \"value\":\"mixed\"}]'\n"
        "kubectl label nodes worker-g01 nvidia.com/mig.config=all-balanced --overwrite\n"
        "cat <<EOF | kubectl apply -n gpu-operator -f -\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
        "  name: ts-config\ndata:\n  any: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n"
        "        - name: nvidia.com/gpu\n          replicas: 1\nEOF\n")
    report = check(["-"], load_data(), Environment(), lang="en", stdin=io.BytesIO(script.encode()))
    rules = {f["rule"]: f for f in report.findings}
    assert "CHK-030" not in rules
    assert rules["CHK-005"]["where"]["line"] == 18  # replicas: 1 in the here-document, at its line in the script
