"""What every lint check gets: the validated catalog, its YAML documents, where the snapshots are, and the
rule base whose citations must resolve in the catalog."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterator

from kb import ROOT
from kb.catalog.loader import Catalog
from kb.catalog.yamlsafe import Document, Problem, dotted


def shared_dir() -> Path:
    """../shared beside the repository ($GPUKB_SHARED overrides)."""
    return Path(os.environ.get("GPUKB_SHARED") or ROOT.parent / "shared")


@dataclass
class LintContext:
    catalog: Catalog
    shared: Path
    today: dt.date
    rules: Path  # the rule base checked against this catalog (kb.catalog.compiled.rules_dir(), $GPUKB_RULES)

    @cached_property
    def data(self) -> dict:
        """The catalog as the plain data the engine, site and CLI read (kb.catalog.compiled.load_data())."""
        from kb.catalog.compiled import catalog_data

        return catalog_data(self.catalog)

    def documents(self) -> Iterator[tuple[str, Document]]:
        yield from sorted(self.catalog.documents.items())

    def citations(self) -> Iterator[tuple[str, Document, tuple, dict]]:
        """Every citation in every file: (relative file, document, field path, citation as written)."""
        for rel, doc in self.documents():
            yield from ((rel, doc, path, cit) for path, cit in self.citations_in(doc))

    @staticmethod
    def citations_in(doc: Document) -> Iterator[tuple[tuple, dict]]:
        """Every citation of one file: (field path, citation as written)."""
        return _walk_citations(doc.data, ())

    def problem(self, doc: Document, path: tuple, message, kind: str) -> Problem:
        """A Problem located at `path` of `doc`; `message` a Text (both languages)."""
        return Problem(doc.file, doc.line_of(path), dotted(path), message, kind=kind)


def _walk_citations(node, path):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cite" and isinstance(value, list):
                for i, cit in enumerate(value):
                    if isinstance(cit, dict):
                        yield path + (key, i), cit
            else:
                yield from _walk_citations(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk_citations(item, path + (i,))
