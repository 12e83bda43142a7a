"""Port of k8s.io/kubernetes/pkg/controller/garbagecollector: the garbage collector, simplified.

Deletes objects whose owners are gone and carries out cascading deletion: a
graph builder keeps an owner-to-dependents graph from the shared informers;
workers delete the dependents of deleted owners (Background), delete them
before their owner (Foreground, `foregroundDeletion` finalizer) or strip their
owner references (Orphan, `orphan` finalizer).

Not ported: dynamic discovery and the periodic Sync (the watched set comes once
from minikcm.apimachinery.schema.RESOURCES), metadata-only informers and the
metadata client, resync of monitors, metrics, the debug graph dump.
"""
