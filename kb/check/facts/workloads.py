"""Workload facts: what each pod template requests, whether anything advertises it, and where it runs."""

from __future__ import annotations

import difflib
import re

from kb.check.facts.cluster import runtime
from kb.check.facts.base import Context, FactSet, text, type_name
from kb.check.readers.deviceplugin import MISSING
from kb.check.readers.smi import SmiNode
from kb.questions.resource import mig_resource_name

MIG_ANY = "nvidia.com/mig-*"

#: a MIG resource of the mixed strategy: the profile (compute-instance part optional), the variant suffix after it
MIG_RESOURCE = re.compile(r"nvidia\.com/mig-((?:\d+c\.)?\d+g\.\d+gb)(.*)")


def mig_request(ctx: Context, resource: str, node_names: set) -> dict:
    """Properties of a request for a MIG resource as the device plugin names it: `plus_in_name` (a "+" the API
    server refuses; `plugin_name` is the name the plugin advertises: every "+" a ".", internal/rm/rm.go), and
    `variant_resource` (holds | not-yet | unknown) for a profile variant (-me, .me.all, .gfx …), which the plugin
    advertises as a resource of its own only from the version in catalog/releases/device-plugin.yaml
    (mig-suffix-profiles-as-resources); `base_resource` is where an older plugin puts such an instance."""
    props: dict = {}
    name = resource.split("/", 1)[1] if "/" in resource else resource
    if "+" in name:
        props["plus_in_name"] = True
        props["plugin_name"] = mig_resource_name(name[len("mig-"):]) if name.startswith("mig-") else resource.replace("+", ".")
    m = MIG_RESOURCE.fullmatch(resource.replace("+", "."))
    variant = m.group(2).removesuffix(".shared") if m else ""
    if m and variant and resource not in node_names:
        state, version, since = ctx.plugin_feature("mig-suffix-profiles-as-resources")
        props.update(variant_resource=state, variant=variant, plugin_version=version or "", variant_since=since or "",
                     base_resource="nvidia.com/mig-" + m.group(1) + (".shared" if m.group(2).endswith(".shared") else ""))
    return props


def advertised(ctx: Context) -> tuple[set | None, list]:
    """Resource names the configurations read advertise (None: nothing known), and the shared ones as
    (name, sharing kind, whether requests above 1 are refused)."""
    names: set = set()
    shared: list = []
    known = ctx.policy is not None
    strategies = {ctx.mig_strategy()} - {None}
    for cfg in ctx.inv.dp_configs:
        if cfg.error is not None:
            continue
        known = True
        if isinstance(cfg.mig_strategy.value, str):
            strategies.add(cfg.mig_strategy.value)
        renamed = set()
        for sh in cfg.sharing.values():
            rename = sh.rename_by_default.value is True
            fail = sh.fail_requests_greater_than_one.value
            if fail is MISSING:
                fail = ctx.plugin_default(f"sharing.{sh.kind}.failRequestsGreaterThanOne")
            elif sh.kind == "mps" and ctx.plugin_feature("mps-fail-requests-configurable")[0] == "not-yet":
                fail = True  # the plugin up to v0.19.3 sets it to true whatever is written (CHK-064 says so)
            for item in sh.items:
                if isinstance(item.name.value, str):
                    name = item.name.value + (".shared" if rename else "")
                    names.add(name)
                    shared.append((name, sh.kind, fail is True))
                    if rename:
                        renamed.add(item.name.value)
        if "nvidia.com/gpu" not in renamed:
            names.add("nvidia.com/gpu")
    if ctx.policy is not None and not ctx.inv.dp_configs:
        names.add("nvidia.com/gpu")
    if "mixed" in strategies:
        names.add(MIG_ANY)
    for node in ctx.inv.nodes:
        if node.resources:
            known = True
            names.update(node.resources)
    return (names if known else None), shared


def _shared_default(ctx: Context) -> bool:
    """Does every node without its own label get a time-slicing configuration that keeps the resource name
    (so GPU Feature Discovery appends -SHARED to its product label)?"""
    default = ctx.dp_default()
    cfg = ctx.dp_config_for(default) if default else None
    if cfg is None or cfg.error is not None or "timeSlicing" not in cfg.sharing:
        return False
    return cfg.sharing["timeSlicing"].rename_by_default.value is not True


