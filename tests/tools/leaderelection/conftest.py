"""Fixtures for the leader election tests (the test doubles live in lock_testing.py)."""

from __future__ import annotations

import pytest

from minikcm.clock import EPOCH

from .lock_testing import LeaseStore, TickingClock


@pytest.fixture
def store() -> LeaseStore:
    return LeaseStore()


@pytest.fixture
def ticking_clock() -> TickingClock:
    return TickingClock(EPOCH, driven=True)  # the tests call the steps themselves: callbacks inline
