"""No upstream twin. `minikcm up`: a whole small cluster in one process.

One command starts what a learner needs to type the kubectl commands they
know and watch the Python port react: the embedded API server behind its
HTTPS front (minikcm.apiserver.http), kube-controller-manager with leader
election and every ported controller (minikcm.cmd.controller_manager), and the
simulated kubelet and volume binder (minikcm.sim) that make pods Ready and
claims Bound. Everything runs in threads on the real clock until Ctrl-C or
SIGTERM, then stops in order within a few seconds.

Start reading at: run_up, then Up.start and Up.shutdown.

Design notes:
- Where it lives. `minikcm/cmd/` mirrors upstream's cmd/kube-controller-manager
  packages (PORTING.md §2), and nothing upstream runs an API server, a
  controller manager and a kubelet in one process (kind and minikube do it
  with containers). So `up` sits beside `cli.py`, as the other code without
  an upstream twin does, and only calls the pieces; it holds no control logic.
- Which clientset the controllers use. By default the controller manager
  talks to the APIServer object in process (`InProcessClientset`): every
  request is a method call, so the port reacts within milliseconds, and a
  debugger stepping through a controller sees the server's work on the same
  stack. `controller_client="rest"` (`--controller-client rest`) builds the
  `RESTClientset` from the kubeconfig instead: each list, watch and write
  then crosses HTTPS with the bearer token, exactly as `minikcm
  controller-manager --kubeconfig` does against a real cluster. That is the
  honest wire path, at the cost of latency, one connection per watch, and
  controller traffic mixed into the server's log. kubectl always uses HTTPS;
  the choice only concerns the controllers. The kubelet and the volume binder
  always run in process: the kubelet binds pods through the server's
  `pods/binding`, which our clientsets do not expose.
- Leader election is on, on the Lease kube-system/kube-controller-manager,
  as kube-controller-manager's defaults have it. The identity is kept in the
  data directory, so a restarted `up` finds itself as the holder and leads at
  once instead of waiting out the previous process's lease (15 s).
- Shutdown goes from the top of DESIGN.md's picture down: the controller
  manager (its election ends, the controllers get `controller_shutdown_timeout`
  seconds to return, its informers stop), then the kubelet and volume binder
  with their informers, then the HTTPS front (open kubectl watches end), then
  the API server's step loop, and last `api.close()`, which releases the data
  directory. Every wait is bounded; a part that does not stop in time is
  reported and left behind (all threads are daemons).

Differs from kube-controller-manager: the lease identity is stable across
restarts on one data directory (upstream draws a new UUID every start);
controllers get `controller_shutdown_timeout` (3 s) to stop instead of
waiting forever.
"""

from __future__ import annotations

import csv
import logging
import os
import shlex
import socket
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from minikcm.apimachinery import runtime
from minikcm.apimachinery.errors import StatusError
from minikcm.apimachinery.field import Aggregate
from minikcm.apiserver.http.command import DataDirUnsupported, close_api, new_api_server
from minikcm.apiserver.http.server import BindRefused, ServerHandle, serve
from minikcm.client import InProcessClientset
from minikcm.client.rest import RESTClientset
from minikcm.clock import RealClock, Seconds
from minikcm.logs import duration_string
from minikcm.cmd import controller_manager
from minikcm.cmd.controller_manager import (
    PORTED_CONTROLLERS,
    controller_aliases,
    controllers_disabled_by_default,
    is_controller_enabled,
    known_controllers,
)
from minikcm.cmd.controller_manager.config import CompletedConfig
from minikcm.cmd.controller_manager.controller_descriptor import not_ported_constructor
from minikcm.cmd.controller_manager.controllermanager import new_controller_descriptors
from minikcm.features import DEFAULT_FEATURE_GATE
from minikcm.cmd.options import KubeControllerManagerOptions, new_kube_controller_manager_options
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.signals import setup_signal_handler
from minikcm.sim.kubelet import KubeletConfig, host_ip_of, new_kubelet, pod_cidr_prefix
from minikcm.sim.node_status import NodeStatusConfig, NodeStatusManager
from minikcm.sim.volume_binder import VolumeBinderConfig, new_volume_binder

