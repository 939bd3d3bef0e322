"""Version-bound behaviour of the components a GPU Operator release ships, as facts the rules read.

The data (no versions are written in code):
- which component version an operator release ships: `components` of that release in
  catalog/releases/gpu-operator.yaml. The release notes list the components a release *updates*; a
  release that does not list a component ships the version of the nearest older release that lists it
  (`inherited_from` says which). Where no older release lists it, the version is unknown — never guessed.
- what a component does from which of its versions on: the `features` statements of
  catalog/releases/<component>.yaml with `since` (first version that behaves so) and `until` (first
  version that no longer does).

    component_version(data, "26.3.3", "device-plugin") -> ("0.19.3", "26.3.3")
    facts(data, "26.3.3")  -> [{"kind": "behaviour", "component": "device-plugin",
                               "statement": "mig-suffix-profiles-as-resources",
                               "version": "0.19.3",
                               "status": "not-yet", "since": "0.20.0", …}, …]

`status` is `holds` (the shipped version is in [since, until)), `not-yet` (older than since),
`no-longer` (at or past until) or `unknown` (the catalog does not record which version the release ships).
"""

from __future__ import annotations

from kb import versions

#: the operator release file whose `components` say which versions each release ships
OPERATOR = "gpu-operator"


_DERIVED: dict = {}


def _derived(data: dict) -> dict:
    """A memo of what is derived from the catalog's releases, kept per releases object (the object is held,
    so its id cannot be reused by another catalog while the memo lives)."""
    releases = data["releases"]
    entry = _DERIVED.get(id(releases))
    if entry is None or entry[0] is not releases:
        if len(_DERIVED) > 64:
            _DERIVED.clear()
        entry = _DERIVED[id(releases)] = (releases, {})
    return entry[1]


def _releases_newest_first(data: dict) -> list[dict]:
    memo = _derived(data)
    if "newest_first" not in memo:
        releases = data["releases"].get(OPERATOR, {}).get("releases", [])
        memo["newest_first"] = sorted(releases, key=lambda r: versions.key(r["version"]), reverse=True)
    return memo["newest_first"]


def component_version(data: dict, operator: str, component: str) -> tuple[str | None, str | None]:
    """(version of `component` that GPU Operator `operator` ships, the operator release whose notes list it);
    (None, None) where neither this release nor an older one lists the component."""
    wanted = versions.key(operator)
    for release in _releases_newest_first(data):
        if versions.key(release["version"]) > wanted:
            continue
        for item in release.get("components", []):
            if item["component"] == component:
                return item["version"], release["version"]
    return None, None


def first_operator_shipping(data: dict, component: str, since: str) -> str | None:
    """The oldest GPU Operator release that ships `component` at version `since` or later; None where none does."""
    releases = sorted((r["version"] for r in data["releases"].get("gpu-operator", {}).get("releases", [])),
                      key=versions.key)
    return next((op for op in releases if (v := component_version(data, op, component)[0]) is not None
                 and versions.key(v) >= versions.key(since)), None)


def status(version: str | None, since: str | None, until: str | None) -> str:
    """holds | not-yet | no-longer | unknown for a statement valid in [since, until) at `version`."""
    if version is None:
        return "unknown"
    if since is not None and versions.key(version) < versions.key(since):
        return "not-yet"
    if until is not None and versions.key(version) >= versions.key(until):
        return "no-longer"
    return "holds"


def versioned_statements(data: dict) -> list[tuple[str, dict]]:
    """(component, statement) for every feature statement bound to versions (since or until) of a
    component other than the operator itself."""
    out = []
    for component, file in sorted(data["releases"].items()):
        if component == OPERATOR:
            continue
        for statement in file.get("features", []):
            if statement.get("since") or statement.get("until"):
                out.append((component, statement))
    return out


def facts(data: dict, operator: str) -> list[dict]:
    """One `behaviour` fact per version-bound statement of a component the operator release ships: facts built once
    per catalog and release (every question about a release asks for them), shared and read-only
    (kb.engine.SharedFact: the engine checks and projects each once per call), in a list of their own."""
    memo = _derived(data)
    found = memo.get(("facts", operator))
    if found is None:
        from kb.engine import SharedFact

        found = memo["facts", operator] = [SharedFact(f) for f in _facts(data, operator)]
    return list(found)


