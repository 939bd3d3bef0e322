"""The device plugin's configuration file as NVIDIA's code reads it (k8s-device-plugin, api/config/v1).

What the code does decides (read at commit 1b826acc of NVIDIA/k8s-device-plugin):
- The file is YAML turned into JSON (sigs.k8s.io/yaml) and decoded by Go's encoding/json into `Config`:
  `version`, `flags`, `resources`, `sharing`, `imex`. Struct fields match keys **case-insensitively**;
  unknown keys are **silently ignored** (the setting the user meant has no effect).
- `sharing.timeSlicing` / `sharing.mps` and each `resources[]` item have their own decoders that look keys
  up **exactly** (`renameByDefault`, `failRequestsGreaterThanOne`, `resources`; `name`, `devices`,
  `replicas`, `rename`): a key in another case is ignored too.
- A value of the wrong type (text where a boolean or number belongs) makes the decoding fail: the plugin does
  not start with this configuration. So do: no `resources` in a sharing block ("no resources specified"),
  an item without `name` or `replicas`, `replicas` below 2 ("number of replicas must be >= 2"), `devices`
  other than "all", a positive count or a list of indexes/UUIDs, a version other than v1, a `migStrategy`,
  `deviceListStrategy`, `deviceIDStrategy`, `deviceDiscoveryStrategy` or `sharedDevicesAllocationPolicy`
  outside their values, `imex.channelIDs` other than [] or [0], and MPS together with migStrategy mixed.
- `rename`, `devices` other than "all" and the top-level `resources` are read but then ignored with a
  warning ("not yet supported", DisableResourceNamingInConfig).
- A resource name without a domain gets `nvidia.com/` in front (`name: gpu` is nvidia.com/gpu).

`validate(data)` returns every `SchemaProblem` with its field path, in the order written.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from kb.check.documents import TYPE_WORDS, field_path, yaml_type
from kb.text import Text

#: the problem kinds, by how the plugin reacts
FATAL = ("type", "value", "missing")  # the plugin does not start with this configuration
#  "unknown": ignored silently; "unsupported": read, then ignored with a warning in the plugin's log


@dataclass
class SchemaProblem:
    kind: str  # unknown | type | value | missing | unsupported
    path: tuple
    text: Text
    key: str = ""  # the key as written (unknown keys)
    suggestion: str = ""  # where it belongs / what was meant (a dotted path), if anything fits

    @property
    def fatal(self) -> bool:
        return self.kind in FATAL


# --- the schema ----------------------------------------------------------------------------------------------
# a spec is ("bool"|"str"|"int"|"duration"|"any") or ("enum", values) or ("struct", {key: spec}, exact)
# or ("list", spec) or ("replicated",) / ("resource",) / ("devices",) / ("strlist-or-str", values)
BOOL, STR, INT = ("bool",), ("str",), ("int",)
DURATION = ("duration",)
_MIG = ("enum", ("none", "single", "mixed"))
_PLUGIN = ("struct", {
    "passDeviceSpecs": BOOL,
    "deviceListStrategy": ("strlist-or-str", ("envvar", "volume-mounts", "cdi-annotations", "cdi-cri")),
    "deviceIDStrategy": ("enum", ("uuid", "index")),
    "cdiAnnotationPrefix": STR, "nvidiaCTKPath": STR, "containerDriverRoot": STR,
    "sharedDevicesAllocationPolicy": ("enum", ("distributed", "packed")),
}, False)
_GFD = ("struct", {"oneshot": BOOL, "noTimestamp": BOOL, "sleepInterval": DURATION, "outputFile": STR,
                   "machineTypeFile": STR}, False)
FLAGS = ("struct", {
    "migStrategy": _MIG, "failOnInitError": BOOL, "mpsRoot": STR, "nvidiaDriverRoot": STR, "nvidiaDevRoot": STR,
    "gdrcopyEnabled": BOOL, "gdsEnabled": BOOL, "mofedEnabled": BOOL, "useNodeFeatureAPI": BOOL,
    "deviceDiscoveryStrategy": ("enum", ("auto", "nvml", "tegra")), "plugin": _PLUGIN, "gfd": _GFD,
}, False)
_RESOURCE_PATTERN = ("struct", {"pattern": STR, "name": ("resource",)}, True)
CONFIG = ("struct", {
    "version": ("enum", ("v1",)),
    "flags": FLAGS,
    "resources": ("struct", {"gpus": ("list", _RESOURCE_PATTERN), "mig": ("list", _RESOURCE_PATTERN)}, False),
    "sharing": ("struct", {"timeSlicing": ("replicated",), "mps": ("replicated",)}, False),
    "imex": ("struct", {"channelIDs": ("list", INT), "required": BOOL}, False),
}, False)
_REPLICATED_KEYS = ("renameByDefault", "failRequestsGreaterThanOne", "resources")
_ITEM_KEYS = ("name", "devices", "replicas", "rename")
_MAX_NAME = 63
_DNS1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_GO_INT = 2**63


def _all_paths() -> dict[str, list[str]]:
    """Every key the plugin reads → the dotted paths where it belongs (for "misplaced" hints)."""
    out: dict[str, list[str]] = {}

    def walk(spec, prefix: str):
        if spec[0] == "struct":
            for key, sub in spec[1].items():
                path = f"{prefix}.{key}" if prefix else key
                out.setdefault(key.lower(), []).append(path)
                walk(sub, path)
        elif spec[0] == "replicated":
            for key in _REPLICATED_KEYS:
                out.setdefault(key.lower(), []).append(f"{prefix}.{key}")
            for key in _ITEM_KEYS:
                out.setdefault(key.lower(), []).append(f"{prefix}.resources[].{key}")

    walk(CONFIG, "")
    return out


KNOWN = _all_paths()
_WORDS = {"bool": Text("true or false", "true oder false"), "str": Text("text", "Text"),
          "int": Text("a whole number", "eine ganze Zahl"), "duration": Text("a duration such as 60s", "eine Dauer wie 60s")}


def _type_words(value) -> Text:
    return TYPE_WORDS[yaml_type(value)]


def _closest_allowed(value, allowed) -> str:
    """The allowed value the written one most likely meant ('' where none is close)."""
    choices = [str(a) for a in allowed]
    text = str(value).strip().lower()
    same = [c for c in choices if c.lower() == text]
    found = same or difflib.get_close_matches(text, [c.lower() for c in choices], n=1, cutoff=0.6)
    return next((c for c in choices if c.lower() == found[0].lower()), "") if found else ""


class _Validator:
    def __init__(self):
        self.problems: list[SchemaProblem] = []

    def add(self, kind: str, path: tuple, text: Text, key: str = "", suggestion: str = "") -> None:
        self.problems.append(SchemaProblem(kind, path, text, key, suggestion))

    # --- helpers -----------------------------------------------------------------------------------------
    def unknown(self, path: tuple, key, known: tuple, exact: bool) -> None:
        shown = field_path(path)
        key_s = str(key)
        here = field_path(path[:-1]) or Text("the top level", "der obersten Ebene")
        case_twin = next((k for k in known if k.lower() == key_s.lower()), None)
        if exact and case_twin:
            self.add("unknown", path, Text(
                "{shown}: the device plugin reads this key only as `{twin}` (exact case); as written it is ignored",
                "{shown}: Das Device-Plugin liest diesen Schlüssel nur als `{twin}` (genaue Schreibweise); so "
                "geschrieben wird er ignoriert").format(shown=shown, twin=case_twin), key_s, case_twin)
            return
        elsewhere = [p for p in KNOWN.get(key_s.lower(), []) if p.rsplit(".", 1)[0] != field_path(path[:-1])]
        if elsewhere:
            where = elsewhere[0]
            self.add("unknown", path, Text(
                "{shown}: the device plugin does not read `{key}` here, so it has no effect; it belongs under "
                "`{where}`", "{shown}: Das Device-Plugin liest `{key}` hier nicht, es bewirkt also nichts; der "
                "Schlüssel gehört unter `{where}`").format(shown=shown, key=key_s, where=where.rsplit(".", 1)[0]),
                key_s, where)
            return
        close = difflib.get_close_matches(key_s, known, n=1, cutoff=0.6) or difflib.get_close_matches(
            key_s.lower(), [k.lower() for k in known], n=1, cutoff=0.6)
        if close:
            match = next(k for k in known if k.lower() == close[0].lower())
            self.add("unknown", path, Text(
                "{shown}: the device plugin does not know `{key}` in {here} and ignores it; the key meant is probably "
                "`{match}`", "{shown}: Das Device-Plugin kennt `{key}` in {here} nicht und ignoriert es; gemeint ist "
                "wohl `{match}`")
                .format(shown=shown, key=key_s, here=here, match=match), key_s, match)
            return
        self.add("unknown", path, Text(
            "{shown}: the device plugin does not know `{key}` in {here} and ignores it (it reads: {known})",
            "{shown}: Das Device-Plugin kennt `{key}` in {here} nicht und ignoriert es (es liest: {known})")
            .format(shown=shown, key=key_s, here=here, known=", ".join(known)), key_s)

    def wrong_type(self, path: tuple, value, want: Text) -> None:
        self.add("type", path, Text(
            "{shown} is {found} ({value}), but the device plugin reads {want} here: it does not start with this "
            "configuration", "{shown} ist {found} ({value}), das Device-Plugin liest hier aber {want}: Mit dieser "
            "Konfiguration startet es nicht").format(shown=field_path(path), found=_type_words(value),
                                                     value=_show(value), want=want))

    def bad_value(self, path: tuple, value, allowed) -> None:
        self.add("value", path, Text(
            "{shown} is {value}; the device plugin accepts only {allowed} and does not start with this configuration",
            "{shown} ist {value}; das Device-Plugin akzeptiert nur {allowed} und startet mit dieser Konfiguration "
            "nicht").format(shown=field_path(path), value=_show(value), allowed=", ".join(allowed)),
            suggestion=_closest_allowed(value, allowed))

    # --- specs -------------------------------------------------------------------------------------------
    def check(self, spec, value, path: tuple) -> None:
        if yaml_type(value) == "unresolved":  # ${VAR} nobody resolved: its value is not known
            return
        if value is None:  # JSON null: Go leaves the field as it is (the replicated decoders see it below)
            if spec[0] == "replicated" and path[-1] == "timeSlicing":
                self.replicated(value, path)
            return
        kind = spec[0]
        if kind == "struct":
            if not isinstance(value, dict):
                self.wrong_type(path, value, Text("a mapping", "eine Zuordnung"))
                return
            fields, exact = spec[1], spec[2]
            lower = {k.lower(): k for k in fields}
            for key, sub in value.items():
                name = key if key in fields else (None if exact else lower.get(str(key).lower()))
                if name is None:
                    self.unknown(path + (key,), key, tuple(fields), exact)
                else:
                    self.check(fields[name], sub, path + (key,))
        elif kind == "list":
            if not isinstance(value, list):
                self.wrong_type(path, value, Text("a list", "eine Liste"))
                return
            for i, item in enumerate(value):
                self.check(spec[1], item, path + (i,))
        elif kind in ("bool", "str"):
            if yaml_type(value) != {"bool": "boolean", "str": "text"}[kind]:
                self.wrong_type(path, value, _WORDS[kind])
        elif kind == "int":
            if not _is_int(value):
                self.wrong_type(path, value, _WORDS["int"])
        elif kind == "duration":
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                self.wrong_type(path, value, _WORDS["duration"])
        elif kind == "enum":
            if not isinstance(value, str):
                self.wrong_type(path, value, _WORDS["str"])
            elif value not in spec[1] and not (path[-1] == "version" and value == ""):
                self.bad_value(path, value, spec[1])
        elif kind == "strlist-or-str":
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                self.wrong_type(path, value, Text("text or a list of texts", "Text oder eine Liste von Texten"))
            else:
                for i in items:
                    if i not in spec[1]:
                        self.bad_value(path, i, spec[1])
        elif kind == "replicated":
            self.replicated(value, path)
        elif kind == "resource":
            self.resource_name(value, path)

    def replicated(self, value, path: tuple) -> None:
        """sharing.timeSlicing / sharing.mps: exact keys; resources required and not empty."""
        if value is None:
            value = {}
        if not isinstance(value, dict):
            self.wrong_type(path, value, Text("a mapping", "eine Zuordnung"))
            return
        for key, sub in value.items():
            if key not in _REPLICATED_KEYS:
                self.unknown(path + (key,), key, _REPLICATED_KEYS, True)
        for key in ("renameByDefault", "failRequestsGreaterThanOne"):
            if key in value and value[key] is not None and yaml_type(value[key]) != "boolean":
                self.wrong_type(path + (key,), value[key], _WORDS["bool"])
        resources = value.get("resources")
        if resources is None or (isinstance(resources, list) and not resources):
            self.add("missing", path + ("resources",), Text(
                "{shown} has no resources: the device plugin refuses the configuration (\"no resources specified\")",
                "{shown} hat keine resources: Das Device-Plugin lehnt die Konfiguration ab („no resources "
                "specified“)").format(shown=field_path(path)))
            return
        if not isinstance(resources, list):
            self.wrong_type(path + ("resources",), resources, Text("a list", "eine Liste"))
            return
        for i, item in enumerate(resources):
            self.item(item, path + ("resources", i))

    def item(self, item, path: tuple) -> None:
        if not isinstance(item, dict):
            self.wrong_type(path, item, Text("a mapping with name and replicas", "eine Zuordnung mit name und replicas"))
            return
        for key in item:
            if key not in _ITEM_KEYS:
                self.unknown(path + (key,), key, _ITEM_KEYS, True)
        if "name" not in item:
            self.add("missing", path + ("name",), Text(
                "{shown} has no name: the device plugin refuses the configuration (\"no resource name specified\")",
                "{shown} hat keinen name: Das Device-Plugin lehnt die Konfiguration ab („no resource name "
                "specified“)").format(shown=field_path(path)))
        else:
            self.resource_name(item["name"], path + ("name",))
        if "devices" in item:
            self.devices(item["devices"], path + ("devices",))
        if "replicas" not in item:
            self.add("missing", path + ("replicas",), Text(
                "{shown} has no replicas: the device plugin refuses the configuration (\"no replicas specified\")",
                "{shown} hat keine replicas: Das Device-Plugin lehnt die Konfiguration ab („no replicas "
                "specified“)").format(shown=field_path(path)))
        # replicas' type and value: the rules CHK-005 (below 2) and the replicas facts
        if "rename" in item:
            self.add("unsupported", path + ("rename",), Text(
                "{shown}: the device plugin reads `rename` but then ignores it (\"not yet supported\"); the resource "
                "keeps its name (or gets .shared with renameByDefault)", "{shown}: Das Device-Plugin liest `rename`, "
                "ignoriert es dann aber („not yet supported“); die Ressource behält ihren Namen (oder erhält .shared "
                "mit renameByDefault)").format(shown=field_path(path + ("rename",))), "rename")
            self.resource_name(item["rename"], path + ("rename",))

    def resource_name(self, value, path: tuple) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            self.wrong_type(path, value, _WORDS["str"])
            return
        full = normalise_resource(value)
        name = full.split("/", 1)[1] if "/" in full else full
        if len(full) > _MAX_NAME or not _DNS1123.match(name) or len(name) > 253:
            self.add("value", path, Text(
                "{shown} is {value}, not a resource name the device plugin accepts (at most {n} characters, lower-case "
                "letters, digits, '-' and '.'): it does not start with this configuration",
                "{shown} ist {value}, kein Ressourcenname, den das Device-Plugin akzeptiert (höchstens {n} Zeichen, "
                "Kleinbuchstaben, Ziffern, '-' und '.'): Mit dieser Konfiguration startet es nicht")
                .format(shown=field_path(path), value=_show(value), n=_MAX_NAME))

    def devices(self, value, path: tuple) -> None:
        if value == "all":
            return
        ok = (_is_int(value) and value > 0) or (isinstance(value, list) and all(
            (_is_int(v) and v >= 0) or (isinstance(v, str) and _device_ref(v)) for v in value))
        if not ok:
            self.add("value", path, Text(
                "{shown} is {value}; the device plugin accepts \"all\", a count above 0 or a list of GPU indexes or "
                "UUIDs, and does not start with this configuration", "{shown} ist {value}; das Device-Plugin "
                "akzeptiert \"all\", eine Anzahl über 0 oder eine Liste von GPU-Indizes oder UUIDs und startet mit "
                "dieser Konfiguration nicht").format(shown=field_path(path), value=_show(value)))
            return
        self.add("unsupported", path, Text(
            "{shown}: the device plugin reads `devices` but then ignores it (\"not yet supported\"): every GPU is "
            "shared", "{shown}: Das Device-Plugin liest `devices`, ignoriert es dann aber („not yet supported“): "
            "Jede GPU wird geteilt").format(shown=field_path(path)), "devices")


def _is_int(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return -_GO_INT <= value < _GO_INT
    return isinstance(value, float) and value.is_integer() and abs(value) < 2**53


_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_DEVICE_REF = re.compile(rf"^(\d+|\d+:\d+|GPU-{_UUID}|MIG-{_UUID}|MIG-GPU-{_UUID}/\d+/\d+)$")


def _device_ref(text: str) -> bool:
    return bool(_DEVICE_REF.match(text))


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    text = repr(value) if not isinstance(value, (dict, list)) else ("{…}" if isinstance(value, dict) else "[…]")
    return text if len(text) <= 40 else text[:37] + "…"


def normalise_resource(name: str) -> str:
    """A resource name as the plugin advertises it: without a domain, nvidia.com/ is put in front."""
    return name if name.startswith("nvidia.com/") else "nvidia.com/" + name


def validate(data) -> list[SchemaProblem]:
    v = _Validator()
    if not isinstance(data, dict):
        v.wrong_type((), data, Text("a mapping with version, flags and sharing", "eine Zuordnung mit version, flags und sharing"))
        return v.problems
    v.check(CONFIG, data, ())
    top = data.get("resources")
    if isinstance(top, dict) and (top.get("gpus") or top.get("mig")):
        v.add("unsupported", ("resources",), Text(
            "resources: the device plugin reads the top-level `resources` but ignores it (\"Customizing the "
            "'resources' field is not yet supported\")", "resources: Das Device-Plugin liest `resources` auf oberster "
            "Ebene, ignoriert es aber („Customizing the 'resources' field is not yet supported“)"), "resources")
    ids = data.get("imex", {}).get("channelIDs") if isinstance(data.get("imex"), dict) else None
    if isinstance(ids, list) and all(_is_int(i) for i in ids) and ids not in ([], [0]):
        v.bad_value(("imex", "channelIDs"), ids, ["[]", "[0]"])
    return v.problems
