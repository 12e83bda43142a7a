"""Tests for minikcm/tools/record/event.py (ports of event_test.go, plus our own)."""

from __future__ import annotations

import logging
import random
import threading
from datetime import timedelta

import pytest
from kubernetes.client import (
    CoreV1Event,
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1EventSource,
    V1LabelSelector,
    V1Lease,
    V1ObjectMeta,
    V1ObjectReference,
    V1Pod,
    V1PodSpec,
    V1PodTemplateSpec,
)

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import GroupResource
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.tools.record.event import (
    MAX_QUEUED_EVENTS,
    RequestConstructionError,
    new_broadcaster,
    new_event_sink,
)
from minikcm.tools.record.events_cache import new_event_correlator, unix_nano
from minikcm.tools.record.gofmt import go_sprintf
from minikcm.tools.reference import get_partial_reference, get_reference

from .record_testing import CachingSink, EventSinkForTests, SimpleIntervalClock, validate_event

RECORD_LOGGER = "minikcm.tools.record.event"
SOURCE = V1EventSource(component="eventTest")
TEST_POD = V1Pod(metadata=V1ObjectMeta(name="foo", namespace="baz", uid="bar"))
TEST_POD2 = V1Pod(metadata=V1ObjectMeta(name="foo", namespace="baz", uid="differentUid"))
TEST_REF = get_partial_reference(None, TEST_POD, "spec.containers[2]")
TEST_REF2 = get_partial_reference(None, TEST_POD2, "spec.containers[3]")


class Harness:
    """A deterministic broadcaster (sleep 0) on a driven fake clock, its driver, and a recorder."""

    def __init__(self, sleep_duration: float = 0.0, rng: random.Random | None = None) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.broadcaster = new_broadcaster(sleep_duration=sleep_duration, clock=self.clock, rng=rng)
        self.driver = Driver(self.clock, self.broadcaster.steps())
        self.recorder = self.broadcaster.new_recorder(None, SOURCE)


def expected_event(ref: V1ObjectReference, reason: str, message: str, count: int,
                   namespace: str | None = "baz") -> CoreV1Event:
    return CoreV1Event(metadata=V1ObjectMeta(name="foo", namespace=namespace),
                       involved_object=V1ObjectReference(kind="Pod", name="foo", namespace=ref.namespace, uid=ref.uid,
                                                         api_version="v1", field_path=ref.field_path),
                       reason=reason, message=message, source=SOURCE, count=count, type="Normal")


def expected_log(ref: V1ObjectReference, reason: str, message: str) -> str:
    return (f'Event(v1.ObjectReference{{Kind:"Pod", Namespace:"{ref.namespace or ""}", Name:"foo", '
            f'UID:"{ref.uid}", APIVersion:"v1", ResourceVersion:"", FieldPath:"{ref.field_path or ""}"}}): '
            f"type: 'Normal' reason: '{reason}' {message}")


def expected_structured_log(ref: V1ObjectReference, reason: str, message: str) -> str:
    return (f'Event occurred object="baz/foo" fieldPath="{ref.field_path or ""}" kind="Pod" apiVersion="v1" '
            f'type="Normal" reason="{reason}" message="{message}"')


# The rows run in order: a row's expected count depends on the rows before it.
#        object      reason     message format                     reference for expectations   count  patched
EVENTF_ROWS = [
    (TEST_REF, "Started", "some verbose message: %v", TEST_REF, 1, False),
    (TEST_POD, "Killed", "some other verbose message: %v", get_reference(None, TEST_POD), 1, False),
    (TEST_REF, "Started", "some verbose message: %v", TEST_REF, 2, True),
    (TEST_REF2, "Started", "some verbose message: %v", TEST_REF2, 1, False),
    (TEST_REF, "Started", "some verbose message: %v", TEST_REF, 3, True),
    (TEST_REF2, "Stopped", "some verbose message: %v", TEST_REF2, 1, False),
    (TEST_REF2, "Stopped", "some verbose message: %v", TEST_REF2, 2, True),
]


