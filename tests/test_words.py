"""Every value a catalog model allows has its words in both languages (kb/questions/words.py)."""

from __future__ import annotations

import typing

from kb.models.source import Source
from kb.questions import words


def test_every_source_kind_has_words():
    kinds = typing.get_args(Source.model_fields["kind"].annotation)
    assert sorted(k for k in kinds if k not in words.SOURCE_KIND) == []
    assert all(set(words.SOURCE_KIND[k]) == {"en", "de"} for k in kinds)
