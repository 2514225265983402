"""PostgreSQL stopped and started under load, with two nodes serving one table (issue #25).

The test's own cluster (:class:`conftest.PrivateCluster`), never the shared server:
``taku_client`` users on both nodes keep sending dice commands, spectators on both
nodes follow; the database stops (a fast shutdown ends every session) for 3 s and
starts again on the same port. Commands sent while it is down are answered
``store/unavailable`` and sent again by taku_client with the same ids; the nodes
reconnect and LISTEN again, read what they missed, and no acknowledged event is lost
or doubled.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import pytest

from taku.store.postgres import with_schema
from taku_client import TakuClient

if TYPE_CHECKING:  # the fixtures hand out conftest's Client
    from conftest import Client, PrivateCluster

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DOWN_S = 3.0


def chat(table_id: str, command_id: str, text: str) -> dict[str, Any]:
    return {"type": "chat", "table_id": table_id, "command_id": command_id, "text": text}


async def full_log(c: Client, table_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = await c.expect(
            {"type": "get_log", "table_id": table_id, "after_seq": len(events), "limit": 5000},
            "log",
        )
        if not page["events"]:
            return events
        events += page["events"]


async def test_database_restart_under_load_loses_and_doubles_nothing(
    start_nodes, client, private_cluster: PrivateCluster
) -> None:  # type: ignore[no-untyped-def]
    db = with_schema(private_cluster.url, "taku_restart")
    a, b = await start_nodes(2, db=db)
    gm = await client(a.ws_url, "gm@A")
    created = await gm.expect(
        {"type": "create_table", "ruleset": "generic", "name": "再起動卓"}, "created"
    )
    tid = created["table_id"]
    spectators = []
    for node in (a, b):
        s = await client(node.ws_url, f"spectator@{node.name}")
        await s.expect(
            {"type": "join", "table_id": tid, "token": created["spectator_token"]}, "joined"
        )
        await s.expect({"type": "subscribe", "table_id": tid}, "subscribed")
        spectators.append(s)
    probe = await client(b.ws_url, "probe@B")
    await probe.expect(
        {"type": "join", "table_id": tid, "token": created["player_token"], "name": "probe"},
        "joined",
    )

    acks: dict[str, tuple[int, int]] = {}
    stop = asyncio.Event()
    users: list[TakuClient] = []

    async def player(k: int, urls: list[str]) -> None:
        tc = await TakuClient.connect(urls, command_timeout_s=8)
        users.append(tc)
        await tc.join(tid, created["player_token"], f"P{k}")
        while not stop.is_set():
            ack = await tc.chat(tid, f"P{k} 2D6>=7")
            acks[ack.command_id] = (ack.first_seq, ack.last_seq)

    tasks = [
        asyncio.create_task(player(k, [n.ws_url for n in ((a, b) if k % 2 else (b, a))]))
        for k in range(4)
    ]
    try:
        await asyncio.sleep(2.0)
        before = len(acks)
        assert before > 10, "the players should be writing"
        await asyncio.to_thread(private_cluster.stop)
        t_down = time.monotonic()
        answer = await probe.request(chat(tid, "probe-down", "1D6"), timeout_s=10)
        assert answer["type"] == "error" and answer["code"] == "store/unavailable", answer
        await asyncio.sleep(DOWN_S - (time.monotonic() - t_down))
        await asyncio.to_thread(private_cluster.start)
        # the probe's command, sent again with its id once the database is back, is written once
        for _attempt in range(100):
            answer = await probe.request(chat(tid, "probe-down", "1D6"), timeout_s=10)
            if answer["type"] == "ack":
                break
            assert answer["code"] == "store/unavailable", answer
            await asyncio.sleep(0.1)
        assert answer["type"] == "ack", answer
        acks["probe-down"] = (answer["first_seq"], answer["last_seq"])
        after_restart = len(acks)
        t_up = time.monotonic()
        while len(acks) < after_restart + 20:
            assert time.monotonic() - t_up < 20, [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.05)
        print(f"players writing again {time.monotonic() - t_up:.2f} s after the probe's ack")
        stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
    finally:
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for tc in users:
            await tc.close()

    # the GM's node learns of the other node's last appends a moment after their acks
    top = max(last for _first, last in acks.values())
    for _ in range(500):
        if (await gm.expect({"type": "get_state", "table_id": tid}, "state"))["seq"] >= top:
            break
        await asyncio.sleep(0.01)
    events = await full_log(gm, tid)
    final = len(events)
    assert [e["seq"] for e in events] == list(range(1, final + 1))
    cids = [e["command_id"] for e in events]
    for cid, (first, last) in acks.items():
        assert cids[first - 1 : last] == [cid] * (last - first + 1), cid
        assert cids.count(cid) == last - first + 1, cid  # sent again, written once
    for s in spectators:  # each node read what it missed: every feed whole, no repeat
        await s.until_seq(final, timeout_s=10)
        assert [e["seq"] for e in s.events] == list(range(1, final + 1)), s.name
    states = [await c.expect({"type": "get_state", "table_id": tid}, "state") for c in spectators]
    assert states[0]["seq"] == states[1]["seq"] == final
    assert {**states[0]["state"], "you": None} == {**states[1]["state"], "you": None}
