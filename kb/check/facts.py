"""What was read, as the plain facts the `check` rules test (flat dicts: text, numbers, true/false).

One fact per thing a rule may speak about, each with a `kind` and a `ref` that maps back to where
it was written (file, document, field path, line). Facts only state what the manifests and the
catalog say — joined where a rule needs two objects at once (a node and the ConfigMap its label
names, a node and its card) — and leave every judgement to the rules. Where something is not
known (no ClusterPolicy in the input, a product the catalog lacks) the property is left out: a
missing property matches no condition, so an unknown is never read as "no".

Versions are integers (kb.check.versions): `operator_v`, `k8s_v`, `driver_v`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.catalog.names import NameError_, NameIndex
from kb.check.readers import Inventory
from kb.check.readers.deviceplugin import MISSING, DevicePluginConfig
from kb.check.versions import clean, version_number

#: layouts MIG Manager knows by name (mig-parted config-default; generated per node since v26.3.0)
#: sharing block of a device-plugin configuration → catalog method id
METHOD = {"timeSlicing": "time-slicing", "mps": "mps"}
#: node fact property → the label it is read from
NODE_LABELS = {"product": "nvidia.com/gpu.product", "mig_config": "nvidia.com/mig.config",
               "mig_config_state": "nvidia.com/mig.config.state", "mig_strategy_label": "nvidia.com/mig.strategy",
               "gpu_mode": "nvidia.com/gpu.mode", "mig_capable": "nvidia.com/mig.capable",
               "workload_config": "nvidia.com/gpu.workload.config", "dp_config_label": "nvidia.com/device-plugin.config"}
_ALL_PROFILE = re.compile(r"^all-(\d+g\.\d+gb)(\.me\.all|\.me|\.gfx|-me)?$")


@dataclass
class Environment:
    """Versions given on the command line (they win over what the manifests say)."""

    operator: str | None = None
    k8s: str | None = None
    driver: str | None = None


@dataclass
class FactSet:
    """The facts, and where each was written: `where[ref]` for the fact, `fields[ref][prop]` for one
    property that stands elsewhere (a node's label, a ClusterPolicy field) — a rule names that
    property in `then.details.at` to be reported there."""

    facts: list[dict] = field(default_factory=list)
    where: dict = field(default_factory=dict)
    fields: dict = field(default_factory=dict)

    def add(self, kind: str, where: dict, at: dict | None = None, **props) -> dict:
        ref = f"f{len(self.facts) + 1}"
        fact = {"kind": kind, "ref": ref, **{k: _plain(v) for k, v in props.items() if v is not None}}
        self.facts.append(fact)
        self.where[ref] = where
        if at:
            self.fields[ref] = {k: v for k, v in at.items() if v is not None}
        return fact

    def location(self, fact: dict, prop: str | None = None) -> dict:
        ref = fact.get("ref", "")
        return self.fields.get(ref, {}).get(prop) or self.where.get(ref) or {}


#: integers beyond this are kept as text: the engine compares them as doubles
_MAX_INT = 2**53


def _plain(value):
    """A fact value the engine can hold: huge integers and floats become text; NUL and lone surrogates go."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value if -_MAX_INT < value < _MAX_INT else str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return value.replace("\x00", "").encode("utf-8", "replace").decode("utf-8")
    return str(value)


def _versus(have, need) -> str | None:
    """'below' or 'meets' where both versions are known; None (left out) otherwise."""
    h, n = version_number(have), version_number(need)
    if h is None or n is None:
        return None
    return "below" if h < n else "meets"


def _text(value) -> str:
    if value is None or value is MISSING:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _bool(value):
    """True/False where the value is a boolean; None (left out) otherwise."""
    return value if isinstance(value, bool) else None


def _type(value) -> str:
    if value is MISSING:
        return "missing"
    return {bool: "boolean", int: "integer", float: "number", str: "text", list: "list", dict: "mapping",
            type(None): "null"}.get(type(value), "other")


def product_name(label: str) -> str:
    """The card part of a nvidia.com/gpu.product label: without '-SHARED' and '-MIG-<profile>'."""
    name = re.sub(r"-SHARED$", "", label.strip())
    return re.sub(r"-MIG-\d+g\.\d+gb.*$", "", name)


class _Builder:
    def __init__(self, inv: Inventory, data: dict, env: Environment):
        self.inv = inv
        self.data = data
        self.env = env
        self.out = FactSet()
        self.names = NameIndex(data.get("cards", {}))
        self.policy = inv.policies[0] if inv.policies else None

    # ------------------------------------------------------------ shared lookups
    def operator(self) -> str | None:
        return self.env.operator

    def setting_default(self, key: str):
        """The catalog's default of an operator setting for the given release (None where unknown)."""
        op = version_number(self.operator())
        if op is None:
            return None
        for s in self.data.get("releases", {}).get("gpu-operator", {}).get("settings", []):
            if s.get("key") != key:
                continue
            since, until = version_number(s.get("since")), version_number(s.get("until"))
            if (since is None or since <= op) and (until is None or op < until):
                return s["default"]["value"]
        return None

    def plugin_default(self, key: str):
        """The device plugin's default of a configuration key, for the plugin version the ClusterPolicy
        names (else the newest); None where the catalog does not say."""
        version = version_number(self.policy.value("devicePlugin.version")) if self.policy else None
        for s in self.data.get("releases", {}).get("device-plugin", {}).get("settings", []):
            if s.get("key") != key:
                continue
            since, until = version_number(s.get("since")), version_number(s.get("until"))
            if version is None and until is None or version is not None and \
                    (since is None or since <= version) and (until is None or version < until):
                return s["default"]["value"]
        return None

    def policy_value(self, key: str):
        """A ClusterPolicy setting as written, else the catalog default for --operator, else None."""
        if self.policy is not None and key in self.policy.settings:
            return self.policy.value(key)
        return self.setting_default(key) if self.policy is not None else None

    def dp_configmap_keys(self) -> list[str] | None:
        name = _text(self.policy.value("devicePlugin.config.name")) if self.policy else ""
        return self.inv.configmaps.get(name) if name else None

    def dp_config_for(self, key: str) -> DevicePluginConfig | None:
        name = _text(self.policy.value("devicePlugin.config.name")) if self.policy else ""
        for cfg in self.inv.dp_configs:
            if cfg.key == key and (not name or cfg.configmap == name or cfg.configmap is None):
                return cfg
        return None

    def driver(self) -> tuple[str | None, dict | None]:
        if self.env.driver:
            return self.env.driver, None
        if self.policy is not None and self.policy.value("driver.enabled") is not False:
            v = self.policy.value("driver.version")
            if clean(v):
                return clean(v), self.policy.where("driver.version")
        return None, None

    def k8s(self) -> str | None:
        if self.env.k8s:
            return self.env.k8s
        known = [clean(n.kubelet_version.value) for n in self.inv.nodes
                 if n.kubelet_version and clean(n.kubelet_version.value)]
        return min(known, key=version_number) if known else None

    def mig_strategy(self) -> str | None:
        value = self.policy_value("mig.strategy")
        return value if isinstance(value, str) else None

    # ------------------------------------------------------------ facts
    def build(self) -> FactSet:
        self.cluster()
        for p in self.inv.policies:
            self.policy_fact(p)
        for g in self.inv.gpu_clusters:
            self.gpu_cluster_facts(g)
        layouts = self.layouts()
        node_configs = self.nodes(layouts)
        for cfg in self.inv.dp_configs:
            self.dp_config_facts(cfg, node_configs)
        for name in dict.fromkeys(c.configmap for c in self.inv.dp_configs if c.configmap):
            cfgs = [c for c in self.inv.dp_configs if c.configmap == name]
            self.out.add("dp_configmap", cfgs[0].configmap_where or cfgs[0].where, name=name, origin=cfgs[0].origin,
                         keys=len(cfgs))
        for cfg_key, (layout, entry_where) in layouts.items():
            self.layout_fact(cfg_key, layout, entry_where)
        self.workloads()
        return self.out

    def cluster(self) -> None:
        first = (self.policy.where() if self.policy else None) or \
                (self.inv.gpu_clusters[0].where if self.inv.gpu_clusters else {"file": "", "document": 0,
                                                                                  "path": "", "line": None})
        driver, _ = self.driver()
        k8s, op = self.k8s(), self.operator()
        cdi = self.policy_value("cdi.enabled")
        toolkit = self.policy_value("toolkit.enabled")
        self.out.add("cluster", first, policies=len(self.inv.policies), gpu_clusters=len(self.inv.gpu_clusters),
                     nodes=len(self.inv.nodes), operator=op, operator_v=version_number(op),
                     k8s=k8s, k8s_v=version_number(k8s), driver=driver, driver_v=version_number(driver),
                     mig_strategy=self.mig_strategy(), cdi_enabled=_bool(cdi), toolkit_enabled=_bool(toolkit))

    def policy_fact(self, p) -> None:
        name = _text(p.value("devicePlugin.config.name"))
        default = _text(p.value("devicePlugin.config.default"))
        keys = self.inv.configmaps.get(name) if name else None
        at = {prop: p.settings[key].where for prop, key in (
            ("mig_strategy", "mig.strategy"), ("dp_config_name", "devicePlugin.config.name"),
            ("dp_config_default", "devicePlugin.config.default"), ("mig_manager_enabled", "migManager.enabled"),
            ("sandbox_enabled", "sandboxWorkloads.enabled")) if key in p.settings}
        strategy = p.value("mig.strategy", MISSING)
        self.out.add(
            "policy", p.where(), at, name=p.name, origin=p.origin,
            mig_strategy=_text(strategy) if strategy is not MISSING else None,
            mig_strategy_type=_type(strategy),
            dp_config_name=name, dp_config_default=default,
            dp_configmap_read=(keys is not None) if name else None,
            dp_default_in_configmap=(default in keys) if (keys is not None and default) else None,
            mig_manager_enabled=_bool(p.value("migManager.enabled")),
            sandbox_enabled=_bool(self.policy_value("sandboxWorkloads.enabled") if p is self.policy
                                  else p.value("sandboxWorkloads.enabled")),
        )

    def gpu_cluster_facts(self, g) -> None:
        """The GPUCluster with the DRA requirements of the catalog, each compared with what is known here
        (`…_vs_min: below | meets`, left out where this cluster's version is unknown)."""
        req = self.data.get("methods", {}).get("dra", {}).get("requirements") or {}
        props: dict = {"name": g.name, "origin": g.origin}
        driver, _ = self.driver()
        for key, label, have in (("k8s", "min_kubernetes", self.k8s()), ("driver", "min_driver", driver),
                                 ("operator", "min_operator", self.operator())):
            need = (req.get(label) or {}).get("value")
            props[f"min_{key}"] = need
            props[key] = have
            props[f"{key}_vs_min"] = _versus(have, need)
        self.out.add("gpu_cluster", g.where, **props)
        for gate in g.gates:
            self.out.add("dra_gate", gate.where, gate=gate.name, cluster=g.name, enabled=_bool(gate.enabled),
                         enabled_text=_text(gate.enabled))

    # ------------------------------------------------------------ MIG layouts
    def layouts(self) -> dict:
        """Layouts of every MIG Manager configuration read: (config label, name) → (Layout, where)."""
        out = {}
        for cfg in self.inv.mig_configs:
            label = f"{cfg.configmap}/{cfg.key}" if cfg.configmap else cfg.key
            for name, layout in cfg.layouts.items():
                out[(label, name)] = (layout, layout.where)
        return out

    @staticmethod
    def layout_shape(layout) -> dict:
        on = [e for e in layout.entries if e.mig_enabled is True]
        off = [e for e in layout.entries if e.mig_enabled is False]
        profiles = sorted({str(p) for e in on for p, n in e.mig_devices.items() if n})
        return {"mig_on": bool(on), "gpus_out": bool(on) and bool(off), "mixed_profiles": len(profiles) > 1,
                "profiles": ", ".join(profiles), "profile_count": len(profiles)}

    @staticmethod
    def named_layout_shape(name: str) -> dict | None:
        """The shape of a layout MIG Manager knows by its name alone; None for a custom name."""
        if name == "all-disabled":
            return {"mig_on": False, "gpus_out": False, "mixed_profiles": False, "profiles": "", "profile_count": 0}
        if name == "all-enabled":
            return {"mig_on": True, "gpus_out": False, "mixed_profiles": False, "profiles": "", "profile_count": 0}
        if name == "all-balanced":
            return {"mig_on": True, "gpus_out": False, "mixed_profiles": True, "profiles": "", "profile_count": 2}
        m = _ALL_PROFILE.match(name)
        if m:
            suffix = {".me": "+me", ".me.all": "+me.all", ".gfx": "+gfx", "-me": "-me"}.get(m.group(2) or "", "")
            return {"mig_on": True, "gpus_out": False, "mixed_profiles": False, "profiles": m.group(1) + suffix,
                    "profile_count": 1}
        return None

    def layout_fact(self, key, layout, where) -> None:
        label, name = key
        props = {"config": label, "layout": name, "error": layout.error or ""}
        if not layout.error:
            props.update(self.layout_shape(layout))
        props["nodes"] = sum(1 for n in self.inv.nodes if n.label("nvidia.com/mig.config") == name)
        props["mig_strategy"] = self.mig_strategy()
        self.out.add("mig_layout", where, **props)

    # ------------------------------------------------------------ nodes
    def card_props(self, product: str) -> dict:
        try:
            cid = self.names.resolve(product_name(product))
        except NameError_:
            return {"card_known": False}
        card = self.data["cards"][cid]
        mig = card.get("mig", {})
        prereq = mig.get("prerequisites") or {}
        support = card.get("operator_support", {})
        since = support.get("since")
        return {
            "card_known": True, "card": cid, "card_name": card.get("short_name", cid),
            "card_mig_status": mig.get("status", {}).get("value"),
            "card_mig_profiles": ", ".join(p["name"] for p in mig.get("profiles", [])),
            "card_display_switch": _bool((prereq.get("display_mode_switch") or {}).get("value")),
            "card_listed": _bool(support.get("listed", {}).get("value")),
            "card_listed_since": since, "operator_vs_listed_since": _versus(self.operator(), since),
            "operator": self.operator(),
            "_exceptions": support.get("driver_exceptions", []),
            "_profiles": [p["name"] for p in mig.get("profiles", [])],
        }

    def node_layout(self, node, layouts: dict) -> dict:
        name = node.label("nvidia.com/mig.config")
        if name is None:
            return {}
        found = [layout for (label, lname), (layout, _) in layouts.items() if lname == name and not layout.error]
        mine = [layout for (label, lname), (layout, _) in layouts.items()
                if lname == name and label.startswith(f"{node.name}-mig-config/") and not layout.error]
        if mine or found:
            shape = self.layout_shape((mine or found)[0])
        else:
            shape = self.named_layout_shape(name)
        if shape is None:
            return {"layout_known": False}
        return {"layout_known": True, **{f"layout_{k}": v for k, v in shape.items()}}

    def nodes(self, layouts: dict) -> dict:
        """One fact per node; returns which device-plugin configuration each node selects (key → node count)."""
        uses: dict = {}
        keys = self.dp_configmap_keys()
        default = _text(self.policy.value("devicePlugin.config.default")) if self.policy else ""
        cluster_driver, _ = self.driver()
        for node in self.inv.nodes:
            props: dict = {"name": node.name}
            product = node.label("nvidia.com/gpu.product")
            if product:
                card = self.card_props(product)
                exceptions = card.pop("_exceptions", [])
                profiles = card.pop("_profiles", [])
                props.update(product=product, **card)
            else:
                exceptions, profiles = [], []
            for key, label in NODE_LABELS.items():
                if key != "product":
                    props[key] = node.label(label)
            props["gpu_mode"] = props["gpu_mode"] or "unknown"
            # driver: the node's own label, else --driver / the ClusterPolicy
            drv = node.label("nvidia.com/cuda.driver-version.full")
            if drv is None and node.label("nvidia.com/cuda.driver.major"):
                drv = ".".join(x for x in (node.label("nvidia.com/cuda.driver.major"), node.label("nvidia.com/cuda.driver.minor"),
                                           node.label("nvidia.com/cuda.driver.rev")) if x)
            drv = self.env.driver or clean(drv) or cluster_driver
            props.update(driver=drv, driver_v=version_number(drv))
            if drv and exceptions:
                hit = [e for e in exceptions if version_number(e.get("driver")) == version_number(drv)
                       and e.get("feature") in ("mig", "all")]
                props["driver_mig_exception"] = bool(hit)
                if hit:
                    props["exception_driver"] = hit[0]["driver"]
            # MIG layout and whether MIG is on
            layout = self.node_layout(node, layouts)
            props.update(layout)
            if layout.get("layout_known") and profiles and layout.get("layout_profiles"):
                missing = [p for p in layout["layout_profiles"].split(", ") if p not in profiles]
                props["layout_profile_missing"] = missing[0] if missing else ""
            mig_on = layout.get("layout_mig_on")
            if mig_on is None and (product and "-MIG-" in product or any(r.startswith("nvidia.com/mig-") for r in node.resources)):
                mig_on = True
            props["mig_on"] = mig_on
            strategy = props["mig_strategy_label"] or self.mig_strategy()
            props["strategy"] = strategy
            # the device-plugin configuration the node selects
            selected = props["dp_config_label"] or default
            props["dp_config"] = selected or ""
            if props["dp_config_label"] and keys is not None:
                props["dp_config_in_configmap"] = props["dp_config_label"] in keys
                props["dp_configmap"] = _text(self.policy.value("devicePlugin.config.name"))
            cfg = self.dp_config_for(selected) if selected else None
            if cfg is not None and cfg.error is None:
                uses[cfg.label] = uses.get(cfg.label, 0) + 1
                props["sharing"] = "mps" if "mps" in cfg.sharing else ("timeSlicing" if "timeSlicing" in cfg.sharing else "none")
            else:
                applied = node.label("nvidia.com/gpu.sharing-strategy")
                if applied in ("mps", "time-slicing", "none"):
                    props["sharing"] = {"time-slicing": "timeSlicing"}.get(applied, applied)
            at = {prop: node.labels[label].where for prop, label in NODE_LABELS.items() if label in node.labels}
            self.out.add("node", node.where, at, **props)
        return uses

    # ------------------------------------------------------------ device-plugin configurations
    def dp_config_facts(self, cfg: DevicePluginConfig, uses: dict) -> None:
        props = {"config": cfg.label, "configmap": cfg.configmap or "", "key": cfg.key, "origin": cfg.origin,
                 "error": cfg.error or "", "nodes": uses.get(cfg.label, 0)}
        if cfg.error is None:
            props.update(version=_text(cfg.version.value), version_set=cfg.version.present,
                         mig_strategy=_text(cfg.mig_strategy.value), mig_strategy_set=cfg.mig_strategy.present,
                         mig_strategy_type=_type(cfg.mig_strategy.value),
                         time_slicing="timeSlicing" in cfg.sharing, mps="mps" in cfg.sharing)
        at = {"version": cfg.version.where, "mig_strategy": cfg.mig_strategy.where} if cfg.error is None else None
        self.out.add("dp_config", cfg.where, at, **props)
        for sh in cfg.sharing.values():
            items = sh.resources.value if isinstance(sh.resources.value, list) else []
            self.out.add("sharing", sh.where, {"rename_by_default": sh.rename_by_default.where,
                                               "fail_gt_one": sh.fail_requests_greater_than_one.where,
                                               "resources_type": sh.resources.where},
                         config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind],
                         rename_by_default=_text(sh.rename_by_default.value) or "false",
                         rename_type=_type(sh.rename_by_default.value),
                         fail_gt_one=_text(sh.fail_requests_greater_than_one.value) or "false",
                         fail_type=_type(sh.fail_requests_greater_than_one.value),
                         resources_type=_type(sh.resources.value), resources_count=len(items))
            for item in sh.items:
                name = item.name.value
                self.out.add("shared_resource", item.where, {"name": item.name.where, "replicas": item.replicas.where},
                             config=cfg.label, sharing=sh.kind, method=METHOD[sh.kind], index=item.index,
                             name=_text(name), name_type=_type(name),
                             replicas=item.replicas.value if _type(item.replicas.value) == "integer" else _text(item.replicas.value),
                             replicas_type=_type(item.replicas.value),
                             mig_resource=isinstance(name, str) and name.startswith("nvidia.com/mig-"),
                             full_gpu=name == "nvidia.com/gpu")

    # ------------------------------------------------------------ workloads
    def advertised(self) -> tuple[set | None, list]:
        """Resource names the configurations read advertise (None: nothing known); sharing blocks per name."""
        names: set = set()
        shared: list = []  # (advertised name, sharing kind, failRequestsGreaterThanOne)
        known = False
        strategies = {self.mig_strategy()} if self.mig_strategy() else set()
        for cfg in self.inv.dp_configs:
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
                    fail = self.plugin_default(f"sharing.{sh.kind}.failRequestsGreaterThanOne")
                fail = fail is True
                for item in sh.items:
                    if isinstance(item.name.value, str):
                        adv = item.name.value + (".shared" if rename else "")
                        names.add(adv)
                        shared.append((adv, sh.kind, fail))
                        if rename:
                            renamed.add(item.name.value)
            if "nvidia.com/gpu" not in renamed:
                names.add("nvidia.com/gpu")
        if self.policy is not None:
            known = True
            if not self.inv.dp_configs:
                names.add("nvidia.com/gpu")
        if "mixed" in strategies:
            names.add("nvidia.com/mig-*")
        for node in self.inv.nodes:
            if node.resources:
                known = True
                names.update(node.resources)
        return (names if known else None), shared

    def workloads(self) -> None:
        names, shared = self.advertised()
        node_names = {n.name for n in self.inv.nodes if n.labels or n.resources}
        for w in self.inv.workloads:
            ident = f"{w.kind}/{w.name}"
            gpu_node = bool(w.gpu_hints) or (w.node_name in node_names)
            hint = w.gpu_hints[0] if w.gpu_hints else (f"nodeName {w.node_name}" if w.node_name in node_names else "")
            self.out.add("workload", w.where, workload=ident, gpu_requests=len(w.requests), gpu_node=gpu_node,
                         gpu_hint=hint, runtime_class=w.runtime_class or "", visible_devices=w.sets_visible_devices,
                         resource_claims=w.uses_resource_claims)
            for r in w.requests:
                if names is None or not r.resource.startswith("nvidia.com/"):
                    advertised = "unknown"
                elif r.resource in names or (r.resource.startswith("nvidia.com/mig-") and "nvidia.com/mig-*" in names):
                    advertised = "yes"
                else:
                    advertised = "no"
                sharing = [s for s in shared if s[0] == r.resource]
                count = r.count
                if isinstance(count, str) and count.strip().isdigit():
                    count = int(count.strip())
                self.out.add("gpu_request", r.where, workload=ident, container=r.container, resource=r.resource,
                             count=count if _type(count) == "integer" else _text(count), count_type=_type(count),
                             advertised=advertised,
                             advertised_names=", ".join(sorted(names)) if names else "",
                             shared_by=sharing[0][1] if sharing else "",
                             fail_gt_one=any(s[2] for s in sharing))


def build_facts(inv: Inventory, data: dict, env: Environment | None = None) -> FactSet:
    """The facts of everything read, for `kb.engine.evaluate("check", facts)`."""
    return _Builder(inv, data, env or Environment()).build()
