"""`python -m kb.site.vale_styles STYLES_DIR`: write the catalog-generated Vale files (used by scripts/vale)."""

from __future__ import annotations

import sys
from pathlib import Path

from kb.site.vale import product_names, product_rule, vocabulary


def write(styles: Path, data: dict) -> list[Path]:
    names = product_names(data)
    rule = styles / "Gpukb" / "ProductNames.yml"
    vocab = styles / "config" / "vocabularies" / "Gpukb" / "accept.txt"
    for path, text in ((rule, product_rule(names)), (vocab, vocabulary(names))):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return [rule, vocab]


def main(argv: list[str]) -> int:
    from kb.catalog.compiled import load_data
    from kb.errors import CatalogInvalid

    try:
        data = load_data()
    except CatalogInvalid as exc:
        print("error: the catalog is not usable (run 'gpukb lint'):", *exc.problems, sep="\n  ", file=sys.stderr)
        return 2
    for path in write(Path(argv[0] if argv else "styles"), data):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
