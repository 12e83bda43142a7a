"""No upstream twin. Replays for the reading site: one seeded scenario run as a compact JSON trace.

The docs build (docs/hooks.py) calls `export_replay(name, seed)` for every
scenario in `REPLAYS` and writes the result as `assets/replay/<name>-seed<N>.json`;
docs/assets/javascripts/replay.js plays it back in the browser, step by step,
with no Python there. The trace holds, for every step the driver ran:

- `t`: fake seconds since the start; `name`: the step's name;
- `fn`: the port's functions that did the work, most telling first (indexes into
  the `functions` table, which gives each one's API reference anchor and, when
  its docstring starts "Port of <GoSymbol> (<path>).", the Go twin's link);
- `brk`: [function, hit]: `minikcm demo run NAME --seed N --break FUNCTION --hit HIT`
  stops in pdb inside this very step (the HIT-th call of FUNCTION in the run);
- `writes`: the API writes, as [verb, resource, name, ok];
- `notes`: the lines the components recorded in the driver's trace during the step;
- `diff`: what changed in the scenario's state, as {key: new value or null}.

State keys are `<resource>/<name>` for API objects (a small summary of each,
not the object), `queue/<name>` for work queues (keys in order, each key's
requeue count, parked keys) and `series/<name>` for the scenario's series.
Things the script does between steps (create a Deployment, crash the leader)
become steps named `script`.

Start reading at: export_replay, then Recorder.trace, then replay_format.validate.

Design notes: nothing the scenario runs is wrapped or changed. A global trace
function (`sys.settrace`, the mechanism `--break` uses) sees every Python call:
a call made by `Driver.run_step` from its `step.run()` line opens a step, any
other call made by `run_step` or by the schedule policy's round (an observer,
the next `ready()`) closes it, and
minikcm functions called in between are the step's. Calls of `APIServer`'s write
methods are the writes; their return event says whether they succeeded. An
observer appended after the scenario's own reads the state after every step.
The trace holds no wall-clock value and every collection is sorted, so the
same name and seed give the same bytes (`dumps`).
"""

from __future__ import annotations

import functools
import gc
import inspect
import re
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from minikcm.driver import DeliverFirst, Driver, Interleaved
# The file's shape and its check live in replay_format; the docs build reads them here too.
from minikcm.harness.replay_format import (  # noqa: F401 (MAX_BYTES, ReplayShapeError, validate, replay_file_name: callers')
    FORMAT,
    MAX_BYTES,
    ReplayShapeError,
    dumps,
    replay_file_name,
    validate,
)
from minikcm.upstream import permalink

REPLAYS: dict[str, tuple[str, ...]] = {
    "p1": ("leader-failover",),
    "p2": ("informer-relist", "workqueue-retry"),
    "p3": ("rolling-update", "recreate", "proportional-scaling", "paused-rollout", "rollback"),
    "p4": ("replicaset-scale", "cascade-delete", "replicaset-stale-cache"),
    "p5": ("statefulset-ordered", "statefulset-partition"),
    "wait": ("wait-backoff",),
}
"""Chapter -> the scenarios its page replays (names from `minikcm demo list`)."""

SEEDS = (1, 2, 3)
"""Seeds built for every replay; the widget's seed picker offers these."""

API_RESOURCES = ("leases", "deployments", "replicasets", "statefulsets", "controllerrevisions", "pods",
                 "persistentvolumeclaims")
"""The resources whose objects a replay shows, in the order the widget draws them."""

WRITE_METHODS = ("create", "update", "patch", "delete", "delete_collection")
"""APIServer methods that count as writes."""

MAX_FUNCTIONS, MAX_NOTES, NOTE_CHARS = 5, 8, 200
"""Per step: functions kept, trace lines kept, characters per line."""

SKIP_MODULES = ("minikcm.driver", "minikcm.harness.replay", "minikcm.clock", "minikcm.sim.scenarios.base")
"""Modules whose functions never name a step's work (scheduling, this recorder, clocks, sampling)."""

