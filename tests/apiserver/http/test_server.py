"""Tests for minikcm.apiserver.http.server: the HTTPS front on a real socket (security, bad input, watch)."""

from __future__ import annotations

import http.client
import json
import logging
import os
import socket
import ssl
import stat
import statistics
import threading
import time

import pytest
import yaml

from minikcm.apiserver.http.server import (
    MAX_REQUEST_BODY_BYTES,
    BindRefused,
    check_bind_address,
    format_warning,
    serve,
)

from ..builders import deployment, pod
from .wire import HTTPSClient

pytestmark = pytest.mark.threaded

DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"
PODS = "/api/v1/namespaces/default/pods"


def eventually(predicate, timeout: float = 5.0) -> bool:
    """Poll `predicate` for up to `timeout` real seconds (threaded tests only)."""
    pause = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if predicate():
            return True
        pause.wait(0.02)
    return predicate()


def watcher_count(server) -> int:
    with server.storage.lock:
        return len(server.storage.watchers_locked())


def open_stream(front, path: str) -> tuple[http.client.HTTPSConnection, http.client.HTTPResponse]:
    conn = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=10)
    conn.request("GET", path, headers={"Authorization": f"Bearer {front.token}"})
    return conn, conn.getresponse()


# --- serving, kubeconfig -----------------------------------------------------------------------


def test_kubeconfig_is_private_and_points_at_the_server(front):
    mode = stat.S_IMODE(os.stat(front.kubeconfig_path).st_mode)
    config = yaml.safe_load(front.kubeconfig_path.read_text())
    assert mode == 0o600
    assert config["clusters"][0]["cluster"]["server"] == front.url
    assert config["users"][0]["user"]["token"] == front.token
    assert front.url.startswith("https://127.0.0.1:")


def test_requests_over_https(https):
    status, version = https.json("GET", "/version")
    assert (status, version["gitVersion"]) == (200, "v1.32.4")
    status, created = https.json("POST", DEPLOYMENTS, deployment("web"))
    assert status == 201 and created["metadata"]["name"] == "web"


def test_keep_alive_serves_several_requests_on_one_connection(front):
    conn = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=10)
    try:
        for _ in range(3):
            conn.request("GET", "/healthz", headers={"Authorization": f"Bearer {front.token}"})
            response = conn.getresponse()
            assert (response.status, response.read()) == (200, b"ok")
    finally:
        conn.close()


def test_a_get_round_trip_does_not_wait_for_delayed_acks(front, server):
    """Accepted sockets set TCP_NODELAY and answers leave in one write, so a GET takes ~1 ms, not ~45 ms.

    Without them, the second piece of each answer waits for the client's
    delayed ACK (40 ms on Linux). 30 ms leaves room for a loaded machine.
    """
    server.create("pods", "default", pod("p"))
    conn = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=10)
    took = []
    try:
        for _ in range(20):
            started = time.perf_counter()
            conn.request("GET", f"{PODS}/p", headers={"Authorization": f"Bearer {front.token}"})
            response = conn.getresponse()
            assert response.status == 200 and json.loads(response.read())["metadata"]["name"] == "p"
            took.append(time.perf_counter() - started)
    finally:
        conn.close()
    assert statistics.median(took) < 0.030, f"median GET round trip {statistics.median(took) * 1000:.1f} ms"


def test_warning_header_for_unknown_fields(https):
    obj = deployment("web")
    obj["spec"]["foo"] = 1
    status, headers, _ = https.request("POST", DEPLOYMENTS, obj)
    assert status == 201
    assert headers.get_all("Warning") == ['299 - "unknown field \\"spec.foo\\""']


def test_format_warning_escapes_quotes():
    assert format_warning('a "b" \\c') == '299 - "a \\"b\\" \\\\c"'


# --- security ----------------------------------------------------------------------------------

AUTH_CASES = [
    pytest.param(None, id="no-token"),
    pytest.param("wrong", id="wrong-token"),
    pytest.param("", id="empty-token"),
]


@pytest.mark.parametrize("token", AUTH_CASES)
def test_requests_without_the_token_are_401(https, server, token):
    status, body = https.json("POST", DEPLOYMENTS, deployment("web"), token=token)
    assert status == 401
    assert (body["kind"], body["reason"], body["code"]) == ("Status", "Unauthorized", 401)
    assert server.list("deployments", "default")["items"] == []


