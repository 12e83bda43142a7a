"""The exercise meta-test (minikcm.exercises): every exercise works in both directions.

For every exercise of the EXERCISES table: the reference solution (the port's
own function) passes its check; the untouched starting file fails it, with
NotImplementedError reported as a failure and never raised; the starting file
completed with the port's own body passes the table (so its imports suffice);
and the starting file repeats the real function's signature and docstring.
For each chapter, at least one plausible but wrong solution fails.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

from minikcm.exercises import EXERCISES, Chapter, Exercise, check_exercise, get_chapter
from minikcm.exercises.base import (
    NOT_WRITTEN,
    STARTING_FILE_MARKER,
    ExerciseResult,
    load_learner_function,
    substitute,
)
from minikcm.exercises.workspace import learner_module_name

ALL_EXERCISES = [pytest.param(chapter, ex, id=f"{chapter.id}/{ex.name}")
                 for chapter in EXERCISES.values() for ex in chapter.exercises]


def failures(result: ExerciseResult) -> str:
    return result.error or "\n".join(f"{o.name}: {o.message}" for o in result.failures())


def load(chapter: Chapter, ex: Exercise, path: Path) -> object:
    return load_learner_function(path, ex.name, learner_module_name(chapter, ex) + "_test")


# -- the table ----------------------------------------------------------------------------------------


def test_every_chapter_has_at_least_three_exercises():
    assert list(EXERCISES) == ["overview", "p1", "p2-informers", "p2-workqueue", "p3", "p4", "p5", "wait"]
    for chapter_id, chapter in EXERCISES.items():
        assert chapter.id == chapter_id
        assert len(chapter.exercises) >= 3, chapter_id


def test_start_folders_hold_exactly_the_starting_files():
    for chapter in EXERCISES.values():
        files = sorted(p.name for p in chapter.start_dir.glob("*.py") if p.name != "__init__.py")
        assert files == sorted(ex.file_name for ex in chapter.exercises), chapter.id


# -- both directions, for every exercise ------------------------------------------------------------


@pytest.mark.parametrize("chapter, ex", ALL_EXERCISES)
def test_reference_solution_passes(chapter, ex):
    result = check_exercise(ex, ex.reference())
    assert result.passed, failures(result)
    assert any(o.name for o in result.outcomes), "an exercise without cases checks nothing"


@pytest.mark.parametrize("chapter, ex", ALL_EXERCISES)
def test_untouched_starting_file_fails_every_case(chapter, ex):
    result = check_exercise(ex, load(chapter, ex, chapter.start_dir / ex.file_name))
    assert not result.passed
    table = [o for o in result.outcomes if not o.skipped]
    assert table and all(not o.ok for o in table), [o.name for o in table if o.ok]
    if ex.restore:  # the whole function minus a defence: it runs, and the cases say what broke
        assert all(not o.message.startswith(NOT_WRITTEN) for o in table), failures(result)
    else:
        assert all(o.message.startswith(NOT_WRITTEN) for o in table), failures(result)
    assert all(o.skipped for o in result.outcomes if o not in table)


@pytest.mark.parametrize("chapter, ex", ALL_EXERCISES)
def test_starting_file_completed_with_the_ports_body_passes(chapter, ex, tmp_path):
    """The starting file's imports suffice: with the port's own body pasted in, the table passes."""
    path = tmp_path / ex.file_name
    complete = (restore_the_reference_line(chapter.starting_text(ex), ex) if ex.restore
                else complete_with_reference_body(chapter.starting_text(ex), ex))
    path.write_text(complete, encoding="utf-8")
    fn = load(chapter, ex, path)
    assert fn is not ex.reference()
    result = check_exercise(ex, fn, runs=False)
    assert result.passed, failures(result)


def restore_the_reference_line(starting: str, ex: Exercise) -> str:
    """A restore exercise's starting file with its one `# exercise:` line put back as the port has it.

    Also proves the starting function is the port's, line for line, but for that line (and `self`'s annotation).
    """
    reference = textwrap.dedent(inspect.getsource(ex.reference())).splitlines()
    lines = starting.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {ex.name}("))
    body = lines[start:]
    assert len(body) == len(reference), "the starting function must keep the port's lines"
    changed = [i for i, (a, b) in enumerate(zip(body, reference)) if a != b and i > 0]
    assert len(changed) == 1 and f"# {STARTING_FILE_MARKER}" in body[changed[0]], changed
    body[changed[0]] = reference[changed[0]]
    return "\n".join(lines[:start] + body) + "\n"


def complete_with_reference_body(starting: str, ex: Exercise) -> str:
    """The starting file with its `raise NotImplementedError` line replaced by the reference's body."""
    source = textwrap.dedent(inspect.getsource(ex.reference()))
    fn_node = ast.parse(source).body[0]
    assert isinstance(fn_node, ast.FunctionDef)
    body = fn_node.body
    first = body[1] if ast.get_docstring(fn_node) is not None else body[0]
    lines = source.splitlines()[first.lineno - 1:]
    marker = f'    raise NotImplementedError("{STARTING_FILE_MARKER} '
    kept = [line for line in starting.splitlines() if not line.startswith(marker)]
    assert len(kept) == len(starting.splitlines()) - 1, "the starting file must raise exactly once"
    return "\n".join(kept) + "\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("chapter, ex", ALL_EXERCISES)
