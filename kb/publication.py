"""Where gpukb is published: the repository and our own article's address, from ONE place.

`publication.toml` at the repository root holds them (environment variables override: GPUKB_REPO_URL,
GPUKB_DATA_REF, GPUKB_ARTICLE_URL, GPUKB_ISSUE_URL). An empty address is not linked: no page, answer or report ever shows a
placeholder domain. Repository links point at the data version the pages were built from — `data_ref` (a tag or
commit), else the checkout's commit — never at a moving branch.

Imports only the standard library (tomllib only where the file is more than `key = "text"` lines): the CLI's
fast path reads it.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "publication.toml"


class Publication:
    """The publication settings (a plain class, not a NamedTuple or dataclass: `gpukb ask` imports this module,
    and creating either kind of class costs more than the rest of it)."""

    __slots__ = ("repo_url", "data_ref", "article_url", "publisher", "issue_url")

    def __init__(self, repo_url: str | None, data_ref: str | None, article_url: str | None, publisher: str,
                 issue_url: str | None = None):
        self.repo_url, self.data_ref, self.article_url, self.publisher = repo_url, data_ref, article_url, publisher
        self.issue_url = issue_url  # a new-issue form taking `title` and `body`; None: <repo_url>/issues/new

    def _fields(self) -> tuple:
        return (self.repo_url, self.data_ref, self.article_url, self.publisher, self.issue_url)

    def __eq__(self, other) -> bool:
        return isinstance(other, Publication) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Publication(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"

    def issue_form(self) -> str | None:
        """Where a reader reports a wrong fact: issue_url, else the repository's new-issue form; None without
        either (then no "report a problem" link is shown)."""
        if self.issue_url:
            return self.issue_url
        return f"{self.repo_url.rstrip('/')}/issues/new" if self.repo_url else None

    def repo_link(self, path: str) -> str | None:
        """The address of `path` (relative to the repository root; a folder ends with '/') at the data version;
        None where the repository or the data version is not known."""
        if not self.repo_url or not self.data_ref:
            return None
        kind = "tree" if path.endswith("/") else "blob"
        return f"{self.repo_url.rstrip('/')}/{kind}/{self.data_ref}/{path.rstrip('/')}"

    def key(self) -> str:
        """What generated pages depend on (part of the site's generation key)."""
        return f"{self.repo_url}|{self.data_ref}|{self.article_url}|{self.publisher}|{self.issue_url}"


#: the last commit `git_head` asked git for, and the state of the files git read it from (`_head_files`)
_HEAD: list = [None, None]


def _head_files() -> tuple | None:
    """(path, inode, size, mtime) of the checkout's HEAD, the ref it names and packed-refs: git replaces a ref by
    renaming a new file onto it (a new inode), so a commit, checkout or reset changes this; None where the checkout
    is not laid out as expected (a plain .git folder, or a worktree's .git file naming its folder)."""
    dot = ROOT / ".git"
    try:
        gitdir = dot if dot.is_dir() else Path(dot.read_text(encoding="utf-8").partition("gitdir:")[2].strip())
        head = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
        common = gitdir / (gitdir / "commondir").read_text(encoding="utf-8").strip() \
            if (gitdir / "commondir").exists() else gitdir
    except (OSError, ValueError):
        return None
    files = [gitdir / "HEAD", common / "packed-refs"]
    if head.startswith("ref: "):
        ref = head[5:].strip()
        files += [gitdir / ref, common / ref]
    out = [head]
    for path in files:
        try:
            st = path.stat()
            out.append((str(path), st.st_ino, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((str(path), None))
    return tuple(out)


def git_head() -> str | None:
    """The checkout's commit; git is asked once per process while HEAD and its ref stay as they were."""
    files = _head_files()
    if files is not None and _HEAD[0] == files:
        return _HEAD[1]
    head = _ask_git_head()
    _HEAD[:] = [files, head]
    return head


def _ask_git_head() -> str | None:
    import subprocess

    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    head = out.stdout.strip()
    return head if out.returncode == 0 and len(head) == 40 else None


def _value(raw: dict, key: str) -> str | None:
    value = os.environ.get(f"GPUKB_{key.upper()}")
    if value is None:
        value = raw.get(key, "")
    value = str(value).strip()
    return value or None


@functools.lru_cache(maxsize=1)
def _raw() -> dict:
    try:
        with open(CONFIG, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return {}
    simple = plain_toml(data)
    if simple is not None:
        return simple
    import tomllib

    return tomllib.loads(data.decode("utf-8"))


def plain_toml(data: bytes) -> dict | None:
    """The file as publication.toml is written — comments, blank lines and `key = "text"` lines (a basic string
    without escapes) — read without tomllib, whose import costs every `gpukb ask` a few milliseconds; None
    for anything else (then tomllib reads it, and reports what is wrong)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    out: dict = {}
    for line in text.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, eq, rest = line.partition("=")
        key, rest = key.strip(), rest.strip()
        if not eq or not key or key in out or not all(c.isascii() and (c.isalnum() or c in "_-") for c in key):
            return None
        end = rest.find('"', 1)
        if not rest.startswith('"') or end < 0:
            return None
        value, tail = rest[1:end], rest[end + 1:].strip()
        if "\\" in value or any(c < " " and c != "\t" or c == "\x7f" for c in value) or (tail and not tail.startswith("#")):
            return None
        out[key] = value
    return out


def publication(*, resolve_ref: bool = True) -> Publication:
    """The publication settings now (environment read on every call; the file once per process).
    `resolve_ref=False` leaves an empty data_ref empty instead of asking git (the CLI has no repository links)."""
    raw = _raw()
    ref = _value(raw, "data_ref")
    if ref is None and resolve_ref:
        ref = git_head()
    return Publication(repo_url=_value(raw, "repo_url"), data_ref=ref, article_url=_value(raw, "article_url"),
                       publisher=_value(raw, "publisher") or "Eurokommerz", issue_url=_value(raw, "issue_url"))


def is_own(source: dict, pub: Publication | None = None) -> bool:
    """A source of ours (our article): cited only for our own statements, linked only where configured. `pub`:
    the settings where the caller has them (default: read now)."""
    return source.get("publisher") == (pub or publication(resolve_ref=False)).publisher


def source_url(source: dict, pub: Publication | None = None) -> str | None:
    """The address a reader follows for `source`: our own article's from the configuration, else its own."""
    pub = pub or publication(resolve_ref=False)
    if is_own(source, pub):
        return pub.article_url
    return source.get("url")
