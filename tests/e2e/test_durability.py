"""End to end: `minikcm up --data-dir` killed with SIGKILL loses no acknowledged write.

`minikcm up` runs as a real subprocess on one data directory. The test drives
it over HTTPS with the official `kubernetes` client, writing Leases
(coordination.k8s.io: no controller touches test Leases, so what is stored is
exactly what the test wrote) and recording every acknowledged write in a
`Ledger`: name -> (resourceVersion, holderIdentity), or deleted. Then it kills
the process with SIGKILL at several points, restarts it on the same directory
each time, and checks:

- every acknowledged write is there with the same resourceVersion and content
  (an acknowledged delete stays deleted); a write that was in flight at the
  kill may have landed or not, but nothing else;
- the resourceVersion counter continues above every version handed out
  before the kill, a delete's included (the test's first write after the
  restart and the controller manager's Lease renewal both get larger ones: no
  reuse);
- an informer in the test process (minikcm's SharedInformerFactory over the
  RESTClientset), which lives through the kill because the server comes back
  on the same port with the same CA and token, resumes: its watch breaks, it
  relists (a watch from before the restart is 410 Expired) and its cache ends
  equal to the server's Leases, writes it never saw an event for included.
  A fresh informer is started before each kill: the reflector's backoff is
  client-go's (0.8 s doubling to 30 s, reset after two calm minutes), so one
  informer through four kills in a minute would wait half a minute to relist;
- after a kill in the middle of a Deployment rollout, the restarted
  controllers (whose informers list afresh) finish the rollout: every replica
  on the new template, Ready, the old ReplicaSet scaled to zero.

Kill points, in file order on one data directory: right after an
acknowledged write (a create, then a delete); during a burst of writes from
four threads; during a Deployment rollout while the controllers write (and a
Lease writer runs), restarting with `--controller-client rest` so the
controllers' informers list over HTTPS. On a fresh directory: during the first
start, as soon as the database, the CA key and the token file appear.
Needs no kubectl. Real process, real timings: marked `threaded`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pytest
from kubernetes import client as k8s
from kubernetes import config as k8s_config
from kubernetes.client.rest import ApiException

from minikcm.apimachinery import labels
from minikcm.client.rest import RESTClientset
from minikcm.clock import RealClock
from minikcm.informers import new_shared_informer_factory_with_options

REPO = Path(__file__).resolve().parents[2]
NS = "default"
FAST_SIM = ["--kubelet-start-delay", "100ms", "--kubelet-ready-delay", "300ms", "--kubelet-immediate-deletion",
            "--volume-bind-delay", "100ms"]
START_TIMEOUT = 20.0
CONVERGE_TIMEOUT = 20.0
INFORMER_TIMEOUT = 15.0
"""The reflector backs off between failed lists while the server is down (0.8 s, doubling)."""
REQUEST_TIMEOUT = 5.0

pytestmark = pytest.mark.threaded


# --- the ledger of acknowledged writes ---------------------------------------------------------------


@dataclass
class Ledger:
    """What the server acknowledged, per Lease name, and what was still in flight at the kill."""

    acked: dict[str, tuple[int, str] | None] = field(default_factory=dict)
    """name -> (resourceVersion, holderIdentity) of the last acknowledged write; None: deleted."""
    pending: dict[str, str | None] = field(default_factory=dict)
    """name -> the content of a write sent but not (yet) acknowledged; None: a delete."""
    max_rv: int = 0
    """The highest resourceVersion any acknowledged answer carried."""
    count: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def attempt(self, name: str, holder: str | None) -> None:
        with self.lock:
            self.pending[name] = holder

    def ack(self, name: str, rv: int | None, holder: str | None) -> None:
        with self.lock:
            self.pending.pop(name, None)
            self.acked[name] = None if holder is None else (rv, holder)
            if rv is not None:
                self.max_rv = max(self.max_rv, rv)
            self.count += 1

    def saw(self, rv: int) -> None:
        with self.lock:
            self.max_rv = max(self.max_rv, rv)

    def check(self, stored: dict[str, tuple[int, str]]) -> list[str]:
        """Differences between the stored Leases and what was acknowledged (empty: none)."""
        problems = []
        with self.lock:
            for name in sorted(set(self.acked) | set(self.pending)):
                want = self.acked.get(name)
                got = stored.get(name)
                if name in self.pending:
                    attempted = self.pending[name]
                    ok = got == want or (attempted is None and got is None) or (
                        got is not None and got[1] == attempted and (want is None or got[0] > want[0]))
                    if not ok:
                        problems.append(f"{name}: stored {got}, acknowledged {want}, in flight {attempted!r}")
                elif got != want:
                    problems.append(f"{name}: stored {got}, acknowledged {want}")
        return problems


    def settle(self, stored: dict[str, tuple[int, str]]) -> None:
        """After a passing check: what was in flight is now known (read back), so later checks hold it exactly."""
        with self.lock:
            for name in list(self.pending):
                self.acked[name] = stored.get(name)
                del self.pending[name]


# --- the process ---------------------------------------------------------------------------------------


class UpProcess:
    """`minikcm up --data-dir` as a subprocess, and the official client bound to its kubeconfig."""

    def __init__(self, workdir: Path, run: int, port: int, extra: tuple[str, ...] = ()) -> None:
        self.kubeconfig = workdir / "kubeconfig"
        self.kubeconfig.unlink(missing_ok=True)  # a restart writes it again once it serves (new port)
        self.stdout = workdir / f"up-{run}.out"
        self.stderr = workdir / f"up-{run}.err"
        args = [sys.executable, "-m", "minikcm", "up", "--data-dir", str(workdir / "data"),
                "--kubeconfig", str(self.kubeconfig), "--port", str(port), *FAST_SIM, *extra]
        with open(self.stdout, "w") as out, open(self.stderr, "w") as err:
            self.proc = subprocess.Popen(args, stdout=out, stderr=err, cwd=REPO,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + START_TIMEOUT
        while not self.kubeconfig.exists():
            if self.proc.poll() is not None:
                raise AssertionError(f"minikcm up exited with {self.proc.returncode}\n{self.logs()}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"no kubeconfig after {START_TIMEOUT}s\n{self.logs()}")
            time.sleep(0.05)
        self.api_client = k8s_config.new_client_from_config(config_file=str(self.kubeconfig))
        self.api_client.configuration.retries = 0  # a write to a killed server fails, it is not resent
        self.leases = k8s.CoordinationV1Api(self.api_client)
        self.apps = k8s.AppsV1Api(self.api_client)
        self.core = k8s.CoreV1Api(self.api_client)

    def logs(self) -> str:
        tail = "".join(self.stderr.read_text().splitlines(True)[-30:])
        return f"--- up stdout ---\n{self.stdout.read_text()}\n--- up stderr (tail) ---\n{tail}"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, the data directory is left as the kill found it."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        if hasattr(self, "api_client"):
            self.api_client.close()

    def stored_leases(self) -> dict[str, tuple[int, str]]:
        """The test's Leases (name -> (resourceVersion, holder)) as the server has them now."""
        items = self.leases.list_namespaced_lease(NS, _request_timeout=REQUEST_TIMEOUT).items
        return {lease.metadata.name: (int(lease.metadata.resource_version), lease.spec.holder_identity)
                for lease in items if lease.metadata.name.startswith("w")}