def test_eventf(caplog):
    """Port of TestEventf (event_test.go)."""
    h = Harness()
    sink = CachingSink()
    h.broadcaster.start_recording_to_sink(sink)
    caplog.set_level(logging.INFO, logger=RECORD_LOGGER)
    for index, (obj, reason, fmt, ref, count, patched) in enumerate(EVENTF_ROWS):
        h.clock.step(1)
        logged: list[str] = []
        log_watcher = h.broadcaster.start_logging(lambda f, *args: logged.append(go_sprintf(f, *args)))
        caplog.clear()
        structured_watcher = h.broadcaster.start_structured_logging(0)

        h.recorder.eventf(obj, "Normal", reason, fmt, 1)
        h.driver.run_until_idle()

        message = fmt.replace("%v", "1")
        assert logged == [expected_log(ref, reason, message)], index
        assert [r.getMessage() for r in caplog.records] == [expected_structured_log(ref, reason, message)], index
        assert len(sink.calls) == index + 1
        assert sink.calls[-1].verb == ("patch" if patched else "create"), index
        validate_event(str(index), sink.calls[-1].event, expected_event(ref, reason, message, count))
        log_watcher.stop()
        structured_watcher.stop()


def test_start_logging_format_also_works_with_python_logging():
    h = Harness()
    lines: list[str] = []
    h.broadcaster.start_logging(lambda f, *args: lines.append(f % args))
    h.recorder.eventf(TEST_REF, "Normal", "Started", "some verbose message: %v", 1)
    h.driver.run_until_idle()
    assert lines == [expected_log(TEST_REF, "Started", "some verbose message: 1")]


WRITE_EVENT_ERROR_CASES = [
    #            times to send error  attempts wanted       error
    pytest.param(1000, 1, RequestConstructionError(), id="giveUp1"),
    pytest.param(1000, 1, errors.StatusError({}), id="giveUp2"),
    pytest.param(1000, 12, errors.UnexpectedObjectError(None), id="retry1"),
    pytest.param(1000, 12, Exception("A weird error"), id="retry2"),
    pytest.param(2, 2, Exception("A weird error"), id="succeedEventually"),
]


@pytest.mark.parametrize("times_to_send_error, attempts_wanted, err", WRITE_EVENT_ERROR_CASES)
def test_write_event_error(times_to_send_error, attempts_wanted, err):
    """Port of TestWriteEventError (event_test.go)."""
    correlator = new_event_correlator(SimpleIntervalClock(EPOCH, 1.0))
    attempts = 0

    def on_create(event: CoreV1Event) -> CoreV1Event:
        nonlocal attempts
        attempts += 1
        if attempts < times_to_send_error:
            raise err
        return event

    broadcaster = new_broadcaster(sleep_duration=0, clock=FakeClock(EPOCH, driven=True))
    event = CoreV1Event(metadata=V1ObjectMeta(), involved_object=V1ObjectReference())
    broadcaster.record_to_sink(EventSinkForTests(on_create=on_create), event, correlator)
    assert attempts == attempts_wanted


def test_update_expired_event():
    """Port of TestUpdateExpiredEvent (event_test.go)."""
    correlator = new_event_correlator(SimpleIntervalClock(EPOCH, 1.0))
    created: list[CoreV1Event] = []

    def on_patch(event: CoreV1Event, data: bytes) -> CoreV1Event:
        raise errors.new_not_found(GroupResource("", "events"), "gone")

    def on_create(event: CoreV1Event) -> CoreV1Event:
        created.append(event)
        return event

    broadcaster = new_broadcaster(sleep_duration=0, clock=FakeClock(EPOCH, driven=True))
    event = CoreV1Event(metadata=V1ObjectMeta(resource_version="updated-resource-version"),
                        involved_object=V1ObjectReference(), count=2)
    broadcaster.record_to_sink(EventSinkForTests(on_create=on_create, on_patch=on_patch), event, correlator)

    assert len(created) == 1, "Event did not get created after patch failed"
    assert not created[0].metadata.resource_version


