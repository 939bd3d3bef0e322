"""No name or alias may point at two cards (name resolution would be ambiguous)."""

from kb.catalog.names import normalise
from kb.text import Text

CHECK = "aliases"
TITLE = "no alias shared by two cards"


def check(ctx):
    owners: dict[str, list[tuple[str, str]]] = {}
    for cid, card in ctx.catalog.cards.items():
        names = {card.id, card.name, card.short_name, *card.aliases}
        for name in names:
            owners.setdefault(normalise(name), []).append((cid, name))
    problems = []
    for key, cards in sorted(owners.items()):
        ids = sorted({cid for cid, _ in cards})
        if len(ids) > 1:
            for cid in ids:
                rel = ctx.catalog.files[f"cards/{cid}"]
                doc = ctx.catalog.documents[rel]
                names = sorted({n for c, n in cards if c == cid})
                others = ", ".join(i for i in ids if i != cid)
                problems.append(ctx.problem(doc, ("aliases",), Text(f"name {names[0]!r} also names {others}",
                                                                    f"der Name {names[0]!r} nennt auch {others}"), CHECK))
    return problems
