"""No upstream twin. Exercises of chapter P3 (the Deployment controller): rolling-update arithmetic and moves.

The functions come from minikcm.controller.deployment (a port of
pkg/controller/deployment): resolve_fenceposts, new_rs_new_replicas and
get_replica_set_fraction from util/deployment_util.py, reconcile_new_replica_set
and reconcile_old_replica_sets from rolling.py. `checks.CHAPTER` is this
chapter's row of the EXERCISES table, `start/` holds the starting files.
"""
