"""How to fix a finding, in the customer's terms: kubectl commands with their namespace and object names, and the
corrected YAML where a value is wrong.

The rules say what is wrong and why (rules/check); this module says what to type, per rule, from the facts the
finding matched and what the input holds (the ClusterPolicy's name and where it came from, the ConfigMap's keys,
the configuration as written). A ClusterPolicy written as a manifest gets a `kubectl patch`; one rendered from
Helm values gets the values to set, in the object that carries them (a HelmRelease, an Argo CD Application).
"""

from __future__ import annotations

import copy
import difflib
import json
from dataclasses import dataclass, field

import yaml

from kb.text import Text


@dataclass
class Context:
    """What the fixes need to know about the input beyond the finding's own fact."""

    policies: list = field(default_factory=list)  # policy facts
    configmaps: dict = field(default_factory=dict)  # name → keys
    operator_namespace: str = "gpu-operator"
    extra: dict = field(default_factory=dict)  # FactSet.extra
    dp_configs: list = field(default_factory=list)  # dp_config facts
    inv: object = None  # the Inventory read (kb.check.readers): the objects as written


class _Dumper(yaml.SafeDumper):
    """Text of several lines (an embedded configuration) as a literal block, the way people write it."""


_Dumper.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))


def _yaml(data) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False).rstrip()


def _nest(dotted: str, value) -> dict:
    out: dict = value
    for part in reversed(dotted.split(".")):
        out = {part: out}
    return out


def set_policy(ctx: Context, settings: dict) -> Text | None:
    """Setting ClusterPolicy fields (dotted → value), the way the policy in the input is managed."""
    policy = ctx.policies[0] if ctx.policies else None
    merged: dict = {}
    for dotted, value in settings.items():
        _merge(merged, _nest(dotted, value))
    if policy is None or policy.get("origin") == "ClusterPolicy":
        name = policy.get("name") if policy else "cluster-policy"
        patch = json.dumps({"spec": merged}, separators=(",", ":"))
        return Text("kubectl patch clusterpolicies.nvidia.com/{n} --type merge -p '{p}'").format(n=name or "cluster-policy",
                                                                                                p=patch)
    if (policy.get("source_en") or "").startswith("helm command"):  # values given as --set: fixed there
        sets = " ".join(f"--set {k}={json.dumps(v) if not isinstance(v, str) else v}"
                        for k, v in _dotted(merged))
        return Text("In the {s}: {sets}", "Im {s}: {sets}").format(
            s=Text(policy["source_en"], policy.get("source_de") or policy["source_en"]), sets=sets)
    return Text("In the GPU Operator's Helm values{where}:\n{y}", "In den Helm-Werten des GPU Operators{where}:\n{y}").format(
        where=Text(" ({s})").format(s=policy["source_en"]) if policy.get("source_en") else "", y=_yaml(merged))


