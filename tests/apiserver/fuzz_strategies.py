"""Hypothesis strategies for bad input: valid workload objects, mutated at any path.

Each strategy starts from a valid wire dict built by `tests.apiserver.builders`
(plus a few optional fields that carry quantities, selectors and numbers, so
that those get mutated too) and applies one or more mutations: a wrong JSON
type, a null, a removed or an unknown field, a huge or negative number, a bad
quantity, a bad label selector, an over-long or non-DNS name. Some mutations
leave the object valid: the property checks accept those as long as they
round-trip.

`check_refusal` and `snapshot` hold the properties shared by the in-process and
the HTTPS fuzz tests (see tests/apiserver/test_fuzz.py).
"""

from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from minikcm.apimachinery.convert import to_wire

from . import builders

settings.register_profile(
    "fuzz", derandomize=True, deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much])
"""The profile every fuzz test runs under: derandomized (the same cases on every CI run), no deadline."""

SCALE = max(1, int(os.environ.get("MINIKCM_FUZZ_SCALE", "1")))
"""Multiplies every test's example count: `MINIKCM_FUZZ_SCALE=20 pytest tests/apiserver -k fuzz` is the large run."""


def fuzz(max_examples: int) -> settings:
    """The fuzz profile with `max_examples` (times SCALE) examples for one test."""
    return settings(settings.get_profile("fuzz"), max_examples=max_examples * SCALE)

NAMESPACE = "default"


def pvc(name: str = "data", namespace: str = NAMESPACE) -> dict[str, Any]:
    """A valid PersistentVolumeClaim wire dict."""
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": name, "namespace": namespace, "labels": {"app": "db"}},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                     "storageClassName": "standard"}}


def _pod_spec_extras(spec: dict[str, Any]) -> None:
    """Optional pod spec fields worth mutating: quantities, numbers, ports, probes, env."""
    container = spec["containers"][0]
    container["resources"] = {"limits": {"cpu": "500m", "memory": "128Mi"},
                              "requests": {"cpu": "250m", "memory": "64Mi"}}
    container["ports"] = [{"name": "http", "containerPort": 80, "protocol": "TCP"}]
    container["env"] = [{"name": "MODE", "value": "prod"}]
    container["args"] = ["--verbose"]
    container["readinessProbe"] = {"httpGet": {"path": "/", "port": 80}, "periodSeconds": 5}
    spec["terminationGracePeriodSeconds"] = 30
    spec["nodeSelector"] = {"disk": "ssd"}
    spec["tolerations"] = [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}]
    spec["volumes"] = [{"name": "cache", "emptyDir": {"sizeLimit": "1Gi"}}]
    container["volumeMounts"] = [{"name": "cache", "mountPath": "/cache"}]


def _workload_extras(obj: dict[str, Any]) -> None:
    spec = obj["spec"]
    spec["selector"]["matchExpressions"] = [{"key": "tier", "operator": "NotIn", "values": ["db"]}]
    spec["minReadySeconds"] = 0
    spec["template"]["metadata"]["annotations"] = {"note": "x"}
    _pod_spec_extras(spec["template"]["spec"])


def valid_pod() -> dict[str, Any]:
    obj = builders.pod("p", NAMESPACE, labels={"app": "web"})
    _pod_spec_extras(obj["spec"])
    obj["metadata"]["annotations"] = {"a": "b"}
    return obj


def valid_deployment() -> dict[str, Any]:
    obj = builders.deployment("web", NAMESPACE, replicas=2)
    _workload_extras(obj)
    obj["spec"]["revisionHistoryLimit"] = 10
    obj["spec"]["progressDeadlineSeconds"] = 600
    obj["spec"]["strategy"] = {"type": "RollingUpdate",
                               "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}}
    return obj


def valid_replica_set() -> dict[str, Any]:
    obj = builders.replica_set("web-1", NAMESPACE, replicas=1)
    _workload_extras(obj)
    return obj


def valid_stateful_set() -> dict[str, Any]:
    obj = builders.stateful_set("db", NAMESPACE, replicas=1)
    _workload_extras(obj)
    obj["spec"]["podManagementPolicy"] = "OrderedReady"
    obj["spec"]["updateStrategy"] = {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}}
    obj["spec"]["revisionHistoryLimit"] = 10
    claim = pvc("data")
    del claim["metadata"]["namespace"]
    obj["spec"]["volumeClaimTemplates"] = [claim]
    return obj


