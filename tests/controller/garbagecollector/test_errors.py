"""Tests for minikcm.controller.garbagecollector.errors; cases are ours."""

from __future__ import annotations

from minikcm.controller.garbagecollector.errors import (
    EnqueuedVirtualDeleteEventError,
    NamespacedOwnerOfClusterScopedObjectError,
    new_rest_mapping_error,
)


def test_rest_mapping_error_texts():
    err = new_rest_mapping_error("Widget", "acme.io/v1")
    assert str(err) == "unable to get REST mapping for acme.io/v1/Widget."
    assert err.message().startswith("unable to get REST mapping for acme.io/v1/Widget. If acme.io/v1/Widget is a "
                                    "non-core resource")
    assert err.message().endswith("manually remove ownerReferences that refer acme.io/v1/Widget objects.")


def test_sentinel_error_texts():
    assert str(EnqueuedVirtualDeleteEventError()) == "enqueued virtual delete event"
    assert str(NamespacedOwnerOfClusterScopedObjectError()) == "cluster-scoped objects cannot refer to namespaced owners"
