"""The GPU Operator chart's Helm values (`values.yaml`, or a customer's `-f my-values.yaml`).

How they are read: a document without `kind`/`apiVersion` whose top-level keys include one of the
chart's (`devicePlugin`, `mig`, `migManager`, `toolkit`, `cdi`, `driver`, …) is the chart's values.
The chart renders them like this, and so do we:
- a ClusterPolicy whose `spec` is these values (same paths: `mig.strategy`, `devicePlugin.config.name`, …),
  unless `clusterPolicy.deployCR` is false;
- a GPUCluster whose `spec.draDriver` is `draDriver`, when `gpuCluster.deployCR` is true;
- device-plugin configurations from `devicePlugin.config.data` and MIG layouts from
  `migManager.config.data`, when the matching `config.create` is true (the chart creates those ConfigMaps).
A partial values file (only what the customer overrides) is read the same way: what it leaves out
is unknown to the checks, not the chart's default.
"""

from __future__ import annotations

from kb.check.documents import Doc
from kb.text import Text
from kb.check.readers import clusterpolicy, deviceplugin, gpucluster, migparted

CHART_KEYS = {"devicePlugin", "mig", "migManager", "toolkit", "cdi", "driver", "operator", "sandboxWorkloads",
              "clusterPolicy", "gpuCluster", "draDriver", "gfd", "dcgmExporter", "nfd", "validator",
              "vgpuManager", "vfioManager", "ccManager"}


def looks_like_values(data) -> bool:
    return isinstance(data, dict) and bool(CHART_KEYS & set(map(str, data)))


def read(doc: Doc, source: Text | None = None, namespace: str | None = None):
    """The objects the chart would create from these values (see the module docstring); `source` names what
    carried the values (a HelmRelease …), `namespace` where the chart is installed."""
    out: list = []
    if doc.get("clusterPolicy", "deployCR") is not False:
        empty = doc.get("devicePlugin", "config", "create") is True and not doc.get("devicePlugin", "config", "data")
        out.append(clusterpolicy.ClusterPolicy(name="cluster-policy", doc=doc, spec_path=(), origin="Helm values",
                                               settings=clusterpolicy.read_settings(doc, ()), source=source,
                                               namespace=namespace, partial=doc.partial,
                                               dp_create_empty=doc.where(("devicePlugin", "config", "create"))
                                               if empty else None))
    if doc.get("gpuCluster", "deployCR") is True:
        out.append(gpucluster.GPUCluster(name="gpu-cluster", doc=doc, origin="Helm values",
                                         where=doc.where(("gpuCluster", "deployCR")),
                                         gates=gpucluster.read_gates(doc, ("draDriver", "featureGates"))))
    for section, module in (("devicePlugin", deviceplugin), ("migManager", migparted)):
        data = doc.get(section, "config", "data")
        if doc.get(section, "config", "create") is True and isinstance(data, dict):
            name = doc.get(section, "config", "name")
            for key in data:
                cfg = module.from_configmap_value(doc, (section, "config", "data", key), data[key],
                                                  "Helm values", str(name) if name else None)
                cfg.namespace = namespace
                if module is deviceplugin:
                    cfg.configmap_where = doc.where((section, "config", "name"))
                out.append(cfg)
    return out
