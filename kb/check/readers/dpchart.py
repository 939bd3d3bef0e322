"""Values of the standalone device-plugin chart (NVIDIA/k8s-device-plugin deployments/helm/nvidia-device-plugin).

Not the GPU Operator's values: this chart has `config.map` (configuration name → YAML text; the chart creates a
ConfigMap `<release>-nvidia-device-plugin-configs` from it), `config.name` (an existing ConfigMap),
`config.default`, `config.fallbackStrategies` (default ["named", "single"]) and top-level `migStrategy`,
`failOnInitError`, `deviceListStrategy`, … It is recognised by `config.map`/`config.fallbackStrategies` or its
top-level plugin flags, where none of the operator chart's own sections (operator, driver, toolkit, mig,
migManager, validator) are present.

What the chart refuses (templates/validation.yml, read at commit 1b826acc): `config.name` and `config.map` both
set; `config.map` with several configurations and no default (config.default, a `default` entry with the
"named" fallback, a single entry with "single", or "empty"); a `namespace` value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from kb.check.documents import Doc, Where
from kb.check.readers import deviceplugin
from kb.text import Text

#: keys only the standalone chart has at the top level
_OWN = {"migStrategy", "compatWithCPUManager", "failOnInitError", "deviceListStrategy", "deviceIDStrategy",
        "nvidiaDriverRoot", "allowDefaultNamespace", "legacyDaemonsetAPI", "deviceDiscoveryStrategy"}
#: sections only the GPU Operator's chart has
_OPERATOR = {"operator", "driver", "toolkit", "mig", "migManager", "validator", "dcgmExporter", "clusterPolicy",
             "sandboxWorkloads"}  # not `cdi`: the device-plugin chart has one too (nvidiaHookPath, featureFlags)


@dataclass
class DevicePluginChart:
    """The standalone device-plugin chart as its values configure it."""

    doc: Doc
    source: Text
    where: Where
    configmap: str  # the ConfigMap the plugin reads ("" = none)
    created: bool  # the chart creates that ConfigMap from config.map
    default: str  # the configuration nodes without a label get ("" = none)
    keys: list = field(default_factory=list)  # the configurations in config.map
    mig_strategy: object = None
    problems: list = field(default_factory=list)  # (Text, Where): what the chart's validation refuses
    namespace: str | None = None
    release: str | None = None


def looks_like_values(data, file: str = "") -> bool:
    """The standalone chart's values: its own keys, and none of the operator chart's sections. Values with only
    the sections both charts have (gfd, nfd) count as this chart's where the file is named after it."""
    if not isinstance(data, dict) or _OPERATOR & set(map(str, data)):
        return False
    config = data.get("config")
    own_config = isinstance(config, dict) and bool({"map", "fallbackStrategies"} & set(config))
    named = "device-plugin" in PurePath(file).name and bool({"gfd", "nfd", "devicePlugin"} & set(map(str, data)))
    return own_config or bool(_OWN & set(map(str, data))) or named


def _default(config: dict, keys: list) -> str:
    """The chart's hasDefaultConfig/default selection: config.default, else the fallbacks in order."""
    if isinstance(config.get("default"), str) and config["default"]:
        return config["default"]
    fallbacks = config.get("fallbackStrategies", ["named", "single"])
    for strategy in fallbacks if isinstance(fallbacks, list) else []:
        if strategy == "named" and "default" in keys:
            return "default"
        if strategy == "single" and len(keys) == 1:
            return keys[0]
    return ""


def read(doc: Doc, source: Text | None = None, namespace: str | None = None, release: str | None = None) -> list:
    """The chart (as a configuration source) and the device-plugin configurations of its config.map."""
    data = doc.data
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    cmap = config.get("map") if isinstance(config.get("map"), dict) else {}
    keys = [str(k) for k in cmap]
    fullname = f"{release or '<release>'}-nvidia-device-plugin"
    name = config.get("name") if isinstance(config.get("name"), str) and config.get("name") else ""
    chart = DevicePluginChart(doc, source or Text("device-plugin chart values", "Werte des Device-Plugin-Charts"),
                              doc.where(("config",)) if config else doc.where(),
                              name or (f"{fullname}-configs" if cmap else ""), bool(cmap) and not name,
                              _default(config, keys), keys, data.get("migStrategy"), namespace=namespace,
                              release=release)
    if name and cmap:
        chart.problems.append((Text(
            "config.name and config.map are both set; the chart refuses this (\"Only one of 'config.name' or "
            "'config.map' should ever be set\"): use config.name for an existing ConfigMap, or config.map",
            "config.name und config.map sind beide gesetzt; das Chart lehnt das ab („Only one of 'config.name' or "
            "'config.map' should ever be set“): config.name für eine vorhandene ConfigMap verwenden, oder config.map"),
            doc.where(("config", "name"))))
    if len(keys) > 1 and not chart.default and "empty" not in (config.get("fallbackStrategies") or []):
        chart.problems.append((Text(
            "config.map holds {n} configurations ({keys}) but no default: the chart refuses this (\"A default config "
            "must be provided when more than one configuration is set\"); set config.default",
            "config.map enthält {n} Konfigurationen ({keys}), aber keinen Standard: Das Chart lehnt das ab („A "
            "default config must be provided when more than one configuration is set“); config.default setzen")
            .format(n=len(keys), keys=", ".join(keys)), doc.where(("config", "map"))))
    if "namespace" in data:
        chart.problems.append((Text(
            "a `namespace` value: the chart refuses it (\"Setting an explicit 'namespace' in values.yaml … is no "
            "longer supported\"); install with --namespace instead",
            "ein Wert `namespace`: Das Chart lehnt ihn ab („Setting an explicit 'namespace' in values.yaml … is no "
            "longer supported“); stattdessen mit --namespace installieren"), doc.where(("namespace",))))
    out: list = [chart]
    for key in cmap:
        cfg = deviceplugin.from_configmap_value(doc, ("config", "map", key), cmap[key], "device-plugin chart",
                                                chart.configmap, doc.where(("config", "map")))
        cfg.namespace = namespace
        cfg.chart = chart
        out.append(cfg)
    return out
