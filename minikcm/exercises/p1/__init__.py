"""No upstream twin. Exercises of chapter P1 (leader election): try_acquire_or_renew, renew_step, release, new_leader_elector.

The functions come from minikcm.tools.leaderelection.leaderelection (a port of
k8s.io/client-go/tools/leaderelection); `checks.CHAPTER` is this chapter's
row of the EXERCISES table, `start/` holds the starting files.
"""
