"""Configuration to copy: the objects, values and commands the guide pages describe, as code blocks with a copy
button, written in a guide page with the marker `{{ config: <id> }}` (alone on its line).

What is a fact comes from the catalog: resource names (methods/*/resource_names), MIG profiles and their counts
(the example card's mig.profiles), chart keys the catalog knows (releases/gpu-operator settings). A block whose
fact is missing raises FactError: the build fails, naming it. Every block is read by `gpukb check` in
tests/test_site_configs.py, together with the blocks it refers to (`with_`): none may give an error or a warning,
and check must have read it (not ignored it), so the site never shows a configuration our own checker rejects.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

import yaml

from kb.catalog.facts import FactError
from kb.questions.resource import mig_resource_name
from kb.text import Text

#: the card the MIG examples are written for: a data-centre card with MIG that NVIDIA documents
EXAMPLE_CARD = "h200-nvl"
NAMESPACE = "gpu-operator"
NODE = "gpu-node-1"


class _Literal(str):
    """A string dumped as a literal block (|): the configuration inside a ConfigMap."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Literal, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", str(s), style="|"))


def _yaml(doc: dict) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100).rstrip("\n")


def _resource(data: dict, method: str, name: str) -> str:
    """A resource name of a method as the catalog records it (FactError where it does not)."""
    names = [r["name"] for r in data["methods"].get(method, {}).get("resource_names", [])]
    if name not in names:
        raise FactError(f"methods/{method} has no resource name {name!r} (a configuration block uses it)")
    return name


def _setting(data: dict, key: str) -> str:
    """A GPU Operator chart key the catalog knows (FactError where it does not)."""
    keys = {s["key"] for s in data["releases"].get("gpu-operator", {}).get("settings", [])}
    if key not in keys:
        raise FactError(f"releases/gpu-operator has no setting {key!r} (a configuration block sets it)")
    return key


def _nested(data: dict, pairs: dict) -> dict:
    """Helm values from dotted keys the catalog knows: {"mig.strategy": "mixed"} → {"mig": {"strategy": …}}."""
    out: dict = {}
    for dotted, value in pairs.items():
        node = out
        *head, last = _setting(data, dotted).split(".")
        for part in head:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def example_card(data: dict) -> dict:
    card = data["cards"].get(EXAMPLE_CARD)
    if card is None or not card["mig"]["profiles"]:
        raise FactError(f"cards/{EXAMPLE_CARD}: the MIG examples need this card with its MIG profiles")
    return card


def _profiles(data: dict) -> tuple[dict, dict]:
    """The example card's smallest plain profile and its largest plain one with more than one instance."""
    plain = [p for p in example_card(data)["mig"]["profiles"] if not p.get("variant")]
    small = min(plain, key=lambda p: (p["memory_gb"], p["name"]))
    pairs = [p for p in plain if p["max_count"] > 1] or plain
    big = max(pairs, key=lambda p: (p["memory_gb"], p["name"]))
    return small, big


def _pod(name: str, resource: str, count: int = 1, image: str = "nvcr.io/nvidia/cuda:12.9.1-base-ubuntu24.04") -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"restartPolicy": "Never",
                     "containers": [{"name": "cuda", "image": image, "command": ["nvidia-smi", "-L"],
                                     "resources": {"limits": {resource: count}}}]}}


def _dp_config(sharing: dict, mig_strategy: str = "none") -> str:
    return yaml.safe_dump({"version": "v1", "flags": {"migStrategy": mig_strategy}, "sharing": sharing},
                          sort_keys=False)


# --- the blocks --------------------------------------------------------------------------------------------

def time_slicing_configmap(data: dict) -> str:
    gpu = _resource(data, "time-slicing", "nvidia.com/gpu")
    sharing = {"timeSlicing": {"renameByDefault": False, "failRequestsGreaterThanOne": False,
                               "resources": [{"name": gpu, "replicas": 4}]}}
    return _yaml({"apiVersion": "v1", "kind": "ConfigMap",
                  "metadata": {"name": "time-slicing-config", "namespace": NAMESPACE},
                  "data": {"any": _Literal(_dp_config(sharing))}})


def time_slicing_values(data: dict) -> str:
    return _yaml(_nested(data, {"devicePlugin.config.name": "time-slicing-config", "devicePlugin.config.default": "any"}))


def time_slicing_patch(data: dict) -> str:
    patch = {"spec": {"devicePlugin": {"config": {"name": "time-slicing-config", "default": "any"}}}}
    _setting(data, "devicePlugin.config.name")
    return (f"kubectl apply -f time-slicing-config.yaml\n"
            f"kubectl patch clusterpolicies.nvidia.com/cluster-policy -n {NAMESPACE} --type merge \\\n"
            f"  -p '{json.dumps(patch, separators=(',', ':'))}'\n"
            f"kubectl rollout restart -n {NAMESPACE} daemonset/nvidia-device-plugin-daemonset")


