"""No upstream twin. The `minikcm` command line.

Each sub-command is a thin shell over a module that does the work, so that what
the command runs is what the tests and the debugger run.

Start reading at: main.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from minikcm import __version__, logs
from minikcm.signals import setup_signal_handler
from minikcm.upstream import KUBERNETES_VERSION

UP_DEFAULT_NODES = 32
"""`minikcm up`'s simulated nodes: at the kubelet's 110 pods each, room for 3,520 pods."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="minikcm",
        description=f"A runnable Python port of kube-controller-manager at Kubernetes {KUBERNETES_VERSION}.",
    )
    parser.add_argument("--version", action="version",
                        version=f"minikcm {__version__} (ports Kubernetes {KUBERNETES_VERSION})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    version = sub.add_parser("version", help="print minikcm's version and the Kubernetes release it ports")
    version.set_defaults(func=cmd_version)
    add_controller_manager_command(sub)
    add_demo_command(sub)
    add_apiserver_command(sub)
    add_up_command(sub)
    add_exercises_command(sub)
    add_chaos_command(sub)
    add_explore_command(sub)
    return parser


def cmd_version(args: argparse.Namespace) -> int:
    print(f"minikcm {__version__}")
    print(f"ports Kubernetes {KUBERNETES_VERSION}")
    return 0


def add_controller_manager_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm controller-manager` with kube-controller-manager's flags (minikcm.cmd.options)."""
    from minikcm.cmd.controller_manager import controller_aliases, controllers_disabled_by_default, known_controllers
    from minikcm.cmd.options import new_kube_controller_manager_options

    parser = sub.add_parser(
        "controller-manager",
        help="run the controller manager against an API server (leader election, then the controllers)",
        description=("Run kube-controller-manager's control loops against the API server named in --kubeconfig: "
                     "the embedded `minikcm apiserver` or a real cluster. Several copies elect one leader "
                     "on the kube-system/kube-controller-manager Lease; only the leader runs controllers."),
    )
    options = new_kube_controller_manager_options()
    options.flags(known_controllers(), controllers_disabled_by_default(), controller_aliases(), parser=parser)
    add_logging_flags(parser)
    parser.set_defaults(func=cmd_controller_manager, controller_manager_options=options)


def add_logging_flags(parser: argparse.ArgumentParser) -> None:
    """klog's `-v N` and `--log-file` (minikcm.logs): how much the long-running commands write, and where."""
    parser.add_argument("-v", "--v", type=int, default=0, metavar="N",
                        help="log verbosity, as klog's -v: 0 warnings, errors and what users did (default), "
                             "1-3 every info line, 4 and up debug lines too")
    parser.add_argument("--log-file", metavar="PATH", help="append log lines to this file instead of stderr")


def cmd_controller_manager(args: argparse.Namespace) -> int:
    """Check the flags, connect, and run until SIGINT/SIGTERM or lost leadership (exit 0, as upstream)."""
    import threading

    from minikcm.apimachinery.field import Aggregate
    from minikcm.cmd.controller_manager import (
        controller_aliases,
        controllers_disabled_by_default,
        known_controllers,
        run,
    )
    logs.configure(args.v, args.log_file)  # klog's -v; identical warnings and errors thinned out (minikcm.logs)
    options = args.controller_manager_options
    try:
        c = options.config(known_controllers(), controllers_disabled_by_default(), controller_aliases())
    except Aggregate as err:
        for e in err.errors():
            print(f"minikcm controller-manager: invalid flags: {e}", file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"minikcm controller-manager: {err}", file=sys.stderr)
        return 1
    stop = threading.Event()
    restore = setup_signal_handler(stop)
    exit_on_unhandled_thread_exception()  # runtime.REALLY_CRASH stays on, as in kube-controller-manager
    try:
        run(c.complete(), stop)
    except Exception as err:  # the run's own errors end the process with a message
        print(f"minikcm controller-manager: {err}", file=sys.stderr)
        return 1
    finally:
        restore()
    if not stop.is_set():
        print("minikcm controller-manager: leaderelection lost/stopped", file=sys.stderr)
    return 0


def exit_on_unhandled_thread_exception() -> None:
    """No upstream twin. Go's fate for a panic no goroutine recovers: print it, exit with status 2.

    With runtime.REALLY_CRASH on, a raising event handler's exception leaves
    its thread after the panic handlers logged it; in Go that ends the whole
    process, so here the thread's exception does too.
    """
    import os
    import threading
    import traceback

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "?"
        print(f"panic in thread {name}:", file=sys.stderr)
        traceback.print_exception(args.exc_type, args.exc_value, args.exc_traceback, file=sys.stderr)
        sys.stderr.flush()
        os._exit(2)

    threading.excepthook = hook


def add_demo_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm demo list` and `minikcm demo run` (minikcm.sim.scenarios)."""
    demo = sub.add_parser(
        "demo", help="list and run the deterministic scenarios of each chapter",
        description="Deterministic scenarios of the port, one thread and a fake clock: "
                    "the same scenario and seed give the same trace, byte for byte.")
    demo_sub = demo.add_subparsers(dest="demo_command", metavar="ACTION")
    listing = demo_sub.add_parser("list", help="list the scenarios (name, chapter, titles)")
    listing.set_defaults(func=cmd_demo_list)
    run = demo_sub.add_parser(
        "run", help="run a scenario and print its trace",
        description="Run SCENARIO and print its trace, events and the final value of each series.")
    run.add_argument("scenario", metavar="SCENARIO", help="a name from `minikcm demo list`")
    run.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    add_schedule_option(run)
    run.add_argument("--break", dest="break_symbol", metavar="SYMBOL",
                     help="stop in pdb the first time this function runs, e.g. "
                          "minikcm.tools.leaderelection.leaderelection.LeaderElector.try_acquire_or_renew "
                          "(the fake clock stays frozen while pdb waits)")
    run.add_argument("--hit", type=int, default=1, metavar="N",
                     help="with --break: stop at the Nth call of SYMBOL instead of the first "
                          "(the site's replays print N for the step they show)")
    run.add_argument("--trace", metavar="FILE",
                     help="also write the result as JSON lines: a scenario line, the trace entries, "
                          "series points ({\"series\", \"t\", \"value\"}) and events")
    run.add_argument("--live", action="store_true",
                     help="show the series as a live terminal timeline while the scenario plays")
    run.add_argument("--pace", type=float, default=0.15, metavar="SECONDS",
                     help="with --live: real seconds to pause after each step that changed something")
    run.set_defaults(func=cmd_demo_run)
    demo.set_defaults(func=cmd_demo_help, demo_parser=demo)


def add_schedule_option(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """`--schedule`: the driver's scheduling policy (minikcm.driver's design notes)."""
    from minikcm.driver import SCHEDULES

    own = "the scenario's own: deliver-first for all but replicaset-stale-cache" if default is None else default
    parser.add_argument("--schedule", choices=SCHEDULES, default=default,
                        help=f"deliver-first (every ready delivery step before any worker, as the docs' traces) or "
                             f"interleaved (one ready step at a time, drawn with the seed, so a worker can run on a "
                             f"cache that lags behind its own writes); default: {own}")


def build_run(scenario: Any, seed: int, schedule: str | None) -> Any:
    """`scenario.build(seed)`, its driver's policy set to `schedule` (seeded with `seed`) when one is given."""
    from minikcm.driver import new_schedule

    run = scenario.build(seed)
    if schedule is not None:
        run.driver.schedule = new_schedule(schedule, seed)
    return run


