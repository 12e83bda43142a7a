"""Shared fixtures for the whole suite: a fake clock (plain or driven) and a seeded RNG."""

from __future__ import annotations

import random

import pytest

from minikcm.clock import EPOCH, FakeClock


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(EPOCH)


@pytest.fixture
def driven_clock() -> FakeClock:
    """A fake clock a Driver moves: what is built on it starts no threads."""
    return FakeClock(EPOCH, driven=True)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(7)

