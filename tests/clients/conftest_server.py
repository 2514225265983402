"""A server with a registry of the test's choosing (for rulesets only the tests know)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from taku.app import Hub
from taku.core.dice import ScriptedDice
from taku.net import ServerConfig, TakuServer
from taku.plugins import Registry
from taku.store.base import EventStore


class _Running:
    def __init__(self, server: TakuServer) -> None:
        self.server = server
        self.http_url = server.url
        self.ws_url = server.ws_url


@contextlib.asynccontextmanager
async def running_with(
    store: EventStore, registry: Registry, dice: ScriptedDice
) -> AsyncIterator[_Running]:
    await store.open()
    hub = Hub(store, registry, dice=lambda tid, seed, cursor: dice)
    server = TakuServer(hub, ServerConfig(port=0))
    await server.start()
    try:
        yield _Running(server)
    finally:
        await server.stop()
        await hub.close()
        await store.close()
