"""Fixtures for the clientset tests: a fresh embedded API server and a clientset over it."""

from __future__ import annotations

import pytest

from minikcm.client.inprocess import InProcessClientset


@pytest.fixture
def server(fake_clock):
    from minikcm.apiserver.server import APIServer

    return APIServer(clock=fake_clock)


@pytest.fixture
def cs(server) -> InProcessClientset:
    return InProcessClientset(server)
