"""One GPU card (`catalog/cards/<id>.yaml`)."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from kb.models.common import Citation, Fact, Model, Slug, Text, Version

MigStatus = Literal["documented", "config-only", "datasheet-only", "announced", "not-listed"]
CardGroup = Literal["data-center", "rtx-pro", "workstation", "embedded"]
MethodId = Literal["whole", "mig", "time-slicing", "mps", "vm-passthrough", "vgpu", "dra"]


class MigProfile(Model):
    """A MIG instance profile of this card."""

    name: str = Field(description="Profile name as NVIDIA writes it, e.g. '1g.24gb' or '1g.24gb+gfx'.")
    memory_gb: int = Field(description="Memory of one instance in GB.")
    max_count: int = Field(description="How many instances of this profile fit on one card.")
    variant: Optional[Literal["+me", "-me", "+me.all", "+gfx"]] = Field(
        None,
        description=(
            "Suffix of a variant profile: '+me' (with a media engine), '-me' (without media engines), "
            "'+me.all' (all media engines), '+gfx' (graphics); absent for the plain profile."
        ),
    )
    cite: list[Citation] = Field(min_length=1, description="Where the profile is documented.")


class MigPrerequisites(Model):
    """What must hold before MIG can be enabled on this card."""

    min_driver: Optional[Fact[Version]] = Field(None, description="Lowest driver version with MIG on this card.")
    min_vbios: Optional[Fact[str]] = Field(None, description="Lowest vBIOS version NVIDIA names for MIG.")
    display_mode_switch: Optional[Fact[bool]] = Field(
        None,
        description=(
            "True where NVIDIA's DisplayModeSelector must switch the card from graphics to compute "
            "before MIG can be enabled (this turns off the display outputs); the GPU Operator does not do it."
        ),
    )
    prerequisites_published: Fact[bool] = Field(
        description="Whether NVIDIA publishes MIG prerequisites (driver, vBIOS, display mode) for this card."
    )
    written_confirmation: Optional[Fact[bool]] = Field(
        None, description="True where we advise customers to get MIG support confirmed in writing."
    )


class Mig(Model):
    """Multi-Instance GPU on this card."""

    status: Fact[MigStatus] = Field(
        description=(
            "documented: on NVIDIA's MIG list with profiles; config-only: not on the MIG user guide's list, but "
            "mig-parted's default configuration holds MIG profiles for the card's PCI device id; datasheet-only: only a datasheet mentions MIG; "
            "announced: MIG announced for a card not yet listed; not-listed: not on NVIDIA's MIG list."
        )
    )
    max_instances: Optional[Fact[int]] = Field(None, description="Most MIG instances on one card.")
    smallest_profile: Optional[Fact[str]] = Field(None, description="The smallest profile, e.g. '1g.18gb'.")
    profiles: list[MigProfile] = Field(default_factory=list, description="Profiles NVIDIA documents for the card.")
    prerequisites: Optional[MigPrerequisites] = Field(
        None, description="Prerequisites; absent where the card has no MIG."
    )


class DriverException(Model):
    """A driver release on which a feature does not work for this card."""

    driver: Version = Field(description="The driver release, e.g. '575.57.08'.")
    feature: Literal["mig", "all"] = Field(description="What does not work on it.")
    fact: Fact[Text] = Field(description="NVIDIA's statement; the value says it in our words (en/de).")


class OperatorSupport(Model):
    """The card on the GPU Operator's list of supported GPUs (platform support)."""

    listed: Fact[bool] = Field(
        description="True where the support list names the card; False means 'no entry found' there."
    )
    listed_as: Optional[str] = Field(None, description="The name the support list uses, where listed.")
    since: Optional[Fact[Version]] = Field(
        None,
        description=(
            "First GPU Operator release whose list names the card, from the page's history (kb/importer/history.py): "
            "the first version of platform-support.rst naming it, cited at that commit with its line, and the release "
            "that version documents (repo.toml's version, or the newest release of that day where that is later). "
            "Absent where every release the catalog knows lists it."
        ),
    )
    min_driver: Optional[Fact[Version]] = Field(None, description="Lowest driver the list requires for the card.")
    driver_exceptions: list[DriverException] = Field(
        default_factory=list, description="Driver releases with a feature not supported on this card."
    )
    kubevirt_vgpu: Optional[Fact[bool]] = Field(
        None,
        description=(
            "Whether the GPU Operator supports KubeVirt and OpenShift Virtualization with NVIDIA vGPU on the card: "
            "true cites the platform support page's device list line that names it (a card named only in a family "
            "line such as 'AD10x: L40, RTX 6000 Ada, L4.' cites that line) or, where the list does not name it, "
            "the operator's code that configures the card's vGPU types (the code decides; the list is kept in "
            "disputed_by); false cites the list's lead sentence, with a note that the card is not on it (not being "
            "listed is no documented 'no'). Absent: not recorded."
        ),
    )
    kubevirt_vgpu_since: Optional[Fact[Version]] = Field(
        None,
        description=(
            "Where KubeVirt with NVIDIA vGPU is supported on the card: the first GPU Operator release that supports "
            "it, imported (kb/importer/history.py) from the first version of the platform support page whose device "
            "list names the card (the list first appears with v24.3.0), or, where the support follows the operator's "
            "code, the first release tag whose file has the cited line. Absent where every release the catalog "
            "knows supports it."
        ),
    )