if TYPE_CHECKING:
    from minikcm.apiserver.server import APIServer
    from minikcm.client.interface import Interface
    from minikcm.informers.factory import SharedInformerFactory

log = logging.getLogger(__name__)

IN_PROCESS = "in-process"
"""The controllers call the APIServer object directly (the default)."""
REST = "rest"
"""The controllers go through HTTPS with the kubeconfig, as against a real cluster."""
CONTROLLER_CLIENTS = (IN_PROCESS, REST)

CONTROLLER_SHUTDOWN_TIMEOUT: Seconds = 3.0
"""How long the controllers get to return once the controller manager stops."""
PART_STOP_TIMEOUT: Seconds = 5.0
"""How long shutdown waits for each part (controller manager, kubelet, binder) before moving on."""
STOP_POLL_SECONDS: Seconds = 0.5
IDENTITY_FILE = "controller-manager-identity"
"""In the data directory: the lease holder identity, kept across restarts."""

class UpConfigError(ValueError):
    """The options cannot make a cluster (bad --controllers, an unknown client, ...)."""


@dataclass
class ControllerReport:
    """Which of the ported controllers this process will run, and which --controllers leaves off."""

    running: list[str] = field(default_factory=list)
    """Enabled by --controllers: built once this process leads."""
    disabled: list[str] = field(default_factory=list)
    """Left off by --controllers."""
    not_ported: list[str] = field(default_factory=list)
    """Enabled by --controllers, but kube-controller-manager controllers minikcm does not port."""


def check_ported_controllers(controllers: list[str]) -> ControllerReport:
    """Sort the ported controllers by whether `controllers` enables them.

    build_controllers logs the enabled ones among some thirty controllers
    minikcm does not port; checking the four ported ones here lets the banner
    say at once which of them run.
    """
    disabled_by_default = set(controllers_disabled_by_default())
    report = ControllerReport()
    for name in PORTED_CONTROLLERS:
        if is_controller_enabled(name, disabled_by_default, controllers):
            report.running.append(name)
        else:
            report.disabled.append(name)
    for name, desc in sorted(new_controller_descriptors().items()):
        if (desc.get_controller_constructor() is not_ported_constructor and not desc.requires_special_handling()
                and not desc.is_cloud_provider_controller()
                and all(DEFAULT_FEATURE_GATE.enabled(g) for g in desc.get_required_feature_gates())
                and is_controller_enabled(name, disabled_by_default, controllers)):
            report.not_ported.append(name)  # what build_controllers skips with one info line
    return report


def parse_controllers(text: str) -> list[str]:
    """`--controllers` as kube-controller-manager reads it: comma separated (`*,-statefulset-controller`)."""
    return next(csv.reader([text])) if text else []


def stable_identity(data_dir: str | Path | None) -> str | None:
    """The lease holder identity kept in `data_dir` (made on first use); None without a data dir.

    Same shape as upstream's (host name, "_", a UUID); only the UUID is
    remembered, so a restart on the same directory leads at once.
    """
    if data_dir is None:
        return None
    path = Path(data_dir) / IDENTITY_FILE
    try:
        saved = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        saved = ""
    if not saved:
        saved = str(uuid.uuid4())
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # data-dir files are owner-only
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(saved + "\n")
    return f"{socket.gethostname()}_{saved}"