def test_cancel_event():
    """Port of TestCancelEvent (event_test.go)."""
    correlator = new_event_correlator(SimpleIntervalClock(EPOCH, 1.0))
    attempts = 0

    def on_create(event: CoreV1Event) -> CoreV1Event:
        nonlocal attempts
        attempts += 1
        raise errors.UnexpectedObjectError(None)

    broadcaster = new_broadcaster(sleep_duration=1.0, clock=FakeClock(EPOCH, driven=True))
    broadcaster.shutdown()  # cancelled before recording even starts
    event = CoreV1Event(metadata=V1ObjectMeta(), involved_object=V1ObjectReference())
    broadcaster.record_to_sink(EventSinkForTests(on_create=on_create), event, correlator)
    assert attempts == 1


def test_lots_of_events(caplog):
    """Port of TestLotsOfEvents (event_test.go): every event is retried until written, none dropped."""
    caplog.set_level(logging.CRITICAL, logger=RECORD_LOGGER)  # 4000 "may retry" errors
    counts = [0] * MAX_QUEUED_EVENTS
    written: list[int] = []

    def on_create(event: CoreV1Event) -> CoreV1Event:
        num = int(event.message)
        counts[num] += 1
        if counts[num] < 5:
            raise Exception("fake error")
        written.append(num)
        return event

    h = Harness()
    sink_watcher = h.broadcaster.start_recording_to_sink(EventSinkForTests(on_create=on_create))
    logged: list[str] = []
    log_watcher = h.broadcaster.start_logging(lambda f, *args: logged.append(f))
    for i in range(MAX_QUEUED_EVENTS):
        ref = V1ObjectReference(kind="Pod", name=f"foo-{i}", namespace="baz", uid="bar", api_version="version")
        h.recorder.eventf(ref, "Normal", f"Reason-{i}", "%s", str(i))
    h.driver.run_until_idle()

    assert sorted(written) == list(range(MAX_QUEUED_EVENTS))
    assert len(logged) == MAX_QUEUED_EVENTS
    assert counts == [5] * MAX_QUEUED_EVENTS
    sink_watcher.stop()
    log_watcher.stop()


def test_eventf_no_namespace():
    """Port of TestEventfNoNamespace (event_test.go)."""
    pod = V1Pod(metadata=V1ObjectMeta(name="foo", uid="bar"))
    ref = get_partial_reference(None, pod, "spec.containers[2]")
    h = Harness()
    sink = CachingSink()
    h.broadcaster.start_recording_to_sink(sink)
    h.clock.step(1)
    logged: list[str] = []
    h.broadcaster.start_logging(lambda f, *args: logged.append(go_sprintf(f, *args)))

    h.recorder.eventf(ref, "Normal", "Started", "some verbose message: %v", 1)
    h.driver.run_until_idle()

    assert logged == [expected_log(ref, "Started", "some verbose message: 1")]
    assert [c.verb for c in sink.calls] == ["create"]
    validate_event("0", sink.calls[0].event,
                   expected_event(ref, "Started", "some verbose message: 1", 1, namespace="default"))


def test_multi_sink_cache():
    """Port of TestMultiSinkCache (event_test.go): a second sink starts with a clean cache."""
    h = Harness()
    sinks = [CachingSink(), CachingSink()]
    for sink in sinks:
        watcher = h.broadcaster.start_recording_to_sink(sink)
        for index, (obj, reason, fmt, ref, count, patched) in enumerate(EVENTF_ROWS):
            h.clock.step(1)
            h.recorder.eventf(obj, "Normal", reason, fmt, 1)
            h.driver.run_until_idle()
            assert sink.calls[-1].verb == ("patch" if patched else "create"), index
            validate_event(str(index), sink.calls[-1].event,
                           expected_event(ref, reason, fmt.replace("%v", "1"), count))
        watcher.stop()
    assert [len(s.calls) for s in sinks] == [len(EVENTF_ROWS)] * 2


# --- threaded (ports of the shutdown tests) -----------------------------------------------------------