def valid_pvc() -> dict[str, Any]:
    obj = pvc("data")
    obj["spec"]["selector"] = {"matchLabels": {"disk": "ssd"}}
    return obj


def valid_lease() -> dict[str, Any]:
    obj = builders.lease("kcm", NAMESPACE, holder="a")
    obj["spec"].update(leaseTransitions=0, acquireTime="2026-01-01T00:00:00.000000Z",
                       renewTime="2026-01-01T00:00:01.000000Z")
    return obj


@dataclass(frozen=True)
class Kind:
    """One fuzzed resource: its plural name, a valid object, the object's name."""

    resource: str
    build: Callable[[], dict[str, Any]]

    @property
    def name(self) -> str:
        return self.build()["metadata"]["name"]


KINDS = {
    "pods": Kind("pods", valid_pod),
    "deployments": Kind("deployments", valid_deployment),
    "replicasets": Kind("replicasets", valid_replica_set),
    "statefulsets": Kind("statefulsets", valid_stateful_set),
    "persistentvolumeclaims": Kind("persistentvolumeclaims", valid_pvc),
    "leases": Kind("leases", valid_lease),
}

API_PATHS = {
    "pods": "/api/v1/namespaces/default/pods",
    "deployments": "/apis/apps/v1/namespaces/default/deployments",
    "replicasets": "/apis/apps/v1/namespaces/default/replicasets",
    "statefulsets": "/apis/apps/v1/namespaces/default/statefulsets",
    "persistentvolumeclaims": "/api/v1/namespaces/default/persistentvolumeclaims",
    "leases": "/apis/coordination.k8s.io/v1/namespaces/default/leases",
}

# --- values -------------------------------------------------------------------------------

HUGE_NUMBERS = [2**31, 2**31 - 1, -(2**31) - 1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1,
                2**64, 10**30, -1, -100, 0, 1.5, -0.5, 1e308, -1e308, 1e-300]
BAD_QUANTITIES = ["", "abc", "1.5.5", "-1", "-1Gi", "1Qi", "1e1000", "1E", "+", ".", "1.", "0x10", "∞",
                  "1 Gi", "Gi", "9" * 80, "1e-1000", "1.123456789123456789Mi", "NaN", "1e3", "12345678901234567890Ei"]
BAD_NAMES = ["", "A", "UPPER", "-a", "a-", "a_b", "a..b", ".a", "a/b", "a b", "ü", "a" * 64, "a" * 254,
             "a" * 300, "a." * 130, "..", ".", "a%2Fb", "\x00", "a\nb"]
BAD_LABEL_KEYS = ["", "-a", "a/", "/a", "a/b/c", "A_" * 40, "é", "a" * 64, ("a" * 254) + "/b", "a b",
                  "example.com/", "UPPER.com/x"]
BAD_LABEL_VALUES = ["-a", "a-", "a b", "a" * 64, "é", "a/b", "_", "a..b!"]
BAD_OPERATORS = ["", "in", "Equals", "Exists ", "DoesNotExist", "Gt", None, 1]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)
"""Any JSON value (finite numbers: JSON has no NaN nor Infinity)."""

bad_values = st.one_of(
    json_values,
    st.sampled_from(HUGE_NUMBERS),
    st.sampled_from(BAD_QUANTITIES),
    st.sampled_from(BAD_NAMES),
    st.just([None]), st.just({"x": None}), st.just([[]]), st.just([{}]), st.just({}), st.just([]),
).map(copy.deepcopy)
"""What a mutation puts at a path: wrong types, nulls, huge numbers, bad quantities and names."""


# --- paths and mutations ------------------------------------------------------------------