def lease(name: str, holder: str, rv: str | None = None) -> k8s.V1Lease:
    return k8s.V1Lease(metadata=k8s.V1ObjectMeta(name=name, resource_version=rv),
                       spec=k8s.V1LeaseSpec(holder_identity=holder, lease_duration_seconds=30))


def write_leases(up: UpProcess, ledger: Ledger, prefix: str, stop: threading.Event, limit: int = 10_000) -> None:
    """Create, update (twice) and every third object delete Leases until `stop`, the limit, or an error.

    Every request is recorded as attempted before it is sent and as acknowledged once answered.
    """
    for i in range(limit):
        if stop.is_set():
            return
        name = f"w{prefix}-{i}"
        try:
            ledger.attempt(name, f"{name}/0")
            got = up.leases.create_namespaced_lease(NS, lease(name, f"{name}/0"), _request_timeout=REQUEST_TIMEOUT)
            ledger.ack(name, int(got.metadata.resource_version), f"{name}/0")
            for n in (1, 2):
                ledger.attempt(name, f"{name}/{n}")
                got = up.leases.replace_namespaced_lease(
                    name, NS, lease(name, f"{name}/{n}", got.metadata.resource_version),
                    _request_timeout=REQUEST_TIMEOUT)
                ledger.ack(name, int(got.metadata.resource_version), f"{name}/{n}")
            if i % 3 == 2:
                ledger.attempt(name, None)
                up.leases.delete_namespaced_lease(name, NS, _request_timeout=REQUEST_TIMEOUT)
                ledger.ack(name, None, None)
                # the delete took a resourceVersion too; a list after it reports at least that one
                listed = up.leases.list_namespaced_lease(NS, limit=1, _request_timeout=REQUEST_TIMEOUT)
                ledger.saw(int(listed.metadata.resource_version))
        except Exception:  # noqa: BLE001 (the server was killed under us: the write stays pending)
            return


