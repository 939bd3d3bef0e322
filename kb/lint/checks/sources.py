"""Every citation names a source that catalog/sources.yaml defines, with a non-empty quote; every watched
source backs something (a citation, or a releases/platform file that names it as its `source`) — a
watched document nothing rests on would always come out of the drift check as "unchanged"."""

from kb.text import Text

CHECK = "sources"
TITLE = "cited source ids exist"


def check(ctx):
    known = {s.id for s in ctx.catalog.sources.sources}
    problems = []
    for _rel, doc, path, cit in ctx.citations():
        source = cit.get("source")
        if source not in known:
            import difflib

            close = difflib.get_close_matches(str(source), sorted(known), n=1)
            hint = Text(f"; did you mean {close[0]!r}?", f"; meinten Sie {close[0]!r}?") if close else ""
            problems.append(ctx.problem(doc, path + ("source",),
                                        Text(f"unknown source {source!r}", f"unbekannte Quelle {source!r}") + hint, CHECK))
        if not str(cit.get("quote", "")).strip():
            problems.append(ctx.problem(doc, path + ("quote",), Text(
                "empty quote: every fact needs the source's words",
                "leeres Zitat: jeder Fakt braucht die Worte der Quelle"), CHECK))
    used = {cit.get("source") for _rel, _doc, _path, cit in ctx.citations()}
    used |= {rf.source for rf in ctx.catalog.releases.values()}
    platform = getattr(ctx.catalog, "platform", None)
    if platform is not None:
        used.add(platform.source)
    doc = ctx.catalog.documents.get("sources.yaml")
    for i, src in enumerate(ctx.catalog.sources.sources):
        if src.watch and src.id not in used and doc is not None:
            problems.append(ctx.problem(doc, ("sources", i, "watch"), Text(
                f"source {src.id!r} is watched, but no fact cites it: cite it or drop `watch`",
                f"die Quelle {src.id!r} wird beobachtet, aber kein Fakt zitiert sie: zitieren Sie sie oder "
                "streichen Sie `watch`"), CHECK))
    return problems
