"""Tests for minikcm/tools/record/fake.py (upstream has no fake_test.go; these are ours)."""

from __future__ import annotations

import queue

import pytest
from kubernetes.client import V1Deployment, V1ObjectMeta, V1Pod

from minikcm.tools.record.fake import FakeRecorder, annotations_string, new_fake_recorder, object_string

POD = V1Pod(metadata=V1ObjectMeta(name="p", namespace="ns"))

FAKE_RECORDER_CASES = [
    pytest.param("event", (POD, "Normal", "Started", "100% done"), "Normal Started 100% done",
                 id="event-message-is-not-a-format"),
    pytest.param("eventf", (POD, "Warning", "FailedCreate", "Error creating: %v", "quota"),
                 "Warning FailedCreate Error creating: quota", id="eventf-formats"),
    pytest.param("eventf", (POD, "Normal", "ScalingReplicaSet", "Scaled up replica set %s to %d", "web-5d", 3),
                 "Normal ScalingReplicaSet Scaled up replica set web-5d to 3", id="eventf-several-args"),
    pytest.param("annotated_eventf", (POD, {"b": "2", "a": "1"}, "Normal", "R", "m %d", 1),
                 "Normal R m 1 map[a:1 b:2]", id="annotations-sorted"),
    pytest.param("annotated_eventf", (POD, {}, "Normal", "R", "m"), "Normal R m", id="no-annotations"),
]


@pytest.mark.parametrize("method, args, want", FAKE_RECORDER_CASES)
def test_fake_recorder_writes_type_reason_message(method, args, want):
    recorder = new_fake_recorder(10)
    getattr(recorder, method)(*args)
    assert recorder.events.get_nowait() == want
    assert recorder.events.empty()


def test_include_object_appends_type_meta():
    recorder = new_fake_recorder(10)
    recorder.include_object = True
    recorder.event(V1Deployment.model_construct(api_version="apps/v1", kind="Deployment"), "Normal", "R", "m")
    recorder.event(POD, "Normal", "R", "m")  # no TypeMeta: empty, as in Go
    assert recorder.drain() == ["Normal R m involvedObject{kind=Deployment,apiVersion=apps/v1}",
                                "Normal R m involvedObject{kind=,apiVersion=}"]


def test_recorder_without_buffer_throws_events_away():
    recorder = FakeRecorder()
    recorder.eventf(POD, "Normal", "R", "%s", "m")
    assert recorder.drain() == []


def test_full_buffer_raises_instead_of_blocking():
    recorder = new_fake_recorder(1)
    recorder.event(POD, "Normal", "R", "one")
    with pytest.raises(RuntimeError, match="buffer of 1 events is full"):
        recorder.event(POD, "Normal", "R", "two")
    assert recorder.drain() == ["Normal R one"]


def test_zero_buffer_is_unbounded_and_drain_keeps_order():
    recorder = new_fake_recorder(0)
    for i in range(3):
        recorder.eventf(POD, "Normal", "R", "%d", i)
    assert recorder.drain() == ["Normal R 0", "Normal R 1", "Normal R 2"]
    assert recorder.drain() == []


def test_with_logger_returns_the_same_recorder():
    recorder = FakeRecorder(queue.Queue())
    assert recorder.with_logger(None) is recorder


def test_helpers():
    assert object_string(POD, False) == ""
    assert object_string({"kind": "Pod", "apiVersion": "v1"}, True) == " involvedObject{kind=Pod,apiVersion=v1}"
    assert annotations_string(None) == "" and annotations_string({"k": "v"}) == " map[k:v]"
