"""Fixtures for the embedded API server tests: a server on a fake clock with a seeded RNG."""

from __future__ import annotations

import random

import pytest

from minikcm.apiserver.server import APIServer


@pytest.fixture
def server(fake_clock) -> APIServer:
    return APIServer(clock=fake_clock, rng=random.Random(7))
