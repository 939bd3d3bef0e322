"""Bilingual labels of catalog fields and values."""

from __future__ import annotations

FIELD_LABELS: dict[str, tuple[str, str]] = {
    "architecture": ("Architecture", "Architektur"),
    "memory_gb": ("Memory (GB)", "Speicher (GB)"),
    "form_factor": ("Form factor", "Bauform"),
    "availability": ("Availability", "Verfügbarkeit"),
    "mig.status": ("MIG status", "MIG-Status"),
    "mig.max_instances": ("MIG: max. instances", "MIG: max. Instanzen"),
    "mig.smallest_profile": ("MIG: smallest profile", "MIG: kleinstes Profil"),
    "mig.profiles": ("MIG profile", "MIG-Profil"),
    "mig.prerequisites.min_driver": ("MIG: minimum driver", "MIG: Mindesttreiber"),
    "mig.prerequisites.min_vbios": ("MIG: minimum vBIOS", "MIG: Mindest-vBIOS"),
    "mig.prerequisites.display_mode_switch": ("MIG: display mode switch (DisplayModeSelector)",
                                              "MIG: Umschaltung des Anzeigemodus (DisplayModeSelector)"),
    "mig.prerequisites.prerequisites_published": ("MIG: prerequisites published by NVIDIA",
                                                  "MIG: Voraussetzungen von NVIDIA veröffentlicht"),
    "mig.prerequisites.written_confirmation": ("MIG: get support confirmed in writing",
                                               "MIG: Unterstützung schriftlich bestätigen lassen"),
    "operator_support.listed": ("GPU Operator support list", "Supportliste des GPU Operators"),
    "operator_support.min_driver": ("GPU Operator: minimum driver", "GPU Operator: Mindesttreiber"),
    "operator_support.driver_exceptions": ("Driver exception", "Treiber-Ausnahme"),
    "operator_support.driver_exceptions.fact": ("Driver exception", "Treiber-Ausnahme"),
    "vendor.ships": ("We ship it", "Wir liefern sie"),
}

VALUE_LABELS: dict[str, tuple[str, str]] = {
    "True": ("yes", "ja"),
    "False": ("no", "nein"),
    "documented": ("documented in NVIDIA's MIG list", "in NVIDIAs MIG-Liste dokumentiert"),
    "datasheet-only": ("only in a datasheet", "nur im Datenblatt"),
    "announced": ("announced", "angekündigt"),
    "not-listed": ("not on NVIDIA's MIG list", "nicht auf NVIDIAs MIG-Liste"),
    "available": ("available", "erhältlich"),
    "pcie-server": ("PCIe, server (passive)", "PCIe, Server (passiv)"),
    "pcie-workstation": ("PCIe, workstation", "PCIe, Workstation"),
    "pcie-workstation-max-q": ("PCIe, workstation Max-Q", "PCIe, Workstation Max-Q"),
    "sxm": ("SXM", "SXM"),
    "other": ("other", "andere"),
}


def label(path: str, lang: str) -> str:
    import re

    key = re.sub(r"\[\d+\]", "", path)
    en, de = FIELD_LABELS.get(key, (key, key))
    return de if lang == "de" else en


#: values whose wording depends on the field
PATH_VALUE_LABELS: dict[tuple[str, str], tuple[str, str]] = {
    ("operator_support.listed", "True"): ("listed", "gelistet"),
    ("operator_support.listed", "False"): ("no entry found", "kein Eintrag gefunden"),
}


def value_text(value, lang: str, path: str = "") -> str:
    """A fact value for people: booleans and enum values translated, profiles and texts summarised."""
    pair = PATH_VALUE_LABELS.get((path, str(value)))
    if pair:
        return pair[1] if lang == "de" else pair[0]
    if isinstance(value, dict):
        if "en" in value and "de" in value:
            return value[lang]
        if "name" in value and "memory_gb" in value:
            count = value.get("max_count")
            return f"{value['name']} ({value['memory_gb']} GB" + (f", ×{count})" if count else ")")
        return ", ".join(f"{k}={v}" for k, v in value.items())
    pair = VALUE_LABELS.get(str(value))
    if pair:
        return pair[1] if lang == "de" else pair[0]
    return str(value)
