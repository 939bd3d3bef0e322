"""Replay the real history of every watched file through the drift check (a maintainer's tool, not CI).

    python -m kb.drift.replay /work/.mirror [--source ID …] [--json] [--all]

Each watched URL of the form raw.githubusercontent.com/<owner>/<repo>/<ref>/<path> is looked up in a
mirror with full history (`<mirror>/<owner>+<repo>/repo`, as the search tool's `fetch` lays it out); every
version of the path (`git log --follow`, renames included) is extracted and compared with the current
catalog, oldest first. Printed: per source the number of versions per status and, for every version that
is "unparseable", its commit, date and error — a valid NVIDIA document that the check cannot read is a
red run for nothing. With `--all` every version's findings (kinds and counts) are printed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

_RAW = re.compile(r"^https://raw\.githubusercontent\.com/([^/]+)/([^/]+)/([^/]+)/(.+)$")


def locate(url: str) -> tuple[str, str, str] | None:
    """(owner+repo, ref, path) of a raw GitHub URL (a `{tag}` ref means the newest tag: replayed on main)."""
    m = _RAW.match(url)
    if not m:
        return None
    ref = m.group(3)
    return f"{m.group(1)}+{m.group(2)}", "main" if "{" in ref else ref, m.group(4)


def versions(repo: Path, ref: str, path: str) -> list[tuple[str, str, str]]:
    """(commit, date, path at that commit) of every version of `path` on `ref`, oldest first."""
    def log(*follow: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(repo), "log", *follow, "--format=@%H %cs", "--name-only", ref,
                               "--", path], capture_output=True, text=True)

    got = log("--follow")
    if got.returncode:  # rename detection needs blobs a mirror may lack (files over its size limit)
        got = log()
    out = got.stdout
    found, head = [], None
    for line in out.splitlines():
        if line.startswith("@"):
            head = line[1:].split()
        elif line.strip() and head:
            found.append((head[0], head[1], line.strip()))
            head = None
    return found[::-1]


def show(repo: Path, commit: str, path: str) -> bytes | None:
    got = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], capture_output=True)
    return got.stdout if got.returncode == 0 else None


def replay(mirror: Path, data: dict, only: list[str] | None = None) -> list[dict]:
    from kb.drift.check import check_bytes, watched

    rows = []
    for source in watched(data):
        if only and source["id"] not in only:
            continue
        where = locate(source["watch"]["url"])
        repo = mirror / where[0] / "repo" if where else None
        if not where or not repo.is_dir():
            rows.append({"source": source["id"], "skipped": f"no mirror for {source['watch']['url']}"})
            continue
        for commit, date, path in versions(repo, where[1], where[2]):
            raw = show(repo, commit, path)
            if raw is None:
                continue
            result = check_bytes(source, raw, data, f"{where[0]}:{commit[:10]}:{path}", "file")
            rows.append({"source": source["id"], "commit": commit, "date": date, "path": path,
                         "status": result.status, "error": result.error,
                         "kinds": dict(Counter(c.kind for c in result.changes)),
                         "failed_parts": [p["part"] for p in getattr(result, "parts", []) if p["status"] != "ok"]})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mirror", type=Path)
    ap.add_argument("--source", action="append")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--all", action="store_true")
    args = ap.parse_args(argv)
    from kb.catalog.compiled import load_data

    rows = replay(args.mirror, load_data(), args.source)
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        return 0
    by_source: dict[str, list[dict]] = {}
    for r in rows:
        by_source.setdefault(r["source"], []).append(r)
    for sid, items in by_source.items():
        if "skipped" in items[0]:
            print(f"{sid}: {items[0]['skipped']}")
            continue
        counts = Counter(r["status"] for r in items)
        print(f"{sid}: {len(items)} versions — " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        for r in items:
            if r["status"] == "unparseable" or args.all or r["failed_parts"]:
                print(f"  {r['date']} {r['commit'][:10]} {r['status']}: {r['error'] or ''} "
                      f"{r['kinds'] or ''} {r['failed_parts'] or ''}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
