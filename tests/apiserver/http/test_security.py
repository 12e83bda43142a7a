"""Security checks of the HTTPS front (minikcm.apiserver.http.server), on a real socket on 127.0.0.1.

Each test is an attack or a mistake a learner's machine may meet, and what the
front must do about it, after kube-apiserver with anonymous auth disabled:

- no token or a wrong one: 401 Unauthorized (a Status), nothing routed;
- plain HTTP to the TLS port: a 400 that leaks nothing, and the server keeps serving;
- a non-loopback bind without `allow_non_loopback`: refused before anything listens
  (nothing here ever serves on a non-loopback address);
- a 10 MiB body: 413 RequestEntityTooLarge; a chunk size or Content-Length
  that Go would refuse (sign, `0x`, `_`, -1): 400 at once, never read
  leniently or without limit; a Transfer-Encoding other than one `chunked`: 501;
- oversized request lines and headers: 414 / 431 (kube-apiserver allows 1 MiB of
  headers), and the server lives on;
- slow clients (slowloris): the time a request's head may take is bounded
  (`ServingSettings.read_header_timeout`), and a normal request is answered
  quickly while fifty of them dribble; an idle keep-alive connection closes
  after `idle_timeout`; these deadlines run in real time even when the server
  has a fake clock;
- the kubeconfig, the token, the CA key and the SQLite files (with -wal/-shm)
  are owner-only (0600), their directories 0700, whatever the umask; kept
  files found with wider modes are narrowed.

Everything is bounded in count and time and stops by itself.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import ssl
import stat
import threading
import time
from contextlib import ExitStack, contextmanager

import pytest

from minikcm import cli
from minikcm.apiserver.http.server import BindRefused, serve
from minikcm.apiserver.persistence import DB_FILE
from minikcm.apiserver.server import APIServer

from ..builders import deployment
from .wire import HTTPSClient

pytestmark = pytest.mark.threaded

DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"
MiB = 1024 * 1024


def tls_socket(front, timeout: float = 5.0) -> ssl.SSLSocket:
    """A TLS connection to the front that trusts its CA (handshake done)."""
    sock = socket.create_connection((front.host, front.port), timeout=timeout)
    return front.ssl_context().wrap_socket(sock, server_hostname=front.host)


def read_response(sock: ssl.SSLSocket) -> tuple[int, bytes]:
    response = http.client.HTTPResponse(sock)
    response.begin()
    return response.status, response.read()


def post_head(token: str, framing: str) -> bytes:
    """The head of an authenticated POST of a Deployment, with `framing` (Content-Length / Transfer-Encoding)."""
    return (f"POST {DEPLOYMENTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\n{framing}\r\n\r\n").encode()


def still_serves(front) -> None:
    """A normal authenticated request right after the attack is answered, and fast."""
    started = time.monotonic()
    status, body = HTTPSClient(front).json("GET", "/version")
    assert status == 200 and body["gitVersion"]
    assert time.monotonic() - started < 2.0


# --- authentication ------------------------------------------------------------------------------------


def auth_cases(token: str) -> list[tuple[str, dict[str, str]]]:
    return [
        ("no-header", {}),
        ("empty-bearer", {"Authorization": "Bearer "}),
        ("wrong-token", {"Authorization": "Bearer " + "x" * len(token)}),
        ("token-prefix", {"Authorization": "Bearer " + token[:-1]}),
        ("token-plus-suffix", {"Authorization": "Bearer " + token + "x"}),
        ("token-other-case", {"Authorization": "Bearer " + token.swapcase()}),
        ("token-without-scheme", {"Authorization": token}),
        ("basic-scheme", {"Authorization": "Basic " + token}),
        ("token-in-query", {}),
    ]


def test_requests_without_the_right_token_are_401_and_change_nothing(front, server):
    client = HTTPSClient(front)
    for case, headers in auth_cases(front.token):
        path = DEPLOYMENTS + (f"?access_token={front.token}" if case == "token-in-query" else "")
        status, _, data = client.request("POST", path, json.dumps(deployment("web")), token=None,
                                         headers={"Content-Type": "application/json", **headers})
        body = json.loads(data)
        assert (status, body["kind"], body["reason"], body["code"]) == (401, "Status", "Unauthorized", 401), case
        assert front.token not in data.decode(), case
        status, _, data = client.request("GET", "/api/v1/namespaces", token=None, headers=headers)
        assert status == 401 and b"kube-system" not in data, case
    assert server.list("deployments", "default")["items"] == []
    still_serves(front)


# --- plain HTTP ------------------------------------------------------------------------------------------


def test_plain_http_is_refused_without_leaking_and_without_hurting_the_server(front):
    for _ in range(10):
        with socket.create_connection((front.host, front.port), timeout=5) as sock:
            sock.sendall(f"GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n"
                         f"Authorization: Bearer {front.token}\r\n\r\n".encode())
            reply = b""
            while chunk := sock.recv(4096):
                reply += chunk
        assert reply.startswith(b"HTTP/1.0 400 ")
        assert b"kube-system" not in reply and front.token.encode() not in reply and b"gitVersion" not in reply
    still_serves(front)


# --- bind address ----------------------------------------------------------------------------------------


NON_LOOPBACK_CASES = [
    pytest.param("0.0.0.0", id="all-ipv4"),
    pytest.param("::", id="all-ipv6"),
    pytest.param("10.1.2.3", id="private-address"),
]


@pytest.mark.parametrize("address", NON_LOOPBACK_CASES)
def test_non_loopback_bind_is_refused_before_anything_listens(server, tmp_path, address):
    kubeconfig = tmp_path / "kubeconfig"
    with pytest.raises(BindRefused, match="allow-non-loopback"):
        serve(server, bind_address=address, kubeconfig_path=kubeconfig)
    assert not kubeconfig.exists()


@pytest.mark.parametrize("command", [pytest.param("apiserver", id="apiserver"), pytest.param("up", id="up")])
def test_the_cli_exits_non_zero_with_a_clear_message_for_a_non_loopback_bind(command, tmp_path, capsys):
    kubeconfig = tmp_path / "kubeconfig"
    code = cli.main([command, "--bind-address", "0.0.0.0", "--port", "0", "--kubeconfig", str(kubeconfig)])
    err = capsys.readouterr().err
    assert code == 2
    assert "refusing to listen on 0.0.0.0" in err and "--allow-non-loopback" in err
    assert not kubeconfig.exists()


# --- oversized and malformed bodies ----------------------------------------------------------------------


def test_a_10_mib_body_is_413_and_the_server_lives_on(front, server):
    body = b'{"kind": "Deployment", "padding": "' + b"x" * (10 * MiB) + b'"}'
    head = post_head(front.token, f"Content-Length: {len(body)}")
    with tls_socket(front) as sock:
        sock.sendall(head)
        try:
            sock.sendall(body)  # the server may answer and close before all of it is sent
        except OSError:
            pass
        status, data = read_response(sock)
    status_body = json.loads(data)
    assert (status, status_body["reason"], status_body["code"]) == (413, "RequestEntityTooLarge", 413)
    assert server.list("deployments", "default")["items"] == []
    still_serves(front)


CHUNK_SIZE_CASES = [
    pytest.param(lambda n: b"-1", id="negative"),
    pytest.param(lambda n: b"0x%x" % n, id="hex-prefix"),
    pytest.param(lambda n: b"%x_" % (n // 16) + b"%x" % (n % 16), id="underscore"),
    pytest.param(lambda n: b"+%x" % n, id="plus-sign"),
    pytest.param(lambda n: b"0" * 30 + b"%x" % n, id="thirty-leading-zeros"),
    pytest.param(lambda n: b"1" * 40, id="forty-digits"),
]


@pytest.mark.parametrize("size", CHUNK_SIZE_CASES)
def test_a_bogus_chunk_size_is_400_at_once(front, server, size):
    """Go's chunked reader takes at most 16 hex digits; Python's int(x, 16) also takes signs, 0x and underscores.

    Each body would be a valid Deployment if the size were read leniently;
    a size of -1 made the front read the body until the client closed, without limit.
    """
    data = json.dumps(deployment("web")).encode()
    with tls_socket(front, timeout=3.0) as sock:
        sock.sendall(post_head(front.token, "Transfer-Encoding: chunked") + size(len(data)) + b"\r\n" + data
                     + b"\r\n0\r\n\r\n")  # then the client holds the connection open
        status, body = read_response(sock)
    assert (status, json.loads(body)["reason"]) == (400, "BadRequest")
    assert server.list("deployments", "default")["items"] == []
    still_serves(front)


TRANSFER_ENCODING_CASES = [
    pytest.param("Transfer-Encoding: gzip, chunked", id="gzip-then-chunked"),
    pytest.param("Transfer-Encoding: identity", id="identity"),
    pytest.param("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked", id="two-headers"),
]


@pytest.mark.parametrize("framing", TRANSFER_ENCODING_CASES)
def test_an_unsupported_transfer_encoding_is_501(front, server, framing):
    """Go answers 501 to any Transfer-Encoding but a single `chunked`; reading such a body some other way desyncs."""
    data = json.dumps(deployment("web")).encode()
    with tls_socket(front, timeout=3.0) as sock:
        sock.sendall(post_head(front.token, framing) + b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data))
        status, body = read_response(sock)
    assert status == 501 and json.loads(body)["code"] == 501
    assert server.list("deployments", "default")["items"] == []


CONTENT_LENGTH_CASES = [
    pytest.param(lambda n: b"-1", id="negative"),
    pytest.param(lambda n: b"+%d" % n, id="plus-sign"),
    pytest.param(lambda n: b"%d_%d" % (n // 10, n % 10), id="underscore"),
    pytest.param(lambda n: b"%d, %d" % (n, n), id="list"),
]


@pytest.mark.parametrize("length", CONTENT_LENGTH_CASES)
def test_a_bogus_content_length_is_400(front, server, length):
    """Go's strconv.ParseUint takes ASCII digits only; each body would be a valid Deployment if read leniently."""
    data = json.dumps(deployment("web")).encode()
    with tls_socket(front, timeout=3.0) as sock:
        sock.sendall(post_head(front.token, "Content-Length: " + length(len(data)).decode()) + data)
        status, body = read_response(sock)
    assert (status, json.loads(body)["reason"]) == (400, "BadRequest")
    assert server.list("deployments", "default")["items"] == []


