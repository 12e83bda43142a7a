"""No upstream twin. Exercises of the overview chapter (startup): --controllers, Go durations, the resync period.

The functions come from minikcm.cmd (ports of cmd/kube-controller-manager/app,
k8s.io/controller-manager and Go's time.ParseDuration); `checks.CHAPTER` is
this chapter's row of the EXERCISES table, `start/` holds the starting files.
"""
