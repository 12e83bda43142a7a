"""No upstream twin. The HTTPS server: TLS, the token check, body limits, streaming, and `serve`.

kube-apiserver's generic server (apiserver/pkg/server: secure serving, the
authentication filter, the max-request-body limit, long-running request
handling) shrunk to a standard-library `ThreadingHTTPServer`: one thread per
connection, each request authenticated, read (at most MAX_REQUEST_BODY_BYTES),
handed to `minikcm.apiserver.http.handlers.RESTHandler`, and answered. Watches
are written as chunked newline-delimited JSON, one event per chunk.

`serve()` is what commands call: it makes (or reuses) the certificates and the
token, binds, starts the server thread, checks that the server answers, and
only then writes the kubeconfig. It returns a `ServerHandle` (`url`,
`kubeconfig_path`, `shutdown()`).

Start reading at: serve, then RequestHandler.serve_request, RequestHandler.stream_watch.

Design notes:
- Loopback only by default. `check_bind_address` refuses any other address
  unless the caller passes `allow_non_loopback=True` (the CLI's
  `--allow-non-loopback`): the token is the only protection, and it should not
  be exposed to a network by accident.
- The TLS handshake runs in the connection's thread, not in the accept loop,
  so a client that connects and stays silent delays nobody. A plain-HTTP
  request to the port gets the one-line 400 that Go servers send, then the
  connection closes; nothing is served over plain HTTP.
- A watch notices a client that went away either when a write fails or, when
  idle, by polling its socket every WATCH_POLL_SECONDS; either way the
  server-side watch is stopped and nothing is logged above DEBUG.
- Slow clients (slowloris) are bounded by deadlines, not per-read timeouts:
  a socket timeout restarts with every byte, so a client dribbling a byte at
  a time could hold a connection thread forever. `DeadlineSocketReader`
  gives each phase (TLS handshake, request head, body, keep-alive wait) one
  deadline from `ServingSettings` (kube-apiserver's ReadHeaderTimeout,
  IdleTimeout, MaxHeaderBytes), and every connection has its own thread, so
  fifty dribbling clients cost fifty threads for at most read_header_timeout
  and nobody else waits.
- Request framing, deadlines and TCP_NODELAY are minikcm.apiserver.http.framing;
  a response's headers and body go out in one write (`take_headers`).
- Shutdown sets `stopping`, stops the accept loop, shuts the sockets of open
  connections (waking idle keep-alive readers and ending watches) and waits a
  bounded time for their threads.

- Load: kube-apiserver's max-in-flight filter (minikcm.apiserver.http.maxinflight)
  answers 429 past 400 reads or 200 writes in flight (watches exempt), and at
  most `max_connections` connections are open (each costs a thread); further
  ones wait in the listen backlog.

Differs from kube-apiserver: no HTTP/2, no request timeouts for short requests,
no priority and fairness (max-in-flight instead), no audit log.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import logging
import queue
import select
import shutil
import socket
import socketserver
import ssl
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from minikcm.apimachinery import errors
from minikcm.apiserver.http import auth, handlers, kubeconfig, tls
from minikcm.apiserver.http.framing import (
    TLS_HANDSHAKE_RECORD,
    DeadlineSocketReader,
    RequestReader,
    _close_quietly,
    _reply_plain_http,
    _shutdown_socket,
    discard_request_body,
    read_request_body,
    set_no_delay,
)
from minikcm.apiserver.http.handlers import RESTHandler, Response, WatchStream
from minikcm.apiserver.http.maxinflight import (
    DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT,
    DEFAULT_MAX_REQUESTS_INFLIGHT,
    RETRY_AFTER,
    TOO_MANY_REQUESTS_MESSAGE,
    MaxInFlightLimit,
    request_info,
)
from minikcm.apiserver.server import APIServer
from minikcm.clock import Clock, RealClock, Seconds

log = logging.getLogger(__name__)
access_log = logging.getLogger("minikcm.apiserver.http.access")
"""kubectl's writes and their answers: what a user did to the cluster (shown at verbosity 0)."""

MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024
"""kube-apiserver's limit on a request body (3 MiB); larger bodies get 413."""

MAX_HEADER_BYTES = 1 << 20
"""kube-apiserver's http.Server MaxHeaderBytes: request line and headers together; more gets 431."""

IDLE_TIMEOUT_SECONDS = 90.0
"""kube-apiserver's IdleTimeout: how long a keep-alive connection may wait for its next request."""

