"""Device-plugin configuration facts: each configuration, its sharing blocks and shared resources, each ConfigMap."""

from __future__ import annotations

from kb.check.facts.base import Context, FactSet, error_props, text, type_name, typed

#: sharing block of a device-plugin configuration → catalog method id
METHOD = {"timeSlicing": "time-slicing", "mps": "mps"}


def facts(ctx: Context, out: FactSet, uses: dict) -> None:
    for cfg in ctx.inv.dp_configs:
        props = {"config": cfg.label, "configmap": cfg.configmap or "", "key": cfg.key, "origin": cfg.origin,
                 **error_props(cfg.error), "nodes": uses.get(cfg.label, 0)}
        at = None
        if cfg.error is None:
            props.update(mig_strategy=text(cfg.mig_strategy.value), mig_strategy_set=cfg.mig_strategy.present,
                         time_slicing="timeSlicing" in cfg.sharing, mps="mps" in cfg.sharing)
            at = {"mig_strategy": cfg.mig_strategy.where}
        out.add("dp_config", cfg.where, at, **props)
        for sh in cfg.sharing.values():
            items = sh.resources.value if isinstance(sh.resources.value, list) else []
            out.add("sharing", sh.where, {"rename_by_default": sh.rename_by_default.where,
                                          "fail_gt_one": sh.fail_requests_greater_than_one.where,
                                          "resources_type": sh.resources.where},
                    config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind],
                    rename_by_default=text(sh.rename_by_default.value) or "false",
                    **typed("rename", sh.rename_by_default.value),
                    fail_gt_one=text(sh.fail_requests_greater_than_one.value) or "false",
                    **typed("fail", sh.fail_requests_greater_than_one.value),
                    **typed("resources", sh.resources.value), resources_count=len(items))
            for item in sh.items:
                name, replicas = item.name.value, item.replicas.value
                out.add("shared_resource", item.where, {"name": item.name.where, "replicas": item.replicas.where},
                        config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind], index=item.index,
                        name=text(name), replicas=replicas if type_name(replicas) == "integer" else text(replicas),
                        **typed("replicas", replicas),
                        mig_resource=isinstance(name, str) and name.startswith("nvidia.com/mig-"),
                        full_gpu=name == "nvidia.com/gpu")
    for name in dict.fromkeys(c.configmap for c in ctx.inv.dp_configs if c.configmap):
        cfgs = [c for c in ctx.inv.dp_configs if c.configmap == name]
        out.add("dp_configmap", cfgs[0].configmap_where or cfgs[0].where, name=name, origin=cfgs[0].origin,
                keys=len(cfgs))