def _dotted(tree: dict, prefix: str = ""):
    for k, v in tree.items():
        if isinstance(v, dict):
            yield from _dotted(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def _merge(a: dict, b: dict) -> None:
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            _merge(a[k], v)
        else:
            a[k] = v


def _config_block(ctx: Context, fact: dict, change) -> Text | None:
    """The device-plugin configuration as written, corrected by `change(data)`, with how to apply it."""
    data = ctx.extra.get(fact.get("ref", ""), {}).get("config")
    if not isinstance(data, dict):
        return None
    fixed = copy.deepcopy(data)
    if change(fixed) is False:
        return None
    cm, key, ns = fact.get("configmap"), fact.get("key"), fact.get("namespace") or ctx.operator_namespace
    head = (Text("Corrected configuration (key {k} of ConfigMap {cm}; kubectl edit configmap {cm} -n {ns}):",
                 "Korrigierte Konfiguration (Schlüssel {k} der ConfigMap {cm}; kubectl edit configmap {cm} -n {ns}):")
            .format(k=key, cm=cm, ns=ns) if cm else Text("Corrected configuration:", "Korrigierte Konfiguration:"))
    return head + "\n" + _yaml(fixed)


def _path(fact: dict) -> list:
    try:
        return json.loads(fact.get("path_json") or "[]")
    except ValueError:
        return []


def _fix_problem(ctx: Context, fact: dict) -> Text | None:
    """CHK-013/014/015: move, rename, retype or drop the keys the plugin does not read as written — every such
    problem of the configuration, so the corrected configuration is one the plugin reads as meant."""
    fixes = ctx.extra.get(fact.get("ref", ""), {}).get("fixes") or [
        {"problem": fact.get("problem"), "path": _path(fact), "suggestion": fact.get("suggestion", "")}]
    own = (fact.get("problem"), _path(fact))

    def change(data):
        done = False
        for item in fixes:
            ok = _correct(data, item["problem"], list(item["path"]), item.get("suggestion") or "")
            if not ok and (item["problem"], list(item["path"])) == own:
                return False  # the finding's own problem has no mechanical fix
            done |= ok
        return done

    return _config_block(ctx, fact, change)


def _correct(data: dict, problem, path: list, suggestion: str) -> bool:
    node = data
    for part in path[:-1]:
        node = node[part] if isinstance(node, (dict, list)) and _has(node, part) else None
        if node is None:
            return False
    last = path[-1] if path else None
    if problem == "unknown" and isinstance(node, dict) and last in node:
        keys = list(node)
        value = node.pop(last)
        if suggestion and "." in suggestion and "[]" not in suggestion:  # misplaced: to where it belongs
            target = data
            parts = suggestion.split(".")
            for part in parts[:-1]:
                target = target.setdefault(part, {})
                if not isinstance(target, dict):
                    return False
            target[parts[-1]] = value
        elif suggestion:  # renamed where it stands
            node[suggestion.rsplit(".", 1)[-1]] = value
            order = [suggestion.rsplit(".", 1)[-1] if k == last else k for k in keys]
            items = dict(node)
            node.clear()
            node.update({k: items[k] for k in order if k in items})
        else:
            return False
    elif problem in ("type", "value") and isinstance(node, dict) and last in node:
        value = node[last]
        if problem == "value" and isinstance(value, str) and suggestion and not suggestion.startswith("["):
            node[last] = suggestion  # the allowed value meant
        elif isinstance(value, str) and value.lower() in ("true", "false"):
            node[last] = value.lower() == "true"
        elif isinstance(value, str) and value.strip().isdigit():
            node[last] = int(value)
        else:
            return False
    elif problem == "unsupported" and isinstance(node, dict) and last == "rename":
        node.pop("rename")
    else:
        return False
    return True


def _has(node, part) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(part, int) and 0 <= part < len(node)


def _fix_replicas(ctx: Context, fact: dict, limit: int | None = None) -> Text | None:
    """CHK-005/006: the replica count the plugin takes (at least 2; the MPS maximum for CHK-006). One replica is what
    a customer writes for "not shared" (k8s-device-plugin#1022): the fix then leaves the resource out of sharing —
    the plugin advertises the GPU whole — and names 2 as the way to share it instead."""
    kind, index = fact.get("sharing"), fact.get("index")

    def entries(data):
        items = data.get("sharing", {}).get(kind, {}).get("resources") if isinstance(data.get("sharing"), dict) else None
        return items if isinstance(items, list) and isinstance(index, int) and 0 <= index < len(items) else None

    def unshared(data):
        items = entries(data)
        if items is None:
            return False
        items.pop(index)
        block = data["sharing"][kind]
        if not items:
            del block["resources"]
        if not block:
            del data["sharing"][kind]
        if not data["sharing"]:
            del data["sharing"]
        return True

    written = None
    if limit is None:
        items = entries(ctx.extra.get(fact.get("ref", ""), {}).get("config") or {})
        written = items[index].get("replicas") if items and isinstance(items[index], dict) else None
    if written in (1, "1"):
        block = _config_block(ctx, fact, unshared)
        if block is not None:
            return (Text("One replica means not shared: leave the resource out of sharing and the device plugin "
                         "advertises the GPU whole.",
                         "Ein Replikat bedeutet: Die GPU wird nicht geteilt. Lassen Sie die Ressource unter sharing "
                         "weg; dann bietet das Device-Plugin die GPU als Ganzes an.") + "\n" + block + "\n"
                    + Text("To share the GPU instead: replicas: 2 or more.",
                           "Soll die GPU doch geteilt werden: replicas: 2 oder mehr."))

    def change(data):
        items = entries(data)
        if items is None:
            return False
        value = items[index].get("replicas")
        if limit is not None:  # above the plugin's maximum: the maximum
            items[index]["replicas"] = limit
        elif isinstance(value, str) and value.strip().isdigit() and int(value) >= 2:
            items[index]["replicas"] = int(value)
        else:
            items[index]["replicas"] = 2
        return True

    return _config_block(ctx, fact, change)


def _fix_shared_resource(ctx: Context, fact: dict, rule: str) -> Text | None:
    """CHK-001/002/010: a resource the sharing method cannot share. MIG instances are shared by time-slicing (MPS
    supports full GPUs only): an MPS block of MIG resources only becomes a time-slicing block, else the MIG entry
    leaves it; another resource name becomes nvidia.com/gpu, or leaves where nvidia.com/gpu is shared already."""
    kind, index = fact.get("sharing"), fact.get("index")

    def change(data):
        sharing = data.get("sharing")
        block = sharing.get(kind) if isinstance(sharing, dict) else None
        items = block.get("resources") if isinstance(block, dict) else None
        if not isinstance(items, list) or not isinstance(index, int) or not 0 <= index < len(items):
            return False
        names = [str(i.get("name", "")) if isinstance(i, dict) else "" for i in items]
        if rule == "CHK-001":
            if all("mig-" in n for n in names) and "timeSlicing" not in sharing:
                sharing["timeSlicing"] = sharing.pop(kind)
            else:
                items.pop(index)
            return True
        if any(n in ("nvidia.com/gpu", "gpu") for n in names) or not isinstance(items[index], dict):
            items.pop(index)
        else:
            items[index]["name"] = "nvidia.com/gpu"
        return True

    return _config_block(ctx, fact, change)


def _fix_mps_mixed(ctx: Context, fact: dict) -> Text | None:
    """CHK-016: MPS under the mixed strategy. Sharing MIG instances means time-slicing (the MPS block of MIG
    resources becomes a time-slicing block); a configuration that sets mixed itself gets single; else the
    ClusterPolicy's strategy is set to single."""
    data = ctx.extra.get(fact.get("ref", ""), {}).get("config")
    sharing = data.get("sharing") if isinstance(data, dict) else None
    mps = sharing.get("mps") if isinstance(sharing, dict) else None
    items = mps.get("resources") if isinstance(mps, dict) else None
    if isinstance(items, list) and items and "timeSlicing" not in sharing and all(
            isinstance(i, dict) and "mig-" in str(i.get("name", "")) for i in items):
        return _config_block(ctx, fact, lambda d: d["sharing"].update(timeSlicing=d["sharing"].pop("mps")))
    flags = data.get("flags") if isinstance(data, dict) else None
    if isinstance(flags, dict) and flags.get("migStrategy") == "mixed":
        return _config_block(ctx, fact, lambda d: d["flags"].update(migStrategy="single"))
    return set_policy(ctx, {"mig.strategy": "single"})


def _label(node: str, label: str, value: str) -> Text:
    return Text("kubectl label node {n} {l}={v} --overwrite").format(n=node or "<node>", l=label, v=value)


def _closest(value: str, choices) -> str:
    found = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.3)
    return found[0] if found else (sorted(choices)[0] if choices else "<key>")


