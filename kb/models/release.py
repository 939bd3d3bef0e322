"""Software releases and their settings (`catalog/releases/<component>.yaml`)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal, Optional, Union

from pydantic import Field, StringConstraints

from kb.models.common import Citation, Fact, Model, Slug, Statement, Text, Version
from kb.models.known_issue import KnownIssue

#: A component version as the release notes write it, without a leading "v"; DCGM Exporter versions
#: pair the DCGM and exporter versions: "4.6.0-4.8.3".
ComponentVersionString = Annotated[
    str,
    StringConstraints(pattern=r"^\d+(\.\d+){1,3}(-\d+(\.\d+){0,3})?$"),
    Field(description='A version as the release notes write it, without "v": "0.20.0", "4.6.0-4.8.3".'),
]

ComponentId = Literal["gpu-operator", "device-plugin", "mig-manager", "dra-driver", "container-toolkit", "driver", "dcgm-exporter", "gpu-feature-discovery", "node-feature-discovery"]


class ComponentVersion(Model):
    """A component a release ships, with its version."""

    component: ComponentId = Field(description="Which component.")
    version: ComponentVersionString = Field(
        description="Its version in this release; where the release notes and the chart at the release tag disagree, the chart's (what is deployed)."
    )
    written: Optional[ComponentVersionString] = Field(
        None,
        description=(
            "The version as the release notes write it, where that is not what the release deploys (23.9.x: "
            "'NVIDIA Kubernetes Device Plugin v1.14.2' for v0.14.2); the drift check compares the notes with it."
        ),
    )
    cite: list[Citation] = Field(
        min_length=1, description="Where the release notes list it, or the chart's values.yaml at the release tag."
    )
    note: Optional[Text] = Field(None, description="Why the version differs from the notes or comes from the chart.")


class FeatureGate(Model):
    """A feature gate a release of the DRA driver has (its code's list of gates at the release tag)."""

    name: str = Field(pattern=r"^[A-Z][A-Za-z]+$", description="The gate as the code names it, e.g. 'DynamicMIG'.")
    maturity: Literal["alpha", "beta", "ga"] = Field(description="The gate's stage in that release.")
    default: bool = Field(description="Whether the gate is on without configuration.")
    cite: list[Citation] = Field(min_length=1, description="The gate's definition in the code at the release tag.")


class KubeletPlugin(Model):
    """One of the DRA driver's two kubelet plugins, and whether NVIDIA supports it officially in a release."""

    id: Literal["gpu", "compute-domain"] = Field(
        description="'gpu': allocation of GPUs and MIG devices; 'compute-domain': ComputeDomains (Multi-Node NVLink).")
    status: Fact[Literal["supported", "not-officially-supported"]] = Field(
        description="NVIDIA's word on it in the release's README ('Officially supported.' / 'not yet officially supported').")


class DraRequirements(Model):
    """What a release of the standalone DRA driver needs."""

    min_kubernetes: Optional[Fact[Version]] = Field(
        None, description="Lowest Kubernetes version: the prerequisites page at the tag, else the README (the chart's "
                          "kubeVersion, where lower, is kept in disputed_by).")
    min_driver: Optional[Fact[Version]] = Field(None, description="Lowest NVIDIA driver for GPU allocation.")
    min_driver_compute_domains: Optional[Fact[Version]] = Field(
        None, description="Lowest NVIDIA driver for ComputeDomains.")


class Release(Model):
    """One release of the component."""

    version: Version = Field(description="The release, e.g. '26.7.0'.")
    cite: list[Citation] = Field(
        default_factory=list, description="Where the document lists the release (its heading), for a release known by its name only."
    )
    date: Optional[Fact[dt.date]] = Field(None, description="Release date (git tag or release notes).")
    components: list[ComponentVersion] = Field(
        default_factory=list, description="Component versions the release ships (GPU Operator only)."
    )
    mig_devices: Optional[Fact[list[str]]] = Field(
        None,
        description=(
            "GPU Operator only: the PCI device ids ('0x2BB5') the layouts of the release's default MIG configuration "
            "(ConfigMap default-mig-parted-config) are for, where they differ from the next older release's; a release "
            "without it has those of the nearest older one that records them. Before the generated configuration "
            "(v26.3.0) the MIG Manager has no layout of its own for a card whose id is not among them."
        ),
    )
    changes: list[Statement] = Field(
        default_factory=list, description="What changed in this release that matters for GPU sharing."
    )
    standalone: bool = Field(
        False, description="DRA driver only: a release tag of the driver installed on its own with its Helm chart "
                           "(its requirements, gates and plugins imported from the tag by kb/importer/dra.py).")
    requirements: Optional[DraRequirements] = Field(None, description="DRA driver only: what the release needs.")
    feature_gates: list[FeatureGate] = Field(
        default_factory=list, description="DRA driver only: the feature gates the release's code defines.")
    kubelet_plugins: list[KubeletPlugin] = Field(
        default_factory=list, description="DRA driver only: its kubelet plugins and NVIDIA's support of each.")


class Setting(Model):
    """A configuration value (Helm value / ClusterPolicy field) and its default."""

    key: str = Field(description="The key, e.g. 'mig.strategy' or 'devicePlugin.config.name'.")
    default: Fact[Union[str, bool, None]] = Field(description="Default value; null where there is none.")
    values: list[str] = Field(default_factory=list, description="Allowed values where they are a closed set.")
    text: Text = Field(description="What the setting does.")
    since: Optional[Version] = Field(None, description="First release with this default.")
    until: Optional[Version] = Field(None, description="First release with another default.")


class NodeLabel(Model):
    """A node label that selects or reports configuration."""

    key: str = Field(description="The label key, e.g. 'nvidia.com/mig.config'.")
    set_by: Literal["user", "operator", "gpu-feature-discovery"] = Field(description="Who sets it.")
    values: list[str] = Field(default_factory=list, description="Known values, where a closed set.")
    text: Text = Field(description="What it means.")
    cite: list[Citation] = Field(min_length=1, description="Where it is documented.")


class ReleasesFile(Model):
    """All known releases of one component, with version-ranged features and settings."""

    component: ComponentId = Field(description="Which component this file describes.")
    name: str = Field(description="Product name as NVIDIA writes it.")
    source: Slug = Field(description="Id of the source that lists the releases (release notes / changelog).")
    releases: list[Release] = Field(min_length=1, description="Known releases, newest first.")
    features: list[Statement] = Field(
        default_factory=list,
        description="Behaviour that holds for a range of releases (since/until), e.g. CDI by default.",
    )
    settings: list[Setting] = Field(default_factory=list, description="Configuration values and defaults.")
    labels: list[NodeLabel] = Field(default_factory=list, description="Node labels this component reads or sets.")
    known_issues: list[KnownIssue] = Field(
        default_factory=list,
        description="Problems of version ranges (of this or another component, e.g. drivers in the operator's notes).",
    )
