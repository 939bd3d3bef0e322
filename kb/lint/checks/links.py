"""Every URL in the catalog is an `https:` or `http:` address: anything else (a `javascript:` or `data:`
source URL) would become a link on every page that cites the source."""

from kb.text import Text

CHECK = "links"
TITLE = "URLs are http(s)"
SCHEMES = ("https://", "http://")


def _urls(node, path):
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and isinstance(key, str) and (key == "url" or key.endswith("_url")):
                yield path + (key,), value
            else:
                yield from _urls(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _urls(item, path + (i,))


def check(ctx):
    problems = []
    for _rel, doc in ctx.documents():
        for path, url in _urls(doc.data, ()):
            if not url.strip().lower().startswith(SCHEMES) or any(c.isspace() or ord(c) < 32 for c in url.strip()):
                problems.append(ctx.problem(doc, path, Text(
                    f"{url[:80]!r} is not an https: or http: address",
                    f"{url[:80]!r} ist keine https:- oder http:-Adresse"), CHECK))
    return problems