def test_starting_file_repeats_signature_and_docstring(chapter, ex):
    """The starting file is a copy: same parameters, defaults, annotations and docstring as the port's function."""
    real = ex.reference()
    start = load(chapter, ex, chapter.start_dir / ex.file_name)
    assert start.__name__ == real.__name__ == ex.name

    def shape(fn):
        sig = inspect.signature(fn)
        params = [(p.name, p.kind, p.default, None if p.name == "self" else str(p.annotation))
                  for p in sig.parameters.values()]
        return params, str(sig.return_annotation)

    assert shape(start) == shape(real)
    if real.__doc__ is not None:
        assert inspect.getdoc(start) == inspect.getdoc(real)
    else:
        assert start.__doc__, "a starting file needs a docstring even where the port has none"
    text = chapter.starting_text(ex)
    assert text.startswith(f'"""Exercise {chapter.id}/{ex.name}: ')
    assert "Check it: minikcm exercises check " + chapter.id in text


def test_substitution_is_undone():
    ex = get_chapter("p2-workqueue").exercise("add")
    original = ex.reference()

    def wrong(self, item):
        raise AssertionError("must not run after the check")

    with substitute(ex.target, wrong):
        assert ex.reference() is wrong
    assert ex.reference() is original
    fn = get_chapter("p2-informers").exercise("meta_namespace_key_func")
    import minikcm.tools.cache as cache
    import minikcm.tools.cache.the_real_fifo as the_real_fifo

    before = (cache.meta_namespace_key_func, the_real_fifo.meta_namespace_key_func)
    with substitute(fn.target, wrong):
        assert (cache.meta_namespace_key_func, the_real_fifo.meta_namespace_key_func) == (wrong, wrong)
    assert (cache.meta_namespace_key_func, the_real_fifo.meta_namespace_key_func) == before


# -- plausible but wrong solutions ----------------------------------------------------------------------

WRONG_IS_CONTROLLER_ENABLED = '''
def is_controller_enabled(name, disabled_by_default_controllers, controllers):
    # Wrong: forgets the controllers that are off by default, and lets "*" win over order.
    if "-" + name in controllers:
        return False
    return name in controllers or "*" in controllers
'''

WRONG_NEW_LEADER_ELECTOR = '''
from minikcm.tools.leaderelection.leaderelection import JITTER_FACTOR, LeaderElector


def new_leader_elector(lec, clock=None, rng=None):
    # Wrong: "<" where upstream refuses equality too.
    if lec.lease_duration < lec.renew_deadline:
        raise ValueError("leaseDuration must be greater than renewDeadline")
    if lec.renew_deadline < JITTER_FACTOR * lec.retry_period:
        raise ValueError("renewDeadline must be greater than retryPeriod*JitterFactor")
    for field, message in (("lease_duration", "leaseDuration"), ("renew_deadline", "renewDeadline"),
                           ("retry_period", "retryPeriod")):
        if getattr(lec, field) <= 0:
            raise ValueError(message + " must be greater than zero")
    if lec.callbacks.on_started_leading is None:
        raise ValueError("OnStartedLeading callback must not be nil")
    if lec.callbacks.on_stopped_leading is None:
        raise ValueError("OnStoppedLeading callback must not be nil")
    if lec.lock is None:
        raise ValueError("Lock must not be nil.")
    if lec.lock.identity() == "":
        raise ValueError("Lock identity is empty")
    return LeaderElector(lec, clock=clock, rng=rng)
'''

