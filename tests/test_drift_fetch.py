"""Fetching watched sources from a local HTTP server on 127.0.0.1: conditional requests, retries, timeouts,
the size cap, unexpected formats — and `gpukb sources check` exiting 3 whenever a source cannot be read."""

from __future__ import annotations

import json
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml
from click.testing import CliRunner

from conftest import FIXTURES, REPO, need_sources
from kb.cli.main import cli
from kb.drift import fetch as fetch_module
from kb.drift.fetch import FetchError, fetch
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster


class Handler(BaseHTTPRequestHandler):
    """Routes: /doc/<name> (200, ETag, 304 on If-None-Match), /slow, /error (503), /flaky (503 once),
    /big (declared length), /stream (no length), /html, /latin1, anything else 404."""

    def log_message(self, *args):  # keep test output clean
        pass

    def do_GET(self):
        server = self.server
        server.requests.append((self.path, self.headers.get("If-None-Match")))
        path = self.path
        if path.startswith("/doc/"):
            body = server.docs.get(path[5:])
            if body is None:
                return self._send(404, b"not found")
            etag = f'"{hash(body) & 0xffff:x}"'
            if self.headers.get("If-None-Match") == etag:
                return self._send(304, b"", etag=etag)
            return self._send(200, body.encode(), etag=etag)
        if path == "/slow":
            time.sleep(1.0)
            return self._send(200, b"late")
        if path == "/error":
            return self._send(503, b"unavailable")
        if path == "/flaky":
            server.flaky += 1
            return self._send(503, b"x") if server.flaky == 1 else self._send(200, b"second time lucky")
        if path == "/big":
            return self._send(200, b"x" * 5000)
        if path == "/stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            for _ in range(10):
                self.wfile.write(b"y" * 1000)
            return None
        if path == "/html":
            return self._send(200, b"<!DOCTYPE html><html>Sign in</html>", ctype="text/html; charset=utf-8")
        if path == "/latin1":
            return self._send(200, "Grüße".encode("latin-1"))
        return self._send(404, b"not found")

    def _send(self, code: int, body: bytes, etag: str | None = None, ctype: str = "text/plain; charset=utf-8"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        if code != 304:
            self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        if code != 304:
            self.wfile.write(body)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setattr(fetch_module, "BACKOFF", 0.0)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.requests, srv.docs, srv.flaky = [], {}, 0
    srv.handle_error = lambda request, address: None  # a client that stops reading (size cap) is expected
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    srv.url = f"http://127.0.0.1:{srv.server_address[1]}"
    yield srv
    srv.shutdown()
    srv.server_close()


# --- fetch ------------------------------------------------------------------------------------------

def test_conditional_request_reuses_the_cached_body(server, tmp_path):
    server.docs["a.rst"] = "Release Notes\n"
    first = fetch(f"{server.url}/doc/a.rst", tmp_path)
    second = fetch(f"{server.url}/doc/a.rst", tmp_path)
    assert (first.status, first.text) == ("fetched", "Release Notes\n")
    assert (second.status, second.text) == ("not-modified", "Release Notes\n")
    assert [etag for _path, etag in server.requests] == [None, first.etag]


def test_changed_document_is_fetched_again(server, tmp_path):
    server.docs["a.rst"] = "one\n"
    fetch(f"{server.url}/doc/a.rst", tmp_path)
    server.docs["a.rst"] = "two\n"
    again = fetch(f"{server.url}/doc/a.rst", tmp_path)
    assert (again.status, again.text) == ("fetched", "two\n")


def test_5xx_is_retried_then_reported(server, tmp_path):
    with pytest.raises(FetchError) as err:
        fetch(f"{server.url}/error", tmp_path, retries=2)
    assert err.value.reason == "server-error"
    assert str(err.value) == f"HTTP 503 from {server.url}/error (after 3 attempts)"
    assert len(server.requests) == 3


def test_a_retry_can_succeed(server, tmp_path):
    assert fetch(f"{server.url}/flaky", tmp_path, retries=1).text == "second time lucky"
    assert len(server.requests) == 2


def test_timeout(server, tmp_path):
    with pytest.raises(FetchError) as err:
        fetch(f"{server.url}/slow", tmp_path, timeout=0.2, retries=1)
    assert err.value.reason == "timeout"
    assert str(err.value) == f"timed out fetching {server.url}/slow (after 2 attempts)"


@pytest.mark.parametrize("path,message", [
    ("/big", "{url} is 5000 bytes, more than the cap of 1000"),
    ("/stream", "{url} is larger than the cap of 1000 bytes"),
])
def test_size_cap(server, tmp_path, path, message):
    with pytest.raises(FetchError) as err:
        fetch(server.url + path, tmp_path, max_bytes=1000)
    assert (err.value.reason, str(err.value)) == ("oversize", message.format(url=server.url + path))
    assert len(server.requests) == 1  # not retried


@pytest.mark.parametrize("path,reason,message", [
    ("/html", "format", "{url} answered with an HTML page (text/html; charset=utf-8), not the raw document"),
    ("/latin1", "format", "{url} is not UTF-8 text (byte 0xfc at offset 2)"),
    ("/nothing", "http-error", "HTTP 404 from {url}"),
])
def test_unexpected_answers(server, tmp_path, path, reason, message):
    with pytest.raises(FetchError) as err:
        fetch(server.url + path, tmp_path)
    assert (err.value.reason, str(err.value)) == (reason, message.format(url=server.url + path))
    assert len(server.requests) == 1


def test_unreachable_host(tmp_path):
    with pytest.raises(FetchError) as err:
        fetch("http://127.0.0.1:9/nothing-listens-here", tmp_path, retries=0, timeout=2)
    assert err.value.reason == "network"


# --- gpukb sources check against the local server ----------------------------------------------------

NEWEST = {
    "gpu-operator-release-notes": "cloud-native-docs/release-notes@2026-08-21.rst",
    "gpu-operator-platform-support": "cloud-native-docs/platform-support@2026-08-21.rst",
}


@pytest.fixture
def served_catalog(tmp_path, monkeypatch, server):
    """The drift fixture catalog with every watch URL pointing at the local server (/doc/<source id>)."""
    root = tmp_path / "catalog"
    shutil.copytree(FIXTURES / "drift" / "catalog", root)
    shutil.copy(REPO / "catalog" / "platform-support.yaml", root / "platform-support.yaml")
    sources = yamlsafe.safe_load((root / "sources.yaml").read_text(encoding="utf-8"))
    for s in sources["sources"]:
        if "watch" in s:
            s["watch"]["url"] = f"{server.url}/doc/{s['id']}"
    (root / "sources.yaml").write_text(yaml.safe_dump(sources, sort_keys=False), encoding="utf-8")
    monkeypatch.setenv("GPUKB_CATALOG", str(root))
    # the fixture catalog has cards, not every method: only the MIG question's rules resolve against it
    monkeypatch.setattr("kb.questions.questions", lambda *a: ("mig",))
    for sid, rel in NEWEST.items():
        server.docs[sid] = (need_sources() / rel).read_text(encoding="utf-8")
    return root


def check(*args):
    result = CliRunner().invoke(cli, ["sources", "check", "--source", "gpu-operator-release-notes",
                                      "--source", "gpu-operator-platform-support", *map(str, args)])
    return result


def test_check_fetches_and_then_asks_conditionally(served_catalog, server):
    first = check("--json")
    assert first.exit_code == 0, first.output
    second = json.loads(check("--json").stdout)
    assert [(s["status"], s["read"]) for s in second["sources"]] == [("ok", "not-modified"), ("ok", "not-modified")]
    assert all(etag for _path, etag in server.requests[2:])


def test_a_failing_source_exits_3_and_is_neither_drift_nor_ok(served_catalog, server, tmp_path):
    del server.docs["gpu-operator-release-notes"]  # 404
    report = tmp_path / "drift.md"
    result = check("--json", "--report", report, "--retries", "0")
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    assert data["summary"] == {"sources": 2, "ok": 1, "reworded": 0, "drift": 0, "unreachable": 1, "unparseable": 0, "error": 0,
                               "could_not_check": 1, "facts_changed": 0, "quotes_reworded": 0, "notes": 0}
    assert data["sources"][0]["error"] == f"http-error: HTTP 404 from {server.url}/doc/gpu-operator-release-notes"
    text = report.read_text(encoding="utf-8")
    assert "## Could not be checked" in text
    assert f"(`gpu-operator-release-notes`), unreachable: http-error: HTTP 404 from {server.url}" in text
    assert "No drift" not in text


def test_server_errors_after_retries_exit_3(served_catalog, server, monkeypatch):
    monkeypatch.setattr(Handler, "do_GET", lambda self: self._send(502, b"bad gateway"))
    result = check("--json", "--retries", "1")
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    assert {s["status"] for s in data["sources"]} == {"unreachable"}
    assert data["sources"][1]["error"].endswith("(after 2 attempts)")


def test_oversize_exits_3(served_catalog, server):
    result = check("--json", "--max-bytes", "1000", "--retries", "0")
    assert result.exit_code == 3
    assert [s["error"].split(":")[0] for s in json.loads(result.stdout)["sources"]] == ["oversize", "oversize"]


def test_timeout_exits_3(served_catalog, server, monkeypatch):
    slow = Handler.do_GET

    def do_get(self):
        time.sleep(0.6)
        slow(self)

    monkeypatch.setattr(Handler, "do_GET", do_get)
    result = check("--json", "--timeout", "0.2", "--retries", "0")
    assert result.exit_code == 3
    assert [s["error"].split(":")[0] for s in json.loads(result.stdout)["sources"]] == ["timeout", "timeout"]


def test_html_instead_of_the_document_exits_3(served_catalog, server):
    server.docs["gpu-operator-platform-support"] = "<!DOCTYPE html><html><body>GitHub</body></html>"
    result = check("--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 3
    assert [(s["source"], s["status"]) for s in data["sources"]] == [
        ("gpu-operator-release-notes", "ok"), ("gpu-operator-platform-support", "unparseable")]
