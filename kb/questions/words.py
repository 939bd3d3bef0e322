"""The catalog's enumerated values (and the answers' verdicts) in words, English and German: the one home of
these words for answers, `gpukb card`/`gpukb cards` (kb/render, kb/cli/cards.py) and the site (kb/site).

Answers keep ids in JSON (`details.maturity == "ga"`); what a person reads uses these words. Each table is
{id: {"en": …, "de": …}}. Imported on the CLI's fast path: no imports here.
"""

from __future__ import annotations

TRUTH = {True: {"en": "yes", "de": "ja"}, False: {"en": "no", "de": "nein"}}

VERDICT = {
    "yes": {"en": "yes", "de": "ja"},
    "conditional": {"en": "conditional", "de": "bedingt"},
    "unconfirmed": {"en": "unconfirmed", "de": "unbestätigt"},
    "no": {"en": "no", "de": "nein"},
}

#: card groups of `gpukb cards` and the site's card list, in the order they are shown
GROUP = {
    "data-center": {"en": "Data center", "de": "Rechenzentrum"},
    "rtx-pro": {"en": "RTX PRO Blackwell", "de": "RTX PRO Blackwell"},
    "workstation": {"en": "Workstation", "de": "Workstation"},
    "embedded": {"en": "Embedded and Arm", "de": "Embedded und Arm"},
}

MIG_STATUS = {
    "documented": {"en": "on NVIDIA's MIG list", "de": "auf NVIDIAs MIG-Liste"},
    "config-only": {"en": "only in mig-parted's configuration", "de": "nur in der Konfiguration von mig-parted"},
    "datasheet-only": {"en": "only in a datasheet", "de": "nur im Datenblatt"},
    "announced": {"en": "announced", "de": "angekündigt"},
    "not-listed": {"en": "not on NVIDIA's MIG list", "de": "nicht auf NVIDIAs MIG-Liste"},
}

#: `operator_support.listed`: whether NVIDIA's GPU Operator support list names the card
OPERATOR_LISTED = {True: {"en": "listed", "de": "gelistet"},
                   False: {"en": "no entry found", "de": "kein Eintrag gefunden"}}

#: `operator_support.kubevirt_vgpu`: whether the operator supports KubeVirt with NVIDIA vGPU on the card (its device
#: list names it, or its code configures the card's vGPU types); false: not on the device list (no documented "no")
KUBEVIRT_VGPU = {True: {"en": "supported", "de": "unterstützt"},
                 False: {"en": "not on the device list", "de": "nicht auf der Geräteliste"}}

AVAILABILITY = {
    "available": {"en": "available", "de": "erhältlich"},
    "announced": {"en": "announced", "de": "angekündigt"},
}

FORM_FACTOR = {
    "pcie-server": {"en": "PCIe, server", "de": "PCIe, Server"},
    "pcie-workstation": {"en": "PCIe, workstation", "de": "PCIe, Workstation"},
    "pcie-workstation-max-q": {"en": "PCIe, workstation Max-Q", "de": "PCIe, Workstation Max-Q"},
    "sxm": {"en": "SXM", "de": "SXM"},
    "other": {"en": "other", "de": "andere"},
}

#: a method's memory, fault and compute isolation
ISOLATION_LEVEL = {
    "full": {"en": "full", "de": "vollständig"},
    "partial": {"en": "partial", "de": "teilweise"},
    "none": {"en": "none", "de": "keine"},
    "device": {"en": "that of the allocated device", "de": "die des zugeteilten Geräts"},
}

MATURITY = {
    "ga": {"en": "generally available (GA)", "de": "allgemein verfügbar (GA)"},
    "beta": {"en": "beta", "de": "Beta"},
    "alpha": {"en": "alpha", "de": "Alpha"},
    "experimental": {"en": "experimental", "de": "experimentell"},
    # a standalone DRA driver release's word on a feature (not a catalog maturity): kb.questions.dra
    "not-supported": {"en": "not yet officially supported", "de": "noch nicht offiziell unterstützt"},
    "not-in-release": {"en": "not in this release", "de": "nicht in diesem Release"},
}

#: short method names, as the reasons of `ask methods` start ("Whole GPU: …")
METHOD = {
    "whole": {"en": "whole GPU", "de": "Ganze GPU"},
    "mig": {"en": "MIG", "de": "MIG"},
    "time-slicing": {"en": "time-slicing", "de": "Time-Slicing"},
    "mps": {"en": "MPS", "de": "MPS"},
    "vm-passthrough": {"en": "VM passthrough", "de": "VM-Passthrough"},
    "vgpu": {"en": "vGPU", "de": "vGPU"},
    "dra": {"en": "DRA", "de": "DRA"},
}