@pytest.mark.threaded
def test_broadcaster_shutdown():
    """Port of TestBroadcasterShutdown (event_test.go): setting `stop` ends every broadcaster thread."""
    stop = threading.Event()
    caster = new_broadcaster(stop=stop)
    caster.start_structured_logging(0)
    stop.set()
    caster.thread.join(timeout=2)
    assert not caster.thread.is_alive()
    assert caster.cancelled()
    caster.context_thread.join(timeout=2)
    assert not caster.context_thread.is_alive()


@pytest.mark.threaded
def test_start_event_watcher_exits_on_direct_shutdown():
    """Port of TestStartEventWatcherExitsOnDirectShutdown (event_test.go)."""
    caster = new_broadcaster(sleep_duration=0)
    caster.start_structured_logging(0)
    caster.shutdown()
    caster.thread.join(timeout=2)
    assert not caster.thread.is_alive()


@pytest.mark.threaded
def test_non_racy_shutdown():
    """Port of TestNonRacyShutdown (event_test.go): recording from many threads, then shutdown."""
    caster = new_broadcaster(sleep_duration=0, clock=FakeClock(EPOCH))
    recorder = caster.new_recorder(None, SOURCE)
    threads = [threading.Thread(target=recorder.eventf, args=(V1ObjectReference(), "Normal", "Started", "blah"))
               for _ in range(100)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    caster.shutdown()
    caster.thread.join(timeout=2)
    assert not caster.thread.is_alive()


@pytest.mark.threaded
def test_threaded_mode_writes_to_the_sink():
    written = threading.Event()
    sink = EventSinkForTests(on_create=lambda e: (written.set(), e)[1])
    caster = new_broadcaster(sleep_duration=0)
    assert caster.thread is not None and caster.thread.name == "watch/broadcaster"
    caster.start_recording_to_sink(sink)
    assert [t.name for t in threading.enumerate() if t.name.startswith("record/watcher-")] != []
    caster.new_recorder(None, SOURCE).eventf(TEST_POD, "Normal", "Started", "hello")
    assert written.wait(timeout=2)
    caster.shutdown()


@pytest.mark.threaded
def test_watcher_threads_end_on_stop_and_on_shutdown():
    caster = new_broadcaster(sleep_duration=0)
    handled = threading.Event()
    first = caster.start_event_watcher(lambda e: handled.set())
    caster.start_structured_logging(0)
    loops = list(caster._event_watchers)
    assert [w.thread.name for w in loops] == [f"record/watcher-{first.id}", f"record/watcher-{first.id + 1}"]
    caster.new_recorder(None, SOURCE).eventf(TEST_POD, "Normal", "Started", "hello")
    assert handled.wait(timeout=2)
    first.stop()
    loops[0].thread.join(timeout=2)
    assert not loops[0].thread.is_alive() and loops[1].thread.is_alive()
    caster.shutdown()
    loops[1].thread.join(timeout=2)
    assert not loops[1].thread.is_alive()


# --- our own: retries on the clock, the step, shutdown, the queue -----------------------------------------


def test_retries_wait_on_the_injected_clock():
    h = Harness(sleep_duration=10.0, rng=random.Random(7))
    tries: list[float] = []

    def on_create(event: CoreV1Event) -> CoreV1Event:
        tries.append((h.clock.now() - EPOCH).total_seconds())
        raise Exception("connection refused")

    h.broadcaster.start_recording_to_sink(EventSinkForTests(on_create=on_create))
    h.recorder.eventf(TEST_POD, "Warning", "Failed", "boom")
    h.driver.run_until_idle()

    first_pause = 10.0 * random.Random(7).random()
    assert len(tries) == 12
    assert tries[:2] == [0.0, pytest.approx(first_pause)]
    assert tries[2:] == [pytest.approx(first_pause + 10.0 * i) for i in range(1, 11)]
    assert h.broadcaster.next_retry_time() is None  # given up


def test_a_parked_retry_holds_back_its_sink_only():
    h = Harness(sleep_duration=10.0, rng=random.Random(1))
    calls: list[str] = []

    def on_create(event: CoreV1Event) -> CoreV1Event:
        calls.append(event.reason)
        if len(calls) == 1:
            raise Exception("connection refused")
        return event

    logged: list[str] = []
    h.broadcaster.start_recording_to_sink(EventSinkForTests(on_create=on_create))
    h.broadcaster.start_logging(lambda f, *args: logged.append(args[2]))
    h.recorder.event(TEST_POD, "Normal", "A", "first")
    h.recorder.event(TEST_POD, "Normal", "B", "second")

    while h.driver.run_once():  # every round due now: the delivery round, then the sinks' round
        pass
    assert logged == ["A", "B"] and calls == ["A"]
    assert h.broadcaster.next_retry_time() == EPOCH + timedelta(seconds=10.0 * random.Random(1).random())
    h.driver.run_until_idle()
    assert calls == ["A", "A", "B"]


def test_shutdown_drops_a_parked_retry():
    h = Harness(sleep_duration=10.0)
    attempts = []
    h.broadcaster.start_recording_to_sink(
        EventSinkForTests(on_create=lambda e: attempts.append(e) or (_ for _ in ()).throw(Exception("down"))))
    h.recorder.event(TEST_POD, "Normal", "Started", "x")
    while h.driver.run_once():  # every round due now: the delivery round, then the sinks' round
        pass
    h.broadcaster.shutdown()
    h.driver.run_until_idle()
    assert len(attempts) == 1
    assert h.clock.now() == EPOCH
    h.recorder.event(TEST_POD, "Normal", "Started", "refused")  # logged, not raised


def test_stop_event_shuts_the_broadcaster_down_in_a_step():
    stop = threading.Event()
    caster = new_broadcaster(stop=stop, clock=FakeClock(EPOCH, driven=True))
    assert [s.name for s in caster.steps()] == ["watch/broadcaster", "record/broadcaster"]
    step = caster.steps()[1]
    assert not step.ready()
    stop.set()
    assert step.ready()
    step.run()
    assert caster.cancelled() and not step.ready()


def test_full_queue_drops_events(caplog):
    h = Harness()
    logged: list[str] = []
    h.broadcaster.start_logging(lambda f, *args: logged.append(args[3]))
    for i in range(MAX_QUEUED_EVENTS + 1):
        h.recorder.event(V1ObjectReference(kind="Pod", name=f"p{i}", namespace="ns"), "Normal", "R", str(i))
    assert "too many queued events" in caplog.text
    h.driver.run_until_idle()
    assert logged == [str(i) for i in range(MAX_QUEUED_EVENTS)]


def test_watcher_sees_only_events_recorded_after_it_started():
    h = Harness()
    early: list[str] = []
    h.broadcaster.start_event_watcher(lambda e: early.append(e.message))
    h.recorder.event(TEST_POD, "Normal", "R", "before")
    late: list[str] = []
    h.broadcaster.start_event_watcher(lambda e: late.append(e.message))
    h.recorder.event(TEST_POD, "Normal", "R", "after")
    h.driver.run_until_idle()
    assert early == ["before", "after"] and late == ["after"]


def test_mode_follows_the_clock():
    assert new_broadcaster(clock=FakeClock(EPOCH, driven=True)).thread is None
    threaded = new_broadcaster(clock=FakeClock(EPOCH))
    assert threaded.thread is not None and "threaded" in repr(threaded)
    threaded.shutdown()


def test_recorder_builds_the_event(caplog):
    h = Harness()
    events: list[CoreV1Event] = []
    h.broadcaster.start_event_watcher(events.append)
    h.recorder.annotated_eventf(TEST_POD, {"a": "b"}, "Warning", "FailedCreate", "Error creating: %v", "quota")
    h.recorder.event(TEST_POD, "Bogus", "R", "dropped: unknown type")
    h.recorder.event(None, "Normal", "R", "dropped: no object")
    h.driver.run_until_idle()

    assert len(events) == 1
    e = events[0]
    assert e.metadata.name == f"foo.{unix_nano(EPOCH):x}" and e.metadata.namespace == "baz"
    assert e.metadata.annotations == {"a": "b"}
    assert (e.type, e.reason, e.message, e.count) == ("Warning", "FailedCreate", "Error creating: quota", 1)
    assert e.first_timestamp == e.last_timestamp == EPOCH
    assert (e.source, e.reporting_component, e.reporting_instance) == (SOURCE, "eventTest", None)
    assert "Unsupported event type 'Bogus'" in caplog.text
    assert "Could not construct reference" in caplog.text


def new_deployment(name: str) -> V1Deployment:
    labels = {"app": name}
    return V1Deployment(
        metadata=V1ObjectMeta(name=name, namespace="default"),
        spec=V1DeploymentSpec(selector=V1LabelSelector(match_labels=labels), template=V1PodTemplateSpec(
            metadata=V1ObjectMeta(labels=labels), spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))))


