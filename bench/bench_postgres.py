"""PostgreSQL store and two-node delivery: appends per second, cross-node latency.

Run (a PostgreSQL server must answer; the benchmark makes its own schema and drops it)::

    .venv/bin/python bench/bench_postgres.py
    .venv/bin/python bench/bench_postgres.py --db postgresql://postgres@127.0.0.1:5432/test --commands 1000

What it measures, ``--runs`` times (default 3), printing each figure's median:

0. ``raw``: the yardstick, plain asyncpg against the same server and database in
   the same run, into an events-shaped table (``table_id, seq, command_id, type,
   envelope json``, primary key ``(table_id, seq)``, taku's real envelopes):
   single-row INSERTs, each its own transaction, on one connection and on eight
   at once; and ``executemany`` of 100 rows per transaction (rows/s).
1. ``append``: :class:`PostgresEventStore` appends (one command of one event
   each, durable and NOTIFYed): one writer on one table, then ``--writers``
   tables written at once through one store, then 100 tables at once; each as a
   ratio to its raw yardstick (1 connection, 8 connections, executemany-100).
   Each yardstick and its taku figure run in ``--blocks`` alternating blocks
   (yardstick, taku, yardstick, …; 5 by default), so that both see the same
   moments of a shared machine's load; each rate is its rows over the seconds
   of all its blocks.
2. ``B -> A``: two ``taku serve`` processes on the schema; a client on node B
   sends chat commands one after another, a client on node A is subscribed to
   the table; the time from sending on B to the event's arrival at A (through
   B's append, NOTIFY, A's read and A's push), p50 / p99. For comparison the
   same for a client on node B itself.

Not a test: numbers depend on the machine and the server's fsync.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

import asyncpg  # noqa: E402
import msgspec  # noqa: E402

from taku.core.events import Recorded  # noqa: E402
from taku.store.postgres import PostgresEventStore, drop_schema, split_url, with_schema  # noqa: E402
from taku.testing.store_contract import make_events, new_table  # noqa: E402

RAW_DDL = """
    CREATE TABLE {s}.raw_events (
        table_id text NOT NULL,
        seq bigint NOT NULL,
        command_id text NOT NULL,
        type text NOT NULL,
        envelope json NOT NULL,
        PRIMARY KEY (table_id, seq)
    )
