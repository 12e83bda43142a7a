"""End to end: the installed kubectl against the embedded API server's HTTPS front.

The server runs in this process on a free port; kubectl runs as a subprocess
with KUBECONFIG pointing at the generated kubeconfig and a fresh HOME and
KUBECACHEDIR, so its discovery cache is empty. These tests FAIL when kubectl
is installed and something is wrong; they skip only when there is no kubectl.

Not here yet: `rollout status`, `rollout history` and `rollout undo` need the
deployment controller (ReplicaSets with revisions, status), which is not part
of the API server; they join these tests with `minikcm up`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from minikcm.apiserver.http.server import serve
from minikcm.apiserver.server import APIServer

KUBECTL = shutil.which("kubectl")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.threaded,
    pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed on this machine"),
]

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
  labels: {{app: {name}}}
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: {name}}}
  template:
    metadata:
      labels: {{app: {name}}}
    spec:
      containers:
      - name: c
        image: {image}
        ports:
        - containerPort: 80
        resources:
          limits: {{cpu: "1", memory: 128Mi}}
"""


class Kubectl:
    """Runs the installed kubectl against one server with a private HOME and cache."""

    def __init__(self, kubeconfig: Path, home: Path) -> None:
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                    "KUBECONFIG": str(kubeconfig), "KUBECACHEDIR": str(home / "cache")}
        self.dir = home

    def run(self, *args: str, stdin: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        result = subprocess.run([KUBECTL, *args], input=stdin, env=self.env, capture_output=True,
                                text=True, timeout=30, cwd=self.dir)
        if check and result.returncode != 0:
            raise AssertionError(f"kubectl {' '.join(args)} failed ({result.returncode}):\n"
                                 f"{result.stdout}\n{result.stderr}")
        return result

    def manifest(self, name: str, replicas: int = 2, image: str = "nginx:1.27") -> str:
        path = self.dir / f"{name}-{replicas}-{image.replace(':', '_')}.yaml"
        path.write_text(DEPLOYMENT.format(name=name, replicas=replicas, image=image))
        return str(path)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    api = APIServer()
    home = tmp_path_factory.mktemp("kubectl-home")
    handle = serve(api, kubeconfig_path=home / "kubeconfig")
    yield api, Kubectl(handle.kubeconfig_path, home)
    handle.shutdown()


@pytest.fixture
def api(cluster) -> APIServer:
    return cluster[0]


@pytest.fixture
def kubectl(cluster) -> Kubectl:
    return cluster[1]


def header_and_rows(output: str) -> tuple[list[str], list[list[str]]]:
    lines = [line.split() for line in output.strip().splitlines()]
    return lines[0], lines[1:]


# --- the client that runs ------------------------------------------------------------------------


def test_dispatcher_runs_a_1_32_kubectl(kubectl):
    """/usr/bin/kubectl may be Google's dispatcher, which picks a kubectl by the server's /version."""
    versions = json.loads(kubectl.run("version", "-o", "json").stdout)
    assert versions["serverVersion"]["gitVersion"] == "v1.32.4"
    assert versions["clientVersion"]["gitVersion"].startswith("v1.32.")


# --- the everyday workflow -------------------------------------------------------------------------


def test_create_then_create_again(kubectl, api):
    path = kubectl.manifest("created")
    assert kubectl.run("create", "-f", path).stdout.strip() == "deployment.apps/created created"
    again = kubectl.run("create", "-f", path, check=False)
    assert again.returncode == 1
    assert 'deployments.apps "created" already exists' in again.stderr
    assert api.get("deployments", "default", "created")["spec"]["replicas"] == 2


def test_client_side_apply_twice_then_a_change(kubectl, api):
    path = kubectl.manifest("applied")
    assert kubectl.run("apply", "-f", path).stdout.strip() == "deployment.apps/applied created"
    assert kubectl.run("apply", "-f", path).stdout.strip() == "deployment.apps/applied unchanged"
    changed = kubectl.manifest("applied", replicas=3, image="nginx:1.28")
    assert kubectl.run("apply", "-f", changed).stdout.strip() == "deployment.apps/applied configured"
    live = api.get("deployments", "default", "applied")
    assert live["spec"]["replicas"] == 3
    assert live["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.28"
    assert "kubectl.kubernetes.io/last-applied-configuration" in live["metadata"]["annotations"]


def test_server_side_apply_creates_and_updates(kubectl, api):
    path = kubectl.manifest("ssa")
    assert kubectl.run("apply", "--server-side", "-f", path).stdout.strip() == "deployment.apps/ssa serverside-applied"
    kubectl.run("apply", "--server-side", "-f", kubectl.manifest("ssa", replicas=4))
    assert api.get("deployments", "default", "ssa")["spec"]["replicas"] == 4


def test_get_default_wide_and_yaml(kubectl):
    kubectl.run("create", "-f", kubectl.manifest("shown", replicas=3))
    header, rows = header_and_rows(kubectl.run("get", "deployment", "shown").stdout)
    assert header == ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"]
    assert rows[0][:4] == ["shown", "0/3", "0", "0"]
    header, rows = header_and_rows(kubectl.run("get", "deploy", "shown", "-o", "wide").stdout)
    assert header[-3:] == ["CONTAINERS", "IMAGES", "SELECTOR"]
    assert rows[0][-3:] == ["c", "nginx:1.27", "app=shown"]
    as_yaml = yaml.safe_load(kubectl.run("get", "deployment", "shown", "-o", "yaml").stdout)
    assert as_yaml["kind"] == "Deployment" and as_yaml["metadata"]["uid"]


def test_describe(kubectl):
    kubectl.run("create", "-f", kubectl.manifest("described"))
    out = kubectl.run("describe", "deployment", "described").stdout
    assert "Name:                   described" in out
    assert "Replicas:               2 desired" in out
    assert "Port:       80/TCP" in out


def test_scale_set_image_pause_resume_and_json_patch(kubectl, api):
    kubectl.run("create", "-f", kubectl.manifest("ops"))
    kubectl.run("scale", "deployment/ops", "--replicas=5")
    assert api.get("deployments", "default", "ops")["spec"]["replicas"] == 5
    kubectl.run("set", "image", "deployment/ops", "c=nginx:1.29")
    container = api.get("deployments", "default", "ops")["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "nginx:1.29" and container["ports"] == [{"containerPort": 80, "protocol": "TCP"}]
    kubectl.run("rollout", "pause", "deployment/ops")
    assert api.get("deployments", "default", "ops")["spec"]["paused"] is True
    kubectl.run("rollout", "resume", "deployment/ops")
    assert not api.get("deployments", "default", "ops")["spec"].get("paused")
    kubectl.run("patch", "deployment", "ops", "--type=json",
                "-p", '[{"op": "replace", "path": "/spec/replicas", "value": 1}]')
    assert api.get("deployments", "default", "ops")["spec"]["replicas"] == 1


CASCADE_CASES = [
    pytest.param("background", None, id="background"),
    pytest.param("foreground", ["foregroundDeletion"], id="foreground"),
    pytest.param("orphan", ["orphan"], id="orphan"),
]


@pytest.mark.parametrize("cascade, finalizers", CASCADE_CASES)
def test_delete_with_cascade(kubectl, api, cascade, finalizers):
    name = f"del-{cascade}"
    kubectl.run("create", "-f", kubectl.manifest(name))
    out = kubectl.run("delete", "deployment", name, f"--cascade={cascade}", "--wait=false").stdout
    assert out.strip() == f'deployment.apps "{name}" deleted'
    if finalizers is None:
        assert kubectl.run("get", "deployment", name, check=False).returncode == 1
        return
    # No garbage collector runs here, so the object waits, marked, with the policy's finalizer.
    marked = api.get("deployments", "default", name)
    assert marked["metadata"]["finalizers"] == finalizers and marked["metadata"]["deletionTimestamp"]
    kubectl.run("patch", "deployment", name, "--type=merge", "-p", '{"metadata": {"finalizers": null}}')
    assert kubectl.run("get", "deployment", name, check=False).returncode == 1


def test_get_events(kubectl, api):
    api.create("events", "default", {
        "metadata": {"name": "web.1"}, "type": "Normal", "reason": "ScalingReplicaSet",
        "message": "Scaled up replica set web-1 to 2", "count": 1,
        "involvedObject": {"kind": "Deployment", "name": "web", "namespace": "default"},
        "source": {"component": "deployment-controller"}})
    header, rows = header_and_rows(kubectl.run("get", "events").stdout)
    assert header == ["LAST", "SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
    assert ["Normal", "ScalingReplicaSet", "deployment/web"] == rows[0][1:4]


def test_get_leases(kubectl, api):
    api.create("leases", "kube-system", {"metadata": {"name": "kube-controller-manager"},
                                         "spec": {"holderIdentity": "host_1234", "leaseDurationSeconds": 15}})
    header, rows = header_and_rows(kubectl.run("get", "leases", "-n", "kube-system").stdout)
    assert header == ["NAME", "HOLDER", "AGE"]
    assert rows[0][:2] == ["kube-controller-manager", "host_1234"]


def test_get_all(kubectl, api):
    ns = "everything"
    # `kubectl create namespace` would send a protobuf body, which the server does not decode (415).
    kubectl.run("create", "-f", "-", stdin=f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n")
    kubectl.run("create", "-n", ns, "-f", kubectl.manifest("web"))
    api.create("services", ns, {"metadata": {"name": "web"},
                                "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]}})
    api.create("pods", ns, {"metadata": {"name": "web-0"},
                            "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
    out = kubectl.run("get", "all", "-n", ns).stdout
    for name in ("pod/web-0", "service/web", "deployment.apps/web"):
        assert name in out, out
    assert "80/TCP" in out


# --- bad input through kubectl ------------------------------------------------------------------


def test_unknown_field_is_rejected_by_default_validation(kubectl, api):
    path = kubectl.dir / "unknown-field.yaml"
    path.write_text(DEPLOYMENT.format(name="typo", replicas=1, image="nginx") + "  replicaz: 3\n")
    result = kubectl.run("create", "-f", str(path), check=False)
    assert result.returncode == 1
    assert 'strict decoding error: unknown field "spec.replicaz"' in result.stderr
    assert api.list("deployments", "default", field_selector="metadata.name=typo")["items"] == []


def test_invalid_manifest_is_reported_with_the_field(kubectl, api):
    path = kubectl.dir / "invalid.yaml"
    path.write_text(DEPLOYMENT.format(name="bad", replicas=1, image="nginx").replace(
        "matchLabels: {app: bad}", "matchLabels: {app: other}"))
    result = kubectl.run("apply", "-f", str(path), check=False)
    assert result.returncode == 1
    assert 'The Deployment "bad" is invalid' in result.stderr
    assert "spec.template.metadata.labels" in result.stderr


def test_unknown_resource_type(kubectl):
    result = kubectl.run("get", "widgets", check=False)
    assert result.returncode == 1
    assert 'the server doesn\'t have a resource type "widgets"' in result.stderr


def test_oversized_object_is_refused(kubectl, api):
    manifest = yaml.safe_load(DEPLOYMENT.format(name="huge", replicas=1, image="nginx"))
    manifest["metadata"]["annotations"] = {"blob": "x" * (3 * 1024 * 1024 + 10)}
    path = kubectl.dir / "huge.json"
    path.write_text(json.dumps(manifest))
    result = kubectl.run("create", "-f", str(path), "--validate=false", check=False)
    assert result.returncode == 1
    assert "Request entity too large" in result.stderr
    assert api.list("deployments", "default", field_selector="metadata.name=huge")["items"] == []


# --- paged lists and watches ----------------------------------------------------------------------


def add_namespace_with_pods(api, ns: str, names: str) -> None:
    api.create("namespaces", None, {"metadata": {"name": ns}})
    for name in names:
        api.create("pods", ns, {"metadata": {"name": name},
                                "spec": {"containers": [{"name": "c", "image": "nginx"}]}})


def test_get_with_chunk_size_one_pages_through_everything(kubectl, api):
    add_namespace_with_pods(api, "chunked", "abc")
    result = kubectl.run("get", "pods", "-n", "chunked", "--chunk-size=1", "-o", "name", "-v=6")
    assert result.stdout.split() == ["pod/a", "pod/b", "pod/c"]
    requests = [line for line in result.stderr.splitlines() if "/namespaces/chunked/pods?" in line]
    assert len(requests) == 3 and all("limit=1" in r for r in requests)
    assert ["continue=" in r for r in requests] == [False, True, True]


def test_get_watch_shows_the_list_then_the_change(kubectl, api):
    import threading
    import time

    add_namespace_with_pods(api, "watched", "a")
    later = threading.Timer(1.5, lambda: api.create("pods", "watched", {
        "metadata": {"name": "b"}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}))
    later.start()
    started = time.monotonic()
    result = kubectl.run("get", "pods", "-n", "watched", "-w", "-o", "name", "--request-timeout=4s",
                         check=False)
    later.join()
    assert result.stdout.split()[:2] == ["pod/a", "pod/b"], result.stderr
    assert time.monotonic() - started < 25
