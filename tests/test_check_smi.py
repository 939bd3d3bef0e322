"""nvidia-smi output and the GPU Operator's must-gather bundle, read as the nodes they describe."""

from __future__ import annotations

import json


from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.readers import smi
from kb.check.run import check
from conftest import FIXTURES, need_corpus, upstream
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

SMI = FIXTURES / "check" / "smi"


def run(*names, env=None):
    return check([str(n) for n in names], load_data(), env or Environment())


def node_fact(report) -> dict:
    (fact,) = [f for f in report.facts.facts if f["kind"] == "node"]
    return fact


def test_plain_table_driver_names_and_mig_column():
    r = smi.parse((SMI / "hami-1903-a800.txt").read_text(encoding="utf-8"), "a800.txt")
    assert (r.driver, r.cuda) == ("580.119.02", "13.0")
    assert [(g.index, g.name, g.mig_current) for g in r.gpus.values()] == [
        (0, "NVIDIA A800 80GB PCIe", "Disabled"), (1, "NVIDIA A800 80GB PCIe", "Disabled")]
    (node,) = smi.to_nodes(r)
    assert node.label("nvidia.com/gpu.product") == "NVIDIA-A800-80GB-PCIe"


def test_a_host_with_mig_on_one_gpu_and_off_on_another_mixes_them():
    """XuehaiPan/nvitop#8: GPU 0 MIG Disabled, GPU 1 MIG Enabled (old table layout, names cut off)."""
    report = run(SMI / "nvitop-8-a100-mixed.txt")
    fact = node_fact(report)
    assert (fact["mixes_mig_and_full"], fact["mig_on"], fact["driver"]) == (True, True, "510.47.03")


def test_list_output_names_the_host_and_the_mig_devices():
    report = run(SMI / "datadog-33120-a100-list.txt")
    fact = node_fact(report)
    assert (fact["name"], fact["product"], fact["driver"], fact["mig_on"]) == (
        "datadog-agent-linux-zb5fm", "NVIDIA-A100-SXM4-80GB", "535.216.01", True)


def test_gpu_instances_listing_means_mig_is_on():
    (node,) = smi.to_nodes(smi.parse((SMI / "dcgm-138-lgi.txt").read_text(encoding="utf-8"), "lgi.txt"))
    assert set(node.resources) == {"nvidia.com/mig-1g.10gb", "nvidia.com/mig-2g.20gb", "nvidia.com/mig-3g.40gb"}


def test_profiles_the_hardware_offers_that_our_data_lacks_are_a_note_for_us():
    """bigstack-oss/cubecos#312: the RTX PRO 6000 Server Edition offers 1g.24gb+me (profile ID 21); our data lists
    1g.24gb-me. Only `mig -lgip` was pasted: the cards whose profiles these are (the three 96 GB editions) say
    which profiles we know."""
    report = run(SMI / "cubecos-312-rtx-pro-6000-se-lgip.txt")
    (f,) = report.findings
    assert f["rule"] == "CHK-048" and f["severity"] == "info"
    assert f["message"].startswith("nvidia-smi on gpu6000 lists MIG profiles for the RTX PRO 6000 Max-Q / RTX PRO 6000 "
                                   "Server Edition / RTX PRO 6000 Workstation that our data does not: 1g.24gb+me (offered:")
    assert f["where"]["line"] == 9


def test_mig_mode_pending_from_the_full_query(tmp_path):
    """The MIG Mode block of `nvidia-smi -q` (its layout as the MIG user guide shows it) with a pending change."""
    text = ("==============NVSMI LOG==============\n\nDriver Version                            : 580.82.07\n"
            "CUDA Version                              : 13.0\n\nAttached GPUs                             : 1\n"
            "GPU 00000000:17:00.0\n    Product Name                          : NVIDIA H200 NVL\n"
            "    MIG Mode\n        Current                           : Disabled\n"
            "        Pending                           : Enabled\n")
    path = tmp_path / "smi-q.txt"
    path.write_text(text, encoding="utf-8")
    report = run(path)
    assert [f["rule"] for f in report.findings] == ["CHK-047"]
    assert "(GPU 0: Disabled → Enabled)" in report.findings[0]["message"]
    assert node_fact(report)["card"] == "h200-nvl"