"""
RAW_INSERT = (
    "INSERT INTO {s}.raw_events (table_id, seq, command_id, type, envelope) "
    "VALUES ($1, $2, $3, $4, $5::json)"
)


def raw_row(table_id: str, seq: int) -> tuple[str, int, str, str, str]:
    """A row as taku writes it: its real envelope."""
    e = make_events(table_id, seq)[0]
    return (table_id, seq, e.command_id, e.type, msgspec.json.encode(e).decode())


class Raw:
    """The yardstick: plain asyncpg on ``conns`` connections into ``raw_events`` (see the
    module docstring); each method writes the next ``n`` rows and returns the seconds taken."""

    def __init__(self, url: str, conns: int) -> None:
        self.url = url
        self.n_conns = conns
        self.conns: list[asyncpg.Connection] = []
        self.next: dict[str, int] = {}
        self.batches = 0

    async def open(self) -> None:
        dsn, schema = split_url(self.url)
        s = f'"{schema}"'
        settings = {"synchronous_commit": "on"}
        self.conns = [
            await asyncpg.connect(dsn, server_settings=settings) for _ in range(self.n_conns)
        ]
        first = self.conns[0]
        await first.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
        await first.execute(f"DROP TABLE IF EXISTS {s}.raw_events")
        await first.execute(RAW_DDL.format(s=s))
        self.sql = RAW_INSERT.format(s=s)
        self.s = s

    async def close(self) -> None:
        if self.conns:
            await self.conns[0].execute(f"DROP TABLE IF EXISTS {self.s}.raw_events")
        for c in self.conns:
            await c.close()

    def rows(self, stream: str, n: int) -> list[tuple[str, int, str, str, str]]:
        first = self.next.get(stream, 1)
        self.next[stream] = first + n
        return [raw_row(stream, seq) for seq in range(first, first + n)]

    async def one(self, n: int) -> float:
        """``n`` single-row transactions on one connection."""
        rows = self.rows("r1", n)
        conn = self.conns[0]
        t0 = time.perf_counter()
        for row in rows:
            await conn.execute(self.sql, *row)
        return time.perf_counter() - t0

    async def eight(self, n: int) -> float:
        """``n`` single-row transactions over every connection at once (``n / conns`` each)."""
        per = max(n // len(self.conns), 1)
        streams = [self.rows(f"r8-{k}", per) for k in range(len(self.conns))]

        async def loop(conn: asyncpg.Connection, rows: list[tuple[Any, ...]]) -> None:
            for row in rows:
                await conn.execute(self.sql, *row)

        t0 = time.perf_counter()
        await asyncio.gather(*(loop(c, r) for c, r in zip(self.conns, streams, strict=True)))
        return time.perf_counter() - t0

    async def many(self, n: int) -> float:
        """``n`` rows as ``executemany`` of 100 rows per transaction on one connection."""
        batches = []
        for _ in range(max(n // 100, 1)):  # 100 streams of one row each, as 100 tables' appends
            self.batches += 1
            batches.append([raw_row(f"rm-{self.batches}-{i}", 1) for i in range(100)])
        conn = self.conns[0]
        t0 = time.perf_counter()
        for batch in batches:
            async with conn.transaction():
                await conn.executemany(self.sql, batch)
        return time.perf_counter() - t0


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def bench_appends(url: str, n: int, writers: int, blocks: int) -> dict[str, float]:
    """Each taku figure against its yardstick, in ``blocks`` alternating blocks (yardstick,
    taku, yardstick, …), so that both see the same moments of a shared machine's load;
    a rate is the rows (appends) over the seconds of all its blocks."""
    raw = Raw(url, 8)
    await raw.open()
    store = PostgresEventStore(url, pool_size=max(writers, 2))
    await store.open()
    fig: dict[str, float] = {}
    try:
        tid = await new_table(store)
        tables = [await new_table(store) for _ in range(writers)]
        hundred = [await new_table(store) for _ in range(100)]
        next_seq = collections.Counter({t: 2 for t in [tid, *tables, *hundred]})

        async def taku(ts: list[str], per: int) -> float:
            starts = [next_seq[t] for t in ts]
            for t in ts:
                next_seq[t] += per
            commands = [
                [make_events(t, seq) for seq in range(first, first + per)]
                for t, first in zip(ts, starts, strict=True)
            ]
            t0 = time.perf_counter()
            await asyncio.gather(*(write(store, t, c) for t, c in zip(ts, commands, strict=True)))
            return time.perf_counter() - t0

        per_block = max(n // blocks, 1)
        cases = (  # name, yardstick, its rows per block, taku's tables, appends per table per block
            ("one", raw.one, per_block, [tid], per_block),
            ("eight", raw.eight, per_block, tables, max(per_block // writers, 1)),
            ("hundred", raw.many, per_block * 5, hundred, max(per_block * 2 // 100, 1)),
        )
        for name, yardstick, rows, ts, per in cases:
            t_raw = t_taku = 0.0
            for _ in range(blocks):
                t_raw += await yardstick(rows)
                t_taku += await taku(ts, per)
            fig[f"raw_{name}_per_s"] = rows * blocks / t_raw
            fig[f"{name}_per_s"] = per * len(ts) * blocks / t_taku
    finally:
        await store.close()
        await raw.close()
    return fig


async def write(store: PostgresEventStore, t: str, commands: list[list[Recorded]]) -> None:
    """Append ``commands`` (each a list of one event, made beforehand as the raw rows are)
    to table ``t``, one after another."""
    for events in commands:
        await store.append(t, events, expected_seq=events[0].seq - 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_node(url: str, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "taku.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        url,
    ]
    argv += ["--rate", "100000", "--log-level", "warning", "--json-logs"]
    proc = subprocess.Popen(
        argv, stdout=log.open("wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
    )
    for _ in range(600):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            ok = b" 200 " in await reader.readline()
            writer.close()
            if ok:
                return proc, port
        except OSError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"node exited: {log.read_text()[-2000:]}")
        await asyncio.sleep(0.05)
    raise SystemExit("node did not start")


async def bench_delivery(url: str, n: int, tmp: Path) -> dict[str, float]:
    from websockets.asyncio.client import connect

    (pa, port_a), (pb, port_b) = await asyncio.gather(
        start_node(url, tmp / "a.log"), start_node(url, tmp / "b.log")
    )
    try:
        ids = iter(range(1, 10**9))

        async def request(ws, msg: dict) -> dict:  # type: ignore[no-untyped-def]
            rid = next(ids)
            await ws.send(json.dumps({**msg, "id": rid}))
            while True:
                m = json.loads(await ws.recv())
                if m.get("re") == rid:
                    return m

        async with (
            connect(f"ws://127.0.0.1:{port_b}/ws", ping_interval=None) as sender,
            connect(f"ws://127.0.0.1:{port_a}/ws", ping_interval=None) as far,
            connect(f"ws://127.0.0.1:{port_b}/ws", ping_interval=None) as near,
        ):
            created = await request(
                sender, {"type": "create_table", "ruleset": "generic", "name": "bench"}
            )
            tid = created["table_id"]
            for ws in (far, near):
                await request(
                    ws, {"type": "join", "table_id": tid, "token": created["spectator_token"]}
                )
                sub = await request(ws, {"type": "subscribe", "table_id": tid})
                assert sub["type"] == "subscribed", sub

            async def arrival(ws, cid: str) -> float:  # type: ignore[no-untyped-def]
                while True:
                    m = json.loads(await ws.recv())
                    if m.get("type") == "event" and m.get("command_id") == cid:
                        return time.perf_counter()

            cross: list[float] = []
            local: list[float] = []
            for i in range(n + 20):
                cid = f"bench-{i}"
                waits = [asyncio.create_task(arrival(ws, cid)) for ws in (far, near)]
                t0 = time.perf_counter()
                await sender.send(
                    json.dumps(
                        {"type": "chat", "table_id": tid, "command_id": cid, "text": f"x{i}"}
                    )
                )
                t_far, t_near = await asyncio.gather(*waits)
                while True:  # the ack
                    m = json.loads(await sender.recv())
                    if m.get("type") in ("ack", "error"):
                        assert m["type"] == "ack", m
                        break
                if i >= 20:  # warm-up
                    cross.append((t_far - t0) * 1000)
                    local.append((t_near - t0) * 1000)
    finally:
        for p in (pa, pb):
            p.send_signal(signal.SIGTERM)
            p.wait(15)
    return {
        "cross_p50_ms": statistics.median(cross),
        "cross_p99_ms": pct(cross, 99),
        "local_p50_ms": statistics.median(local),
        "local_p99_ms": pct(local, 99),
    }


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--db",
        default=os.environ.get("TAKU_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"),
        help="a PostgreSQL URL (a scratch schema is made in it and dropped)",
    )
    p.add_argument("--appends", type=int, default=2000)
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--commands", type=int, default=500)
    p.add_argument(
        "--blocks", type=int, default=5, help="alternating yardstick/taku blocks per figure"
    )
    p.add_argument("--runs", type=int, default=3, help="rounds; each figure's median is printed")
    args = p.parse_args()
    url = with_schema(args.db, "taku_bench_" + uuid.uuid4().hex[:12])
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / ("taku-bench-" + uuid.uuid4().hex[:8])
    tmp.mkdir(parents=True)
    runs: list[dict[str, float]] = []
    try:
        for r in range(args.runs):
            fig = await bench_appends(url, args.appends, args.writers, args.blocks)
            fig |= await bench_delivery(url, args.commands, tmp)
            fig["ratio_one"] = fig["one_per_s"] / fig["raw_one_per_s"]
            fig["ratio_eight"] = fig["eight_per_s"] / fig["raw_eight_per_s"]
            fig["ratio_hundred"] = fig["hundred_per_s"] / fig["raw_hundred_per_s"]
            fig["ratio_cross_p99"] = fig["cross_p99_ms"] / fig["local_p99_ms"]
            runs.append(fig)
            print(f"run {r + 1}: " + ", ".join(f"{k} {v:.1f}" for k, v in fig.items()), flush=True)
    finally:
        await drop_schema(url)
    m = {k: statistics.median(f[k] for f in runs) for k in runs[0]}
    print(f"\nmedians of {args.runs} runs (each ratio: the median of the runs' own ratios):")
    print(f"raw asyncpg, single-row transactions, 1 connection: {m['raw_one_per_s']:8.0f} /s")
    print(f"raw asyncpg, single-row transactions, 8 connections: {m['raw_eight_per_s']:7.0f} /s")
    print(
        f"raw asyncpg, executemany of 100 rows per transaction: {m['raw_hundred_per_s']:6.0f} rows/s"
    )
    print(
        f"append, one table, one writer:  {m['one_per_s']:8.0f} appends/s"
        f"  ratio {m['ratio_one']:.2f} to raw, 1 connection"
    )
    print(
        f"append, {args.writers} tables at once:      {m['eight_per_s']:8.0f} appends/s"
        f"  ratio {m['ratio_eight']:.2f} to raw, 8 connections"
    )
    print(
        f"append, 100 tables at once:    {m['hundred_per_s']:8.0f} appends/s"
        f"  ratio {m['ratio_hundred']:.2f} to raw executemany-100"
    )
    print(
        f"command on B -> event at client on A: p50 {m['cross_p50_ms']:.2f} ms, p99 {m['cross_p99_ms']:.2f} ms"
        f"  ({args.commands} commands)"
    )
    print(
        f"command on B -> event at client on B: p50 {m['local_p50_ms']:.2f} ms, p99 {m['local_p99_ms']:.2f} ms"
        f"  (cross-node p99 / one-node p99: {m['ratio_cross_p99']:.2f})"
    )


if __name__ == "__main__":
    asyncio.run(main())