# --- oversized request heads -----------------------------------------------------------------------------


def head_with(extra: bytes, token: str) -> bytes:
    return b"GET /version HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token.encode() + b"\r\n" + extra + b"\r\n"


OVERSIZED_HEAD_CASES = [
    pytest.param(lambda t: b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414, id="request-line-70k"),
    pytest.param(lambda t: head_with(b"X-Big: " + b"a" * 70_000 + b"\r\n", t), 431, id="one-header-70k"),
    pytest.param(lambda t: head_with(b"".join(b"X-H%d: v\r\n" % i for i in range(150)), t), 431,
                 id="150-headers"),
    pytest.param(lambda t: head_with(b"".join(b"X-H%d: %s\r\n" % (i, b"a" * 60_000) for i in range(30)), t),
                 431, id="1.7MiB-of-headers"),
]


@pytest.mark.parametrize("make_head, code", OVERSIZED_HEAD_CASES)
def test_oversized_request_heads_are_refused_and_the_server_lives_on(front, make_head, code):
    with tls_socket(front) as sock:
        try:
            sock.sendall(make_head(front.token))
        except OSError:
            pass  # refused before we finished sending: the answer is still there to read
        status, data = read_response(sock)
    assert status == code
    assert json.loads(data)["kind"] == "Status"
    still_serves(front)


