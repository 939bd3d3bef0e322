"""Load `catalog/` into validated models, reporting every problem at once with file, line and field."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ValidationError

from kb.catalog.yamlsafe import Document, Problem, dotted, read_yaml
from kb.errors import CatalogInvalid
from kb.text import Text
from kb.wording import quoted
from kb.models import Card, Method, ReleasesFile, SourcesFile
from kb.models.platform import PlatformSupportFile


@dataclass
class Catalog:
    """The validated catalog. `files` maps each entity to the YAML file (relative to the catalog) it came from."""

    root: Path
    sources: SourcesFile
    cards: dict[str, Card] = field(default_factory=dict)
    releases: dict[str, ReleasesFile] = field(default_factory=dict)
    methods: dict[str, Method] = field(default_factory=dict)
    platform: PlatformSupportFile | None = None  # the operator's whole supported-GPU list (drift checker)
    files: dict[str, str] = field(default_factory=dict)
    documents: dict[str, Document] = field(default_factory=dict)


#: catalog file kind (kb.catalog.inputs.CATALOG: where its files are) → its model
LAYOUT: dict[str, type[BaseModel]] = {
    "sources": SourcesFile,
    "cards": Card,
    "releases": ReleasesFile,
    "methods": Method,
    "platform": PlatformSupportFile,
}


def _validation_problems(doc: Document, exc: ValidationError) -> list[Problem]:
    problems = []
    for err in exc.errors(include_url=False):
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and (p.startswith("function-") or p in {"str", "bool", "none", "date"})))
        raw = doc.raw.get(loc)
        value = err.get("input")
        msg = Text(err["msg"], f"passt nicht zum Schema (die Schemaprüfung meldet: {quoted(err['msg'], 'de')})")
        if isinstance(value, float) and raw is not None:
            msg = Text(f'{err["msg"]} — YAML read {raw} as the number {value}: write "{raw}" in quotes',
                       f'YAML liest {raw} als die Zahl {value}: schreiben Sie "{raw}" in Anführungszeichen')
        elif isinstance(value, (int, float)) and "string" in err["msg"] and raw is not None:
            msg = Text(f'{err["msg"]} — write "{raw}" in quotes', f'Text erwartet: schreiben Sie "{raw}" in Anführungszeichen')
        elif err["type"] == "extra_forbidden":
            msg = Text("unknown field", "unbekanntes Feld")
            model_fields = _fields_at(exc, loc[:-1])
            close = difflib.get_close_matches(str(loc[-1]), model_fields, n=1) if model_fields else []
            if close:
                msg += Text(f"; did you mean {close[0]!r}?", f"; meinten Sie {close[0]!r}?")
        elif err["type"] == "missing":
            msg = Text(err["msg"], "Pflichtfeld fehlt")
        elif loc[:1] == ("product_names",) and len(loc) == 2 and isinstance(value, str):
            msg = Text(f"product name {value!r} without a citation: write it as {{name: …, cite: [{{source: …, quote: …}}]}} "
                       "quoting the nvidia-smi output, label or list row that shows it",
                       f"Produktname {value!r} ohne Beleg: schreiben Sie ihn als {{name: …, cite: [{{source: …, quote: …}}]}} "
                       "und zitieren Sie die nvidia-smi-Ausgabe, das Label oder die Listenzeile, die ihn zeigt")
        problems.append(Problem(doc.file, doc.line_of(loc), dotted(loc), msg))
    return problems


def _fields_at(exc: ValidationError, path: tuple) -> list[str]:
    """Best effort: the known field names of the model at `path` (for 'did you mean')."""
    model = _MODEL_BY_TITLE.get(exc.title)
    for part in path:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        info = model.model_fields.get(part)
        if info is None:
            return []
        model = _inner_model(info.annotation)
    return list(model.model_fields) if model else []


def _inner_model(annotation):
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found:
            return found
    return None


_MODEL_BY_TITLE = {m.__name__: m for m in LAYOUT.values()}


def load_catalog(root: Path, contents: dict[str, bytes] | None = None) -> Catalog:
    """Read and validate every catalog file (kb.catalog.inputs.catalog_files: the files the hash covers).
    `contents` maps a file's relative path to the bytes already read (and hashed); files not in it are read
    here. Raises CatalogInvalid listing every problem."""
    from kb.catalog.inputs import catalog_files

    problems: list[Problem] = []
    parsed: dict[str, list] = {key: [] for key in LAYOUT}
    documents: dict[str, Document] = {}
    if not root.is_dir():
        raise CatalogInvalid([Problem(str(root), None, "", Text("catalog folder not found", "Katalogordner nicht gefunden"),
                                      kind="io")])
    files = catalog_files(root)
    if not files["sources"]:
        problems.append(Problem(f"{root.name}/sources.yaml", None, "", Text(
            "missing: every catalog needs sources.yaml", "fehlt: jeder Katalog braucht sources.yaml"), kind="io"))
    for key, model in LAYOUT.items():
        for f in files[key]:
            data = (contents or {}).get(f.rel)
            doc, errs = read_yaml(Path(f.path), display=f"{root.name}/{f.rel}", data=data)
            problems += errs
            if doc is None:
                continue
            documents[f.rel] = doc
            try:
                parsed[key].append((f.rel, model.model_validate(doc.data)))
            except ValidationError as exc:
                problems += _validation_problems(doc, exc)
    for key in ("sources", "platform"):
        if len(files[key]) > 1:
            problems.append(Problem(f"{root.name}/{files[key][1].rel}", None, "", Text(
                f"a second {key} file ({', '.join(f.rel for f in files[key])}): keep one",
                f"eine zweite Datei für {key} ({', '.join(f.rel for f in files[key])}): behalten Sie eine"), kind="io"))
    if problems:
        raise CatalogInvalid(problems)
    sources = parsed["sources"][0][1]
    catalog = Catalog(root=root, sources=sources, documents=documents)
    if parsed["platform"]:
        catalog.platform = parsed["platform"][0][1]
    for key, attr in (("cards", "id"), ("releases", "component"), ("methods", "id")):
        store = getattr(catalog, key)
        for rel, entity in parsed[key]:
            ident = getattr(entity, attr)
            stem = Path(rel).stem
            if stem != ident:
                problems.append(Problem(f"{root.name}/{rel}", documents[rel].line_of((attr,)), attr,
                                        Text(f"{attr} {ident!r} must equal the file name {stem!r}",
                                             f"{attr} {ident!r} muss dem Dateinamen {stem!r} gleichen")))
            if ident in store:
                first = catalog.files[f"{key}/{ident}"]
                problems.append(Problem(f"{root.name}/{rel}", documents[rel].line_of((attr,)), attr,
                                        Text(f"{attr} {ident!r} is already defined in {first}",
                                             f"{attr} {ident!r} ist schon in {first} definiert")))
                continue
            store[ident] = entity
            catalog.files[f"{key}/{ident}"] = rel
    if problems:
        raise CatalogInvalid(problems)
    return catalog
