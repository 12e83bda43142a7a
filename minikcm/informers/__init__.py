"""Port of k8s.io/client-go/informers and listers: the shared informer factory.

One shared informer per resource, started together and waited on together, with
typed listers that answer from the cache.
"""
