"""A known issue of a component's versions (`known_issues:` in catalog/releases/<component>.yaml).

A known issue is data the rules read: `kb.questions.known_issues.facts` turns each into a `known_issue` fact
whose `status` says whether the version asked about (the driver given with --driver, the GPU Operator release
asked about, or the component version that release ships) lies in one of its `affects` ranges. Rules match it
by `trigger` (the situation in which it bites) and say what happens, the workaround and the fixed versions;
`gpukb lint` fails on a known issue that no rule matches.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from kb.models.common import Citation, Model, Slug, Text, Version

#: the components whose versions a known issue can name (as in releases files and `components`)
Component = Literal["gpu-operator", "device-plugin", "mig-manager", "dra-driver", "container-toolkit", "driver",
                    "gpu-feature-discovery"]

#: when a known issue bites; rules test these words
Trigger = Literal[
    "node-mixes-mig-and-full-gpus",  # a node with MIG instances and whole GPUs at the same time
    "mig-backed-vgpu",  # MIG-backed NVIDIA vGPU set up by the operator's vGPU Device Manager
    "rhel8-preinstalled-driver",  # a RHEL 8 node whose NVIDIA driver is pre-installed (driver.enabled false)
    "always",  # whenever the component runs in an affected version
]


class VersionRange(Model):
    """Versions of the component from `first` to `last`, both included (one version: first = last)."""

    first: Version = Field(description="Lowest affected version, e.g. '570.124.06'.")
    last: Version = Field(description="Highest affected version NVIDIA names, e.g. '570.158.01'.")


class WorkaroundSetting(Model):
    """A ClusterPolicy setting that works around the issue, as the workaround says (`gpukb check` offers it)."""

    key: str = Field(description="The setting's path in the ClusterPolicy's spec, e.g. 'migManager.version'.")
    value: str = Field(description="The value to set, as written in the ClusterPolicy, e.g. 'v0.12.3'.")


class KnownIssue(Model):
    """A problem NVIDIA documents for a range of versions, with its workaround and the versions that fix it."""

    id: Slug = Field(description="Stable id; rules and pages refer to it.")
    component: Component = Field(description="Whose versions are affected (a driver bug listed in the operator's notes: driver).")
    affects: list[VersionRange] = Field(min_length=1, description="The affected versions, as NVIDIA lists them.")
    fixed_in: list[Version] = Field(default_factory=list, description="Versions with the fix (one per branch); empty: no fix known.")
    trigger: Trigger = Field(description="The situation in which the issue bites (rules match it).")
    cards: list[Slug] = Field(default_factory=list, description="Cards it is limited to; empty: every card.")
    text: Text = Field(description="What happens, in our words.")
    workaround: Text = Field(description="What a customer does about it (workaround or upgrade).")
    workaround_setting: Optional[WorkaroundSetting] = Field(
        None, description="The ClusterPolicy setting the workaround names, where it is one.")
    cite: list[Citation] = Field(min_length=1, description="Where NVIDIA documents it (release notes, issue thread).")
    note: Optional[Text] = Field(None, description="Context, e.g. where sources list different versions.")