class Up:
    """The running parts of `minikcm up`; `start()` brings them up, `shutdown()` takes them down.

    `stop` is the process's stop event: Ctrl-C and SIGTERM set it (run_up),
    and so does the controller manager's thread when the controller manager
    ends on its own (lost leadership, a controller that failed to build);
    then `failure` says why.

    Thread: start and shutdown on one thread (the main one in run_up).
    """

    def __init__(self, *, port: int = 0, kubeconfig: str | None = None, data_dir: str | None = None,
                 bind_address: str = "127.0.0.1", allow_non_loopback: bool = False, controllers: str = "*",
                 controller_client: str = IN_PROCESS, kubelet: KubeletConfig | None = None,
                 volume_bind_delay: Seconds = 1.0, stop: threading.Event | None = None) -> None:
        if controller_client not in CONTROLLER_CLIENTS:
            raise UpConfigError(f"--controller-client must be one of {', '.join(CONTROLLER_CLIENTS)}, "
                                f"not {controller_client!r}")
        self.port = port
        self.kubeconfig = kubeconfig
        self.data_dir = data_dir
        self.bind_address = bind_address
        self.allow_non_loopback = allow_non_loopback
        self.controllers = parse_controllers(controllers)
        self.controller_client = controller_client
        self.kubelet_config = kubelet or KubeletConfig()
        self.volume_bind_delay = volume_bind_delay
        self.stop = stop or threading.Event()
        self.failure: str | None = None
        """Why the cluster stopped on its own (None: it was asked to stop)."""
        self.clock = RealClock()
        self.api: APIServer | None = None
        self.handle: ServerHandle | None = None
        self.report = ControllerReport()
        self.identity: str | None = None
        self.cm_client: Interface | None = None  # the controller manager's clientset
        self.cm_stop = threading.Event()  # ends the controller manager (Go: its context)
        self.sim_stop = threading.Event()  # ends the kubelet, the binder and their informers
        self.api_steps_stop = threading.Event()  # ends the API server's step loop
        self.sim_factory: SharedInformerFactory | None = None  # the kubelet's and binder's informers
        self.nodes: NodeStatusManager | None = None  # the simulated nodes' registration and heartbeats
        self.threads: dict[str, threading.Thread] = {}  # part -> its thread, in start order

    def __repr__(self) -> str:
        url = self.handle.url if self.handle is not None else "not serving"
        return f"<Up {url} controllers={self.report.running} stopping={self.stop.is_set()}>"

    # -- start ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Bring every part up; on any failure take down what already started and re-raise.

        Raises:
            UpConfigError: bad --controllers (checked before anything starts).
            DataDirUnsupported: a data dir without persistence in this build.
            BindRefused: a non-loopback bind address without allow_non_loopback.
            OSError: the port is taken.
        """
        options = self.controller_manager_options()
        # The project's choice, not Go's (kube-controller-manager keeps ReallyCrash on and exits):
        # a raising event handler is logged with its traceback and skipped, and the cluster goes on.
        self.really_crash, runtime.REALLY_CRASH = runtime.REALLY_CRASH, False
        log.info("runtime.REALLY_CRASH is off: a raising event handler is logged and skipped "
                 "(kube-controller-manager would exit)")
        try:
            self.start_api_server()
            self.start_simulation()
            self.start_controller_manager(options)
        except BaseException:
            self.shutdown()
            raise

    def controller_manager_options(self) -> KubeControllerManagerOptions:
        """kube-controller-manager's default options with our --controllers, validated (no client yet).

        Raises:
            UpConfigError: the validation errors, one per line.
        """
        options = new_kube_controller_manager_options()
        options.generic.config.controllers = list(self.controllers)
        errs = options.validate(known_controllers(), controllers_disabled_by_default(), controller_aliases())
        if errs:
            raise UpConfigError("\n".join(str(e) for e in errs))
        return options

    def start_api_server(self) -> None:
        """The APIServer (persistent with a data dir), its step loop, and the HTTPS front.

        `serve` writes the kubeconfig only once the server has answered a
        real request, so a script may wait for the file and then use kubectl.
        """
        api = new_api_server(self.data_dir)
        self.api = api
        self.start_thread("apiserver/steps", api.run, self.api_steps_stop)
        self.handle = serve(api, port=self.port, bind_address=self.bind_address,
                            allow_non_loopback=self.allow_non_loopback, kubeconfig_path=self.kubeconfig,
                            data_dir=self.data_dir, clock=self.clock)

    def start_simulation(self) -> None:
        """The simulated kubelet and volume binder, on one informer factory over the in-process client."""
        assert self.api is not None
        client = InProcessClientset(self.api)
        factory = new_shared_informer_factory_with_options(client, 0, clock=self.clock)  # real clock: threads
        self.sim_factory = factory
        kubelet = new_kubelet(client, factory.core().v1().pods(), config=self.kubelet_config, clock=self.clock)
        nodes = NodeStatusManager(client, self.clock, kubelet.node_names, host_ip_of=host_ip_of,
                                  pod_cidr_of=lambda i: f"{pod_cidr_prefix(i)}.0/24",
                                  config=NodeStatusConfig(max_pods=self.kubelet_config.max_pods))
        nodes.attach(kubelet, factory.core().v1().nodes())
        self.nodes = nodes
        binder = new_volume_binder(client, factory.core().v1().persistent_volume_claims(),
                                   config=VolumeBinderConfig(bind_delay=self.volume_bind_delay),
                                   clock=self.clock)
        factory.start(self.sim_stop)
        self.start_thread("kubelet/node-status", nodes.run, self.sim_stop)
        self.start_thread("kubelet", kubelet.run, self.sim_stop)
        self.start_thread("volume-binder", binder.run, self.sim_stop)

    def start_controller_manager(self, options: KubeControllerManagerOptions) -> None:
        """kube-controller-manager with leader election, in its own thread (controllermanager.run)."""
        assert self.api is not None and self.handle is not None
        if self.controller_client == REST:
            self.cm_client = RESTClientset(str(self.handle.kubeconfig_path))
        else:
            self.cm_client = InProcessClientset(self.api)
        try:
            c = options.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(),
                               client=self.cm_client, clock=self.clock)
        except Aggregate as err:  # validated already; only the client part is new here
            raise UpConfigError("\n".join(str(e) for e in err.errors())) from err
        c.controller_shutdown_timeout = CONTROLLER_SHUTDOWN_TIMEOUT
        self.report = check_ported_controllers(c.component_config.generic.controllers)
        self.identity = stable_identity(self.data_dir)
        self.start_thread("controller-manager", self.run_controller_manager, c.complete())

    def run_controller_manager(self, c: CompletedConfig) -> None:
        """Thread body: the controller manager until cm_stop; if it ends by itself, stop the whole process."""
        try:
            controller_manager.run(c, self.cm_stop, identity=self.identity, clock=self.clock)
        except Exception as err:  # a failed term ends the process, as it ends kube-controller-manager
            self.failure = f"the controller manager stopped: {err}"
        else:
            if not self.cm_stop.is_set():
                self.failure = "the controller manager stopped: leaderelection lost/stopped"
        finally:
            if self.failure is not None:
                log.error("%s; shutting down", self.failure)
            self.stop.set()

    def start_thread(self, part: str, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(name=part, target=target, args=args, daemon=True)
        self.threads[part] = thread
        thread.start()

    # -- run and stop -----------------------------------------------------------------------------

    def wait(self) -> None:
        """Block until `stop` is set (by a signal, or by the controller manager ending).

        Polls so that the main thread stays responsive to signals.
        """
        while not self.stop.wait(STOP_POLL_SECONDS):
            pass

    def shutdown(self) -> list[str]:
        """Stop every part that started, in order (see the module docstring); idempotent.

        Returns the parts that did not stop in time (empty when all did).
        """
        self.stop.set()
        stuck: list[str] = []
        self.cm_stop.set()
        runtime.REALLY_CRASH = getattr(self, "really_crash", runtime.REALLY_CRASH)  # as before start()
        stuck += self.join("controller-manager")
        close = getattr(self.cm_client, "close", None)
        if close is not None:
            close()  # the REST client's connection pool
        self.sim_stop.set()
        stuck += self.join("kubelet") + self.join("kubelet/node-status") + self.join("volume-binder")
        if self.sim_factory is not None:
            stuck += self.join_call("sim-informers", self.sim_factory.shutdown)
        if self.handle is not None:
            self.handle.shutdown()
        self.api_steps_stop.set()
        stuck += self.join("apiserver/steps")
        if self.api is not None:
            close_api(self.api)
        for part in stuck:
            log.warning("%s did not stop within %s; leaving it behind", part, duration_string(PART_STOP_TIMEOUT))
        return stuck

    def join(self, part: str) -> list[str]:
        """Wait (bounded) for a part's thread; returns [part] when it is still running."""
        thread = self.threads.get(part)
        if thread is None:
            return []
        thread.join(PART_STOP_TIMEOUT)
        return [part] if thread.is_alive() else []

    def join_call(self, part: str, fn: Callable[[], None]) -> list[str]:
        """Run a blocking shutdown call with a bound (in a helper thread); [part] when it overran."""
        self.start_thread(part, fn)
        return self.join(part)


