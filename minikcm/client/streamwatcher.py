"""Port of k8s.io/apimachinery/pkg/watch/streamwatcher.go and k8s.io/client-go/rest/watch/decoder.go.

How the REST transport (`minikcm.client.rest`) reads a watch. The server answers
a watch request with a stream of JSON lines, one event each. A `StreamWatcher`
owns that response: a thread named `rest/watch/<resource>` reads it line by
line, `decode_event` turns each line into a `watch.Event` carrying a wire dict,
and the event goes into the watcher's ResultChan for the typed client's
`ModelWatcher` to turn into a model.

Start reading at: StreamWatcher.receive_one, then decode_event.

Not ported: the framer and serializer layers (the official client's line
splitter `iter_resp_lines` does their job), the Reporter interface (one
function, client_error_status), protobuf.
Differs from Go: the decoder leaves the object a wire dict (the typed client
converts it); the reader thread is a daemon thread, woken by shutting the
socket down on `stop()`.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator
from typing import Any

from kubernetes.watch.watch import iter_resp_lines

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.schema import GroupResource
from minikcm.client.transport import WireDict

log = logging.getLogger(__name__)

WATCH_EVENT_TYPES = (watch.ADDED, watch.MODIFIED, watch.DELETED, watch.ERROR, watch.BOOKMARK)
"""The event types a watch stream may carry; anything else is a decoding error."""


def client_error_status(verb: str, reason: str, message: str) -> WireDict:
    """Port of ErrorReporter.AsObject (apimachinery/pkg/api/errors/errors.go), with code 500.

    The Status a watch reports when the client, not the server, hit a problem
    (an event it could not decode): an InternalError naming `reason` as a cause.
    """
    status = errors.new_generic_server_response(500, verb, GroupResource("", ""), "", message, 0,
                                                True).status()
    status.setdefault("details", {}).setdefault("causes", []).append(
        {"reason": reason or "ClientError", "message": message})
    return status


def decode_event(line: str) -> watch.Event:
    """Port of watch Decoder.Decode (rest/watch/decoder.go): one line of the stream, one event.

    The object stays a wire dict (ModelWatcher converts it).

    Raises:
        ValueError: not JSON, not an object, or an unknown event type.
    """
    got = json.loads(line)
    if not isinstance(got, dict):
        raise ValueError("unable to decode to metav1.WatchEvent")
    if got.get("type") not in WATCH_EVENT_TYPES:
        raise ValueError(f"got invalid watch event type: {got.get('type')}")
    obj = got.get("object")
    if not isinstance(obj, dict):
        raise ValueError("unable to decode watch event: the object is not a JSON object")
    return watch.Event(got["type"], obj)


class StreamWatcher:
    """Port of StreamWatcher (apimachinery/pkg/watch/streamwatcher.go), over one watch response.

    A thread named `rest/watch/<resource>` reads the response line by line
    (`receive`, whose body is `receive_one`) and puts wire events into the
    ResultChan. The watch ends when the server ends the stream (timeoutSeconds,
    a 410 ERROR event), when the connection breaks, or on `stop()`.
    Thread: `stop` from any thread; `__repr__` takes no lock.
    """

    def __init__(self, response: Any, resource: str) -> None:
        self.response = response
        """The urllib3 response being read (the client's `_preload_content=False` answer)."""
        self.resource = resource
        self._chan = watch.ResultChan()
        self._lines: Iterator[str] = iter_resp_lines(response)
        self._lock = threading.Lock()
        self._done = False
        self._thread = threading.Thread(target=self.receive, name=f"rest/watch/{resource}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Port of StreamWatcher.Stop: end the watch and close the channel; safe to call twice.

        Shuts the socket down for reading, so a reader blocked in recv wakes now
        (urllib3's HTTPResponse.shutdown exists for exactly this).
        """
        with self._lock:
            if self._done:
                return
            self._done = True
        self._chan.close()
        try:
            self.response.shutdown()
        except (ValueError, RuntimeError, OSError):
            pass  # the reader already closed or released the connection: nothing to wake

    def result_chan(self) -> watch.ResultChan:
        return self._chan

    @property
    def stopped(self) -> bool:
        return self._done

    def receive(self) -> None:
        """Port of StreamWatcher.receive: the reader thread. Holds no logic of its own."""
        try:
            while self.receive_one():
                pass
        finally:
            self.stop()
            try:
                self.response.close()
                self.response.release_conn()
            except Exception as err:  # closing a broken connection may fail; it is gone either way
                log.debug("closing the %s watch response: %s", self.resource, err)

    def receive_one(self) -> bool:
        """One unit of the reader: read a line, decode it, deliver the event.

        Returns False when the watch is over. The end of the stream and errors
        of a closing or broken connection end it quietly, as client-go treats
        EOF and probable-EOF errors; a line that cannot be decoded ends it with
        an ERROR event carrying an InternalError Status.
        """
        try:
            line = next(self._lines)
        except StopIteration:
            return False  # the server ended the watch normally
        except Exception as err:  # the connection broke or stop() shut it: a probable EOF
            if not self._done:
                log.debug("the %s watch stream ended: %s", self.resource, err)
            return False
        if not line.strip():
            return True
        try:
            event = decode_event(line)
        except ValueError as err:
            if not self._done:
                self._chan.put(watch.Event(watch.ERROR, client_error_status(
                    "GET", "ClientWatchDecoding",
                    f"unable to decode an event from the watch stream: {err}")))
            return False
        if self._done:
            return False
        return self._chan.put(event)

    def __repr__(self) -> str:
        return f"StreamWatcher({self.resource}, done={self._done}, {self._chan!r})"
