"""MIG layouts: their shape (MIG on, GPUs kept out, profiles mixed), from a MIG Manager configuration or
from a name MIG Manager knows (all-disabled, all-enabled, all-balanced, all-<profile>)."""

from __future__ import annotations

import difflib

import re

from kb.check.facts.base import Context, FactSet, error_props

_ALL_PROFILE = re.compile(r"^all-(\d+g\.\d+gb)(\.me\.all|\.me|\.gfx|-me)?$")
#: how a layout name writes a profile's suffix (mig-parted: "+" becomes ".") → the profile's own suffix
_SUFFIX = {".me": "+me", ".me.all": "+me.all", ".gfx": "+gfx", "-me": "-me"}


def shape(layout) -> dict:
    """Entries with a device-filter apply to one GPU type each: a GPU kept out of MIG or a second profile
    counts only within the entries of one type (a node has one type of GPU per filter)."""
    groups: dict = {}
    for e in layout.entries:
        groups.setdefault(e.device_filter, []).append(e)
    gpus_out = mixed = False
    for entries in groups.values():
        on = [e for e in entries if e.mig_enabled is True]
        gpus_out |= bool(on) and any(e.mig_enabled is False for e in entries)
        mixed |= len({str(p) for e in on for p, n in e.mig_devices.items() if n}) > 1
    profiles = sorted({str(p) for e in layout.entries if e.mig_enabled is True for p, n in e.mig_devices.items() if n})
    return {"mig_on": any(e.mig_enabled is True for e in layout.entries), "gpus_out": gpus_out,
            "mixed_profiles": mixed, "profiles": _listed(profiles), **_why(gpus_out, mixed)}


#: a layout's profiles are listed up to this many (a default configuration names dozens, one set per GPU type)
_SHOWN = 8


def _listed(profiles: list[str]) -> str:
    if len(profiles) <= _SHOWN:
        return ", ".join(profiles)
    return ", ".join(profiles[:_SHOWN]) + f", … (+{len(profiles) - _SHOWN})"


def _why(gpus_out: bool, mixed: bool) -> dict:
    """What keeps mig.strategy single from serving a layout, in words (`why_en`, `why_de`)."""
    en = [t for t, on in (("keeps a GPU out of MIG", gpus_out), ("mixes MIG profiles on one GPU type", mixed)) if on]
    de = [t for t, on in (("lässt eine GPU ohne MIG", gpus_out), ("mischt MIG-Profile auf einem GPU-Typ", mixed)) if on]
    return {"why_en": " and ".join(en), "why_de": " und ".join(de)}


def named_shape(name: str) -> dict | None:
    """The shape of a layout MIG Manager knows by its name alone; None for a custom name."""
    fixed = {"all-disabled": (False, False, ""), "all-enabled": (True, False, ""), "all-balanced": (True, True, "")}
    if name in fixed:
        on, mixed, profiles = fixed[name]
        return {"mig_on": on, "gpus_out": False, "mixed_profiles": mixed, "profiles": profiles, **_why(False, mixed)}
    m = _ALL_PROFILE.match(name)
    if m:
        return {"mig_on": True, "gpus_out": False, "mixed_profiles": False,
                "profiles": m.group(1) + _SUFFIX.get(m.group(2) or "", ""), **_why(False, False)}
    return None


def layouts(ctx: Context) -> dict:
    """Every layout read: (configuration label, layout name) → Layout."""
    out = {}
    for cfg in ctx.inv.mig_configs:
        label = f"{cfg.configmap}/{cfg.key}" if cfg.configmap else cfg.key
        for name, layout in cfg.layouts.items():
            out[(label, name)] = layout
    return out


def by_name(known: dict) -> dict:
    """layout name → [(configuration label, Layout), …] of the usable layouts."""
    out: dict = {}
    for (cfg, name), layout in known.items():
        if not layout.error:
            out.setdefault(name, []).append((cfg, layout))
    return out