# --- the command -------------------------------------------------------------------------------


LEADER_WAIT_SECONDS: Seconds = 5.0
"""How long the banner waits to name the leader (this process leads at once on a fresh cluster)."""


def leader(up: Up, wait: Seconds = LEADER_WAIT_SECONDS) -> str:
    """The holder of the controller manager's Lease, waiting (bounded) for the first election."""
    assert up.api is not None
    deadline = up.clock.now() + timedelta(seconds=wait)
    while True:
        try:
            holder = ((up.api.get("leases", "kube-system", "kube-controller-manager").get("spec") or {})
                      .get("holderIdentity") or "")
        except StatusError:
            holder = ""
        if holder or up.clock.now() >= deadline or up.stop.wait(0.05):
            break
    if not holder:
        return "not elected yet"
    # Without a data dir the identity is drawn by the controller manager; at start nothing else runs one.
    ours = holder == up.identity or (up.identity is None and up.data_dir is None)
    return f"{holder} (this process)" if ours else holder


def print_banner(up: Up, out: TextIO) -> None:
    """The start in a few lines: where the server is, how to use it, who leads, what runs.

    After it, at the default verbosity, only warnings, errors and kubectl's
    writes are logged (minikcm.logs); `-v 2` shows every info line.
    """
    assert up.handle is not None
    path = str(up.handle.kubeconfig_path)
    report = up.report
    k = up.kubelet_config
    print(f"minikcm up: API server listening on {up.handle.url}", file=out)
    print(f"export KUBECONFIG={shlex.quote(path)}", file=out)
    print(f"leader: {leader(up)}, on the Lease kube-system/kube-controller-manager", file=out)
    print(f"controller manager: {len(report.running)} controllers: {', '.join(report.running) or 'none'} "
          f"({up.controller_client} client); {len(report.not_ported)} enabled controllers are not ported",
          file=out)
    print(f"nodes: {k.nodes} simulated ({k.node_name_prefix}0 .. {k.node_name_prefix}{k.nodes - 1}), "
          f"pods Running {duration_string(k.start_delay)} after binding and Ready "
          f"{duration_string(k.ready_delay)} later; claims Bound after {duration_string(up.volume_bind_delay)}",
          file=out)
    print("event handlers: a raising handler is logged and skipped (runtime.REALLY_CRASH off; "
          "kube-controller-manager would exit)", file=out)
    print("Ctrl-C stops everything; -v 2 logs every info line.", file=out)
    out.flush()


