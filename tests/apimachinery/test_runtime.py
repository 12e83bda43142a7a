"""Tests for minikcm.apimachinery.runtime (port of pkg/util/runtime/runtime_test.go)."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from minikcm.apimachinery import runtime
from minikcm.clock import FakeClock


@pytest.fixture(autouse=True)
def restore_globals(monkeypatch):
    # Tests swap the module's handler lists and flag, as upstream's do; restore them.
    monkeypatch.setattr(runtime, "PANIC_HANDLERS", list(runtime.PANIC_HANDLERS))
    monkeypatch.setattr(runtime, "ERROR_HANDLERS", list(runtime.ERROR_HANDLERS))
    monkeypatch.setattr(runtime, "REALLY_CRASH", True)


def crash_with(exc, *handlers):
    try:
        raise exc
    except Exception:
        runtime.handle_crash(*handlers)


def test_handle_crash():
    """Port of TestHandleCrash (pkg/util/runtime/runtime_test.go): the exception is re-raised."""
    with pytest.raises(RuntimeError, match="Test Panic"):
        crash_with(RuntimeError("Test Panic"))


def test_handle_crash_outside_except_does_nothing():
    runtime.handle_crash()  # Go: recover() is nil when nothing panicked


def test_custom_handle_crash():
    """Port of TestCustomHandleCrash (pkg/util/runtime/runtime_test.go)."""
    seen = []
    runtime.PANIC_HANDLERS = [seen.append]
    err = ValueError("test")
    with pytest.raises(ValueError):
        crash_with(err)
    assert seen == [err]


def test_custom_handle_error():
    """Port of TestCustomHandleError (pkg/util/runtime/runtime_test.go)."""
    seen = []

    def record(err, msg, *kv):
        seen.append((err, msg, kv))

    runtime.ERROR_HANDLERS = [record]
    err = ValueError("test")
    runtime.handle_error(err)
    assert seen == [(err, "Unhandled Error", ())]


def test_handle_error_nil_rules():
    seen = []
    runtime.ERROR_HANDLERS = [lambda err, msg, *kv: seen.append((err, msg))]
    runtime.handle_error(None)  # HandleError ignores nil
    runtime.handle_error(None, "something odd")  # HandleErrorWithContext reports it
    assert seen == [(None, "something odd")]


def test_handle_crash_log(caplog):
    """Port of TestHandleCrashLog (pkg/util/runtime/runtime_test.go): message plus traceback."""
    with caplog.at_level(logging.ERROR, logger="minikcm.apimachinery.runtime"):
        with pytest.raises(RuntimeError):
            crash_with(RuntimeError("test panic"))
    [record] = [r for r in caplog.records if r.name == "minikcm.apimachinery.runtime"]
    assert record.getMessage() == '"Observed a panic" panic="test panic"'
    assert "crash_with" in caplog.text and "Traceback" in caplog.text


HANDLE_CRASH_CONTEXTUAL_CASES = [
    pytest.param(None, [], id="no-panic"),
    pytest.param(RuntimeError("fake"), ["fake"], id="string-panic"),
    pytest.param(ValueError(42), ["42"], id="int-panic"),
]


@pytest.mark.parametrize("exc, want", HANDLE_CRASH_CONTEXTUAL_CASES)
def test_handle_crash_contextual(exc, want):
    """Port of TestHandleCrashContextual (pkg/util/runtime/runtime_test.go) with REALLY_CRASH off."""
    runtime.REALLY_CRASH = False
    panics, extra = [], []
    runtime.PANIC_HANDLERS = [lambda r: panics.append(str(r))]
    try:
        if exc is not None:
            raise exc
    except Exception:
        runtime.handle_crash(lambda r: extra.append(str(r)))  # returns: the crash is swallowed
    assert panics == want
    assert extra == want


@pytest.mark.threaded
def test_rudimentary_error_backoff_on_error_parallel_sleep():
    """Port of Test_rudimentaryErrorBackoff_OnError_ParallelSleep: callers wait side by side, not in turn."""
    backoff = runtime.RudimentaryErrorBackoff(0.2)
    start = threading.Event()

    def report():
        start.wait()
        backoff.on_error()

    threads = [threading.Thread(target=report, name=f"reporter-{i}") for i in range(10)]
    for t in threads:
        t.start()
    began = time.monotonic()
    start.set()
    for t in threads:
        t.join()
    assert time.monotonic() - began < 1.0  # one after the other would take about 2 s


RESERVE_CASES = [
    #            seconds since last error, wait
    pytest.param(0.0,   0.001,  id="at-once-waits-full-period"),
    pytest.param(0.0004, 0.0006, id="part-way-waits-the-rest"),
    pytest.param(0.001, 0.0,    id="a-full-period-later-no-wait"),
    pytest.param(5.0,   -4.999, id="long-ago-negative-means-no-wait"),
]


@pytest.mark.parametrize("elapsed, want", RESERVE_CASES)
def test_rudimentary_error_backoff_reserve(elapsed, want):
    clock = FakeClock()
    backoff = runtime.RudimentaryErrorBackoff(0.001, clock)
    clock.step(elapsed)
    assert backoff.reserve() == pytest.approx(want)
    assert backoff.last_error_time == clock.now()


def test_rudimentary_error_backoff_does_not_sleep_when_period_passed():
    clock = FakeClock()
    backoff = runtime.RudimentaryErrorBackoff(1.0, clock)
    clock.step(2.0)
    backoff.on_error()  # would block forever on the fake clock if it slept
    assert not clock.has_waiters()
    assert backoff.last_error_time == clock.now()


HANDLE_ERROR_CASES = [
    pytest.param(None, "hello world", (), '"hello world"', id="no-error"),
    pytest.param(ValueError("fake error"), "ignore", ("a", 1, "b", "c"),
                 '"ignore" err="fake error" a=1 b="c"', id="complex"),
]


@pytest.mark.parametrize("err, msg, kv, want", HANDLE_ERROR_CASES)
def test_handle_error(caplog, err, msg, kv, want):
    """Port of TestHandleError (pkg/util/runtime/runtime_test.go): one line on the UnhandledError logger."""
    with caplog.at_level(logging.ERROR, logger="minikcm.apimachinery.runtime.UnhandledError"):
        runtime.handle_error(err, msg, *kv)
    [record] = caplog.records
    assert record.name.endswith("UnhandledError")
    assert record.levelno == logging.ERROR
    assert record.getMessage() == want


def test_log_error_attaches_traceback_only_at_debug(caplog):
    try:
        raise ValueError("boom")
    except ValueError as err:
        caught = err
    with caplog.at_level(logging.ERROR, logger="minikcm.apimachinery.runtime.UnhandledError"):
        runtime.log_error(caught, "sync failed")
    assert caplog.records[-1].exc_info is None
    with caplog.at_level(logging.DEBUG, logger="minikcm.apimachinery.runtime.UnhandledError"):
        runtime.log_error(caught, "sync failed")
    assert caplog.records[-1].exc_info is not None


ERROR_TO_STRING_CASES = [
    pytest.param(ValueError("some error"), "Unhandled error", (), '"Unhandled error" err="some error"', id="simple"),
    pytest.param(None, "Some problem occurred", (), '"Some problem occurred"', id="nil-error"),
    pytest.param(ValueError("some error"), "Some error occurred",
                 ("str", "foobar", "int", 1, "multiLine", "line 1\nline 2"),
                 '"Some error occurred" err="some error" str="foobar" int=1 multiLine=<\n\tline 1\n\tline 2\n >',
                 id="keys-and-values"),
    pytest.param(None, "odd", ("lonely",), '"odd" lonely="(MISSING)"', id="missing-value"),
]


@pytest.mark.parametrize("err, msg, kv, want", ERROR_TO_STRING_CASES)
def test_error_to_string(err, msg, kv, want):
    """Port of TestErrorToString (pkg/util/runtime/runtime_test.go)."""
    assert runtime.error_to_string(err, msg, *kv) == want


def test_must_and_get_caller():
    runtime.must(None)
    with pytest.raises(KeyError):
        runtime.must(KeyError("x"))

    def inner():
        return runtime.get_caller()

    def outer():
        return inner()

    assert outer().endswith("test_must_and_get_caller.<locals>.outer")

