"""`ClusterPolicy` (nvidia.com/v1): the settings of the device-plugin enablement stack that the checks read."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import Doc, Where
from kb.text import Text

#: Spec fields the checks read (dotted path inside `spec`, which is also the Helm values path).
FIELDS = (
    "mig.strategy",
    "migManager.enabled",
    "migManager.config.name",
    "migManager.version",
    "devicePlugin.version",
    "devicePlugin.config.name",
    "devicePlugin.config.default",
    "toolkit.enabled",
    "cdi.enabled",
    "cdi.nriPluginEnabled",
    "sandboxWorkloads.enabled",
    "driver.enabled",
    "driver.version",
)


@dataclass
class Setting:
    """One spec value as written (any YAML type), with where it stands."""

    value: object
    where: Where


@dataclass
class ClusterPolicy:
    """A ClusterPolicy, from a manifest or rendered from the operator's Helm values."""

    name: str
    doc: Doc
    spec_path: tuple
    origin: str  # "ClusterPolicy" or "Helm values"
    settings: dict = field(default_factory=dict)  # dotted field → Setting (only fields that are present)
    source: Text | None = None  # what carried the values, in words (a HelmRelease, an Argo CD Application)
    namespace: str | None = None
    partial: bool = False  # a patch: what it leaves out is unknown, not the default
    #: Helm values only: where devicePlugin.config.create is true and devicePlugin.config.data empty (the chart then
    #: renders no ConfigMap, or refuses the values)
    dp_create_empty: dict | None = None

    def value(self, key: str, default=None):
        s = self.settings.get(key)
        return default if s is None else s.value

    def where(self, key: str | None = None) -> dict:
        s = self.settings.get(key) if key else None
        if s is not None:
            return s.where
        path = self.spec_path + (tuple(key.split(".")) if key else ())
        return self.doc.where(path)


def read_settings(doc: Doc, spec_path: tuple) -> dict:
    out = {}
    for key in FIELDS:
        parts = tuple(key.split("."))
        missing = object()
        value = doc.get(*spec_path, *parts, default=missing)
        if value is not missing:
            out[key] = Setting(value, doc.where(spec_path + parts))
    return out


def read(doc: Doc) -> ClusterPolicy:
    name = doc.get("metadata", "name")
    ns = doc.get("metadata", "namespace")
    return ClusterPolicy(name=str(name) if name is not None else "", doc=doc, spec_path=("spec",),
                         origin="ClusterPolicy", settings=read_settings(doc, ("spec",)),
                         namespace=ns if isinstance(ns, str) else None, partial=doc.partial)
