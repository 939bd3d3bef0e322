"""Documents the catalog only quotes (e.g. the MIG guide): nothing to extract, the quotes are checked.

The extractor still refuses what is not a text document, so an error page is never read as "unchanged".
"""

from __future__ import annotations

from kb.drift.extractors import ExtractError

ID = "quotes-only"


def extract(text: str) -> dict:
    if not text.strip():
        raise ExtractError("the document is empty")
    return {"lines": len(text.splitlines())}