class Vendor(Model):
    """What our company ships ("Was wir liefern")."""

    ships: Fact[bool] = Field(description="Whether we ship the card.")
    methods: list[MethodId] = Field(
        default_factory=list, description="The sharing methods we ship it for."
    )
    note: Optional[Text] = Field(None, description="What we tell customers about it.")


class System(Model):
    """A system (DGX, HGX, a cloud instance) the GPU Operator's list names, recorded as the card it contains."""

    name: str = Field(description="The system as the support list writes it, e.g. 'NVIDIA DGX H100'.")
    cite: list[Citation] = Field(min_length=1, description="The support list's row that names the system.")
    note: Optional[Text] = Field(None, description="What else a reader must know (e.g. which card variants it holds).")


class ProductName(Model):
    """A name the driver reports for the card, with the NVIDIA document or code (or the real observation) that
    shows it."""

    name: str = Field(
        description=(
            "The name as the driver reports it (`nvidia-smi --query-gpu=name`, NVML), e.g. 'NVIDIA A100-SXM4-40GB' or "
            "'Tesla T4'. GPU Feature Discovery writes it with hyphens for spaces into nvidia.com/gpu.product "
            "('NVIDIA-A100-SXM4-40GB', with '-MIG-<profile>' or '-SHARED' appended); both forms resolve."
        )
    )
    cite: list[Citation] = Field(
        min_length=1,
        description=(
            "Where the name is shown: nvidia-smi output or a GPU Feature Discovery label in NVIDIA's documentation or "
            "code, a row of NVIDIA's PCI id list or of the support list. Lint requires the name in one of the quotes "
            "(case, spaces and hyphens aside)."
        ),
    )
    note: Optional[Text] = Field(None, description="What else a reader must know about the name.")


class Card(Model):
    """A GPU card with everything the catalog knows about it."""

    id: Slug = Field(description="Stable id, also the file name.")
    name: str = Field(description="Official product name exactly as NVIDIA writes it.")
    short_name: str = Field(description="Short form used in tables, e.g. 'RTX PRO 6000 Workstation'.")
    aliases: list[str] = Field(
        default_factory=list,
        description=(
            "Other names support staff type or tools print: short forms, nvidia-smi names and GPU Feature "
            "Discovery product labels (nvidia.com/gpu.product) such as 'NVIDIA-H200-NVL'."
        ),
    )
    group: CardGroup = Field(
        description=(
            "Where the card belongs in lists: data-center (data-center GPUs, superchips and the systems built from "
            "them), rtx-pro (RTX PRO Blackwell), workstation (RTX/Quadro/T-series workstation cards), embedded "
            "(Jetson, IGX and Arm cloud instances)."
        )
    )
    product_names: list[ProductName] = Field(
        default_factory=list,
        description=(
            "The names the driver reports (`nvidia-smi --query-gpu=name`, NVML), each cited, e.g. "
            "'NVIDIA A100-SXM4-40GB' or 'Tesla T4'; GPU Feature Discovery's nvidia.com/gpu.product label writes them "
            "with hyphens ('NVIDIA-A100-SXM4-40GB', '-MIG-<profile>' or '-SHARED' appended); both forms resolve."
        ),
    )
    pci_device_ids: Optional[Fact[list[str]]] = Field(
        None,
        description=(
            "PCI device ids of the card ('0x20B0', vendor 10DE implied), as mig-parted's device-filter writes them "
            "(0x20B010DE); they select the card's MIG profiles in mig-parted's configuration and resolve as names."
        ),
    )
    systems: list[System] = Field(
        default_factory=list,
        description="Systems of the GPU Operator's list that are built from this card (DGX H100, HGX H100 …).",
    )
    plain_product: bool = Field(
        False,
        description=(
            "True where this card is the plain, unqualified product of an ambiguous name "
            "('RTX PRO 5000' is the 48 GB card)."
        ),
    )
    architecture: Optional[Fact[str]] = Field(
        None, description="GPU architecture, e.g. 'Blackwell'; absent where no cited source states it."
    )
    memory_gb: Optional[Fact[int]] = Field(
        None, description="Memory of the card in GB; absent where no cited source states it."
    )
    form_factor: Optional[
        Fact[Literal["pcie-server", "pcie-workstation", "pcie-workstation-max-q", "sxm", "other"]]
    ] = Field(None, description="Form factor / edition; absent where no cited source states it.")
    availability: Optional[Fact[Literal["available", "announced"]]] = Field(
        None, description="Whether the card is on sale; absent where no cited source states it."
    )
    mig: Mig = Field(description="MIG facts.")
    operator_support: OperatorSupport = Field(description="GPU Operator support list facts.")
    vendor: Vendor = Field(description="What we ship.")
    note: Optional[Text] = Field(None, description="Anything else a reader must know about the card.")
