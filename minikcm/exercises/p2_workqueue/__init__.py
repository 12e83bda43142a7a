"""No upstream twin. Exercises of chapter P2 (the work queue): add and done, the exponential limiter, add_after.

The functions come from minikcm.util.workqueue (a port of
k8s.io/client-go/util/workqueue); `checks.CHAPTER` is this chapter's row of
the EXERCISES table, `start/` holds the starting files.
"""
