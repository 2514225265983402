"""Fixtures shared by the whole suite: an in-process server on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from taku.app import DiceFactory, Hub
from taku.core.dice import ScriptedDice
from taku.net import ServerConfig, TakuServer
from taku.plugins import load_registry
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore


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
    store: EventStore, *, dice: DiceFactory | None = None, **config: object
) -> RunningServer:
    """Open ``store`` and start a server on a free loopback port."""
    await store.open()
    hub = Hub(store, load_registry(), **({"dice": dice} if dice else {}))
    server = TakuServer(hub, ServerConfig(port=0, **config))  # type: ignore[arg-type]
    await server.start()
    return RunningServer(server, hub, store)


async def stop_server(running: RunningServer) -> None:
    await running.server.stop()
    await running.hub.close()
    await running.store.close()


@pytest.fixture
async def taku_server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    """A server on the embedded SQLite store (a fresh file), seeded dice."""
    running = await start_server(SQLiteEventStore(tmp_path / "taku.db"))
    yield running
    await stop_server(running)


@pytest.fixture
def scripted_dice() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture
async def scripted_server(scripted_dice: ScriptedDice) -> AsyncIterator[RunningServer]:
    """A server on the memory store whose dice are ``scripted_dice`` (extend it in the test)."""
    running = await start_server(MemoryEventStore(), dice=lambda tid, seed, cursor: scripted_dice)
    yield running
    await stop_server(running)