def test_basic_auth_is_not_accepted(https):
    status, _, _ = https.request("GET", "/version", token=None, headers={"Authorization": "Basic dXNlcjpwdw=="})
    assert status == 401


def test_every_endpoint_needs_the_token(https):
    for path in ("/version", "/healthz", "/api", "/apis", "/openapi/v3", PODS):
        status, _, _ = https.request("GET", path, token=None)
        assert status == 401, path


def test_plain_http_to_the_tls_port_is_refused(front):
    conn = http.client.HTTPConnection(front.host, front.port, timeout=5)
    try:
        conn.request("GET", "/version", headers={"Authorization": f"Bearer {front.token}"})
        response = conn.getresponse()
        body = response.read()
    finally:
        conn.close()
    assert response.status == 400
    assert b"HTTPS" in body and b"gitVersion" not in body


def test_the_server_certificate_is_checked_by_clients(front):
    untrusting = ssl.create_default_context()
    conn = http.client.HTTPSConnection(front.host, front.port, context=untrusting, timeout=5)
    with pytest.raises(ssl.SSLCertVerificationError):
        conn.request("GET", "/version")
    conn.close()


BIND_CASES = [
    pytest.param("0.0.0.0", id="all-ipv4"),
    pytest.param("::", id="all-ipv6"),
    pytest.param("192.168.1.10", id="lan-address"),
    pytest.param("example.com", id="host-name"),
]


@pytest.mark.parametrize("address", BIND_CASES)
def test_non_loopback_bind_is_refused_without_the_flag(server, address):
    with pytest.raises(BindRefused):
        serve(server, bind_address=address)


LOOPBACK_CASES = [
    pytest.param("127.0.0.1", False, "127.0.0.1", id="ipv4-loopback"),
    pytest.param("localhost", False, "127.0.0.1", id="localhost"),
    pytest.param("::1", False, "::1", id="ipv6-loopback"),
    pytest.param("0.0.0.0", True, "0.0.0.0", id="allowed-explicitly"),
]


@pytest.mark.parametrize("address, allow, want", LOOPBACK_CASES)
def test_check_bind_address(address, allow, want):
    assert check_bind_address(address, allow) == want


# --- bad input -----------------------------------------------------------------------------------


def raw_request(front, head: bytes, body: bytes = b"") -> tuple[int, dict]:
    """Send hand-written request bytes over TLS; returns the status and the parsed Status body."""
    context = front.ssl_context()
    with socket.create_connection((front.host, front.port), timeout=10) as sock:
        with context.wrap_socket(sock, server_hostname=front.host) as tls_sock:
            tls_sock.sendall(head + body)
            response = http.client.HTTPResponse(tls_sock)
            response.begin()
            return response.status, json.loads(response.read())


def test_oversized_body_is_413_without_reading_it(front, server):
    head = (f"POST {DEPLOYMENTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {front.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {MAX_REQUEST_BODY_BYTES + 1}\r\n\r\n").encode()
    status, body = raw_request(front, head, b"{")
    assert status == 413 and body["reason"] == "RequestEntityTooLarge"
    assert server.list("deployments", "default")["items"] == []


