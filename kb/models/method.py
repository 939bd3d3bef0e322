"""A way to hand out a GPU (`catalog/methods/<id>.yaml`)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from kb.models.card import MethodId
from kb.models.common import Citation, Fact, Model, Statement, Text, Version

#: full / partial / none; `device`: that of the device allocated (DRA: a full GPU or MIG device is isolated in
#: full, a device shared with time-slicing or MPS has that method's isolation)
Isolation = Literal["full", "partial", "none", "device"]
Workload = Literal["training", "large-model", "small-inference", "dev", "multi-tenant"]
Maturity = Literal["ga", "alpha", "beta", "experimental"]


class IsolationFacts(Model):
    """What a pod can do to its neighbours under this method."""

    memory: Fact[Isolation] = Field(description="Memory isolation between consumers of one card.")
    fault: Fact[Isolation] = Field(description="Fault isolation: does one crash take the others down.")
    compute: Fact[Isolation] = Field(description="Guaranteed share of compute.")


class ResourceName(Model):
    """A Kubernetes extended resource name a pod requests under this method."""

    name: str = Field(description="e.g. 'nvidia.com/gpu', 'nvidia.com/mig-<profile>', 'nvidia.com/gpu.shared'.")
    when: Text = Field(description="When this name is advertised.")
    cite: list[Citation] = Field(min_length=1, description="Where it is documented.")


class ConfigKey(Model):
    """A configuration key of this method."""

    key: str = Field(description="e.g. 'sharing.timeSlicing.resources[].replicas'.")
    text: Text = Field(description="What it does.")
    cite: list[Citation] = Field(min_length=1, description="Where it is documented.")


class Suitability(Model):
    """A workload this method suits, or does not."""

    workload: Workload = Field(description="The workload class.")
    rank: int = Field(ge=1, description="1 = the first choice for this workload; higher = less suited.")
    text: Text = Field(description="Why.")
    cite: list[Citation] = Field(min_length=1, description="The guide's or NVIDIA's words behind it.")


class Capability(Model):
    """A capability of a component with its maturity (DRA driver)."""

    id: Literal["whole-gpu", "static-mig", "dynamic-mig", "mps", "time-slicing", "vfio", "compute-domains"] = Field(
        description="Which capability.")
    maturity: Fact[Maturity] = Field(description="GA, beta, alpha or experimental.")
    since: Optional[Version] = Field(None, description="First driver release with it.")
    plugin: Literal["gpu", "compute-domain"] = Field(
        "gpu", description="The DRA driver's kubelet plugin that provides it (GPU allocation or ComputeDomains).")
    gate: Optional[str] = Field(
        None, pattern=r"^[A-Z][A-Za-z]+$",
        description="The feature gate that enables it, where one does (a standalone release without the gate lacks it).")


class Requirements(Model):
    """Versions a method needs (DRA)."""

    min_kubernetes: Optional[Fact[Version]] = Field(None, description="Lowest Kubernetes version.")
    min_driver: Optional[Fact[Version]] = Field(None, description="Lowest NVIDIA driver branch/version.")
    min_operator: Optional[Fact[Version]] = Field(None, description="Lowest GPU Operator release that manages it.")
    driver_version: Optional[Fact[Version]] = Field(None, description="Version of the method's own driver the newest operator manages.")
    prerequisites: list[Statement] = Field(
        default_factory=list, description="Further prerequisites (container runtime, resources that must not exist), each cited."
    )


class Method(Model):
    """A sharing method."""

    id: MethodId = Field(description="Method id used by rules, CLI and site.")
    name: Text = Field(description="Display name.")
    summary: Text = Field(description="One paragraph: what it is.")
    unit: Text = Field(description="What one requested resource unit is under this method.")
    isolation: IsolationFacts = Field(description="Isolation between consumers of one card.")
    neighbour_risk: Text = Field(description="What a pod can do to its neighbours, in one sentence.")
    resource_names: list[ResourceName] = Field(default_factory=list, description="Resource names pods request.")
    config_keys: list[ConfigKey] = Field(default_factory=list, description="Configuration keys.")
    limits: list[Statement] = Field(default_factory=list, description="Limits and caveats, each cited.")
    suited_for: list[Suitability] = Field(default_factory=list, description="Workload fit, ranked.")
    requires_mig: bool = Field(False, description="True where the method needs a MIG-capable card.")
    excludes_mig: bool = Field(False, description="True where the method cannot run on a MIG-enabled GPU.")
    capabilities: list[Capability] = Field(default_factory=list, description="Capabilities with maturity (DRA).")
    requirements: Optional[Requirements] = Field(
        None, description="Requirements under the GPU Operator (DRA: the operator-managed DRA driver, GPUCluster)."
    )
    standalone_requirements: Optional[Requirements] = Field(
        None, description="Requirements of the method's own driver installed without the operator (DRA: its Helm chart)."
    )