# --- slow clients ----------------------------------------------------------------------------------------


def is_closed(sock: ssl.SSLSocket) -> bool:
    """Whether the server closed `sock` (EOF or reset), without blocking."""
    sock.setblocking(False)
    try:
        return sock.recv(1024) == b""
    except (ssl.SSLWantReadError, BlockingIOError):
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def test_slow_clients_are_cut_off_and_never_starve_a_normal_request(server, tmp_path):
    from minikcm.apiserver.http.server import ServingSettings

    settings = ServingSettings(read_header_timeout=1.0, handshake_timeout=1.0)
    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig", settings=settings)
    with front, ExitStack() as stack:
        slow = [stack.enter_context(tls_socket(front)) for _ in range(50)]
        silent = stack.enter_context(socket.create_connection((front.host, front.port), timeout=5))
        started = time.monotonic()
        for sock in slow:
            sock.sendall(b"GET /version HTTP/1.1\r\n")  # and the headers never end
        still_serves(front)  # answered at once while fifty connections hang on
        open_ = list(slow)
        while open_ and time.monotonic() - started < 4.0:
            for sock in open_:
                try:
                    sock.sendall(b"X: y\r\n")  # a header line every 100 ms: each read succeeds
                except OSError:
                    pass
            time.sleep(0.1)
            open_ = [sock for sock in open_ if not is_closed(sock)]
        elapsed = time.monotonic() - started
        assert not open_, f"{len(open_)} dribbling connections still open after {elapsed:.1f}s"
        assert elapsed >= 0.9, "cut off before read_header_timeout"
        silent.settimeout(3.0)
        assert silent.recv(1) == b""  # no TLS hello within handshake_timeout: closed
        still_serves(front)