def fix(rule: str, fact: dict, ctx: Context) -> Text | None:
    """The fix of one finding (None where the finding's own text says what to do)."""
    f = fact
    if rule in ("CHK-013", "CHK-014", "CHK-015"):
        return _fix_problem(ctx, f)
    if rule in ("CHK-001", "CHK-002", "CHK-010"):
        return _fix_shared_resource(ctx, f, rule)
    if rule == "CHK-005":
        return _fix_replicas(ctx, f)
    if rule == "CHK-006":  # the MPS control daemon's maximum: 48 from compute capability 7.5, below 16
        return _fix_replicas(ctx, f, f.get("mps_max_clients") or 48)
    if rule == "CHK-016":
        return _fix_mps_mixed(ctx, f)
    if rule == "CHK-024":
        return set_policy(ctx, {"mig.strategy": "mixed"})
    if rule == "CHK-017":
        if f.get("mig_strategy") in ("single", "mixed"):  # what the operator takes
            return set_policy(ctx, {"mig.strategy": f.get("mig_strategy")})

        def drop(data):  # none is not a ClusterPolicy value: the configuration stops pretending
            flags = data.get("flags") if isinstance(data.get("flags"), dict) else None
            if flags is None or "migStrategy" not in flags:
                return False
            del flags["migStrategy"]
            if not flags:
                del data["flags"]
            return True

        return _config_block(ctx, f, drop)
    if rule in ("CHK-020", "CHK-021"):
        keys = ctx.configmaps.get(f.get("dp_config_name"), [])
        written = f.get("dp_config_default", "")
        default = _closest(written, keys) if keys and written else "<key>"
        fix = set_policy(ctx, {"devicePlugin.config.default": default})
        return fix + (Text("   (keys of {cm}: {k})", "   (Schlüssel von {cm}: {k})").format(
            cm=f.get("dp_config_name"), k=", ".join(keys)) if keys and default == "<key>" else "")
    if rule == "CHK-022":
        keys = ctx.configmaps.get(f.get("dp_configmap"), [])
        cmd = _label(f.get("name"), "nvidia.com/device-plugin.config", _closest(f.get("dp_config_label", ""), keys))
        return cmd + (Text("   (keys of {cm}: {k})", "   (Schlüssel von {cm}: {k})").format(
            cm=f.get("dp_configmap"), k=", ".join(keys)) if len(keys) > 1 else "")
    if rule == "CHK-026":
        keys = ctx.configmaps.get(f.get("name"), [])
        found = set_policy(ctx, {"devicePlugin.config.name": f.get("name"),
                                 "devicePlugin.config.default": keys[0] if len(keys) == 1 else "<key>"})
        if f.get("named_instead"):  # the other name may be the right one: the ConfigMap takes it
            found = found + Text("\nOr give the ConfigMap the name the ClusterPolicy expects: metadata.name: {n} "
                                 "(kubectl get configmap {cm} -n {ns} -o yaml, rename, kubectl apply).",
                                 "\nOder der ConfigMap den Namen geben, den die ClusterPolicy erwartet: metadata.name: "
                                 "{n} (kubectl get configmap {cm} -n {ns} -o yaml, umbenennen, kubectl apply).").format(
                n=f["named_instead"], cm=f.get("name"), ns=f.get("namespace") or ctx.operator_namespace)
        return found
    if rule == "CHK-011":  # the ConfigMap created by hand instead (its configurations are the customer's own)
        return set_policy(ctx, {"devicePlugin.config.create": False}) + Text(
            "\nThen create ConfigMap {cm} in the operator's namespace with your configurations.",
            "\nLegen Sie dann die ConfigMap {cm} mit Ihren Konfigurationen im Namespace des Operators an.").format(
            cm=f.get("dp_config_name"))
    if rule == "CHK-057":  # the layouts in a ConfigMap of the customer's own, which the operator leaves alone
        return set_policy(ctx, {"migManager.config.name": "custom-mig-config"}) + Text(
            "\nThen create ConfigMap custom-mig-config (key config.yaml) in the operator's namespace with your layouts, "
            "{layout} among them, and the ones of default-mig-parted-config your nodes use.",
            "\nLegen Sie dann im Namespace des Operators die ConfigMap custom-mig-config (Schlüssel config.yaml) mit "
            "Ihren Layouts an, darunter {layout}, und mit denen aus default-mig-parted-config, die Ihre Nodes nutzen.").format(
            layout=f.get("layout"))
    if rule == "CHK-019":  # the ConfigMap where the device plugin's pods can mount it
        return Text("In the manifest of ConfigMap {cm}:\n{y}", "Im Manifest der ConfigMap {cm}:\n{y}").format(
            cm=f.get("name"), y=_yaml({"metadata": {"name": f.get("name"), "namespace": f.get("components_namespace")}}))
    if rule == "CHK-025":
        return Text("In the kustomization.yaml:\n{y}", "In der kustomization.yaml:\n{y}").format(
            y=_yaml({"generatorOptions": {"disableNameSuffixHash": True}}))
    if rule == "CHK-027":
        return Text("Share nvidia.com/gpu, or: {p}", "nvidia.com/gpu teilen, oder: {p}").format(
            p=set_policy(ctx, {"mig.strategy": "mixed"}))
    if rule in ("CHK-030", "CHK-031", "CHK-032"):
        return set_policy(ctx, {"mig.strategy": "mixed"})
    if rule in ("CHK-033", "CHK-044"):
        return _label(f.get("name"), "nvidia.com/mig.config", "all-disabled")
    if rule == "CHK-042":
        return set_policy(ctx, {"migManager.enabled": True})
    if rule == "CHK-056" and f.get("workaround_key"):  # the setting the known issue's workaround names
        return set_policy(ctx, {f["workaround_key"]: f["workaround_value"]})
    if rule == "CHK-081":
        return set_policy(ctx, {"sandboxWorkloads.enabled": True})
    if rule == "CHK-028" and f.get("closest_en"):
        value = f["closest_en"].split(": ", 1)[1].rstrip(".")
        return Text("In the pod template of {w}:\n{y}", "Im Pod-Template von {w}:\n{y}").format(
            w=f.get("workload"), y=_yaml({"nodeSelector": {"nvidia.com/gpu.product": value}}))
    if rule == "CHK-029" and f.get("never_written") == "shared":
        values = f.get("values", "").split(", ")
        return Text("In the pod template of {w}:\n{y}", "Im Pod-Template von {w}:\n{y}").format(
            w=f.get("workload"), y=_yaml({"nodeSelector": {"nvidia.com/gpu.product": values[0] + "-SHARED"}}))
    if rule == "CHK-070" and f.get("advertised_names"):
        names = [n for n in f["advertised_names"].split(", ") if n != "nvidia.com/mig-*"]
        if names:
            best = _closest(f.get("resource", ""), names)
            return Text("In container {c} of {w}, request a resource the cluster advertises ({all}):\n{y}",
                        "Im Container {c} von {w} eine Ressource anfordern, die der Cluster meldet ({all}):\n{y}").format(
                c=f.get("container"), w=f.get("workload"), all=", ".join(names),
                y=_yaml({"resources": {"limits": {best: f.get("count", 1)}}}))
    if rule in ("CHK-076", "CHK-077"):
        name = f.get("plugin_name") if rule == "CHK-076" else f.get("base_resource")
        return Text("In container {c} of {w}:\n{y}", "Im Container {c} von {w}:\n{y}").format(
            c=f.get("container"), w=f.get("workload"), y=_yaml({"resources": {"limits": {name: f.get("count", 1)}}}))
    if rule in ("CHK-071", "CHK-072"):
        return Text("In container {c} of {w}:\n{y}", "Im Container {c} von {w}:\n{y}").format(
            c=f.get("container"), w=f.get("workload"), y=_yaml({"resources": {"limits": {f.get("resource"): 1}}}))
    if rule == "CHK-065":
        return Text("In container {c} of {w}:\n{y}\nAnd run the MPS control daemon beside the plugin: the plugin's Helm chart "
                    "deploys both with this configuration (helm upgrade -i nvdp nvdp/nvidia-device-plugin -n {ns} "
                    "--set-file config.map.config=<your configuration file>).",
                    "Im Container {c} von {w}:\n{y}\nUnd den MPS-Control-Daemon neben dem Plugin betreiben: Das Helm-Chart "
                    "des Plugins stellt beides mit dieser Konfiguration bereit (helm upgrade -i nvdp "
                    "nvdp/nvidia-device-plugin -n {ns} --set-file config.map.config=<Ihre Konfigurationsdatei>).").format(
            c=f.get("container"), w=f.get("workload"), ns=f.get("namespace") or "nvidia-device-plugin",
            y=_yaml({"env": [{"name": "MPS_ROOT", "value": "/run/nvidia/mps"}]}))
    if rule == "CHK-074":
        return Text("In container {c} of {w} (and the Linux capabilities it needs under securityContext.capabilities.add "
                    "instead):\n{y}",
                    "Im Container {c} von {w} (und stattdessen die Linux-Capabilities, die er braucht, unter "
                    "securityContext.capabilities.add):\n{y}").format(
            c=f.get("container"), w=f.get("workload"), y=_yaml({"securityContext": {"privileged": False}}))
    if rule == "CHK-075":
        return Text("In the pod template of {w}:\n{y}", "Im Pod-Template von {w}:\n{y}").format(
            w=f.get("workload"), y=_yaml({"runtimeClassName": "nvidia"}))
    if rule == "CHK-080":
        value = _closest(f.get("workload_config", ""), ["container", "vm-passthrough", "vm-vgpu"])
        return _label(f.get("name"), "nvidia.com/gpu.workload.config", value)
    if rule == "CHK-041":
        return Text("kubectl logs -n {ns} -l app=nvidia-mig-manager --tail=100; then, after fixing the layout: {l}",
                    "kubectl logs -n {ns} -l app=nvidia-mig-manager --tail=100; danach, mit korrigiertem Layout: {l}"
                    ).format(ns=ctx.operator_namespace, l=_label(f.get("name"), "nvidia.com/mig.config",
                                                                f.get("mig_config") or "<layout>"))
    from kb.check.fixblocks import FIXES

    build = FIXES.get(rule)
    return build(ctx, f) if build is not None else None
