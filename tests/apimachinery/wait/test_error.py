"""Tests for minikcm/apimachinery/wait/_error.py: ports of error_test.go."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import wait


def wrapped(inner: BaseException) -> BaseException:
    outer = RuntimeError(f"wrapped: {inner}")
    outer.__cause__ = inner
    return outer


def not_wrapped(inner: BaseException) -> BaseException:
    return RuntimeError(f"wrapped: {inner}")


INTERRUPTED_CASES = [
    pytest.param(lambda: wait.WaitTimeoutError(), True, id="wait-timeout"),
    pytest.param(lambda: wait.ContextCanceledError(), True, id="canceled"),
    pytest.param(lambda: wait.DeadlineExceededError(), True, id="deadline-exceeded"),
    pytest.param(lambda: wrapped(wait.WaitTimeoutError()), True, id="wrapped-wait-timeout"),
    pytest.param(lambda: wrapped(wait.ContextCanceledError()), True, id="wrapped-canceled"),
    pytest.param(lambda: wrapped(wait.DeadlineExceededError()), True, id="wrapped-deadline"),
    pytest.param(lambda: wait.error_interrupted(None), True, id="error-interrupted-nil"),
    pytest.param(lambda: wait.error_interrupted(ValueError("unknown")), True, id="error-interrupted-unknown"),
    pytest.param(lambda: wait.error_interrupted(wait.ContextCanceledError()), True, id="error-interrupted-canceled"),
    pytest.param(lambda: wait.error_interrupted(wait.WaitTimeoutError()), True, id="error-interrupted-timeout"),
    pytest.param(lambda: None, False, id="none"),
    pytest.param(lambda: ValueError("not a cancellation"), False, id="other-error"),
    pytest.param(lambda: not_wrapped(wait.WaitTimeoutError()), False, id="not-wrapped-timeout"),
    pytest.param(lambda: not_wrapped(wait.ContextCanceledError()), False, id="not-wrapped-canceled"),
    pytest.param(lambda: not_wrapped(wait.DeadlineExceededError()), False, id="not-wrapped-deadline"),
]


@pytest.mark.parametrize("make_err, want", INTERRUPTED_CASES)
def test_interrupted(make_err, want):
    """Port of TestInterrupted (pkg/util/wait/error_test.go)."""
    assert wait.interrupted(make_err()) is want


def test_error_interrupted():
    """Port of TestErrorInterrupted (pkg/util/wait/error_test.go)."""
    internal = wait.WaitTimeoutError()
    assert wait.error_interrupted(internal) is internal
    nested = wait.WaitTimeoutError(wait.WaitTimeoutError())
    assert wait.error_interrupted(nested) is nested

    cause = ValueError("test")
    err = wait.error_interrupted(cause)
    assert err.cause is cause and err.__cause__ is cause
    assert str(err) == str(cause)
    assert wait.interrupted(err)
    assert not wait.interrupted(cause)
    assert str(wait.WaitTimeoutError()) == "timed out waiting for the condition"