READ_HEADER_TIMEOUT_SECONDS = 32.0
"""kube-apiserver's ReadHeaderTimeout: from a request's first byte (or the connection's start) to its blank line."""

READ_BODY_TIMEOUT_SECONDS = 60.0
"""How long a request body may take to arrive (kube-apiserver's default --request-timeout)."""

WRITE_TIMEOUT_SECONDS = 90.0
"""How long one write to a client may block (a client that stopped reading)."""

HANDSHAKE_TIMEOUT_SECONDS = 10.0
"""From accepting a connection to the end of its TLS handshake."""

WATCH_POLL_SECONDS = 0.25
"""How often an idle watch checks whether its client left or the server is stopping."""

MAX_CONNECTIONS = 1024
"""Open connections at most (Go: netutil.LimitListener); more wait in the listen backlog until one closes."""

SHUTDOWN_WAIT_SECONDS = 3.0
DISCARD_TIMEOUT_SECONDS = 2.0
"""How long, in all, an answered request's unread body is drained before the connection closes."""
DISCARD_LIMIT_BYTES = 4 * MAX_REQUEST_BODY_BYTES


@dataclass(frozen=True)
class ServingSettings:
    """The front's limits; the defaults are kube-apiserver's (see the constants above).

    Every wait on a client is bounded by one of these, so a slow or silent
    client (slowloris) holds its own connection thread for a bounded time and
    never anyone else's.
    """

    max_request_body_bytes: int = MAX_REQUEST_BODY_BYTES
    max_header_bytes: int = MAX_HEADER_BYTES
    handshake_timeout: Seconds = HANDSHAKE_TIMEOUT_SECONDS
    read_header_timeout: Seconds = READ_HEADER_TIMEOUT_SECONDS
    read_body_timeout: Seconds = READ_BODY_TIMEOUT_SECONDS
    idle_timeout: Seconds = IDLE_TIMEOUT_SECONDS
    write_timeout: Seconds = WRITE_TIMEOUT_SECONDS
    discard_timeout: Seconds = DISCARD_TIMEOUT_SECONDS
    max_requests_inflight: int = DEFAULT_MAX_REQUESTS_INFLIGHT
    max_mutating_requests_inflight: int = DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT
    max_connections: int = MAX_CONNECTIONS


class BindRefused(ValueError):
    """The bind address is not loopback and non-loopback serving was not explicitly allowed."""


def check_bind_address(address: str, allow_non_loopback: bool) -> str:
    """The IP address to bind; refuses non-loopback addresses unless allowed.

    `localhost` means 127.0.0.1. Other host names are refused: bind to an address.

    Raises:
        BindRefused: see above.
    """
    if address == "localhost":
        return "127.0.0.1"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        raise BindRefused(f"--bind-address must be an IP address (or localhost), not {address!r}") from None
    if not ip.is_loopback and not allow_non_loopback:
        raise BindRefused(
            f"refusing to listen on {address}: it is not a loopback address, and anyone who can "
            "reach it could try the token; pass --allow-non-loopback to serve other hosts")
    return str(ip)


