"""No upstream twin. Benchmark: GETs of one object per second, over HTTPS against in process.

Serves a fresh APIServer with `minikcm.apiserver.http.server.serve` on a
loopback port, stores one pod, and GETs it N times in one thread, three ways,
in the same run:

- the in-process clientset (`InProcessClientset`): no HTTP, the floor;
- the official `kubernetes` client (`CoreV1Api.read_namespaced_pod`, raw JSON
  kept: `_preload_content=False`) over HTTPS with keep-alive;
- the REST clientset (`RESTClientset`), the same client plus our conversion to models.

The ratio to the in-process time says what TLS, HTTP and JSON cost per
request.

A second case lists LIST_PODS (1,000) pods in one request through the official
client (`list_namespaced_pod`, models built by the client), beside the
client's own deserialization (`ApiClient.deserialize` into `V1PodList`) of
the very bytes that request returns: the ratio says what the HTTPS front adds
on top of the work the client does anyway. Before accepted sockets set TCP_NODELAY, each HTTPS request took
about 45 ms (a delayed-ACK wait); now it should be around a millisecond.
Nothing here can fail.

Run: `.venv/bin/python benchmarks/http_front.py [--requests N] [--list-pods N] [--lists N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

from kubernetes.client import CoreV1Api

from minikcm.apiserver.http.server import serve
from minikcm.apiserver.server import APIServer
from minikcm.client.inprocess import InProcessClientset
from minikcm.client.rest import RESTClientset

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bench", "namespace": "default"},
       "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}
LIST_PODS = 1000
"""Pods in the namespace the list case reads."""
LIST_NAMESPACE = "bench-list"


def measure(n: int, get_once: Callable[[], object]) -> tuple[float, float]:
    """(total seconds, median seconds per call) of n calls, after a few warm-up calls."""
    for _ in range(min(5, n)):
        get_once()
    took = []
    for _ in range(n):
        started = time.perf_counter()
        get_once()
        took.append(time.perf_counter() - started)
    return sum(took), statistics.median(took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--list-pods", type=int, default=LIST_PODS, help="pods in the list case")
    parser.add_argument("--lists", type=int, default=10, help="list requests to time")
    args = parser.parse_args()
    n = args.requests

    api = APIServer()
    api.create("pods", "default", POD)
    api.create("namespaces", None, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": LIST_NAMESPACE}})
    for i in range(args.list_pods):
        api.create("pods", LIST_NAMESPACE, {**POD, "metadata": {"name": f"pod-{i:05d}", "namespace": LIST_NAMESPACE,
                                                                "labels": {"app": "bench"}}})
    handle = serve(api)
    rest = RESTClientset(str(handle.kubeconfig_path))
    try:
        official = rest.api(CoreV1Api)
        in_process = InProcessClientset(api).core_v1().pods("default")
        over_https = rest.core_v1().pods("default")

        def official_get() -> object:
            response = official.read_namespaced_pod("bench", "default", _preload_content=False)
            return response.data

        rows = [("in-process clientset", measure(n, lambda: in_process.get("bench"))),
                ("official client, HTTPS", measure(n, official_get)),
                ("REST clientset, HTTPS", measure(n, lambda: over_https.get("bench")))]

        # The list case: the same bytes, fetched over HTTPS and decoded by the client, or only decoded.
        raw = official.list_namespaced_pod(LIST_NAMESPACE, _preload_content=False)
        body = raw.data.decode("utf-8")
        content_type = raw.headers.get("Content-Type", "application/json")

        def official_list() -> object:
            listed = official.list_namespaced_pod(LIST_NAMESPACE)
            assert len(listed.items) == args.list_pods
            return listed

        def client_decode() -> object:
            return official.api_client.deserialize(body, "V1PodList", content_type)

        list_rows = [("client deserialization only", measure(args.lists, client_decode)),
                     ("official client list, HTTPS", measure(args.lists, official_list))]
    finally:
        rest.close()
        handle.shutdown()

    base = rows[0][1][0]
    print(f"{n} GETs of one pod, one thread, keep-alive ({handle.url})")
    for name, (seconds, median) in rows:
        rate = n / seconds if seconds > 0 else float("inf")
        ratio = seconds / base if base > 0 else float("inf")
        print(f"  {name:26s} {rate:10,.0f} requests/s   median {median * 1000:7.3f} ms   "
              f"{ratio:7.1f}x the in-process time")
    decode = list_rows[0][1][0]
    print(f"{args.lists} LISTs of {args.list_pods} pods ({len(body):,} bytes each), official client, one thread")
    for name, (seconds, median) in list_rows:
        ratio = seconds / decode if decode > 0 else float("inf")
        print(f"  {name:30s} median {median * 1000:8.1f} ms   {ratio:7.2f}x the client's own deserialization")


if __name__ == "__main__":
    main()