WRONG_TRY_ACQUIRE_OR_RENEW = '''
from datetime import timedelta

from minikcm.apimachinery import errors
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord


def try_acquire_or_renew(self):
    # Wrong: decides expiry from the record's own renewTime instead of our observed time.
    lock = self.config.lock
    now = self.clock.now()
    ler = LeaderElectionRecord(holder_identity=lock.identity(), lease_duration_seconds=int(self.config.lease_duration),
                               renew_time=now, acquire_time=now)
    try:
        old, raw = lock.get()
    except Exception as err:
        if not errors.is_not_found(err):
            return False
        try:
            lock.create(ler)
        except Exception:
            return False
        self.set_observed_record(ler)
        return True
    if raw != self.observed_raw_record:
        self.set_observed_record(old)
        self.observed_raw_record = raw
    renewed = old.renew_time or now
    live = renewed + timedelta(seconds=old.lease_duration_seconds) > now
    if old.holder_identity not in ("", lock.identity()) and live:
        return False
    if old.holder_identity == lock.identity():
        ler.acquire_time, ler.leader_transitions = old.acquire_time, old.leader_transitions
    else:
        ler.leader_transitions = old.leader_transitions + 1
    try:
        lock.update(ler)
    except Exception:
        return False
    self.set_observed_record(ler)
    return True
'''

WRONG_META_NAMESPACE_KEY_FUNC = '''
from minikcm.tools.cache.store import meta_accessor


def meta_namespace_key_func(obj):
    # Wrong: always "namespace/name", even for cluster-scoped objects and explicit keys.
    meta = meta_accessor(obj)
    return f"{meta.namespace}/{meta.name}"
'''

WRONG_IS_DELETION_DUP = '''
from minikcm.tools.cache.delta_fifo import DELETED


def is_deletion_dup(a, b):
    # Wrong: keeps the newer deletion, even when it is a tombstone.
    if a.type == DELETED and b.type == DELETED:
        return a
    return None
'''

WRONG_ADD = '''
def add(self, item):
    # Wrong: ignores the processing set, so a key being worked on is handed to a second worker.
    with self._cond:
        if self.shutting_down_flag or item in self.dirty:
            return
        self.dirty.add(item)
        self.queue.push(item)
        self._cond.notify()
'''

WRONG_WHEN = '''
def when(self, item):
    # Wrong: counts from 1, so the first retry already waits twice the base delay.
    with self._lock:
        self.failures[item] = self.failures.get(item, 0) + 1
        return min(self.base_delay * 2 ** self.failures[item], self.max_delay)
'''

WRONG_EXPONENTIAL_BACKOFF = '''
from dataclasses import replace

from minikcm.apimachinery.wait import WaitTimeoutError
from minikcm.clock import or_real


def exponential_backoff(backoff, condition, clock=None):
    # Wrong: sleeps after the last try as well.
    clk = or_real(clock)
    backoff = replace(backoff)
    for _ in range(backoff.steps):
        if condition():
            return
        clk.sleep(backoff.step())
    raise WaitTimeoutError()
'''

WRONG_BACKOFF_UNTIL = '''
def backoff_until(f, backoff, sliding, stop):
    # Wrong: looks at stop only after waiting, so a stopped loop still calls f once.
    while True:
        timer = backoff.backoff() if not sliding else None
        f()
        if sliding:
            timer = backoff.backoff()
        if not timer.wait(stop):
            timer.stop()
            return
'''

WRONG_RESOLVE_FENCEPOSTS = '''
from minikcm.apimachinery import intstr


def resolve_fenceposts(max_surge, max_unavailable, desired):
    # Wrong: rounds the surge down too, so 25% of 10 allows 2 extra pods instead of 3.
    surge = intstr.get_scaled_value_from_int_or_percent(intstr.value_or_default(max_surge, 0), desired, False)
    unavailable = intstr.get_scaled_value_from_int_or_percent(intstr.value_or_default(max_unavailable, 0), desired, False)
    if surge == 0 and unavailable == 0:
        unavailable = 1
    return surge, unavailable
'''

WRONG_RECONCILE_OLD_REPLICA_SETS = '''
from minikcm.controller.deployment.util import deployment_util as util


def reconcile_old_replica_sets(self, all_rss, old_rss, new_rs, deployment):
    # Wrong: forgets the new ReplicaSet's unavailable pods, so a broken template drains the old pods.
    if util.get_replica_count_for_replica_sets(list(old_rss)) == 0:
        return False
    min_available = (deployment.spec.replicas or 0) - util.max_unavailable(deployment)
    max_scaled_down = util.get_replica_count_for_replica_sets(all_rss) - min_available
    if max_scaled_down <= 0:
        return False
    try:
        old_rss, cleaned = self.cleanup_unhealthy_replicas(old_rss, deployment, max_scaled_down)
        scaled = self.scale_down_old_replica_sets_for_rolling_update([*old_rss, new_rs], old_rss, deployment)
    except Exception:
        return False
    return cleaned + scaled > 0
'''

