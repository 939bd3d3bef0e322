"""Bilingual labels of catalog fields, and a fact's value in words (the words: kb.questions.words)."""

from __future__ import annotations

from kb.questions import words
from kb.text import Text, is_text

FIELD_LABELS: dict[str, Text] = {
    "pci_device_ids": Text("PCI device IDs", "PCI-Geräte-IDs"),
    "product_names": Text("Name the driver reports", "Vom Treiber gemeldeter Name"),
    "systems": Text("System with it on the GPU Operator's list", "System damit auf der Liste des GPU Operators"),
    "architecture": Text("Architecture", "Architektur"),
    "memory_gb": Text("Memory (GB)", "Speicher (GB)"),
    "form_factor": Text("Form factor", "Bauform"),
    "availability": Text("Availability", "Verfügbarkeit"),
    "mig.status": Text("MIG status", "MIG-Status"),
    "mig.max_instances": Text("MIG: max. instances", "MIG: max. Instanzen"),
    "mig.smallest_profile": Text("MIG: smallest profile", "MIG: kleinstes Profil"),
    "mig.profiles": Text("MIG profile", "MIG-Profil"),
    "mig.prerequisites.min_driver": Text("MIG: minimum driver", "MIG: Mindesttreiber"),
    "mig.prerequisites.min_vbios": Text("MIG: minimum vBIOS", "MIG: Mindest-vBIOS"),
    "mig.prerequisites.display_mode_switch": Text("MIG: display mode switch (DisplayModeSelector)",
                                              "MIG: Umschaltung des Anzeigemodus (DisplayModeSelector)"),
    "mig.prerequisites.prerequisites_published": Text("MIG: prerequisites published by NVIDIA",
                                                  "MIG: Voraussetzungen von NVIDIA veröffentlicht"),
    "mig.prerequisites.written_confirmation": Text("MIG: get support confirmed in writing",
                                               "MIG: Unterstützung schriftlich bestätigen lassen"),
    "operator_support.listed": Text("GPU Operator support list", "Supportliste des GPU Operators"),
    "operator_support.since": Text("GPU Operator: listed since release", "GPU Operator: gelistet seit Release"),
    "operator_support.min_driver": Text("GPU Operator: minimum driver", "GPU Operator: Mindesttreiber"),
    "operator_support.driver_exceptions.fact": Text("Driver exception", "Treiber-Ausnahme"),
    "operator_support.kubevirt_vgpu": Text("GPU Operator: KubeVirt with NVIDIA vGPU",
                                       "GPU Operator: KubeVirt mit NVIDIA vGPU"),
    "operator_support.kubevirt_vgpu_since": Text("GPU Operator: KubeVirt with NVIDIA vGPU since release",
                                             "GPU Operator: KubeVirt mit NVIDIA vGPU seit Release"),
    "vendor.ships": Text("We ship it", "Wir liefern sie"),
}


def label(path: str, lang: str) -> str:
    import re

    key = re.sub(r"\[\d+\]", "", path)
    return FIELD_LABELS[key](lang) if key in FIELD_LABELS else key


#: fields whose values have words of their own (other values: kb.questions.words.VALUES and TRUTH)
FIELD_VALUES = {"operator_support.listed": words.OPERATOR_LISTED,
                "operator_support.kubevirt_vgpu": words.KUBEVIRT_VGPU}


def value_text(value, lang: str, path: str = "") -> str:
    """A fact value for people: booleans and enum values in words, profiles and texts summarised."""
    if isinstance(value, dict):
        if is_text(value):
            return Text.of(value)(lang)
        if "name" in value and set(value) <= {"name", "note"}:  # a system of the card, perhaps with a note
            note = value.get("note")
            return value["name"] + (f" ({Text.of(note)(lang)})" if is_text(note) else "")
        if "name" in value and "memory_gb" in value:
            count = value.get("max_count")
            return f"{value['name']} ({value['memory_gb']} GB" + (f", ×{count})" if count else ")")
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    table = FIELD_VALUES.get(path) or (words.TRUTH if isinstance(value, bool) else words.VALUES)
    return words.word(table, value, lang)
