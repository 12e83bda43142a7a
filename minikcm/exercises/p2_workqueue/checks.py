"""No upstream twin. The checks of the P2 work-queue exercises (chapter `p2-workqueue`).

Table rows follow upstream's queue, delaying-queue and rate-limiter tests
(TestAddWhileProcessing, TestLen, TestDeduping, TestAddTwoFireEarly,
TestItemExponentialFailureRateLimiter and its overflow twin) with our own
values, on a FakeClock and a delaying queue without a waiting thread. Two rows
use a real thread for a few milliseconds, because "a worker blocked in get()
is woken" can only be seen that way. The run of the port is the
`workqueue-retry` scenario: a controller-shaped worker retrying a failing key.

Start reading at: CHAPTER, then any `<name>_cases` function.
"""

from __future__ import annotations

import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

from minikcm.clock import EPOCH, FakeClock
from minikcm.exercises.base import Case, Chapter, Exercise, expect, expect_equal
from minikcm.sim.scenarios import get_scenario
from minikcm.sim.scenarios.workqueue import WorkqueueRetry
from minikcm.util.workqueue.default_rate_limiters import (
    ItemExponentialFailureRateLimiter,
    default_controller_rate_limiter,
)
from minikcm.util.workqueue.delaying_queue import DelayingQueueConfig, DelayingType, new_delaying_queue_with_config
from minikcm.util.workqueue.queue import SliceQueue, Type, new

WORKQUEUE = "minikcm.util.workqueue"
THREAD_WAIT = 2.0
"""Real seconds a threaded row waits for a worker to be woken before it fails."""


# -- the run of the port: the workqueue-retry scenario ------------------------------------------


def run_workqueue_retry() -> None:
    """web fails 6 times (5, 10, 20, 40, 80, 160 ms apart), db syncs at once, web's re-add waits 5 ms again."""
    run = get_scenario("workqueue-retry").build(1)
    scenario: WorkqueueRetry = run.objects["scenario"]
    result = run.run()
    delays = [v for _, v in result.series["default/web retry delay (ms)"]]
    expect_equal(delays, [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 5.0], "default/web's retry delays (ms)")
    expect_equal(scenario.synced, ["default/db", "default/web", "default/web"], "keys synced, in order")
    expect_equal(result.events, ["default/web synced after 6 failed attempts",
                                 "default/web synced after 1 failed attempt"], "events")
    expect_equal(scenario.queue.len(), 0, "keys left in the queue at the end")
    expect_equal(len(scenario.delaying.waiting_entry_by_data), 0, "keys still parked at the end")
    expect_equal(sorted(scenario.delaying.queue.processing), [], "keys still marked processing at the end")  # type: ignore[attr-defined]


# -- helpers for the queue rows ----------------------------------------------------------------


class RecordingQueue(SliceQueue):
    """The FIFO storage, recording push and touch calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    def push(self, item: Any) -> None:
        self.calls.append(("push", item))
        super().push(item)

    def touch(self, item: Any) -> None:
        self.calls.append(("touch", item))


def take(q: Type, want: Any) -> None:
    """get() without ever blocking the check: the queue must hold an item, and it must be `want`."""
    expect(q.len() > 0, f"want {want!r} to be queued, but the queue is empty")
    item, shutdown = q.get()
    expect_equal((item, shutdown), (want, False), "get()")


def wait_until_blocked(q: Type, waiters: int = 1) -> bool:
    """Wait (real time, briefly) until `waiters` threads wait on the queue's condition."""
    deadline = time.monotonic() + THREAD_WAIT
    while time.monotonic() < deadline:
        if len(getattr(q._cond, "_waiters", ())) >= waiters:  # CPython's Condition keeps its waiters here
            return True
        time.sleep(0.001)
    return False


class Worker:
    """A thread that blocks in get() (or another call) and remembers what it got."""

    def __init__(self, call: Any) -> None:
        self.result: Any = None
        self.thread = threading.Thread(name="exercise/worker", target=self.body, args=(call,), daemon=True)
        self.thread.start()

    def body(self, call: Any) -> None:
        self.result = call()

    def finished(self) -> bool:
        self.thread.join(THREAD_WAIT)
        return not self.thread.is_alive()