TELLING = re.compile(
    r"^(sync\w*|process_(?!next)\w+|try_acquire_or_renew|manage_replicas|rollout\w*|reconcile\w*|"
    r"scale\w*|list_and_watch|watch_handler|relist|handle_event|apply_event|update_\w*status\w*|"
    r"add_rate_limited|add_after|backoff\w*|jitter_until|until|exponential_backoff\w*|slow_start_batch|"
    r"get_pods_to_delete|claim_\w+|create_pods?\w*|delete_pods?|update_stateful_set\w*|"
    r"process_deltas|distribute|replace|resync|step|when|run_for_pod|bind\w*)$")
"""Last parts of function names that say what a step did; these are ranked first."""

GO_PORT = re.compile(r"^Port of (?P<symbol>[^\s(]+(?: / [^\s(]+)?)\s*\((?P<path>[^)\s]+\.go)\)")
MODULE_PATH = re.compile(r"(?P<path>(?:k8s\.io/[\w-]+|pkg|cmd)/[\w./-]*\w)")
KK_PREFIXES = ("k8s.io/", "staging/", "pkg/controller/", "cmd/", "pkg/kubelet/", "pkg/registry/")
"""Paths a docstring may give that already name a file of kubernetes/kubernetes (or a staging repo)."""


# ---------------------------------------------------------------------------
# Summaries of the objects a replay shows (never whole objects)


def seconds_since(value: str | None, start: datetime) -> float | None:
    """An RFC 3339 time of an object as fake seconds since the start, or None."""
    if not value:
        return None
    at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return round((at - start).total_seconds(), 3)


def owner_of(obj: Mapping[str, Any]) -> str:
    refs = obj.get("metadata", {}).get("ownerReferences") or []
    return next((r.get("name", "") for r in refs if r.get("controller")), refs[0].get("name", "") if refs else "")


def first_image(template: Mapping[str, Any]) -> str:
    containers = (template.get("spec") or {}).get("containers") or [{}]
    return containers[0].get("image", "")


def summarise(resource: str, obj: Mapping[str, Any], start: datetime) -> dict[str, Any]:
    """What the widget draws of one API object."""
    meta, spec, status = obj.get("metadata", {}), obj.get("spec") or {}, obj.get("status") or {}
    labels, annotations = meta.get("labels") or {}, meta.get("annotations") or {}
    out: dict[str, Any] = {}
    if meta.get("deletionTimestamp"):
        out["deleting"] = True
    if resource == "leases":
        out.update(holder=spec.get("holderIdentity") or "", renew=seconds_since(spec.get("renewTime"), start),
                   acquire=seconds_since(spec.get("acquireTime"), start),
                   transitions=spec.get("leaseTransitions") or 0)
    elif resource in ("deployments", "replicasets", "statefulsets"):
        out.update(replicas=spec.get("replicas", 1), current=status.get("replicas", 0),
                   ready=status.get("readyReplicas", 0), available=status.get("availableReplicas", 0),
                   image=first_image(spec.get("template") or {}))
        if resource == "deployments":
            out.update(updated=status.get("updatedReplicas", 0), paused=bool(spec.get("paused")))
        if resource == "replicasets":
            out.update(owner=owner_of(obj), revision=annotations.get("deployment.kubernetes.io/revision", ""),
                       hash=labels.get("pod-template-hash", ""))
        if resource == "statefulsets":
            rolling = ((spec.get("updateStrategy") or {}).get("rollingUpdate") or {})
            out.update(partition=rolling.get("partition", 0), updated=status.get("updatedReplicas", 0),
                       currentRevision=status.get("currentRevision", ""),
                       updateRevision=status.get("updateRevision", ""))
    elif resource == "pods":
        conditions = {c.get("type"): c.get("status") for c in status.get("conditions") or []}
        revision = labels.get("controller-revision-hash") or labels.get("pod-template-hash") or ""
        out.update(phase=status.get("phase", "Pending"), ready=conditions.get("Ready") == "True",
                   owner=owner_of(obj), revision=revision, image=first_image({"spec": spec}))
        index = labels.get("apps.kubernetes.io/pod-index")
        if index is not None:
            out["ordinal"] = int(index)
    elif resource == "controllerrevisions":
        out.update(owner=owner_of(obj), revision=obj.get("revision", 0))
    elif resource == "persistentvolumeclaims":
        out.update(phase=status.get("phase", "Pending"))
    return out


