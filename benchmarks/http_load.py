"""No upstream twin. Benchmark: `minikcm up` under load from loopback, beside a single-client baseline.

Starts `minikcm up --port 0` as a subprocess (in memory, default settings),
reads the kubeconfig it writes, and drives its HTTPS front from this process,
on 127.0.0.1 only:

1. baseline: one client for BASELINE seconds, alternating a list (Leases in
   namespace `bench`, `limit=50`: one page, so the answer does not grow with
   the run) and a create (a Lease with generateName in the same namespace:
   no controller reacts to Leases, so the load is the front and the store);
2. load: WATCHES open watches (Pods in namespace `bench-watch`, with
   bookmarks: idle, each holding a connection and a server thread, exempt
   from the in-flight limits as upstream), then CLIENTS clients doing the
   same list/create loop for DURATION seconds, each on its own keep-alive
   connection.

For each phase it prints requests, requests per second, p50 and p99 latency,
errors (a non-2xx answer other than 429, or a failed connection) and 429s
(the max-in-flight limit answering; client-go would retry after Retry-After),
how many watches were still open at the end, and the `up` process's peak RSS
(VmHWM) after each phase. The client runs in one Python process, so its own
GIL is part of every latency figure: the numbers compare the phases of one
run, not minikcm with Go.

Bounded: every request has a 30 s timeout, the run stops after the durations,
and the `up` process is terminated (then killed) at the end.

Run: `.venv/bin/python benchmarks/http_load.py [--duration 60] [--clients 50] [--watches 200] [--baseline 10]`.
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import yaml

REPO = Path(__file__).resolve().parents[1]
NAMESPACE = "bench"
WATCH_NAMESPACE = "bench-watch"
LEASES = f"/apis/coordination.k8s.io/v1/namespaces/{NAMESPACE}/leases"
REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 60.0


@dataclass
class Front:
    host: str
    port: int
    token: str
    context: ssl.SSLContext

    def connection(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection(self.host, self.port, context=self.context, timeout=REQUEST_TIMEOUT)


@dataclass
class Tally:
    """Latencies (seconds) of the answered requests, and the failures, of one phase."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    throttled: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, took: float, status: int | None) -> None:
        with self.lock:
            if status is not None and 200 <= status < 300:
                self.latencies.append(took)
            elif status == 429:
                self.throttled += 1
            else:
                self.errors += 1


def read_front(kubeconfig: Path) -> Front:
    config = yaml.safe_load(kubeconfig.read_text())
    cluster = config["clusters"][0]["cluster"]
    url = urlsplit(cluster["server"])
    if url.hostname not in ("127.0.0.1", "::1"):
        raise SystemExit(f"refusing to load a non-loopback server: {url.hostname}")
    context = ssl.create_default_context(cadata=base64.b64decode(cluster["certificate-authority-data"]).decode())
    return Front(url.hostname, url.port or 443, config["users"][0]["user"]["token"], context)


