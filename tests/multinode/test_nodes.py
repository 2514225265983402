"""Two taku processes on one PostgreSQL, over real WebSocket connections.

- clients on both nodes at one table, commands interleaved from both sides:
  every client ends with the same gap-free seq and the same folded state;
- a node killed with SIGKILL mid-stream: its clients resume on the other node
  from their last seq, nothing lost, nothing repeated;
- concurrent commands on one table from both nodes: no duplicate seq, no lost
  command (one append wins each seq; the loser decides again after it).
"""

from __future__ import annotations

import asyncio
import urllib.parse
from typing import TYPE_CHECKING, Any

import asyncpg
import pytest

from taku.store.postgres import split_url

if TYPE_CHECKING:  # the fixtures hand out conftest's Client
    from conftest import Client

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def create_table(gm: Client) -> dict[str, Any]:
    return await gm.expect(
        {"type": "create_table", "ruleset": "generic", "name": "分散卓"}, "created"
    )


async def join(c: Client, table_id: str, token: str, name: str = "") -> dict[str, Any]:
    return await c.expect(
        {"type": "join", "table_id": table_id, "token": token, "name": name}, "joined"
    )


async def subscribe(c: Client, table_id: str, after_seq: int = 0) -> dict[str, Any]:
    return await c.expect(
        {"type": "subscribe", "table_id": table_id, "after_seq": after_seq}, "subscribed"
    )


def chat(table_id: str, command_id: str, text: str) -> dict[str, Any]:
    return {"type": "chat", "table_id": table_id, "command_id": command_id, "text": text}


