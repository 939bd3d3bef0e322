"""The documents the catalog cites (`catalog/sources.yaml`)."""

from __future__ import annotations

import datetime as dt
from typing import Literal, Optional

from pydantic import Field

from kb.models.common import Model, Slug, Text


class Watch(Model):
    """How the drift checker fetches and reads a document."""

    url: str = Field(description="Raw upstream file to fetch (prefer the source file over rendered HTML).")
    extractor: Slug = Field(description="Extractor module of kb.drift.extractors that reads this document kind.")
    tag: Optional[str] = Field(
        None,
        pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$",
        description=(
            "For a document cited at a release tag: the GitHub repository ('owner/name') whose newest release "
            "tag replaces `{tag}` in `url`, so the document is watched as released, not on the main branch."
        ),
    )


class Source(Model):
    """One cited document."""

    id: Slug = Field(description="Stable id that citations use.")
    title: str = Field(description="The document's title as its publisher writes it.")
    publisher: str = Field(description="Who publishes it, e.g. NVIDIA.")
    url: Optional[str] = Field(
        None,
        description=(
            "Where a reader finds it. Absent only for our own article, whose address comes from publication.toml "
            "(kb/publication.py): unset there, it is cited by title without a link."
        ),
    )
    language: Literal["en", "de"] = Field(description="Language of the document (and of its quotes).")
    kind: Literal["docs", "release-notes", "readme", "changelog", "config", "datasheet", "article", "code", "thread"] = Field(
        description=(
            "What sort of document it is; `code` is a repository's source code (citations name file, line and "
            "tag in `page`), `thread` an issue or pull-request thread with maintainers' replies."
        )
    )
    document_date: Optional[dt.date] = Field(
        None, description="The document's own date (last update or release), where known."
    )
    retrieved: dt.date = Field(description="When the catalog's authors last read it.")
    snapshot: Optional[str] = Field(
        None,
        description=(
            "Local copy used to verify quotes, relative to ../shared: a stem such as "
            "'sources/cloud-native-docs/platform-support' (matching platform-support@<date>.rst; the newest "
            "date is used unless a citation pins `snapshot: <date>`), or one exact file such as "
            "'seed/000_36cb64a2234e4a83.txt'. Absent for documents without a local copy."
        ),
    )
    multi_page: bool = Field(
        False,
        description="True where `url` is the root of a document of several pages (a guide): every citation names its `page`.",
    )
    document: Optional[Slug] = Field(
        None,
        description=(
            "Sources that are versions of one document share this id (the MIG User Guide's R590, R610 and R620 "
            "versions: 'mig-user-guide'); with `version` they decide which version's value a fact follows."
        ),
    )
    version: Optional[str] = Field(
        None,
        description=(
            "The document version this source is, where it is versioned ('620' for the MIG User Guide R620). Where "
            "versions of one document disagree, the newest version's value is the fact's value, the others are kept "
            "in `disputed_by` (lint check `citations`)."
        ),
    )
    watch: Optional[Watch] = Field(None, description="Set where the drift checker watches this document.")
    note: Optional[Text] = Field(None, description="What a reader should know about this document.")


class SourcesFile(Model):
    """`catalog/sources.yaml`."""

    data_version: str = Field(
        description="Version of the catalog's data, raised on every content change, e.g. '2026.11.29'."
    )
    verified: dt.date = Field(description="Date the catalog was last checked against its sources.")
    sources: list[Source] = Field(description="Every document the catalog cites.")
