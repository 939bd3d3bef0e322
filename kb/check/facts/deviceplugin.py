"""Device-plugin configuration facts: each configuration, what NVIDIA's code thinks of it (`dp_problem`), its
sharing blocks and shared resources, each ConfigMap.

Objects: a configuration is `dp:<configmap>/<key>` (or `dp:<file>`), its ConfigMap `cm:<name>`; the sharing
blocks and resources of a configuration belong to it, so a configuration the plugin refuses takes their notes
with it (kb.check.findings folds them)."""

from __future__ import annotations

import json

from kb.check.facts.base import Context, FactSet, error_props, text, type_name, typed
from kb.check.readers.dpschema import normalise_resource
from kb.text import Text

#: sharing block of a device-plugin configuration → catalog method id
METHOD = {"timeSlicing": "time-slicing", "mps": "mps"}


def _fail_honoured(ctx: Context, sh) -> dict:
    """MPS with failRequestsGreaterThanOne not true: whether the plugin in use honours it (`fail_honoured`: holds
    | not-yet | unknown; up to v0.19.3 it set true whatever was written: device-plugin.yaml's
    mps-fail-requests-configurable), with `plugin_version`, `honoured_since` and `honoured_operator` (the first GPU
    Operator release shipping that plugin, where one does)."""
    written = sh.fail_requests_greater_than_one
    if sh.kind != "mps" or not written.present or written.value is True:
        return {}
    from kb.questions.behaviour import first_operator_shipping

    state, version, since = ctx.plugin_feature("mps-fail-requests-configurable")
    operator = first_operator_shipping(ctx.data, "device-plugin", since) if since else None
    return {"fail_honoured": state, "plugin_version": version or "", "honoured_since": since or "",
            **({"honoured_operator": operator} if operator else {})}


def _namespaces(ctx: Context, cfg) -> dict:
    """A ConfigMap the ClusterPolicy names is mounted as a volume by the device plugin's DaemonSet (the GPU Operator's
    controllers/object_controls.go: handleDevicePluginConfig), and a pod mounts ConfigMaps of its own namespace only:
    `in_components_namespace` where both the ConfigMap's written namespace and the one NVIDIA's components run in are
    known (their DaemonSets or pods, the Helm release: not inferred from the ConfigMap)."""
    written, components = getattr(cfg, "namespace", None), ctx.inv.components_namespace
    if not written or not components or not ctx.inv.policies:
        return {}
    return {"written_namespace": written, "components_namespace": components,
            "in_components_namespace": written == components}


def obj(cfg) -> str:
    return f"dp:{cfg.label}"


def _named(ctx: Context) -> set | None:
    """The ConfigMaps the input's ClusterPolicies and chart values name for the device plugin (None: the input
    holds neither, so whether a ConfigMap is used is not known)."""
    if not ctx.inv.policies and not ctx.inv.charts:
        return None
    names = {p.value("devicePlugin.config.name") for p in ctx.inv.policies}
    names |= {c.configmap for c in ctx.inv.charts}
    return {n for n in names if isinstance(n, str) and n}


def _sources_words(ctx: Context) -> str:
    kinds = [p.name for p in ctx.inv.policies][:3] + [c.source.en for c in ctx.inv.charts][:2]
    return ", ".join(kinds)


#: what a configuration-level finding says, repeated in the finding about a resource of that configuration that
#: folds it (one mistake, one finding): CHK-001 folds CHK-016, CHK-027 folds CHK-017
MPS_MIXED = Text(" With the MIG strategy mixed, which MIG resources need, it refuses MPS altogether: the device plugin "
                 "does not start on the nodes that select this configuration.",
                 " Mit der MIG-Strategie mixed, die MIG-Ressourcen brauchen, lehnt es MPS ganz ab: Das Device-Plugin "
                 "startet auf den Nodes, die diese Konfiguration wählen, nicht.")
OVERRIDDEN = Text(" The configuration's flags.migStrategy {mine} does not change that: the GPU Operator starts the device "
                  "plugin with the ClusterPolicy's mig.strategy {policy}, which takes precedence.",
                  " Das flags.migStrategy {mine} der Konfiguration ändert daran nichts: Der GPU Operator startet das "
                  "Device-Plugin mit mig.strategy {policy} aus der ClusterPolicy, und die hat Vorrang.")