def start_up(workdir: Path) -> tuple[subprocess.Popen[bytes], Path]:
    kubeconfig = workdir / "kubeconfig"
    log = open(workdir / "up.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "minikcm", "up", "--port", "0", "--kubeconfig", str(kubeconfig)],
                            cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    deadline = time.monotonic() + START_TIMEOUT
    while not kubeconfig.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit(f"minikcm up did not start; see {workdir / 'up.log'}")
        time.sleep(0.1)
    return proc, kubeconfig


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident set size (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def request(front: Front, conn: http.client.HTTPSConnection, method: str, path: str,
            body: dict | None = None) -> int:
    headers = {"Authorization": f"Bearer {front.token}", "Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status


def client_loop(front: Front, tally: Tally, until: float, index: int) -> None:
    """Alternate a one-page list and a create until `until`; reconnect after a failure."""
    conn = front.connection()
    n = 0
    while time.monotonic() < until:
        n += 1
        if n % 2:
            method, path, body = "GET", LEASES + "?limit=50", None
        else:
            method, path = "POST", LEASES
            body = {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
                    "metadata": {"generateName": f"c{index}-"}, "spec": {"holderIdentity": f"client-{index}"}}
        started = time.perf_counter()
        try:
            status: int | None = request(front, conn, method, path, body)
        except (OSError, http.client.HTTPException):
            status = None
            conn.close()
            conn = front.connection()
        tally.add(time.perf_counter() - started, status)
        if status == 429:
            time.sleep(1.0)  # Retry-After: 1, as client-go honours it
    conn.close()


def run_clients(front: Front, clients: int, seconds: float) -> tuple[Tally, float]:
    tally = Tally()
    started = time.monotonic()
    until = started + seconds
    threads = [threading.Thread(target=client_loop, args=(front, tally, until, i), daemon=True)
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + REQUEST_TIMEOUT + 5)
    return tally, time.monotonic() - started


def open_watches(front: Front, n: int) -> list[ssl.SSLSocket]:
    """n watches, each on its own connection, answered 200 and then left idle."""
    socks = []
    head = (f"GET /api/v1/namespaces/{WATCH_NAMESPACE}/pods?watch=1&allowWatchBookmarks=true HTTP/1.1\r\n"
            f"Host: {front.host}\r\nAuthorization: Bearer {front.token}\r\nAccept: application/json\r\n\r\n").encode()
    for _ in range(n):
        raw = socket.create_connection((front.host, front.port), timeout=REQUEST_TIMEOUT)
        sock = front.context.wrap_socket(raw, server_hostname=front.host)
        sock.sendall(head)
        first = sock.recv(64)
        if not first.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"a watch was refused: {first!r}")
        socks.append(sock)
    return socks


def still_open(socks: list[ssl.SSLSocket]) -> int:
    alive = 0
    for sock in socks:
        try:
            sock.setblocking(False)
            data = sock.recv(65536)
            alive += bool(data)
        except (ssl.SSLWantReadError, BlockingIOError):
            alive += 1  # nothing to read, and not closed
        except OSError:
            pass
    return alive


def report(name: str, tally: Tally, seconds: float, rss: float) -> str:
    lat = sorted(tally.latencies)
    n = len(lat)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(n - 1, int(n * 0.99))] * 1000 if lat else float("nan")
    return (f"{name:<28} {n:>7} {n / seconds:>8.1f} {p50:>8.1f} {p99:>8.1f} {tally.errors:>6} "
            f"{tally.throttled:>5} {rss:>9.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load (default 60)")
    parser.add_argument("--clients", type=int, default=50, help="concurrent list/create clients (default 50)")
    parser.add_argument("--watches", type=int, default=200, help="open watches during the load (default 200)")
    parser.add_argument("--baseline", type=float, default=10.0, help="seconds of the one-client baseline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="minikcm-http-load-") as tmp:
        proc, kubeconfig = start_up(Path(tmp))
        try:
            front = read_front(kubeconfig)
            conn = front.connection()
            for ns in (NAMESPACE, WATCH_NAMESPACE):
                request(front, conn, "POST", "/api/v1/namespaces", {"metadata": {"name": ns}})
            conn.close()
            print(f"minikcm up (pid {proc.pid}) at https://{front.host}:{front.port}; "
                  f"peak RSS at start {peak_rss_mib(proc.pid):.0f} MiB")
            print(f"{'phase':<28} {'ok':>7} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6} "
                  f"{'429s':>5} {'peak RSS':>9}")
            base, base_s = run_clients(front, 1, args.baseline)
            print(report("baseline: 1 client", base, base_s, peak_rss_mib(proc.pid)), flush=True)
            watches = open_watches(front, args.watches)
            load, load_s = run_clients(front, args.clients, args.duration)
            print(report(f"load: {args.clients} clients + {args.watches} watches", load, load_s,
                         peak_rss_mib(proc.pid)))
            print(f"watches still open after the load: {still_open(watches)}/{len(watches)}")
            for sock in watches:
                sock.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    main()
