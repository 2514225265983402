"""The server-wide keepalive task (issue 16) must not stall on one peer. websockets'
``ping()`` awaits the transport's drain, so a peer that answered its last ping and
then stopped reading while its table was busy (its transport past the write limit,
far below ``max_backlog_bytes``) would hold the one keepalive task in ``ping()``: no
connection is pinged any more and a dead peer is never closed with 1011."""

from __future__ import annotations

import asyncio
import json
import socket

from websockets.asyncio.client import connect

from taku.store import MemoryEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import start_server, stop_server

from .test_idle_connection import _Wire


async def test_a_peer_that_stops_reading_does_not_stall_the_keepalive_of_others() -> None:
    running = await start_server(
        MemoryEventStore(),
        ping_interval_s=1.0,
        ping_timeout_s=1.0,
        rate_per_s=100_000.0,
        rate_burst=100_000,
    )
    reader = None
    try:
        gm = await Raw.connect(running.ws_url)
        burst = await connect(running.ws_url, max_size=None)
        created = await new_table(gm)
        tid = created["table_id"]
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", running.server.port))
        reader = await connect(running.ws_url, sock=sock, max_queue=None, ping_interval=None)
        token = created["player_token"]
        await reader.send(
            json.dumps({"type": "join", "table_id": tid, "token": token, "name": "r"})
        )
        await reader.send(json.dumps({"type": "subscribe", "table_id": tid, "after_seq": 0}))
        await asyncio.sleep(1.5)  # it reads, and answers the keepalive's pings
        reader.transport.pause_reading()  # then it stops reading (a tab in the background)
        # the table is busy: the reader's transport goes past its write limit at once
        gm_token = created["gm_token"]
        await burst.send(json.dumps({"type": "join", "table_id": tid, "token": gm_token}))
        lines = [
            json.dumps({"type": "chat", "table_id": tid, "text": "x" * 900 + str(n)})
            for n in range(2000)
        ]

        def stalled() -> list[object]:
            return [
                ws
                for ws in running.server._server.connections  # type: ignore[union-attr]
                if ws.transport.get_write_buffer_size() > 64 * 1024
            ]

        # sent in windows until the reader's transport is past its write limit, so that
        # burst's own pongs never wait behind a long queue of its commands (on a loaded
        # machine they would, and the keepalive would close burst instead)
        for start in range(0, len(lines), 100):
            window = lines[start : start + 100]
            for line in window:
                await burst.send(line)
            acks = 0
            while acks < len(window):
                answer = json.loads(await burst.recv())
                assert answer["type"] != "error", answer
                acks += answer["type"] == "ack"
            if stalled():
                break
        (conn,) = stalled()
        # a peer that reads but never answers a ping is still closed with 1011 in time
        silent = await _Wire.open(running.server.port)
        async with asyncio.timeout(4):
            while True:
                opcode, payload = await silent.frame()
                if opcode == 0x8:
                    break
        assert int.from_bytes(payload[:2], "big") == 1011
        silent.writer.close()
        del conn
        reader.transport.abort()
        await gm.close()
        await burst.close()
    finally:
        if reader is not None:
            reader.transport.abort()  # else the server's stop waits on it too
        await stop_server(running)