def cmd_demo_help(args: argparse.Namespace) -> int:
    args.demo_parser.print_help(sys.stderr)
    return 2


def cmd_demo_list(args: argparse.Namespace) -> int:
    """Print each scenario: name, chapter, English title, then Chinese title."""
    from minikcm.sim.scenarios import SCENARIOS

    width = max(len(name) for name in SCENARIOS)
    print(f"{'SCENARIO':<{width}}  CHAPTER  TITLE")
    for s in SCENARIOS.values():
        print(f"{s.name:<{width}}  {s.chapter:<7}  {s.title_en}")
        print(f"{'':<{width}}  {'':<7}  {s.title_zh}")
    return 0


def cmd_demo_run(args: argparse.Namespace) -> int:
    """Run one scenario (optionally under --break or --live), print it, write --trace."""
    import bdb

    from minikcm.sim.scenarios import Run, ScenarioResult, UnknownScenarioError, get_scenario
    from minikcm.sim.scenarios.debug import FirstCallBreak, UnknownSymbolError, resolve_symbol

    if args.live and args.break_symbol:
        print("minikcm demo run: --live and --break do not go together", file=sys.stderr)
        return 2
    try:
        scenario = get_scenario(args.scenario)
        target = resolve_symbol(args.break_symbol) if args.break_symbol else None
    except (UnknownScenarioError, UnknownSymbolError) as err:
        print(f"minikcm demo run: {err}", file=sys.stderr)
        return 2
    if args.live:
        from minikcm.sim.scenarios.live import play_live

        result = play_live(build_run(scenario, args.seed, args.schedule), scenario.title_en, args.pace)
    elif target is not None:
        built: list[Run] = []

        def build_and_play() -> ScenarioResult:  # under the break, so constructors can be break targets too
            built.append(build_run(scenario, args.seed, args.schedule))
            return built[0].run()

        def on_hit(frame: object) -> None:
            when = f"fake time +{built[0].sampler.elapsed():.3f} s" if built else "while building the scenario"
            which = "the first call" if args.hit <= 1 else f"call {args.hit}"
            print(f"minikcm: stopped at {which} of {args.break_symbol} ({when}); the fake clock "
                  "is frozen while you look around; `c` continues the scenario", flush=True)

        breaker = FirstCallBreak(target.__code__, on_hit, nth=max(args.hit, 1))
        try:
            result = breaker.run(build_and_play)
        except bdb.BdbQuit:
            print("minikcm demo run: quit in the debugger; the scenario did not finish", file=sys.stderr)
            return 1
        if not breaker.hit:
            times = f" {args.hit} times" if args.hit > 1 else ""
            print(f"minikcm demo run: {args.break_symbol} never ran{times} in {scenario.name}", file=sys.stderr)
    else:
        result = build_run(scenario, args.seed, args.schedule).run()
    if not args.live:
        print(result.trace_text())
    print()
    print(result.summary())
    if args.trace:
        with open(args.trace, "w", encoding="utf-8") as f:
            f.write(result.to_json_lines())
        print(f"trace written to {args.trace}")
    return 0