def queue_of(component: Any) -> Any | None:
    """The work queue of a controller (its `queue`), or the object itself when it is a queue."""
    if hasattr(component, "add_rate_limited") or hasattr(component, "processing"):
        return component
    queue = getattr(component, "queue", None)
    return queue if queue is not None and hasattr(queue, "add") else None


def failures_of(limiter: Any) -> dict[Any, int]:
    """Every item a (possibly composed) rate limiter counts failures for."""
    found: dict[Any, int] = {}
    if isinstance(getattr(limiter, "failures", None), dict):
        found.update(limiter.failures)
    for inner in getattr(limiter, "limiters", None) or []:
        found.update(failures_of(inner))
    if getattr(limiter, "limiter", None) is not None and not hasattr(limiter, "burst"):
        found.update(failures_of(limiter.limiter))
    return found


def queue_state(queue: Any, start: datetime) -> dict[str, Any]:
    """Keys in order, keys being processed, parked keys with when they return, requeue counts."""
    delaying = getattr(queue, "delaying_queue", queue)
    base = getattr(delaying, "queue", delaying)
    fifo = getattr(base, "queue", None)
    keys = [str(k) for k in getattr(fifo, "items", [])]
    processing = sorted(str(k) for k in getattr(base, "processing", ()))
    waiting_heap = getattr(getattr(delaying, "waiting_for_queue", None), "entries", [])
    waiting = sorted([round((w.ready_at - start).total_seconds(), 3), str(w.data)] for w in waiting_heap)
    limiter = getattr(queue, "rate_limiter", None)
    counted = {str(k): n for k, n in failures_of(limiter).items() if n} if limiter is not None else {}
    return {"keys": keys, "processing": processing, "waiting": [[k, t] for t, k in waiting],
            "requeues": dict(sorted(counted.items()))}


# ---------------------------------------------------------------------------
# Functions: the link to the API reference and to the Go twin


@dataclass
class FunctionInfo:
    """One function of the port that ran in a step."""

    name: str
    """Dotted path: module, then the qualified name (`minikcm.x.Class.method`)."""
    go: str = ""
    """The Go symbol from the docstring's "Port of ..." line, or ""."""
    upstream: str = ""
    """The Go twin's permalink at the pinned release, or ""."""
    ref: str = ""
    """`reference/<page>/#<dotted path>`, relative to a language's root, or "" when undocumented."""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "go": self.go, "upstream": self.upstream, "ref": self.ref}


def go_twin(func: Any, module: types.ModuleType | None) -> tuple[str, str]:
    """(Go symbol, upstream URL) from a docstring starting "Port of X (path.go).", else ("", "").

    Docstrings often give a path inside the module's upstream repository
    (`queue.go`, `pkg/apis/meta/v1/controller_ref.go`); it is completed from the
    paths the module docstring names. A path that cannot be placed gets no URL.
    """
    doc = inspect.getdoc(func) or ""
    match = GO_PORT.match(doc.strip())
    if match is None:
        return "", ""
    full = upstream_path(match["path"], (module.__doc__ or "") if module is not None else "")
    try:
        return match["symbol"], permalink(full) if full else ""
    except ValueError:
        return match["symbol"], ""


def upstream_path(path: str, module_doc: str) -> str:
    """`path` as a path kubernetes/kubernetes' permalink accepts, or "" when it cannot be placed."""
    if path.startswith(KK_PREFIXES):
        return path
    for known in (m["path"] for m in MODULE_PATH.finditer(module_doc)):
        directory = known.rsplit("/", 1)[0] if known.endswith(".go") else known
        if known == path or known.endswith("/" + path):
            return known
        if "/" not in path:
            return f"{directory}/{path}"
        if known.startswith("k8s.io/"):
            repo = "/".join(known.split("/", 2)[:2]) + "/"
            if known[len(repo):].split("/", 1)[0] == path.split("/", 1)[0]:
                return repo + path
    return ""