# -- Type.add ----------------------------------------------------------------------------------


def add_dedups_while_queued() -> None:
    q = new()
    for item in ("a", "a", "b", "a"):
        q.add(item)
    expect_equal(q.len(), 2, "len() after adding a, a, b, a")
    take(q, "a")
    take(q, "b")


def add_keeps_fifo_order() -> None:
    q = new()
    for item in ("c", "a", "b"):
        q.add(item)
    for item in ("c", "a", "b"):
        take(q, item)


def add_while_processing_waits_for_done() -> None:
    q = new()
    q.add("a")
    take(q, "a")
    q.add("a")  # changed while a worker holds it
    expect_equal(q.len(), 0, "len() after re-adding an item a worker holds (no second worker may get it)")
    expect("a" in q.dirty, "an item re-added while processing must be marked dirty")
    q.done("a")
    expect_equal(q.len(), 1, "len() after done(): the re-added item is queued now")
    take(q, "a")


def add_touches_a_queued_item() -> None:
    storage = RecordingQueue()
    q = Type(storage)
    q.add("a")
    q.add("a")
    expect_equal(storage.calls, [("push", "a"), ("touch", "a")], "calls on the storage for add a, add a")


def add_ignored_after_shut_down() -> None:
    q = new()
    q.shut_down()
    q.add("a")
    expect_equal((q.len(), sorted(q.dirty)), (0, []), "(len, dirty) after an add during shutdown")


def add_wakes_a_waiting_worker() -> None:
    q = new()
    worker = Worker(q.get)
    try:
        expect(wait_until_blocked(q), "the worker thread never blocked in get()")
        q.add("a")
        expect(worker.finished(), "a worker waiting in get() was not woken by add (notify the condition)")
        expect_equal(worker.result, ("a", False), "what the woken worker got")
    finally:
        q.shut_down()  # releases the worker if it is still waiting


def add_cases() -> list[Case]:
    return [
        Case("dedups-while-queued", add_dedups_while_queued),
        Case("keeps-fifo-order", add_keeps_fifo_order),
        Case("re-add-while-processing-waits-for-done", add_while_processing_waits_for_done),
        Case("re-add-of-a-queued-item-only-touches-it", add_touches_a_queued_item),
        Case("ignored-after-shut-down", add_ignored_after_shut_down),
        Case("wakes-a-waiting-worker", add_wakes_a_waiting_worker),
        Case("workqueue-retry", run_workqueue_retry, is_run=True),
    ]


# -- Type.done ---------------------------------------------------------------------------------


def done_forgets_a_clean_item() -> None:
    q = new()
    q.add("a")
    take(q, "a")
    q.done("a")
    expect_equal((q.len(), sorted(q.dirty), sorted(q.processing)), (0, [], []), "(len, dirty, processing) after done")


def done_requeues_an_item_added_meanwhile() -> None:
    q = new()
    q.add("a")
    take(q, "a")
    q.add("a")
    q.add("a")
    q.done("a")
    expect_equal(q.len(), 1, "len() after done() of an item added twice while processing")
    take(q, "a")
    q.done("a")
    expect_equal(q.len(), 0, "len() after the second done()")


def done_keeps_other_items() -> None:
    q = new()
    for item in ("a", "b"):
        q.add(item)
    take(q, "a")
    q.done("a")
    expect_equal(sorted(q.processing), [], "processing after done(a)")
    take(q, "b")


def done_of_unknown_item_is_harmless() -> None:
    q = new()
    q.done("never-seen")
    expect_equal((q.len(), sorted(q.processing)), (0, []), "(len, processing) after done of an unknown item")


def done_wakes_a_waiting_worker() -> None:
    q = new()
    q.add("a")
    take(q, "a")
    q.add("a")
    worker = Worker(q.get)
    try:
        expect(wait_until_blocked(q), "the worker thread never blocked in get()")
        q.done("a")
        expect(worker.finished(), "done() queued the re-added item but did not wake the waiting worker")
        expect_equal(worker.result, ("a", False), "what the woken worker got")
    finally:
        q.shut_down()