def add_apiserver_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm apiserver`: the embedded API server over HTTPS (minikcm.apiserver.http.command)."""
    parser = sub.add_parser(
        "apiserver", help="serve the embedded API server over HTTPS for kubectl and client libraries",
        description="Serve the embedded API server over HTTPS on loopback with a generated CA and bearer "
                    "token, write a kubeconfig (mode 0600) once it answers, and run until Ctrl-C or SIGTERM.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default 0: a free port)")
    parser.add_argument("--bind-address", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--allow-non-loopback", action="store_true",
                        help="allow a --bind-address other hosts can reach (the token is then the only protection)")
    parser.add_argument("--kubeconfig", metavar="PATH",
                        help="where to write the kubeconfig (default: in the data dir, or a temporary dir)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="keep objects (SQLite), certificates and the token here across restarts")
    add_logging_flags(parser)
    parser.set_defaults(func=cmd_apiserver)


def cmd_apiserver(args: argparse.Namespace) -> int:
    """Serve until stopped; the exit code comes from minikcm.apiserver.http.command.run."""
    from minikcm.apiserver.http.command import run

    logs.configure(args.v, args.log_file)
    return run(port=args.port, kubeconfig=args.kubeconfig, data_dir=args.data_dir,
               bind_address=args.bind_address, allow_non_loopback=args.allow_non_loopback)


def add_up_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm up`: API server, controller manager and simulated kubelet in one process (minikcm.up)."""
    parser = sub.add_parser(
        "up", help="run a whole small cluster: API server, controller manager, simulated kubelet",
        description="Serve the embedded API server over HTTPS (loopback, generated CA and token), run "
                    "kube-controller-manager's ported controllers with leader election on, and a simulated "
                    "kubelet and volume binder that make pods Ready and claims Bound. The kubeconfig is written "
                    "once the server answers. Runs until Ctrl-C or SIGTERM.")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default 0: a free port)")
    parser.add_argument("--bind-address", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--allow-non-loopback", action="store_true",
                        help="allow a --bind-address other hosts can reach (the token is then the only protection)")
    parser.add_argument("--kubeconfig", metavar="PATH",
                        help="where to write the kubeconfig (default: in the data dir, or a temporary dir)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="keep objects (SQLite), certificates, the token and the lease identity here "
                             "across restarts (default: in memory)")
    parser.add_argument("--controllers", default="*", metavar="LIST",
                        help="controllers to run, as kube-controller-manager's --controllers: '*' for all, "
                             "'-name' to leave one out (default '*')")
    parser.add_argument("--controller-client", choices=("in-process", "rest"), default="in-process",  # minikcm.up
                        help="how the controllers reach the API server: in-process calls (default, fastest) "
                             "or rest (HTTPS through the kubeconfig, as against a real cluster)")
    parser.add_argument("--kubelet-nodes", type=int, default=UP_DEFAULT_NODES, metavar="N",
                        help=f"simulated nodes sim-node-0 .. sim-node-<N-1> (default {UP_DEFAULT_NODES}: "
                             "room for a few thousand pods)")
    parser.add_argument("--kubelet-max-pods", type=int, default=None, metavar="N",
                        help="pods one node holds, as the kubelet's --max-pods (default 110, at most 253); "
                             "a pod that fits on no node stays Pending as Unschedulable")
    parser.add_argument("--kubelet-start-delay", type=_duration, default=1.0, metavar="DURATION",
                        help="from a pod's binding to Running, e.g. 1s or 250ms (default 1s)")
    parser.add_argument("--kubelet-ready-delay", type=_duration, default=1.0, metavar="DURATION",
                        help="from Running to Ready (default 1s)")
    parser.add_argument("--kubelet-immediate-deletion", action="store_true",
                        help="remove deleted pods at once instead of after their grace period (default 30s)")
    parser.add_argument("--volume-bind-delay", type=_duration, default=1.0, metavar="DURATION",
                        help="from a claim's creation to Bound (default 1s)")
    add_logging_flags(parser)
    parser.set_defaults(func=cmd_up)


def _duration(text: str) -> float:
    """A non-negative Go-style duration (`500ms`, `2s`) or plain seconds, for argparse."""
    from minikcm.sim.kubelet import parse_duration

    try:
        value = parse_duration(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return value


def cmd_up(args: argparse.Namespace) -> int:
    """Run the cluster until stopped; the exit code comes from minikcm.up.run_up."""
    from minikcm.sim.kubelet import DEFAULT_MAX_PODS, MAX_PODS_LIMIT, KubeletConfig
    from minikcm.up import run_up

    logs.configure(args.v, args.log_file)  # klog's -v; identical warnings and errors thinned out (minikcm.logs)
    if args.kubelet_nodes < 1:
        print("minikcm up: --kubelet-nodes must be at least 1", file=sys.stderr)
        return 2
    max_pods = DEFAULT_MAX_PODS if args.kubelet_max_pods is None else args.kubelet_max_pods
    if not 1 <= max_pods <= MAX_PODS_LIMIT:
        print(f"minikcm up: --kubelet-max-pods must be between 1 and {MAX_PODS_LIMIT} (one /24 of pod "
              f"addresses per node)", file=sys.stderr)
        return 2
    kubelet = KubeletConfig(nodes=args.kubelet_nodes, max_pods=max_pods,
                            start_delay=args.kubelet_start_delay,
                            ready_delay=args.kubelet_ready_delay,
                            finish_deletion_immediately=args.kubelet_immediate_deletion)
    return run_up(port=args.port, kubeconfig=args.kubeconfig, data_dir=args.data_dir,
                  bind_address=args.bind_address, allow_non_loopback=args.allow_non_loopback,
                  controllers=args.controllers, controller_client=args.controller_client, kubelet=kubelet,
                  volume_bind_delay=args.volume_bind_delay)


def add_exercises_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm exercises list|start|check` (minikcm.exercises)."""
    exercises = sub.add_parser(
        "exercises", help="write real functions of the port and let the checker run them in the port",
        description="Each chapter's exercises are real functions of minikcm with their bodies left out. "
                    "`start` copies the starting files into a folder; `check` puts your functions into the "
                    "running port and prints PASS or FAIL per exercise with a hint.")
    ex_sub = exercises.add_subparsers(dest="exercises_command", metavar="ACTION")
    listing = ex_sub.add_parser("list", help="list the chapters and their exercises")
    listing.set_defaults(func=cmd_exercises_list)
    start = ex_sub.add_parser(
        "start", help="copy a chapter's starting files and a README into a folder",
        description="Copy CHAPTER's starting files and a README into DIR (default ./minikcm-exercises/CHAPTER). "
                    "Files you have edited are never overwritten unless you pass --force.")
    start.add_argument("chapter", metavar="CHAPTER", help="a chapter from `minikcm exercises list`")
    start.add_argument("--dir", metavar="DIR", help="where to put the files (default ./minikcm-exercises/CHAPTER)")
    start.add_argument("--force", action="store_true", help="overwrite files that differ from the starting files")
    start.set_defaults(func=cmd_exercises_start)
    check = ex_sub.add_parser(
        "check", help="check your functions (or, with --solution, the port's own)",
        description="Load each exercise's function from DIR, put it into the running port in place of the real "
                    "one, run its table of cases and a deterministic run of the port, and print PASS or FAIL "
                    "per exercise. Exits 1 when any exercise fails.")
    check.add_argument("chapter", metavar="CHAPTER", help="a chapter from `minikcm exercises list`")
    check.add_argument("exercise", metavar="EXERCISE", nargs="*", help="only these exercises (default: all)")
    check.add_argument("--dir", metavar="DIR", help="where your files are (default ./minikcm-exercises/CHAPTER)")
    check.add_argument("--solution", action="store_true",
                       help="check the port's own functions (the reference solutions) instead of your files")
    check.set_defaults(func=cmd_exercises_check)
    exercises.set_defaults(func=cmd_exercises_help, exercises_parser=exercises)


