"""Tests for minikcm.client.streamwatcher: decoding watch lines and the reader's step.

tests/client/test_rest.py drives whole watches (thread, stop, errors) through
the REST clientset; these drive the pieces by hand, without a thread.
"""

from __future__ import annotations

import json
import queue
import threading

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.client import streamwatcher
from minikcm.client.streamwatcher import StreamWatcher, client_error_status, decode_event


class StreamResponse:
    """The part of a urllib3 response a StreamWatcher reads: chunks from a queue, None ends them."""

    def __init__(self, chunks: queue.Queue) -> None:
        self.chunks = chunks

    def stream(self, amt=None, decode_content=None):
        while (chunk := self.chunks.get()) is not None:
            yield chunk


def event_line(event_type: str, obj: dict) -> bytes:
    return (json.dumps({"type": event_type, "object": obj}) + "\n").encode()


def stepped_watcher(*chunks: bytes | None) -> StreamWatcher:
    """A StreamWatcher over `chunks` whose reader thread is never started: tests call receive_one."""
    q: queue.Queue = queue.Queue()
    for chunk in chunks:
        q.put(chunk)
    sw = StreamWatcher.__new__(StreamWatcher)
    sw.response, sw.resource = StreamResponse(q), "pods"
    sw._chan, sw._lock, sw._done = watch.ResultChan(), threading.Lock(), False
    sw._lines = streamwatcher.iter_resp_lines(sw.response)
    return sw


DECODE_ERROR_CASES = [
    pytest.param('"a string"', "unable to decode to metav1.WatchEvent", id="not-an-object"),
    pytest.param('{"type": "SOMETHING", "object": {}}', "got invalid watch event type", id="bad-type"),
    pytest.param('{"type": "ADDED", "object": 3}', "not a JSON object", id="object-not-a-dict"),
]


@pytest.mark.parametrize("line, message", DECODE_ERROR_CASES)
def test_decode_event_errors(line, message):
    with pytest.raises(ValueError, match=message):
        decode_event(line)


def test_decode_event_keeps_the_wire_object():
    event = decode_event('{"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "8"}}}')
    assert event.type == watch.BOOKMARK and event.object == {"metadata": {"resourceVersion": "8"}}


def test_stream_watcher_receive_one_skips_blank_lines():
    sw = stepped_watcher(b"\n", event_line("ADDED", {"metadata": {"name": "a"}}), None)
    assert sw.receive_one() is True and len(sw._chan) == 0
    assert sw.receive_one() is True and sw._chan.recv(timeout=0).object["metadata"]["name"] == "a"
    assert sw.receive_one() is False


def test_stream_watcher_undecodable_line_ends_with_an_error_event():
    sw = stepped_watcher(b"{not json\n")
    assert sw.receive_one() is False
    event = sw._chan.recv(timeout=0)
    assert event.type == watch.ERROR
    assert errors.has_status_cause(errors.from_object(event.object), "ClientWatchDecoding")


def test_client_error_status_is_an_internal_error_with_a_cause():
    err = errors.from_object(client_error_status("GET", "", "broken"))
    assert errors.is_internal_error(err) and errors.has_status_cause(err, "ClientError")