def product_facts(ctx: Context, out: FactSet, w, me: str, ident: str) -> None:
    """What a pod requires of nvidia.com/gpu.product, against the values GPU Feature Discovery writes."""
    if not w.products:
        return
    carried = sorted({n.label("nvidia.com/gpu.product") for n in ctx.inv.nodes if n.label("nvidia.com/gpu.product")})
    values = [v for v, _ in w.products]
    where = w.products[0][1]
    props = {"workload": ident, "namespace": w.namespace or "", "values": ", ".join(values)}
    if carried:
        props["match"] = any(v in carried for v in values)
        props["carried"] = ", ".join(carried[:8]) + (f", … (+{len(carried) - 8})" if len(carried) > 8 else "")
        close = difflib.get_close_matches(values[0], carried, n=1, cutoff=0.5)
        props["closest_en"] = f" Closest value on a node: {close[0]}." if close else ""
        props["closest_de"] = f" Ähnlichster Wert auf einem Node: {close[0]}." if close else ""
    else:
        if any(" " in v for v in values):
            props["never_written"] = "spaces"
        elif _shared_default(ctx) and not any(v.endswith("-SHARED") for v in values):
            props["never_written"] = "shared"
    out.add("product_selector", where, obj=me, ident=("workload", "namespace"), **props)


def mps_without_root(ctx: Context, out: FactSet, w, me: str, ident: str) -> None:
    """A device plugin's own DaemonSet (not the GPU Operator's, not the chart's: those set MPS_ROOT) that mounts a
    configuration sharing GPUs with MPS and sets no MPS root, in its containers or the configuration's flags: the plugin
    refuses to start (kb.check.readers.workload: `mps_root`)."""
    for cfg in ctx.inv.dp_configs:
        data = cfg.data if isinstance(cfg.data, dict) else {}
        flags = data.get("flags") if isinstance(data.get("flags"), dict) else {}
        if cfg.configmap in w.configmap_volumes and "mps" in cfg.sharing and not flags.get("mpsRoot") and (
                cfg.namespace is None or w.namespace is None or cfg.namespace == w.namespace):
            out.add("dp_mps_without_root", w.where, obj=me, ident=("workload", "config"), workload=ident,
                    namespace=w.namespace or "", container=w.plugin_container, config=cfg.label)


def facts(ctx: Context, out: FactSet) -> None:
    names, shared = advertised(ctx)
    how = runtime(ctx)
    # what a node reports as allocatable (not what nvidia-smi shows: that names devices, not resources)
    reported = {r for n in ctx.inv.nodes if not isinstance(n, SmiNode) for r in n.resources}
    gpu_nodes = {n.name for n in ctx.inv.nodes if n.labels or n.resources}
    for w in ctx.inv.workloads:
        ident = f"{w.kind}/{w.name}"
        me = f"workload:{w.namespace or ''}/{ident}"
        hints = w.gpu_hints + ([f"nodeName {w.node_name}"] if w.node_name in gpu_nodes else [])
        hint = hints[0] if hints else ""
        if hint.startswith("nodeName "):
            hint = "nodeName"  # which GPU node does not change the finding: pods of one owner group together
        out.add("workload", w.where, obj=me, ident=("workload", "namespace", "node_name"),
                workload=ident, namespace=w.namespace or "", node_name=w.node_name or "",
                owner=w.owner, gpu_requests=len(w.requests), gpu_node=bool(hints),
                gpu_hint=hint, runtime_class=w.runtime_class or "", nvidia=bool(w.nvidia_component),
                nvidia_component=w.nvidia_component,
                visible_devices=w.sets_visible_devices, resource_claims=w.uses_resource_claims, **how)
        product_facts(ctx, out, w, me, ident)
        if w.nvidia_component == "k8s-device-plugin" and not w.mps_control_daemon and not w.mps_root:
            mps_without_root(ctx, out, w, me, ident)
        requested = {r.container: r.resource for r in reversed(w.requests)}
        for container, where in w.privileged:
            if container in requested and not w.nvidia_component:  # (NVIDIA's own pods see every GPU by design)
                out.add("privileged_gpu_container", where, obj=me, ident=("workload", "namespace", "container"),
                        workload=ident, namespace=w.namespace or "", container=container,
                        resource=requested[container])
        for r in w.requests:
            if names is None or not r.resource.startswith("nvidia.com/"):
                offered = "unknown"
            elif r.resource in names or (r.resource.startswith("nvidia.com/mig-") and MIG_ANY in names):
                offered = "yes"
            else:
                offered = "no"
            extra = mig_request(ctx, r.resource, reported) if r.resource.startswith("nvidia.com/") else {}
            if extra.get("plus_in_name") and offered == "no":
                offered = "invalid-name"  # refused by the API server before any scheduling (CHK-076)
            sharing = [s for s in shared if s[0] == r.resource]
            count = r.count
            if isinstance(count, str) and count.strip().isdigit():
                count = int(count.strip())
            out.add("gpu_request", r.where, obj=me, ident=("workload", "namespace"), workload=ident,
                    namespace=w.namespace or "", owner=w.owner, container=r.container, resource=r.resource,
                    count=count if type_name(count) == "integer" else text(count), advertised=offered,
                    advertised_names=", ".join(sorted(names)) if names else "",
                    shared_by=sharing[0][1] if sharing else "", fail_gt_one=any(s[2] for s in sharing), **extra)