def run_up(port: int = 0, kubeconfig: str | None = None, data_dir: str | None = None,
           bind_address: str = "127.0.0.1", allow_non_loopback: bool = False, controllers: str = "*",
           controller_client: str = IN_PROCESS, kubelet: KubeletConfig | None = None,
           volume_bind_delay: Seconds = 1.0, out: TextIO | None = None, err: TextIO | None = None,
           stop: threading.Event | None = None) -> int:
    """The body of `minikcm up`: start everything, print where it is, run until stopped, stop it all.

    Returns the exit code: 0 after a clean stop (Ctrl-C, SIGTERM, or `stop`
    set by the caller), 1 when the port cannot be bound or the controller
    manager ended on its own, 2 for refused options.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    stop = stop or threading.Event()
    restore = setup_signal_handler(stop)
    try:
        try:
            up = Up(port=port, kubeconfig=kubeconfig, data_dir=data_dir, bind_address=bind_address,
                    allow_non_loopback=allow_non_loopback, controllers=controllers,
                    controller_client=controller_client, kubelet=kubelet,
                    volume_bind_delay=volume_bind_delay, stop=stop)
            up.start()
        except (UpConfigError, DataDirUnsupported, BindRefused) as e:
            print(f"minikcm up: {e}", file=err)
            return 2
        except OSError as e:
            print(f"minikcm up: cannot listen on {bind_address}:{port}: {e}", file=err)
            return 1
        try:
            print_banner(up, out)
            up.wait()
        except KeyboardInterrupt:
            pass  # Ctrl-C outside our handler (not the main thread): stop anyway
        finally:
            up.shutdown()
    finally:
        restore()
    if up.failure is not None:
        print(f"minikcm up: {up.failure}", file=err)
        return 1
    print("minikcm up: stopped", file=out)
    return 0
