"""Port of k8s.io/client-go/util/workqueue: the queue, delays, rate limiters.

Event handlers add keys; controller workers take them, sync, and call done. The
queue guarantees a key is never processed by two workers at once and that a key
added twice before it is taken is handed out once.
"""