WRONG_SLOW_START_BATCH = '''
def slow_start_batch(count, initial_batch_size, fn, *, inline=False):
    # Wrong: does not stop at the first failed batch, so a broken template costs every create.
    remaining, successes, first_error = count, 0, None
    batch_size = min(remaining, initial_batch_size)
    while batch_size > 0:
        for _ in range(batch_size):
            try:
                fn()
                successes += 1
            except Exception as err:
                first_error = first_error or err
        remaining -= batch_size
        batch_size = min(2 * batch_size, remaining)
    return successes, first_error
'''

WRONG_SATISFIED_EXPECTATIONS = '''
def satisfied_expectations(self, controller_key):
    # Wrong: forgets that expectations expire, so one lost watch event stalls the ReplicaSet for good.
    exp, exists = self.get_expectations(controller_key)
    if exists:
        return exp.fulfilled()
    return True
'''

WRONG_PROCESS_REPLICA = '''
from minikcm.apimachinery.convert import deep_copy
from minikcm.controller.statefulset.stateful_set_utils import (
    identity_matches, is_created, is_failed, is_pending, is_succeeded, storage_matches,
)


def process_replica(self, set_, update_set, monotonic, replicas, i, now):
    # Wrong: OrderedReady never waits for the pod to be Running and Ready, so web-1 starts beside web-0.
    replica = replicas[i]
    if is_failed(replica) or is_succeeded(replica):
        if replica.metadata.deletion_timestamp is None:
            self.pod_control.delete_stateful_pod(set_, replica)
        return True
    if not is_created(replica):
        if self.pod_control.pod_claim_is_stale(set_, replica):
            return True
        self.pod_control.create_stateful_pod(set_, replica)
    if is_pending(replica):
        self.pod_control.create_missing_persistent_volume_claims(set_, replica)
    if identity_matches(set_, replica) and storage_matches(set_, replica):
        return False
    self.pod_control.update_stateful_pod(update_set, deep_copy(replica))
    return False
'''

WRONG_UPDATE_AFTER_INVARIANT = '''
from minikcm.apimachinery import errors
from minikcm.controller.statefulset.stateful_set_utils import (
    get_pod_revision, get_stateful_set_max_unavailable, is_terminating, is_unavailable,
)


def update_stateful_set_after_invariant_established(ssc, set_, replicas, update_revision, status, now):
    # Wrong: "target > partition" where upstream has >=, so the pod at the partition is never updated.
    rolling = set_.spec.update_strategy.rolling_update if set_.spec.update_strategy else None
    partition, max_unavailable = 0, 1
    if rolling is not None:
        partition = rolling.partition or 0
        try:
            max_unavailable = get_stateful_set_max_unavailable(rolling.max_unavailable, set_.spec.replicas or 0)
        except ValueError as err:
            return status, err
    unavailable = sum(1 for pod in replicas if is_unavailable(pod, set_.spec.min_ready_seconds or 0, now))
    deleted, target = 0, len(replicas) - 1
    while target > partition and deleted < max_unavailable - unavailable:
        pod = replicas[target]
        if get_pod_revision(pod) != update_revision.metadata.name and not is_terminating(pod):
            try:
                ssc.pod_control.delete_stateful_pod(set_, pod)
            except Exception as err:
                if not errors.is_not_found(err):
                    return status, err
            deleted += 1
            status.current_replicas = (status.current_replicas or 0) - 1
        target -= 1
    return status, None
'''

