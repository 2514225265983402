"""Idle connections (issue 16: 10,000 idle clients within 0.8x Colyseus's memory): a
joined, subscribed connection that sends nothing holds no handshake headers, no
per-connection waiter or keepalive task, no empty deque and not its last message,
only a few KiB of Python objects; one keepalive task pings them all and closes a
peer that stopped answering (1011)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import tracemalloc
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from taku.net import _FrameQueue
from taku.store import MemoryEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import start_server, stop_server

CONNECTIONS = 200


class _Wire:
    """A WebSocket client made of a bare socket (the server's objects are all a
    tracemalloc diff sees of it): masked text frames out, unmasked frames in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> _Wire:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def frame(self) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        b0, b1 = await self.reader.readexactly(2)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(await self.reader.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.reader.readexactly(8), "big")
        return b0 & 0x0F, await self.reader.readexactly(n)

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(msg).encode()
        assert len(data) < 126
        # FIN + text; masked with the key 0000 (the payload is then unchanged)
        self.writer.write(bytes([0x81, 0x80 | len(data)]) + b"\0\0\0\0" + data)
        while True:
            opcode, payload = await self.frame()
            if opcode == 0x1:
                reply: dict[str, Any] = json.loads(payload)
                if reply.get("re") == msg["id"]:
                    return reply


async def test_an_idle_subscribed_connection_holds_a_few_kib() -> None:
    running = await start_server(MemoryEventStore())
    try:
        gm = await Raw.connect(running.ws_url)
        created = await new_table(gm)
        tid, token = created["table_id"], created["player_token"]
        port = running.server.port
        await asyncio.sleep(0.1)
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            wires = []
            for i in range(CONNECTIONS):
                w = await _Wire.open(port)
                joined = await w.request(
                    {"type": "join", "table_id": tid, "token": token, "name": f"p{i}", "id": 1}
                )
                assert joined["type"] == "joined"
                sub = await w.request(
                    {"type": "subscribe", "table_id": tid, "after_seq": 10**9, "id": 2}
                )
                assert sub["type"] == "subscribed"
                wires.append(w)
            await asyncio.sleep(0.2)
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
        # the bare client's own streams are the test's, not the server's
        client = [tracemalloc.Filter(False, asyncio.streams.__file__)]
        stats = after.filter_traces(client).compare_to(before.filter_traces(client), "filename")
        grown = sum(s.size_diff for s in stats)
        per_connection_kib = grown / CONNECTIONS / 1024
        # each connection here is also a member of the table (its join event, its
        # Member) and the bare client's transport is in the same process: ~13.2 KiB in
        # all, where the handshake's headers, a waiter and websockets' keepalive task
        # per connection made it ~21, and two empty deques of websockets' (its drain
        # waiters, the Assembler's frame queue) and the last message held ~14.6
        assert per_connection_kib < 14.0, f"{per_connection_kib:.1f} KiB per idle connection"
        for ws in running.server._server.connections if running.server._server else ():
            assert not ws.request or not ws.request.headers  # dropped after the handshake
        for w in wires:
            w.writer.close()
        await gm.close()
    finally:
        await stop_server(running)


def _dropped(reason: str) -> float:
    from prometheus_client.parser import text_string_to_metric_families

    from taku import metrics

    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for sample in family.samples:
            if sample.name == "taku_connections_dropped_total" and sample.labels == {
                "reason": reason
            }:
                return sample.value
    return 0.0


async def test_one_keepalive_pings_every_connection_and_closes_a_silent_peer() -> None:
    """A client that answers pings stays connected through many intervals; a peer
    that reads but never answers a ping is closed with 1011 after the timeout, and
    counted as a ping timeout."""
    running = await start_server(MemoryEventStore(), ping_interval_s=0.1, ping_timeout_s=0.1)
    try:
        alive = await Raw.connect(running.ws_url)  # websockets answers pings itself
        silent = await _Wire.open(running.server.port)
        timeouts = _dropped("ping_timeout")
        pinged = False
        async with asyncio.timeout(5):
            while True:
                opcode, payload = await silent.frame()
                if opcode == 0x9:  # a ping, left unanswered
                    pinged = True
                elif opcode == 0x8:
                    break
        assert pinged
        assert int.from_bytes(payload[:2], "big") == 1011
        assert payload[2:] == b"keepalive ping timeout"
        silent.writer.close()
        for _ in range(100):
            if _dropped("ping_timeout") > timeouts:
                break
            await asyncio.sleep(0.02)
        assert _dropped("ping_timeout") == timeouts + 1
        created = await new_table(alive)  # still served, pings and all, after 0.3 s and more
        assert created["type"] == "created"
        await alive.close()
    finally:
        await stop_server(running)


_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers()),
        st.tuples(st.just("extendleft"), st.lists(st.integers(), max_size=4)),
        st.tuples(st.just("extend"), st.lists(st.integers(), max_size=4)),
        st.tuples(st.just("popleft"), st.none()),
        st.tuples(st.just("clear"), st.none()),
    ),
    max_size=40,
)


@given(_OPS)
def test_the_frame_queue_behaves_as_the_deque_it_replaces(ops: list[tuple[str, Any]]) -> None:
    """websockets' Assembler keeps its frames in what was a deque: the same answers,
    in the same order, for every sequence of what any release since 14 calls (put,
    get, put_back or reset, abort)."""
    import collections

    light, deque = _FrameQueue(), collections.deque[int]()
    for op, arg in ops:
        if op == "popleft":
            if not deque:
                try:
                    light.popleft()
                except IndexError:
                    continue
                raise AssertionError("popleft of an empty queue must raise IndexError")
            assert light.popleft() == deque.popleft()
        elif op == "clear":
            light.clear()
            deque.clear()
        else:
            getattr(light, op)(arg)
            getattr(deque, op)(arg)
        assert len(light) == len(deque)
        assert bool(light) == bool(deque)
    assert [light.popleft() for _ in range(len(light))] == list(deque)