def resolve(dotted: str) -> tuple[Any, types.ModuleType | None]:
    """The object a dotted `module.Qual.name` names and its module, or (None, None)."""
    module_name, _, qualname = dotted.partition(":")
    module = sys.modules.get(module_name)
    obj: Any = module
    for part in qualname.split("."):
        obj = inspect.getattr_static(obj, part, None) if obj is not None else None
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = obj.fget
    return obj, module


def documented(dotted: str, reference: Mapping[str, str]) -> str:
    """`reference/<page>/#<anchor>` when mkdocstrings renders this function, else "".

    mkdocstrings renders a public member that has a docstring, on the page that
    documents its module (`::: module` in docs/reference/*.md).
    """
    module_name, _, qualname = dotted.partition(":")
    page = reference.get(module_name)
    if page is None or "<" in qualname:
        return ""
    obj: Any = sys.modules.get(module_name)
    for part in qualname.split("."):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return ""
        obj = inspect.getattr_static(obj, part, None) if obj is not None else None
        if obj is None:
            return ""
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    elif isinstance(obj, property):
        obj = obj.fget
    if not (getattr(obj, "__doc__", None) or "").strip():
        return ""
    if qualname.endswith(".__init__"):  # merge_init_into_class: the class carries the anchor
        qualname = qualname[: -len(".__init__")]
    return f"{page}#{module_name}.{qualname}"


# ---------------------------------------------------------------------------
# Recording


