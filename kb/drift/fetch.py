"""Fetch a watched document over HTTP: timeouts, an overall deadline, retries on 5xx, a size cap,
redirects kept where they belong, and conditional requests.

- Redirects are followed by hand (at most MAX_REDIRECTS): only to `https`, only to the document's own host
  or a host of REDIRECT_HOSTS, and never to an address that is loopback, link-local, private, reserved or
  multicast (every address the name resolves to is checked). The URL the catalog watches is trusted as
  written (a test server on 127.0.0.1 is fine there); where it sends us is not.
- Each document has an overall deadline (DEADLINE seconds from the first byte asked for, retries included):
  a server that trickles one byte a second cannot keep a run going, however short each read is.
- Every error names the final URL (after redirects).
- The last good body of each URL is kept with its ETag / Last-Modified and the body's SHA-256 under
  `<cache>/drift/http/`, written atomically (kb.fsutil.atomic_write). The next request sends If-None-Match /
  If-Modified-Since; a 304 answer reuses the cached body — unless that body is damaged (truncated, changed,
  not UTF-8): then it is discarded and the document fetched again without conditions.
Every failure is a FetchError with a `reason`: the caller reports the source as unreachable, never as
"no drift".
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx

from kb.fsutil import atomic_write

#: defaults, overridable per call (the CLI exposes them as options)
TIMEOUT = 20.0  # seconds, for connecting and between bytes
DEADLINE = 90.0  # seconds for one document in all, retries included
RETRIES = 2  # further attempts after a 5xx answer, a timeout or a dropped connection
MAX_BYTES = 5_000_000
BACKOFF = 1.0  # seconds before the first retry; doubled each time
MAX_REDIRECTS = 5
#: hosts a watched document may redirect to besides its own (GitHub serves raw files and archives there)
REDIRECT_HOSTS = frozenset({"raw.githubusercontent.com", "github.com", "objects.githubusercontent.com",
                            "codeload.github.com"})
USER_AGENT = "gpukb-drift (+https://github.com/NVIDIA/cloud-native-docs watcher)"


class FetchError(Exception):
    """A document could not be fetched. reason: timeout | deadline | http-error | server-error | oversize |
    format | network | redirect. `url` is the URL last asked for (after redirects)."""

    def __init__(self, reason: str, message: str, url: str | None = None):
        super().__init__(message)
        self.reason = reason
        self.url = url


@dataclass
class Fetched:
    url: str  # the final URL (after redirects)
    text: str
    status: str  # "fetched" (200) or "not-modified" (304, cached body reused)
    etag: str | None = None
    last_modified: str | None = None


#: where the newest release of a GitHub repository is asked for (a watch with `tag`); tests point it elsewhere
RELEASES_API = "https://api.github.com/repos/{repo}/releases/latest"


def newest_tag(repo: str, cache: Path, **options) -> str:
    """The tag of a GitHub repository's newest release (not a pre-release, not a draft: GitHub's "latest").
    Raises FetchError (reason "format" where the answer names no tag)."""
    url = RELEASES_API.format(repo=repo)
    token = os.environ.get("GITHUB_TOKEN")
    # GitHub's API allows 60 anonymous requests an hour per address (shared by CI runners); a token lifts that.
    # It is sent to api.github.com only, never to a host a redirect leads to.
    auth = {"Authorization": f"Bearer {token}"} if token and urlsplit(url).hostname == "api.github.com" else None
    got = fetch(url, cache, headers=auth, **options)
    try:
        tag = json.loads(got.text)["tag_name"]
    except (ValueError, KeyError, TypeError):
        raise FetchError("format", f"{got.url} names no release tag (tag_name)", got.url) from None
    if not isinstance(tag, str) or not tag or "/" in tag or ".." in tag:
        raise FetchError("format", f"{got.url} names an unusable release tag: {tag!r}", got.url)
    return tag


def fetch(url: str, cache: Path, *, timeout: float = TIMEOUT, retries: int = RETRIES,
          max_bytes: int = MAX_BYTES, backoff: float | None = None, deadline: float | None = None,
          resolve=None, headers: dict | None = None) -> Fetched:
    """GET `url` as text. Raises FetchError. `resolve(host) -> [address, …]` is for tests (default: DNS)."""
    backoff = BACKOFF if backoff is None else backoff
    end = time.monotonic() + (DEADLINE if deadline is None else deadline)
    body_path, meta_path = _cache_paths(cache, url)
    meta = _cached(body_path, meta_path)
    last: FetchError | None = None
    with httpx.Client(timeout=httpx.Timeout(timeout), follow_redirects=False,
                      headers={"User-Agent": USER_AGENT}) as client:
        for attempt in range(retries + 1):
            if attempt:
                pause = backoff * 2 ** (attempt - 1)
                if time.monotonic() + pause >= end:
                    break
                time.sleep(pause)
            try:
                got = _get(client, url, meta, max_bytes, end, timeout, resolve, headers)
            except FetchError as exc:
                if exc.reason not in ("server-error", "timeout", "network"):
                    raise
                last = exc
                continue
            if got.status == "not-modified":
                text = _cached_text(body_path, meta)
                if text is not None:
                    got.text = text
                    return got
                meta = {}  # the cached body is damaged: ask again, without conditions
                try:
                    got = _get(client, url, meta, max_bytes, end, timeout, resolve, headers)
                except FetchError as exc:
                    if exc.reason not in ("server-error", "timeout", "network"):
                        raise
                    last = exc
                    continue
            _store(body_path, meta_path, got)
            return got
    if last is None:
        raise FetchError("deadline", f"gave up on {url}: its deadline passed before a retry", url)
    raise FetchError(last.reason, f"{last} (after {attempt + 1} attempts)", last.url)


def _get(client: httpx.Client, url: str, meta: dict, max_bytes: int, end: float, timeout: float,
         resolve, private: dict | None = None) -> Fetched:
    """One request, following allowed redirects by hand; `private` headers go to the URL's own host only."""
    headers = dict(private or {})
    if meta.get("etag"):
        headers["If-None-Match"] = meta["etag"]
    if meta.get("last_modified"):
        headers["If-Modified-Since"] = meta["last_modified"]
    origin = urlsplit(url).hostname or ""
    current = url
    for _hop in range(MAX_REDIRECTS + 1):
        left = end - time.monotonic()
        if left <= 0:
            raise FetchError("deadline", f"{current}: the deadline for this document passed", current)
        per_read = min(timeout, left)
        try:
            with client.stream("GET", current, headers=headers,
                               timeout=httpx.Timeout(per_read)) as resp:
                if resp.status_code in (301, 302, 303, 307, 308) and resp.headers.get("location"):
                    target = urljoin(current, resp.headers["location"])
                    why = redirect_refused(target, origin, resolve)
                    if why:
                        raise FetchError("redirect", f"{current} redirects to {target}: refused ({why})", current)
                    if (urlsplit(target).hostname or "") != origin:
                        headers = {k: v for k, v in headers.items() if k not in (private or {})}
                    current = target
                    continue
                if resp.status_code == 304 and meta:
                    return Fetched(current, "", "not-modified", meta.get("etag"), meta.get("last_modified"))
                if resp.status_code >= 500:
                    raise FetchError("server-error", f"HTTP {resp.status_code} from {current}", current)
                if resp.status_code != 200:
                    raise FetchError("http-error", f"HTTP {resp.status_code} from {current}", current)
                declared = resp.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > max_bytes:
                    raise FetchError("oversize", f"{current} is {declared} bytes, more than the cap of {max_bytes}",
                                     current)
                chunks, size = [], 0
                for chunk in resp.iter_bytes():
                    size += len(chunk)
                    if size > max_bytes:
                        raise FetchError("oversize", f"{current} is larger than the cap of {max_bytes} bytes", current)
                    if time.monotonic() > end:
                        raise FetchError("deadline", f"{current}: the deadline for this document passed after "
                                                     f"{size} bytes (a server sending too slowly)", current)
                    chunks.append(chunk)
                ctype = resp.headers.get("content-type", "")
                etag, modified = resp.headers.get("etag"), resp.headers.get("last-modified")
        except httpx.TimeoutException:
            raise FetchError("timeout", f"timed out fetching {current}", current) from None
        except httpx.HTTPError as exc:
            raise FetchError("network", f"cannot fetch {current}: {exc}", current) from None
        if "html" in ctype and not current.lower().endswith((".html", ".htm")):
            raise FetchError("format", f"{current} answered with an HTML page ({ctype}), not the raw document", current)
        raw = b"".join(chunks)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FetchError("format", f"{current} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                                       f"{exc.start})", current) from None
        return Fetched(current, text, "fetched", etag, modified)
    raise FetchError("redirect", f"{url}: more than {MAX_REDIRECTS} redirects", current)