def done_wakes_shut_down_with_drain() -> None:
    q = new()
    q.add("a")
    take(q, "a")
    drainer = Worker(q.shut_down_with_drain)
    try:
        expect(wait_until_blocked(q), "shut_down_with_drain never started waiting")
        q.done("a")
        expect(drainer.finished(), "shut_down_with_drain kept waiting after the last item was done")
    finally:
        q.shut_down()  # ends a drain that is still waiting


def done_cases() -> list[Case]:
    return [
        Case("forgets-a-clean-item", done_forgets_a_clean_item),
        Case("requeues-an-item-added-while-processing", done_requeues_an_item_added_meanwhile),
        Case("leaves-other-items-alone", done_keeps_other_items),
        Case("unknown-item-is-harmless", done_of_unknown_item_is_harmless),
        Case("wakes-a-waiting-worker", done_wakes_a_waiting_worker),
        Case("wakes-shut_down_with_drain", done_wakes_shut_down_with_drain),
        Case("workqueue-retry", run_workqueue_retry, is_run=True),
    ]


# -- ItemExponentialFailureRateLimiter.when ------------------------------------------------------------


def whens(limiter: Any, item: Any, n: int) -> list[float]:
    return [limiter.when(item) for _ in range(n)]


def when_doubles_per_item() -> None:
    """Port of TestItemExponentialFailureRateLimiter (default_rate_limiters_test.go), our values."""
    limiter = ItemExponentialFailureRateLimiter(0.001, 1.0)
    expect_equal(whens(limiter, "one", 5), [0.001, 0.002, 0.004, 0.008, 0.016], "when('one') x5 (base 1 ms)")
    expect_equal(limiter.num_requeues("one"), 5, "num_requeues('one')")
    expect_equal(whens(limiter, "two", 2), [0.001, 0.002], "when('two') x2: each item counts on its own")
    expect_equal(limiter.num_requeues("two"), 2, "num_requeues('two')")
    limiter.forget("one")
    expect_equal(limiter.num_requeues("one"), 0, "num_requeues('one') after forget")
    expect_equal(limiter.when("one"), 0.001, "when('one') after forget")


def when_caps_at_max_delay() -> None:
    limiter = ItemExponentialFailureRateLimiter(0.001, 0.01)
    expect_equal(whens(limiter, "x", 6), [0.001, 0.002, 0.004, 0.008, 0.01, 0.01], "when('x') x6 (base 1 ms, max 10 ms)")


def when_survives_overflow(base: float, cap: float, warmup: int, want_next: float) -> None:
    """Port of TestItemExponentialFailureRateLimiterOverFlow: huge failure counts give the cap, never an error."""
    limiter = ItemExponentialFailureRateLimiter(base, cap)
    whens(limiter, "one", warmup)
    got = limiter.when("one")
    expect(abs(got - want_next) < 1e-12, f"when() after {warmup} failures (base {base} s): want {want_next}, got {got}")
    whens(limiter, "overflow", 1000)
    expect_equal(limiter.when("overflow"), cap, f"when() after 1000 failures (base {base} s, max {cap} s)")


def when_in_the_default_controller_limiter() -> None:
    limiter = default_controller_rate_limiter(FakeClock(EPOCH))
    expect_equal(whens(limiter, "key", 3), [0.005, 0.01, 0.02], "default_controller_rate_limiter().when x3")


def when_cases() -> list[Case]:
    return [
        Case("doubles-per-item-and-forget-resets", when_doubles_per_item),
        Case("caps-at-max-delay", when_caps_at_max_delay),
        Case("overflow-1ms-to-1000s", partial(when_survives_overflow, 0.001, 1000.0, 5, 0.032)),
        Case("overflow-1min-to-1000h", partial(when_survives_overflow, 60.0, 1000 * 3600.0, 2, 240.0)),
        Case("inside-the-default-controller-limiter", when_in_the_default_controller_limiter),
        Case("workqueue-retry", run_workqueue_retry, is_run=True),
    ]


# -- DelayingType.add_after ------------------------------------------------------------------------------


