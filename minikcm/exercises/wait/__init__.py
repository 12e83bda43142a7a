"""No upstream twin. Exercises of the `wait` chapter: jitter, Backoff's delay, backoff_until, exponential_backoff.

The functions come from minikcm.apimachinery.wait (a port of
k8s.io/apimachinery/pkg/util/wait); `checks.CHAPTER` is this chapter's row of
the EXERCISES table, `start/` holds the starting files.
"""
