"""Load generator: T tables x C clients against taku or the bare broadcast server.

Each client sends chat commands and measures command-to-broadcast latency: the
time from sending a command to receiving its broadcast (taku: the ``event``
carrying the command id; bare: the echoed message). Closed loop (each client
waits for its own broadcast before sending again) measures the most commands
per second; open loop (a fixed total rate) measures latency at a given load.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri


class _Seen(msgspec.Struct):
    """The fields a client times by: taku's ``type`` and ``command_id``, the bare echo's ``cid``.

    Decoding only these (msgspec skips the rest in C) keeps the load generator's own
    CPU small and alike for both servers: on a 2-core machine it shares the cores
    with the server it measures, so parsing taku's larger frames in full would slow
    taku's figures down for a cost that is not taku's.
    """

    type: str = ""
    command_id: str | None = None
    cid: str | None = None


_seen = msgspec.json.Decoder(_Seen).decode


@dataclass
class Result:
    commands: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)

    @property
    def per_s(self) -> float:
        return self.commands / self.seconds

    def pct(self, p: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        xs = sorted(self.latencies_ms)
        return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]

    def line(self) -> str:
        return (
            f"{self.per_s:9.0f} cmd/s   p50 {self.pct(50):7.2f} ms   p99 {self.pct(99):7.2f} ms"
            f"   (p90 {self.pct(90):.2f}, p99.9 {self.pct(99.9):.2f}; {self.commands} commands)"
        )


class _Wire(asyncio.Protocol):
    """One WebSocket client connection on websockets' Sans-I/O protocol.

    The load generator drives 500 connections, each receiving every broadcast of
    its table: with the asyncio client each message wakes a task, and the
    generator (one Python thread on the same 2 cores as the server) saturates
    before the servers do. Here a received message is a plain callback.
    """

    def __init__(self, url: str) -> None:
        self.protocol = ClientProtocol(parse_uri(url), max_size=2**22)
        self.transport: asyncio.Transport | None = None
        self.open: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.on_message: Callable[[bytes], None] = self.inbox.put_nowait

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if not self.open.done():
                    if self.protocol.handshake_exc is not None:
                        self.open.set_exception(self.protocol.handshake_exc)
                    else:
                        self.open.set_result(None)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.on_message(event.data)
        self._flush()  # pongs, close frames

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.open.done():
            self.open.set_exception(exc or ConnectionError("closed during the handshake"))

    def _flush(self) -> None:
        data = self.protocol.data_to_send()
        if self.transport is not None and data:
            self.transport.write(b"".join(data))

    def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    async def recv(self) -> bytes:
        return await self.inbox.get()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def _connect(url: str) -> _Wire:
    uri = parse_uri(url)
    _, wire = await asyncio.get_running_loop().create_connection(
        lambda: _Wire(url), uri.host, uri.port
    )
    await wire.open
    return wire


class Client:
    """One connection, sending its own chat commands and timing their broadcasts."""

    def __init__(self, ws: _Wire, table: str, name: str, taku: bool) -> None:
        self.ws, self.table, self.name, self.taku = ws, table, name, taku
        self.sent: dict[str, float] = {}
        self.lat: list[float] = []
        self.n = 0
        self.done: asyncio.Event = asyncio.Event()
        ws.on_message = self.received

    def frame(self) -> tuple[str, str]:
        self.n += 1
        cid = f"{self.name}-{self.n}"
        if self.taku:
            msg = {
                "type": "command",
                "table_id": self.table,
                "command_id": cid,
                "command": {"type": "chat", "text": "bench " + cid},
            }
        else:
            msg = {"cid": cid, "text": "bench " + cid}
        return cid, json.dumps(msg)

    def received(self, raw: bytes) -> None:
        msg = _seen(raw)
        cid = msg.command_id if self.taku else msg.cid
        if self.taku and msg.type != "event":
            return
        t0 = self.sent.pop(cid, None) if cid else None
        if t0 is not None:
            self.lat.append((time.perf_counter() - t0) * 1000)
            self.done.set()

    def send(self) -> None:
        cid, frame = self.frame()
        self.done.clear()
        self.sent[cid] = time.perf_counter()
        self.ws.send(frame)


async def _request(ws: _Wire, msg: dict[str, Any], until: str) -> dict[str, Any]:
    ws.send(json.dumps(msg))
    while True:
        reply = json.loads(await ws.recv())
        if reply["type"] == until:
            return reply


async def _setup_taku(url: str, tables: int, clients: int) -> list[Client]:
    out: list[Client] = []
    for t in range(tables):
        gm = await _connect(url)
        created = await _request(
            gm, {"type": "create_table", "ruleset": "generic", "name": f"bench{t}"}, "created"
        )
        tid = created["table_id"]
        conns = [gm] + [await _connect(url) for _ in range(clients - 1)]
        for i, ws in enumerate(conns):
            if i:
                await _request(
                    ws,
                    {
                        "type": "join",
                        "table_id": tid,
                        "token": created["player_token"],
                        "name": f"p{i}",
                    },
                    "joined",
                )
            await _request(
                ws, {"type": "subscribe", "table_id": tid, "after_seq": 10**9}, "subscribed"
            )
            out.append(Client(ws, tid, f"t{t}c{i}", True))
    return out


async def _setup_bare(url: str, tables: int, clients: int) -> list[Client]:
    out = []
    for t in range(tables):
        for i in range(clients):
            ws = await _connect(url)
            ws.send(json.dumps({"join": f"t{t}"}))
            out.append(Client(ws, f"t{t}", f"t{t}c{i}", False))
    return out


async def run(
    url: str, *, taku: bool, tables: int, clients: int, seconds: float, rate: float | None = None
) -> Result:
    """Drive the server; ``rate`` (commands/s, all clients together) makes it open loop."""
    cs = await (_setup_taku if taku else _setup_bare)(url, tables, clients)
    stop = time.perf_counter() + seconds

    async def closed_loop(c: Client) -> None:
        while time.perf_counter() < stop:
            c.send()
            try:
                await asyncio.wait_for(c.done.wait(), 10)
            except TimeoutError:
                return

    async def open_loop(c: Client, interval: float) -> None:
        await asyncio.sleep(random.random() * interval)
        nxt = time.perf_counter()
        while time.perf_counter() < stop:
            c.send()
            nxt += interval
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))

    t0 = time.perf_counter()
    if rate is None:
        await asyncio.gather(*(closed_loop(c) for c in cs))
    else:
        await asyncio.gather(*(open_loop(c, len(cs) / rate) for c in cs))
    await asyncio.sleep(0.5)
    elapsed = time.perf_counter() - t0
    lat = [x for c in cs for x in c.lat]
    for c in cs:
        c.ws.close()
    return Result(commands=len(lat), seconds=elapsed - 0.5, latencies_ms=lat)


def summary(results: dict[str, Any]) -> str:
    return "\n".join(f"{k:40} {v.line()}" for k, v in results.items())


if __name__ == "__main__":  # pragma: no cover
    import sys

    url, kind, tables, clients = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    res = asyncio.run(run(url, taku=kind == "taku", tables=tables, clients=clients, seconds=5))
    print(res.line(), f"mean {statistics.mean(res.latencies_ms):.2f} ms")
