"""No upstream twin. Exercises of chapter P4 (the ReplicaSet controller): slow start, which pods go, expectations.

The functions come from minikcm.controller.replicaset.replica_set
(slow_start_batch, get_pods_to_delete) and minikcm.controller.controller_utils
(ActivePodsWithRanks.less, ControllerExpectations.satisfied_expectations), ports
of pkg/controller/replicaset and pkg/controller. `checks.CHAPTER` is this
chapter's row of the EXERCISES table, `start/` holds the starting files.
"""
