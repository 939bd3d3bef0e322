"""Pydantic models of the catalog: every field is described (the JSON Schema is exported from them)."""

from kb.models.card import Card
from kb.models.common import Citation, Fact, Statement, Text
from kb.models.method import Method
from kb.models.release import ReleasesFile
from kb.models.source import Source, SourcesFile

__all__ = ["Card", "Citation", "Fact", "Method", "ReleasesFile", "Source", "SourcesFile", "Statement", "Text"]