# --- integration: through the clientset into the embedded API server -----------------------------------


def test_identical_events_become_one_counted_event_in_the_api_server():
    clock = FakeClock(EPOCH, driven=True)
    cs = new_simple_clientset(clock=clock)
    deployment = cs.apps_v1().deployments("default").create(new_deployment("web"))
    other = cs.apps_v1().deployments("default").create(new_deployment("api"))
    caster = new_broadcaster(clock=clock)
    caster.start_recording_to_sink(new_event_sink(cs.core_v1().events("")))
    recorder = caster.new_recorder(None, V1EventSource(component="deployment-controller"))
    driver = Driver(clock, caster.steps())

    for _ in range(12):
        recorder.eventf(deployment, "Normal", "ScalingReplicaSet", "Scaled up replica set %s to %d", "web-5d", 3)
        driver.run_until_idle()
        clock.step(1)
    recorder.eventf(other, "Normal", "ScalingReplicaSet", "Scaled up replica set %s to %d", "api-7f", 1)
    driver.run_until_idle()

    listed = cs.core_v1().events("default").list(ListOptions(field_selector="involvedObject.name=web")).items
    assert len(listed) == 1
    event = listed[0]
    assert event.count == 12
    assert event.message == "Scaled up replica set web-5d to 3"
    assert event.involved_object.kind == "Deployment" and event.involved_object.api_version == "apps/v1"
    assert event.involved_object.uid == deployment.metadata.uid
    assert event.first_timestamp == EPOCH and event.last_timestamp == EPOCH + timedelta(seconds=11)
    assert event.source.component == "deployment-controller"
    assert len(cs.core_v1().events("default").list(ListOptions()).items) == 2


