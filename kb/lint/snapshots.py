"""Find a source's local snapshot under ../shared and compare quotes with it, markup normalised."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from pathlib import Path

_ROLE = re.compile(r":[\w:+-]+:`([^`<>]*?)\s*(?:<[^<>`]*>)?`")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_RST_LINK = re.compile(r"`([^`<>]*?)\s*<[^<>`]*>`_{1,2}")
_BORDER = re.compile(r"\+?(?:[-=]{3,}\+?)+")
_MARKUP = re.compile(r"[`*|\\]")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Whitespace collapsed; RST roles/links, Markdown links, emphasis, literals, table borders and bars removed."""
    text = _ROLE.sub(r"\1", text)
    text = _RST_LINK.sub(r"\1", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _BORDER.sub(" ", text)
    text = _MARKUP.sub("", text)
    text = text.replace("\u00a0", " ")
    return _SPACE.sub(" ", text).strip()


def snapshot_files(shared: Path, snapshot: str) -> dict[dt.date | None, Path]:
    """Snapshots of a source: {date: file} for a stem (`stem@YYYY-MM-DD.ext`), {None: file} for an exact file."""
    exact = shared / snapshot
    if exact.is_file():
        return {None: exact}
    folder, stem = (shared / snapshot).parent, Path(snapshot).name
    found = {}
    if folder.is_dir():
        for path in folder.glob(f"{stem}@*"):
            m = re.match(r".*@(\d{4}-\d{2}-\d{2})\.[^.]+$", path.name)
            if m:
                found[dt.date.fromisoformat(m.group(1))] = path
    return found


def pick(files: dict, date: dt.date | None) -> Path | None:
    """The pinned snapshot, else the newest."""
    if not files:
        return None
    if date is not None:
        return files.get(date)
    if None in files:
        return files[None]
    return files[max(files)]


@lru_cache(maxsize=64)
def normalised_text(path: Path) -> str:
    return normalise(path.read_text(encoding="utf-8", errors="replace"))
