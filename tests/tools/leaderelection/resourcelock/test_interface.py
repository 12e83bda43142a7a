"""Tests for minikcm.tools.leaderelection.resourcelock.interface: lock type names and the raw record."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from minikcm.tools.leaderelection.resourcelock import interface
from minikcm.tools.leaderelection.resourcelock.interface import LEASES_RESOURCE_LOCK, LeaderElectionRecord

def test_constants():
    assert interface.LEADER_ELECTION_RECORD_ANNOTATION_KEY == "control-plane.alpha.kubernetes.io/leader"
    assert LEASES_RESOURCE_LOCK == "leases"


RECORD_JSON_CASES = [
    pytest.param(LeaderElectionRecord(),
                 '{"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,'
                 '"leaderTransitions":0,"strategy":"","preferredHolder":""}',
                 id="zero-record-has-null-times"),
    pytest.param(LeaderElectionRecord("a", 15, datetime(2026, 1, 1, 0, 0, 1, 500, tzinfo=timezone.utc),
                                      datetime(2026, 1, 1, 0, 0, 2, tzinfo=timezone.utc), 3, "s", "b"),
                 '{"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2026-01-01T00:00:01.000500Z",'
                 '"renewTime":"2026-01-01T00:00:02.000000Z","leaderTransitions":3,"strategy":"s","preferredHolder":"b"}',
                 id="full-record-in-go-field-order-with-microseconds"),
]


@pytest.mark.parametrize("record, want", RECORD_JSON_CASES)
def test_record_to_json(record, want):
    assert record.to_json() == want.encode()
    assert list(json.loads(record.to_json())) == [
        "holderIdentity", "leaseDurationSeconds", "acquireTime", "renewTime",
        "leaderTransitions", "strategy", "preferredHolder"]


def test_record_to_json_sees_sub_second_renewals():
    """Two renewals in the same second must give different raw records (see to_json's docstring)."""
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    first = LeaderElectionRecord("a", 1, t, t.replace(microsecond=200_000))
    second = LeaderElectionRecord("a", 1, t, t.replace(microsecond=400_000))
    assert first.to_json() != second.to_json()
