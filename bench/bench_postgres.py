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


async def bench_raw(url: str, n: int, conns: int) -> dict[str, float]:
    """The database's own speed with rows shaped like taku's (see the module docstring)."""
    dsn, schema = split_url(url)
    s = f'"{schema}"'
    settings = {"synchronous_commit": "on"}
    first = await asyncpg.connect(dsn, server_settings=settings)
    others = [await asyncpg.connect(dsn, server_settings=settings) for _ in range(conns - 1)]
    try:
        await first.execute(f"CREATE SCHEMA IF NOT EXISTS {s}")
        await first.execute(f"DROP TABLE IF EXISTS {s}.raw_events")
        await first.execute(RAW_DDL.format(s=s))
        sql = RAW_INSERT.format(s=s)

        rows = [raw_row("r1", seq) for seq in range(1, n + 1)]
        t0 = time.perf_counter()
        for row in rows:
            await first.execute(sql, *row)
        one = n / (time.perf_counter() - t0)

        per = max(n // conns, 1)
        streams = [[raw_row(f"r8-{k}", seq) for seq in range(1, per + 1)] for k in range(conns)]

        async def loop(conn: asyncpg.Connection, rows: list[tuple[Any, ...]]) -> None:
            for row in rows:
                await conn.execute(sql, *row)

        t0 = time.perf_counter()
        await asyncio.gather(*(loop(c, r) for c, r in zip([first, *others], streams, strict=True)))
        eight = per * conns / (time.perf_counter() - t0)

        batches = [
            [raw_row(f"rm-{b}-{i}", 1) for i in range(100)] for b in range(max(n * 5 // 100, 1))
        ]
        t0 = time.perf_counter()
        for batch in batches:
            async with first.transaction():
                await first.executemany(sql, batch)
        many = 100 * len(batches) / (time.perf_counter() - t0)
        await first.execute(f"DROP TABLE {s}.raw_events")
    finally:
        for c in [first, *others]:
            await c.close()
    return {"raw_one_per_s": one, "raw_eight_per_s": eight, "raw_many_per_s": many}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def bench_appends(url: str, n: int, writers: int) -> dict[str, float]:
    store = PostgresEventStore(url, pool_size=max(writers, 2))
    await store.open()
    try:
        tid = await new_table(store)
        t0 = time.perf_counter()
        await write_n(store, tid, n)
        one = n / (time.perf_counter() - t0)

        tables = [await new_table(store) for _ in range(writers)]
        per = max(n // writers, 1)
        t0 = time.perf_counter()
        await asyncio.gather(*(write_n(store, t, per) for t in tables))
        many = per * writers / (time.perf_counter() - t0)

        hundred = [await new_table(store) for _ in range(100)]
        per100 = max(n * 2 // 100, 1)
        t0 = time.perf_counter()
        await asyncio.gather(*(write_n(store, t, per100) for t in hundred))
        wide = per100 * 100 / (time.perf_counter() - t0)
    finally:
        await store.close()
    return {"one_table_per_s": one, "parallel_per_s": many, "hundred_per_s": wide}


async def write_n(store: PostgresEventStore, t: str, n: int) -> None:
    """``n`` appends of one event to table ``t`` (made beforehand, as the raw rows are)."""
    commands = [make_events(t, seq) for seq in range(2, n + 2)]
    for seq, events in enumerate(commands, 2):
        await store.append(t, events, expected_seq=seq - 1)


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
    p.add_argument("--runs", type=int, default=3, help="rounds; each figure's median is printed")
    args = p.parse_args()
    url = with_schema(args.db, "taku_bench_" + uuid.uuid4().hex[:12])
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / ("taku-bench-" + uuid.uuid4().hex[:8])
    tmp.mkdir(parents=True)
    runs: list[dict[str, float]] = []
    try:
        for r in range(args.runs):
            fig = await bench_raw(url, args.appends, 8)
            fig |= await bench_appends(url, args.appends, args.writers)
            fig |= await bench_delivery(url, args.commands, tmp)
            fig["ratio_one"] = fig["one_table_per_s"] / fig["raw_one_per_s"]
            fig["ratio_eight"] = fig["parallel_per_s"] / fig["raw_eight_per_s"]
            fig["ratio_hundred"] = fig["hundred_per_s"] / fig["raw_many_per_s"]
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
        f"raw asyncpg, executemany of 100 rows per transaction: {m['raw_many_per_s']:6.0f} rows/s"
    )
    print(
        f"append, one table, one writer:  {m['one_table_per_s']:8.0f} appends/s"
        f"  ratio {m['ratio_one']:.2f} to raw, 1 connection"
    )
    print(
        f"append, {args.writers} tables at once:      {m['parallel_per_s']:8.0f} appends/s"
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