#: `ask resource` modes (a subset of the methods)
MODE = {m: METHOD[m] for m in ("mig", "time-slicing", "mps")}

#: DRA driver capabilities (`ask dra --feature`)
DRA_FEATURE = {
    "whole-gpu": {"en": "whole GPUs", "de": "ganze GPUs"},
    "static-mig": {"en": "existing (static) MIG devices", "de": "bestehende (statische) MIG-Geräte"},
    "dynamic-mig": {"en": "dynamic MIG (MIG devices created per claim)", "de": "dynamisches MIG (MIG-Geräte je Claim)"},
    "mps": {"en": "MPS", "de": "MPS"},
    "time-slicing": {"en": "custom time-slicing settings", "de": "eigene Time-Slicing-Einstellungen"},
    "vfio": {"en": "VFIO passthrough", "de": "VFIO-Passthrough"},
    "compute-domains": {"en": "ComputeDomains (Multi-Node NVLink)", "de": "ComputeDomains (Multi-Node NVLink)"},
}

WORKLOAD = {
    "training": {"en": "training", "de": "Training"},
    "large-model": {"en": "large models", "de": "große Modelle"},
    "small-inference": {"en": "small inference services", "de": "kleine Inferenzdienste"},
    "dev": {"en": "development and notebooks", "de": "Entwicklung und Notebooks"},
    "multi-tenant": {"en": "several teams or tenants", "de": "mehrere Teams oder Mandanten"},
}

#: a source's kind (catalog/sources.yaml)
SOURCE_KIND = {
    "docs": {"en": "documentation", "de": "Dokumentation"},
    "release-notes": {"en": "release notes", "de": "Release Notes"},
    "readme": {"en": "README", "de": "README"},
    "changelog": {"en": "changelog", "de": "Changelog"},
    "config": {"en": "configuration file", "de": "Konfigurationsdatei"},
    "datasheet": {"en": "datasheet", "de": "Datenblatt"},
    "article": {"en": "article", "de": "Artikel"},
    "code": {"en": "source code", "de": "Quellcode"},
    "thread": {"en": "issue or pull request", "de": "Issue oder Pull-Request"},
}

#: `ask recommend --isolation`
ISOLATION = {"required": {"en": "required", "de": "verlangt"}}

#: every catalog value whose field is not known where it is shown (a fact's value on the site or in `gpukb
#: card`); no id is in two of these tables with different words
VALUES = {**MIG_STATUS, **AVAILABILITY, **FORM_FACTOR, **ISOLATION_LEVEL, **MATURITY, **WORKLOAD}


def word(table: dict, value, lang: str) -> str:
    """The value in words; a value the table does not know is shown as it is."""
    entry = table.get(value) if isinstance(value, (str, bool)) else None
    return entry[lang] if entry else str(value)


def capital(text: str) -> str:
    """The text with a capital first letter (a verdict or capability at the start of a cell or sentence)."""
    return text[:1].upper() + text[1:]

#: what a disputed fact is, by the last field of its path (answers name the fact a dispute is about)
FACT_LABEL = {
    "min_kubernetes": {"en": "minimum Kubernetes version", "de": "Mindestversion von Kubernetes"},
    "min_driver": {"en": "minimum driver", "de": "Mindesttreiber"},
    "prerequisites_published": {"en": "prerequisites published", "de": "Voraussetzungen veröffentlicht"},
    "max_instances": {"en": "maximum MIG instances", "de": "Höchstzahl der MIG-Instanzen"},
    "status": {"en": "MIG status", "de": "MIG-Status"},
    "date": {"en": "release date", "de": "Release-Datum"},
    "listed": {"en": "on the support list", "de": "auf der Supportliste"},
}

#: component names as NVIDIA's component matrix (GPU Operator life-cycle policy) writes them; where we keep a
#: component's releases, that file's `name` comes first (kb.drift.compare.component_name)
COMPONENT = {
    "gpu-operator": "NVIDIA GPU Operator", "driver": "NVIDIA GPU Driver", "container-toolkit": "NVIDIA Container Toolkit",
    "device-plugin": "NVIDIA Device Plugin for Kubernetes", "dcgm-exporter": "DCGM Exporter",
    "node-feature-discovery": "Node Feature Discovery", "gpu-feature-discovery": "NVIDIA GPU Feature Discovery for Kubernetes",
    "mig-manager": "NVIDIA MIG Manager for Kubernetes", "dra-driver": "DRA Driver for NVIDIA GPUs",
}

#: `ask dra --install`
DRA_INSTALL = {
    "operator": {"en": "managed by the GPU Operator", "de": "vom GPU Operator verwaltet"},
    "standalone": {"en": "on its own (Helm chart)", "de": "eigenständig (Helm-Chart)"},
}
