"""Integration: a starting informer streams its initial state (watch-list), or lists when the server refuses.

client-go v0.36.3 turns WatchListClient on by default, so every reflector's
first request is a watch with sendInitialEvents=true; kube-apiserver with its
WatchList gate off answers that with 422 Invalid, and the reflector falls back
to list then watch. Both transports (in-process and HTTPS), both servers.
"""

from __future__ import annotations

import random
import threading

import pytest
from kubernetes.client import V1Container, V1ObjectMeta, V1Pod, V1PodSpec

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.informers import new_shared_informer_factory

pytestmark = pytest.mark.threaded


def requests_of(cs) -> list[tuple[str, bool | None]]:
    """Record (verb, sendInitialEvents) of every list and watch `cs` sends."""
    seen: list[tuple[str, bool | None]] = []
    transport = cs.transport
    request, watch = transport.request, transport.watch

    def recording_request(verb, resource, namespace, name="", subresource="", body=None, options=None, **kw):
        if verb == "list" and resource == "pods":
            seen.append(("list", None))
        return request(verb, resource, namespace, name, subresource, body, options, **kw)

    def recording_watch(resource, namespace, options):
        if resource == "pods":
            seen.append(("watch", options.send_initial_events))
        return watch(resource, namespace, options)

    transport.request, transport.watch = recording_request, recording_watch
    return seen


@pytest.fixture(params=["inprocess", "rest"])
def cluster(request):
    """A server (WatchList gate as the test asks) and a clientset on it, over the chosen transport."""
    made = []

    def make(watch_list: bool):
        server = APIServer(rng=random.Random(7), watch_list=watch_list)
        if request.param == "inprocess":
            return server, InProcessClientset(server)
        from minikcm.apiserver.http.server import serve
        from minikcm.client.rest import RESTClientset
        stop = threading.Event()
        threading.Thread(target=server.run, args=(stop,), name="test/apiserver-steps", daemon=True).start()
        handle = serve(server, port=0)
        cs = RESTClientset(str(handle.kubeconfig_path))
        made.append((cs, handle, stop))
        return server, cs

    yield make
    for cs, handle, stop in made:
        cs.close()
        handle.shutdown()
        stop.set()


def start_pod_informer(cs) -> tuple[object, threading.Event]:
    factory = new_shared_informer_factory(cs, 0)
    pods = factory.core().v1().pods()
    pods.informer()
    stop = threading.Event()
    factory.start(stop)
    assert all(factory.wait_for_cache_sync(threading.Event()).values())
    return pods, stop


def seed(cs) -> None:
    for name in ("a", "b"):
        cs.core_v1().pods("default").create(V1Pod(metadata=V1ObjectMeta(name=name), spec=V1PodSpec(
            containers=[V1Container(name="c", image="nginx")])))


@pytest.mark.parametrize("watch_list, want", [
    pytest.param(True, [("watch", True)], id="the server streams: one watch-list, no list"),
    pytest.param(False, [("watch", True), ("list", None), ("watch", None)],
                 id="the server refuses (422): fall back to list, then watch"),
])
def test_a_starting_informer_streams_or_falls_back(cluster, watch_list, want):
    server, cs = cluster(watch_list)
    seed(cs)
    seen = requests_of(cs)
    pods, stop = start_pod_informer(cs)
    try:
        assert sorted(p.metadata.name for p in pods.informer().get_store().list()) == ["a", "b"]
        assert seen[:len(want)] == want
        assert ("list", None) in seen if not watch_list else ("list", None) not in seen
        # and the watch goes on: a new pod reaches the cache
        cs.core_v1().pods("default").create(V1Pod(metadata=V1ObjectMeta(name="c"), spec=V1PodSpec(
            containers=[V1Container(name="c", image="nginx")])))
        import time
        deadline = time.monotonic() + 10
        while len(pods.informer().get_store().list()) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(pods.informer().get_store().list()) == 3
    finally:
        stop.set()


def test_an_informer_streams_against_minikcm_up(tmp_path):
    # `minikcm up` serves watch-list: an informer of a client outside it (kubeconfig, HTTPS) sends no LIST.
    from minikcm.client.rest import RESTClientset
    from minikcm.sim.kubelet import KubeletConfig
    from minikcm.up import Up
    up = Up(kubeconfig=str(tmp_path / "kc"), controllers="", kubelet=KubeletConfig())
    up.start()
    try:
        cs = RESTClientset(str(tmp_path / "kc"))
        seed(cs)
        seen = requests_of(cs)
        pods, stop = start_pod_informer(cs)
        try:
            assert sorted(p.metadata.name for p in pods.informer().get_store().list()) == ["a", "b"]
            assert seen == [("watch", True)]
        finally:
            stop.set()
            cs.close()
    finally:
        up.shutdown()
