"""Port of k8s.io/kubernetes/pkg/controller/history: a controller's revision history.

A ControllerRevision is an immutable snapshot of the part of a workload's spec
that a rollout changes (for a StatefulSet: its pod template), named after the
hash of that snapshot. The StatefulSet controller lists, creates, renumbers
(rollback) and deletes them through `Interface`; `new_history` talks to the API
server, `new_fake_history` to an informer's indexer for tests.
"""
