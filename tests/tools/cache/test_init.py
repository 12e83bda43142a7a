"""Tests for minikcm/tools/cache/__init__.py: `__all__` names exactly what the package re-exports."""

from __future__ import annotations

import minikcm.tools.cache as cache


def test_all_matches_public_names():
    public = {name for name in vars(cache) if not name.startswith("_")}
    submodules = {
        "controller", "delta_fifo", "fifo", "index", "listers", "object_names", "store", "store_base",
        "the_real_fifo", "thread_safe_store", "synctrack",
        "listwatch", "reflector", "retry_with_deadline", "shared_informer", "event_handler_name",
    }
    assert set(cache.__all__) == public - submodules
    assert len(cache.__all__) == len(set(cache.__all__)), "duplicate names in __all__"
    for name in cache.__all__:
        assert getattr(cache, name) is not None


def test_docstring_kept():
    assert cache.__doc__.startswith("Port of k8s.io/client-go/tools/cache")