def cmd_exercises_help(args: argparse.Namespace) -> int:
    args.exercises_parser.print_help(sys.stderr)
    return 2


def cmd_exercises_list(args: argparse.Namespace) -> int:
    """Print each chapter, then each of its exercises: file, the function it replaces, the goal."""
    from minikcm.exercises import EXERCISES

    for chapter in EXERCISES.values():
        print(f"{chapter.id}: {chapter.title_en} / {chapter.title_zh}")
        width = max(len(ex.file_name) for ex in chapter.exercises)
        for ex in chapter.exercises:
            print(f"  {ex.file_name:<{width}}  {ex.target.removeprefix('minikcm.')}")
            print(f"  {'':<{width}}  {ex.goal_en}")
    return 0


def cmd_exercises_start(args: argparse.Namespace) -> int:
    """Copy the starting files; refuse (exit 1) when that would overwrite the learner's edits."""
    from pathlib import Path

    from minikcm.exercises import UnknownChapterError, get_chapter
    from minikcm.exercises.workspace import default_dir, start_chapter

    try:
        chapter = get_chapter(args.chapter)
    except UnknownChapterError as err:
        print(f"minikcm exercises start: {err}", file=sys.stderr)
        return 2
    dest = Path(args.dir) if args.dir else default_dir(chapter)
    report = start_chapter(chapter, dest, force=args.force)
    if report.refused:
        print("minikcm exercises start: these files differ from the starting files (your work?); "
              "nothing was written. Use --force to overwrite them:", file=sys.stderr)
        for path in report.refused:
            print(f"  {path}", file=sys.stderr)
        return 1
    for path in report.written:
        print(f"wrote {path}")
    for path in report.unchanged:
        print(f"unchanged {path}")
    dir_arg = "" if args.dir is None else f" --dir {dest}"
    print(f"Write the function bodies, then run: minikcm exercises check {chapter.id}{dir_arg}")
    return 0


