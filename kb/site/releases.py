"""What changed in each release of the GPU Operator, the device plugin, the DRA driver and the other components."""

from __future__ import annotations

from kb.catalog.facts import FactError
from kb.questions import words
from kb.questions.known_issues import ranges_text
from kb.site.labels import date
from kb.site.md import code, esc, table
from kb.site.page import Ctx
from kb.text import Text

#: component names as NVIDIA's component matrix (GPU Operator life-cycle policy) writes them, for components
#: the catalog has no releases file of its own (where it has one, that file's `name` is used)
MATRIX_NAMES = {k: v for k, v in words.COMPONENT.items() if k not in ("gpu-operator", "dra-driver")}

ORDER = ["gpu-operator", "device-plugin", "mig-manager", "dra-driver", "container-toolkit", "driver",
         "dcgm-exporter", "gpu-feature-discovery", "node-feature-discovery"]


def _release(ctx: Ctx, comp: str, rel: dict, names: dict) -> list[str]:
    e = f"releases/{comp}"
    base = f"releases[{rel['version']}]"
    head = f"### {rel['version']}"
    if rel.get("date"):
        refs = ctx.notes.refs(rel["date"]["cite"], e, f"{base}.date")
        head += f" ({date(rel['date']['value'], ctx.lang)}{refs})"
    out = [head, ""]
    for ch in rel.get("changes", []):
        refs = ctx.notes.refs(ch["cite"], e, f"{base}.changes[{ch['id']}]")
        out.append(f"- {ctx.pick(ch['text'])}{refs}")
    if rel.get("components"):
        parts = [(esc(names[c["component"]]) if c["component"] in names else code(c["component"])) + " " + code(c["version"])
                 + ctx.notes.refs(c["cite"], e, f"{base}.components[{c['component']}]") for c in rel["components"]]
        out.append(f"- {Text('Ships', 'Enthält')(ctx.lang)}: " + ", ".join(parts))
    if len(out) == 2:
        out.append(Text("- No change that concerns GPU sharing.", "- Keine Änderung, die das Teilen von GPUs betrifft.")(ctx.lang))
    return out + [""]


def releases_page(ctx: Ctx) -> str:
    data = ctx.data
    comps = sorted(data["releases"], key=lambda c: ORDER.index(c))
    names = {**MATRIX_NAMES, **{c: data["releases"][c]["name"] for c in comps}}
    files = [data["files"][f"releases/{c}"] for c in comps]
    out = [f"# {Text('What changed in each release', 'Was sich in welchem Release geändert hat')(ctx.lang)}", "",
           ctx.header(files), ""]
    for comp in comps:
        rf = data["releases"][comp]
        out += [f"## {esc(rf['name'])}", ""]
        if rf.get("features"):
            rows = [[ctx.pick(f["text"]) + ctx.notes.refs(f["cite"], f"releases/{comp}", f"features[{f['id']}]"),
                     code(f["since"]) if f.get("since") else "—", code(f["until"]) if f.get("until") else "—"]
                    for f in rf["features"]]
            out += [table([Text("Behaviour", "Verhalten")(ctx.lang), Text("from release", "ab Release")(ctx.lang),
                           Text("until before release", "bis vor Release")(ctx.lang)], rows), ""]
        if rf.get("known_issues"):
            out += _known_issues(ctx, comp, rf["known_issues"], names)
        for rel in rf["releases"]:
            out += _release(ctx, comp, rel, names)
    return "\n".join(out).rstrip("\n") + ctx.footer()


def _known_issues(ctx: Ctx, comp: str, issues: list[dict], names: dict) -> list[str]:
    """The known issues NVIDIA documents for this component's releases (or for a component it ships, such as the
    driver): what happens, which versions, which fix them, what to do — the texts `gpukb check` and the answers use
    (`ctx.pick` gives them escaped for Markdown)."""
    rows = []
    for issue in issues:
        what = ctx.pick(issue["text"]) + (" " + ctx.pick(issue["note"]) if issue.get("note") else "")
        which = names.get(issue["component"], issue["component"])
        ranges = ranges_text(issue["affects"], code)
        rows.append([what + ctx.notes.refs(issue["cite"], f"releases/{comp}", f"known_issues[{issue['id']}]"),
                     f"{esc(which)} {ranges}", ", ".join(code(v) for v in issue.get("fixed_in", [])) or "—",
                     ctx.pick(issue["workaround"])])
    return [f"### {Text('Known issues', 'Bekannte Probleme')(ctx.lang)}", "",
            table([Text("What happens", "Was geschieht")(ctx.lang), Text("Affected", "Betroffen")(ctx.lang),
                   Text("Fixed in", "Behoben in")(ctx.lang), Text("What to do", "Was zu tun ist")(ctx.lang)], rows), ""]


def operator_components_table(ctx: Ctx) -> str:
    """What the newest GPU Operator release installs, with versions (a table for the guide)."""
    rf = ctx.data["releases"].get("gpu-operator")
    if not rf:
        raise FactError("releases/gpu-operator: the catalog has no GPU Operator releases")
    rel = rf["releases"][0]
    if not rel.get("components"):
        raise FactError(f"releases/gpu-operator releases[{rel['version']}].components: none listed")
    names = {**MATRIX_NAMES, **{c: f["name"] for c, f in ctx.data["releases"].items()}}
    rows = []
    for c in rel["components"]:
        refs = ctx.notes.refs(c["cite"], "releases/gpu-operator", f"releases[{rel['version']}].components[{c['component']}]")
        rows.append([esc(names[c["component"]]) if c["component"] in names else code(c["component"]), code(c["version"]) + refs])
    return table([Text(f"Component in GPU Operator {rel['version']}", f"Komponente in GPU Operator {rel['version']}")(ctx.lang),
                  Text("Version", "Version")(ctx.lang)], rows)
