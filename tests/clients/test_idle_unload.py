"""An idle table is unloaded from the hub and loaded again on demand, nothing lost,
its dropped subscribers resumed (issue 18, part 4)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from taku.app import EVICT_AFTER_S
from taku.core.table import TableState, fold
from taku.store import SQLiteEventStore
from taku.testing.server import start_server, stop_server
from taku_client import TakuClient

from .conftest import server_connections


async def _until(cond, timeout_s: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(timeout_s):
        while not cond():
            await asyncio.sleep(0.01)


async def test_an_idle_table_is_unloaded_and_its_subscriber_resumes_on_the_reloaded_table(
    tmp_path: Path,
) -> None:
    """The only subscriber's connection drops; with nobody left the table is unloaded
    (its snapshots kept); the client reconnects, the table loads again from the snapshot,
    and the feed goes on after its last seq with no gap or repeat; an old command id
    is still answered with its first ack; the state is the events' fold."""
    store = SQLiteEventStore(tmp_path / "t.db")
    running = await start_server(
        store,
        hub_options={"idle_unload_s": 0.1, "snapshot_every": 10},
        rate_per_s=100_000.0,
        rate_burst=100_000,
    )
    hub = running.hub
    try:
        async with await TakuClient.connect(running.ws_url) as gm:
            created = await gm.create_table("generic")
            tid = created.table_id
            first = await gm.command(tid, {"type": "chat", "text": "最初"}, command_id="first")
            watcher = await TakuClient.connect(running.ws_url, retry_delays_s=(1.0,))
            await watcher.join(tid, created.player_token, name="見る")
            feed = await watcher.subscribe(tid)
            for i in range(14):
                await gm.chat(tid, f"行 {i}")
            got = []
            while not got or got[-1].seq < 18:
                got.append(await feed.next(5))
            for conn in server_connections(running):  # the watcher's connection drops
                if conn.remote_address[1] == watcher._ws.local_address[1]:  # type: ignore[union-attr]
                    conn.transport.abort()
            await _until(lambda: hub.unloaded >= 1)
            snap = await store.get_snapshot(tid)
            assert snap is not None and snap.seq == 10  # the last one kept (every 10 events)

            await _until(lambda: watcher.connected and tid in hub._tables)  # resumed: reloaded
            table = hub._tables[tid]
            assert table.state.seq == 18 and "first" not in table.acks  # loaded from the snapshot
            for i in range(3):
                await gm.chat(tid, f"後 {i}")
            while got[-1].seq < 21:
                got.append(await feed.next(5))
            assert [e.seq for e in got] == list(range(1, 22))
            again = await gm.command(tid, {"type": "chat", "text": "最初"}, command_id="first")
            assert (again.first_seq, again.last_seq, again.duplicate) == (
                first.first_seq,
                first.last_seq,
                True,
            )
            truth = fold(
                TableState(table_id=tid), await store.read(tid), table.ruleset, table.reader
            )
            assert table.state == truth
            state = (await watcher.get_state(tid)).state
            assert state["seq"] == 21 and len(state["members"]) == 2
            await watcher.close()
    finally:
        await stop_server(running)


async def test_a_table_unloaded_by_the_bound_on_idle_tables_resumes_its_subscriber(
    tmp_path: Path,
) -> None:
    """With no idle time but a bound of no idle table (``max_idle_tables`` 0): the only
    subscriber's connection drops, another table is loaded, and the first (now idle, the
    least recently used) is unloaded at once; the client reconnects and its feed goes on
    from the reloaded table with no gap or repeat, the state the events' fold."""
    store = SQLiteEventStore(tmp_path / "t.db")
    running = await start_server(
        store,
        hub_options={"idle_unload_s": None, "max_idle_tables": 0, "snapshot_every": 10},
        rate_per_s=100_000.0,
        rate_burst=100_000,
    )
    hub = running.hub
    try:
        async with await TakuClient.connect(running.ws_url) as gm:
            created = await gm.create_table("generic")
            tid = created.table_id
            watcher = await TakuClient.connect(running.ws_url, retry_delays_s=(0.5,))
            await watcher.join(tid, created.player_token, name="見る")
            feed = await watcher.subscribe(tid)
            for i in range(14):
                await gm.chat(tid, f"行 {i}")
            got = []
            while not got or got[-1].seq < 17:
                got.append(await feed.next(5))
            for conn in server_connections(running):  # the watcher's connection drops
                if conn.remote_address[1] == watcher._ws.local_address[1]:  # type: ignore[union-attr]
                    conn.transport.abort()
            await _until(lambda: not hub._tables[tid].subscriptions)
            hub._tables[tid].last_used -= 2 * EVICT_AFTER_S  # not in anyone's hands
            other = await gm.create_table("generic")
            await gm.chat(other.table_id, "別の卓")  # its load passes the bound
            await _until(lambda: hub.unloaded >= 1 and tid not in hub._tables)
            await _until(lambda: watcher.connected and tid in hub._tables)  # resumed: reloaded
            table = hub._tables[tid]
            for i in range(3):
                await gm.chat(tid, f"後 {i}")
            while got[-1].seq < 20:
                got.append(await feed.next(5))
            assert [e.seq for e in got] == list(range(1, 21))
            truth = fold(
                TableState(table_id=tid), await store.read(tid), table.ruleset, table.reader
            )
            assert table.state == truth and truth.seq == 20
            await watcher.close()
    finally:
        await stop_server(running)
