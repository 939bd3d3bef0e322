"""Every citation names a source that catalog/sources.yaml defines, with a non-empty quote."""

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
            hint = f"; did you mean {close[0]!r}?" if close else ""
            problems.append(ctx.problem(doc, path + ("source",), f"unknown source {source!r}{hint}", CHECK))
        if not str(cit.get("quote", "")).strip():
            problems.append(ctx.problem(doc, path + ("quote",), "empty quote: every fact needs the source's words", CHECK))
    return problems
