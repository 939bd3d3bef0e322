"""DRA prerequisites (operator `dra-intro-install.rst`, upstream `prerequisites.md`, README, `_index.md`):
the lowest Kubernetes version and, where stated, the lowest NVIDIA driver.

The first statement of the form "Kubernetes v1.34.2 or later" / "Kubernetes 1.32 or newer" /
"Kubernetes 1.32+" (a Markdown table row "| Kubernetes | v1.34.2 or later" too) counts, preferring
the document's Prerequisites section where it has one. The driver likewise: "NVIDIA GPU driver version
580 or later", "| NVIDIA Driver | v565 or later".
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.lint.snapshots import normalise as plain

ID = "dra-prerequisites"

_KUBERNETES = re.compile(r"Kubernetes\s*(?:\|\s*)?v?(\d+\.\d+(?:\.\d+)?)(?:\s+or (?:later|newer)|\+)")
_DRIVER = re.compile(r"NVIDIA (?:GPU )?[Dd]river(?: version)?\s*(?:\|\s*)?v?(\d{3}(?:\.\d+)*) or later")
_PREREQ = re.compile(r"(?im)^(?:#+\s*)?prerequisites\s*$")


def extract(text: str) -> dict:
    m = _PREREQ.search(text)
    scopes = [text[m.end():], text] if m else [text]
    out: dict = {}
    for key, pattern in (("min_kubernetes", _KUBERNETES), ("min_driver", _DRIVER)):
        for scope in scopes:
            hit = next((h for line in scope.splitlines() if (h := pattern.search(plain(line)))), None)
            if hit:
                out[key] = hit.group(1)
                out[key.replace("min_", "quote_")] = _sentence(hit)
                break
    if "min_kubernetes" not in out:
        raise ExtractError("no 'Kubernetes <version> or later' statement")
    return out


def _sentence(hit: re.Match) -> str:
    """The sentence of the (normalised) line the statement stands in, list and table markers dropped."""
    line = hit.string
    start = max((m.end() for m in re.finditer(r"[.!?]\s+", line[:hit.start()])), default=0)
    end = re.search(r"[.!?](\s|$)", line[hit.end():])
    return line[start:hit.end() + (end.end() if end else len(line))].strip().lstrip("*- ").strip()