def delaying() -> tuple[FakeClock, DelayingType]:
    clock = FakeClock(EPOCH, driven=True)
    return clock, new_delaying_queue_with_config(DelayingQueueConfig(name="exercise", clock=clock))


def parked(q: DelayingType) -> dict[Any, float]:
    """Parked item -> seconds after EPOCH at which it becomes ready."""
    return {item: round((e.ready_at - EPOCH).total_seconds(), 6) for item, e in q.waiting_entry_by_data.items()}


def after(clock: FakeClock, q: DelayingType, seconds: float) -> int:
    clock.step(seconds)
    return q.process_waiting()


def add_after_parks_until_ready() -> None:
    """After TestSimpleQueue (delaying_queue_test.go)."""
    clock, q = delaying()
    q.add_after("foo", 0.05)
    expect_equal((q.len(), parked(q)), (0, {"foo": 0.05}), "(len, parked) right after add_after('foo', 50 ms)")
    expect_equal(after(clock, q, 0.03), 0, "items moved 30 ms later")
    expect_equal(after(clock, q, 0.03), 1, "items moved 60 ms later")
    expect_equal((q.len(), parked(q)), (1, {}), "(len, parked) once ready")


def add_after_non_positive_adds_now() -> None:
    _, q = delaying()
    q.add_after("x", 0.0)
    q.add_after("y", -1.0)
    expect_equal((q.len(), parked(q)), (2, {}), "(len, parked) after add_after with 0 and -1 s")


def add_after_earlier_time_wins() -> None:
    """After TestDeduping (delaying_queue_test.go)."""
    clock, q = delaying()
    q.add_after("foo", 0.05)
    q.add_after("foo", 0.07)
    expect_equal(parked(q), {"foo": 0.05}, "parked after add_after foo 50 ms, then 70 ms (the later time loses)")
    q.add_after("foo", 0.02)
    expect_equal(parked(q), {"foo": 0.02}, "parked after a third add_after foo 20 ms (the earlier time wins)")
    expect_equal(q.waiting_for_queue.len(), 1, "entries in the heap for one item")
    expect_equal(after(clock, q, 0.025), 1, "items moved at 25 ms")
    expect_equal(after(clock, q, 0.1), 0, "items moved later: foo must not come twice")


def add_after_fires_in_time_order() -> None:
    """After TestAddTwoFireEarly (delaying_queue_test.go)."""
    clock, q = delaying()
    q.add_after("foo", 1.0)
    q.add_after("bar", 0.05)
    expect_equal(after(clock, q, 0.06), 1, "items moved at 60 ms")
    take(q.queue, "bar")  # type: ignore[arg-type]
    q.add_after("foo", 0.05)  # sooner than its 1 s
    expect_equal(parked(q), {"foo": 0.11}, "parked after moving foo's time earlier")
    expect_equal(after(clock, q, 0.06), 1, "items moved at 120 ms")
    take(q.queue, "foo")  # type: ignore[arg-type]
    expect_equal(after(clock, q, 2.0), 0, "items moved at 2.1 s: foo's old time must not fire")


def add_after_ignored_while_shutting_down() -> None:
    _, q = delaying()
    q.shut_down()
    q.add_after("x", 1.0)
    q.add_after("y", 0.0)
    expect_equal((q.len(), parked(q)), (0, {}), "(len, parked) after add_after during shutdown")


def add_after_wakes_the_waiting_loop() -> None:
    _, q = delaying()
    q._wake.clear()
    q.add_after("x", 1.0)
    expect(q._wake.is_set(), "add_after parked an item but did not wake the waiting loop (self._wake.set())")


def add_after_cases() -> list[Case]:
    return [
        Case("parks-until-ready", add_after_parks_until_ready),
        Case("non-positive-adds-now", add_after_non_positive_adds_now),
        Case("earlier-time-wins", add_after_earlier_time_wins),
        Case("fires-in-time-order", add_after_fires_in_time_order),
        Case("ignored-while-shutting-down", add_after_ignored_while_shutting_down),
        Case("wakes-the-waiting-loop", add_after_wakes_the_waiting_loop),
        Case("workqueue-retry", run_workqueue_retry, is_run=True),
    ]


