"""`GPUCluster` (nvidia.com/v1alpha1): the DRA enablement stack and the DRA driver's feature gates."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import Doc, Where


@dataclass
class FeatureGate:
    name: str
    enabled: object  # as written; the DRA driver expects a boolean
    where: Where


@dataclass
class GPUCluster:
    """A GPUCluster, from a manifest or rendered from the Helm values (`gpuCluster.deployCR: true`)."""

    name: str
    doc: Doc
    origin: str  # "GPUCluster" or "Helm values"
    where: Where
    gates: list[FeatureGate] = field(default_factory=list)


def read_gates(doc: Doc, path: tuple) -> list[FeatureGate]:
    gates = doc.get(*path)
    if not isinstance(gates, dict):
        return []
    return [FeatureGate(str(k), v, doc.where(path + (k,))) for k, v in gates.items()]


def read(doc: Doc) -> GPUCluster:
    name = doc.get("metadata", "name")
    return GPUCluster(name=str(name) if name is not None else "", doc=doc, origin="GPUCluster",
                      where=doc.where(("kind",)),
                      gates=read_gates(doc, ("spec", "draDriver", "featureGates")))