def test_an_idle_keep_alive_connection_is_closed_after_idle_timeout(server, tmp_path):
    from minikcm.apiserver.http.server import ServingSettings

    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig", settings=ServingSettings(idle_timeout=0.5))
    with front:
        conn = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=5)
        conn.request("GET", "/version", headers={"Authorization": f"Bearer {front.token}"})
        assert conn.getresponse().read()
        conn.sock.settimeout(3.0)
        started = time.monotonic()
        assert conn.sock.recv(1) == b""
        assert 0.4 <= time.monotonic() - started < 2.5
        conn.close()


# --- file modes ------------------------------------------------------------------------------------------


@contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask", [pytest.param(0o022, id="umask-022"), pytest.param(0o000, id="umask-000")])
def test_credentials_and_data_files_are_owner_only(fake_clock, tmp_path, mask):
    data = tmp_path / "data"
    kubeconfig = tmp_path / "config-dir" / "kubeconfig"
    with umask(mask):
        api = APIServer(clock=fake_clock, data_dir=str(data))
        try:
            front = serve(api, data_dir=data, kubeconfig_path=kubeconfig)
            with front:
                api.create("deployments", "default", deployment("web"))
                files = {name: data / name for name in (DB_FILE, DB_FILE + "-wal", DB_FILE + "-shm")}
                files.update({"kubeconfig": kubeconfig, "token": data / "pki" / "token",
                              "ca.key": data / "pki" / "ca.key", "apiserver.key": data / "pki" / "apiserver.key"})
                for name, path in files.items():
                    if path.exists() or name in ("kubeconfig", "token", "ca.key", DB_FILE, DB_FILE + "-wal"):
                        assert mode(path) == 0o600, f"{name}: {oct(mode(path))}"
                for directory in (data, data / "pki", kubeconfig.parent):
                    assert mode(directory) == 0o700, f"{directory}: {oct(mode(directory))}"
                for cert in ("ca.crt", "apiserver.crt"):
                    assert mode(data / "pki" / cert) & 0o022 == 0, cert  # public, but nobody else may write it
        finally:
            api.close()


def test_an_existing_world_readable_database_is_made_private(fake_clock, tmp_path):
    data = tmp_path / "data"
    APIServer(clock=fake_clock, data_dir=str(data)).close()
    os.chmod(data / DB_FILE, 0o644)
    api = APIServer(clock=fake_clock, data_dir=str(data))
    try:
        assert mode(data / DB_FILE) == 0o600
    finally:
        api.close()


def test_the_lease_identity_file_is_owner_only(tmp_path):
    from minikcm.up import IDENTITY_FILE, stable_identity

    with umask(0o022):
        stable_identity(tmp_path / "fresh")
    assert mode(tmp_path / "fresh" / IDENTITY_FILE) == 0o600
    assert mode(tmp_path / "fresh") == 0o700


def test_a_thread_per_attack_does_not_outlive_the_front(server, tmp_path):
    """After shutdown, no connection thread of the front is left (the attacks above ended with it)."""
    before = {t.ident for t in threading.enumerate()}
    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig")
    socks = [tls_socket(front) for _ in range(5)]
    for sock in socks:
        sock.sendall(b"GET /version HTTP/1.1\r\n")
    front.shutdown()
    for sock in socks:
        sock.close()
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline and {t.ident for t in threading.enumerate()} - before:
        time.sleep(0.05)
    assert not {t.ident for t in threading.enumerate()} - before


def test_credentials_left_with_wide_modes_are_made_private_at_start(server, tmp_path):
    """A token or key file from an older version (or a careless copy) is narrowed to 0600 when it is reused."""
    data = tmp_path / "data"
    serve(server, data_dir=data).shutdown()
    for name in ("token", "ca.key", "apiserver.key"):
        os.chmod(data / "pki" / name, 0o644)
    os.chmod(data / "pki", 0o755)
    front = serve(server, data_dir=data)
    with front:
        for name in ("token", "ca.key", "apiserver.key"):
            assert mode(data / "pki" / name) == 0o600, name
        assert mode(data / "pki") == 0o700


def test_read_deadlines_run_in_real_time_whatever_the_servers_clock(server, fake_clock, tmp_path):
    """A front on a fake clock that jumps an hour ahead still reads requests (socket timeouts are real time)."""
    front = serve(server, kubeconfig_path=tmp_path / "kubeconfig", clock=fake_clock)
    with front:
        conn = http.client.HTTPSConnection(front.host, front.port, context=front.ssl_context(), timeout=5)
        try:
            for _ in range(2):  # the second request waits on the keep-alive connection
                conn.request("GET", "/version", headers={"Authorization": f"Bearer {front.token}"})
                response = conn.getresponse()
                assert response.status == 200 and response.read()
                fake_clock.step(3600)
        finally:
            conn.close()
