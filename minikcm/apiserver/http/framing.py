"""No upstream twin. The bytes of one connection: request framing and reads with deadlines.

What Go's net/http does below the handler, for the HTTPS front
(minikcm.apiserver.http.server): Content-Length and chunk sizes read as
strictly as Go reads them, the request head counted against MaxHeaderBytes,
every read bounded by the deadline of its phase (so a client dribbling one
byte at a time cannot hold a connection forever), TCP_NODELAY on accepted
sockets, and the one-line answer to plain HTTP on the TLS port.

Design notes: Content-Length and chunk sizes are plain digits (Python's int()
also takes signs, `0x` and `_`; a chunk size of -1 once made the front read a
body without limit). Accepted sockets get TCP_NODELAY, as Go sets on every TCP
connection: with Nagle's algorithm on, every request waited ~40 ms for a
delayed ACK.

Start reading at: read_request_body, DeadlineSocketReader, then RequestReader.
"""

from __future__ import annotations

import http.client
import io
import re
import socket
from datetime import datetime, timedelta
from typing import Any

from minikcm.apimachinery import errors
from minikcm.clock import Clock, Seconds

PLAIN_HTTP_REPLY = b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"
TLS_HANDSHAKE_RECORD = 0x16


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


def read_request_body(rfile: RequestReader, headers: Any, limit: int) -> bytes:
    """The body of one request: by Content-Length, or chunked; at most `limit` bytes.

    Raises:
        StatusError: 413 RequestEntityTooLarge, 400 for a malformed length or chunking,
            501 for a Transfer-Encoding other than one `chunked`.
    """
    encodings = headers.get_all("Transfer-Encoding") or []
    if encodings:
        if len(encodings) != 1 or encodings[0].strip(" \t").lower() != "chunked":
            raise unsupported_transfer_encoding(", ".join(encodings))
        return read_chunked(rfile, limit)
    raw = headers.get("Content-Length")
    if raw is None:
        return b""
    length = parse_content_length(raw)
    if length > limit:
        raise errors.new_request_entity_too_large_error(f"limit is {limit}")
    body = rfile.read(length)
    if len(body) != length:
        raise errors.new_bad_request("the request body ended early")
    return body


def read_chunked(rfile: RequestReader, limit: int) -> bytes:
    """Port of chunkedReader.Read (net/http/internal/chunked.go), in small: the chunks of a body, joined.

    Raises:
        StatusError: 400 for a malformed chunk (size, ending), 413 past `limit`.
    """
    parts: list[bytes] = []
    total = 0
    trailers = 0
    while True:
        size = parse_chunk_size(rfile.readline(CHUNK_LINE_LIMIT))
        if size == 0:
            while rfile.readline(CHUNK_LINE_LIMIT) not in (b"\r\n", b"\n", b""):
                trailers += 1  # trailers are ignored, but not without end
                if trailers > MAX_TRAILERS:
                    raise errors.new_bad_request("malformed chunked request body: too many trailers")
            return b"".join(parts)
        total += size
        if total > limit:
            raise errors.new_request_entity_too_large_error(f"limit is {limit}")
        part = rfile.read(size)
        if len(part) != size or rfile.readline(3) not in (b"\r\n", b"\n"):
            raise errors.new_bad_request("malformed chunked request body: a chunk ended early")
        parts.append(part)


def discard_request_body(rfile: RequestReader, headers: Any, limit: int) -> None:
    """Read and drop what is left of a request body, at most `limit` bytes (the caller sets the deadline)."""
    try:
        length = parse_content_length(headers.get("Content-Length") or "")
    except errors.StatusError:
        length = -1
    if 0 <= length <= limit:
        rfile.read(length)
        return
    left = limit
    while left > 0:
        data = rfile.read1(min(left, 65536))
        if not data:
            return
        left -= len(data)
