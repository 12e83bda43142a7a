"""Tests for minikcm.util.rate (golang.org/x/time/rate/rate.go); cases are ours.

They pin the reserve semantics that the work queue's BucketRateLimiter and the
event correlator's spam filter rely on.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from minikcm.clock import EPOCH
from minikcm.util.rate import INF, INF_DURATION, Limiter, every


RESERVE_CASES = [
    #            limit  burst n   want ok  want delay
    pytest.param(10.0,  5,    5,  True,    0.0,          id="whole-burst"),
    pytest.param(10.0,  5,    6,  False,   INF_DURATION, id="more-than-burst-is-refused"),
    pytest.param(INF,   0,    50, True,    0.0,          id="inf-limit-always-granted"),
    pytest.param(0.0,   1,    1,  True,    0.0,          id="zero-limit-uses-the-full-bucket"),
    pytest.param(every(0.5), 1, 1, True,   0.0,          id="every-half-second"),
]


@pytest.mark.parametrize("limit, burst, n, want_ok, want_delay", RESERVE_CASES)
def test_reserve_n(limit, burst, n, want_ok, want_delay, fake_clock):
    limiter = Limiter(limit, burst, fake_clock)
    r = limiter.reserve_n(fake_clock.now(), n)
    assert r.ok is want_ok
    assert r.delay() == want_delay


def test_zero_limit_never_refills(fake_clock):
    limiter = Limiter(0.0, 1, fake_clock)
    assert limiter.allow()
    assert not limiter.allow()
    assert limiter.reserve().delay() == INF_DURATION  # granted, but never met


def test_allow_does_not_go_into_debt(fake_clock):
    limiter = Limiter(every(0.5), 1, fake_clock)
    assert limiter.allow()
    assert not limiter.allow()
    assert limiter.tokens_at(fake_clock.now()) == pytest.approx(0.0)
    fake_clock.step(0.5)
    assert limiter.allow()


def test_advance_ignores_time_going_backwards(fake_clock):
    limiter = Limiter(1.0, 10, fake_clock)
    limiter.reserve_n(fake_clock.now(), 10)
    assert limiter.tokens_at(EPOCH - timedelta(seconds=5)) == pytest.approx(0.0)
    assert limiter.tokens_at(EPOCH + timedelta(seconds=3)) == pytest.approx(3.0)