WRONG_SOLUTIONS = [
    # chapter,        exercise,                  source,                         a case that must fail
    pytest.param("overview", "is_controller_enabled", WRONG_IS_CONTROLLER_ENABLED, "off by default",
                 id="overview/is_controller_enabled-ignores-defaults"),
    pytest.param("p1", "new_leader_elector", WRONG_NEW_LEADER_ELECTOR, "lease-not-above-renew",
                 id="p1/new_leader_elector-accepts-equal-durations"),
    pytest.param("p1", "try_acquire_or_renew", WRONG_TRY_ACQUIRE_OR_RENEW, "expiry-is-judged-on-our-own-clock",
                 id="p1/try_acquire_or_renew-trusts-the-record's-times"),
    pytest.param("p2-informers", "meta_namespace_key_func", WRONG_META_NAMESPACE_KEY_FUNC,
                 "cluster-scoped-has-no-slash", id="p2-informers/key-always-has-a-slash"),
    pytest.param("p2-informers", "is_deletion_dup", WRONG_IS_DELETION_DUP, "a-tombstone-after-a-real-deletion",
                 id="p2-informers/dedup-keeps-the-tombstone"),
    pytest.param("p2-workqueue", "add", WRONG_ADD, "re-add-while-processing-waits-for-done",
                 id="p2-workqueue/add-ignores-processing"),
    pytest.param("p2-workqueue", "when", WRONG_WHEN, "doubles-per-item-and-forget-resets",
                 id="p2-workqueue/when-counts-from-one"),
    pytest.param("p3", "resolve_fenceposts", WRONG_RESOLVE_FENCEPOSTS, "39%-of-10-surge-rounds-up",
                 id="p3/resolve_fenceposts-rounds-surge-down"),
    pytest.param("p3", "reconcile_old_replica_sets", WRONG_RECONCILE_OLD_REPLICA_SETS,
                 "broken-new-template-keeps-unhealthy-old", id="p3/reconcile_old-ignores-unavailable-new-pods"),
    pytest.param("p4", "slow_start_batch", WRONG_SLOW_START_BATCH, "6-to-10-fail-the-batch-of-4-finishes",
                 id="p4/slow_start_batch-does-not-stop-at-the-first-error"),
    pytest.param("p4", "satisfied_expectations", WRONG_SATISFIED_EXPECTATIONS, "expire-after-the-timeout-not-at-it",
                 id="p4/satisfied_expectations-never-expire"),
    pytest.param("p5", "process_replica", WRONG_PROCESS_REPLICA, "running-not-ready-ordered-waits",
                 id="p5/process_replica-does-not-wait-for-readiness"),
    pytest.param("p5", "update_stateful_set_after_invariant_established", WRONG_UPDATE_AFTER_INVARIANT,
                 "the-pod-at-the-partition-is-updated", id="p5/rolling-update-skips-the-partition-ordinal"),
    pytest.param("wait", "exponential_backoff", WRONG_EXPONENTIAL_BACKOFF, "never-true-gives-up-after-steps",
                 id="wait/exponential_backoff-sleeps-after-the-last-try"),
    pytest.param("wait", "backoff_until", WRONG_BACKOFF_UNTIL, "stopped-before-start-never-calls-f",
                 id="wait/backoff_until-calls-f-after-stop"),
]


@pytest.mark.parametrize("chapter_id, name, source, failing_case", WRONG_SOLUTIONS)
def test_plausible_but_wrong_solution_fails(chapter_id, name, source, failing_case, tmp_path):
    chapter = get_chapter(chapter_id)
    ex = chapter.exercise(name)
    path = tmp_path / ex.file_name
    path.write_text(source, encoding="utf-8")
    result = check_exercise(ex, load(chapter, ex, path))
    assert not result.passed
    failed = {o.name: o.message for o in result.failures()}
    assert failing_case in failed, sorted(failed)
    assert not failed[failing_case].startswith(NOT_WRITTEN)


def test_every_chapter_has_a_plausible_wrong_solution():
    assert {p.values[0] for p in WRONG_SOLUTIONS} == set(EXERCISES)


def test_a_loop_that_ignores_stop_is_cut_off(tmp_path):
    """A backoff loop that never stops fails its case through a budget instead of hanging the check."""
    chapter = get_chapter("wait")
    ex = chapter.exercise("backoff_until")
    path = tmp_path / ex.file_name
    path.write_text("def backoff_until(f, backoff, sliding, stop):\n"
                    "    while True:\n"
                    "        f()\n"
                    "        backoff.backoff().wait(None)\n", encoding="utf-8")
    result = check_exercise(ex, load(chapter, ex, path))
    messages = [o.message for o in result.failures()]
    assert any("the loop does not stop" in m for m in messages), messages


# -- the exercise pages ------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("page", ["exercises.md", "exercises.en.md"])
def test_exercise_pages_describe_every_exercise(page):
    """docs/exercises*.md: a section per chapter, a heading per exercise with the same ids in both languages."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for chapter in EXERCISES.values():
        assert f"{{ #{chapter.id} }}" in text, chapter.id
        assert f"minikcm exercises check {chapter.id}" in text
        if chapter.reading_map:
            assert f"]({chapter.reading_map})" in text
        for ex in chapter.exercises:
            anchor = f"{chapter.id}-{ex.name.replace('_', '-')}"
            assert f"### `{ex.file_name}` {{ #{anchor} }}" in text, anchor
