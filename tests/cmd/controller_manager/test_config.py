"""Tests for minikcm.cmd.controller_manager.config."""

from __future__ import annotations

from minikcm.cmd.controller_manager.config import CompletedConfig, Config, KubeControllerManagerConfiguration


def test_complete_keeps_the_same_values():
    """Port of Config.Complete: the completed config carries the very same settings and client."""
    client = object()
    c = Config(client=client, kubeconfig="/kubeconfig", controller_shutdown_timeout=3.0)  # type: ignore[arg-type]
    cc = c.complete()
    assert isinstance(cc, CompletedConfig)
    assert cc.client is client and cc.kubeconfig == "/kubeconfig" and cc.controller_shutdown_timeout == 3.0
    assert cc.component_config is c.component_config  # Go: the embedded pointer


def test_zero_component_config():
    cc = KubeControllerManagerConfiguration()
    assert cc.generic.controllers == [] and cc.generic.leader_election.leader_elect is False
    assert cc.deployment_controller.concurrent_deployment_syncs == 0
