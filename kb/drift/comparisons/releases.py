"""Release lists (GPU Operator release notes, CHANGELOGs) against the releases file that names the source.

A release newer than the catalog's newest is drift, and so is a catalog release the document does not
list. For releases in both, the component versions the document lists (release notes only: the items of
the component list, and the driver marked "(default)" where the list names none) must equal the catalog's
`components` of that release that cite the document — as the notes write them (`written`, where the
chart at the release tag deploys another version). Components the catalog takes from the chart alone are
not the document's.
"""

from __future__ import annotations

from kb.drift.compare import Change, component_name
from kb.text import Text
from kb.versions import key as version_key


def compare(source: dict, extracted: dict, data: dict) -> list[Change]:
    out: list[Change] = []
    for component, rfile in sorted(data.get("releases", {}).items()):
        if rfile.get("source") == source["id"]:
            out += _compare_file(source["id"], f"releases/{component}", rfile, extracted, data)
    return out


def _compare_file(sid: str, entity: str, rfile: dict, extracted: dict, data: dict) -> list[Change]:
    listed = {r["version"]: r for r in extracted["releases"] if not r.get("prerelease")}
    ours = {r["version"]: (i, r) for i, r in enumerate(rfile["releases"])}
    newest = max(ours, key=version_key)
    name = rfile.get("name", entity)
    out = []
    for version in sorted(listed, key=version_key, reverse=True):
        if version_key(version) > version_key(newest):
            out.append(Change(sid, "release-newer", Text(
                f"the document lists {name} {version}, newer than the newest in our data ({newest})",
                f"Das Dokument nennt {name} {version}, neuer als das neueste in unseren Daten ({newest})"),
                touches=[f"{entity} releases"], details={"draft": _draft(sid, listed[version], rfile)}))
    # a release the catalog knows from another document only (cited, but not by this one) is not this one's
    missing = [(v, i) for v, (i, rel) in sorted(ours.items(), key=lambda kv: version_key(kv[0]), reverse=True)
               if v not in listed and (not rel.get("cite") or any(c.get("source") == sid for c in rel["cite"]))]
    if missing:
        shown = ", ".join(v for v, _ in missing)
        out.append(Change(sid, "release-missing", Text(
            f"the document does not list {name} {shown}, which our data have (newest there: {extracted['newest']})",
            f"Das Dokument nennt {name} {shown} nicht, unsere Daten aber schon (neuestes dort: {extracted['newest']})"),
            touches=[f"{entity} releases[{i}]" for _, i in missing]))
    for version, (i, rel) in ours.items():
        if version in listed and "components" in listed[version]:
            out += _components(sid, entity, i, rel, _listed_components(listed[version]), data, name)
    return out


def _listed_components(release: dict) -> list[dict]:
    """The release's component list, plus the driver marked "(default)" where the list names no driver."""
    out = [c for c in release["components"] if c["component"]]
    if not any(c["component"] == "driver" for c in out):
        out += [{"component": "driver", "version": d["version"]} for d in release.get("drivers", []) if d["default"]][:1]
    return out


def _components(sid: str, entity: str, i: int, rel: dict, theirs: list[dict], data: dict, name: str) -> list[Change]:
    """Component versions of one release: the document's list against the catalog's."""
    doc = {c["component"]: c for c in theirs if c["component"]}
    ours = {c["component"]: (k, {**c, "version": c.get("written") or c["version"]})
            for k, c in enumerate(rel.get("components", []))
            if any(cit.get("source") == sid for cit in c.get("cite", []))}
    version = f"{name} {rel['version']}"  # the release the components belong to, by name ("NVIDIA GPU Operator 26.7.0")
    out = []
    for comp in sorted(set(doc) | set(ours)):
        shown = component_name(data, comp)
        if comp in doc and comp in ours:
            k, mine = ours[comp]
            if mine["version"] != doc[comp]["version"]:
                out.append(Change(sid, "component-changed", Text(
                    f"the document lists {shown} {doc[comp]['version']} for {version} (our data: {mine['version']})",
                    f"Das Dokument nennt {shown} {doc[comp]['version']} für {version} (unsere Daten: {mine['version']})"),
                    touches=[f"{entity} releases[{i}].components[{k}]"],
                    patch=[{"entity": entity,
                            "path": ["releases", i, "components", k, "written" if "written" in rel["components"][k] else "version"],
                            "value": doc[comp]["version"]}]))
        elif comp in doc:
            out.append(Change(sid, "component-added", Text(
                f"the document lists {shown} {doc[comp]['version']} for {version}; our data on {version} do not",
                f"Das Dokument nennt {shown} {doc[comp]['version']} für {version}; unsere Daten zu {version} nicht"),
                touches=[f"{entity} releases[{i}].components"]))
        else:
            k, mine = ours[comp]
            out.append(Change(sid, "component-removed", Text(
                f"the document no longer lists {shown} {mine['version']} for {version}",
                f"Das Dokument nennt {shown} {mine['version']} für {version} nicht mehr"),
                touches=[f"{entity} releases[{i}].components[{k}]"]))
    return out


def _draft(sid: str, release: dict, rfile: dict) -> dict:
    """The catalog entry the import drafts for a release the document lists and the catalog does not
    (kb.importer.releases): components with citations (release notes), or the heading (a CHANGELOG)."""
    from kb.importer import releases as importer

    if "components" in release:
        entry = {"version": release["version"]}
        components = importer.components_from_notes(sid, release)
        if components:
            entry["components"] = components
        return entry
    heading = f"v{release['version']}"
    return {"version": release["version"], "cite": [{"source": sid, "section": heading, "quote": heading}]}
