"""Tests for minikcm.apiserver.http.maxinflight and the front's load limits (in-flight 429s, connection cap).

The unit tables follow TestMaxInFlightNonMutating / TestMaxInFlightMutating and
the long-running check of apiserver/pkg/server/filters (maxinflight_test.go), in
our words; the socket tests hold slots with requests whose body never comes.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from contextlib import ExitStack

import pytest

from minikcm.apiserver.http.maxinflight import (
    TOO_MANY_REQUESTS_MESSAGE,
    MaxInFlightLimit,
    RequestInfo,
    request_info,
)
from minikcm.apiserver.http.server import ServingSettings, serve

from .wire import HTTPSClient

DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"

REQUEST_INFO_CASES = [
    pytest.param("GET", DEPLOYMENTS, {}, RequestInfo("list", True), id="list"),
    pytest.param("GET", DEPLOYMENTS, {"watch": ["true"]}, RequestInfo("watch", True), id="watch-param"),
    pytest.param("GET", "/apis/apps/v1/watch/namespaces/default/deployments", {}, RequestInfo("watch", True),
                 id="legacy-watch"),
    pytest.param("GET", DEPLOYMENTS + "/web", {}, RequestInfo("get", True), id="get"),
    pytest.param("HEAD", DEPLOYMENTS + "/web", {}, RequestInfo("get", True), id="head-is-get"),
    pytest.param("POST", DEPLOYMENTS, {}, RequestInfo("create", True), id="create"),
    pytest.param("PUT", DEPLOYMENTS + "/web/scale", {}, RequestInfo("update", True, "scale"), id="update-scale"),
    pytest.param("PATCH", DEPLOYMENTS + "/web", {}, RequestInfo("patch", True), id="patch"),
    pytest.param("DELETE", DEPLOYMENTS, {}, RequestInfo("deletecollection", True), id="deletecollection"),
    pytest.param("GET", "/api/v1/namespaces/default/pods/p/log", {}, RequestInfo("get", True, "log"), id="log"),
    pytest.param("GET", "/version", {}, RequestInfo("get", False), id="non-resource"),
    pytest.param("HEAD", "/healthz", {}, RequestInfo("head", False), id="non-resource-head"),
    pytest.param("GET", "/nowhere", {}, RequestInfo("get", False), id="unknown-path"),
]


@pytest.mark.parametrize("method, path, query, info", REQUEST_INFO_CASES)
def test_request_info(method, path, query, info):
    assert request_info(method, path, query) == info


def test_reads_and_writes_have_separate_limits():
    limit = MaxInFlightLimit(2, 1)
    reads = [limit.admit(RequestInfo("list", True)) for _ in range(3)]
    assert reads[0] and reads[1] and reads[2] is None
    write = limit.admit(RequestInfo("create", True))
    assert write is not None and limit.admit(RequestInfo("delete", True)) is None
    reads[0]()
    assert limit.admit(RequestInfo("get", True)) is not None
    write()
    assert limit.admit(RequestInfo("patch", True)) is not None
    assert limit.dropped == 2 and limit.watermark == {False: 2, True: 1}


@pytest.mark.parametrize("info", [
    RequestInfo("watch", True), RequestInfo("proxy", True), RequestInfo("create", True, "exec"),
    RequestInfo("get", True, "log"), RequestInfo("create", True, "portforward"), RequestInfo("get", True, "attach"),
])
def test_long_running_requests_are_exempt(info):
    limit = MaxInFlightLimit(1, 1)
    assert all(limit.admit(info) is not None for _ in range(5))
    assert limit.in_flight == {False: 0, True: 0}


def test_a_zero_limit_means_no_limit():
    limit = MaxInFlightLimit(0, 0)
    assert all(limit.admit(RequestInfo("create", True)) is not None for _ in range(1000))


# --- over a socket -------------------------------------------------------------------------------


def held_post(front) -> socket.socket:
    """A POST whose head is sent and whose body never comes: it holds a mutating slot."""
    sock = socket.create_connection((front.host, front.port), timeout=5)
    tls = front.ssl_context().wrap_socket(sock, server_hostname=front.host)
    tls.sendall((f"POST {DEPLOYMENTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {front.token}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{").encode())
    return tls


@pytest.mark.threaded
def test_over_the_mutating_limit_is_429_with_retry_after_and_reads_go_on(server, tmp_path):
    settings = ServingSettings(max_mutating_requests_inflight=2, max_requests_inflight=1, read_body_timeout=5.0)
    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig", settings=settings)
    client = HTTPSClient(front)
    with front, ExitStack() as stack:
        for _ in range(2):
            stack.enter_context(held_post(front))
        deadline = time.monotonic() + 5
        while front.server.in_flight.in_flight[True] < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        status, headers, body = client.request("POST", DEPLOYMENTS, {"metadata": {"name": "x"}})
        assert status == 429 and headers.get("Retry-After") == "1"
        assert body.decode().strip() == TOO_MANY_REQUESTS_MESSAGE
        assert server.list("deployments", "default")["items"] == []  # nothing was created
        assert client.json("GET", DEPLOYMENTS)[0] == 200  # reads have their own limit
        watch = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=5)
        try:  # watches are exempt: with reads limited to 1, an open watch and a list both pass
            watch.request("GET", DEPLOYMENTS + "?watch=1", headers={"Authorization": f"Bearer {front.token}"})
            assert watch.getresponse().status == 200
        finally:
            watch.close()


@pytest.mark.threaded
def test_connections_past_the_cap_wait_until_one_closes(server, tmp_path):
    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig", settings=ServingSettings(max_connections=2))
    with front:
        first, second = (socket.create_connection((front.host, front.port), timeout=5) for _ in range(2))
        time.sleep(0.2)  # both accepted: the cap is reached
        answered = threading.Event()

        def third() -> None:
            if HTTPSClient(front).json("GET", "/version")[0] == 200:
                answered.set()

        thread = threading.Thread(target=third, daemon=True)
        thread.start()
        assert not answered.wait(0.7), "a connection past the cap was served"
        first.close()
        assert answered.wait(5), "the waiting connection was not served once a slot freed"
        second.close()
        thread.join(5)


def test_a_restart_removes_the_old_kubeconfig_before_it_serves(server, tmp_path):
    path = tmp_path / "kubeconfig"
    path.write_text("stale: the previous server's\n")
    seen: list[bool] = []
    from minikcm.apiserver.http import kubeconfig

    real_wait = kubeconfig.wait_ready

    def spying_wait(*args, **kwargs):
        seen.append(path.exists())
        return real_wait(*args, **kwargs)

    kubeconfig.wait_ready = spying_wait
    try:
        with serve(server, kubeconfig_path=path) as front:
            assert seen == [False]  # gone while the new server was not yet answering
            assert front.url in path.read_text()
    finally:
        kubeconfig.wait_ready = real_wait
