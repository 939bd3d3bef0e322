"""Building blocks shared by every catalog file: bilingual text, citations, facts, versions."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Generic, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

T = TypeVar("T")

#: A software version as NVIDIA writes it, without a leading "v": "26.7.0", "0.20.0", "575.57.08", or a
#: driver branch "580". Always quoted in YAML (PyYAML turns an unquoted 1.30 into the float 1.3).
Version = Annotated[
    str,
    StringConstraints(pattern=r"^\d+(\.\d+){0,3}$"),
    Field(description='A version without a leading "v", quoted in YAML, e.g. "26.7.0" or a driver branch "580".'),
]

#: A stable identifier: lower-case words joined by hyphens.
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]

class Model(BaseModel):
    """Base of all catalog models: unknown fields are errors, values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Text(Model):
    """User-facing text in both languages of the knowledge base."""

    en: str = Field(description="English text.")
    de: str = Field(description="German text.")


class Citation(Model):
    """Where a fact is written down: a source of `catalog/sources.yaml`, the place in it and its words."""

    source: Slug = Field(description="Id of a document in catalog/sources.yaml.")
    section: Optional[str] = Field(
        None, description="Section, anchor or table of the document the quote stands in."
    )
    quote: str = Field(
        description=(
            "A short quote in the source's own language. Where the source has a local snapshot, "
            "the quote must occur in it (whitespace and RST/Markdown markup normalised)."
        )
    )
    snapshot: Optional[dt.date] = Field(
        None,
        description=(
            "Date of the snapshot the quote was taken from, where it is not the newest one "
            "(older document versions; the quote is checked against that snapshot)."
        ),
    )
    page: Optional[str] = Field(
        None,
        description=(
            "The page or file the quote stands on, relative to the source's url, where the source spans "
            "several: 'supported-gpus.html' (a guide's page), 'blob/v0.20.0/internal/rm/rm.go#L145' (a line "
            "of code at a tag), 'issues/720#issuecomment-…'. The citation links the source's url joined with it."
        ),
    )
    translation: Optional[str] = Field(
        None,
        description=(
            "The quote in English, for a quote in German: English pages and answers show it beside the German "
            "words (lint check `jargon` asks for it where an English reader sees the quote)."
        ),
    )


class Claim(Model, Generic[T]):
    """What another source or an older version of a document says instead (sources disagree)."""

    value: T = Field(description="The value this source gives.")
    cite: list[Citation] = Field(min_length=1, description="Where that is written.")
    note: Text = Field(description="Why the catalog keeps it and which value it follows.")


class Fact(Model, Generic[T]):
    """One value of the catalog with the citations that prove it."""

    value: T = Field(description="The value.")
    cite: list[Citation] = Field(
        min_length=1, description="At least one citation; several where sources agree."
    )
    note: Optional[Text] = Field(None, description="Context a reader needs to use the value right.")
    condition: Optional[Text] = Field(
        None,
        description=(
            "A restriction the source puts on the value, written as a condition ('Only on Ubuntu 24.04 LTS …'): "
            "every answer whose rule cites the fact states it among its conditions (the note explains, the "
            "condition restricts)."
        ),
    )
    inferred: Optional[Text] = Field(
        None,
        description=(
            "Set where no quote states the value outright: how it follows from the quotes (shown with the value "
            "wherever it is shown). Lint checks that a number, version or profile name in the value stands in a "
            "quote or its section, except for inferred values."
        ),
    )
    disputed_by: list[Claim[T]] = Field(
        default_factory=list,
        description="Other sources or document versions that say something else, kept with a note.",
    )


class Statement(Model):
    """A cited sentence: a limit, a change, a behaviour. Its id is how rules and pages refer to it."""

    id: Slug = Field(description="Stable id, unique within its file.")
    text: Text = Field(description="The statement in our words, in English and German.")
    cite: list[Citation] = Field(min_length=1, description="Where it is written.")
    since: Optional[Version] = Field(
        None, description="First release (of the file's component) for which it holds; absent: always."
    )
    until: Optional[Version] = Field(
        None, description="First release for which it no longer holds; absent: still holds."
    )
    note: Optional[Text] = Field(None, description="Context, or where sources disagree.")
