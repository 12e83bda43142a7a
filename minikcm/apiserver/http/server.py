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
- Request framing is read as strictly as Go reads it: Content-Length and
  chunk sizes are plain digits (Python's int() also takes signs, `0x` and
  `_`; a chunk size of -1 once made the front read a body without limit).
- Accepted sockets get TCP_NODELAY (as Go sets on every TCP connection), and
  a response's headers and body go out in one write (`take_headers`): with
  Nagle's algorithm on, every request waited ~40 ms for a delayed ACK.
- Shutdown sets `stopping`, stops the accept loop, shuts the sockets of open
  connections (waking idle keep-alive readers and ending watches) and waits a
  bounded time for their threads.

Differs from kube-apiserver: no HTTP/2, no request timeouts for short requests,
no priority and fairness, no audit log.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import logging
import queue
import re
import select
import shutil
import socket
import socketserver
import ssl
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from minikcm.apimachinery import errors
from minikcm.apiserver.http import auth, handlers, kubeconfig, tls
from minikcm.apiserver.http.handlers import RESTHandler, Response, WatchStream
from minikcm.apiserver.server import APIServer
from minikcm.clock import Clock, RealClock, Seconds

log = logging.getLogger(__name__)

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

PLAIN_HTTP_REPLY = b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"
TLS_HANDSHAKE_RECORD = 0x16


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


CHUNK_LINE_LIMIT = 4096
"""The longest chunk-size line (with extensions) or trailer line accepted (Go: 4096)."""
MAX_TRAILERS = 100
_CHUNK_SIZE = re.compile(rb"[0-9a-fA-F]{1,16}")
_CONTENT_LENGTH = re.compile(r"[0-9]{1,19}")


def parse_chunk_size(line: bytes) -> int:
    """Port of parseHexUint and the size-line parsing of chunkedReader.beginChunk (net/http/internal/chunked.go).

    At most 16 hex digits, nothing else (no sign, no `0x`, no `_`) before an
    optional `;extension`.

    Raises:
        StatusError: 400 for anything else.
    """
    if not line.endswith(b"\n") or len(line) >= CHUNK_LINE_LIMIT:
        raise errors.new_bad_request("malformed chunked request body: bad chunk-size line")
    digits = line.rstrip(b"\r\n").split(b";", 1)[0].rstrip(b" \t")
    if not _CHUNK_SIZE.fullmatch(digits):
        raise errors.new_bad_request(f"malformed chunked request body: invalid chunk size {digits[:32]!r}")
    return int(digits, 16)


def unsupported_transfer_encoding(value: str) -> errors.StatusError:
    """The 501 Go's net/http answers to a Transfer-Encoding other than one `chunked`, as a Status."""
    return errors.StatusError({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                               "message": f"unsupported transfer encoding: {value[:64]!r}",
                               "reason": "NotImplemented", "code": 501})


def parse_content_length(raw: str) -> int:
    """A Content-Length header as Go's net/http reads it (strconv.ParseUint): ASCII digits only.

    Raises:
        StatusError: 400 for anything else (a sign, `_`, spaces inside, a list).
    """
    text = raw.strip(" \t")
    if not _CONTENT_LENGTH.fullmatch(text):
        raise errors.new_bad_request(f"invalid Content-Length {raw[:32]!r}")
    return int(text)


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
        super().__init__(address, RequestHandler)

    # -- connections -----------------------------------------------------------------------

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


def set_no_delay(sock: socket.socket) -> None:
    """Turn off Nagle's algorithm on an accepted connection (Go's net package does this for every TCP conn).

    Tricky: with Nagle on, a response written in two pieces (TLS records for
    the headers, then the body) waits for the client to acknowledge the
    first piece before sending the second, and clients delay that
    acknowledgement by up to 40 ms: every request took about 45 ms instead of
    about 1.5 ms.
    """
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass  # not a TCP socket (or already closed); there is no delay to avoid