Path = tuple[Any, ...]


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every path into `value` (dict keys and list indices), the root excluded, depth first."""
    out: list[Path] = []
    if isinstance(value, dict):
        for key in value:
            out.append(prefix + (key,))
            out.extend(paths(value[key], prefix + (key,)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.append(prefix + (i,))
            out.extend(paths(item, prefix + (i,)))
    return out


def container_paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Paths to every dict and list in `value` (where a field or element can be added)."""
    out: list[Path] = [prefix] if isinstance(value, (dict, list)) else []
    if isinstance(value, dict):
        for key in value:
            out.extend(container_paths(value[key], prefix + (key,)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(container_paths(item, prefix + (i,)))
    return out


def get_at(obj: Any, path: Path) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def set_at(obj: Any, path: Path, value: Any) -> None:
    get_at(obj, path[:-1])[path[-1]] = value


def delete_at(obj: Any, path: Path) -> None:
    del get_at(obj, path[:-1])[path[-1]]


def dotted(path: Path) -> str:
    """`spec.template.spec.containers[0].image` for a path."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


@st.composite
def mutation(draw: Any, obj: dict[str, Any]) -> tuple[str, Path]:
    """Mutate `obj` in place once; returns (what was done, the path it touched)."""
    kind = draw(st.sampled_from(["replace", "replace", "replace", "null", "delete", "unknown",
                                 "append", "name", "labels", "selector", "quantity", "number"]))
    if kind in ("replace", "null", "delete"):
        where = draw(st.sampled_from(paths(obj)))
        if kind == "delete":
            delete_at(obj, where)
        else:
            set_at(obj, where, None if kind == "null" else draw(bad_values))
        return kind, where
    if kind == "unknown":
        holders = [p for p in container_paths(obj) if isinstance(get_at(obj, p), dict)]
        where = draw(st.sampled_from(holders))
        key = draw(st.sampled_from(["bogus", "Image", "spec", "x-y", "$patch", ""]))
        get_at(obj, where)[key] = draw(json_values)
        return kind, where + (key,)
    if kind == "append":
        holders = [p for p in container_paths(obj) if isinstance(get_at(obj, p), list)]
        where = draw(st.sampled_from(holders))
        items = get_at(obj, where)
        items.insert(draw(st.integers(0, len(items))), draw(st.one_of(st.none(), bad_values)))
        return kind, where
    if kind == "name":
        where = draw(st.sampled_from([p for p in paths(obj) if p[-1] in ("name", "namespace", "generateName",
                                                                         "serviceName", "storageClassName",
                                                                         "holderIdentity", "nodeName")]
                                     or [("metadata", "name")]))
        set_at(obj, where, draw(st.sampled_from(BAD_NAMES)))
        return kind, where
    if kind == "labels":
        where = draw(st.sampled_from([p for p in paths(obj) if p[-1] in ("labels", "matchLabels", "nodeSelector",
                                                                         "annotations")]
                                     or [("metadata", "labels")]))
        key = draw(st.one_of(st.sampled_from(BAD_LABEL_KEYS), st.just("ok")))
        value = draw(st.one_of(st.sampled_from(BAD_LABEL_VALUES), st.just("ok"), st.none(), st.integers()))
        holder = get_at(obj, where)
        if isinstance(holder, dict):
            holder[key] = value
        return kind, where + (key,)
    if kind == "selector":
        spec = obj.get("spec") or {}
        selector_holder: Path = ("spec", "selector") if isinstance(spec.get("selector"), dict) else ("spec",)
        expression = {"key": draw(st.sampled_from(["tier", "", "a/b/c", "UPPER"])),
                      "operator": draw(st.sampled_from(BAD_OPERATORS + ["In", "NotIn", "Exists"])),
                      "values": draw(st.sampled_from([[], ["x"], None, [None], ["-bad-"], "x", [1]]))}
        if selector_holder == ("spec",):
            spec["selector"] = {"matchExpressions": [expression]}
        else:
            spec["selector"].setdefault("matchExpressions", []).append(expression)
        return kind, ("spec", "selector")
    if kind == "quantity":
        candidates = [p for p in paths(obj) if len(p) >= 2 and p[-2] in ("limits", "requests")
                      or p[-1] == "sizeLimit"]
        where = draw(st.sampled_from(candidates or [("metadata", "name")]))
        set_at(obj, where, draw(st.one_of(st.sampled_from(BAD_QUANTITIES), st.sampled_from(HUGE_NUMBERS))))
        return kind, where
    numeric = [p for p in paths(obj) if isinstance(get_at(obj, p), int) and not isinstance(get_at(obj, p), bool)]
    where = draw(st.sampled_from(numeric or [("metadata", "name")]))
    set_at(obj, where, draw(st.sampled_from(HUGE_NUMBERS)))
    return "number", where


@st.composite
def mutated(draw: Any, kinds: tuple[str, ...] = tuple(KINDS)) -> tuple[str, dict[str, Any], list[str]]:
    """(resource, a valid object with 1-3 mutations, what was done) for one of `kinds`."""
    resource = draw(st.sampled_from(kinds))
    obj = KINDS[resource].build()
    done = []
    for _ in range(draw(st.integers(1, 3))):
        try:
            what, where = draw(mutation(obj))
        except (KeyError, IndexError, TypeError, AttributeError):
            continue  # an earlier mutation removed or replaced the path's parent
        done.append(f"{what} {dotted(where)}")
    return resource, obj, done


def pointer(path: Path) -> str:
    """The JSON pointer (RFC 6901) of a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@st.composite
def json_patch_ops(draw: Any, obj: dict[str, Any]) -> list[Any]:
    """1-3 JSON patch operations on `obj`'s paths (or bogus ones), with bad values, some malformed."""
    targets = st.one_of(st.sampled_from([pointer(p) for p in paths(obj)]),
                        st.sampled_from(["", "/", "/spec/-", "/metadata/labels/new", "/spec/nope/deeper",
                                         "/spec/template/spec/containers/9", "/spec/template/spec/containers/-",
                                         "~", "spec", "/metadata/name/0"]))
    op = st.fixed_dictionaries(
        {"op": st.sampled_from(["add", "replace", "remove", "copy", "move", "test", "bogus"]),
         "path": targets},
        optional={"value": bad_values, "from": targets})
    malformed = st.sampled_from([{}, {"op": "add"}, {"path": "/spec"}, None, 1, "add", [], {"op": None, "path": 1}])
    return draw(st.lists(st.one_of(op, op, op, malformed), min_size=1, max_size=3))


def to_wire_dict(model: Any) -> dict[str, Any]:
    return to_wire(model)


# --- bodies -------------------------------------------------------------------------------

def truncations(data: bytes) -> st.SearchStrategy[bytes]:
    """A strict prefix of `data` (never the whole), or `data` with bytes flipped or dropped."""
    return st.one_of(
        st.integers(0, max(0, len(data) - 1)).map(lambda n: data[:n]),
        st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)).map(
            lambda t: data[:t[0]] + bytes([t[1]]) + data[t[0] + 1:]),
    )


