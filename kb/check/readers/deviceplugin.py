"""Device-plugin configurations: the YAML the NVIDIA device plugin reads (`version`, `flags`, `sharing`).

They come as values of a ConfigMap (`data.<key>`, one configuration per key, selected per node by the
`nvidia.com/device-plugin.config` label), as raw files, or from the Helm values (`devicePlugin.config.data`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import TYPE_WORDS, Doc, both, parse_embedded, yaml_type

SHARING_KINDS = ("timeSlicing", "mps")
#: Top-level keys of the device plugin's configuration file (api/config/v1 Config).
CONFIG_KEYS = {"version", "flags", "resources", "sharing", "imex"}
MISSING = object()


@dataclass
class Value:
    """A value as written (MISSING where absent) and where it stands."""

    value: object
    where: dict

    @property
    def present(self) -> bool:
        return self.value is not MISSING


@dataclass
class SharedResource:
    sharing: str  # "timeSlicing" or "mps"
    index: int
    name: Value
    replicas: Value
    where: dict


@dataclass
class Sharing:
    kind: str
    where: dict
    rename_by_default: Value
    fail_requests_greater_than_one: Value
    resources: Value  # the list as written
    items: list[SharedResource] = field(default_factory=list)


@dataclass
class DevicePluginConfig:
    origin: str  # "ConfigMap", "file" or "Helm values"
    configmap: str | None
    key: str
    where: dict
    error: dict | None = None  # {en, de}
    mig_strategy: Value | None = None
    sharing: dict = field(default_factory=dict)  # kind → Sharing
    configmap_where: dict | None = None  # where the ConfigMap (or the Helm value creating it) is named

    @property
    def label(self) -> str:
        return f"{self.configmap}/{self.key}" if self.configmap else self.key


def looks_like_config(data) -> bool:
    """A mapping made of the device plugin's top-level keys, with flags or sharing."""
    return (isinstance(data, dict) and bool(data) and set(map(str, data)) <= CONFIG_KEYS
            and ("flags" in data or "sharing" in data))


def _value(doc: Doc, *path) -> Value:
    return Value(doc.get(*path, default=MISSING), doc.where(path))


def from_doc(doc: Doc, origin: str, configmap: str | None, key: str, where: dict) -> DevicePluginConfig:
    cfg = DevicePluginConfig(origin, configmap, key, where)
    if not isinstance(doc.data, dict):
        en, de = TYPE_WORDS[yaml_type(doc.data)]
        cfg.error = both(f"expected a mapping with version/flags/sharing, found: {en}",
                         f"erwartet war eine Zuordnung mit version/flags/sharing, gefunden: {de}")
        return cfg
    cfg.mig_strategy = _value(doc, "flags", "migStrategy")
    for kind in SHARING_KINDS:
        block = doc.get("sharing", kind, default=MISSING)
        if block is MISSING or block is None:
            continue
        sh = Sharing(kind, doc.where(("sharing", kind)), _value(doc, "sharing", kind, "renameByDefault"),
                     _value(doc, "sharing", kind, "failRequestsGreaterThanOne"),
                     _value(doc, "sharing", kind, "resources"))
        items = sh.resources.value if isinstance(sh.resources.value, list) else []
        for i, item in enumerate(items):
            path = ("sharing", kind, "resources", i)
            sh.items.append(SharedResource(kind, i, _value(doc, *path, "name"), _value(doc, *path, "replicas"),
                                           doc.where(path)))
        cfg.sharing[kind] = sh
    return cfg


def not_text(value) -> dict:
    """The error for a ConfigMap value that is not a string (shared with the MIG Manager reader)."""
    en, de = TYPE_WORDS[yaml_type(value)]
    return both(f"a ConfigMap value must be text, found: {en}", f"ein ConfigMap-Wert muss Text sein, gefunden: {de}")


def from_configmap_value(outer: Doc, path: tuple, text, origin: str, configmap: str | None,
                         named_at: dict | None = None) -> DevicePluginConfig:
    key = str(path[-1])
    where = outer.where(path)
    if not isinstance(text, str):
        cfg = DevicePluginConfig(origin, configmap, key, where,
                                 error=not_text(text))
    else:
        inner, error = parse_embedded(outer, path, text)
        cfg = (DevicePluginConfig(origin, configmap, key, where, error=error) if inner is None
               else from_doc(inner, origin, configmap, key, where))
    cfg.configmap_where = named_at
    return cfg
