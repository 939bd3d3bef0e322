"""Versions and dates are consistent: releases unique and newest first, ranges ordered,
`since` names a known release, no date in the future."""

from kb.text import Text
from kb.versions import key as version_key

CHECK = "versions"
TITLE = "versions and dates valid"


def check(ctx):
    problems = []
    cat = ctx.catalog
    for comp, rf in cat.releases.items():
        doc = cat.documents[cat.files[f"releases/{comp}"]]
        keys = [version_key(r.version) for r in rf.releases]
        seen = set()
        for i, (rel, key) in enumerate(zip(rf.releases, keys)):
            if key in seen:
                problems.append(ctx.problem(doc, ("releases", i, "version"), Text(f"release {rel.version} listed twice", f"Release {rel.version} steht zweimal da"), CHECK))
            seen.add(key)
            prev = rf.releases[i - 1] if i else None
            by_date = prev is not None and rel.date and prev.date and rel.date.value <= prev.date.value
            if i and key > keys[i - 1] and not by_date:  # a renumbering (DRA driver v25.12.0 → 0.4.0): dates decide
                problems.append(ctx.problem(doc, ("releases", i, "version"),
                                            Text(f"releases must be newest first: {rel.version} after {rf.releases[i - 1].version}",
                                                 f"Releases stehen mit dem neuesten zuerst: {rel.version} nach "
                                                 f"{rf.releases[i - 1].version}"), CHECK))
        for part in ("features", "settings"):
            for i, item in enumerate(getattr(rf, part)):
                if item.since and item.until and version_key(item.since) >= version_key(item.until):
                    problems.append(ctx.problem(doc, (part, i, "until"),
                                                Text(f"until {item.until} is not after since {item.since}",
                                                     f"until {item.until} liegt nicht nach since {item.since}"), CHECK))
    operator = cat.releases.get("gpu-operator")
    known = {version_key(r.version) for r in operator.releases} if operator else set()
    for cid, card in cat.cards.items():
        since = card.operator_support.since.value if card.operator_support.since else None
        if since and known and version_key(since) not in known:
            doc = cat.documents[cat.files[f"cards/{cid}"]]
            problems.append(ctx.problem(doc, ("operator_support", "since"),
                                        Text(f"GPU Operator {since} is not a release of catalog/releases/gpu-operator.yaml",
                                             f"GPU Operator {since} ist kein Release in catalog/releases/gpu-operator.yaml"),
                                        CHECK))
    for src_i, src in enumerate(cat.sources.sources):
        doc = cat.documents["sources.yaml"]
        for field in ("document_date", "retrieved"):
            value = getattr(src, field)
            if value and value > ctx.today:
                problems.append(ctx.problem(doc, ("sources", src_i, field), Text(f"{value} is in the future", f"{value} liegt in der Zukunft"), CHECK))
        if src.document_date and src.document_date > src.retrieved:
            problems.append(ctx.problem(doc, ("sources", src_i, "retrieved"),
                                        Text(f"retrieved {src.retrieved} before the document's date {src.document_date}",
                                             f"abgerufen am {src.retrieved}, vor dem Datum des Dokuments {src.document_date}"),
                                        CHECK))
    return problems
