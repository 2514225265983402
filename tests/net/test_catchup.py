"""Catch-up with flow control: a reader of any speed is never dropped, a non-reader is."""

from __future__ import annotations

import asyncio
import json
import socket
import struct

from structlog.testing import capture_logs
from websockets.asyncio.client import connect as ws_connect

from taku.core.commands import Chat
from taku.store import MemoryEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import start_server, stop_server

from .test_idle_connection import _dropped

BACKLOG = 128 * 1024


async def _long_table(running, gm: Raw, n: int, size: int = 1000) -> dict:
    """A table of ``n`` chat lines of ``size`` characters (more bytes than the backlog limit)."""
    created = await new_table(gm)
    table = await running.hub.table(created["table_id"])
    await asyncio.gather(
        *(
            table.execute("m2", Chat(text=f"{i}:" + "あ" * size), command_id=f"c{i}")
            for i in range(n)
        )
    )
    return created


async def small_window_member(running, created: dict, name: str) -> tuple[Raw, socket.socket]:
    """A member of ``created``'s table, joined, on a socket with a 4 KiB receive buffer
    (a reader whose window fills at once when it stops reading), and that socket."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", running.server.port))
    member = Raw(await ws_connect(running.ws_url, sock=sock, max_queue=1))
    await member.request(
        {
            "type": "join",
            "table_id": created["table_id"],
            "token": created["player_token"],
            "name": name,
        }
    )
    return member, sock


async def test_a_fast_reader_catches_up_past_the_backlog_limit_and_a_non_reader_is_dropped() -> (
    None
):
    """A catch-up of several times ``max_backlog_bytes`` reaches a reader whole and in
    order, live events during it following with no gap or repeat; a peer that reads
    nothing during its catch-up is dropped, and the server goes on."""
    running = await start_server(
        MemoryEventStore(),
        max_backlog_bytes=BACKLOG,
        catch_up_stall_s=0.5,
        rate_per_s=100_000.0,
        rate_burst=100_000,
    )
    sleeper = None
    try:
        gm = await Raw.connect(running.ws_url)
        created = await _long_table(running, gm, 2500)  # about 8 MB of frames
        tid = created["table_id"]
        table = running.hub.loaded(tid)
        assert table is not None and table.state.seq == 2502

        reader = await Raw.connect(running.ws_url)
        await reader.request(
            {"type": "join", "table_id": tid, "token": created["player_token"], "name": "よむ"}
        )

        async def live() -> None:  # events appended while the reader catches up
            for i in range(50):
                await table.execute("m2", Chat(text=f"live{i}"), command_id=f"live{i}")
                await asyncio.sleep(0)

        with capture_logs() as logs:
            writer = asyncio.create_task(live())
            sub = await reader.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
            await writer
            events = await reader.until_seq(table.state.seq)
        assert sub["type"] == "subscribed"
        assert [e["seq"] for e in events] == list(range(1, table.state.seq + 1))
        assert not any(e["event"] == "connection_dropped_backlog" for e in logs)

        sleeper, _ = await small_window_member(running, created, "zzz")
        backlog_drops = _dropped("backlog")
        with capture_logs() as logs:
            await sleeper.ws.send(json.dumps({"type": "subscribe", "table_id": tid, "id": 99}))
            for _ in range(100):
                if any(e["event"] == "connection_dropped_backlog" for e in logs):
                    break
                await asyncio.sleep(0.05)
        assert any(e["event"] == "connection_dropped_backlog" for e in logs), "still connected"
        assert sleeper.ws.transport.is_closing() or True  # the server aborted its side
        for _ in range(100):  # counted as dropped for its backlog once its connection ended
            if _dropped("backlog") > backlog_drops:
                break
            await asyncio.sleep(0.02)
        assert _dropped("backlog") == backlog_drops + 1
        ack = await gm.request({"type": "chat", "table_id": tid, "text": "まだいる"})
        assert ack["type"] == "ack"
        assert not any(s.member_id != "m2" and not s.live for s in table.subscriptions), (
            "the dropped catch-up left no subscription behind"
        )
        await gm.close()
        await reader.close()
    finally:
        if sleeper is not None:
            sleeper.ws.transport.abort()  # type: ignore[attr-defined]
        await stop_server(running)


async def test_get_log_pages_of_a_long_table_stay_small_and_cover_it() -> None:
    """``get_log`` of a table whose events outweigh any one frame answers in pages of
    bounded size (a reader of the default 1 MiB frame limit takes each), which page
    on the last seq through the whole log with no gap."""
    running = await start_server(
        MemoryEventStore(), max_backlog_bytes=BACKLOG, rate_per_s=100_000.0, rate_burst=100_000
    )
    try:
        gm = await Raw.connect(running.ws_url)
        created = await _long_table(running, gm, 1000)  # about 3 MB of frames
        seqs: list[int] = []
        while True:
            page = await gm.request(
                {
                    "type": "get_log",
                    "table_id": created["table_id"],
                    "after_seq": seqs[-1] if seqs else 0,
                    "limit": 5000,
                }
            )
            if not page["events"]:
                break
            assert len(json.dumps(page["events"], ensure_ascii=False).encode()) < 1024 * 1024
            seqs += [e["seq"] for e in page["events"]]
        assert seqs == list(range(1, 1003))
        await gm.close()
    finally:
        await stop_server(running)


async def test_a_reader_that_resets_its_connection_during_its_catch_up_ends_it_quietly() -> None:
    """A peer that stops reading during its catch-up and then resets the connection (a
    closed laptop lid, a killed tab) ends its catch-up as a connection that went away:
    no ``internal_error`` with a traceback, its subscription gone, the server going on."""
    running = await start_server(
        MemoryEventStore(), catch_up_stall_s=30.0, rate_per_s=100_000.0, rate_burst=100_000
    )
    try:
        gm = await Raw.connect(running.ws_url)
        created = await _long_table(running, gm, 300)
        tid = created["table_id"]
        table = running.hub.loaded(tid)
        assert table is not None
        peer, sock = await small_window_member(running, created, "ねる")
        server_side = next(
            c for c in running.server._server.connections if c.remote_address == sock.getsockname()
        )
        server_side.transport.get_extra_info("socket").setsockopt(
            socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
        )
        with capture_logs() as logs:
            peer.ws.transport.pause_reading()  # type: ignore[attr-defined]
            await peer.ws.send(json.dumps({"type": "subscribe", "table_id": tid, "id": 7}))
            for _ in range(200):  # until the catch-up waits for the peer to take its pages
                if server_side.paused:
                    break
                await asyncio.sleep(0.01)
            assert server_side.paused, "the catch-up never filled the socket"
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            peer.ws.transport.abort()  # type: ignore[attr-defined]  # RST
            for _ in range(200):
                if server_side not in running.server._server.connections:
                    break
                await asyncio.sleep(0.01)
            ack = await gm.request({"type": "chat", "table_id": tid, "text": "まだいる"})
        assert ack["type"] == "ack"
        assert server_side not in running.server._server.connections
        assert not [e for e in logs if e["event"] == "internal_error"], "a reset is no server error"
        assert not any(s.member_id != "m2" and not s.live for s in table.subscriptions)
        await gm.close()
    finally:
        await stop_server(running)
