"""MIG Manager (mig-parted) configurations: named layouts under `mig-configs`, each a list of device entries.

They come as the `config.yaml` value of a ConfigMap (custom or the per-node generated one), as raw files, or
from the Helm values (`migManager.config.data`). A node selects a layout with `nvidia.com/mig.config`.

Validated as mig-parted validates them (NVIDIA/mig-parted api/spec/v1/spec.go and go-nvlib's profile parser,
read at commit bd7160f4): `version: v1` required; top-level fields other than `version` and `mig-configs` are
rejected ("unexpected field"); `mig-configs` must not be empty, nor any layout; each entry has exactly the
fields `device-filter` (text or list of texts), `devices` ("all" or a list of integers), `mig-enabled`
(boolean) and `mig-devices` (profile → count); `devices` and `mig-enabled` are required; `mig-devices` is
required with mig-enabled true and must be empty with false; profiles must read as `<g>g.<gb>gb` or
`<c>c.<g>g.<gb>gb` with optional `+attr` / `-attr` suffixes; counts are integers ≥ 0, not all 0. A problem
anywhere makes mig-parted refuse the whole file.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from kb.check.documents import TYPE_WORDS, Doc, Where, field_path, parse_embedded, yaml_type
from kb.check.readers.deviceplugin import not_text
from kb.text import Text

TOP_KEYS = ("version", "mig-configs")
ENTRY_KEYS = ("device-filter", "devices", "mig-enabled", "mig-devices")


@dataclass
class LayoutEntry:
    """One entry of a layout: which devices, MIG on or off, and the instances per profile."""

    devices: object
    device_filter: str  # the GPU types the entry applies to ("" = every type)
    mig_enabled: object
    mig_devices: dict
    where: Where


@dataclass
class Layout:
    name: str
    where: Where
    entries: list[LayoutEntry] = field(default_factory=list)
    error: Text | None = None


@dataclass
class Problem:
    path: tuple
    text: Text
    where: Where | None = None


@dataclass
class MigPartedConfig:
    origin: str
    configmap: str | None
    key: str
    where: Where
    error: Text | None = None  # the first problem: mig-parted refuses the whole configuration
    layouts: dict = field(default_factory=dict)  # name → Layout
    problems: list[Problem] = field(default_factory=list)
    namespace: str | None = None
    data: object = None  # the configuration as written (where it is YAML)


def looks_like_config(data) -> bool:
    return isinstance(data, dict) and "mig-configs" in data


def _profile_error(profile: str) -> str | None:
    """go-nvlib's parseMigProfile: None where the profile name reads, else why not."""
    if profile == "":
        return "empty"
    plus, minus = profile.split("+", 1), profile.split("-", 1)
    if len(plus) == 2 and len(minus) == 2:
        return "both + and - attributes"
    parts = plus if len(plus) == 2 else minus
    fields = parts[0].split(".")
    want = (("c", "g", "gb") if len(fields) == 3 else ("g", "gb") if len(fields) == 2 else None)
    if want is None:
        return "expected <g>g.<gb>gb or <c>c.<g>g.<gb>gb"
    for text, unit in zip(fields, want):
        m = re.fullmatch(rf"(\d+){unit}", text)
        if not m:
            return f"malformed '{text}' (expected a number followed by '{unit}')"
    if len(parts) == 2:
        attrs = parts[1].split(",")
        if len(set(attrs)) != len(attrs) or any(not a or a[0].isdigit() or a[0] == "." or a[-1] == "."
                                                 or not re.fullmatch(r"[A-Za-z0-9.]+", a) for a in attrs):
            return f"malformed attributes '{parts[1]}'"
    return None


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Check:
    def __init__(self, doc: Doc):
        self.doc = doc
        self.problems: list[Problem] = []

    def add(self, path: tuple, message: Text, **kw) -> None:
        shown = field_path(path) or "(top)"
        self.problems.append(Problem(path, ("{shown}: " + message).format(shown=shown, **kw),
                                     self.doc.where(path)))

    def unexpected(self, path: tuple, key, known: tuple) -> None:
        close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
        hint = Text(" — did you mean `{m}`?", " — war `{m}` gemeint?").format(m=close[0]) if close else Text(
            " (allowed: {k})", " (erlaubt: {k})").format(k=", ".join(known))
        self.add(path, Text("mig-parted rejects the field `{key}` (\"unexpected field\"){hint}", "mig-parted lehnt das Feld `{key}` ab („unexpected field“){hint}"), key=key, hint=hint)

    def type_(self, path: tuple, value, want_en: str, want_de: str) -> None:
        self.add(path, Text("is {found}, mig-parted expects {want}", "ist {found}, mig-parted erwartet {want}"),
                 found=TYPE_WORDS[yaml_type(value)], want=Text(want_en, want_de))

    def run(self) -> None:
        data = self.doc.data
        for key in data:
            if key not in TOP_KEYS:
                self.unexpected((key,), key, TOP_KEYS)
        if "version" not in data:
            self.add((), Text("no `version`: mig-parted refuses a configuration without `version: v1`", "kein `version`: mig-parted lehnt eine Konfiguration ohne `version: v1` ab"))
        elif data["version"] != "v1":
            self.add(("version",), Text("is {v}; mig-parted knows only v1", "ist {v}; mig-parted kennt nur v1"),
                     v=repr(data["version"]))
        configs = data.get("mig-configs")
        if not isinstance(configs, dict):
            self.type_(("mig-configs",), configs, "a mapping of layout names to device entries",
                       "eine Zuordnung von Layout-Namen zu Geräteeinträgen")
            return
        if not configs:
            self.add(("mig-configs",), Text("is empty; mig-parted requires at least one layout", "ist leer; mig-parted verlangt mindestens ein Layout"))
        for name, entries in configs.items():
            path = ("mig-configs", name)
            if not isinstance(entries, list):
                self.type_(path, entries, "a list of device entries", "eine Liste von Geräteeinträgen")
            elif not entries:
                self.add(path, Text("has no entry; mig-parted requires at least one", "hat keinen Eintrag; mig-parted "
                         "verlangt mindestens einen"))
            else:
                for i, entry in enumerate(entries):
                    self.entry(entry, path + (i,))

    def entry(self, entry, path: tuple) -> None:
        if not isinstance(entry, dict):
            self.type_(path, entry, "a mapping (devices, mig-enabled, mig-devices)",
                       "eine Zuordnung (devices, mig-enabled, mig-devices)")
            return
        for key in entry:
            if key not in ENTRY_KEYS:
                self.unexpected(path + (key,), key, ENTRY_KEYS)
        for key in ("devices", "mig-enabled"):
            if key not in entry:
                self.add(path, Text("missing required field `{key}`", "Pflichtfeld `{key}` fehlt"), key=key)
        devices = entry.get("devices", "all")
        if not (devices == "all" or (isinstance(devices, list) and all(_is_int(d) for d in devices))):
            self.add(path + ("devices",), Text("is {v}; mig-parted accepts \"all\" or a list of GPU indexes", "ist {v}; mig-parted akzeptiert \"all\" oder eine Liste von GPU-Indizes"), v=repr(devices))
        filt = entry.get("device-filter")
        if filt is not None and not (isinstance(filt, str) or (isinstance(filt, list) and all(isinstance(f, str) for f in filt))):
            self.type_(path + ("device-filter",), filt, "text or a list of texts (PCI device ids)",
                       "Text oder eine Liste von Texten (PCI-Geräte-IDs)")
        enabled = entry.get("mig-enabled")
        if "mig-enabled" in entry and not isinstance(enabled, bool):
            self.type_(path + ("mig-enabled",), enabled, "true or false", "true oder false")
        devs = entry.get("mig-devices")
        if enabled is True and devs is None:
            self.add(path, Text("mig-enabled is true but `mig-devices` is missing", "mig-enabled ist true, aber "
                     "`mig-devices` fehlt"))
        if enabled is False and devs:
            self.add(path + ("mig-devices",), Text("lists MIG devices while mig-enabled is false", "nennt MIG-Geräte, obwohl mig-enabled false ist"))
        if devs is not None:
            self.mig_devices(devs, path + ("mig-devices",))

    def mig_devices(self, devs, path: tuple) -> None:
        if not isinstance(devs, dict):
            self.type_(path, devs, "a mapping of MIG profile to count", "eine Zuordnung von MIG-Profil zu Anzahl")
            return
        for profile, count in devs.items():
            why = _profile_error(str(profile))
            if why:
                self.add(path + (profile,), Text("`{p}` is not a MIG profile name mig-parted reads ({why})", "`{p}` ist kein MIG-Profilname, den mig-parted liest ({why})"), p=profile, why=why)
            if not _is_int(count):
                self.type_(path + (profile,), count, "an integer count", "eine ganze Zahl")
            elif count < 0:
                self.add(path + (profile,), Text("count {n} is negative", "Anzahl {n} ist negativ"), n=count)
        if devs and all(_is_int(c) and c == 0 for c in devs.values()):
            self.add(path, Text("all counts are 0 (\"all counts for all MigProfiles are 0\")", "alle Anzahlen sind 0 („all counts for all MigProfiles are 0“)"))