def stream(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a viewer saw, minus nothing: seq, command, event, rendered line."""
    return [
        (e["seq"], e["command_id"], e["event"], e.get("text"), e.get("redacted", False))
        for e in events
    ]


async def settle(c: Client, seq: int) -> None:
    """Wait for ``seq``, then one round trip, so anything sent before it (a repeat, say) has arrived."""
    await c.until_seq(seq)
    await c.expect({"type": "hello"}, "welcome")


async def test_interleaved_commands_from_both_nodes_end_in_one_state(start_nodes, client) -> None:  # type: ignore[no-untyped-def]
    """GM on node A, player on node B, a spectator on each: all end at the same gap-free seq and state."""
    a, b = await start_nodes(2)
    gm = await client(a.ws_url, "gm@A")
    created = await create_table(gm)
    tid = created["table_id"]
    pl = await client(b.ws_url, "player@B")
    me = await join(pl, tid, created["player_token"], "たろう")
    spec_a = await client(a.ws_url, "spectator@A")
    spec_b = await client(b.ws_url, "spectator@B")
    for s in (spec_a, spec_b):
        await join(s, tid, created["spectator_token"], "見学")
    everyone = [gm, pl, spec_a, spec_b]
    for c in everyone:
        await subscribe(c, tid)

    acks: dict[str, dict[str, Any]] = {}

    async def side(c: Client, tag: str, rounds: int) -> None:
        # each round: three commands in flight at once, a dice roll among them
        for r in range(rounds):
            cids = [f"{tag}-{r}-{k}" for k in range(3)]
            texts = ["2D6>=7 攻撃", f"{tag} の手番 {r}", "1D100<=50"]
            futures = [
                await c.send(chat(tid, cid, text)) for cid, text in zip(cids, texts, strict=True)
            ]
            for cid, fut in zip(cids, futures, strict=True):
                ack = await asyncio.wait_for(fut, 15)
                assert ack["type"] == "ack" and not ack.get("duplicate"), ack
                acks[cid] = ack

    await asyncio.gather(side(gm, "gm", 12), side(pl, "pl", 12))

    final = max(ack["last_seq"] for ack in acks.values())
    for c in everyone:
        await settle(c, final)
        assert [e["seq"] for e in c.events] == list(range(1, final + 1)), c.name
    # every viewer saw the same events (all public), byte for byte
    assert stream(spec_a.events) == stream(spec_b.events) == stream(gm.events) == stream(pl.events)
    # each command once, at the seqs its ack named
    by_command: dict[str, list[int]] = {}
    for e in gm.events:
        by_command.setdefault(e["command_id"], []).append(e["seq"])
    for cid, ack in acks.items():
        assert by_command[cid] == list(range(ack["first_seq"], ack["last_seq"] + 1)), cid
    # both nodes folded the same table: the player's own view asked of A and of B is one
    twin = await client(a.ws_url, "player@A")
    await join(twin, tid, me["member_token"])
    states = [await c.expect({"type": "get_state", "table_id": tid}, "state") for c in (pl, twin)]
    assert states[0]["seq"] == states[1]["seq"] == final
    assert states[0]["state"] == states[1]["state"]
    spectators = [
        await c.expect({"type": "get_state", "table_id": tid}, "state") for c in (spec_a, spec_b)
    ]
    assert [{**v["state"], "you": None} for v in spectators] == [
        {**spectators[0]["state"], "you": None}
    ] * 2


async def test_killed_node_clients_resume_on_the_other_node(start_nodes, client) -> None:  # type: ignore[no-untyped-def]
    """Node A dies by SIGKILL with commands in flight; its clients rejoin on B from their last seq."""
    a, b = await start_nodes(2)
    gm = await client(b.ws_url, "gm@B")
    created = await create_table(gm)
    tid = created["table_id"]
    pl = await client(a.ws_url, "player@A")
    me = await join(pl, tid, created["player_token"], "たろう")
    spec = await client(a.ws_url, "spectator@A")
    spec_me = await join(spec, tid, created["spectator_token"], "見学")
    for c in (gm, pl, spec):
        await subscribe(c, tid)

    n = 60
    pl_cids = [f"pl-{i}" for i in range(n)]
    pl_acks: dict[str, dict[str, Any]] = {}
    gm_acks: dict[str, dict[str, Any]] = {}
    killed = asyncio.Event()

    async def gm_stream() -> None:
        # the GM on B keeps the stream going before, during and after the kill
        for i in range(40):
            ack = await gm.request(chat(tid, f"gm-{i}", f"GM {i}"))
            assert ack["type"] == "ack"
            gm_acks[f"gm-{i}"] = ack
            if i == 20:
                await killed.wait()

    async def player_on_a() -> list[str]:
        """Sends with up to 4 commands in flight until the connection dies; returns the unacknowledged."""
        pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        for cid in pl_cids:
            pending[cid] = await pl.send(chat(tid, cid, f"たろう {cid}"))
            if len(pending) >= 4:
                first = next(iter(pending))
                try:
                    pl_acks[first] = await asyncio.wait_for(pending.pop(first), 15)
                except ConnectionError:
                    break
        for cid, fut in list(pending.items()):
            try:
                pl_acks[cid] = await asyncio.wait_for(fut, 15)
            except ConnectionError:
                pass
        return [cid for cid in pl_cids if cid not in pl_acks]

    gm_task = asyncio.create_task(gm_stream())
    pl_task = asyncio.create_task(player_on_a())

    async def fifteen_acks() -> None:
        while len(pl_acks) < 15:
            assert not pl_task.done(), pl_task
            await asyncio.sleep(0.005)

    await asyncio.wait_for(fifteen_acks(), 30)
    a.kill()  # mid-stream: commands of the player are in flight
    killed.set()
    unacked = await asyncio.wait_for(pl_task, 20)
    assert unacked, "the kill came after the player had finished"
    assert pl.closed and spec.closed

    # resume on B: rejoin with the member tokens, subscribe after the last seq seen
    pl2 = await client(b.ws_url, "player@B")
    again = await join(pl2, tid, me["member_token"])
    assert again["member_id"] == me["member_id"]
    await subscribe(pl2, tid, after_seq=pl.last_seq)
    spec2 = await client(b.ws_url, "spectator@B")
    assert (await join(spec2, tid, spec_me["member_token"]))["member_id"] == spec_me["member_id"]
    await subscribe(spec2, tid, after_seq=spec.last_seq)
    # what had no ack is sent again with the same command id: written at most once
    for cid in unacked:
        ack = await pl2.request(chat(tid, cid, f"たろう {cid}"))
        assert ack["type"] == "ack", ack
        pl_acks[cid] = ack
    await asyncio.wait_for(gm_task, 30)

    final = max(ack["last_seq"] for ack in [*pl_acks.values(), *gm_acks.values()])
    for old, new in ((pl, pl2), (spec, spec2)):
        await settle(new, final)
        seen = [e["seq"] for e in old.events + new.events]
        assert seen == list(range(1, final + 1)), f"{new.name}: gap or repeat across the resume"
    await settle(gm, final)
    assert stream(pl.events + pl2.events) == stream(gm.events)
    written = [e["command_id"] for e in gm.events]
    for cid in pl_cids + list(gm_acks):
        assert written.count(cid) == 1, cid
    for cid, ack in pl_acks.items():
        assert written[ack["first_seq"] - 1] == cid


async def test_concurrent_commands_from_both_nodes_never_duplicate_a_seq(
    start_nodes, client, pg_url: str
) -> None:  # type: ignore[no-untyped-def]
    """Six writers, three on each node, all at once: every command written once, seqs 1..n exactly."""
    a, b = await start_nodes(2)
    gm = await client(a.ws_url, "gm@A")
    created = await create_table(gm)
    tid = created["table_id"]
    writers = []
    for i in range(6):
        c = await client((a if i % 2 else b).ws_url, f"w{i}")
        await join(c, tid, created["player_token"], f"w{i}")
        writers.append(c)

    async def burst(i: int, c: Client) -> list[dict[str, Any]]:
        futures = [await c.send(chat(tid, f"w{i}-{k}", f"w{i} {k}")) for k in range(10)]
        return [await asyncio.wait_for(f, 30) for f in futures]

    results = await asyncio.gather(*(burst(i, c) for i, c in enumerate(writers)))
    acks = [ack for r in results for ack in r]
    assert all(ack["type"] == "ack" and not ack.get("duplicate") for ack in acks), [
        x for x in acks if x["type"] != "ack"
    ]
    acked_seqs = sorted(ack["first_seq"] for ack in acks)
    assert len(set(acked_seqs)) == len(acks) == 60

    # node A learns of B's last appends a moment after B acknowledged them (NOTIFY, then a
    # read): wait until it has folded the last acknowledged seq, then compare
    top = max(ack["last_seq"] for ack in acks)
    for _ in range(500):
        if (await gm.expect({"type": "get_state", "table_id": tid}, "state"))["seq"] >= top:
            break
        await asyncio.sleep(0.01)
    log = await gm.expect({"type": "get_log", "table_id": tid, "limit": 5000}, "log")
    seqs = [e["seq"] for e in log["events"]]
    assert seqs == list(range(1, log["last_seq"] + 1))
    cids = [e["command_id"] for e in log["events"]]
    for ack in acks:
        assert cids.count(ack["command_id"]) == 1
        assert cids[ack["first_seq"] - 1] == ack["command_id"]
    # and in the database itself
    dsn, schema = split_url(pg_url)
    conn = await asyncpg.connect(dsn)
    try:
        n, distinct, top = await conn.fetchrow(
            f'SELECT count(*), count(DISTINCT seq), max(seq) FROM "{schema}".events WHERE table_id = $1',
            tid,
        )
    finally:
        await conn.close()
    assert n == distinct == top == log["last_seq"]


async def test_node_losing_its_database_connections_misses_nothing(
    start_nodes, client, pg_url: str
) -> None:  # type: ignore[no-untyped-def]
    """Every connection of node A to PostgreSQL is cut mid-stream; A's clients still get every event, once."""
    a, b = await start_nodes(2)
    gm = await client(b.ws_url, "gm@B")
    created = await create_table(gm)
    tid = created["table_id"]
    spec = await client(a.ws_url, "spectator@A")
    await join(spec, tid, created["spectator_token"])
    pl = await client(a.ws_url, "player@A")
    await join(pl, tid, created["player_token"], "たろう")
    for c in (gm, spec, pl):
        await subscribe(c, tid)
    for i in range(10):
        assert (await gm.request(chat(tid, f"gm-{i}", f"GM {i}")))["type"] == "ack"
    await spec.until_seq(gm.last_seq)

    # cut node A off: its listener and its pool, as a database restart or a network cut would
    dsn, _ = split_url(pg_url)
    admin = await asyncpg.connect(dsn)
    try:
        cut = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = $1 OR application_name LIKE $1 || '/%'",
            f"taku/{a.proc.pid}",
        )
    finally:
        await admin.close()
    assert cut >= 2  # at least the listener and one pooled connection
    for i in range(10, 30):  # appended on B while A reconnects
        assert (await gm.request(chat(tid, f"gm-{i}", f"GM {i}")))["type"] == "ack"

    # A writes again once it is back (a retry with the same command id is safe)
    for _attempt in range(50):
        ack = await pl.request(chat(tid, "pl-after", "戻った"))
        if ack["type"] == "ack":
            break
        assert ack["code"] == "store/unavailable", ack
        await asyncio.sleep(0.1)
    assert ack["type"] == "ack"
    final = ack["last_seq"]
    for c in (spec, pl, gm):
        await settle(c, final)
        assert [e["seq"] for e in c.events] == list(range(1, final + 1)), c.name
    assert stream(spec.events) == stream(gm.events)


async def test_database_password_is_never_printed(start_nodes, pg_url: str) -> None:  # type: ignore[no-untyped-def]
    """A node shows its --db URL at start with the password masked (trust auth ignores it here)."""
    parts = urllib.parse.urlsplit(pg_url)
    secret = "hunter2-" + parts.path.strip("/")
    user = parts.username or "postgres"
    with_password = urllib.parse.urlunsplit(
        parts._replace(netloc=f"{user}:{secret}@{parts.netloc.rpartition('@')[2]}")
    )
    (node,) = await start_nodes(1, db=with_password)
    node.stop()
    log = node.log_path.read_text()
    assert "serving" in log and f"{user}:***@" in log
    assert secret not in log