def format_warning(text: str) -> str:
    """A `Warning:` header value as kube-apiserver writes it: `299 - "<text>"`."""
    return '299 - "' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class HTTPSServer(ThreadingHTTPServer):
    """The listening server: TLS per connection, shared settings for every handler thread."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], rest: RESTHandler, ssl_context: ssl.SSLContext,
                 token: str, clock: Clock | None = None, settings: ServingSettings | None = None) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.rest = rest
        self.ssl_context = ssl_context
        self.token = token
        self.clock: Clock = clock or RealClock()
        self.io_clock: Clock = RealClock()
        """For the deadlines of socket reads: a socket's timeout runs in real time, whatever `clock` is."""
        self.settings = settings or ServingSettings()
        self.stopping = threading.Event()
        """Set once shutdown begins: watches end, no new work starts."""
        self._lock = threading.Condition()
        self._open: set[socket.socket] = set()  # every connection being served (raw or TLS)
        self._busy: set[socket.socket] = set()  # connections in the middle of a request or watch
        self.in_flight = MaxInFlightLimit(self.settings.max_requests_inflight,
                                          self.settings.max_mutating_requests_inflight)
        self._slots = threading.BoundedSemaphore(self.settings.max_connections)
        self.saturated = False
        """The connection cap was reached (logged once per saturation)."""
        super().__init__(address, RequestHandler)

    # -- connections -----------------------------------------------------------------------

    def get_request(self) -> tuple[Any, Any]:
        """Accept a connection once one of `max_connections` slots is free (Go: netutil.LimitListener).

        While the cap is reached, new connections wait in the kernel's listen
        backlog; open ones are served on as before. `shutdown_request` gives
        the slot back, once per accepted connection.
        """
        if not self._slots.acquire(blocking=False):
            if not self.saturated:
                self.saturated = True
                log.warning("%d connections are open (the cap): new ones wait until one closes",
                            self.settings.max_connections)
            while not self._slots.acquire(timeout=WATCH_POLL_SECONDS):
                if self.stopping.is_set():
                    raise OSError("the server is stopping")
        self.saturated = False
        try:
            return super().get_request()
        except BaseException:
            self._slots.release()
            raise

    def shutdown_request(self, request: Any) -> None:
        try:
            super().shutdown_request(request)
        finally:
            self._slots.release()

    def finish_request(self, request: Any, client_address: Any) -> None:
        """Per connection, in its own thread: TLS handshake, then the HTTP/1.1 request loop."""
        self._track(request)
        conn = None
        try:
            set_no_delay(request)
            conn = self.accept_tls(request)
            if conn is None:
                return
            self._track(conn)
            RequestHandler(conn, client_address, self)
        finally:
            if conn is not None:
                self._untrack(conn)
                _close_quietly(conn)
            self._untrack(request)

    def accept_tls(self, sock: socket.socket) -> ssl.SSLSocket | None:
        """The TLS side of a fresh connection, or None (plain HTTP, failed handshake, stopping).

        The first byte and the whole handshake share one `handshake_timeout`
        (CPython bounds a handshake as a whole, not per read).
        """
        started = self.io_clock.now()
        sock.settimeout(self.settings.handshake_timeout)
        try:
            first = sock.recv(1, socket.MSG_PEEK)
        except OSError:
            return None
        if not first or self.stopping.is_set():
            return None
        if first[0] != TLS_HANDSHAKE_RECORD:
            _reply_plain_http(sock)
            return None
        left = self.settings.handshake_timeout - self.io_clock.since(started)
        if left <= 0:
            return None
        sock.settimeout(left)
        try:
            return self.ssl_context.wrap_socket(sock, server_side=True)
        except (ssl.SSLError, OSError) as err:
            log.debug("TLS handshake failed: %s", err)
            return None

    def _track(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.add(sock)

    def _untrack(self, sock: socket.socket) -> None:
        with self._lock:
            self._open.discard(sock)
            self._busy.discard(sock)
            self._lock.notify_all()

    def set_busy(self, sock: socket.socket, busy: bool) -> None:
        """Mark a connection as serving a request (shutdown waits for it) or idle (shutdown closes it)."""
        with self._lock:
            if busy:
                self._busy.add(sock)
            else:
                self._busy.discard(sock)
                self._lock.notify_all()

    def server_bind(self) -> None:
        """Bind without HTTPServer's reverse DNS lookup of the address (slow, and not needed)."""
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Connection failures (resets, TLS errors, timeouts) are normal: DEBUG. Anything else is a bug: ERROR."""
        err = sys.exc_info()[1]
        if isinstance(err, (OSError, ValueError)):  # ssl.SSLError and TimeoutError are OSErrors
            log.debug("connection from %s ended: %s", client_address, err)
        else:
            log.error("error serving a connection from %s", client_address, exc_info=True)

    # -- shutdown --------------------------------------------------------------------------

    def stop(self, wait_seconds: float = SHUTDOWN_WAIT_SECONDS) -> None:
        """Stop accepting, end every open connection and watch, wait (bounded) for their threads.

        Thread: any but the one running serve_forever.
        """
        self.stopping.set()
        self.shutdown()
        with self._lock:
            for sock in self._open - self._busy:
                _shutdown_socket(sock)  # idle keep-alive connections and handshakes end now
            self._lock.wait_for(lambda: not self._busy, timeout=wait_seconds)  # watches see `stopping`
            for sock in list(self._open):
                _shutdown_socket(sock)
            self._lock.wait_for(lambda: not self._open, timeout=wait_seconds)
        self.server_close()


class RequestHandler(BaseHTTPRequestHandler):
    """One connection's HTTP/1.1 loop (keep-alive); one `serve_request` per request.

    Every read has a deadline from the server's ServingSettings: the first
    request's head must arrive within `read_header_timeout` of the connection,
    a later one's first byte within `idle_timeout` of the previous answer and
    its head within `read_header_timeout` of that byte, a body within
    `read_body_timeout`. A deadline that passes closes the connection.
    """

    protocol_version = "HTTP/1.1"
    server_version = "minikcm-apiserver"
    sys_version = ""
    server: HTTPSServer
    rfile: RequestReader
    requests_started = 0

    def setup(self) -> None:
        """The connection's streams: reads through a RequestReader with deadlines, writes bounded by write_timeout."""
        super().setup()
        self.connection.settimeout(self.server.settings.write_timeout)
        self.rfile.close()  # the plain stream setup() made: it holds a reference that keeps the socket open
        self.rfile = RequestReader(DeadlineSocketReader(self.connection, self.server.io_clock), self.rbufsize
                                   if self.rbufsize > 0 else io.DEFAULT_BUFFER_SIZE)

    def handle_one_request(self) -> None:
        """Set the head's deadline and byte budget, then read and serve one request (BaseHTTPRequestHandler)."""
        settings = self.server.settings
        if self.requests_started == 0:
            self.rfile.raw.expect(settings.read_header_timeout)
        else:
            self.rfile.raw.expect(settings.read_header_timeout, first_byte_within=settings.idle_timeout)
        self.requests_started += 1
        self.rfile.head_budget = settings.max_header_bytes
        try:
            super().handle_one_request()
        except http.client.LineTooLong:  # the request line alone spent the budget (parse_headers catches its own)
            self.requestline = self.request_version = self.command = ""
            self.send_error(431, "Request Header Fields Too Large")
        finally:
            self.rfile.head_budget = None

    def do_GET(self) -> None:
        self.serve_request()

    def version_string(self) -> str:
        return self.server_version

    do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    # -- one request -----------------------------------------------------------------------

    def serve_request(self) -> None:
        """Authenticate, read the body, let the REST handler answer, write the answer."""
        srv = self.server
        if not auth.authenticate(self.headers.get("Authorization"), srv.token):
            self.close_connection = True
            self.write(handlers.status_response(auth.unauthorized()))
            self.discard_input()
            return
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        release = srv.in_flight.admit(request_info(self.command, url.path, query))
        if release is None:
            self.close_connection = True  # the body stays unread
            self.write(Response(429, (TOO_MANY_REQUESTS_MESSAGE + "\n").encode(), "text/plain; charset=utf-8",
                                headers=[("Retry-After", RETRY_AFTER)]))
            self.discard_input()
            return
        try:
            self.serve_admitted(url.path, query)
        finally:
            release()

    def serve_admitted(self, path: str, query: dict[str, list[str]]) -> None:
        """Read the body of a request the in-flight limit let through, and answer it."""
        srv = self.server
        try:
            body = self.read_body()
        except errors.StatusError as err:
            self.close_connection = True
            self.write(handlers.status_response(err))
            self.discard_input()
            return
        request = handlers.Request(self.command, path, query, self.headers, body)
        srv.set_busy(self.connection, True)
        try:
            result = srv.rest.handle(request)
            if isinstance(result, WatchStream):
                self.stream_watch(result)
            else:
                self.write(result)
                if self.command not in ("GET", "HEAD") and access_log.isEnabledFor(logging.INFO):
                    agent = (self.headers.get("User-Agent") or "").split("/", 1)[0]
                    if agent.startswith("kubectl"):  # what a user did (minikcm.logs.USER_ACTION_LOGGERS)
                        access_log.info("kubectl %s %s: %d", self.command, path, result.code)
        finally:
            srv.set_busy(self.connection, False)
        if srv.stopping.is_set():
            self.close_connection = True

    def read_body(self) -> bytes:
        """The request body, refusing more than the server's limit; it must arrive within read_body_timeout.

        Raises:
            StatusError: 413 RequestEntityTooLarge, 400 for a malformed length or chunking,
                501 for a Transfer-Encoding other than one `chunked`.
            TimeoutError: the body did not arrive in time (the connection is dropped).
        """
        settings = self.server.settings
        self.rfile.raw.expect(settings.read_body_timeout)
        try:
            return read_request_body(self.rfile, self.headers, settings.max_request_body_bytes)
        finally:
            self.end_reading()

    def end_reading(self) -> None:
        """Back to writing: no read deadline, and the socket's timeout bounds each write."""
        self.rfile.raw.expect(None)
        self.connection.settimeout(self.server.settings.write_timeout)

    def discard_input(self) -> None:
        """Read and drop what the client is still sending (bounded), before the connection closes.

        Closing a socket with unread input makes TCP send a reset, which can
        destroy the error response the client has not read yet (Go's server
        does the same "lingering close").
        """
        try:
            self.rfile.raw.expect(self.server.settings.discard_timeout)
            discard_request_body(self.rfile, self.headers, DISCARD_LIMIT_BYTES)
        except (OSError, ValueError):
            return  # the client stopped sending or left: either way, done
        finally:
            self.rfile.raw.expect(None)

    # -- writing ---------------------------------------------------------------------------

    def write(self, response: Response) -> None:
        """Send a complete response; a client that vanished meanwhile only ends the connection."""
        try:
            self.end_reading()
            self.send_response(response.code)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            self.send_header("Cache-Control", "no-cache, private")
            self.send_header("X-Content-Type-Options", "nosniff")
            for warning in response.warnings:
                self.send_header("Warning", format_warning(warning))
            for name, value in response.headers:
                self.send_header(name, value)
            if self.close_connection:
                self.send_header("Connection", "close")
            head = self.take_headers()  # instead of end_headers: headers and body leave in one write
            self.wfile.write(head if self.command == "HEAD" else head + response.body)
        except (OSError, ValueError) as err:  # ValueError: write to a closed file
            log.debug("client left before the response was written: %s", err)
            self.close_connection = True

    def take_headers(self) -> bytes:
        """The buffered status line and headers with their closing blank line, taken from the buffer unsent.

        end_headers would write them at once, in a TLS record and TCP segment
        of their own; `write` sends them together with the body instead.
        """
        buffered: list[bytes] = getattr(self, "_headers_buffer", [])  # BaseHTTPRequestHandler's buffer
        self._headers_buffer = []
        if self.request_version == "HTTP/0.9":
            return b""  # HTTP/0.9 answers have no headers
        return b"".join(buffered) + b"\r\n"

    def stream_watch(self, stream: WatchStream) -> None:
        """Port of WatchServer.HandleHTTP (apiserver/pkg/endpoints/handlers/watch.go), in small.

        Writes each event as one chunk until the watch ends (its channel
        closes), timeoutSeconds passes, the server stops, or the client goes
        away; then the terminal chunk. The server-side watch is always stopped.
        """
        self.close_connection = True
        srv = self.server
        chan = stream.watcher.result_chan()
        started = srv.clock.now()
        try:
            self.end_reading()
            self.send_response(200)
            self.send_header("Content-Type", stream.content_type)
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Cache-Control", "no-cache, private")
            self.end_headers()
            while not srv.stopping.is_set():
                wait = WATCH_POLL_SECONDS
                if stream.timeout_seconds is not None:
                    left = stream.timeout_seconds - srv.clock.since(started)
                    if left <= 0:
                        break
                    wait = min(wait, left)
                try:
                    event = chan.recv(timeout=wait)
                except queue.Empty:
                    if self.client_gone():
                        return
                    continue
                if event is None:
                    break  # the server ended the watch (timeout step, 410, too slow)
                self.write_chunk(stream.encode(event))
            self.wfile.write(b"0\r\n\r\n")
        except (OSError, ValueError) as err:
            log.debug("watch client went away: %s", err)
        finally:
            stream.watcher.stop()

    def write_chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))

    def client_gone(self) -> bool:
        """Whether the peer closed the connection (checked only while a watch is idle)."""
        conn: socket.socket = self.connection
        try:
            readable, _, _ = select.select([conn], [], [], 0)
        except (OSError, ValueError):
            return True
        if not readable:
            return False
        previous = conn.gettimeout()
        try:
            conn.settimeout(0.05)
            return conn.recv(1) == b""
        except (ssl.SSLWantReadError, TimeoutError, BlockingIOError):
            return False
        except OSError:
            return True
        finally:
            try:
                conn.settimeout(previous)
            except OSError:
                pass  # the socket closed under us; the next write will notice

    # -- BaseHTTPRequestHandler hooks ------------------------------------------------------

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Protocol errors (bad request line, unknown method) as a Status, not an HTML page."""
        phrase = self.responses.get(code, ("Error",))[0]
        status = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                  "message": message or phrase, "reason": phrase.replace(" ", ""), "code": code}
        self.close_connection = True
        if not self.request_version.startswith("HTTP/1."):
            self.request_version = "HTTP/1.0"  # answer a garbled request line with a real status line
        self.write(Response(code, handlers.encode_json(status)))

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the stdlib's name)
        log.debug("%s - " + format, self.address_string(), *args)


# --- serve ----------------------------------------------------------------------------------


@dataclass
class ServerHandle:
    """A running HTTPS front. `shutdown()` stops it (idempotent)."""

    url: str
    """`https://127.0.0.1:<port>`: what the kubeconfig points at."""
    kubeconfig_path: Path
    token: str
    certs: tls.Certs
    host: str
    port: int
    server: HTTPSServer = field(repr=False)
    thread: threading.Thread = field(repr=False)
    owned_dir: Path | None = field(default=None, repr=False)
    """A temporary directory `serve` made (removed on shutdown)."""

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that trusts this server's CA."""
        return tls.client_ssl_context(self.certs.ca_pem)

    def shutdown(self) -> None:
        if self.server.stopping.is_set() and not self.thread.is_alive():
            return
        self.server.stop()
        self.thread.join(SHUTDOWN_WAIT_SECONDS)
        if self.owned_dir is not None:
            shutil.rmtree(self.owned_dir, ignore_errors=True)

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


