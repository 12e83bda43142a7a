"""Fixtures for the HTTP front: the REST handler over the seeded fake-clock server, and a served HTTPS front."""

from __future__ import annotations

import pytest

from minikcm.apiserver.http.handlers import RESTHandler
from minikcm.apiserver.http.server import serve

from .wire import HTTPSClient


@pytest.fixture
def handler(server) -> RESTHandler:
    return RESTHandler(server, "127.0.0.1:6443")


@pytest.fixture
def front(server, tmp_path):
    handle = serve(server, kubeconfig_path=tmp_path / "kubeconfig")
    yield handle
    handle.shutdown()


@pytest.fixture
def https(front) -> HTTPSClient:
    return HTTPSClient(front)
