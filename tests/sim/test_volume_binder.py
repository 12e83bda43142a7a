"""Tests for minikcm.sim.volume_binder (no upstream twin): Pending claims become Bound after a delay.

Every test but the last runs under the deterministic driver: the embedded API
server, a deterministic claim informer and the binder, on one FakeClock.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest

from minikcm.apimachinery.meta import DeleteOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock, RealClock
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.volume_binder import (
    BIND_COMPLETED_ANNOTATION,
    BOUND_BY_CONTROLLER_ANNOTATION,
    VolumeBinder,
    VolumeBinderConfig,
    new_volume_binder,
    volume_name_for,
)


def claim_manifest(name: str, storage: str = "1Gi", phase: str | None = None) -> dict:
    claim = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
             "metadata": {"name": name, "namespace": "default"},
             "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": storage}}}}
    if phase is not None:
        claim["status"] = {"phase": phase}
    return claim


class Cluster:
    """An API server, a deterministic claim informer and a volume binder, driven together."""

    def __init__(self, config: VolumeBinderConfig | None = None, seed: int = 1) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(seed))
        self.binder: VolumeBinder = new_volume_binder(
            self.client, self.factory.core().v1().persistent_volume_claims(), config=config)
        self.factory.start(threading.Event())
        self.driver = Driver(self.clock, self.factory.steps() + self.binder.steps())

    def claims(self):
        return self.client.core_v1().persistent_volume_claims("default")

    def claim(self, name: str):
        return self.claims().get(name)

    def at(self, seconds: float) -> None:
        """Run until `seconds` after EPOCH."""
        self.driver.run_for((EPOCH + timedelta(seconds=seconds) - self.clock.now()).total_seconds())


def test_claim_is_bound_after_the_delay():
    c = Cluster(VolumeBinderConfig(bind_delay=5.0))
    c.claims().create(claim_manifest("data", "2Gi"))
    c.at(4.9)
    assert c.claim("data").status.phase == "Pending"
    c.at(5.0)
    claim = c.claim("data")
    assert claim.status.phase == "Bound"
    assert claim.status.capacity == {"storage": "2Gi"}
    assert claim.status.access_modes == ["ReadWriteOnce"]
    assert claim.metadata.annotations[BIND_COMPLETED_ANNOTATION] == "yes"
    assert claim.metadata.annotations[BOUND_BY_CONTROLLER_ANNOTATION] == "yes"


def test_volume_name_when_the_server_allows_it():
    """The embedded server refuses spec.volumeName changes (simplified PVC update validation)."""
    c = Cluster(VolumeBinderConfig(bind_delay=0.0))
    c.claims().create(claim_manifest("data"))
    c.driver.run_until_idle()
    claim = c.claim("data")
    assert claim.status.phase == "Bound"
    if c.binder.spec_update_refused:
        assert not claim.spec.volume_name
    else:
        assert claim.spec.volume_name == volume_name_for(claim)


@pytest.mark.parametrize("delay", [pytest.param(0.0, id="at once"), pytest.param(3.0, id="after 3s")])
def test_each_claim_waits_from_when_it_was_seen(delay):
    c = Cluster(VolumeBinderConfig(bind_delay=delay))
    c.claims().create(claim_manifest("a"))
    c.at(2.0)
    c.claims().create(claim_manifest("b"))
    c.driver.run_until_idle()
    assert c.claim("a").status.phase == c.claim("b").status.phase == "Bound"
    assert c.clock.now() == EPOCH + timedelta(seconds=2.0 + delay)
    assert all(r.bound for r in c.binder.records.values())


def test_claims_that_are_not_pending_are_left_alone():
    c = Cluster(VolumeBinderConfig(bind_delay=0.0))
    c.claims().create(claim_manifest("data"))
    c.driver.run_until_idle()
    rv = c.claim("data").metadata.resource_version
    c.claims().create(claim_manifest("lost"))
    c.driver.run_until_idle()
    assert c.claim("data").metadata.resource_version == rv  # only the new claim was written


def test_a_claim_deleted_while_waiting_is_forgotten():
    c = Cluster(VolumeBinderConfig(bind_delay=10.0))
    c.claims().create(claim_manifest("data"))
    c.at(1.0)
    assert "default/data" in c.binder.records
    c.claims().delete("data", DeleteOptions())
    c.driver.run_until_idle()
    assert c.binder.records == {}
    assert c.claims().list().items == []


def test_a_recreated_claim_waits_again():
    c = Cluster(VolumeBinderConfig(bind_delay=10.0))
    c.claims().create(claim_manifest("data"))
    c.at(8.0)
    c.claims().delete("data", DeleteOptions())
    c.claims().create(claim_manifest("data"))
    c.at(12.0)
    assert c.claim("data").status.phase == "Pending"  # the new claim counts from 8 s
    c.at(18.0)
    assert c.claim("data").status.phase == "Bound"


@pytest.mark.threaded
def test_threaded_run_binds_a_claim():
    clock = RealClock()
    server = APIServer(clock=clock, rng=random.Random(1))
    client = InProcessClientset(server)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    binder = new_volume_binder(client, factory.core().v1().persistent_volume_claims(),
                               config=VolumeBinderConfig(bind_delay=0.05))
    stop = threading.Event()
    factory.start(stop)
    runner = threading.Thread(target=binder.run, args=(stop,), daemon=True)
    runner.start()
    try:
        client.core_v1().persistent_volume_claims("default").create(claim_manifest("data"))
        deadline = time.monotonic() + 10
        phase = None
        while time.monotonic() < deadline and phase != "Bound":
            phase = client.core_v1().persistent_volume_claims("default").get("data").status.phase
            time.sleep(0.02)
        assert phase == "Bound"
    finally:
        stop.set()
        runner.join(5)
        factory.shutdown()
    assert not runner.is_alive()