@dataclass
class StepRecord:
    """What one step (or one stretch of the script between steps) did."""

    t: float
    name: str
    calls: list[tuple[str, int, int]] = field(default_factory=list)
    """(function, depth below the step, the function's call count so far in the run), first calls only."""
    writes: list[list[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diff: dict[str, Any] = field(default_factory=dict)


class Recorder:
    """Plays one scenario under a trace function and collects its steps (see the module docstring).

    Thread: the caller's only (sys.settrace is per thread).
    """

    def __init__(self, name: str, seed: int) -> None:
        from minikcm.apiserver.server import APIServer
        from minikcm.sim.scenarios import get_scenario

        self.scenario = get_scenario(name)
        self.seed = seed
        self.run_step_code = Driver.run_step.__code__
        self.round_codes = (DeliverFirst.run_round.__code__, Interleaved.run_round.__code__)
        self.step_line = step_run_line()
        self.write_codes = {getattr(APIServer, m).__code__: m for m in WRITE_METHODS}
        self.names: dict[types.CodeType, str | None] = {}  # code -> dotted name, None when not ours
        self.counts: dict[types.CodeType, int] = {}       # code -> calls so far (what --break counts)
        self.current: StepRecord | None = None             # the step running now
        self.pending = StepRecord(0.0, "script")           # what the script did since the last step
        self.pending_started = False                       # pending.t is set
        self.seen: set[types.CodeType] = set()             # functions already listed for the current record
        self.in_write = 0
        self.steps: list[StepRecord] = []
        self.state: dict[str, Any] = {}
        self.run: Any = None
        self.script_code: types.CodeType | None = None
        self.trace_len = 0
        self.api_version = -1

    # -- the trace function ---------------------------------------------------------

    def dotted(self, code: types.CodeType, frame: types.FrameType) -> str | None:
        """`module:qualname` of a minikcm function worth listing, None for anything else (cached)."""
        module = frame.f_globals.get("__name__", "")
        ours = module.startswith("minikcm.") and not module.startswith(SKIP_MODULES)
        name = f"{module}:{code.co_qualname}" if ours else None
        self.names[code] = name
        return name

    def make_trace(self) -> Callable[[types.FrameType, str, Any], Any]:
        """The global trace function: count calls, open and close steps, note functions and writes.

        A closure over locals rather than a method: it runs on every Python call of
        the scenario, so each attribute lookup saved counts.
        """
        counts, names, write_codes, seen = self.counts, self.names, self.write_codes, self.seen
        run_step, step_line, missing = self.run_step_code, self.step_line, object()
        round_codes = self.round_codes

        def trace(frame: types.FrameType, event: str, arg: Any) -> Any:
            code = frame.f_code
            counts[code] = counts.get(code, 0) + 1
            record = self.current
            back = frame.f_back
            if back is not None:
                if back.f_code is run_step:
                    if back.f_lineno == step_line:
                        self.open_step(back.f_locals["step"].name)
                        record = self.current
                    elif record is not None:
                        self.close_step()
                        record = None
                elif back.f_code in round_codes:
                    if record is not None:
                        self.close_step()
                        record = None
                elif record is None and back.f_code is self.script_code:
                    record = self.pending  # a method the script calls between steps
                    self.touch_pending()
            if record is not None and code not in seen:
                seen.add(code)
                name = names.get(code, missing)
                if name is missing:
                    name = self.dotted(code, frame)
                if name is not None:
                    depth, f = 0, frame
                    while record is not self.pending and f is not None and f.f_code is not run_step and depth < 50:
                        depth, f = depth + 1, f.f_back
                    depth = max(depth, 1)  # the script's own callees count as the entry
                    record.calls.append((name, depth, counts[code]))
            verb = write_codes.get(code)
            if verb is None or self.in_write:
                return None
            return self.write_tracer(frame, verb)

        return trace

    def write_tracer(self, frame: types.FrameType, verb: str) -> Callable[..., Any]:
        """Note one API write now; its return event says whether it succeeded."""
        args = frame.f_locals
        resource = args.get("resource", "")
        if args.get("subresource"):
            resource += "/" + args["subresource"]
        obj = args.get("obj") if isinstance(args.get("obj"), dict) else {}
        meta = obj.get("metadata") or {}
        name = args.get("name") or meta.get("name") or (meta.get("generateName", "") + "*")
        write: list[Any] = [verb, resource, name, True]
        if self.current is None:
            self.touch_pending()
        (self.current or self.pending).writes.append(write)
        self.in_write += 1
        frame.f_trace_lines = False

        def on_event(frame: types.FrameType, event: str, arg: Any) -> Any:
            if event == "return":
                self.in_write -= 1
                if arg is None and verb != "delete_collection":
                    write[3] = False  # an exception left the method (a conflict, not found, ...)
                elif isinstance(arg, dict) and write[2].endswith("*"):
                    write[2] = (arg.get("metadata") or {}).get("name", write[2])
            return on_event

        return on_event

    def open_step(self, name: str) -> None:
        trace = self.run.driver.trace
        end = len(trace)
        if end and trace[-1].step == name and not trace[-1].detail:
            end -= 1  # the driver's own line for this step (trace_steps): not the script's doing
        self.flush_script(end)
        self.current = StepRecord(self.elapsed(), name)
        self.seen.clear()
        self.trace_len = len(trace)

    def close_step(self) -> None:
        """The step returned; its notes are taken in `observe`, after the scenario's observers ran."""
        record, self.current = self.current, None
        assert record is not None
        self.steps.append(record)
        self.seen.clear()

    def touch_pending(self) -> None:
        """The script acts between steps: its stretch is stamped with the time it began."""
        if not self.pending_started:
            self.pending.t = self.elapsed()
            self.pending_started = True

    def flush_script(self, end: int | None = None) -> None:
        """Turn what happened between steps (writes, trace lines, state) into a `script` step."""
        if self.run is None:
            return
        end = len(self.run.driver.trace) if end is None else end
        notes = self.notes_since(self.trace_len, end)
        self.trace_len = end
        diff = self.refresh()
        pending = self.pending
        if notes or diff or pending.writes or pending.calls:
            pending.notes, pending.diff = notes, diff
            if not self.pending_started:
                pending.t = self.elapsed()
            names = [n for n in notes if n.startswith("scenario/")]
            pending.name = names[0].split("  ")[0] if names else "script"
            self.steps.append(pending)
        self.pending = StepRecord(0.0, "script")
        self.pending_started = False
        self.seen.clear()

    def notes_since(self, index: int, end: int | None = None) -> list[str]:
        entries = self.run.driver.trace[index:end]
        lines = [(f"{e.step}  {e.detail}" if e.detail else e.step)[:NOTE_CHARS] for e in entries]
        if len(lines) > MAX_NOTES:
            lines = lines[: MAX_NOTES - 1] + [f"... {len(lines) - MAX_NOTES + 1} more"]
        return lines

    # -- state ---------------------------------------------------------------------------

    def elapsed(self) -> float:
        return round((self.run.clock.now() - self.run.start).total_seconds(), 6)

    def observe(self, driver: Driver) -> None:
        """Driver observer (the last one): the state after the step just run.

        Untraced: reading the state is not the scenario's work, and calls made
        here must not count towards `--hit` (a `--break` run makes none of them).
        """
        tracer = sys.gettrace()
        sys.settrace(None)
        try:
            if self.current is not None:
                self.close_step()
            if self.steps:
                last = self.steps[-1]
                last.notes = self.notes_since(self.trace_len)  # the step's lines and its observers'
                self.trace_len = len(self.run.driver.trace)
                last.diff.update(self.refresh())
        finally:
            sys.settrace(tracer)

    def refresh(self) -> dict[str, Any]:
        """Read the state now; return {key: new value or None} for what changed since the last read."""
        now = dict(self.state)
        server = self.run.objects.get("server")
        if server is not None and server.storage.resource_version != self.api_version:
            self.api_version = server.storage.resource_version
            for key in [k for k in now if k.split("/", 1)[0] in API_RESOURCES]:
                del now[key]
            with server.storage.lock:
                for resource in API_RESOURCES:
                    for obj in server.storage.list_locked(resource):
                        now[f"{resource}/{obj['metadata']['name']}"] = summarise(resource, obj, self.run.start)
        for name, component in sorted(self.run.objects.items()):
            queue = queue_of(component) if (name == "queue" or name.endswith("_controller")) else None
            if queue is not None:
                now[f"queue/{name.removesuffix('_controller')}"] = queue_state(queue, self.run.start)
        for name, points in self.run.sampler.series.items():
            if points:
                now[f"series/{name}"] = points[-1][1]
        diff = {k: now.get(k) for k in sorted(set(now) | set(self.state)) if now.get(k) != self.state.get(k)}
        self.state = now
        return diff

    # -- playing -------------------------------------------------------------------------

    def play(self) -> None:
        """Build and play the scenario under the trace function (restoring any tracer after).

        Tricky: the cyclic garbage collector is run first and paused while the
        scenario plays. A world left over from an earlier run may hold a
        suspended generator (a reflector's loop); collecting it closes the
        generator, and Python reports that as a call of the generator's function,
        which would count towards `--hit` at whatever step the collector
        happened to run. A `demo run --break` process holds no earlier world.
        """
        previous = sys.gettrace()
        collecting = gc.isenabled()
        gc.collect()
        gc.disable()
        sys.settrace(self.make_trace())
        try:
            self.run = self.scenario.build(self.seed)
            script = self.run.script
            self.script_code = getattr(script, "__code__", None) or script.__func__.__code__
            self.run.driver.observers.append(self.observe)
            self.run.run()
            if self.current is not None:
                self.close_step()
            self.flush_script()
        finally:
            sys.settrace(previous)
            if collecting:
                gc.enable()


def step_run_line() -> int:
    """The line of `Driver.run_step` that calls `step.run()` (a call from there opens a step)."""
    lines, first = inspect.getsourcelines(Driver.run_step)
    for offset, line in enumerate(lines):
        if line.strip() == "step.run()":
            return first + offset
    raise RuntimeError("Driver.run_step has no `step.run()` line; minikcm.harness.replay must follow it")


# ---------------------------------------------------------------------------
# From records to the trace the widget reads


def ranked(calls: list[tuple[str, int, int]]) -> tuple[list[tuple[str, int, int]], tuple[str, int, int] | None]:
    """The few functions worth showing for a step, in call order, and the one to break at.

    The entry (the step's own function) comes first; then the deepest-reaching
    telling names (`sync_*`, `process_*`, `try_acquire_or_renew`, ...), then
    other ports of Go functions, shallowest first.
    """
    named = [c for c in calls if "<" not in c[0] and c[1] <= 8]
    if not named:
        return [], None
    entry = min(named, key=lambda c: c[1])
    rest = [c for c in named if c is not entry]

    def score(item: tuple[int, tuple[str, int, int]]) -> tuple[int, int, int, int]:
        order, (name, depth, _) = item
        tail = name.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
        return (0 if TELLING.match(tail) else 1, depth, 0 if is_port(name) else 1, order)

    best = [c for _, c in sorted(enumerate(rest), key=score)[: MAX_FUNCTIONS - 1]]
    telling = [c for c in best if TELLING.match(c[0].rsplit(".", 1)[-1].rsplit(":", 1)[-1])]
    chosen = [entry] + [c for c in rest if c in best]
    breaker = telling[0] if telling else entry
    return chosen, breaker


@functools.lru_cache(maxsize=None)
def is_port(name: str) -> bool:
    """Whether the function `module:qualname` says "Port of <GoSymbol> (...)" (asked once per name)."""
    return bool(go_twin(*resolve(name))[0])


def public_home(name: str) -> str:
    """`module:Qual.name`, moved out of a private module (`wait._backoff`) to the package that
    re-exports it (`wait`), which is where the API reference documents it."""
    module_name, _, qualname = name.partition(":")
    parts = module_name.split(".")
    if not any(p.startswith("_") for p in parts):
        return name
    head = qualname.split(".", 1)[0]
    obj = getattr(sys.modules.get(module_name), head, None)
    for i in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:i])
        if any(p.startswith("_") for p in parts[:i]):
            continue
        if obj is not None and getattr(sys.modules.get(package), head, None) is obj:
            return f"{package}:{qualname}"
        break
    return name