# -- the chapter ----------------------------------------------------------------------------------

CHAPTER = Chapter(
    id="p2-workqueue",
    title_en="P2 Work queue",
    title_zh="P2 工作队列",
    reading_map="p2-informers.md#reading-map",
    start_dir=Path(__file__).with_name("start"),
    exercises=(
        Exercise(
            name="add",
            target=f"{WORKQUEUE}.queue.Type.add",
            go_symbol="Typed.Add (k8s.io/client-go/util/workqueue/queue.go)",
            goal_en="Mark an item as needing work: queue it once, and never hand it to a second worker while one holds it.",
            goal_zh="把一个 key 标记为需要处理：只排队一次；有 worker 正在处理它时，绝不交给第二个 worker。",
            hint_en="An item already dirty is only touched; an item in processing is only marked dirty (done() "
                    "queues it later); otherwise mark it dirty, push it and notify one waiting worker.",
            hint_zh="已经是 dirty 的只 touch；正在 processing 的只标记 dirty（done() 之后再入队）；"
                    "其余的标记 dirty、push 入队，并唤醒一个等待的 worker。",
            cases=add_cases,
            runs=("workqueue-retry",),
        ),
        Exercise(
            name="done",
            target=f"{WORKQUEUE}.queue.Type.done",
            go_symbol="Typed.Done (k8s.io/client-go/util/workqueue/queue.go)",
            goal_en="Finish an item: requeue it if it was added while being processed, and wake whoever waits.",
            goal_zh="结束对一个 key 的处理：处理期间又被 add 过就重新入队，并唤醒等待的一方。",
            hint_en="Remove the item from processing; if it is dirty, push it and notify; else, once nothing is "
                    "processing, notify too (shut_down_with_drain waits for that).",
            hint_zh="先从 processing 中移除；如果它还是 dirty，就 push 并 notify；否则在 processing "
                    "变空时也要 notify（shut_down_with_drain 在等这一刻）。",
            cases=done_cases,
            runs=("workqueue-retry",),
        ),
        Exercise(
            name="when",
            target=f"{WORKQUEUE}.default_rate_limiters.ItemExponentialFailureRateLimiter.when",
            go_symbol="ItemExponentialFailureRateLimiter.When (k8s.io/client-go/util/workqueue/default_rate_limiters.go)",
            goal_en="Per-item exponential backoff: the n-th failure waits base x 2^n, capped, and is counted.",
            goal_zh="按 key 计数的指数退避：第 n 次失败等待 base×2^n，有上限，并记下这次失败。",
            hint_en="Read the count n (0 when unknown), store n + 1, return base_delay x 2^n capped at max_delay; "
                    "an overflow (or more than MAX_INT64 nanoseconds) also gives max_delay.",
            hint_zh="读出计数 n（没有就是 0），存回 n+1，返回 base_delay×2^n 并以 max_delay 封顶；"
                    "溢出（或超过 MAX_INT64 纳秒）时也返回 max_delay。",
            cases=when_cases,
            runs=("workqueue-retry",),
        ),
        Exercise(
            name="add_after",
            target=f"{WORKQUEUE}.delaying_queue.DelayingType.add_after",
            go_symbol="delayingType.AddAfter (k8s.io/client-go/util/workqueue/delaying_queue.go)",
            goal_en="Add an item later: park it in a min-heap by ready time, keeping only its earliest time.",
            goal_zh="稍后再加入：按就绪时间放进最小堆，同一个 key 只保留最早的时间。",
            hint_en="Ignore it while shutting down; a non-positive duration adds at once; a parked item keeps one "
                    "entry whose time only moves earlier (heap_fix); wake the waiting loop afterwards.",
            hint_zh="关闭中就忽略；时长不大于 0 直接加入；已经在堆里的 key 只保留一个条目，时间只能提前"
                    "（之后 heap_fix）；最后唤醒等待循环。",
            cases=add_after_cases,
            runs=("workqueue-retry",),
        ),
    ),
)
"""The `p2-workqueue` chapter's row of minikcm.exercises.EXERCISES."""
