"""Shared parts of the fact builders: the fact set with locations, value helpers, and the lookups that
combine the input with the catalog (defaults by release, versions from flags or manifests)."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import TYPE_WORDS, Where, yaml_type
from kb.check.readers import Inventory
from kb.check.readers.deviceplugin import MISSING, DevicePluginConfig
from kb.questions.behaviour import component_version, release_feature, status
from kb.versions import compare, from_manifest, loose_key

#: integers beyond this are kept as text: the engine compares them as doubles
_MAX_INT = 2**53


@dataclass
class Environment:
    """Versions given on the command line (they win over what the manifests say)."""

    operator: str | None = None
    k8s: str | None = None
    driver: str | None = None


@dataclass
class FactSet:
    """The facts, and what the engine does not need to see: where each was written (`where[ref]`), where one
    property stands when elsewhere (`fields[ref][prop]`: a node's label, a ClusterPolicy field — a rule names
    that property in `then.details.at` to be reported there), the object a fact speaks about (`objects[ref]`,
    e.g. "node:gpu-1", "dp:time-slicing/any") and the objects it depends on (`depends[ref]`: a node depends
    on the configuration it selects), and which properties only name the thing (`identity[ref]`: findings
    that differ only there are shown once, with the others counted)."""

    facts: list[dict] = field(default_factory=list)
    where: dict = field(default_factory=dict)
    fields: dict = field(default_factory=dict)
    objects: dict = field(default_factory=dict)
    depends: dict = field(default_factory=dict)
    identity: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)  # ref → data findings show beside the message (fix, yaml, citations)

    def add(self, kind: str, where, at: dict | None = None, *, obj: str | None = None, deps=(),
            ident: tuple = (), extra: dict | None = None, **props) -> dict:
        ref = f"f{len(self.facts) + 1}"
        fact = {"kind": kind, "ref": ref}
        for k, v in props.items():
            if v is not None:
                fact[k] = plain(v)
        self.facts.append(fact)
        self.where[ref] = where
        if at:
            self.fields[ref] = {k: v for k, v in at.items() if v is not None}
        if obj:
            self.objects[ref] = obj
        if deps:
            self.depends[ref] = tuple(d for d in deps if d)
        if ident:
            self.identity[ref] = ident
        if extra:
            self.extra[ref] = extra
        return fact

    def location(self, fact: dict, prop: str | None = None):
        ref = fact.get("ref", "")
        return self.fields.get(ref, {}).get(prop) or self.where.get(ref) or Where.nowhere()


def plain(value):
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


def versus(have, need) -> str | None:
    """'below' or 'meets' where both versions are known; None (left out) otherwise (kb.versions.compare)."""
    return compare(have, need)


def text(value) -> str:
    """A value as the rules read it: '' for missing, 'true'/'false' for booleans."""
    if value is None or value is MISSING:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def boolean(value):
    """True/False where the value is a boolean; None (left out) otherwise."""
    return value if isinstance(value, bool) else None


def type_name(value) -> str:
    """The type id of a value as read (kb.check.documents.TYPE_WORDS), 'missing' where it is not there."""
    return "missing" if value is MISSING else yaml_type(value)


def error_props(error: dict | None) -> dict:
    """A reader's error (a Text) as fact properties: `error` (the rules test it), `error_en`, `error_de`."""
    error = error or {"en": "", "de": ""}
    return {"error": error["en"], "error_en": error["en"], "error_de": error["de"]}


def typed(prop: str, value) -> dict:
    """`<prop>_type` (the id rules test) and `<prop>_type_en`/`_de` (the words their texts show)."""
    kind = type_name(value)
    words = TYPE_WORDS[kind]
    return {f"{prop}_type": kind, f"{prop}_type_en": words.en, f"{prop}_type_de": words.de}


def _in_range(version: tuple | None, setting: dict) -> bool:
    since, until = loose_key(setting.get("since")), loose_key(setting.get("until"))
    if version is None:  # no version known: the setting as it holds now
        return until is None
    return (since is None or since <= version) and (until is None or version < until)


