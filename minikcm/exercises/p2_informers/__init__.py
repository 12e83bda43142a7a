"""No upstream twin. Exercises of chapter P2 (informers): the key function, deletion dedup, the relist version, index upkeep.

The functions come from minikcm.tools.cache (a port of k8s.io/client-go/tools/cache);
`checks.CHAPTER` is this chapter's row of the EXERCISES table, `start/` holds
the starting files.
"""