def public_name(name: str) -> str:
    """`module:Qual.name` as the dotted path docs and `--break` use."""
    return public_home(name).replace(":", ".")


def export_replay(name: str, seed: int, reference: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Run scenario `name` with `seed` under the recorder and return its replay (see the module docstring).

    `reference` maps a module to the API reference page that documents it
    (`{"minikcm.util.workqueue.queue": "reference/client-go/"}`); functions of
    other modules get no reference link.
    """
    reference = reference or {}
    recorder = Recorder(name, seed)
    recorder.play()
    chosen: list[tuple[StepRecord, list[tuple[str, int, int]], tuple[str, int, int] | None]] = []
    used: set[str] = set()
    for record in recorder.steps:
        functions, breaker = ranked(record.calls)
        chosen.append((record, functions, breaker))
        used.update(f[0] for f in functions)
    table = sorted(used)
    index = {n: i for i, n in enumerate(table)}
    functions_json = []
    for dotted in table:
        go, upstream = go_twin(*resolve(dotted))
        functions_json.append(FunctionInfo(public_name(dotted), go, upstream,
                                           documented(public_home(dotted), reference)).to_json())
    steps = []
    for record, functions, breaker in chosen:
        step: dict[str, Any] = {"t": round(record.t, 3), "name": record.name, "fn": [index[f[0]] for f in functions]}
        if breaker is not None:
            step["brk"] = [index[breaker[0]], breaker[2]]
        if record.writes:
            step["writes"] = record.writes
        if record.notes:
            step["notes"] = record.notes
        if record.diff:
            step["diff"] = record.diff
        steps.append(step)
    scenario = recorder.scenario
    return {
        "format": FORMAT,
        "scenario": scenario.name,
        "seed": seed,
        "chapter": scenario.chapter,
        "title": {"zh": scenario.title_zh, "en": scenario.title_en},
        "command": f"minikcm demo run {scenario.name} --seed {seed}",
        "end": steps[-1]["t"] if steps else 0.0,
        "functions": functions_json,
        "steps": steps,
    }


def export_text(name: str, seed: int, reference: Mapping[str, str] | None = None) -> str:
    """`dumps(export_replay(...))`: what the site ships; a plain function, so a process pool can run it."""
    return dumps(export_replay(name, seed, reference))
