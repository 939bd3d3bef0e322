"""The human report of `gpukb check`: grouped by file, most severe first, sources as numbered footnotes.

Every line passes through kb.terminal.safe: names, paths and messages from the input cannot write control
sequences to the terminal (an ESC in a ConfigMap name is shown as \\x1b).
"""

from __future__ import annotations

from kb.terminal import safe
from kb.text import Text
from kb.wording import quoted, section_text, title_text

SEVERITY = {"error": Text("error", "Fehler"), "warning": Text("warning", "Warnung"), "info": Text("info", "Hinweis")}
W = {
    "doc": Text("doc", "Dok."), "line": Text("line", "Zeile"), "sources": Text("Sources", "Quellen"),
    "ignored": Text("Not checked", "Nicht geprüft"), "not_read": Text("Not read", "Nicht gelesen"),
    "result": Text("Result", "Ergebnis"),
    "none": Text("No findings.", "Keine Befunde."),
    "nothing": Text("Nothing in the input is a GPU Operator object or configuration that gpukb checks.",
                    "Nichts in der Eingabe ist ein GPU-Operator-Objekt oder eine Konfiguration, die gpukb prüft."),
    "no_kind": Text("(no kind)", "(ohne kind)"),
    "same": Text("Same for {n} more: {names}", "Ebenso bei {n} weiteren: {names}"),
    "folded": Text("Follows from this ({n}):", "Folgt daraus ({n}):"),
    "more": Text("Also:", "Außerdem:"),
    "quiet": (Text("{n} note hidden (--quiet)", "{n} Hinweis ausgeblendet (--quiet)"),
              Text("{n} notes hidden (--quiet)", "{n} Hinweise ausgeblendet (--quiet)")),
    "fix": Text("Fix:", "Behebung:"),
    "same_fix": Text("Fix: as for {rule} above (line {line}).", "Behebung: wie bei {rule} oben (Zeile {line})."),
    "builds": Text("In kustomize build of: {b}", "In kustomize build von: {b}"),
    "patches": Text("Set by a Kustomize patch of the object in {f}", "Gesetzt durch einen Kustomize-Patch des Objekts "
                    "in {f}"),
    "operator_unknown": Text("The input installs GPU Operator {v}, a release gpukb has no data for: what depends on "
                             "the release was checked as for an unknown release.",
                             "Die Eingabe installiert GPU Operator {v}, ein Release, zu dem gpukb keine Daten hat: "
                             "Was vom Release abhängt, wurde wie bei einem unbekannten Release geprüft."),
    "separate": Text("Checked file by file: {n} files each hold a whole GPU Operator configuration ({names}), and a "
                     "cluster has only one — objects of different files were not checked against each other.",
                     "Datei für Datei geprüft: {n} Dateien enthalten je eine vollständige GPU-Operator-Konfiguration "
                     "({names}), ein Cluster hat aber nur eine – Objekte verschiedener Dateien wurden nicht "
                     "miteinander abgeglichen."),
    "skipped": (Text("{n} other file in {folder} holds nothing gpukb reads", "{n} weitere Datei in {folder} "
                     "enthält nichts, was gpukb liest"),
                Text("{n} other files in {folder} hold nothing gpukb reads", "{n} weitere Dateien in {folder} "
                     "enthalten nichts, was gpukb liest")),
    "substituted": Text("Read with Flux substitutions", "Mit Flux-Ersetzungen gelesen"),
    "kustomize": Text("Kustomize", "Kustomize"),
    "node_configs": Text("Device-plugin configuration per node", "Device-Plugin-Konfiguration je Node"),
    "by_label": Text("by its label", "per Label"), "by_default": Text("the default", "der Standard"),
    "no_config": Text("none (the plugin's defaults)", "keine (Standard des Plugins)"),
    "nodes": (Text("{n} node", "{n} Node"), Text("{n} nodes", "{n} Nodes")),
    # the result line's counts, singular and plural
    "errors": (Text("{n} error", "{n} Fehler"), Text("{n} errors", "{n} Fehler")),
    "warnings": (Text("{n} warning", "{n} Warnung"), Text("{n} warnings", "{n} Warnungen")),
    "infos": (Text("{n} note", "{n} Hinweis"), Text("{n} notes", "{n} Hinweise")),
    "checked": (Text("{n} object checked", "{n} Objekt geprüft"), Text("{n} objects checked", "{n} Objekte geprüft")),
    "files": (Text("{n} file", "{n} Datei"), Text("{n} files", "{n} Dateien")),
    "default": Text("the default written in the file", "der in der Datei geschriebene Standard"),
    "given": Text("from the Flux Kustomization", "aus der Flux-Kustomization"),
}



def counted(key: str, n: int, lang: str, **values) -> str:
    """A count with its noun in singular or plural ("1 warning", "2 Warnungen"; never "Warnung(en)")."""
    one, many = W[key]
    return (one if n == 1 else many).format(n=n, **values)(lang)

def _cite_text(c: dict, lang: str) -> str:
    """One source line: title, place (in the reader's words) and NVIDIA's quote in the language's quotation marks
    („…“ / “…”) — kb.wording, as the site and `ask` cite."""
    parts = [title_text(c.get("title") or c["source"], lang)]
    if c.get("section"):
        parts.append(section_text(c["section"], lang))
    text = ", ".join(parts) + ": " + quoted(c["quote"], lang)
    return text + (f" <{c['url']}>" if c.get("url") else "")


def _place(where: dict, lang: str) -> str:
    place = [f"{W['doc'](lang)} {where['document']}"]
    if where.get("line"):
        place.append(f"{W['line'](lang)} {where['line']}")
    if where.get("path"):
        place.append(where["path"])
    return ", ".join(place)


