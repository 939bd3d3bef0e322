"""The site's Markdown as mkdocs.yml configures it, for tests that compare our fast replacements of Python-Markdown's
internals (kb/site/fastinline.py, fastblocks.py) and material's search parser with the originals."""

from __future__ import annotations

import copy
import functools
from pathlib import Path

import markdown
import yaml

ROOT = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def _listed() -> tuple:
    """mkdocs.yml's `markdown_extensions`, read once per process (pure-Python PyYAML: ≈ 15 ms a read, and the fast*
    tests asked for it 233 times a run)."""
    return tuple(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["markdown_extensions"])


def extensions(without: tuple[str, ...] = ()) -> tuple[list[str], dict]:
    """mkdocs.yml's markdown extensions in their order, with their configurations, less those named in `without`
    (the configurations are the caller's own copies: an extension may change what it is given)."""
    names, configs = [], {}
    for item in copy.deepcopy(_listed()):
        name, config = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        if name not in without:
            names.append(name)
            configs[name] = config or {}
    return names, configs


def site_markdown(without: tuple[str, ...] = ()) -> markdown.Markdown:
    names, configs = extensions(without)
    return markdown.Markdown(extensions=names, extension_configs=configs)


def convert(texts: list[str], without: tuple[str, ...] = ()) -> list[str]:
    """Each text converted on its own (the converter reset in between), as mkdocs converts pages."""
    md = site_markdown(without)
    out = []
    for text in texts:
        md.reset()
        out.append(md.convert(text))
    return out


def with_and_without(texts: list[str], extension: str) -> tuple[list[str], list[str]]:
    """Each text converted with the site's extensions, and without `extension` (one of our fast replacements):
    the two lists a test of that replacement expects equal."""
    return convert(texts), convert(texts, (extension,))


def hand_written_pages() -> list[Path]:
    """The pages of docs/ written by hand (not generated)."""
    return sorted(p for p in (ROOT / "docs").rglob("*.md") if "generated" not in p.parts)