def test_leader_election_lease_event_reaches_the_api_server():
    clock = FakeClock(EPOCH, driven=True)
    cs = new_simple_clientset(clock=clock)
    caster = new_broadcaster(clock=clock)
    caster.start_recording_to_sink(new_event_sink(cs.core_v1().events("")))
    recorder = caster.new_recorder(None, V1EventSource(component="kube-controller-manager"))
    lease = V1Lease(api_version="coordination.k8s.io/v1", kind="Lease",
                    metadata=V1ObjectMeta(name="kube-controller-manager", namespace="kube-system", uid="u1"))

    recorder.eventf(lease, "Normal", "LeaderElection", "%s", "ctrl-a became leader")
    Driver(clock, caster.steps()).run_until_idle()

    [event] = cs.core_v1().events("kube-system").list(ListOptions()).items
    assert (event.reason, event.message, event.involved_object.kind) == (
        "LeaderElection", "ctrl-a became leader", "Lease")


def test_events_at_the_same_fake_instant_get_distinct_names():
    # A fake clock repeats instants; the broadcaster must still hand out unique names.
    from minikcm.clock import FakeClock
    from minikcm.tools.record.event import new_broadcaster

    clock = FakeClock()
    b = new_broadcaster(clock=clock)
    t = clock.now()
    stamps = [b.unique_unix_nano(t) for _ in range(3)]
    assert stamps == sorted(set(stamps)) and len(stamps) == 3
    b2 = new_broadcaster(clock=FakeClock())
    assert b2.unique_unix_nano(t) == stamps[0], "a fresh broadcaster starts again (determinism)"