def time_slicing_pod(data: dict) -> str:
    return _yaml(_pod("notebook", _resource(data, "time-slicing", "nvidia.com/gpu")))


def mps_configmap(data: dict) -> str:
    gpu = _resource(data, "mps", "nvidia.com/gpu")
    sharing = {"mps": {"renameByDefault": False, "resources": [{"name": gpu, "replicas": 4}]}}
    return _yaml({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "mps-config", "namespace": NAMESPACE},
                  "data": {"any": _Literal(_dp_config(sharing))}})


def mps_values(data: dict) -> str:
    return _yaml(_nested(data, {"devicePlugin.config.name": "mps-config", "devicePlugin.config.default": "any"}))


def mps_pod(data: dict) -> str:
    return _yaml(_pod("inference", _resource(data, "mps", "nvidia.com/gpu")))


def mig_values_single(data: dict) -> str:
    return _yaml(_nested(data, {"mig.strategy": "single"}))


def mig_values_mixed(data: dict) -> str:
    return _yaml(_nested(data, {"mig.strategy": "mixed"}))


def mig_label(data: dict) -> str:
    small, _ = _profiles(data)
    return (f"kubectl label node {NODE} nvidia.com/mig.config=all-{small['name']} --overwrite\n"
            f"kubectl get node {NODE} -L nvidia.com/mig.config.state")


def mig_custom_config(data: dict) -> str:
    small, big = _profiles(data)
    layouts = {
        "all-disabled": [{"devices": "all", "mig-enabled": False}],
        f"all-{small['name']}": [{"devices": "all", "mig-enabled": True, "mig-devices": {small["name"]: small["max_count"]}}],
        f"all-{big['name']}": [{"devices": "all", "mig-enabled": True, "mig-devices": {big["name"]: big["max_count"]}}],
    }
    config = yaml.safe_dump({"version": "v1", "mig-configs": layouts}, sort_keys=False)
    return _yaml({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "custom-mig-config", "namespace": NAMESPACE},
                  "data": {"config.yaml": _Literal(config)}})


def mig_custom_values(data: dict) -> str:
    return _yaml(_nested(data, {"mig.strategy": "mixed", "migManager.config.name": "custom-mig-config",
                                "migManager.config.default": "all-disabled"}))


def mig_single_pod(data: dict) -> str:
    return _yaml(_pod("training", _resource(data, "mig", "nvidia.com/gpu")))


def mig_mixed_pod(data: dict) -> str:
    _resource(data, "mig", "nvidia.com/mig-<profile>")
    small, _ = _profiles(data)
    return _yaml(_pod("inference", mig_resource_name(small["name"])))


def whole_pod(data: dict) -> str:
    return _yaml(_pod("training", _resource(data, "whole", "nvidia.com/gpu")))


def vm_values(data: dict) -> str:
    return _yaml(_nested(data, {"sandboxWorkloads.enabled": True}))


def vm_label(data: dict) -> str:
    _setting(data, "sandboxWorkloads.enabled")
    return f"kubectl label node {NODE} nvidia.com/gpu.workload.config=vm-passthrough --overwrite"


def dra_values(data: dict) -> str:
    return _yaml(_nested(data, {"clusterPolicy.deployCR": False, "gpuCluster.deployCR": True}))


@dataclass(frozen=True)
class Block:
    id: str
    lang: str  # the code block's language: yaml or sh
    file: str  # the name the block suggests for its file ('' for commands)
    title: Text
    build: Callable[[dict], str]
    with_: tuple[str, ...] = ()  # blocks checked together with this one: what it refers to
    reads: tuple[str, ...] = field(default=())  # what gpukb check must count in its summary ("ClusterPolicy" …)


