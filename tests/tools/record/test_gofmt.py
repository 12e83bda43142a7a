"""Tests for minikcm/tools/record/gofmt.py: Go's fmt verbs for event messages."""

from __future__ import annotations

import pytest
from kubernetes.client import V1ObjectReference

from minikcm.tools.record.gofmt import go_sprintf, object_reference_go_string


GO_SPRINTF_CASES = [
    pytest.param("%s", ("ctrl-a became leader",), "ctrl-a became leader", id="leader-election"),
    pytest.param("Scaled up replica set %s to %d from %d", ("web-5d", 3, 1), "Scaled up replica set web-5d to 3 from 1",
                 id="scaling"),
    pytest.param("%v|%v|%v|%v|%v", (1, 2.5, True, None, [1, "a"]), "1|2.5|true|<nil>|[1 a]", id="v-verb"),
    pytest.param("%v", ({"b": 2, "a": 1},), "map[a:1 b:2]", id="v-of-dict-sorted"),
    pytest.param("%v", (ValueError("boom"),), "boom", id="v-of-error"),
    pytest.param("%q and %q", ("a\"b", 7), "\"a\\\"b\" and \"7\"", id="q-verb"),
    pytest.param("100%%", (), "100%", id="literal-percent"),
    pytest.param("[%5d|%-4s|%3s]", (42, "ab", "abcd"), "[   42|ab  |abcd]", id="widths"),
    pytest.param("%d", ("abc",), "%!d(string=abc)", id="wrong-type"),
    pytest.param("%s and %d", ("x",), "x and %!d(MISSING)", id="missing-arg"),
    pytest.param("%s", ("x", 1, "y"), "x%!(EXTRA int=1, string=y)", id="extra-args"),
    pytest.param("%d", (True,), "%!d(bool=true)", id="bool-is-no-int"),
]


@pytest.mark.parametrize("fmt, args, want", GO_SPRINTF_CASES)
def test_go_sprintf(fmt, args, want):
    assert go_sprintf(fmt, *args) == want


def test_object_reference_go_string():
    ref = V1ObjectReference(kind="Pod", namespace="ns", name="p", uid="u1", api_version="v1")
    assert object_reference_go_string(ref) == ('v1.ObjectReference{Kind:"Pod", Namespace:"ns", Name:"p", UID:"u1", '
                                               'APIVersion:"v1", ResourceVersion:"", FieldPath:""}')
    assert object_reference_go_string(None).startswith('v1.ObjectReference{Kind:""')
