"""The step language of TestConflictingData (garbagecollector_test.go), ported.

A scenario is a list of steps run against one collector whose three queues
are TrackingWorkqueues, whose client is a fake clientset and whose event
recorder is a FakeRecorder; `assert_state` compares the graph, the queues,
the absent-owner cache, the client actions and the events with what the
scenario expects (and clears the actions and events it saw).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from minikcm.apimachinery.schema import GroupVersionResource
from minikcm.client.inprocess import InProcessClientset
from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector
from minikcm.controller.garbagecollector.graph import Node, ObjectReference
from minikcm.controller.garbagecollector.graph_builder import Event
from minikcm.controller.garbagecollector.uid_cache import new_reference_cache
from minikcm.tools.record.fake import FakeRecorder, new_fake_recorder

from .gc_testing import TrackingWorkqueue, event_summary, install_tracking_queues, new_test_gc


@dataclass
class StepContext:
    """Port of stepContext."""

    gc: GarbageCollector
    client: InProcessClientset
    event_recorder: FakeRecorder
    attempt_to_delete: TrackingWorkqueue
    attempt_to_orphan: TrackingWorkqueue
    graph_changes: TrackingWorkqueue


@dataclass
class ScenarioStep:
    """Port of step: a name (for failure messages) and what it does."""

    name: str
    check: Callable[[StepContext], None]

    def __repr__(self) -> str:
        return self.name


def new_step_context() -> StepContext:
    gc, client = new_test_gc()
    gb = gc.dependency_graph_builder
    gc.absent_owner_cache = gb.absent_owner_cache = new_reference_cache(100)
    recorder = new_fake_recorder(100)
    recorder.include_object = True
    gb.event_recorder = recorder
    attempt_to_delete, attempt_to_orphan, graph_changes = install_tracking_queues(gc)
    client.fake.clear_actions()
    return StepContext(gc, client, recorder, attempt_to_delete, attempt_to_orphan, graph_changes)


def process_pending_graph_changes(count: int) -> ScenarioStep:
    """Port of processPendingGraphChanges."""

    def check(ctx: StepContext) -> None:
        for i in range(count):
            assert ctx.graph_changes.len() > 0, f"expected at least {count} pending changes, got {i}"
            ctx.gc.dependency_graph_builder.process_graph_changes()

    return ScenarioStep("processPendingGraphChanges", check)


def process_attempt_to_delete(count: int) -> ScenarioStep:
    """Port of processAttemptToDelete."""

    def check(ctx: StepContext) -> None:
        for i in range(count):
            assert ctx.attempt_to_delete.len() > 0, f"expected at least {count} pending deletes, got {i}"
            ctx.gc.process_attempt_to_delete_worker()

    return ScenarioStep("processAttemptToDelete", check)


def insert_event(e: Event) -> ScenarioStep:
    """Port of insertEvent: put `e` in front of the pending graph changes."""

    def check(ctx: StepContext) -> None:
        items = []
        while ctx.graph_changes.len() > 0:
            item, _ = ctx.graph_changes.get()
            ctx.graph_changes.done(item)
            items.append(item)
        ctx.graph_changes.add(e)
        for item in items:
            ctx.graph_changes.add(item)

    return ScenarioStep("insertEvent", check)


def process_event(e: Event) -> ScenarioStep:
    """Port of processEvent."""

    def check(ctx: StepContext) -> None:
        assert ctx.graph_changes.len() == 0, "must process pending graphChanges before calling processEvent"
        ctx.graph_changes.add(e)
        ctx.gc.dependency_graph_builder.process_graph_changes()

    return ScenarioStep("processEvent", check)


def create_object_in_client(obj: dict[str, Any]) -> ScenarioStep:
    """Port of createObjectInClient: store `obj` (a valid wire object) in the fake's server."""

    def check(ctx: StepContext) -> None:
        assert not ctx.client.fake.actions(), "call assert_state to check and clear pending client actions first"
        ctx.client.server.add_object(obj)

    return ScenarioStep("createObjectInClient", check)


def delete_object_from_client(resource: str, namespace: str, name: str) -> ScenarioStep:
    """Port of deleteObjectFromClient: remove an object behind the collector's back."""

    def check(ctx: StepContext) -> None:
        assert not ctx.client.fake.actions(), "call assert_state to check and clear pending client actions first"
        ctx.client.server.delete(resource, namespace, name)

    return ScenarioStep("deleteObjectFromClient", check)


@dataclass
class State:
    """Port of state: what assert_state expects."""

    events: list[str] = field(default_factory=list)
    client_actions: list[str] = field(default_factory=list)
    graph_nodes: list[Node] = field(default_factory=list)
    pending_graph_changes: list[Event] = field(default_factory=list)
    pending_attempt_to_delete: list[Node] = field(default_factory=list)
    pending_attempt_to_orphan: list[Node] = field(default_factory=list)
    absent_owner_cache: list[ObjectReference] = field(default_factory=list)


def action_string(action: Any) -> str:
    """Go: `verb resource[ ns=...][ name=...]`, with the resource printed as a GroupVersionResource."""
    r = action.get_resource()
    s = f"{action.get_verb()} {GroupVersionResource(r.group, r.version, r.resource)}"
    if action.get_namespace():
        s += " ns=" + action.get_namespace()
    name = action.target_name()
    if name:
        s += " name=" + name
    return s


def assert_state(s: State) -> ScenarioStep:
    """Port of assertState."""

    def check(ctx: StepContext) -> None:
        cache = ctx.gc.absent_owner_cache
        for absent in s.absent_owner_cache:
            assert cache.has(absent), f"expected absent owner {absent} was not in the absentOwnerCache"
        assert len(cache) == len(s.absent_owner_cache), f"unexpected items in absent owner cache: {list(cache.cache)}"

        assert ctx.event_recorder.drain() == s.events

        actions = [action_string(a) for a in ctx.client.fake.actions()]
        assert actions == s.client_actions
        ctx.client.fake.clear_actions()

        graph = ctx.gc.dependency_graph_builder.uid_to_node
        assert len(graph.uid_to_node) == len(s.graph_nodes), f"nodes: {list(graph.uid_to_node.values())}"
        for n in s.graph_nodes:
            graph_node = graph.read(n.identity.uid)
            assert graph_node is not None, f"{n.identity.uid}: no node in graph"
            assert graph_node.identity == n.identity
            assert graph_node.virtual == n.virtual, f"{n.identity.uid}: virtual"
            assert graph_node.owners == n.owners, f"{n.identity.uid}: owners"

        assert [event_summary(e) for e in ctx.graph_changes.pending_list] == \
            [event_summary(e) for e in s.pending_graph_changes]
        assert [(n.identity, n.virtual) for n in ctx.attempt_to_delete.pending_list] == \
            [(n.identity, n.virtual) for n in s.pending_attempt_to_delete]
        assert [n.identity for n in ctx.attempt_to_orphan.pending_list] == \
            [n.identity for n in s.pending_attempt_to_orphan]

    return ScenarioStep("assertState", check)
