"""Every quote occurs in the local snapshot of its source (whitespace and markup normalised)."""

import datetime as dt

from kb.lint.snapshots import normalise, normalised_text, pick, snapshot_files
from kb.text import Text

CHECK = "quotes"
TITLE = "quotes present in local snapshots"


def check(ctx):
    sources = {s.id: s for s in ctx.catalog.sources.sources}
    problems = []
    if not ctx.shared.is_dir():
        return problems  # reported by the caller as "skipped", never as passed
    for _rel, doc, path, cit in ctx.citations():
        src = sources.get(cit.get("source"))
        if src is None or not src.snapshot:
            continue
        files = snapshot_files(ctx.shared, src.snapshot)
        pinned = cit.get("snapshot")
        if isinstance(pinned, str):
            pinned = dt.date.fromisoformat(pinned)
        target = pick(files, pinned)
        if target is None:
            have = ", ".join(str(d) for d in sorted(d for d in files if d))
            what = Text(f"snapshot of {pinned}", f"Schnappschuss vom {pinned}") if pinned else Text("any snapshot", "Schnappschuss")
            problems.append(ctx.problem(doc, path + ("snapshot" if pinned else "source",), Text(
                f"no {what.en} for source {src.id!r} ({src.snapshot}; have: {have or 'none'})",
                f"kein {what.de} der Quelle {src.id!r} ({src.snapshot}; vorhanden: {have or 'keiner'})"), CHECK))
            continue
        quote = normalise(str(cit.get("quote", "")))
        if quote and quote not in normalised_text(target):
            short = quote if len(quote) <= 70 else quote[:67] + "..."
            problems.append(ctx.problem(doc, path + ("quote",), Text(f"quote not found in {target.name}: {short!r}",
                                                                     f"Zitat nicht in {target.name} gefunden: {short!r}"),
                                        CHECK))
    return problems
