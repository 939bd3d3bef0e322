"""The human report of `gpukb check`: grouped by file, most severe first, sources as numbered footnotes."""

from __future__ import annotations

SEVERITY = {"en": {"error": "error", "warning": "warning", "info": "info"},
            "de": {"error": "Fehler", "warning": "Warnung", "info": "Hinweis"}}
WORDS = {
    "en": {"doc": "doc", "line": "line", "sources": "Sources", "ignored": "Not checked",
           "result": "Result", "errors": "error(s)", "warnings": "warning(s)", "infos": "note(s)",
           "checked": "object(s) checked", "files": "file(s)", "none": "No findings.",
           "nothing": "Nothing in the input is a GPU Operator object or configuration that gpukb checks.",
           "no_kind": "(no kind)"},
    "de": {"doc": "Dok.", "line": "Zeile", "sources": "Quellen", "ignored": "Nicht geprüft",
           "result": "Ergebnis", "errors": "Fehler", "warnings": "Warnung(en)", "infos": "Hinweis(e)",
           "checked": "Objekt(e) geprüft", "files": "Datei(en)", "none": "Keine Befunde.",
           "nothing": "Nichts in der Eingabe ist ein GPU-Operator-Objekt oder eine Konfiguration, die gpukb prüft.",
           "no_kind": "(ohne kind)"},
}


def _cite_text(c: dict) -> str:
    parts = [c.get("title") or c["source"]]
    if c.get("section"):
        parts.append(c["section"])
    text = ", ".join(parts) + f': "{c["quote"]}"'
    return text + (f" <{c['url']}>" if c.get("url") else "")


def render(report: dict, lang: str = "en") -> str:
    """`report` is Report.as_json(): {"findings": [...], "summary": {...}}."""
    w = WORDS[lang]
    findings, summary = report["findings"], report["summary"]
    notes: list[str] = []
    lines: list[str] = []
    current = None
    for f in findings:
        if f["where"]["file"] != current:
            current = f["where"]["file"]
            if lines:
                lines.append("")
            lines.append(current or "-")
        marks = []
        for c in f["citations"]:
            text = _cite_text(c)
            if text not in notes:
                notes.append(text)
            marks.append(f"[{notes.index(text) + 1}]")
        place = [f"{w['doc']} {f['where']['document']}"]
        if f["where"]["line"]:
            place.append(f"{w['line']} {f['where']['line']}")
        if f["where"]["path"]:
            place.append(f["where"]["path"])
        lines.append(f"  {SEVERITY[lang][f['severity']]} {f['rule']}: {f['title']} ({', '.join(place)})")
        lines.append(f"    {f['message']}" + (" " + "".join(marks) if marks else ""))
    if not findings:
        lines.append(w["none"] if sum(summary["checked"].values()) else w["nothing"])
    if notes:
        lines += ["", w["sources"]] + [f"  [{i}] {n}" for i, n in enumerate(notes, start=1)]
    if summary["ignored"]:
        lines += ["", w["ignored"]]
        for i in summary["ignored"]:
            kind = w["no_kind"] if i["kind"] == "(no kind)" else i["kind"]
            what = kind + (f"/{i['name']}" if i["name"] else "")
            lines.append(f"  {what} ({i['file']}, {w['doc']} {i['document']}): {i['reason']}")
    checked = sum(summary["checked"].values())
    lines += ["", f"{w['result']}: {summary['errors']} {w['errors']}, {summary['warnings']} {w['warnings']}, "
                  f"{summary['infos']} {w['infos']}; {checked} {w['checked']}, {len(summary['files'])} {w['files']}"]
    return "\n".join(lines)
