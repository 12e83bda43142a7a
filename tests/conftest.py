"""Shared fixtures for the whole suite: a fake clock (plain or driven) and a seeded RNG; the `slow` mark of the docs tests."""

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `slow` what builds the site (`built_site`, also behind `base_url`), drives Chromium, runs tests/e2e,
    or is `threaded`.

    tests/e2e starts real servers and processes and drives kubectl; `threaded` tests wait
    on the wall clock (191 of them took 43 s here, 15 s of it CPU). The fuzz, chaos and
    election-fault modules carry the mark themselves (`pytestmark`).
    """
    for item in items:
        if ("built_site" in getattr(item, "fixturenames", ()) or item.get_closest_marker("browser")
                or item.get_closest_marker("threaded") or item.nodeid.startswith("tests/e2e/")):
            item.add_marker(pytest.mark.slow)