def eventually(up: UpProcess, what: str, predicate, timeout: float = CONVERGE_TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = predicate()
        except ApiException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}\n{up.logs()}")
        time.sleep(0.05)


# --- the cluster shared by the tests (file order) -----------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Cluster:
    """One data directory and port; the `up` process of the moment; the ledger; an informer that outlives kills."""

    workdir: Path
    port: int = field(default_factory=free_port)
    ledger: Ledger = field(default_factory=Ledger)
    up: UpProcess | None = None
    runs: int = 0
    informer_stop: threading.Event = field(default_factory=threading.Event)
    informer_client: RESTClientset | None = None
    lease_informer: object = None
    factory: object = None

    def start(self, *extra: str) -> UpProcess:
        self.runs += 1
        self.started_at = datetime.now(timezone.utc)
        self.up = UpProcess(self.workdir, self.runs, self.port, extra)
        return self.up

    def start_informer(self) -> None:
        """A fresh Lease informer over HTTPS (the previous one stopped), synced before this returns."""
        assert self.up is not None
        self.stop_informer()
        self.informer_stop = threading.Event()
        self.informer_client = RESTClientset(str(self.up.kubeconfig))
        factory = new_shared_informer_factory_with_options(self.informer_client, 0, clock=RealClock())
        self.lease_informer = factory.coordination().v1().leases()
        self.lease_informer.informer()  # register it before start
        factory.start(self.informer_stop)
        synced = factory.wait_for_cache_sync(self.informer_stop)
        assert all(synced.values()), synced
        self.factory = factory

    def informer_leases(self) -> dict[str, int]:
        return {lease.metadata.name: int(lease.metadata.resource_version)
                for lease in self.lease_informer.lister().list(labels.everything())
                if lease.metadata.namespace == NS and lease.metadata.name.startswith(("w", "probe"))}

    def server_leases(self) -> dict[str, int]:
        items = self.up.leases.list_namespaced_lease(NS, _request_timeout=REQUEST_TIMEOUT).items
        return {lease.metadata.name: int(lease.metadata.resource_version)
                for lease in items if lease.metadata.name.startswith(("w", "probe"))}

    def stop_informer(self) -> None:
        self.informer_stop.set()
        if self.factory is not None:
            self.factory.shutdown()
            self.factory = None
        if self.informer_client is not None:
            self.informer_client.close()
            self.informer_client = None

    def kill_and_restart(self, *extra: str) -> UpProcess:
        assert self.up is not None and self.factory is not None, "start_informer() before the kill"
        self.up.kill()
        self.max_rv_at_kill = self.ledger.max_rv
        return self.start(*extra)

    def controller_manager_lease_written_since_start(self) -> k8s.V1Lease | None:
        lease = self.up.leases.read_namespaced_lease("kube-controller-manager", "kube-system",
                                                     _request_timeout=REQUEST_TIMEOUT)
        renewed = lease.spec.renew_time
        return lease if renewed is not None and renewed > self.started_at else None

    def check_durable(self) -> None:
        """Every acknowledged write is back as acknowledged; the counter continues above them all."""
        up = self.up
        assert up is not None
        stored = up.stored_leases()
        problems = self.ledger.check(stored)
        assert not problems, "acknowledged writes lost or changed:\n" + "\n".join(problems)
        self.ledger.settle(stored)
        listed = up.leases.list_namespaced_lease(NS, _request_timeout=REQUEST_TIMEOUT)
        assert int(listed.metadata.resource_version) >= self.ledger.max_rv
        probe = f"probe-{self.runs}"
        got = up.leases.create_namespaced_lease(NS, lease(probe, probe), _request_timeout=REQUEST_TIMEOUT)
        assert int(got.metadata.resource_version) > max(self.ledger.max_rv, int(listed.metadata.resource_version)), \
            "a write after the restart reused a resourceVersion"
        self.ledger.saw(int(got.metadata.resource_version))
        # the controller manager writes its Lease right after a restart, maybe before the probe: same rule
        renewed = eventually(up, "the controller manager to renew its Lease after the restart",
                             self.controller_manager_lease_written_since_start)
        assert int(renewed.metadata.resource_version) > self.max_rv_at_kill, \
            "the controller manager's first write after the restart reused a resourceVersion"
        try:
            eventually(up, "the informer that lived through the kill to catch up with the server",
                       lambda: self.informer_leases() == self.server_leases(), timeout=INFORMER_TIMEOUT)
        except AssertionError:
            cached, stored = self.informer_leases(), self.server_leases()
            diff = {name: (cached.get(name), stored.get(name)) for name in sorted(set(cached) | set(stored))
                    if cached.get(name) != stored.get(name)}
            raise AssertionError(f"informer cache != server (name: (cached rv, stored rv)): {diff}; a watch that "
                                 f"resumes after a restart must not skip a write\n{up.logs()}") from None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("durability"))
    c.start()
    yield c
    c.stop_informer()
    if c.up is not None:
        c.up.kill()


