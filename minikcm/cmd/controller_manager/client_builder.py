"""Port of k8s.io/controller-manager/pkg/clientbuilder/client_builder.go: the client each controller gets.

Start reading at: SimpleControllerClientBuilder.client.

Not ported: Config, ConfigOrDie, ClientOrDie and DiscoveryClient (minikcm
builds no REST configs here), and client_builder_dynamic.go (service-account
credentials).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from minikcm.client.interface import Interface


class ControllerClientBuilder(Protocol):
    """Port of ControllerClientBuilder (clientbuilder): hands each controller its client."""

    def client(self, name: str) -> Interface:
        """Port of ControllerClientBuilder.Client (k8s.io/controller-manager/pkg/clientbuilder/client_builder.go)."""


class SimpleControllerClientBuilder:
    """Port of SimpleControllerClientBuilder (clientbuilder/client_builder.go).

    Gives every controller the controller manager's own credentials.
    Differs from Go: the clientset is shared instead of built per name with
    the name as user agent.
    """

    def __init__(self, client: Interface) -> None:
        self.client_config = client  # Go: ClientConfig

    def client(self, name: str) -> Interface:
        """Port of SimpleControllerClientBuilder.Client."""
        return self.client_config