def named_config_lacks(ctx: Context, node) -> dict:
    """Where the ClusterPolicy names its own MIG configuration (migManager.config.name) and the input holds it, MIG
    Manager reads only that one (not NVIDIA's generated set): a node label naming a layout it lacks is
    `layout_missing_in` that configuration (the last one of that name the input applies), with its layouts."""
    name = node.label("nvidia.com/mig.config")
    named = ctx.setting("migManager.config.name") if ctx.policy is not None else None
    if not name or not isinstance(named, str) or not named:
        return {}
    cfgs = [c for c in ctx.inv.mig_configs if c.configmap == named and not c.error]
    if not cfgs or name in cfgs[-1].layouts:
        return {}
    have = list(cfgs[-1].layouts)
    close = difflib.get_close_matches(name, have, n=1, cutoff=0.9)  # a typo, not a neighbour (all-disabled)
    return {"layout_missing_in": named, "layout_missing_key": cfgs[-1].key, "named_layouts": ", ".join(have),
            "layout_closest": close[0] if close else "",
            "layout_closest_en": f" Did you mean {close[0]}?" if close else "",
            "layout_closest_de": f" War {close[0]} gemeint?" if close else ""}


def node_layout(node, index: dict) -> dict:
    """`layout_*` properties of a node from its nvidia.com/mig.config label (its own generated ConfigMap first);
    `index` is by_name(layouts)."""
    name = node.label("nvidia.com/mig.config")
    if name is None:
        return {}
    found = sorted(index.get(name, []), key=lambda c: (not c[0].startswith(f"{node.name}-mig-config/"), c[0]))
    got = shape(found[0][1]) if found else named_shape(name)
    if got is None:
        return {"layout_known": False}
    return {"layout_known": True, **{f"layout_{k}": v for k, v in got.items()}}


def label(cfg) -> str:
    return f"{cfg.configmap}/{cfg.key}" if cfg.configmap else cfg.key


#: the MIG configuration the GPU Operator creates and keeps as it ships it (controllers/object_controls.go)
OPERATOR_MIG_CONFIG = "default-mig-parted-config"


def _managed(ctx: Context, cfg_label: str) -> bool:
    """A layout of the operator's own default-mig-parted-config, which it overwrites with NVIDIA's layouts: where the
    input's ClusterPolicy names no MIG configuration of its own (without a ClusterPolicy in the input, the operator's
    default: none is named)."""
    if not cfg_label.startswith(OPERATOR_MIG_CONFIG + "/"):
        return False
    named = ctx.setting("migManager.config.name") if ctx.policy is not None else None
    return not (isinstance(named, str) and named and named != OPERATOR_MIG_CONFIG)


def facts(ctx: Context, out: FactSet, known: dict) -> None:
    broken = set()
    for cfg in ctx.inv.mig_configs:
        if cfg.error:
            broken.add(label(cfg))
            more = len(cfg.problems) - 1
            out.add("mig_config", cfg.problems[0].where if cfg.problems and cfg.problems[0].where else cfg.where,
                    obj=f"mig:{label(cfg)}", ident=("config",), config=label(cfg), **error_props(cfg.error),
                    more_problems=max(more, 0),
                    extra={"problems": [p.text for p in cfg.problems[1:]]} if more > 0 else None)
    uses: dict = {}
    for n in ctx.inv.nodes:
        uses[n.label("nvidia.com/mig.config")] = uses.get(n.label("nvidia.com/mig.config"), 0) + 1
    for (cfg_label, name), layout in known.items():
        if cfg_label in broken:  # mig-parted refuses the whole file: its layouts are follow-ons of that
            continue
        props = {"config": cfg_label, "layout": name, **error_props(layout.error)}
        if not layout.error:
            props.update(shape(layout))
        props["nodes"] = uses.get(name, 0)
        # a layout MIG Manager knows by its name (NVIDIA's default set: all-balanced, all-<profile>) is NVIDIA's
        # own, shipped in every installation: said about only where a node uses it (kb.check.facts.nodes)
        props["nvidia_layout"] = True if named_shape(name) is not None else None
        # NVIDIA's default ConfigMap, which the operator overwrites unless the ClusterPolicy names another one
        props["operator_managed"] = True if _managed(ctx, cfg_label) else None
        props["mig_strategy"] = ctx.mig_strategy()
        out.add("mig_layout", layout.where, obj=f"mig:{cfg_label}", ident=("config", "layout"), **props)
