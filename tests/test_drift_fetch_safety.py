"""Fetching that stays where it belongs (issue 13): redirects only to https on the document's host or a short
allowlist and never to internal addresses, one deadline per document (a trickling server cannot keep a run
going), errors that name the final URL, a damaged cached body discarded and fetched again, the cache written
atomically."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kb.drift import fetch as fetch_module
from kb.drift.fetch import FetchError, fetch, redirect_refused


class Handler(BaseHTTPRequestHandler):
    """/doc (ETag), /to?<location> (302 to location), /trickle (one byte every 0.2 s, 100 bytes)."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.requests.append((self.path, self.headers.get("If-None-Match")))
        if self.path == "/doc":
            etag = '"v1"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            body = "Release Notes\n=============\n".encode()
            self.send_response(200)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/to?"):
            self.send_response(302)
            self.send_header("Location", self.path[4:])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/repos/NVIDIA/gpu-operator/releases/latest":
            return self._send(json.dumps({"tag_name": "v26.7.0", "prerelease": False}).encode())
        if self.path == "/raw/v26.7.0/values.yaml":
            return self._send(b"driver:\n  version: 595.91.07\n")
        if self.path == "/raw/main/values.yaml":
            return self._send(b"driver:\n  version: 610.0.0\n")
        if self.path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            try:
                for _ in range(100):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            return
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()


    def _send(self, body: bytes):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(fetch_module, "BACKOFF", 0.0)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.requests = []
    srv.daemon_threads = True
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    srv.base = f"http://127.0.0.1:{srv.server_address[1]}"
    yield srv
    srv.shutdown()
    srv.server_close()


# --- redirects ---------------------------------------------------------------------------------------------------
PUBLIC = lambda host: ["185.199.108.133"]  # noqa: E731 — what raw.githubusercontent.com resolves to


@pytest.mark.parametrize("target,why", [
    ("http://raw.githubusercontent.com/x", "not https: http"),
    ("https://evil.example/x", "host evil.example is neither the document's host nor allowed"),
    ("https://127.0.0.1/x", "is neither"),
    ("https://169.254.169.254/latest/meta-data", "is neither"),
])
def test_redirect_refused_to_another_host_or_scheme(target, why):
    assert why in redirect_refused(target, "raw.githubusercontent.com", PUBLIC)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.7", "192.168.1.2", "172.16.0.1", "169.254.169.254",
                                     "::1", "fe80::1", "fd00::1", "0.0.0.0"])
def test_redirect_refused_to_an_internal_address_even_on_an_allowed_host(address):
    # DNS of an allowed name pointing inside (rebinding): every resolved address is checked
    why = redirect_refused("https://objects.githubusercontent.com/x", "raw.githubusercontent.com",
                           lambda host: ["185.199.108.133", address])
    assert why == f"host objects.githubusercontent.com is at {address}, an internal address"


def test_redirect_allowed_to_the_own_host_or_the_allowlist():
    assert redirect_refused("https://raw.githubusercontent.com/NVIDIA/x/v1/a.md", "raw.githubusercontent.com",
                            PUBLIC) is None
    assert redirect_refused("https://github.com/NVIDIA/x", "raw.githubusercontent.com", PUBLIC) is None
    assert redirect_refused("https://docs.example/a.rst", "docs.example", PUBLIC) is None


def test_a_redirect_to_loopback_is_not_followed_and_the_error_names_the_url(server, tmp_path):
    url = f"{server.base}/to?http://127.0.0.1:9/secret"
    with pytest.raises(FetchError) as err:
        fetch(url, tmp_path)
    assert err.value.reason == "redirect"
    assert str(err.value) == f"{url} redirects to http://127.0.0.1:9/secret: refused (not https: http)"
    assert [p for p, _ in server.requests] == ["/to?http://127.0.0.1:9/secret"]  # nothing else was asked


def test_errors_name_the_final_url_after_an_allowed_redirect(server, tmp_path, monkeypatch):
    # the watched URL's own host is allowed; make the test server's redirect target count as such
    monkeypatch.setattr(fetch_module, "redirect_refused", lambda target, origin, resolve=None: None)
    with pytest.raises(FetchError) as err:
        fetch(f"{server.base}/to?/missing", tmp_path, retries=0)
    assert str(err.value) == f"HTTP 404 from {server.base}/missing"
    assert err.value.url == f"{server.base}/missing"


# --- deadline ----------------------------------------------------------------------------------------------------
def test_a_trickling_server_is_cut_off_by_the_deadline(server, tmp_path):
    # each byte comes well within the per-read timeout (0.2 s < 5 s); only the overall deadline ends it
    start = time.monotonic()
    with pytest.raises(FetchError) as err:
        fetch(f"{server.base}/trickle", tmp_path, timeout=5, deadline=1.0, retries=2)
    took = time.monotonic() - start
    assert err.value.reason == "deadline"
    assert f"{server.base}/trickle: the deadline for this document passed" in str(err.value)
    assert took < 3.0, took  # not 20 s of trickle, not three attempts of it


# --- the cache -------------------------------------------------------------------------------------------------
def _cache_files(tmp_path):
    folder = tmp_path / "drift" / "http"
    body = next(folder.glob("*.body"))
    return body, body.with_suffix(".json")