def _shutdown_socket(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by its thread, or never connected


def _close_quietly(sock: socket.socket) -> None:
    try:
        sock.close()
    except OSError:
        pass  # closing a socket whose peer vanished can fail; there is nothing left to do


def _reply_plain_http(sock: socket.socket) -> None:
    """Tell a plain-HTTP client it reached a TLS port (as Go's net/http does), then hang up."""
    try:
        sock.sendall(PLAIN_HTTP_REPLY)
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(0.5)
        while sock.recv(4096):
            pass  # drain what the client sent, so the close is a FIN, not a reset
    except OSError:
        pass  # the client went away first; nothing to tell it


class DeadlineSocketReader(io.RawIOBase):
    """A connection's reads, each allowed only what is left until the current deadline.

    A socket timeout bounds one read; a client sending a byte just before
    each read would time out could hold a connection forever. The handler
    sets a deadline per phase instead (`expect`): the request head, the body.
    `expect(first_byte_within=...)` is the keep-alive wait: the idle timeout
    runs until the first byte of the next request, then the head's own limit.
    Without a deadline, reads keep the socket's timeout as it is.
    """

    def __init__(self, sock: socket.socket, clock: Clock) -> None:
        super().__init__()
        self.sock = sock
        self.clock = clock
        self.deadline: datetime | None = None
        self._after_first_byte: Seconds | None = None

    def expect(self, within: Seconds | None, *, first_byte_within: Seconds | None = None) -> None:
        """The next reads must be done `within` seconds (None: no deadline) of now, or of the first byte.

        With `first_byte_within`, the first byte must come within that long,
        and the `within` seconds start when it does.
        """
        self._after_first_byte = None
        if first_byte_within is not None:
            self.deadline = self.clock.now() + timedelta(seconds=first_byte_within)
            self._after_first_byte = within
        else:
            self.deadline = None if within is None else self.clock.now() + timedelta(seconds=within)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        """One read from the socket, bounded by the deadline.

        Raises:
            TimeoutError: the deadline passed (the handler closes the connection).
        """
        if self.deadline is not None:
            left = self.clock.until(self.deadline)
            if left <= 0:
                raise TimeoutError("the client took too long to send its request")
            self.sock.settimeout(left)
        n = self.sock.recv_into(buffer)
        if n and self._after_first_byte is not None:
            self.expect(self._after_first_byte)
        return n


class RequestReader(io.BufferedReader):
    """The buffered request stream; while `head_budget` is set, lines count against it (MaxHeaderBytes).

    `http.client.parse_headers` reads the headers line by line through
    `readline`; when the budget is spent it raises LineTooLong, which
    BaseHTTPRequestHandler answers with 431.
    """

    raw: DeadlineSocketReader
    head_budget: int | None = None

    def readline(self, size: int | None = -1) -> bytes:
        budget = self.head_budget
        if budget is None:
            return super().readline(size)
        limit = budget + 1 if size is None or size < 0 else min(size, budget + 1)
        line = super().readline(limit)
        self.head_budget = budget - len(line)
        if self.head_budget < 0:
            raise http.client.LineTooLong("request headers are larger than the server accepts")
        return line


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
        try:
            body = self.read_body()
        except errors.StatusError as err:
            self.close_connection = True
            self.write(handlers.status_response(err))
            self.discard_input()
            return
        url = urlsplit(self.path)
        request = handlers.Request(self.command, url.path, parse_qs(url.query, keep_blank_values=True),
                                   self.headers, body)
        srv.set_busy(self.connection, True)
        try:
            result = srv.rest.handle(request)
            if isinstance(result, WatchStream):
                self.stream_watch(result)
            else:
                self.write(result)
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
        limit = settings.max_request_body_bytes
        self.rfile.raw.expect(settings.read_body_timeout)
        try:
            encodings = self.headers.get_all("Transfer-Encoding") or []
            if encodings:
                if len(encodings) != 1 or encodings[0].strip(" \t").lower() != "chunked":
                    raise unsupported_transfer_encoding(", ".join(encodings))
                return self.read_chunked(limit)
            raw = self.headers.get("Content-Length")
            if raw is None:
                return b""
            length = parse_content_length(raw)
            if length > limit:
                raise errors.new_request_entity_too_large_error(f"limit is {limit}")
            body = self.rfile.read(length)
            if len(body) != length:
                raise errors.new_bad_request("the request body ended early")
            return body
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
            try:
                length = parse_content_length(self.headers.get("Content-Length") or "")
            except errors.StatusError:
                length = -1
            if 0 <= length <= DISCARD_LIMIT_BYTES:
                self.rfile.read(length)
                return
            left = DISCARD_LIMIT_BYTES
            while left > 0:
                data = self.rfile.read1(min(left, 65536))
                if not data:
                    return
                left -= len(data)
        except (OSError, ValueError):
            return  # the client stopped sending or left: either way, done
        finally:
            self.rfile.raw.expect(None)

    def read_chunked(self, limit: int) -> bytes:
        """Port of chunkedReader.Read (net/http/internal/chunked.go), in small: the chunks of a body, joined.

        Raises:
            StatusError: 400 for a malformed chunk (size, ending), 413 past `limit`.
        """
        parts: list[bytes] = []
        total = 0
        trailers = 0
        while True:
            size = parse_chunk_size(self.rfile.readline(CHUNK_LINE_LIMIT))
            if size == 0:
                while self.rfile.readline(CHUNK_LINE_LIMIT) not in (b"\r\n", b"\n", b""):
                    trailers += 1  # trailers are ignored, but not without end
                    if trailers > MAX_TRAILERS:
                        raise errors.new_bad_request("malformed chunked request body: too many trailers")
                return b"".join(parts)
            total += size
            if total > limit:
                raise errors.new_request_entity_too_large_error(f"limit is {limit}")
            part = self.rfile.read(size)
            if len(part) != size or self.rfile.readline(3) not in (b"\r\n", b"\n"):
                raise errors.new_bad_request("malformed chunked request body: a chunk ended early")
            parts.append(part)

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


def _client_host(bound: str) -> str:
    """The address clients should use for a bind address (wildcards become loopback)."""
    if bound in ("0.0.0.0", ""):
        return "127.0.0.1"
    if bound == "::":
        return "::1"
    return bound


def _url(host: str, port: int) -> str:
    return f"https://[{host}]:{port}" if ":" in host else f"https://{host}:{port}"


def wait_ready(host: str, port: int, token: str, context: ssl.SSLContext, clock: Clock,
               timeout: float = 10.0) -> None:
    """Block until `GET /readyz` answers 200 over TLS with the token (or raise after `timeout`).

    Raises:
        RuntimeError: the server did not answer in time.
    """
    started = clock.now()
    last: Exception | None = None
    while clock.since(started) < timeout:
        conn = http.client.HTTPSConnection(host, port, context=context, timeout=2.0)
        try:
            conn.request("GET", "/readyz", headers={"Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                return
            last = RuntimeError(f"/readyz answered {response.status}")
        except OSError as err:
            last = err
        finally:
            conn.close()
        clock.sleep(0.05)
    raise RuntimeError(f"the API server at {_url(host, port)} did not become ready: {last}")


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
        client_host = _client_host(bind)
        extra = [h for h in (bind, client_host) if h not in ("0.0.0.0", "::")]
        certs = tls.ensure_certs(state, extra)
        rest = RESTHandler(api)
        server = HTTPSServer((bind, port), rest, tls.server_ssl_context(certs), token, clock, settings)
    except BaseException:
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)
        raise
    bound_port = server.server_address[1]
    rest.server_address = f"[{client_host}]:{bound_port}" if ":" in client_host else f"{client_host}:{bound_port}"
    thread = threading.Thread(name="apiserver/http", target=server.serve_forever,
                              kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    default_kubeconfig = (Path(data_dir) if data_dir is not None else state) / "kubeconfig"
    handle = ServerHandle(_url(client_host, bound_port), Path(kubeconfig_path or default_kubeconfig),
                          token, certs, client_host, bound_port, server, thread, owned)
    try:
        wait_ready(client_host, bound_port, token, handle.ssl_context(), clock, ready_timeout)
        kubeconfig.write_kubeconfig(handle.kubeconfig_path,
                                    kubeconfig.build_kubeconfig(handle.url, certs.ca_pem, token))
    except BaseException:
        handle.shutdown()
        raise
    return handle
