"""What happens to the built site after mkdocs has written both languages (called by kb/docs_hooks.py).

- Search per language: mkdocs-static-i18n leaves one index with both languages; each language gets its own
  (search/search_index.json German, en/search/search_index.json English, its locations relative to en/),
  and the pages for support staff (reference/) are left out of both.
- en/sitemap.xml: material reads sitemap.xml next to its script base, which is en/ on English pages.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

#: site paths (below a language's root) kept out of the customer search
NOT_SEARCHED = ("reference/",)


def split_search_index(site: Path, default: str, others: tuple[str, ...]) -> dict[str, int]:
    """Write one search index per language; returns {lang: bytes written}."""
    path = site / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    docs_by_lang: dict[str, list] = {default: [], **{lang: [] for lang in others}}
    for doc in index["docs"]:
        loc = doc["location"]
        lang = next((lang for lang in others if loc.startswith(f"{lang}/") or loc == lang), default)
        rel = loc[len(lang) + 1:] if lang != default else loc
        if rel.startswith(NOT_SEARCHED):
            continue
        docs_by_lang[lang].append({**doc, "location": rel})
    sizes = {}
    for lang, docs in docs_by_lang.items():
        out = {**index, "config": {**index["config"], "lang": [lang]}, "docs": docs}
        target = site / ("" if lang == default else lang) / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        raw = json.dumps(out, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        target.write_bytes(raw)
        sizes[lang] = len(raw)
    return sizes


_URL = re.compile(r"<url>.*?</url>", re.S)
_LOC = re.compile(r"<loc>(.*?)</loc>")


def language_sitemap(site: Path, site_url: str, lang: str) -> None:
    """Write <lang>/sitemap.xml (+ .gz) with the site map's entries of that language."""
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    prefix = site_url.rstrip("/") + f"/{lang}/"
    entries = [m.group(0) for m in _URL.finditer(text) if (_LOC.search(m.group(0)) or [None, ""])[1].startswith(prefix)]
    head = text[:text.index("<url>")] if "<url>" in text else text[:text.index("</urlset>")]
    out = head + "\n    ".join(entries) + "\n</urlset>\n"
    target = site / lang / "sitemap.xml"
    target.write_text(out, encoding="utf-8")
    with gzip.GzipFile(site / lang / "sitemap.xml.gz", "wb", mtime=0) as fh:
        fh.write(out.encode("utf-8"))
