"""Port of k8s.io/client-go/tools/record: the event recorder controllers report through.

A controller's `EventRecorder` turns "what I just did to this object" into a
core/v1 Event and queues it on an `EventBroadcaster`; the broadcaster's step
passes it through the `EventCorrelator` (aggregation, counting, spam filter)
and writes it with the clientset, so `kubectl get events` shows the story.
`FakeRecorder` collects the same reports as strings for controller tests.
EVENT_TYPE_NORMAL and EVENT_TYPE_WARNING (Go: core/v1's EventTypeNormal and
EventTypeWarning) come from record/util.
"""

from minikcm.tools.record.event import (
    DEFAULT_SLEEP_DURATION,
    MAX_QUEUED_EVENTS,
    MAX_TRIES_PER_EVENT,
    CorrelatorOptions,
    EventBroadcaster,
    EventBroadcasterImpl,
    EventRecorder,
    EventRecorderLogger,
    EventSink,
    EventSinkImpl,
    RecorderImpl,
    new_broadcaster,
    new_broadcaster_for_tests,
    new_broadcaster_with_correlator_options,
    new_event_sink,
)
from minikcm.tools.record.events_cache import (
    EventAggregator,
    EventCorrelateResult,
    EventCorrelator,
    EventSourceObjectSpamFilter,
    event_aggregator_by_reason_func,
    event_aggregator_by_reason_message_func,
    new_event_correlator,
    new_event_correlator_with_options,
)
from minikcm.tools.record.fake import FakeRecorder, new_fake_recorder
from minikcm.tools.record.util import EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING

__all__ = [
    "DEFAULT_SLEEP_DURATION",
    "EVENT_TYPE_NORMAL",
    "EVENT_TYPE_WARNING",
    "MAX_QUEUED_EVENTS",
    "MAX_TRIES_PER_EVENT",
    "CorrelatorOptions",
    "EventAggregator",
    "EventBroadcaster",
    "EventBroadcasterImpl",
    "EventCorrelateResult",
    "EventCorrelator",
    "EventRecorder",
    "EventRecorderLogger",
    "EventSink",
    "EventSinkImpl",
    "EventSourceObjectSpamFilter",
    "FakeRecorder",
    "RecorderImpl",
    "event_aggregator_by_reason_func",
    "event_aggregator_by_reason_message_func",
    "new_broadcaster",
    "new_broadcaster_for_tests",
    "new_broadcaster_with_correlator_options",
    "new_event_correlator",
    "new_event_correlator_with_options",
    "new_event_sink",
    "new_fake_recorder",
]