def serve(api: APIServer, *, port: int = 0, bind_address: str = "127.0.0.1",
          allow_non_loopback: bool = False, kubeconfig_path: str | Path | None = None,
          data_dir: str | Path | None = None, token: str | None = None,
          clock: Clock | None = None, ready_timeout: float = 10.0,
          settings: ServingSettings | None = None) -> ServerHandle:
    """Start the HTTPS front for `api` in a background thread (`apiserver/http`).

    Certificates and the token are kept in `<data_dir>/pki/` when a data
    directory is given (so restarts keep kubeconfigs valid), else in a
    temporary directory removed on shutdown. The kubeconfig goes to
    `kubeconfig_path` (default: `kubeconfig` in the data or temporary
    directory) and is written
    only after the server answered a real HTTPS request. `port=0` picks a free
    port. The caller owns `api` and its step loop (`api.run`): bookmarks and
    server-side watch timeouts come from there. `settings` holds the limits
    and timeouts (default: kube-apiserver's).

    Raises:
        BindRefused: a non-loopback `bind_address` without `allow_non_loopback`.
        OSError: the port is taken.
    """
    clock = clock or RealClock()
    bind = check_bind_address(bind_address, allow_non_loopback)
    owned: Path | None = None
    if data_dir is not None:
        state = Path(data_dir) / "pki"
    else:
        owned = state = Path(tempfile.mkdtemp(prefix="minikcm-apiserver-"))
    try:
        token = token or (auth.load_or_create_token(state / "token") if owned is None else auth.new_token())
        client_host = kubeconfig.client_host(bind)
        extra = [h for h in (bind, client_host) if h not in ("0.0.0.0", "::")]
        certs = tls.ensure_certs(state, extra)
        rest = RESTHandler(api)
        server = HTTPSServer((bind, port), rest, tls.server_ssl_context(certs), token, clock, settings)
    except BaseException:
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)
        raise
    default_kubeconfig = (Path(data_dir) if data_dir is not None else state) / "kubeconfig"
    # Bound: a restart's old kubeconfig (--port 0 picked another port) goes now, so that the
    # file appears again only when this server answers.
    kubeconfig.remove_stale(Path(kubeconfig_path or default_kubeconfig))
    bound_port = server.server_address[1]
    rest.server_address = f"[{client_host}]:{bound_port}" if ":" in client_host else f"{client_host}:{bound_port}"
    thread = threading.Thread(name="apiserver/http", target=server.serve_forever,
                              kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    handle = ServerHandle(kubeconfig.server_url(client_host, bound_port), Path(kubeconfig_path or default_kubeconfig),
                          token, certs, client_host, bound_port, server, thread, owned)
    try:
        kubeconfig.wait_ready(client_host, bound_port, token, handle.ssl_context(), clock, ready_timeout)
        kubeconfig.write_kubeconfig(handle.kubeconfig_path,
                                    kubeconfig.build_kubeconfig(handle.url, certs.ca_pem, token))
    except BaseException:
        handle.shutdown()
        raise
    return handle