class Context:
    """What every builder needs: the objects read, the catalog, the command-line versions."""

    def __init__(self, inv: Inventory, data: dict, env: Environment, *, engine: str = "durable", rules=None):
        self.inv = inv
        self.data = data
        self.env = env
        self.engine = engine
        self.rules = rules
        self.policy = inv.policies[0] if inv.policies else None
        #: device-plugin configuration label → (node, compute capability) of the nodes below 7.5 that select it
        self.mps_small: dict[str, list[tuple[str, str]]] = {}

    def operator_namespace(self) -> str | None:
        """The GPU Operator's namespace where the input shows it: the namespace of its ClusterPolicy's Helm
        release, of NVIDIA's DaemonSets and pods, or of the ConfigMaps the policy names."""
        return self.inv.operator_namespace

    def namespace_of(self, thing) -> str:
        """The namespace kubectl commands in a fix name for an object: its own, else the operator's, else
        NVIDIA's default `gpu-operator`."""
        return getattr(thing, "namespace", None) or self.operator_namespace() or "gpu-operator"

    def operator(self) -> str | None:
        return self.env.operator

    def plugin_version(self) -> tuple[str | None, str]:
        """The device plugin version in use and what says so: the ClusterPolicy's devicePlugin.version as written
        ("policy"), else the version the --operator release ships ("operator", kb.questions.behaviour);
        (None, "") where neither is known."""
        written = from_manifest(self.setting("devicePlugin.version")) if self.policy else None
        if written is not None:
            return written, "policy"
        if self.operator() is not None:
            version, _ = component_version(self.data, self.operator(), "device-plugin")
            if version is not None:
                return version, "operator"
        return None, ""

    def plugin_feature(self, statement: str) -> tuple[str, str | None, str | None]:
        """(holds | not-yet | no-longer | unknown, the plugin version, the statement's since) of a version-bound
        `features` statement of catalog/releases/device-plugin.yaml for the plugin version in use."""
        version, _ = self.plugin_version()
        f = release_feature(self.data, "device-plugin", statement)
        if f is None:
            return "unknown", version, None
        return status(version, f.get("since"), f.get("until")), version, f.get("since")

    def operator_default(self, key: str):
        """The catalog's default of an operator setting for --operator (None where that is not given)."""
        if self.operator() is None:
            return None
        for s in self.data.get("releases", {}).get("gpu-operator", {}).get("settings", []):
            if s.get("key") == key and _in_range(loose_key(self.operator()), s):
                return s["default"]["value"]
        return None

    def plugin_default(self, key: str):
        """The device plugin's default of a configuration key, for the plugin version the ClusterPolicy
        names (else the current one); None where the catalog does not say."""
        version = loose_key(self.policy.value("devicePlugin.version")) if self.policy else None
        for s in self.data.get("releases", {}).get("device-plugin", {}).get("settings", []):
            if s.get("key") == key and _in_range(version, s):
                return s["default"]["value"]
        return None

    def setting(self, key: str, default=None):
        """A ClusterPolicy setting as written: the first policy of the input that writes it (a cluster has one
        ClusterPolicy; where several files each bring one, each speaks for what it sets)."""
        for p in self.inv.policies:
            if key in p.settings:
                return p.value(key)
        return default

    def policy_value(self, key: str):
        """A ClusterPolicy setting as written, else the catalog default for --operator; None without a policy."""
        if self.policy is None:
            return None
        missing = object()
        written = self.setting(key, missing)
        if written is not missing:
            return written
        if all(p.partial for p in self.inv.policies):  # patches only: what they leave out is not known
            return None
        return self.operator_default(key)

    def dp_configmap(self) -> str:
        """The ConfigMap the device plugin reads: the ClusterPolicy's devicePlugin.config.name, else the one the
        standalone chart's values name or create."""
        name = text(self.setting("devicePlugin.config.name")) if self.policy else ""
        if not name and self.inv.charts:
            name = self.inv.charts[0].configmap
        return name

    def dp_default(self) -> str:
        """The configuration a node without the nvidia.com/device-plugin.config label gets."""
        if self.policy is not None:
            return text(self.setting("devicePlugin.config.default"))
        return self.inv.charts[0].default if self.inv.charts else ""

    def dp_keys(self) -> list | None:
        """The keys of the device plugin's ConfigMap where the input shows them (None: not known)."""
        name = self.dp_configmap()
        if not name:
            return None
        if name in self.inv.configmaps:
            return self.inv.configmaps[name]
        chart = next((c for c in self.inv.charts if c.created and c.configmap == name), None)
        if chart is not None:
            return chart.keys
        keys = [c.key for c in self.inv.dp_configs if c.configmap == name]
        return keys or None

    def dp_config_for(self, key: str) -> DevicePluginConfig | None:
        """The configuration a node selecting `key` gets (from the ClusterPolicy's ConfigMap where named)."""
        name = self.dp_configmap()
        for cfg in self.inv.dp_configs:
            if cfg.key == key and (not name or cfg.configmap == name or cfg.configmap is None):
                return cfg
        return None

    def driver(self) -> str | None:
        """--driver, else the driver the ClusterPolicy installs."""
        if self.env.driver:
            return self.env.driver
        if self.policy is not None and self.policy.value("driver.enabled") is not False:
            return from_manifest(self.policy.value("driver.version"))
        return None

    def k8s(self) -> str | None:
        """--k8s, else the oldest kubelet among the nodes read."""
        if self.env.k8s:
            return self.env.k8s
        known = [from_manifest(n.kubelet_version.value) for n in self.inv.nodes if n.kubelet_version]
        known = [k for k in known if k]
        return min(known, key=loose_key) if known else None

    def mig_strategy(self) -> str | None:
        value = self.policy_value("mig.strategy")
        return value if isinstance(value, str) else None
