"""The catalog compiled into plain JSON data, cached by a hash of `catalog/` and `rules/`.

The CLI reads this instead of re-validating the YAML on every call. A missing or stale cache is
rebuilt (validating the YAML once); a cache is never served for other inputs than it was built from.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kb import ROOT

CACHE_FORMAT = 1


def catalog_dir() -> Path:
    """The catalog in use: $GPUKB_CATALOG, else the repository's `catalog/`."""
    return Path(os.environ.get("GPUKB_CATALOG") or ROOT / "catalog")


def rules_dir() -> Path:
    """The rule base in use: $GPUKB_RULES, else the repository's `rules/`."""
    return Path(os.environ.get("GPUKB_RULES") or ROOT / "rules")


def cache_dir() -> Path:
    """Where compiled data and precomputed answers are kept: $GPUKB_CACHE_DIR or ~/.cache/gpukb."""
    base = os.environ.get("GPUKB_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "gpukb")
    return Path(base)


def code_stamp() -> list:
    """Name, size and mtime of every module of the kb package: cached data made by other code is not reused."""
    package = Path(__file__).resolve().parent.parent
    out = []
    for folder, _dirs, files in sorted(os.walk(package)):
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                out.append([os.path.relpath(os.path.join(folder, name), package), st.st_size, st.st_mtime_ns])
    return out


def input_hash(*dirs: Path) -> str:
    """sha256 over the relative paths and bytes of every file below `dirs`, the code version and `code_stamp()`."""
    import hashlib  # here, not at the top: a CLI call served from the answer cache never hashes

    from kb import __version__

    h = hashlib.sha256(f"{CACHE_FORMAT}:{__version__}:{json.dumps(code_stamp())}".encode())
    for d in dirs:
        h.update(str(d).encode())
        if not d.is_dir():
            continue
        for path in sorted(d.rglob("*")):
            if path.is_file() and path.suffix in {".yaml", ".yml", ".json"}:
                h.update(path.relative_to(d).as_posix().encode() + b"\0")
                h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def compile_catalog(root: Path) -> dict:
    """Validate the catalog (raises CatalogInvalid) and turn it into plain data."""
    from kb.catalog.loader import load_catalog

    return catalog_data(load_catalog(root))


def catalog_data(cat) -> dict:
    """A loaded `kb.catalog.loader.Catalog` as plain data."""
    dump = lambda m: m.model_dump(mode="json", exclude_none=True)  # noqa: E731
    return {
        "data_version": cat.sources.data_version,
        "verified": cat.sources.verified.isoformat(),
        "sources": {s.id: dump(s) for s in cat.sources.sources},
        "cards": {k: dump(v) for k, v in sorted(cat.cards.items())},
        "releases": {k: dump(v) for k, v in sorted(cat.releases.items())},
        "methods": {k: dump(v) for k, v in sorted(cat.methods.items())},
        "platform": dump(cat.platform) if cat.platform else None,
        "files": dict(sorted(cat.files.items())),
    }


def read_cache(name: str, key: str) -> dict | None:
    path = cache_dir() / f"{name}-{key}.json"
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def write_cache(name: str, key: str, data: dict) -> None:
    """Write atomically; a cache that cannot be written is simply not used next time."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{name}-*.json"):
            old.unlink(missing_ok=True)
        tmp = folder / f".{name}-{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        tmp.replace(folder / f"{name}-{key}.json")
    except OSError:
        pass


_MEMO: dict = {}


def load_data(root: Path | None = None) -> dict:
    """The compiled catalog as plain data (from the cache when it matches the catalog's hash)."""
    root = root or catalog_dir()
    key = input_hash(root)
    if key in _MEMO:
        return _MEMO[key]
    data = read_cache("catalog", key)
    if data is None:
        data = compile_catalog(root)
        data["hash"] = key
        write_cache("catalog", key, data)
    _MEMO[key] = data
    return data