def cmd_exercises_check(args: argparse.Namespace) -> int:
    """Check every (or the named) exercise of a chapter; exit 1 when one fails."""
    from pathlib import Path

    from minikcm.exercises import get_chapter
    from minikcm.exercises.workspace import check_chapter, default_dir, format_report

    try:
        chapter = get_chapter(args.chapter)
        for name in args.exercise:
            chapter.exercise(name)
    except KeyError as err:  # an unknown chapter or exercise: the message lists what exists
        print(f"minikcm exercises check: {err.args[0] if err.args else err}", file=sys.stderr)
        return 2
    dest = Path(args.dir) if args.dir else default_dir(chapter)
    results = check_chapter(chapter, dest, solution=args.solution, only=args.exercise or None)
    source = "the reference solutions (the port's own functions)" if args.solution else f"your files in {dest}"
    print(format_report(chapter, results, source))
    return 0 if all(r.passed for r in results) else 1


def add_chaos_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm chaos run` (minikcm.harness.chaos): seeded fault-injection runs of the workload scenarios."""
    chaos = sub.add_parser(
        "chaos", help="replay the workload scenarios under seeded faults and check they converge, losing nothing",
        description="Seeded chaos runs: failed writes, dropped watches, 410s, informer restarts, controller-manager "
                    "crashes and API server reloads; the same seed gives the same run, byte for byte.")
    chaos_sub = chaos.add_subparsers(dest="chaos_command", metavar="ACTION")
    run = chaos_sub.add_parser("run", help="run K seeds and report every violation with its replay command")
    run.add_argument("--seed", type=int, default=1, help="first seed (run i uses seed + i; default 1)")
    run.add_argument("--runs", type=int, default=1, help="how many runs (default 1)")
    add_schedule_option(run, default="deliver-first")
    run.add_argument("--scenario", metavar="NAME",
                     help="only this scenario (default: rolling-update, recreate, proportional-scaling, "
                          "statefulset-ordered, statefulset-partition, cascade-delete in turn)")
    run.add_argument("--break", dest="break_symbol", metavar="SYMBOL",
                     help="with --runs 1: stop in pdb the first time this function runs (as `demo run --break`)")
    run.add_argument("--hit", type=int, default=1, metavar="N", help="with --break: stop at the Nth call")
    run.add_argument("--trace", action="store_true", help="print each run's trace (faults are `chaos` lines)")
    run.set_defaults(func=cmd_chaos_run)
    chaos.set_defaults(func=cmd_demo_help, demo_parser=chaos)


def cmd_chaos_run(args: argparse.Namespace) -> int:
    """Run the planned seeds; print one line per run, the violations with their replay commands, a total."""
    import logging
    import time

    from minikcm.harness.chaos import CHAOS_SCENARIOS, plan, run_chaos
    from minikcm.sim.scenarios.debug import FirstCallBreak, UnknownSymbolError, resolve_symbol

    if args.scenario is not None and args.scenario not in CHAOS_SCENARIOS:
        print(f"minikcm chaos run: no chaos scenario {args.scenario!r}; choose one of "
              f"{', '.join(CHAOS_SCENARIOS)}", file=sys.stderr)
        return 2
    around = None
    if args.break_symbol:
        if args.runs != 1:
            print("minikcm chaos run: --break needs --runs 1", file=sys.stderr)
            return 2
        try:
            target = resolve_symbol(args.break_symbol)
        except UnknownSymbolError as err:
            print(f"minikcm chaos run: {err}", file=sys.stderr)
            return 2

        def on_hit(frame: object) -> None:
            print(f"minikcm: stopped at call {max(args.hit, 1)} of {args.break_symbol}; the fake clock is frozen "
                  "while you look around; `c` continues the run", flush=True)

        breaker = FirstCallBreak(target.__code__, on_hit, nth=max(args.hit, 1))
        around = breaker.run
    port_log = logging.getLogger("minikcm")
    if not any(isinstance(h, logging.NullHandler) for h in port_log.handlers):  # once per process, not per call
        port_log.addHandler(logging.NullHandler())  # the port's logs would drown the report
    started = time.perf_counter()
    failed = 0
    runs = plan(args.seed, args.runs, args.scenario)
    for scenario, seed in runs:
        result = run_chaos(scenario, seed, around=around, schedule=args.schedule)
        if args.trace:
            print(result.trace_text())
        print(result.summary(), flush=True)
        failed += not result.ok
    print(f"{len(runs)} runs, {failed} with violations, {time.perf_counter() - started:.1f} s")
    return 1 if failed else 0


def add_explore_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register `minikcm explore` (minikcm.harness.explore): a scenario under many interleaved schedules."""
    parser = sub.add_parser(
        "explore", help="play a scenario under N interleaved schedules and check its invariants after every step",
        description="Schedule i uses seed K+i (the scenario's and the interleaved policy's). Each broken schedule is "
                    "printed with the command that replays it; the last line is `explore: N schedules, V violations`.")
    parser.add_argument("--scenario", required=True, metavar="NAME", help="a name from `minikcm demo list`")
    parser.add_argument("--schedules", type=int, default=100, metavar="N", help="how many schedules (default 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="K", help="seed of the first schedule (default 1)")
    parser.add_argument("--without", choices=("expectations", "consistency"), default=None,
                        help="mutation check: bypass this defence of every ReplicaSet controller (from the harness; "
                             "the port has no switch) and show that the explorer finds what it prevents")
    parser.set_defaults(func=cmd_explore)


def cmd_explore(args: argparse.Namespace) -> int:
    """Run the schedules; print each violation with its replay command, then the total line."""
    import logging

    from minikcm.harness.explore import ScheduleResult, explore
    from minikcm.sim.scenarios import UnknownScenarioError

    port_log = logging.getLogger("minikcm")
    if not any(isinstance(h, logging.NullHandler) for h in port_log.handlers):
        port_log.addHandler(logging.NullHandler())  # the port's logs would drown the report

    def report(one: ScheduleResult) -> None:
        if one.violation is not None:
            print(f"FAIL {one.scenario} seed {one.seed} ({one.steps} steps): {one.violation}")
            print(f"  replay: {one.replay_command()}", flush=True)

    try:
        result = explore(args.scenario, args.schedules, args.seed, args.without, report=report)
    except (UnknownScenarioError, ValueError) as err:
        print(f"minikcm explore: {err}", file=sys.stderr)
        return 2
    print(f"{args.scenario}: {len(result.schedules)} interleaved schedules from seed {args.seed} in "
          f"{result.seconds:.1f} s" + (f", without {args.without}" if args.without else ""))
    print(result.last_line())
    return 1 if result.violations else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `minikcm` console script and of `python -m minikcm`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    return int(func(args))
