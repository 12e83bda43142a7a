"""Port of k8s.io/kubernetes/pkg/controller/statefulset: the StatefulSet controller.

Pods with a stable identity (`<set>-<ordinal>`), their own storage (claims from
`volumeClaimTemplates`) and an order: created one after another from the
lowest ordinal, deleted from the highest, replaced at the revision their
ordinal calls for. stateful_set.py is the loop (handlers, queue, sync),
stateful_set_control.py the decisions, stateful_pod_control.py the pod and
claim writes, stateful_set_status_updater.py the status write and
stateful_set_utils.py the vocabulary. Revisions live in minikcm.controller.history.
"""
