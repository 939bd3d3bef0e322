"""Fetch a watched document over HTTP: timeouts, retries on 5xx, a size cap, and conditional requests.

The last good body of each URL is kept with its ETag / Last-Modified under
`<cache>/drift/http/`; the next request sends If-None-Match / If-Modified-Since and a 304 answer reuses
the cached body. Every failure is a FetchError with a `reason` — the caller reports the source as
unreachable, never as "no drift".
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

#: defaults, overridable per call (the CLI exposes them as options)
TIMEOUT = 20.0  # seconds, for connecting and between bytes
RETRIES = 2  # further attempts after a 5xx answer, a timeout or a dropped connection
MAX_BYTES = 5_000_000
BACKOFF = 1.0  # seconds before the first retry; doubled each time
USER_AGENT = "gpukb-drift (+https://github.com/NVIDIA/cloud-native-docs watcher)"


class FetchError(Exception):
    """A document could not be fetched. reason: timeout | http-error | server-error | oversize | format | network."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass
class Fetched:
    url: str
    text: str
    status: str  # "fetched" (200) or "not-modified" (304, cached body reused)
    etag: str | None = None
    last_modified: str | None = None


def fetch(url: str, cache: Path, *, timeout: float = TIMEOUT, retries: int = RETRIES,
          max_bytes: int = MAX_BYTES, backoff: float | None = None) -> Fetched:
    """GET `url` as text. Raises FetchError."""
    backoff = BACKOFF if backoff is None else backoff
    body_path, meta_path = _cache_paths(cache, url)
    meta = _read_meta(meta_path) if body_path.is_file() else {}
    headers = {"User-Agent": USER_AGENT}
    if meta.get("etag"):
        headers["If-None-Match"] = meta["etag"]
    if meta.get("last_modified"):
        headers["If-Modified-Since"] = meta["last_modified"]
    last: FetchError | None = None
    with httpx.Client(timeout=httpx.Timeout(timeout), follow_redirects=True, headers=headers) as client:
        for attempt in range(retries + 1):
            if attempt:
                time.sleep(backoff * 2 ** (attempt - 1))
            try:
                return _get(client, url, body_path, meta_path, meta, max_bytes)
            except FetchError as exc:
                if exc.reason not in ("server-error", "timeout", "network"):
                    raise
                last = exc
    assert last is not None
    raise FetchError(last.reason, f"{last} (after {retries + 1} attempts)")


def _get(client: httpx.Client, url: str, body_path: Path, meta_path: Path, meta: dict, max_bytes: int) -> Fetched:
    try:
        with client.stream("GET", url) as resp:
            if resp.status_code == 304 and meta:
                text = body_path.read_text(encoding="utf-8")
                return Fetched(url, text, "not-modified", meta.get("etag"), meta.get("last_modified"))
            if resp.status_code >= 500:
                raise FetchError("server-error", f"HTTP {resp.status_code} from {url}")
            if resp.status_code != 200:
                raise FetchError("http-error", f"HTTP {resp.status_code} from {url}")
            declared = resp.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                raise FetchError("oversize", f"{url} is {declared} bytes, more than the cap of {max_bytes}")
            chunks, size = [], 0
            for chunk in resp.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise FetchError("oversize", f"{url} is larger than the cap of {max_bytes} bytes")
                chunks.append(chunk)
            ctype = resp.headers.get("content-type", "")
            etag, modified = resp.headers.get("etag"), resp.headers.get("last-modified")
    except httpx.TimeoutException:
        raise FetchError("timeout", f"timed out fetching {url}") from None
    except httpx.HTTPError as exc:
        raise FetchError("network", f"cannot fetch {url}: {exc}") from None
    if "html" in ctype and not url.lower().endswith((".html", ".htm")):
        raise FetchError("format", f"{url} answered with an HTML page ({ctype}), not the raw document")
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise FetchError("format", f"{url} is not UTF-8 text") from None
    _write(body_path, meta_path, text, {"url": url, "etag": etag, "last_modified": modified})
    return Fetched(url, text, "fetched", etag, modified)


def _cache_paths(cache: Path, url: str) -> tuple[Path, Path]:
    key = hashlib.sha256(url.encode()).hexdigest()[:24]
    folder = cache / "drift" / "http"
    return folder / f"{key}.body", folder / f"{key}.json"


def _read_meta(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write(body_path: Path, meta_path: Path, text: str, meta: dict) -> None:
    """Keep the body for conditional requests; a cache that cannot be written is simply not used."""
    if not (meta.get("etag") or meta.get("last_modified")):
        return
    try:
        body_path.parent.mkdir(parents=True, exist_ok=True)
        body_path.write_text(text, encoding="utf-8")
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
    except OSError:
        pass
