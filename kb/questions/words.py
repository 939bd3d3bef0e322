"""The catalog's enumerated values in words, English and German, for answers and their text form.

Answers keep ids in JSON (`details.maturity == "ga"`); what a person reads uses these words. The
wording matches the site's (kb/site/labels.py VALUE_LABELS). Each table is {id: {"en": …, "de": …}}.
"""

from __future__ import annotations

MIG_STATUS = {
    "documented": {"en": "documented in NVIDIA's MIG user guide", "de": "in NVIDIAs MIG-Benutzerhandbuch dokumentiert"},
    "datasheet-only": {"en": "datasheet only", "de": "nur im Datenblatt"},
    "announced": {"en": "announced", "de": "angekündigt"},
    "not-listed": {"en": "not on NVIDIA's MIG list", "de": "nicht auf NVIDIAs MIG-Liste"},
}

MATURITY = {
    "ga": {"en": "generally available (GA)", "de": "allgemein verfügbar (GA)"},
    "beta": {"en": "beta", "de": "Beta"},
    "alpha": {"en": "alpha", "de": "Alpha"},
    "experimental": {"en": "experimental", "de": "experimentell"},
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
}

WORKLOAD = {
    "training": {"en": "training", "de": "Training"},
    "large-model": {"en": "large models", "de": "große Modelle"},
    "small-inference": {"en": "small inference services", "de": "kleine Inferenzdienste"},
    "dev": {"en": "development and notebooks", "de": "Entwicklung und Notebooks"},
    "multi-tenant": {"en": "several teams or tenants", "de": "mehrere Teams oder Mandanten"},
}

ISOLATION = {"required": {"en": "required", "de": "verlangt"}}


def word(table: dict, value, lang: str) -> str:
    """The value in words; a value the table does not know is shown as it is."""
    entry = table.get(value) if isinstance(value, str) else None
    return entry[lang] if entry else str(value)
