"""Fixtures for the tests of minikcm.apimachinery.wait."""

from __future__ import annotations

import pytest

from minikcm.clock import EPOCH
from tests.apimachinery.wait.wait_testing import AutoClock


@pytest.fixture
def clock() -> AutoClock:
    return AutoClock(EPOCH)
