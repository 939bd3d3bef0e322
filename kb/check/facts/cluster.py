"""Facts about the cluster as a whole, its ClusterPolicy(s) and GPUCluster(s) with their DRA feature gates."""

from __future__ import annotations

import re

from kb.check.documents import Where
from kb.check.facts.base import Context, FactSet, boolean, text, typed, versus
from kb.check.readers.deviceplugin import MISSING
from kb.questions.behaviour import release_feature

#: where an object came from, in words (the manifest's kind, or the chart's values)
_ORIGIN_DE = {"Helm values": "Helm-Werte"}


def origin(name: str) -> dict:
    """`origin` and its words `origin_en`/`origin_de`."""
    return {"origin": name, "origin_en": name, "origin_de": _ORIGIN_DE.get(name, name)}


def cluster(ctx: Context, out: FactSet) -> None:
    """One `cluster` fact: versions, and how GPUs reach containers."""
    where = ctx.policy.where() if ctx.policy else (ctx.inv.gpu_clusters[0].where if ctx.inv.gpu_clusters else Where.nowhere())
    op, k8s, driver = ctx.operator(), ctx.k8s(), ctx.driver()
    out.add("cluster", where, obj="cluster", operator=op, k8s=k8s, driver=driver, **runtime(ctx))


def runtime(ctx: Context) -> dict:
    """How GPUs reach containers (ClusterPolicy, else the catalog default for --operator): also stated on each
    workload fact, so the rules about workloads read one fact."""
    return {"cdi_enabled": boolean(ctx.policy_value("cdi.enabled")),
            "nri_enabled": boolean(ctx.policy_value("cdi.nriPluginEnabled")),
            "toolkit_enabled": boolean(ctx.policy_value("toolkit.enabled"))}


def policies(ctx: Context, out: FactSet) -> None:
    for p in ctx.inv.policies:
        name = text(p.value("devicePlugin.config.name"))
        default = text(p.value("devicePlugin.config.default"))
        keys = ctx.inv.configmaps.get(name) if name else None
        at = {prop: p.settings[key].where for prop, key in (
            ("mig_strategy", "mig.strategy"), ("dp_config_name", "devicePlugin.config.name"),
            ("dp_config_default", "devicePlugin.config.default"), ("mig_manager_enabled", "migManager.enabled"),
            ("sandbox_enabled", "sandboxWorkloads.enabled")) if key in p.settings}
        if p.dp_create_empty is not None:
            at["dp_create_empty"] = p.dp_create_empty
        strategy = p.value("mig.strategy", MISSING)
        sandbox = ctx.policy_value("sandboxWorkloads.enabled") if p is ctx.policy else p.value("sandboxWorkloads.enabled")
        generated = getattr(ctx, "generated", {}).get(name) if name else None
        out.add("policy", p.where(), at, obj=f"policy:{p.name}", ident=("name",), name=p.name, **origin(p.origin),
                source_en=p.source.en if p.source else None, source_de=p.source.de if p.source else None,
                namespace=ctx.namespace_of(p), partial=p.partial,
                dp_configmap_generated=generated if generated and keys is None else None,
                mig_strategy=text(strategy) if strategy is not MISSING else None, **typed("mig_strategy", strategy),
                dp_config_name=name, dp_config_default=default,
                dp_configmap_read=(keys is not None) if name else None,
                dp_default_in_configmap=(default in keys) if (keys is not None and default) else None,
                mig_manager_enabled=boolean(p.value("migManager.enabled")), sandbox_enabled=boolean(sandbox),
                **_create_empty(ctx, p))


def _create_empty(ctx: Context, p) -> dict:
    """Helm values with devicePlugin.config.create true and no devicePlugin.config.data: `dp_create_empty`, and from
    which GPU Operator release the chart refuses such values (`refused_since`, the catalog's
    dp-config-create-needs-data) — before, it renders no ConfigMap while the device plugin's pods mount it."""
    if p.dp_create_empty is None:
        return {}
    feature = release_feature(ctx.data, "gpu-operator", "dp-config-create-needs-data") or {}
    return {"dp_create_empty": True, "refused_since": feature.get("since") or ""}


def gpu_clusters(ctx: Context, out: FactSet) -> None:
    """Each GPUCluster with the DRA requirements of the catalog compared with what is known here
    (`…_vs_min: below | meets`, left out where this cluster's version is unknown), and its feature gates."""
    req = ctx.data.get("methods", {}).get("dra", {}).get("requirements") or {}
    policy = ctx.policy
    for g in ctx.inv.gpu_clusters:
        props: dict = {"name": g.name, **origin(g.origin)}
        if policy is not None:
            words = origin(policy.origin)
            props.update(policy_name=policy.name, policy_origin_en=words["origin_en"], policy_origin_de=words["origin_de"])
        for key, label, have in (("k8s", "min_kubernetes", ctx.k8s()), ("driver", "min_driver", ctx.driver()),
                                 ("operator", "min_operator", ctx.operator())):
            need = (req.get(label) or {}).get("value")
            props.update({f"min_{key}": need, key: have, f"{key}_vs_min": versus(have, need)})
        me = f"gpucluster:{g.name}"
        for gate in g.gates[:50]:  # durable-rules takes at most 255 properties per fact
            if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", gate.name) and isinstance(gate.enabled, bool):
                props[f"gate_{gate.name}"] = gate.enabled
        props["enabled_gates"] = ", ".join(gate.name for gate in g.gates if gate.enabled is True)
        at = {"gates": g.gates[0].where} if g.gates else None
        out.add("gpu_cluster", g.where, at, obj=me, ident=("name",), **props)
        for gate in g.gates:
            out.add("dra_gate", gate.where, obj=me, ident=("cluster",), gate=gate.name, cluster=g.name,
                    enabled=boolean(gate.enabled), enabled_text=text(gate.enabled))
