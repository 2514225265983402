"""Durable timers on several nodes sharing PostgreSQL: one expiry is appended, however
many nodes hold the table armed (issue #20, item 3).

- two hubs in one process on the same schema, a fake clock, both firing at once:
  exactly one ``timer_expired``; the other's attempt is refused and ignored;
- two real ``taku serve`` nodes, the table open on both, a 1 s timer: both clients see
  the one expiry; a node started afterwards on the same schema arms nothing again;
- a node that never held the table expires a timer set on a node that died since.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING, Any

import pytest

from taku.app import Hub
from taku.core.commands import Chat, SetTimer
from taku.plugins import load_registry
from taku.store.postgres import PostgresEventStore

if TYPE_CHECKING:  # the fixtures hand out conftest's Client
    from conftest import Client

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

T0 = dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC)


async def test_two_hubs_firing_at_once_append_one_expiry(pg_url: str) -> None:
    """Both nodes have the table loaded and its timer armed; the clock passes the deadline
    and both fire together: the store's lock and expected seq let one append, the other
    sees the timer gone (or its command id taken) and appends nothing."""
    now = [T0]
    stores = [PostgresEventStore(pg_url), PostgresEventStore(pg_url)]
    for s in stores:
        await s.open()
    hubs = [Hub(s, load_registry(), clock=lambda: now[0]) for s in stores]
    try:
        created = await hubs[0].create_table(ruleset="generic", name="分散タイマー")
        tid = created.table_id
        a = await hubs[0].table(tid)
        b = await hubs[1].table(tid)
        await a.execute(created.member_id, SetTimer(duration_s=60), command_id="s1")
        for _ in range(200):  # B folds A's timer_set through its pump
            if b.state.timers:
                break
            await asyncio.sleep(0.01)
        assert b.state.timers and a.state.timers
        assert await stores[1].timer_tables() == [tid]
        now[0] = T0 + dt.timedelta(seconds=60)
        fired = await asyncio.gather(*(h.fire_due_timers() for h in hubs))
        assert sorted(fired) == [0, 1]
        recs = await stores[0].read(tid)
        assert [r.type for r in recs].count("timer_expired") == 1
        # both nodes end with the timer gone, and go on at the same seq
        await b.execute(created.member_id, Chat(text="続き"), command_id="c1")
        for _ in range(200):
            if a.state.seq == b.state.seq:
                break
            await asyncio.sleep(0.01)
        assert a.state.seq == b.state.seq == recs[-1].seq + 1
        assert not a.state.timers and not b.state.timers
        assert await stores[0].timer_tables() == []
    finally:
        for h in hubs:
            await h.close()
        for s in stores:
            await s.close()


async def _join_subscribe(c: Client, tid: str, token: str) -> None:
    await c.expect({"type": "join", "table_id": tid, "token": token, "name": "見学"}, "joined")
    await c.expect({"type": "subscribe", "table_id": tid, "after_seq": 0}, "subscribed")


def _expiries(events: list[dict[str, Any]]) -> list[int]:
    return [e["seq"] for e in events if e["event"]["type"] == "timer_expired"]


async def test_two_nodes_one_expiry(start_nodes, client) -> None:  # type: ignore[no-untyped-def]
    """A 1 s timer set on node A, the table followed on node B: one timer_expired, seen by
    the clients of both nodes at the same seq; a third node started later re-arms nothing."""
    a, b = await start_nodes(2)
    gm = await client(a.ws_url, "gm@A")
    created = await gm.expect(
        {"type": "create_table", "ruleset": "generic", "name": "分散卓"}, "created"
    )
    tid = created["table_id"]
    await gm.expect({"type": "subscribe", "table_id": tid, "after_seq": 0}, "subscribed")
    watcher = await client(b.ws_url, "spectator@B")
    await _join_subscribe(watcher, tid, created["spectator_token"])
    ack = await gm.expect(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "set-timer-1",
            "command": {"type": "set_timer", "duration_s": 1, "label": "手番"},
        },
        "ack",
    )
    await watcher.until_seq(ack["last_seq"])
    await gm.until_seq(ack["last_seq"] + 1)
    await watcher.until_seq(ack["last_seq"] + 1)
    # B also woke at the deadline; a round trip through a later command lets its attempt land
    await asyncio.sleep(0.3)
    done = await gm.expect({"type": "chat", "table_id": tid, "text": "時間切れ"}, "ack")
    await watcher.until_seq(done["last_seq"])
    assert _expiries(gm.events) == _expiries(watcher.events) == [ack["last_seq"] + 1]
    expired = gm.events[ack["last_seq"]]
    assert expired.get("actor") is None and expired["text"] == "時間切れ: タイマー「手番」"
    (c,) = await start_nodes(1)
    late = await client(c.ws_url, "gm@C")
    await late.expect({"type": "join", "table_id": tid, "token": created["gm_token"]}, "joined")
    log = await late.expect({"type": "get_log", "table_id": tid, "limit": 500}, "log")
    assert [e["event"]["type"] for e in log["events"]].count("timer_expired") == 1


async def test_a_node_that_never_held_the_table_arms_its_timer(pg_url: str) -> None:
    """Node A sets a timer and dies before its deadline; node B, running all along but
    never asked for the table, finds the timer on its next look (``timer_rescan_s``)
    and expires it once."""
    now = [T0]
    a_store, b_store = PostgresEventStore(pg_url), PostgresEventStore(pg_url)
    await a_store.open()
    await b_store.open()
    a = Hub(a_store, load_registry(), clock=lambda: now[0])
    b = Hub(b_store, load_registry(), clock=lambda: now[0], timer_rescan_s=0.05)
    try:
        assert await b.arm_timers() == 0  # B starts: nothing to arm yet
        created = await a.create_table(ruleset="generic", name="分散タイマー")
        tid = created.table_id
        table = await a.table(tid)
        await table.execute(created.member_id, SetTimer(duration_s=60), command_id="s1")
        await a.close()  # A is gone, its timer still armed in the log
        for _ in range(400):
            if b.loaded(tid) is not None:
                break
            await asyncio.sleep(0.01)
        held = b.loaded(tid)
        assert held is not None and held.state.timers
        now[0] = T0 + dt.timedelta(seconds=60)
        assert await b.fire_due_timers() == 1
        assert [r.type for r in await b_store.read(tid)].count("timer_expired") == 1
    finally:
        await b.close()
        await a_store.close()
        await b_store.close()
