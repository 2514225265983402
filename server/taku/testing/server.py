"""Start a real taku server in-process on a free loopback port (for tests)."""

from __future__ import annotations

from dataclasses import dataclass

from taku.app import DiceFactory, Hub
from taku.net import ServerConfig, TakuServer
from taku.plugins import load_registry
from taku.store.base import EventStore

__all__ = ["RunningServer", "start_server", "stop_server"]


@dataclass
class RunningServer:
    server: TakuServer
    hub: Hub
    store: EventStore

    @property
    def ws_url(self) -> str:
        return self.server.ws_url

    @property
    def http_url(self) -> str:
        return self.server.url


async def start_server(
    store: EventStore,
    *,
    dice: DiceFactory | None = None,
    hub_options: dict[str, object] | None = None,
    **config: object,
) -> RunningServer:
    """Open ``store`` and start a server on a free loopback port.

    ``hub_options`` go to :class:`~taku.app.Hub` (``snapshot_every``, ``idle_unload_s``).
    """
    await store.open()
    hub = Hub(store, load_registry(), **({"dice": dice} if dice else {}), **(hub_options or {}))  # type: ignore[arg-type]
    server = TakuServer(hub, ServerConfig(port=0, **config))  # type: ignore[arg-type]
    await server.start()
    return RunningServer(server, hub, store)


async def stop_server(running: RunningServer) -> None:
    await running.server.stop()
    await running.hub.close()
    await running.store.close()