def test_oversized_chunked_body_is_413(front):
    head = (f"POST {DEPLOYMENTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {front.token}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    status, body = raw_request(front, head, b"%x\r\n" % (MAX_REQUEST_BODY_BYTES + 1))
    assert status == 413


def test_chunked_body_within_the_limit_is_read(front, server):
    data = json.dumps(deployment("web")).encode()
    head = (f"POST {DEPLOYMENTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {front.token}\r\n"
            "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    chunks = b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (10, data[:10], len(data) - 10, data[10:])
    status, _ = raw_request(front, head, chunks)
    assert status == 201 and server.get("deployments", "default", "web")


def test_a_garbled_request_line_gets_a_status(front):
    status, body = raw_request(front, b"NOT A REQUEST\r\n\r\n")
    assert status == 400 and body["kind"] == "Status"


BAD_INPUT_CASES = [
    pytest.param(b'{"kind": "Deployment", ', "application/json", 400, id="malformed-json"),
    pytest.param(b"kind: [Deployment", "application/yaml", 400, id="malformed-yaml"),
    pytest.param(b'{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}, '
                 b'"spec": {"selector": {}, "template": {}}}', "application/json", 422, id="invalid-object"),
]


@pytest.mark.parametrize("raw, content_type, code", BAD_INPUT_CASES)
def test_bad_input_over_https(https, server, raw, content_type, code):
    status, headers, data = https.request("POST", DEPLOYMENTS, raw, headers={"Content-Type": content_type})
    body = json.loads(data)
    assert status == code and body["kind"] == "Status" and body["code"] == code
    assert b"Traceback" not in data
    if code == 422:
        assert body["details"]["causes"]
    assert server.list("deployments", "default")["items"] == []


def test_unknown_resource_is_a_404_status(https):
    status, body = https.json("GET", "/apis/apps/v1/namespaces/default/gadgets")
    assert (status, body["reason"]) == (404, "NotFound")


# --- watch ------------------------------------------------------------------------------------


def test_watch_streams_chunked_json_lines(front, https, server):
    _, listed = https.json("GET", DEPLOYMENTS)
    rv = listed["metadata"]["resourceVersion"]
    conn, response = open_stream(front, f"{DEPLOYMENTS}?watch=1&resourceVersion={rv}")
    try:
        assert response.headers["Transfer-Encoding"] == "chunked"
        https.json("POST", DEPLOYMENTS, deployment("a"))
        https.json("DELETE", DEPLOYMENTS + "/a")
        lines = [json.loads(response.readline()) for _ in range(2)]
    finally:
        conn.close()
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in lines] == [("ADDED", "a"), ("DELETED", "a")]


def test_watch_ends_at_timeout_seconds_with_the_terminal_chunk(front, https):
    https.json("POST", PODS, pod("a"))
    conn, response = open_stream(front, f"{PODS}?watch=true&timeoutSeconds=1")
    try:
        data = response.read()  # returns only after the terminal chunk
    finally:
        conn.close()
    assert [json.loads(line)["type"] for line in data.splitlines()] == ["ADDED"]


def test_watch_bookmarks(front, server):
    conn, response = open_stream(front, f"{PODS}?watch=true&allowWatchBookmarks=true&resourceVersion=1")
    try:
        assert eventually(lambda: watcher_count(server) == 1)
        server.send_bookmarks(force=True)
        event = json.loads(response.readline())
    finally:
        conn.close()
    assert event["type"] == "BOOKMARK" and event["object"]["metadata"]["resourceVersion"]


def test_a_closed_client_ends_the_server_side_watch_quietly(front, server, caplog):
    with caplog.at_level(logging.INFO, logger="minikcm"):
        conns = [open_stream(front, f"{PODS}?watch=true")[0] for _ in range(3)]
        assert eventually(lambda: watcher_count(server) == 3)
        for conn in conns:
            conn.close()
        assert eventually(lambda: watcher_count(server) == 0)
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []


def test_shutdown_ends_open_watches_promptly(server, tmp_path):
    handle = serve(server, kubeconfig_path=tmp_path / "kc")
    conn, response = open_stream(handle, f"{PODS}?watch=true")
    assert eventually(lambda: watcher_count(server) == 1)
    done = threading.Event()
    threading.Thread(target=lambda: (handle.shutdown(), done.set()), daemon=True).start()
    assert done.wait(5.0)
    assert watcher_count(server) == 0
    assert response.read() == b""  # the stream ended cleanly
    conn.close()


def test_shutdown_removes_the_temporary_state(server):
    handle = serve(server)
    state = handle.kubeconfig_path.parent
    assert state.exists()
    handle.shutdown()
    assert not state.exists()
    handle.shutdown()  # idempotent


def test_data_dir_keeps_token_and_ca_across_restarts(server, tmp_path):
    first = serve(server, data_dir=tmp_path)
    token, ca = first.token, first.certs.ca_pem
    first.shutdown()
    second = serve(server, data_dir=tmp_path)
    try:
        assert (second.token, second.certs.ca_pem) == (token, ca)
        assert second.kubeconfig_path == tmp_path / "kubeconfig"
        assert HTTPSClient(second).json("GET", "/version")[0] == 200
    finally:
        second.shutdown()
