"""Fixtures shared by the whole suite: an in-process server on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from taku.core.dice import ScriptedDice
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.testing.peer import Raw
from taku.testing.server import RunningServer, start_server, stop_server

__all__ = ["RunningServer", "start_server", "stop_server"]

# `make mutate` runs with --hypothesis-profile=mutate: mutated code under a busy
# machine is slow, and a mutant must be killed by the same examples every time
settings.register_profile(
    "mutate",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


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


@pytest.fixture
async def connect(taku_server: RunningServer):  # type: ignore[no-untyped-def]
    """``await connect()`` opens a Raw peer on ``taku_server``; all are closed after the test."""
    peers: list[Raw] = []

    async def make(server: RunningServer | None = None) -> Raw:
        peer = await Raw.connect((server or taku_server).ws_url)
        peers.append(peer)
        return peer

    yield make
    for p in peers:
        try:
            await p.close()
        except Exception:  # noqa: BLE001 - a peer the test broke on purpose; teardown goes on
            pass
