"""Documents the catalog only quotes (e.g. the MIG guide): nothing to extract, the quotes are checked.

The extractor still refuses what is not the raw document (empty, or an HTML page such as an error or
login page), so such an answer is never read as "every quote is gone".
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError

ID = "quotes-only"


def extract(text: str) -> dict:
    if not text.strip():
        raise ExtractError("the document is empty")
    if re.match(r"\s*<(!doctype\s+html|html)\b", text, re.IGNORECASE):
        raise ExtractError("an HTML page, not the raw document")
    return {"lines": len(text.splitlines())}