non_json = st.one_of(
    st.binary(max_size=40),
    st.sampled_from([b"", b"null", b"[]", b"0", b'"x"', b"{", b"}", b"{]", b"NaN", b"Infinity", b"-",
                     b"\xff\xfe{", b"{\"a\":}", b"{'a': 1}", b"---\n- a\n- b", b"- :", b"key: [",
                     b"&a [*a, *a]", b"!!python/object:os.system {}", b"{\"metadata\": 1e999}",
                     b"\x00\x00\x00", b"k8s\x00", b"k8s\x00\x0a\x02", b"[1,2", b"tru", b"\"unterminated"]),
)
"""Bodies that are not a usable object in any content type."""


def json_bytes(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def deep(obj: Any) -> Any:
    return copy.deepcopy(obj)


# --- properties ---------------------------------------------------------------------------

def check_status(status: Any, touched: list[str] | None = None) -> None:
    """A refusal must be a full `Status`: Failure, a reason, a 4xx code, a message.

    When the body was refused by field validation, the message or the causes
    name a field: checked loosely (some mutations make the object unreadable as
    a whole, e.g. a wrong top-level type, and those name no field).
    """
    assert isinstance(status, dict), status
    assert status.get("kind") == "Status", status
    assert status.get("apiVersion") == "v1", status
    assert status.get("status") == "Failure", status
    assert isinstance(status.get("reason"), str) and status["reason"], status
    code = status.get("code")
    assert isinstance(code, int) and 400 <= code < 500, status
    assert isinstance(status.get("message"), str) and status["message"], status
    causes = (status.get("details") or {}).get("causes") or []
    # A 422 from a JSON patch that cannot apply carries no cause, as upstream's
    # NewGenericServerResponse builds it; every other cause names its field.
    assert all(c.get("field") or c.get("reason") == "UnexpectedServerResponse" for c in causes), status
    if "cannot unmarshal" in status["message"]:
        assert "Go struct field" in status["message"] or "Go value" in status["message"], status