def _also(kind: str, props: dict) -> dict:
    """The words a resource's finding adds for what its configuration's own finding (folded into it) said."""
    mixed = MPS_MIXED if kind == "mps" and props.get("effective_mig_strategy") == "mixed" else Text("")
    mine, policy = props.get("mig_strategy"), props.get("policy_mig_strategy")
    overridden = OVERRIDDEN.format(mine=mine, policy=policy) if (
        props.get("mig_strategy_set") and mine in ("single", "mixed") and policy and policy != mine) else Text("")
    return {"also_mixed_en": mixed.en, "also_mixed_de": mixed.de,
            "overridden_en": overridden.en, "overridden_de": overridden.de}


def _mps_limit(small: list[tuple[str, str]]) -> dict:
    """The MPS control daemon's clients per GPU for a configuration: 48, or 16 where a node that selects it shows
    a GPU below compute capability 7.5 (kb.check.facts.nodes.below_7_5) — and the words that say why."""
    if not small:
        return {"mps_max_clients": 48, "mps_limit_en": "16 on GPUs below compute capability 7.5, such as the V100",
                "mps_limit_de": "16 auf GPUs unter Compute Capability 7.5, etwa der V100"}
    def named(word: str) -> str:  # "v100-node (compute capability 7.0)", "p100-node (Pascal)"
        return ", ".join(f"{n or '?'} ({word} {cc})" if cc[0].isdigit() else f"{n or '?'} ({cc})"
                         for n, cc in small[:3]) + (", …" if len(small) > 3 else "")

    return {"mps_max_clients": 16,
            "mps_limit_en": "only 16 on GPUs below compute capability 7.5, and this configuration applies to "
                            f"node(s) {named('compute capability')}",
            "mps_limit_de": "nur 16 auf GPUs unter Compute Capability 7.5, und diese Konfiguration gilt für "
                            f"Node(s) {named('Compute Capability')}"}


