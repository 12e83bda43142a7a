"""No upstream twin. Exercises of chapter P5 (the StatefulSet controller): identity, order, revisions, partitions.

The functions come from minikcm.controller.statefulset (a port of
pkg/controller/statefulset): get_parent_name_and_ordinal and
new_versioned_stateful_set_pod from stateful_set_utils.py,
DefaultStatefulSetControl.process_replica, .process_condemned and
update_stateful_set_after_invariant_established from stateful_set_control.py,
and hash_controller_revision from minikcm.controller.history. `checks.CHAPTER`
is this chapter's row of the EXERCISES table, `start/` holds the starting files.
"""
