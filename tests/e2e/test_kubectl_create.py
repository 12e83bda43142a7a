"""End to end: kubectl's `create <kind>` generators, which send protobuf bodies, against the HTTPS front.

`kubectl create namespace|deployment|service` build typed objects and POST
them as `application/vnd.kubernetes.protobuf` (minikcm.apiserver.http.protobuf
decodes them); the answers are JSON. The server runs in this process on a
free port; kubectl runs with a private HOME and KUBECACHEDIR. These tests FAIL
when kubectl is installed and something is wrong; they skip only when there is
no kubectl.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from minikcm.apiserver.http.server import serve
from minikcm.apiserver.server import APIServer

KUBECTL = shutil.which("kubectl")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.threaded,
    pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed on this machine"),
]

PROTOBUF = "application/vnd.kubernetes.protobuf"


class Kubectl:
    """Runs the installed kubectl against one server with a private HOME and cache."""

    def __init__(self, kubeconfig: Path, home: Path) -> None:
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
                    "KUBECONFIG": str(kubeconfig), "KUBECACHEDIR": str(home / "cache")}
        self.dir = home

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert KUBECTL is not None
        result = subprocess.run([KUBECTL, *args], env=self.env, capture_output=True, text=True,
                                timeout=30, cwd=self.dir)
        if check and result.returncode != 0:
            raise AssertionError(f"kubectl {' '.join(args)} failed ({result.returncode}):\n"
                                 f"{result.stdout}\n{result.stderr}")
        return result

    def get_json(self, *args: str) -> dict:
        return json.loads(self.run("get", *args, "-o", "json").stdout)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    api = APIServer()
    home = tmp_path_factory.mktemp("kubectl-create-home")
    handle = serve(api, kubeconfig_path=home / "kubeconfig")
    yield api, Kubectl(handle.kubeconfig_path, home)
    handle.shutdown()


@pytest.fixture
def api(cluster) -> APIServer:
    return cluster[0]


@pytest.fixture
def kubectl(cluster) -> Kubectl:
    return cluster[1]


def new_namespace(api: APIServer, name: str) -> str:
    api.create("namespaces", None, {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    return name


def rows(output: str) -> list[list[str]]:
    return [line.split() for line in output.strip().splitlines()[1:]]


def test_create_namespace_sends_protobuf(kubectl, api):
    result = kubectl.run("create", "namespace", "demo", "-v=9")
    assert result.stdout.strip() == "namespace/demo created"
    posts = [line for line in result.stderr.splitlines() if "curl" in line and "-XPOST" in line]
    assert posts and f"Content-Type: {PROTOBUF}" in posts[0]  # the protobuf path really ran
    assert api.get("namespaces", None, "demo")["status"]["phase"] == "Active"
    assert rows(kubectl.run("get", "namespace", "demo").stdout)[0][:2] == ["demo", "Active"]


def test_create_namespace_twice_is_already_exists(kubectl, api):
    kubectl.run("create", "namespace", "twice")
    again = kubectl.run("create", "namespace", "twice", check=False)
    assert again.returncode == 1 and 'namespaces "twice" already exists' in again.stderr


def test_create_deployment(kubectl, api):
    ns = new_namespace(api, "deploy")
    out = kubectl.run("create", "deployment", "web", "--image=nginx:1.25", "--replicas=3", "-n", ns).stdout
    assert out.strip() == "deployment.apps/web created"
    spec = api.get("deployments", ns, "web")["spec"]
    assert spec["replicas"] == 3 and spec["selector"] == {"matchLabels": {"app": "web"}}
    assert spec["template"]["spec"]["containers"][0]["image"] == "nginx:1.25"
    assert spec["strategy"]["type"] == "RollingUpdate"  # defaulted as for a JSON body
    assert rows(kubectl.run("get", "deployment", "web", "-n", ns).stdout)[0][:2] == ["web", "0/3"]
    assert kubectl.get_json("deployment", "web", "-n", ns)["metadata"]["labels"] == {"app": "web"}


def test_create_deployment_with_zero_replicas_and_a_port(kubectl, api):
    ns = new_namespace(api, "zero")
    kubectl.run("create", "deployment", "idle", "--image=nginx", "--replicas=0", "--port=8080", "-n", ns)
    spec = api.get("deployments", ns, "idle")["spec"]
    assert spec["replicas"] == 0  # explicitly zero, not defaulted to 1
    assert spec["template"]["spec"]["containers"][0]["ports"] == [{"containerPort": 8080, "protocol": "TCP"}]


def test_create_service_clusterip(kubectl, api):
    ns = new_namespace(api, "svc")
    out = kubectl.run("create", "service", "clusterip", "s", "--tcp=80:8080", "-n", ns).stdout
    assert out.strip() == "service/s created"
    spec = api.get("services", ns, "s")["spec"]
    assert spec["type"] == "ClusterIP" and spec["selector"] == {"app": "s"}
    assert spec["ports"] == [{"name": "80-8080", "protocol": "TCP", "port": 80, "targetPort": 8080}]
    row = rows(kubectl.run("get", "service", "s", "-n", ns).stdout)[0]
    assert row[:2] == ["s", "ClusterIP"] and row[4] == "80/TCP"


def test_create_service_with_a_named_target_port(kubectl, api):
    ns = new_namespace(api, "named")
    kubectl.run("create", "service", "clusterip", "n", "--tcp=80:http", "-n", ns)
    assert api.get("services", ns, "n")["spec"]["ports"][0]["targetPort"] == "http"
    assert kubectl.get_json("service", "n", "-n", ns)["spec"]["ports"][0]["targetPort"] == "http"