def _labels_file(nodes: list[dict]) -> str:
    """gpu_nodes.labels as hack/must-gather.sh writes it: the node name, then kubectl's jsonpath of the labels
    through `sed 's|,|,- |g' | tr ',' '\\n' | sed 's/{"/- /' | tr : = | sed 's/"//g' | sed 's/}/\\n/'`."""
    out = ""
    for node in nodes:
        out += node["metadata"]["name"] + "\n"
        text = json.dumps(node["metadata"]["labels"], separators=(",", ":"))
        text = text.replace(",", ",- ").replace(",", "\n")
        text = "\n".join(line.replace('{"', "- ", 1) for line in text.split("\n"))
        text = text.replace(":", "=").replace('"', "")
        text = "\n".join(line.replace("}", "\n", 1) for line in text.split("\n"))
        out += text + "\n" + "\n"
    return out


POLICY = ("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-cluster-policy\nspec:\n"
          "  operator:\n    defaultRuntime: containerd\n  devicePlugin:\n    enabled: true\n  mig:\n    strategy: mixed\n")


def test_a_must_gather_folder(tmp_path):
    """A bundle as NVIDIA/gpu-operator hack/must-gather.sh lays it out: a ClusterPolicy, the labels of
    ../shared/corpus/manifests/runai-node-mig-7g-40gb.yaml (as the script writes them), a version file, nvidia-smi
    of Project-HAMi/HAMi#1903 in gpu_device_usage_<node>.log, and logs."""
    _must_gather(tmp_path, POLICY)


def test_a_must_gather_folder_with_nvidias_sample_policy(tmp_path):
    """The same bundle holding NVIDIA's sample ClusterPolicy (NVIDIA/gpu-operator@a22dbf67
    config/samples/v1_clusterpolicy.yaml, read from the mirror) as cluster_policy.yaml."""
    sample = upstream("NVIDIA/gpu-operator", "a22dbf671f2e26f9a1e342f8eea28e196235e110",
                      "config/samples/v1_clusterpolicy.yaml", tmp_path / "upstream")
    _must_gather(tmp_path, sample.read_text(encoding="utf-8"))


def _must_gather(tmp_path, policy: str):
    folder = tmp_path / "nvidia-gpu-operator_20261201_1200"
    folder.mkdir()
    (folder / "cluster_policy.yaml").write_text(policy, encoding="utf-8")
    node = yamlsafe.safe_load((need_corpus() / "runai-node-mig-7g-40gb.yaml").read_text(encoding="utf-8"))
    (folder / "gpu_nodes.labels").write_text(_labels_file([node]), encoding="utf-8")
    (folder / "version").write_text("NVIDIA GPU Operator\nv25.10.0\n", encoding="utf-8")
    (folder / "gpu_device_usage_gpu-node-2.log").write_text(
        "# nvidia-smi output from gpu-node-2\n" + (SMI / "hami-1903-a800.txt").read_text(encoding="utf-8"),
        encoding="utf-8")
    (folder / "must-gather.log").write_text("Using ARTIFACT_DIR=/tmp/x\n", encoding="utf-8")
    (folder / "gpu_operator_pod.log").write_text("2026-12-01T12:00:00Z INFO controller started\n", encoding="utf-8")
    report = run(folder)
    names = {n.name: n for n in report.inventory.nodes}
    assert set(names) == {"qa-mig-worker-gpu-a100", "gpu-node-2"}
    a100 = names["qa-mig-worker-gpu-a100"]
    assert (a100.label("nvidia.com/gpu.product"), a100.label("nvidia.com/mig.strategy")) == ("NVIDIA-A100-SXM4-40GB", "mixed")
    assert names["gpu-node-2"].label("nvidia.com/cuda.driver-version.full") == "580.119.02"
    assert report.summary["inputs"]["operator"] == "25.10.0"  # from the version file
    assert [p.policy if hasattr(p, "policy") else p.name for p in report.inventory.policies] == ["gpu-cluster-policy"]
    assert report.summary["skipped"] == {str(folder): 2}
    assert report.summary["not_read"] == []