def test_kill_right_after_an_acknowledged_write(cluster):
    up = cluster.up
    cluster.start_informer()
    write_leases(up, cluster.ledger, "a", threading.Event(), limit=8)
    name = "wa-last"
    cluster.ledger.attempt(name, "last")
    got = up.leases.create_namespaced_lease(NS, lease(name, "last"), _request_timeout=REQUEST_TIMEOUT)
    cluster.ledger.ack(name, int(got.metadata.resource_version), "last")
    os.kill(up.proc.pid, signal.SIGKILL)  # at once: no other request in between
    up = cluster.kill_and_restart()
    assert up.stored_leases()[name] == (int(got.metadata.resource_version), "last")
    cluster.check_durable()
    # the same with a delete as the last acknowledged write: it took a resourceVersion that must not come back
    cluster.start_informer()
    cluster.ledger.attempt(name, None)
    up.leases.delete_namespaced_lease(name, NS, _request_timeout=REQUEST_TIMEOUT)
    cluster.ledger.ack(name, None, None)
    deleted_at = int(up.leases.list_namespaced_lease(NS, limit=1, _request_timeout=REQUEST_TIMEOUT)
                     .metadata.resource_version)
    cluster.ledger.saw(deleted_at)
    os.kill(up.proc.pid, signal.SIGKILL)
    up = cluster.kill_and_restart()
    assert name not in up.stored_leases()
    cluster.check_durable()


def test_kill_during_a_burst_of_writes(cluster):
    up = cluster.up
    cluster.start_informer()
    stop = threading.Event()
    acked_before = cluster.ledger.count
    threads = [threading.Thread(target=write_leases, args=(up, cluster.ledger, f"b{t}", stop), daemon=True)
               for t in range(4)]
    for thread in threads:
        thread.start()
    eventually(up, "60 acknowledged writes in the burst", lambda: cluster.ledger.count - acked_before >= 60)
    os.kill(up.proc.pid, signal.SIGKILL)  # while four writers have requests in flight
    for thread in threads:
        thread.join(REQUEST_TIMEOUT + 1)
    stop.set()
    assert not any(thread.is_alive() for thread in threads)
    cluster.kill_and_restart()
    cluster.check_durable()


def deployment(image: str) -> k8s.V1Deployment:
    labels = {"app": "web"}
    return k8s.V1Deployment(
        metadata=k8s.V1ObjectMeta(name="web"),
        spec=k8s.V1DeploymentSpec(
            replicas=4, selector=k8s.V1LabelSelector(match_labels=labels),
            strategy=k8s.V1DeploymentStrategy(
                type="RollingUpdate",
                rolling_update=k8s.V1RollingUpdateDeployment(max_surge=1, max_unavailable=0)),
            template=k8s.V1PodTemplateSpec(
                metadata=k8s.V1ObjectMeta(labels=labels),
                spec=k8s.V1PodSpec(containers=[k8s.V1Container(name="app", image=image)]))))


def rolled_out(up: UpProcess, image: str) -> bool:
    """The Deployment's rollout to `image` is complete, as `kubectl rollout status` decides, and the pods agree."""
    d = up.apps.read_namespaced_deployment("web", NS, _request_timeout=REQUEST_TIMEOUT)
    s = d.status
    if not (s and s.observed_generation == d.metadata.generation and s.updated_replicas == 4
            and s.replicas == 4 and s.available_replicas == 4 and s.ready_replicas == 4):
        return False
    pods = up.core.list_namespaced_pod(NS, label_selector="app=web", _request_timeout=REQUEST_TIMEOUT).items
    live = [p for p in pods if p.metadata.deletion_timestamp is None]
    ready = [p for p in live if p.spec.containers[0].image == image and any(
        c.type == "Ready" and c.status == "True" for c in (p.status.conditions or []))]
    sets = up.apps.list_namespaced_replica_set(NS, label_selector="app=web", _request_timeout=REQUEST_TIMEOUT).items
    old = [rs for rs in sets if rs.spec.template.spec.containers[0].image != image]
    return len(live) == 4 and len(ready) == 4 and all(rs.spec.replicas == 0 for rs in old)


