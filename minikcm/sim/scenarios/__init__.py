"""No upstream twin. Deterministic scenarios of the port: what `minikcm demo` runs and the docs draw.

Each scenario tells one short story with the real code of a chapter (a leader
crashing, an informer relisting after 410 Gone, a failing work-queue item) on a
fake clock under the single-threaded driver, and returns its trace, series and
events. The same name and seed give the same result, byte for byte.

`SCENARIOS` is an explicit table: adding a scenario is one module in this
package (a `build_<name>(seed) -> Run` function, see leader.py for the pattern)
plus one row below. Nothing registers itself at import time.

Start reading at: run_scenario, then base.Run.run, then any scenario module's `play`.
"""

from __future__ import annotations

import difflib

from minikcm.sim.scenarios.base import (
    Probe,
    Run,
    Sampler,
    Scenario,
    ScenarioResult,
    Series,
    UnknownScenarioError,
    Value,
)
from minikcm.sim.scenarios.cascade import build_cascade_delete
from minikcm.sim.scenarios.deployment import (
    build_paused_rollout,
    build_proportional_scaling,
    build_recreate,
    build_rollback,
    build_rolling_update,
)
from minikcm.sim.scenarios.informer import build_informer_relist
from minikcm.sim.scenarios.leader import build_leader_failover
from minikcm.sim.scenarios.replicaset import build_replicaset_scale
from minikcm.sim.scenarios.stale_cache import build_replicaset_stale_cache
from minikcm.sim.scenarios.statefulset import build_statefulset_ordered, build_statefulset_partition
from minikcm.sim.scenarios.wait import build_wait_backoff
from minikcm.sim.scenarios.workqueue import build_workqueue_retry

