"""taku_client never hangs: a resume survives repeated drops during a catch-up, and
giving up raises to the caller."""

from __future__ import annotations

import asyncio

import pytest

from taku.core.commands import Chat
from taku.store import MemoryEventStore
from taku.testing.server import start_server, stop_server
from taku_client import ConnectionLost, TakuClient

from .conftest import server_connections


async def test_a_catch_up_dropped_again_and_again_resumes_to_the_whole_log() -> None:
    """The server drops a fresh subscriber's connection three times during its catch-up
    of a long table (twice while it is resuming): ``subscribe`` returns, and the feed
    holds every event once, in order."""
    running = await start_server(MemoryEventStore(), rate_per_s=100_000.0, rate_burst=100_000)
    try:
        async with await TakuClient.connect(running.ws_url) as gm:
            created = await gm.create_table("generic")
            tid = created.table_id
            table = await running.hub.table(tid)
            await asyncio.gather(
                *(
                    table.execute("m2", Chat(text=f"{i}:" + "x" * 300), command_id=f"c{i}")
                    for i in range(3000)
                )
            )
            last = table.state.seq
            reader = await TakuClient.connect(
                running.ws_url, retry_delays_s=(0.01, 0.02, 0.05), max_attempts=10
            )
            await reader.join(tid, created.player_token, name="よむ")
            statuses: list[str] = []
            reader.status_callbacks.append(statuses.append)
            drops: list[int] = []

            async def dropper() -> None:
                for mark in (200, 1000, 2000):
                    while (f := reader.feeds.get(tid)) is None or f.last_seq < mark:
                        await asyncio.sleep(0)
                    drops.append(reader.feeds[tid].last_seq)
                    for conn in server_connections(running):
                        if conn.remote_address[1] == reader._ws.local_address[1]:  # type: ignore[union-attr]
                            conn.transport.abort()

            task = asyncio.create_task(dropper())
            feed = await asyncio.wait_for(reader.subscribe(tid), 30)
            got = []
            while not got or got[-1].seq < last:
                got.append(await feed.next(10))
            await asyncio.wait_for(task, 10)
            assert len(drops) == 3 and all(d < last for d in drops), drops
            assert [e.seq for e in got] == list(range(1, last + 1))  # no gap, no repeat
            assert reader.reconnects >= 3
            assert statuses.count("reconnecting") >= 1 and statuses[-1] == "open"
            await reader.close()
    finally:
        await stop_server(running)


async def test_giving_up_raises_to_every_waiting_call() -> None:
    """When the server is gone for good, a resume that runs out of attempts raises
    ConnectionLost to the calls waiting for it and ends the feeds: nothing hangs."""
    running = await start_server(MemoryEventStore())
    client = await TakuClient.connect(running.ws_url, retry_delays_s=(0.01,), max_attempts=3)
    created = await client.create_table("generic")
    feed = await client.subscribe(created.table_id)
    await stop_server(running)
    with pytest.raises(ConnectionLost):
        await asyncio.wait_for(client.get_state(created.table_id), 10)
    with pytest.raises(ConnectionLost):
        await asyncio.wait_for(client.subscribe(created.table_id), 10)
    with pytest.raises(StopAsyncIteration):
        while True:
            await feed.next(10)
    assert not client.connected
    await client.close()