def render(report: dict, lang: str = "en") -> str:
    """`report` is Report.as_json(): {"findings": [...], "summary": {...}}."""
    findings, summary = report["findings"], report["summary"]
    notes: list[str] = []
    lines: list[str] = []
    current = None
    fixes: dict = {}  # a fix already shown (the same corrected configuration for two findings) → that finding
    for f in findings:
        if f["where"]["file"] != current:
            current = f["where"]["file"]
            if lines:
                lines.append("")
            lines.append(current or "-")
        marks = []
        for c in f["citations"]:
            text = _cite_text(c, lang)
            if text not in notes:
                notes.append(text)
            marks.append(f"[{notes.index(text) + 1}]")
        lines.append(f"  {SEVERITY[f['severity']](lang)} {f['rule']}: {f['title']} ({_place(f['where'], lang)})")
        lines.append(f"    {f['message']}" + (" " + "".join(marks) if marks else ""))
        for more in f.get("more", []):
            lines.append(f"    {W['more'](lang)} {more}")
        base = f["where"].get("patches")
        if base:
            lines.append("    " + W["patches"].format(f=f"{base['file']}:{base['line']}" if base.get("line")
                                                    else base["file"])(lang))
        if f.get("builds"):
            lines.append("    " + W["builds"].format(b=", ".join(f["builds"]))(lang))
        if f.get("fix") and (f["where"]["file"], f["fix"]) in fixes:
            first = fixes[(f["where"]["file"], f["fix"])]
            lines.append("    " + W["same_fix"].format(rule=first["rule"], line=first["where"].get("line") or "?")(lang))
        elif f.get("fix"):
            fixes[(f["where"]["file"], f["fix"])] = f
            lines.append(f"    {W['fix'](lang)}")
            lines += [f"      {ln}" for ln in f["fix"].splitlines()]
        same = f.get("same_for")
        if same:
            names = ", ".join(same["names"]) + (", …" if same["count"] > len(same["names"]) else "")
            lines.append("    " + W["same"].format(n=same["count"], names=names)(lang))
        if f.get("folded"):
            lines.append("    " + W["folded"].format(n=len(f["folded"]))(lang))
            for g in f["folded"]:
                lines.append(f"      {SEVERITY[g['severity']](lang)} {g['rule']}: {g['message']}")
    checked = sum(summary["checked"].values())
    if not findings:
        lines.append(W["none"](lang) if checked else W["nothing"](lang))
    if summary.get("hidden_infos"):
        lines.append(counted("quiet", summary["hidden_infos"], lang))
    if notes:
        lines += ["", W["sources"](lang)] + [f"  [{i}] {n}" for i, n in enumerate(notes, start=1)]
    if summary.get("not_read"):
        lines += ["", W["not_read"](lang)]
        for p in summary["not_read"]:
            where = f"{p['file']}:{p['line']}" if p.get("line") else p["file"]
            lines.append(f"  {where}: {p['path'] + ': ' if p.get('path') else ''}{p['message']}")
    if (summary.get("inputs") or {}).get("operator_unknown"):
        lines += ["", W["operator_unknown"].format(v=summary["inputs"]["operator_unknown"])(lang)]
    if summary.get("separate"):
        names = ", ".join(summary["separate"][:5]) + (", …" if len(summary["separate"]) > 5 else "")
        lines += ["", W["separate"].format(n=len(summary["separate"]), names=names)(lang)]
    if summary.get("node_configs"):
        lines += ["", W["node_configs"](lang)]
        for c in summary["node_configs"]:
            how = {"label": W["by_label"], "default": W["by_default"]}.get(c["source"])
            what = f"{c['config']} ({how(lang)})" if how else W["no_config"](lang)
            names = ", ".join(c["names"]) + (", …" if c["count"] > len(c["names"]) else "")
            lines.append(f"  {what}: {counted('nodes', c['count'], lang)} ({names})")
    if summary.get("kustomize"):
        lines += ["", W["kustomize"](lang)] + [f"  {n['file']}: {n['message']}" for n in summary["kustomize"]]
    if summary.get("substituted"):
        lines += ["", W["substituted"](lang)]
        for sub in summary["substituted"]:
            how = W["default"](lang) if sub["default"] else W["given"](lang)
            where = f"{sub['file']}:{','.join(map(str, sub['lines'][:5]))}"
            lines.append(f"  {where}: ${{{sub['variable']}}} = {sub['value']} ({how})")
    skipped = summary.get("skipped") or {}
    if summary["ignored"] or skipped:
        lines += ["", W["ignored"](lang)]
    for folder, n in skipped.items():
        lines.append("  " + counted("skipped", n, lang, folder=folder))
    if summary["ignored"]:
        for i in summary["ignored"]:
            kind = W["no_kind"](lang) if i["kind"] == "(no kind)" else i["kind"]
            if i["count"] == 1:
                what = kind + (f"/{i['names'][0]}" if i["names"] and i["names"][0] else "")
                lines.append(f"  {what} ({i['file']}, {W['doc'](lang)} {i['document']}): {i['reason']}")
            else:
                names = ", ".join(n for n in i["names"] if n) + (", …" if i["count"] > len(i["names"]) else "")
                lines.append(f"  {i['count']} × {kind}" + (f" ({names})" if names else "") + f": {i['reason']}")
    lines += ["", f"{W['result'](lang)}: {counted('errors', summary['errors'], lang)}, "
                  f"{counted('warnings', summary['warnings'], lang)}, {counted('infos', summary['infos'], lang)}; "
                  f"{counted('checked', checked, lang)}, {counted('files', len(summary['files']), lang)}"]
    return "\n".join(safe(line, keep_newlines=False) for line in lines)