def test_kill_during_a_deployment_rollout(cluster):
    up = cluster.up
    cluster.start_informer()
    up.apps.create_namespaced_deployment(NS, deployment("web:v1"), _request_timeout=REQUEST_TIMEOUT)
    eventually(up, "the first rollout", lambda: rolled_out(up, "web:v1"))
    current = up.apps.read_namespaced_deployment("web", NS, _request_timeout=REQUEST_TIMEOUT)
    current.spec.template.spec.containers[0].image = "web:v2"
    updated = up.apps.replace_namespaced_deployment("web", NS, current, _request_timeout=REQUEST_TIMEOUT)
    stop = threading.Event()
    writer = threading.Thread(target=write_leases, args=(up, cluster.ledger, "c", stop), daemon=True)
    writer.start()

    def mid_rollout() -> k8s.V1DeploymentStatus | None:
        d = up.apps.read_namespaced_deployment("web", NS, _request_timeout=REQUEST_TIMEOUT)
        s = d.status
        started = s and s.observed_generation == updated.metadata.generation and (s.updated_replicas or 0) >= 1
        return s if started else None

    at_kill = eventually(up, "the second rollout to begin", mid_rollout)
    os.kill(up.proc.pid, signal.SIGKILL)  # the controllers and the kubelet are writing now
    assert at_kill.updated_replicas < 4, f"the rollout finished before the kill: {at_kill}"
    writer.join(REQUEST_TIMEOUT + 1)
    stop.set()
    up = cluster.kill_and_restart("--controller-client", "rest")  # the controllers' informers list over HTTPS
    cluster.check_durable()
    stored = up.apps.read_namespaced_deployment("web", NS, _request_timeout=REQUEST_TIMEOUT)
    assert stored.metadata.generation == updated.metadata.generation
    assert stored.spec.template.spec.containers[0].image == "web:v2"
    assert int(stored.metadata.resource_version) >= int(updated.metadata.resource_version)
    eventually(up, "the interrupted rollout to finish after the restart", lambda: rolled_out(up, "web:v2"))


STARTUP_KILL_POINTS = [
    ("data/minikcm.db", "the database file was just created"),
    ("data/pki/ca.key", "the CA key was just written"),
    ("data/pki/token", "the token was just written"),
]


def test_kill_during_startup_then_start_cleanly(tmp_path):
    """SIGKILL while a first start makes its database, CA and token; each restart recovers, the last one serves.

    The kill comes as soon as each file appears (polled every few milliseconds),
    so the file may be half written. The start after the last kill must serve,
    and the state it makes (token, CA) must be what a further restart finds.
    """
    port = free_port()
    for relative, why in STARTUP_KILL_POINTS:
        target = tmp_path / relative
        args = [sys.executable, "-m", "minikcm", "up", "--data-dir", str(tmp_path / "data"),
                "--kubeconfig", str(tmp_path / "kubeconfig"), "--port", str(port), *FAST_SIM]
        with open(tmp_path / "kill.err", "w") as err:
            proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err, cwd=REPO)
        deadline = time.monotonic() + START_TIMEOUT
        while not target.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL, f"exited by itself before {why}: {(tmp_path / 'kill.err').read_text()}"
    started: list[UpProcess] = []
    try:
        started.append(first := UpProcess(tmp_path, 1, port))
        token = first.api_client.configuration.api_key
        got = first.leases.create_namespaced_lease(NS, lease("after-kills", "x"), _request_timeout=REQUEST_TIMEOUT)
        first.kill()
        started.append(second := UpProcess(tmp_path, 2, port))
        assert second.api_client.configuration.api_key == token  # the same token (and CA: TLS verified)
        stored = second.leases.read_namespaced_lease("after-kills", NS, _request_timeout=REQUEST_TIMEOUT)
        assert stored.metadata.resource_version == got.metadata.resource_version
    finally:
        for process in started:
            process.kill()