@pytest.mark.parametrize("damage", [
    lambda raw: raw[:5],                 # truncated
    lambda raw: raw[:-3] + b"\xff\xfe",  # not UTF-8
    lambda raw: raw.replace(b"Release", b"Relaese"),  # changed behind our back
])
def test_a_damaged_cached_body_is_discarded_and_fetched_again(server, tmp_path, damage):
    url = f"{server.base}/doc"
    first = fetch(url, tmp_path)
    body, meta = _cache_files(tmp_path)
    assert json.loads(meta.read_text())["sha256"]
    body.write_bytes(damage(body.read_bytes()))
    again = fetch(url, tmp_path)
    assert again.text == first.text and again.status == "fetched"
    # asked conditionally first (304), then once more without conditions
    assert server.requests[-2:] == [("/doc", '"v1"'), ("/doc", None)]
    assert body.read_text(encoding="utf-8") == first.text  # repaired


def test_an_intact_cached_body_is_reused(server, tmp_path):
    url = f"{server.base}/doc"
    fetch(url, tmp_path)
    again = fetch(url, tmp_path)
    assert again.status == "not-modified" and again.text.startswith("Release Notes")
    assert server.requests == [("/doc", None), ("/doc", '"v1"')]


def test_the_cache_is_written_atomically(server, tmp_path, monkeypatch):
    written = []
    real = fetch_module.atomic_write
    monkeypatch.setattr(fetch_module, "atomic_write", lambda path, data: written.append(path.suffix) or real(path, data))
    fetch(f"{server.base}/doc", tmp_path)
    assert written == [".body", ".json"]  # the body first; the meta that vouches for it last


def test_drift_state_is_written_atomically_and_a_damaged_one_counts_as_none(tmp_path, monkeypatch):
    from kb.drift import check as check_module
    from kb.drift.check import SourceResult, last_checked, remember, state_path

    written = []
    real = check_module.atomic_write
    monkeypatch.setattr(check_module, "atomic_write", lambda path, data: written.append(path.name) or real(path, data))
    remember(tmp_path, [SourceResult("a", "quotes-only", "file", "ok")])
    assert written == ["state.json"] and last_checked(tmp_path)["a"]["status"] == "ok"
    for damaged in ('{"a": ', "[1, 2]", '{"a": 3}'):
        state_path(tmp_path).write_text(damaged, encoding="utf-8")
        assert last_checked(tmp_path) == {}


# --- documents cited at a release tag ------------------------------------------------------------------------
def test_a_document_cited_at_a_tag_is_watched_at_the_newest_release_tag(server, tmp_path, monkeypatch):
    # values.yaml is cited at v26.7.0: main may already carry the next release's dependency bumps
    from kb.drift.check import check_source

    monkeypatch.setattr(fetch_module, "RELEASES_API", server.base + "/repos/{repo}/releases/latest")
    source = {"id": "values", "watch": {"url": server.base + "/raw/{tag}/values.yaml", "tag": "NVIDIA/gpu-operator",
                                        "extractor": "quotes-only"}}
    result = check_source(source, {"cards": {}, "releases": {}, "methods": {}}, offline=None, cache=tmp_path)
    assert (result.status, result.origin) == ("ok", server.base + "/raw/v26.7.0/values.yaml")
    assert [p for p, _ in server.requests] == ["/repos/NVIDIA/gpu-operator/releases/latest", "/raw/v26.7.0/values.yaml"]


def test_an_unusable_release_answer_is_unreachable_not_drift(server, tmp_path, monkeypatch):
    from kb.drift.check import check_source

    monkeypatch.setattr(fetch_module, "RELEASES_API", server.base + "/to?/nothing-{repo}")
    source = {"id": "values", "watch": {"url": server.base + "/raw/{tag}/values.yaml", "tag": "NVIDIA/gpu-operator",
                                        "extractor": "quotes-only"}}
    result = check_source(source, {"cards": {}, "releases": {}, "methods": {}}, offline=None, cache=tmp_path,
                          retries=0)
    assert result.status == "unreachable" and "redirects to" in result.error


def test_the_catalog_watches_values_yaml_at_the_newest_tag():
    from kb.catalog.compiled import load_data

    watch = load_data()["sources"]["gpu-operator-values"]["watch"]
    assert watch["tag"] == "NVIDIA/gpu-operator" and "/{tag}/" in watch["url"]


def test_the_github_token_goes_to_the_api_host_only(tmp_path, monkeypatch):
    from kb.drift import fetch as f

    sent = []

    def fake_fetch(url, cache, headers=None, **options):
        sent.append((url, headers))
        return f.Fetched(url, '{"tag_name": "v1.2.3"}', "fetched")

    monkeypatch.setattr(f, "fetch", fake_fetch)
    monkeypatch.setenv("GITHUB_TOKEN", "t0k")
    assert f.newest_tag("NVIDIA/gpu-operator", tmp_path) == "v1.2.3"
    assert sent == [("https://api.github.com/repos/NVIDIA/gpu-operator/releases/latest", {"Authorization": "Bearer t0k"})]
    monkeypatch.setattr(f, "RELEASES_API", "https://elsewhere.example/{repo}")
    f.newest_tag("NVIDIA/gpu-operator", tmp_path)
    assert sent[-1][1] is None