def facts(ctx: Context, out: FactSet, uses: dict) -> None:
    policy_strategy = ctx.setting("mig.strategy") if ctx.policy is not None else None
    if policy_strategy is None and ctx.inv.charts:  # the standalone chart passes migStrategy as MIG_STRATEGY too
        policy_strategy = ctx.inv.charts[0].mig_strategy
    for chart in ctx.inv.charts:
        for text_, where in chart.problems:
            out.add("dp_chart_problem", where, obj=f"chart:{chart.source.en}", source_en=chart.source.en,
                    source_de=chart.source.de, text_en=text_.en, text_de=text_.de)
    for cfg in ctx.inv.dp_configs:
        me = obj(cfg)
        cm = f"cm:{cfg.configmap}" if cfg.configmap else None
        props = {"config": cfg.label, "configmap": cfg.configmap or "", "key": cfg.key, "origin": cfg.origin,
                 **error_props(cfg.error), "nodes": uses.get(cfg.label, 0)}
        at = None
        if cfg.error is None:
            strategy = cfg.mig_strategy.value if cfg.mig_strategy.present else None
            effective = policy_strategy if isinstance(policy_strategy, str) and policy_strategy else strategy
            props.update(mig_strategy=text(cfg.mig_strategy.value), mig_strategy_set=cfg.mig_strategy.present,
                         time_slicing="timeSlicing" in cfg.sharing, mps="mps" in cfg.sharing,
                         effective_mig_strategy=effective if isinstance(effective, str) else None,
                         policy_mig_strategy=policy_strategy if isinstance(policy_strategy, str) and policy_strategy
                         else None,
                         fatal_problems=sum(1 for p in cfg.problems if p.fatal))
            at = {"mig_strategy": cfg.mig_strategy.where}
        chart = f"chart:{cfg.chart.source.en}" if cfg.chart is not None else None
        out.add("dp_config", cfg.where, at, obj=me, deps=(cm, chart), ident=("config", "key"),
                extra={"config": cfg.data} if cfg.data is not None else None, namespace=ctx.namespace_of(cfg),
                **props)
        where = {"configmap": cfg.configmap or "", "key": cfg.key, "namespace": ctx.namespace_of(cfg)}
        # every problem of the configuration: a corrected configuration corrects them all at once
        extra = {"config": cfg.data, "fixes": [{"problem": p.kind, "path": list(p.path), "suggestion": p.suggestion}
                                               for p in cfg.problems]} if cfg.data is not None else None
        for p in cfg.problems:
            out.add("dp_problem", p.where, obj=me, ident=("config",), extra=extra, config=cfg.label, problem=p.kind,
                    problem_key=p.key, suggestion=p.suggestion, text_en=p.text.en, text_de=p.text.de, fatal=p.fatal,
                    path_json=json.dumps(list(p.path)), **where)
        for sh in cfg.sharing.values():
            items = sh.resources.value if isinstance(sh.resources.value, list) else []
            extra = {"config": cfg.data} if cfg.data is not None else None
            where = {"configmap": cfg.configmap or "", "key": cfg.key, "namespace": ctx.namespace_of(cfg)}
            out.add("sharing", sh.where, {"rename_by_default": sh.rename_by_default.where,
                                          "fail_gt_one": sh.fail_requests_greater_than_one.where,
                                          "resources_type": sh.resources.where},
                    obj=me, deps=(chart,), ident=("config",),
                    config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind],
                    rename_by_default=text(sh.rename_by_default.value) or "false",
                    **typed("rename", sh.rename_by_default.value),
                    fail_gt_one=text(sh.fail_requests_greater_than_one.value) or "false",
                    **typed("fail", sh.fail_requests_greater_than_one.value),
                    **typed("resources", sh.resources.value), resources_count=len(items), **_fail_honoured(ctx, sh))
            also = _also(sh.kind, props)
            if sh.kind == "mps":
                also = {**also, **_mps_limit(ctx.mps_small.get(cfg.label, []))}
            for item in sh.items:
                name, replicas = item.name.value, item.replicas.value
                full = normalise_resource(name) if isinstance(name, str) else None
                out.add("shared_resource", item.where, {"name": item.name.where, "replicas": item.replicas.where},
                        # the same finding on several resources of a configuration is shown once, naming the others
                        obj=me, ident=("config", "index", "name", "written", "replicas", "replicas_type",
                                       "replicas_type_en", "replicas_type_de"),
                        effective_mig_strategy=props.get("effective_mig_strategy"),
                        extra=extra, configmap=where["configmap"], key=where["key"], namespace=where["namespace"],
                        config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind], index=item.index,
                        name=full or text(name), written=text(name),
                        replicas=replicas if type_name(replicas) == "integer" else text(replicas),
                        **typed("replicas", replicas),
                        mig_resource=bool(full and full.startswith("nvidia.com/mig-")),
                        full_gpu=full == "nvidia.com/gpu", **also)
    named = _named(ctx)
    # names the ClusterPolicy/values give that no ConfigMap of the input has: beside a ConfigMap nobody names,
    # most likely one mistake (a wrong name), reported once (CHK-026 folds CHK-023)
    present = set(ctx.inv.configmaps) | {c.configmap for c in ctx.inv.dp_configs if c.configmap} | set(
        getattr(ctx, "generated", {}))
    absent = sorted(n for n in (named or ()) if n not in present)
    for name in dict.fromkeys(c.configmap for c in ctx.inv.dp_configs if c.configmap):
        cfgs = [c for c in ctx.inv.dp_configs if c.configmap == name]
        base = next((b for b, g in getattr(ctx, "generated", {}).items() if g == name), None)
        unnamed = named is not None and not (name in named or base in named)
        instead = Text(" The ClusterPolicy names {n} instead, which is not in the input: most likely one of the two "
                       "names is wrong.", " Die ClusterPolicy nennt stattdessen {n}, die nicht in der Eingabe ist: "
                       "Vermutlich ist einer der beiden Namen falsch.").format(n=absent[0]) if unnamed and len(
            absent) == 1 else Text("")
        out.add("dp_configmap", cfgs[0].configmap_where or cfgs[0].where, obj=f"cm:{name}", ident=("name",),
                name=name, origin=cfgs[0].origin, keys=len(cfgs), namespace=ctx.namespace_of(cfgs[0]),
                named=None if named is None else (name in named or base in named),
                # the device plugin installed by its own chart, no GPU Operator in the input
                standalone=True if ctx.inv.charts and not ctx.inv.policies else None,
                sources=_sources_words(ctx), named_instead=absent[0] if unnamed and len(absent) == 1 else None,
                instead_en=instead.en, instead_de=instead.de, **_namespaces(ctx, cfgs[0]))