SMI_L_VARIANTS = """\
GPU 0: NVIDIA RTX PRO 6000 Blackwell Server Edition (UUID: GPU-00000000-0000-0000-0000-000000000000)
  MIG 1g.24gb+gfx Device  0: (UUID: MIG-00000000-0000-0000-0000-000000000001)
  MIG 1g.24gb-me  Device  1: (UUID: MIG-00000000-0000-0000-0000-000000000002)
  MIG 2g.48gb+me.all Device  2: (UUID: MIG-00000000-0000-0000-0000-000000000003)
"""


def test_mig_devices_are_named_as_the_device_plugin_names_their_resources(tmp_path):
    """issue 10, class 1: internal/rm/rm.go:145 (v0.20.0) `strings.ReplaceAll("mig-"+p.String(), "+", ".")`: the
    devices nvidia-smi lists are advertised with every "+" as "."; "-me" stays (hand-written -L excerpt)."""
    (node,) = smi.to_nodes(smi.parse(SMI_L_VARIANTS, "host.txt"))
    assert set(node.resources) == {"nvidia.com/mig-1g.24gb.gfx", "nvidia.com/mig-1g.24gb-me",
                                   "nvidia.com/mig-2g.48gb.me.all"}


POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: render
spec:
  containers:
  - name: cuda
    image: nvcr.io/nvidia/cuda:12.4.1-base-ubuntu22.04
    resources:
      limits:
        {resource}: 1
"""


def _rules(report) -> set:
    return {f["rule"] for f in report.findings}


def test_a_request_of_the_plugin_s_name_for_an_smi_device_is_advertised(tmp_path):
    (tmp_path / "smi.txt").write_text(SMI_L_VARIANTS, encoding="utf-8")
    (tmp_path / "pod.yaml").write_text(POD.format(resource="nvidia.com/mig-1g.24gb.gfx"), encoding="utf-8")
    assert not {"CHK-070", "CHK-076", "CHK-077"} & _rules(run(tmp_path / "smi.txt", tmp_path / "pod.yaml"))


def test_a_request_with_a_plus_is_refused_by_the_api_server_not_left_pending(tmp_path):
    (tmp_path / "smi.txt").write_text(SMI_L_VARIANTS, encoding="utf-8")
    (tmp_path / "pod.yaml").write_text(POD.format(resource="nvidia.com/mig-1g.24gb+gfx"), encoding="utf-8")
    report = run(tmp_path / "smi.txt", tmp_path / "pod.yaml")
    assert "CHK-076" in _rules(report) and "CHK-070" not in _rules(report)
    (finding,) = [f for f in report.findings if f["rule"] == "CHK-076"]
    assert "nvidia.com/mig-1g.24gb.gfx" in finding["message"]


def test_smi_devices_do_not_prove_an_old_plugin_advertises_a_variant(tmp_path):
    """nvidia-smi shows devices, not resources: with GPU Operator 26.3.3 (device plugin v0.19.3) the .gfx
    variant is no resource of its own (PR #1807), whatever nvidia-smi lists."""
    (tmp_path / "smi.txt").write_text(SMI_L_VARIANTS, encoding="utf-8")
    (tmp_path / "pod.yaml").write_text(POD.format(resource="nvidia.com/mig-1g.24gb.gfx"), encoding="utf-8")
    report = run(tmp_path / "smi.txt", tmp_path / "pod.yaml", env=Environment(operator="26.3.3"))
    assert "CHK-077" in _rules(report)
