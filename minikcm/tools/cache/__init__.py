"""Port of k8s.io/client-go/tools/cache: reflector, FIFOs, stores, indexers, informers.

Data flows Reflector -> FIFO -> informer -> Indexer + event handlers. This is the
local cache every controller reads from, kept in step with the API server by
list and watch.
"""