def _facts(data: dict, operator: str) -> list[dict]:
    out = []
    shipped: dict[str, tuple] = {}
    for component, statement in versioned_statements(data):
        if component not in shipped:
            shipped[component] = component_version(data, operator, component)
        version, listed_in = shipped[component]
        fact = {"kind": "behaviour", "component": component, "statement": statement["id"], "operator": operator,
                "version": version or "unknown",
                "status": status(version, statement.get("since"), statement.get("until"))}
        if listed_in and versions.key(listed_in) != versions.key(operator):
            fact["inherited_from"] = listed_in
        for bound in ("since", "until"):
            if statement.get(bound):
                fact[bound] = statement[bound]
        out.append(fact)
    return out


#: the device plugin's statement on MPS sharing (read by the methods and resource facts)
MPS_SHARING = ("device-plugin", "mps-sharing")


def status_of(shipped: list[dict], component: str, statement_id: str) -> str:
    """The status of one statement among the behaviour facts of a release; `unknown` where the catalog has no
    such statement (a reduced catalog)."""
    return next((f["status"] for f in shipped if (f["component"], f["statement"]) == (component, statement_id)),
                "unknown")


def holds(data: dict, operator: str, component: str, statement_id: str) -> str:
    """The status of one statement for an operator release (holds | not-yet | no-longer | unknown)."""
    for fact in facts(data, operator):
        if fact["component"] == component and fact["statement"] == statement_id:
            return fact["status"]
    raise KeyError(f"releases/{component} has no version-bound feature {statement_id!r}")


# ------------------------------------------------------------------------ MIG layouts of an operator release

#: the operator feature from whose release on the MIG Manager generates its layouts from the GPUs it finds
GENERATED_MIG_CONFIG = "dynamic-mig-config"


def release_feature(data: dict, component: str, feature_id: str) -> dict | None:
    """The statement `feature_id` of `features` in catalog/releases/<component>.yaml; None where it has none."""
    return next((f for f in data.get("releases", {}).get(component, {}).get("features", []) if f.get("id") == feature_id),
                None)


def _operator_feature_since(data: dict, statement_id: str) -> str | None:
    return (release_feature(data, OPERATOR, statement_id) or {}).get("since")


def mig_devices(data: dict, operator: str) -> list[str] | None:
    """The PCI device ids the default MIG configuration of GPU Operator `operator` has layouts for (`mig_devices`
    of that release or the nearest older one recording them); None where no release up to it records them."""
    wanted = versions.key(operator)
    for release in _releases_newest_first(data):
        if versions.key(release["version"]) <= wanted and release.get("mig_devices"):
            return release["mig_devices"]["value"]
    return None


def mig_layouts(data: dict, operator: str, device_ids: list[str]) -> dict:
    """Whether the MIG Manager of GPU Operator `operator` has layouts of its own for a card with these PCI device
    ids: {"status": generated | covered | missing | unknown, "first_release": the first catalog release that has
    them or generates them}. `generated`: the release builds its layouts from the GPUs it finds; `unknown`: the
    card's device id or the release's layouts are not recorded."""
    memo = _derived(data)
    key = ("mig_layouts", operator, tuple(device_ids))
    if key not in memo:
        memo[key] = _mig_layouts(data, operator, device_ids)
    return dict(memo[key])


def _mig_layouts(data: dict, operator: str, device_ids: list[str]) -> dict:
    wanted = {i.lower() for i in device_ids}
    since = _operator_feature_since(data, GENERATED_MIG_CONFIG)
    ordered = sorted((r["version"] for r in data["releases"].get(OPERATOR, {}).get("releases", [])), key=versions.key)
    first = next((v for v in ordered if wanted & {i.lower() for i in mig_devices(data, v) or ()}), None)
    if since and (first is None or versions.key(first) > versions.key(since)):
        first = since
    out = {"first_release": first or "unknown"}
    if since and versions.key(operator) >= versions.key(since):
        return {**out, "status": "generated"}
    have = mig_devices(data, operator)
    if have is None or not wanted:
        return {**out, "status": "unknown"}
    return {**out, "status": "covered" if wanted & {i.lower() for i in have} else "missing"}