SCENARIOS: dict[str, Scenario] = {
    "leader-failover": Scenario(
        "leader-failover", "p1",
        "领导者选举：领导者崩溃后，另一个候选者在租约过期后接管",
        "Leader election: the leader crashes and a follower takes over once the lease expires",
        build_leader_failover),
    "informer-relist": Scenario(
        "informer-relist", "p2",
        "Informer：watch 落后被关闭，续 watch 遇到 410 Gone 后重新 list",
        "Informer: a lagging watch is closed, resuming it gets 410 Gone, and the reflector relists",
        build_informer_relist),
    "workqueue-retry": Scenario(
        "workqueue-retry", "p2",
        "工作队列：失败的 key 按 5 毫秒起翻倍的退避重试，Forget 后重新计数",
        "Work queue: a failing key is retried after 5 ms, doubling each time, until Forget resets it",
        build_workqueue_retry),
    "wait-backoff": Scenario(
        "wait-backoff", "wait",
        "wait 库：Backoff、ExponentialBackoff 与 JitterUntil 在假时钟上的延迟",
        "wait: the delays of Backoff, ExponentialBackoff and JitterUntil on a fake clock",
        build_wait_backoff),
    "rolling-update": Scenario(
        "rolling-update", "p3",
        "滚动更新：10 个副本、maxSurge 与 maxUnavailable 各 25%，镜像从 v1 换到 v2",
        "Rolling update: 10 replicas, maxSurge and maxUnavailable 25%, image v1 to v2",
        build_rolling_update),
    "recreate": Scenario(
        "recreate", "p3",
        "Recreate 策略：旧 ReplicaSet 缩到 0、旧 Pod 全部退出后，新 ReplicaSet 才扩容",
        "Recreate: the old ReplicaSet goes to 0 and its pods are gone before the new one scales up",
        build_recreate),
    "proportional-scaling": Scenario(
        "proportional-scaling", "p3",
        "按比例扩缩：卡住的滚动更新（8 旧 5 新）扩到 30 个副本后变成 20 与 13",
        "Proportional scaling: a stuck rollout (8 old, 5 new) scaled to 30 becomes 20 and 13",
        build_proportional_scaling),
    "paused-rollout": Scenario(
        "paused-rollout", "p3",
        "暂停的上线：暂停时改镜像不建新 ReplicaSet，暂停时扩容，恢复后继续滚动更新",
        "Paused rollout: a new image makes no ReplicaSet while paused, scaling still works, resume rolls out",
        build_paused_rollout),
    "rollback": Scenario(
        "rollback", "p3",
        "回滚：kubectl rollout undo 把模板改回修订版 1，旧 ReplicaSet 被复用为修订版 3",
        "Rollback: kubectl rollout undo restores revision 1's template; its ReplicaSet returns as revision 3",
        build_rollback),
    "replicaset-scale": Scenario(
        "replicaset-scale", "p4",
        "ReplicaSet 扩缩：慢启动批次 1、2、4，按 ActivePodsWithRanks 顺序删除，被删的 Pod 被替换",
        "ReplicaSet scaling: slow-start batches 1, 2, 4, deletion in ActivePodsWithRanks order, a pod replaced",
        build_replicaset_scale),
    "replicaset-stale-cache": Scenario(
        "replicaset-stale-cache", "p4",
        "缓存落后于自己的写操作：交错调度下，一致性存储拒绝同步，expectations 让同步等待在途的创建",
        "A cache behind its own writes: on an interleaved schedule the consistency store refuses a sync and "
        "expectations hold one back while creates are in flight",
        build_replicaset_stale_cache),
    "cascade-delete": Scenario(
        "cascade-delete", "p4",
        "级联删除：Foreground 先删 Pod 与 ReplicaSet 再删 Deployment，Background 反之，Orphan 留下它们",
        "Cascade deletion: Foreground removes pods and ReplicaSets before the Deployment, Background after, "
        "Orphan keeps them",
        build_cascade_delete),
    "statefulset-ordered": Scenario(
        "statefulset-ordered", "p5",
        "StatefulSet 有序扩缩：web-0 就绪后才建 web-1，依次扩到 5 个，缩容时从最高序号逐个删除",
        "StatefulSet ordered scaling: web-1 only after web-0 is ready, up to 5 one by one, down from the highest",
        build_statefulset_ordered),
    "statefulset-partition": Scenario(
        "statefulset-partition", "p5",
        "StatefulSet 分区滚动更新：partition=3 只更新 web-3、web-4，被删的 web-1 以旧修订版回来，partition=0 后全部更新",
        "StatefulSet partitioned update: partition=3 updates only web-3 and web-4, a deleted web-1 returns at the "
        "old revision, partition=0 updates the rest",
        build_statefulset_partition),
}
"""Every scenario, by name, in the order `minikcm demo list` shows them (docs chapter order)."""


def get_scenario(name: str) -> Scenario:
    """The scenario called `name`.

    Raises:
        UnknownScenarioError: a KeyError whose message lists the close matches.
    """
    scenario = SCENARIOS.get(name)
    if scenario is not None:
        return scenario
    raise UnknownScenarioError(unknown_scenario_message(name))


def unknown_scenario_message(name: str) -> str:
    """"unknown scenario 'x'; did you mean ...?", with every name when nothing is close."""
    close = difflib.get_close_matches(name, list(SCENARIOS), n=3, cutoff=0.5)
    close += [n for n in SCENARIOS if name and name in n and n not in close]
    if close:
        hint = "did you mean " + ", ".join(close) + "?"
    else:
        hint = "known scenarios: " + ", ".join(SCENARIOS)
    return f"unknown scenario {name!r}; {hint}"


def run_scenario(name: str, seed: int = 1) -> ScenarioResult:
    """Build scenario `name` with `seed`, play it, return its result. Same name and seed, same result."""
    return get_scenario(name).build(seed).run()


__all__ = [
    "SCENARIOS",
    "Probe",
    "Run",
    "Sampler",
    "Scenario",
    "ScenarioResult",
    "Series",
    "UnknownScenarioError",
    "Value",
    "get_scenario",
    "run_scenario",
]
