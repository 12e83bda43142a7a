"""End to end: the installed kubectl against `minikcm up`, run as a separate process.

`minikcm up` starts as a subprocess with `--port 0 --kubeconfig <tmp>` and
short simulated-kubelet timings; the tests wait for the kubeconfig file (it is
written only once the server answers), then run kubectl with KUBECONFIG, a
fresh HOME and KUBECACHEDIR, through the everyday workflow: rollouts of a
Deployment (status, set image, history, undo, pause and resume), scale, events,
the controller manager's Lease, foreground cascading deletion, and the same
for a StatefulSet with a volumeClaimTemplate. SIGTERM (and Ctrl-C) must end
the process with exit code 0 within 10 s. A second test restarts `up` on the
same data directory and finds everything again.

These tests FAIL when kubectl is installed and something is wrong; they skip
only when there is no kubectl. The tests of the shared cluster run in file order.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

KUBECTL = shutil.which("kubectl")
REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.threaded,
    pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed on this machine"),
]

FAST_SIM = ["--kubelet-start-delay", "100ms", "--kubelet-ready-delay", "100ms", "--kubelet-immediate-deletion",
            "--volume-bind-delay", "100ms"]
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0

STATEFUL_SET = """\
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 3
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: pg
        image: postgres:16
        volumeMounts:
        - {name: data, mountPath: /var/lib/postgresql/data}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
