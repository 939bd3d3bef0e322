"""Every file in the catalog and rule folders is read — or named here: a card saved as `l4.json`, a rule
left as `MIG-001-x.yaml.bak` or `notes.txt` in a question's folder is not silently dropped (a renamed rule
changed an answer while lint said the catalog was clean). `.yaml` and `.yml` are both read."""

from kb.catalog.inputs import unread
from kb.catalog.yamlsafe import Problem
from kb.text import Text

CHECK = "files"
TITLE = "every file is read"


NOT_READ = {
    "catalog": Text("not read: catalog data are sources.yaml, platform-support.yaml and cards/, releases/, "
                    "methods/<id>.yaml (or .yml)",
                    "nicht gelesen: Katalogdaten sind sources.yaml, platform-support.yaml und cards/, releases/, "
                    "methods/<id>.yaml (oder .yml)"),
    "rules": Text("not read: a rule is <question>/<ID>-<slug>.yaml (or .yml)",
                  "nicht gelesen: eine Regel ist <Frage>/<ID>-<Kurzname>.yaml (oder .yml)"),
}


def check(ctx):
    problems = []
    for kind, root, display in (("catalog", ctx.catalog.root, ctx.catalog.root.name), ("rules", ctx.rules, "rules")):
        if root.is_dir():
            problems += [Problem(f"{display}/{f.rel}", None, "", NOT_READ[kind], kind=CHECK) for f in unread(root, kind)]
    return problems
