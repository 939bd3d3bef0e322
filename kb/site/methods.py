"""Method pages: isolation properties of each sharing method, workload fit, and DRA capability maturity."""

from __future__ import annotations

from kb.catalog.facts import FactError
from kb.questions import words
from kb.site.md import code, table
from kb.site.page import Ctx
from kb.text import Text

METHOD_ORDER = ["whole", "mig", "time-slicing", "mps", "vm-passthrough", "vgpu", "dra"]
WORKLOADS = ["training", "large-model", "multi-tenant", "small-inference", "dev"]
#: the isolation facts of a method with their labels
ISOLATION = [("memory", Text("Memory isolation", "Speicherisolierung")),
             ("fault", Text("Fault isolation", "Fehlerisolierung")),
             ("compute", Text("Compute guaranteed", "Rechenleistung garantiert"))]
#: cited lists of a method's section: (field, the key naming an item, whether the item shows it, its text,
#: heading)
LISTS = [("resource_names", "name", True, "when", Text("Resource names", "Ressourcennamen")),
         ("config_keys", "key", True, "text", Text("Settings", "Einstellungen")),
         ("limits", "id", False, "text", Text("Limits and caveats", "Grenzen und Vorbehalte"))]


def ordered(methods: dict) -> list[tuple[str, dict]]:
    """Methods in the guide's order: whole GPUs, MIG, time-slicing, MPS, VMs, DRA."""
    return sorted(methods.items(), key=lambda kv: METHOD_ORDER.index(kv[0]))


def properties_table(ctx: Ctx) -> str:
    """Memory, fault and compute isolation and neighbour risk of every method (also a table for the guide);
    the values' notes and what one unit is are on each method's section of the methods page."""
    rows = []
    for mid, m in ordered(ctx.data["methods"]):
        rows.append([ctx.pick(m["name"]),
                     *(ctx.fact(f"methods/{mid}", f"isolation.{key}", note=False) for key, _ in ISOLATION),
                     ctx.pick(m["neighbour_risk"])])
    headers = [Text("Method", "Methode")(ctx.lang), *(label(ctx.lang) for _, label in ISOLATION),
               Text("What a pod can do to its neighbours", "Was ein Pod den Nachbarn antun kann")(ctx.lang)]
    return table(headers, rows)


def suitability_table(ctx: Ctx) -> str:
    """Per workload, the methods that suit it best first (1 = first choice; equal ranks share a number),
    each with why, cited. The workload is named on its first row."""
    rows = []
    for w in WORKLOADS:
        fits = sorted(((s["rank"], METHOD_ORDER.index(mid), mid, s) for mid, m in ctx.data["methods"].items()
                       for s in m.get("suited_for", []) if s["workload"] == w))
        for i, (rank, _, mid, s) in enumerate(fits):
            refs = ctx.notes.refs(s["cite"], f"methods/{mid}", f"suited_for[{w}]")
            rows.append([f"**{words.word(words.WORKLOAD, w, ctx.lang)}**" if i == 0 else "", str(rank),
                         ctx.pick(ctx.data["methods"][mid]["name"]), ctx.pick(s["text"]) + refs])
    return table([Text("Workload", "Workload")(ctx.lang), Text("Rank", "Rang")(ctx.lang), Text("Method", "Methode")(ctx.lang),
                  Text("Why", "Warum")(ctx.lang)], rows)


def _method_section(ctx: Ctx, mid: str, m: dict) -> list[str]:
    e = f"methods/{mid}"
    out = [f"## {ctx.pick(m['name'])}", "", ctx.pick(m["summary"]), "",
           f"- {Text('One unit', 'Eine Einheit')(ctx.lang)}: {ctx.pick(m['unit'])}",
           *(f"- {label(ctx.lang)}: {ctx.fact(e, f'isolation.{key}')}" for key, label in ISOLATION), ""]
    for field, key, shown, text, heading in LISTS:
        if m.get(field):
            out += [f"**{heading(ctx.lang)}**", ""]
            for item in m[field]:
                refs = ctx.notes.refs(item["cite"], e, f"{field}[{item[key]}]")
                out.append(f"- {code(item[key]) + ': ' if shown else ''}{ctx.pick(item[text])}{refs}")
            out.append("")
    return out


def methods_page(ctx: Ctx) -> str:
    files = [ctx.data["files"][f"methods/{mid}"] for mid, _ in ordered(ctx.data["methods"])]
    out = [f"# {Text('Properties of the methods', 'Eigenschaften der Methoden')(ctx.lang)}", "", ctx.header(files), "",
           properties_table(ctx), "", f"## {Text('Which method suits which workload', 'Wofür sich welche Methode eignet')(ctx.lang)}",
           "", Text("1 is the first choice for the workload.", "1 ist die erste Wahl für den Workload.")(ctx.lang), "",
           suitability_table(ctx), ""]
    for mid, m in ordered(ctx.data["methods"]):
        out += _method_section(ctx, mid, m)
    return "\n".join(out).rstrip("\n") + ctx.footer()


def dra_capabilities_table(ctx: Ctx) -> str:
    """Capabilities of the DRA method with their maturity (also a table for the guide)."""
    m = ctx.data["methods"].get("dra")
    if not m or not m.get("capabilities"):
        raise FactError("methods/dra capabilities: the catalog lists no DRA capabilities")
    rows = []
    for cap in m["capabilities"]:
        name = words.capital(words.word(words.DRA_FEATURE, cap["id"], ctx.lang))
        rows.append([name, ctx.fact("methods/dra", f"capabilities[{cap['id']}].maturity"),
                     code(cap["since"]) if cap.get("since") else "—"])
    return table([Text("Capability", "Funktion")(ctx.lang), Text("Maturity", "Reife")(ctx.lang),
                  Text("Since driver release", "Seit Treiber-Release")(ctx.lang)], rows)


def dra_page(ctx: Ctx) -> str:
    """Maturity of each capability of the DRA driver, and its version requirements."""
    m = ctx.data["methods"].get("dra")
    if not m:
        raise FactError("methods/dra: the catalog has no DRA method")
    e = "methods/dra"
    out = [f"# {Text('DRA capability maturity', 'Reife der DRA-Funktionen')(ctx.lang)}", "",
           ctx.header([ctx.data["files"][e]]), "", dra_capabilities_table(ctx), ""]
    req = m.get("requirements") or {}
    labels = [("min_kubernetes", "Kubernetes mindestens", "Kubernetes at least"),
              ("min_driver", "NVIDIA-Treiber mindestens", "NVIDIA driver at least"),
              ("min_operator", "GPU Operator mindestens", "GPU Operator at least"),
              ("driver_version", "DRA-Treiber im neuesten GPU Operator", "DRA driver in the newest GPU Operator")]
    rows = [[Text(en, de)(ctx.lang), ctx.fact(e, f"requirements.{key}", code)] for key, de, en in labels if req.get(key)]
    if rows:
        out += [f"## {Text('Requirements', 'Voraussetzungen')(ctx.lang)}", "",
                table([Text("Requirement", "Voraussetzung")(ctx.lang), Text("Version", "Version")(ctx.lang)], rows), ""]
    return "\n".join(out).rstrip("\n") + ctx.footer()