BLOCKS = {b.id: b for b in [
    Block("time-slicing-configmap", "yaml", "time-slicing-config.yaml",
          Text("ConfigMap for the device plugin: four replicas per GPU", "ConfigMap für das Device-Plugin: vier Replikate je GPU"),
          time_slicing_configmap, (), ("device-plugin config",)),
    Block("time-slicing-values", "yaml", "values.yaml",
          Text("GPU Operator Helm values: the ConfigMap for all nodes", "Helm-Werte des GPU Operators: die ConfigMap für alle Nodes"),
          time_slicing_values, ("time-slicing-configmap",), ("ClusterPolicy",)),
    Block("time-slicing-patch", "sh", "",
          Text("Or in a running cluster: create the ConfigMap, patch the ClusterPolicy, restart the device plugin", "Oder im laufenden Cluster: ConfigMap anlegen, ClusterPolicy ändern, Device-Plugin neu starten"),
          time_slicing_patch, ("time-slicing-configmap",), ("ClusterPolicy",)),
    Block("time-slicing-pod", "yaml", "notebook.yaml",
          Text("A pod requesting one replica", "Ein Pod, der ein Replikat anfordert"),
          time_slicing_pod, ("time-slicing-configmap", "time-slicing-values"), ("workload",)),
    Block("mps-configmap", "yaml", "mps-config.yaml",
          Text("ConfigMap for the device plugin: four MPS replicas per GPU", "ConfigMap für das Device-Plugin: vier MPS-Replikate je GPU"),
          mps_configmap, (), ("device-plugin config",)),
    Block("mps-values", "yaml", "values.yaml",
          Text("GPU Operator Helm values: MPS for all nodes", "Helm-Werte des GPU Operators: MPS für alle Nodes"),
          mps_values, ("mps-configmap",), ("ClusterPolicy",)),
    Block("mps-pod", "yaml", "inference.yaml",
          Text("A pod requesting one MPS replica (one CUDA process)", "Ein Pod, der ein MPS-Replikat anfordert (ein CUDA-Prozess)"),
          mps_pod, ("mps-configmap", "mps-values"), ("workload",)),
    Block("mig-values-single", "yaml", "values.yaml",
          Text("Helm values: strategy single", "Helm-Werte: Strategie single"),
          mig_values_single, (), ("ClusterPolicy",)),
    Block("mig-values-mixed", "yaml", "values.yaml",
          Text("Helm values: strategy mixed", "Helm-Werte: Strategie mixed"),
          mig_values_mixed, (), ("ClusterPolicy",)),
    Block("mig-label", "sh", "",
          Text("Choose a node's layout and follow its progress", "Layout eines Nodes wählen und den Fortschritt verfolgen"),
          mig_label, ("mig-values-mixed",), ("Node",)),
    Block("mig-custom-config", "yaml", "custom-mig-config.yaml",
          Text("Layouts of your own for the MIG Manager, in the key config.yaml", "Eigene Layouts für den MIG Manager, im Schlüssel config.yaml"),
          mig_custom_config, ("mig-custom-values",), ("MIG Manager config",)),
    Block("mig-custom-values", "yaml", "values.yaml",
          Text("Helm values: use your own layouts", "Helm-Werte: die eigenen Layouts nutzen"),
          mig_custom_values, ("mig-custom-config",), ("ClusterPolicy",)),
    Block("mig-single-pod", "yaml", "training.yaml",
          Text("A pod under single: one MIG instance as nvidia.com/gpu", "Ein Pod unter single: eine MIG-Instanz als nvidia.com/gpu"),
          mig_single_pod, ("mig-values-single",), ("workload",)),
    Block("mig-mixed-pod", "yaml", "inference.yaml",
          Text("A pod under mixed: one instance of the smallest profile", "Ein Pod unter mixed: eine Instanz des kleinsten Profils"),
          mig_mixed_pod, ("mig-values-mixed",), ("workload",)),
    Block("whole-pod", "yaml", "training.yaml",
          Text("A pod requesting a whole GPU", "Ein Pod, der eine ganze GPU anfordert"),
          whole_pod, (), ("workload",)),
    Block("vm-values", "yaml", "values.yaml",
          Text("Helm values: GPUs for virtual machines too", "Helm-Werte: GPUs auch für virtuelle Maschinen"),
          vm_values, (), ("ClusterPolicy",)),
    Block("vm-label", "sh", "",
          Text("Set a node aside for passthrough to VMs", "Einen Node für Passthrough an VMs vorsehen"),
          vm_label, ("vm-values",), ("Node",)),
    Block("dra-values", "yaml", "values.yaml",
          Text("Helm values for a new cluster with DRA: GPUCluster instead of ClusterPolicy", "Helm-Werte für einen neuen Cluster mit DRA: GPUCluster statt ClusterPolicy"),
          dra_values, (), ("GPUCluster",)),
]}


def block_text(data: dict, block_id: str) -> str:
    if block_id not in BLOCKS:
        raise FactError(f"unknown configuration block {block_id!r} (known: {', '.join(sorted(BLOCKS))})")
    return BLOCKS[block_id].build(data)


def render(data: dict, block_id: str, lang: str) -> str:
    """The block as a fenced code block with its title (the copy button is the theme's)."""
    block = BLOCKS.get(block_id)
    text = block_text(data, block_id)
    title = block.title(lang)
    if block.file:
        title = f"{title} ({block.file})"
    return f'```{block.lang} title="{title}"\n{text}\n```'
