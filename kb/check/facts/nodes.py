"""Node facts: the node's card (resolved from its product label), MIG layout, driver and device-plugin configuration."""

from __future__ import annotations

import re

from kb.catalog.names import NameError_, NameIndex
from kb.check.facts import mig
from kb.check.facts.base import Context, FactSet, boolean, text, versus
from kb.check.versions import clean, version_number
from kb.questions.words import MIG_STATUS, word

#: node fact property → the label it is read from
LABELS = {"product": "nvidia.com/gpu.product", "mig_config": "nvidia.com/mig.config",
          "mig_config_state": "nvidia.com/mig.config.state", "mig_strategy_label": "nvidia.com/mig.strategy",
          "gpu_mode": "nvidia.com/gpu.mode", "mig_capable": "nvidia.com/mig.capable",
          "workload_config": "nvidia.com/gpu.workload.config", "dp_config_label": "nvidia.com/device-plugin.config"}
#: the sharing a node reports (nvidia.com/gpu.sharing-strategy) → the name of the configuration block
_APPLIED = {"mps": "mps", "time-slicing": "timeSlicing", "none": "none"}


def product_name(label: str) -> str:
    """The card part of a nvidia.com/gpu.product label: without '-SHARED' and '-MIG-<profile>'."""
    name = re.sub(r"-SHARED$", "", label.strip())
    return re.sub(r"-MIG-\d+g\.\d+gb.*$", "", name)


def card_props(ctx: Context, names: NameIndex, product: str) -> tuple[dict, dict]:
    """The `card_*` properties, and the card's plain data (empty for a product the catalog lacks)."""
    try:
        cid = names.resolve(product_name(product))
    except NameError_:
        return {"card_known": False}, {}
    card = ctx.data["cards"][cid]
    m = card.get("mig", {})
    support = card.get("operator_support", {})
    since = support.get("since")
    return {
        "card_known": True, "card": cid, "card_name": card.get("short_name", cid),
        "card_mig_status": m.get("status", {}).get("value"),
        "card_mig_status_en": word(MIG_STATUS, m.get("status", {}).get("value"), "en"),
        "card_mig_status_de": word(MIG_STATUS, m.get("status", {}).get("value"), "de"),
        "card_mig_profiles": ", ".join(p["name"] for p in m.get("profiles", [])),
        "card_display_switch": boolean(((m.get("prerequisites") or {}).get("display_mode_switch") or {}).get("value")),
        "card_listed": boolean(support.get("listed", {}).get("value")),
        "card_listed_since": since, "operator_vs_listed_since": versus(ctx.operator(), since),
        "operator": ctx.operator(),
    }, card


def _driver(ctx: Context, node) -> str | None:
    """--driver, else the node's own label, else the driver the ClusterPolicy installs."""
    if ctx.env.driver:
        return ctx.env.driver
    full = node.label("nvidia.com/cuda.driver-version.full")
    parts = [node.label(f"nvidia.com/cuda.driver.{p}") for p in ("major", "minor", "rev")]
    legacy = ".".join(p for p in parts if p) if parts[0] else None
    return clean(full) or clean(legacy) or ctx.driver()


def facts(ctx: Context, out: FactSet, layouts: dict) -> dict:
    """One fact per node; returns how many nodes select each device-plugin configuration (label → count)."""
    names = NameIndex(ctx.data.get("cards", {}))
    uses: dict = {}
    configmap = ctx.dp_configmap()
    keys = ctx.inv.configmaps.get(configmap) if configmap else None
    default = text(ctx.policy.value("devicePlugin.config.default")) if ctx.policy else ""
    for node in ctx.inv.nodes:
        props: dict = {"name": node.name, **{k: node.label(label) for k, label in LABELS.items()}}
        props["gpu_mode"] = props["gpu_mode"] or "unknown"
        card: dict = {}
        if props["product"]:
            extra, card = card_props(ctx, names, props["product"])
            props.update(extra)
        # driver, and whether NVIDIA names it as a release without MIG for this card
        drv = _driver(ctx, node)
        props["driver"] = drv
        exceptions = card.get("operator_support", {}).get("driver_exceptions", [])
        if drv and exceptions:
            hit = [e for e in exceptions if version_number(e.get("driver")) == version_number(drv)
                   and e.get("feature") in ("mig", "all")]
            props["driver_mig_exception"] = bool(hit)
            props["exception_driver"] = hit[0]["driver"] if hit else None
        # MIG layout, its profiles on this card, and whether MIG is on at all
        layout = mig.node_layout(node, layouts)
        props.update(layout)
        profiles = [p["name"] for p in card.get("mig", {}).get("profiles", [])]
        if profiles and layout.get("layout_profiles"):
            missing = [p for p in layout["layout_profiles"].split(", ") if p not in profiles]
            props["layout_profile_missing"] = missing[0] if missing else ""
        mig_on = layout.get("layout_mig_on")
        if mig_on is None and ("-MIG-" in (props["product"] or "") or any(r.startswith("nvidia.com/mig-") for r in node.resources)):
            mig_on = True
        props["mig_on"] = mig_on
        props["strategy"] = props["mig_strategy_label"] or ctx.mig_strategy()
        # the device-plugin configuration the node selects, and the sharing it brings
        selected = props["dp_config_label"] or default
        props["dp_config"] = selected or ""
        if props["dp_config_label"] and keys is not None:
            props.update(dp_config_in_configmap=props["dp_config_label"] in keys, dp_configmap=configmap)
        cfg = ctx.dp_config_for(selected) if selected else None
        if cfg is not None and cfg.error is None:
            uses[cfg.label] = uses.get(cfg.label, 0) + 1
            props["sharing"] = next((k for k in ("mps", "timeSlicing") if k in cfg.sharing), "none")
        else:
            props["sharing"] = _APPLIED.get(node.label("nvidia.com/gpu.sharing-strategy") or "")
        at = {prop: node.labels[label].where for prop, label in LABELS.items() if label in node.labels}
        out.add("node", node.where, at, **props)
    return uses