def redirect_refused(target: str, origin_host: str, resolve=None) -> str | None:
    """Why a redirect to `target` is not followed, or None: https only; the document's own host or one of
    REDIRECT_HOSTS; no address of the host (as written or resolved) loopback, link-local, private, reserved,
    multicast or unspecified."""
    parts = urlsplit(target)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https":
        return f"not https: {parts.scheme or 'no scheme'}"
    if host != origin_host.lower() and host not in REDIRECT_HOSTS:
        return f"host {host} is neither the document's host nor allowed"
    try:
        addresses = [host] if _is_ip(host) else (resolve or _resolve)(host)
    except OSError as exc:
        return f"host {host} does not resolve: {exc}"
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if (ip.is_loopback or ip.is_link_local or ip.is_private or ip.is_reserved or ip.is_multicast
                or ip.is_unspecified):
            return f"host {host} is at {ip}, an internal address"
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _resolve(host: str) -> list[str]:
    return sorted({info[4][0] for info in socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)})


# --- the cache ---------------------------------------------------------------------------------------------------
def _cache_paths(cache: Path, url: str) -> tuple[Path, Path]:
    key = hashlib.sha256(url.encode()).hexdigest()[:24]
    folder = cache / "drift" / "http"
    return folder / f"{key}.body", folder / f"{key}.json"


def _cached(body_path: Path, meta_path: Path) -> dict:
    """The cache entry's meta data where a body exists (conditions are only sent then)."""
    if not body_path.is_file():
        return {}
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) and meta.get("sha256") else {}


def _cached_text(body_path: Path, meta: dict) -> str | None:
    """The cached body, or None where it is damaged (missing, another hash than recorded, not UTF-8)."""
    try:
        raw = body_path.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(raw).hexdigest() != meta.get("sha256"):
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _store(body_path: Path, meta_path: Path, got: Fetched) -> None:
    """Keep the body for conditional requests (body first, then the meta that vouches for it); a cache that
    cannot be written is simply not used."""
    if not (got.etag or got.last_modified):
        return
    raw = got.text.encode("utf-8")
    meta = {"url": got.url, "etag": got.etag, "last_modified": got.last_modified,
            "sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
    try:
        body_path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(body_path, raw)
        atomic_write(meta_path, json.dumps(meta))
    except OSError:
        pass
