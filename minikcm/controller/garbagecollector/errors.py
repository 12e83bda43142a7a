"""Port of pkg/controller/garbagecollector/errors.go, plus the two sentinel errors of garbagecollector.go.

The collector's own failures, as exception classes. Workers tell them apart to
decide whether an item is retried:

    Exception
     ├── RestMappingError                        retried: the kind may become known later
     ├── EnqueuedVirtualDeleteEventError         not retried: the graph builder takes over
     └── NamespacedOwnerOfClusterScopedObjectError
                                                 not retried: retrying cannot fix the reference

Start reading at: RestMappingError.

Differs from Go: Go compares the two sentinel `error` values by identity
(`err == enqueuedVirtualDeleteEventErr`, declared in garbagecollector.go);
here they are exception classes caught by type, and they live in this module
so that operations.py can raise one without importing garbagecollector.py.
"""

from __future__ import annotations

NON_CORE_MESSAGE = (
    "If {0} is a non-core resource (e.g. thirdparty resource, custom resource from aggregated apiserver), "
    "please note that the garbage collector doesn't support non-core resources yet. Once they are supported, "
    "object with ownerReferences referring non-existing non-core objects will be deleted by the garbage collector."
)
"""Port of nonCoreMessage: the explanation appended by RestMappingError.message."""


class RestMappingError(Exception):
    """Port of restMappingError (errors.go): an owner or dependent of a kind the server does not serve.

    Either a kind this API server does not have (minikcm serves a fixed set,
    minikcm.apimachinery.schema.RESOURCES) or an apiVersion of it that is not
    served (`extensions/v1beta1` Deployments). The worker retries such items
    with backoff and never deletes on their account.
    """

    def __init__(self, kind: str, version: str) -> None:
        self.kind = kind
        self.version = version
        super().__init__(f"unable to get REST mapping for {version}/{kind}.")

    def message(self) -> str:
        """Port of restMappingError.Message: the error plus what the user can do about it."""
        version_kind = f"{self.version}/{self.kind}"
        return (f"unable to get REST mapping for {version_kind}. " + NON_CORE_MESSAGE.format(version_kind)
                + f" If {version_kind} is an invalid resource, then you should manually remove ownerReferences "
                f"that refer {version_kind} objects.")


def new_rest_mapping_error(kind: str, version: str) -> RestMappingError:
    """Port of newRESTMappingError (errors.go)."""
    return RestMappingError(kind, version)


class EnqueuedVirtualDeleteEventError(Exception):
    """Port of enqueuedVirtualDeleteEventErr (garbagecollector.go).

    attempt_to_delete_item found that the object behind a node is gone (or
    has another uid now) and queued a virtual delete event; the graph builder
    will remove the node, so the item is forgotten, not retried.
    """

    def __init__(self) -> None:
        super().__init__("enqueued virtual delete event")


class NamespacedOwnerOfClusterScopedObjectError(Exception):
    """Port of namespacedOwnerOfClusterScopedObjectErr (garbagecollector.go).

    A cluster-scoped object names a namespaced owner: there is no namespace in
    which to look the owner up, so the reference can never be resolved and
    the item is forgotten, not retried.
    """

    def __init__(self) -> None:
        super().__init__("cluster-scoped objects cannot refer to namespaced owners")