def from_doc(doc: Doc, origin: str, configmap: str | None, key: str, where: Where) -> MigPartedConfig:
    cfg = MigPartedConfig(origin, configmap, key, where, data=doc.data)
    if not isinstance(doc.data, dict):
        cfg.error = Text("not a mapping with version and mig-configs", "keine Zuordnung mit version und mig-configs")
        return cfg
    check = _Check(doc)
    check.run()
    cfg.problems = check.problems
    if check.problems:
        cfg.error = check.problems[0].text
    configs = doc.get("mig-configs")
    if not isinstance(configs, dict):
        return cfg
    for name, entries in configs.items():
        layout = Layout(str(name), doc.where(("mig-configs", name)))
        bad = [p for p in check.problems if p.path[:2] == ("mig-configs", name)]
        if bad:
            layout.error = bad[0].text
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if not isinstance(entry, dict):
                continue
            devices = entry.get("mig-devices")
            filt = entry.get("device-filter", "")
            layout.entries.append(LayoutEntry(entry.get("devices", "all"),
                                              ",".join(map(str, filt)) if isinstance(filt, list) else str(filt),
                                              entry.get("mig-enabled"), devices if isinstance(devices, dict) else {},
                                              doc.where(("mig-configs", name, i))))
        cfg.layouts[layout.name] = layout
    return cfg


def from_configmap_value(outer: Doc, path: tuple, text, origin: str, configmap: str | None) -> MigPartedConfig:
    key = str(path[-1])
    where = outer.where(path)
    if not isinstance(text, str):
        return MigPartedConfig(origin, configmap, key, where, error=not_text(text))
    inner, error = parse_embedded(outer, path, text)
    if inner is None:
        return MigPartedConfig(origin, configmap, key, where, error=error)
    return from_doc(inner, origin, configmap, key, where)
