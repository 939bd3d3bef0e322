"""Device-plugin configurations: the YAML the NVIDIA device plugin reads (`version`, `flags`, `sharing`).

They come as values of a ConfigMap (`data.<key>`, one configuration per key, selected per node by the
`nvidia.com/device-plugin.config` label), as raw files, or from the Helm values (`devicePlugin.config.data`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import TYPE_WORDS, Doc, Where, parse_embedded, yaml_type
from kb.check.readers import dpschema
from kb.text import Text

SHARING_KINDS = ("timeSlicing", "mps")
#: Top-level keys of the device plugin's configuration file (api/config/v1 Config).
CONFIG_KEYS = {"version", "flags", "resources", "sharing", "imex"}
MISSING = object()


@dataclass
class Value:
    """A value as written (MISSING where absent) and where it stands."""

    value: object
    where: Where

    @property
    def present(self) -> bool:
        return self.value is not MISSING


@dataclass
class SharedResource:
    sharing: str  # "timeSlicing" or "mps"
    index: int
    name: Value
    replicas: Value
    where: Where


@dataclass
class Sharing:
    kind: str
    where: Where
    rename_by_default: Value
    fail_requests_greater_than_one: Value
    resources: Value  # the list as written
    items: list[SharedResource] = field(default_factory=list)


@dataclass
class DevicePluginConfig:
    origin: str  # "ConfigMap", "file" or "Helm values"
    configmap: str | None
    key: str
    where: Where
    error: Text | None = None  # the text is not YAML / not a mapping
    mig_strategy: Value | None = None
    sharing: dict = field(default_factory=dict)  # kind → Sharing
    configmap_where: Where | None = None  # where the ConfigMap (or the Helm value creating it) is named
    problems: list = field(default_factory=list)  # dpschema.SchemaProblem, each with `where`
    namespace: str | None = None  # the ConfigMap's namespace where written
    chart: object = None  # the standalone chart whose config.map holds it (kb.check.readers.dpchart)
    data: object = None  # the configuration as written (for corrected copies in fixes)

    @property
    def label(self) -> str:
        return f"{self.configmap}/{self.key}" if self.configmap else self.key


def looks_like_config(data) -> bool:
    """A mapping made of the device plugin's top-level keys, with flags or sharing."""
    return (isinstance(data, dict) and bool(data) and set(map(str, data)) <= CONFIG_KEYS
            and ("flags" in data or "sharing" in data))


def _value(doc: Doc, *path) -> Value:
    return Value(doc.get(*path, default=MISSING), doc.where(path))


def _find(data: dict, key: str):
    """The key as the plugin matches it in a struct: exactly, else case-insensitively (Go's encoding/json)."""
    if key in data:
        return key
    return next((k for k in data if isinstance(k, str) and k.lower() == key.lower()), key)


def from_doc(doc: Doc, origin: str, configmap: str | None, key: str, where: Where) -> DevicePluginConfig:
    cfg = DevicePluginConfig(origin, configmap, key, where)
    if not isinstance(doc.data, dict):
        cfg.error = Text("expected a mapping with version/flags/sharing, found: {found}",
                         "erwartet war eine Zuordnung mit version/flags/sharing, gefunden: {found}").format(
            found=TYPE_WORDS[yaml_type(doc.data)])
        return cfg
    cfg.data = doc.data
    for p in dpschema.validate(doc.data):
        p.where = doc.where(p.path)
        cfg.problems.append(p)
    flags = doc.get(_find(doc.data, "flags"))
    cfg.mig_strategy = (_value(doc, _find(doc.data, "flags"), _find(flags, "migStrategy"))
                        if isinstance(flags, dict) else _value(doc, "flags", "migStrategy"))
    sharing_key = _find(doc.data, "sharing")
    sharing = doc.get(sharing_key)
    for kind in SHARING_KINDS:
        kind_key = _find(sharing, kind) if isinstance(sharing, dict) else kind
        block = doc.get(sharing_key, kind_key, default=MISSING)
        if block is MISSING or block is None:
            continue
        sh = Sharing(kind, doc.where((sharing_key, kind_key)), _value(doc, sharing_key, kind_key, "renameByDefault"),
                     _value(doc, sharing_key, kind_key, "failRequestsGreaterThanOne"),
                     _value(doc, sharing_key, kind_key, "resources"))
        items = sh.resources.value if isinstance(sh.resources.value, list) else []
        for i, item in enumerate(items):
            path = (sharing_key, kind_key, "resources", i)
            sh.items.append(SharedResource(kind, i, _value(doc, *path, "name"), _value(doc, *path, "replicas"),
                                           doc.where(path)))
        cfg.sharing[kind] = sh
    return cfg


def not_text(value) -> Text:
    """The error for a ConfigMap value that is not a string (shared with the MIG Manager reader)."""
    return Text("a ConfigMap value must be text, found: {found}", "ein ConfigMap-Wert muss Text sein, gefunden: {found}"
                ).format(found=TYPE_WORDS[yaml_type(value)])


def from_configmap_value(outer: Doc, path: tuple, text, origin: str, configmap: str | None,
                         named_at: Where | None = None) -> DevicePluginConfig:
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
