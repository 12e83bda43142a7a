"""Port of k8s.io/client-go/tools/pager: fetch a large list in pages.

The reflector lists through a ListPager, so that a big resource comes back in
chunks of 500 items, and a list whose continue token expired is fetched again
whole.
"""