"""


class UpProcess:
    """One `minikcm up` subprocess, its log files, and a kubectl bound to its kubeconfig."""

    def __init__(self, workdir: Path, *extra: str) -> None:
        self.dir = workdir
        self.kubeconfig = workdir / "kubeconfig"
        self.stdout = workdir / "up.out"
        self.stderr = workdir / "up.err"
        home = workdir / "home"
        home.mkdir(exist_ok=True)
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                    "KUBECONFIG": str(self.kubeconfig), "KUBECACHEDIR": str(home / "cache")}
        args = [sys.executable, "-m", "minikcm", "up", "--port", "0", "--kubeconfig", str(self.kubeconfig),
                *FAST_SIM, *extra]
        with open(self.stdout, "w") as out, open(self.stderr, "w") as err:
            self.proc = subprocess.Popen(args, stdout=out, stderr=err, cwd=REPO,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.wait_for_kubeconfig()

    def logs(self) -> str:
        return (f"--- up stdout ---\n{self.stdout.read_text()}\n"
                f"--- up stderr (tail) ---\n{''.join(self.stderr.read_text().splitlines(True)[-40:])}")

    def wait_for_kubeconfig(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not self.kubeconfig.exists():
            if self.proc.poll() is not None:
                raise AssertionError(f"minikcm up exited with {self.proc.returncode} before serving\n{self.logs()}")
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError(f"no kubeconfig after {START_TIMEOUT}s\n{self.logs()}")
            time.sleep(0.05)

    def kubectl(self, *args: str, stdin: str | None = None, check: bool = True,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        result = subprocess.run([KUBECTL, *args], input=stdin, env=self.env, capture_output=True, text=True,
                                timeout=timeout, cwd=self.dir)
        if check and result.returncode != 0:
            raise AssertionError(f"kubectl {' '.join(args)} failed ({result.returncode}):\n"
                                 f"{result.stdout}\n{result.stderr}\n{self.logs()}")
        return result

    def get_json(self, *args: str) -> dict:
        return json.loads(self.kubectl("get", *args, "-o", "json").stdout)

    def eventually(self, what: str, predicate, timeout: float = 20.0):
        """Poll `predicate()` until it returns something truthy; fail with `what` after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}\n{self.logs()}")
            time.sleep(0.1)

    def terminate(self, sig: int = signal.SIGTERM) -> tuple[int, float]:
        """Send `sig`; returns (exit code, seconds taken). Kills the process if it overstays STOP_TIMEOUT."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"minikcm up did not stop within {STOP_TIMEOUT}s of SIGTERM\n{self.logs()}")
        return code, time.monotonic() - started


@pytest.fixture(scope="module")
def up(tmp_path_factory):
    process = UpProcess(tmp_path_factory.mktemp("up"))
    yield process
    if process.proc.poll() is None:
        process.terminate()


def ready_pods(up: UpProcess, selector: str) -> list[dict]:
    """Pods matching `selector` that are Ready and not being deleted."""
    pods = up.get_json("pods", "-l", selector)["items"]
    return [p for p in pods if "deletionTimestamp" not in p["metadata"]
            and any(c["type"] == "Ready" and c["status"] == "True" for c in p["status"].get("conditions", []))]


def revisions(history: str) -> list[str]:
    """The REVISION column of `kubectl rollout history`."""
    lines = [line.split() for line in history.strip().splitlines()]
    start = next(i for i, line in enumerate(lines) if line and line[0] == "REVISION") + 1
    return [line[0] for line in lines[start:] if line]


def images(up: UpProcess, selector: str) -> set[str]:
    return {c["image"] for p in up.get_json("pods", "-l", selector)["items"] for c in p["spec"]["containers"]}


# --- the client that runs ------------------------------------------------------------------------


def test_dispatcher_runs_a_1_32_kubectl(up):
    """/usr/bin/kubectl may be Google's dispatcher, which picks a kubectl by the server's /version."""
    versions = json.loads(up.kubectl("version", "-o", "json").stdout)
    assert versions["serverVersion"]["gitVersion"] == "v1.32.4"
    assert versions["clientVersion"]["gitVersion"].startswith("v1.32.")


def test_banner_names_the_server_the_kubeconfig_and_the_controllers(up):
    out = up.eventually("the banner", lambda: "Ctrl-C" in up.stdout.read_text() and up.stdout.read_text())
    assert "minikcm up: API server listening on https://127.0.0.1:" in out
    assert f"export KUBECONFIG={up.kubeconfig}" in out
    for name in ("deployment-controller", "replicaset-controller", "statefulset-controller",
                 "garbage-collector-controller"):
        assert name in out
    assert "leader: " in out and "nodes: 32 simulated" in out
    assert "runtime.REALLY_CRASH off" in out  # the project's choice, said once at start-up
    assert len(out.strip().splitlines()) == 7  # the banner stands alone: the default verbosity logs no info lines
    assert "Starting reflector" not in up.stderr.read_text()


# --- Deployments ---------------------------------------------------------------------------------


def test_deployment_rollout_status_set_image_history_undo(up):
    # The generator sends its object as protobuf.
    created = up.kubectl("create", "deployment", "web", "--image=nginx:1.25", "--replicas=3").stdout
    assert created.strip() == "deployment.apps/web created"
    assert "successfully rolled out" in up.kubectl("rollout", "status", "deployment/web", "--timeout=60s").stdout
    assert len(ready_pods(up, "app=web")) == 3

    up.kubectl("set", "image", "deployment/web", "nginx=nginx:1.26")
    assert "successfully rolled out" in up.kubectl("rollout", "status", "deployment/web", "--timeout=60s").stdout
    assert revisions(up.kubectl("rollout", "history", "deployment/web").stdout) == ["1", "2"]
    up.eventually("only nginx:1.26 pods", lambda: images(up, "app=web") == {"nginx:1.26"})

    assert "rolled back" in up.kubectl("rollout", "undo", "deployment/web").stdout
    assert "successfully rolled out" in up.kubectl("rollout", "status", "deployment/web", "--timeout=60s").stdout
    assert revisions(up.kubectl("rollout", "history", "deployment/web").stdout) == ["2", "3"]
    up.eventually("only nginx:1.25 pods again", lambda: images(up, "app=web") == {"nginx:1.25"})
    assert len(up.get_json("replicasets", "-l", "app=web")["items"]) == 2  # the undo reused revision 1's


def test_pause_holds_a_template_change_until_resume(up):
    up.kubectl("rollout", "pause", "deployment/web")
    up.kubectl("set", "image", "deployment/web", "nginx=nginx:1.27")

    def paused_condition_seen():
        d = up.get_json("deployment", "web")
        conditions = {c["type"]: c for c in d["status"].get("conditions", [])}
        return (d["status"].get("observedGeneration") == d["metadata"]["generation"]
                and conditions.get("Progressing", {}).get("reason") == "DeploymentPaused")

    up.eventually("the controller to observe the paused deployment", paused_condition_seen)
    assert len(up.get_json("replicasets", "-l", "app=web")["items"]) == 2  # no new ReplicaSet while paused
    assert images(up, "app=web") == {"nginx:1.25"}

    up.kubectl("rollout", "resume", "deployment/web")
    assert "successfully rolled out" in up.kubectl("rollout", "status", "deployment/web", "--timeout=60s").stdout
    up.eventually("only nginx:1.27 pods", lambda: images(up, "app=web") == {"nginx:1.27"})


def test_scale_to_five_ready_pods(up):
    assert up.kubectl("scale", "deployment/web", "--replicas=5").stdout.strip() == "deployment.apps/web scaled"
    up.eventually("5 ready pods", lambda: len(ready_pods(up, "app=web")) == 5)
    table = up.kubectl("get", "pods", "-l", "app=web").stdout
    assert table.count("1/1") == 5 and table.count("Running") == 5


def test_events_show_the_controllers_at_work(up):
    events = up.kubectl("get", "events").stdout
    assert "ScalingReplicaSet" in events  # the deployment controller
    assert "SuccessfulCreate" in events  # the replicaset controller


def test_controller_manager_lease_has_a_holder(up):
    lease = yaml.safe_load(up.kubectl("get", "lease", "-n", "kube-system", "kube-controller-manager",
                                      "-o", "yaml").stdout)
    holder = lease["spec"]["holderIdentity"]
    assert holder
    assert lease["spec"]["leaseDurationSeconds"] == 15
    assert holder in up.kubectl("get", "lease", "-n", "kube-system").stdout


# --- Nodes: get, describe, leases, cordon, drain; where the simulation stops --------------------


def test_get_nodes_shows_ready_nodes_with_their_version(up):
    header, *rows = [line.split() for line in up.kubectl("get", "nodes").stdout.strip().splitlines()]
    assert header == ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
    assert len(rows) == 32 and all(row[1] == "Ready" and row[4] == "v1.36.3" for row in rows)


def test_node_leases_renew(up):
    first = up.get_json("lease", "sim-node-0", "-n", "kube-node-lease")
    assert first["spec"]["holderIdentity"] == "sim-node-0" and first["spec"]["leaseDurationSeconds"] == 40
    assert len(up.get_json("lease", "-n", "kube-node-lease")["items"]) == 32
    up.eventually("a lease renewal (every 10s)", lambda: up.get_json(
        "lease", "sim-node-0", "-n", "kube-node-lease")["spec"]["renewTime"] != first["spec"]["renewTime"],
        timeout=15)


def test_describe_node_lists_its_pods(up):
    pod = ready_pods(up, "app=web")[0]
    out = up.kubectl("describe", "node", pod["spec"]["nodeName"]).stdout
    assert "kubelet is posting ready status" in out and "Allocated resources:" in out
    assert pod["metadata"]["name"] in out.split("Non-terminated Pods:")[1]


def test_cordon_then_drain_moves_the_pods_elsewhere(up):
    node = ready_pods(up, "app=web")[0]["spec"]["nodeName"]
    assert up.kubectl("cordon", node).stdout.strip() == f"node/{node} cordoned"
    assert "Ready,SchedulingDisabled" in up.kubectl("get", "node", node).stdout
    out = up.kubectl("drain", node, "--timeout=60s").stdout
    assert "evicted" in out and f"node/{node} drained" in out
    up.eventually("5 ready pods, none on the drained node", lambda: (
        len(pods := ready_pods(up, "app=web")) == 5 and all(p["spec"]["nodeName"] != node for p in pods)))
    assert up.kubectl("uncordon", node).stdout.strip() == f"node/{node} uncordoned"


@pytest.mark.parametrize("args, words", [
    (("logs", "{pod}"), "has no container logs"),
    (("logs", "deployment/web"), "has no container logs"),
    (("exec", "{pod}", "--", "ls"), "cannot run commands"),
    (("top", "pods"), "Metrics API not available"),
    (("debug", "{pod}", "--image=busybox", "--profile=general"), "cannot run ephemeral (debug) containers"),
    (("create", "job", "j", "--image=busybox"), "(jobs.batch): minikcm does not serve it"),
    (("autoscale", "deployment/web", "--max=5"), "minikcm does not serve it"),
])
def test_logs_exec_and_top_say_why(up, args, words):
    pod = ready_pods(up, "app=web")[0]["metadata"]["name"]
    result = up.kubectl(*(a.format(pod=pod) for a in args), check=False)
    assert result.returncode != 0 and words in result.stderr, result.stderr


def test_foreground_delete_removes_replica_sets_and_pods_first(up):
    result = up.kubectl("delete", "deployment", "web", "--cascade=foreground")
    assert result.stdout.strip() == 'deployment.apps "web" deleted'
    # kubectl waits until the Deployment is gone; in foreground, that is after its dependents.
    assert up.get_json("replicasets", "-l", "app=web")["items"] == []
    assert up.get_json("pods", "-l", "app=web")["items"] == []


# --- StatefulSets --------------------------------------------------------------------------------


def test_stateful_set_rollout_history_undo(up):
    assert up.kubectl("apply", "-f", "-", stdin=STATEFUL_SET).stdout.strip() == "statefulset.apps/db created"
    status = up.kubectl("rollout", "status", "statefulset/db", "--timeout=60s").stdout
    assert "roll out complete" in status
    assert [p["metadata"]["name"] for p in ready_pods(up, "app=db")] == ["db-0", "db-1", "db-2"]
    up.eventually("three Bound claims", lambda: [c["status"].get("phase") for c in
                                                 up.get_json("pvc", "-l", "app=db")["items"]] == ["Bound"] * 3)

    up.kubectl("set", "image", "statefulset/db", "pg=postgres:17")
    assert "roll out complete" in up.kubectl("rollout", "status", "statefulset/db", "--timeout=60s").stdout
    assert images(up, "app=db") == {"postgres:17"}
    assert revisions(up.kubectl("rollout", "history", "statefulset/db").stdout) == ["1", "2"]

    assert "rolled back" in up.kubectl("rollout", "undo", "statefulset/db").stdout
    assert "roll out complete" in up.kubectl("rollout", "status", "statefulset/db", "--timeout=60s").stdout
    up.eventually("postgres:16 pods again", lambda: images(up, "app=db") == {"postgres:16"})
    assert revisions(up.kubectl("rollout", "history", "statefulset/db").stdout) == ["2", "3"]
    sts = up.get_json("statefulset", "db")
    assert sts["status"]["currentRevision"] == sts["status"]["updateRevision"]


# --- stopping --------------------------------------------------------------------------------------


def test_sigterm_stops_everything_with_exit_code_zero(up):
    code, took = up.terminate()
    assert code == 0, up.logs()
    assert took < STOP_TIMEOUT
    assert "minikcm up: stopped" in up.stdout.read_text()


# --- persistence -----------------------------------------------------------------------------------


def test_restart_on_the_same_data_dir_keeps_everything(tmp_path):
    data = tmp_path / "data"
    first = UpProcess(tmp_path, "--data-dir", str(data))
    try:
        first.kubectl("create", "deployment", "keep", "--image=nginx:1.25", "--replicas=3")
        first.kubectl("rollout", "status", "deployment/keep", "--timeout=60s")
        rs_before = {r["metadata"]["uid"] for r in first.get_json("replicasets", "-l", "app=keep")["items"]}
        pods_before = {p["metadata"]["uid"] for p in ready_pods(first, "app=keep")}
        holder = first.get_json("lease", "-n", "kube-system", "kube-controller-manager")["spec"]["holderIdentity"]
    finally:
        code, _ = first.terminate(signal.SIGINT)  # Ctrl-C
    assert code == 0, first.logs()
    assert len(pods_before) == 3

    first.kubeconfig.unlink()  # the restart writes it again once it serves (on a new port)
    second = UpProcess(tmp_path, "--data-dir", str(data))
    try:
        assert {r["metadata"]["uid"] for r in second.get_json("replicasets", "-l", "app=keep")["items"]} == rs_before
        assert {p["metadata"]["uid"] for p in second.get_json("pods", "-l", "app=keep")["items"]} == pods_before
        # The same identity holds the lease again at once (no 15 s wait for the old lease to expire).
        lease = second.get_json("lease", "-n", "kube-system", "kube-controller-manager")
        assert lease["spec"]["holderIdentity"] == holder
        second.kubectl("scale", "deployment/keep", "--replicas=4")
        second.kubectl("rollout", "status", "deployment/keep", "--timeout=60s")
        second.eventually("4 ready pods after the restart", lambda: len(ready_pods(second, "app=keep")) == 4)
        assert pods_before <= {p["metadata"]["uid"] for p in ready_pods(second, "app=keep")}
    finally:
        code, _ = second.terminate()
    assert code == 0, second.logs()
