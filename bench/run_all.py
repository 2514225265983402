"""taku's benchmarks: prints figures and ratios to a bare websockets broadcast server.

    make bench            (or: .venv/bin/python bench/run_all.py [--seconds 5])

These machines are noisy, so taku's network figures are printed as ratios to
the bare server (bench/bare_server.py) measured in the same run with the same
load generator (bench/load.py). Targets (issue "Core"): at 100 tables x 5
clients, taku >= 0.5x the bare server's commands/s; p99 latency at half that
load <= 3x the bare server's; replay of the generic ruleset >= 500,000 events/s.
Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import load  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(cmd: list[str], port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return wait_open(proc, port)


def wait_open(
    proc: subprocess.Popen[bytes], port: int, tries: int = 200
) -> subprocess.Popen[bytes]:
    """``proc`` once it accepts connections on ``port`` (0.05 s between tries); killed
    and SystemExit when it never does."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit(f"server did not start: {proc.args}")


def network(seconds: float) -> None:
    db = Path(tempfile.mkdtemp()) / "bench.db"
    tport, bport = free_port(), free_port()
    taku = start(
        [
            sys.executable,
            "-m",
            "taku.cli",
            "serve",
            "--db",
            str(db),
            "--port",
            str(tport),
            "--rate",
            "1000000",
            "--creates-per-minute",
            "100000",
            "--log-level",
            "warning",
        ],
        tport,
    )
    bare = start([sys.executable, str(HERE / "bare_server.py"), str(bport)], bport)
    turl, burl = f"ws://127.0.0.1:{tport}/ws", f"ws://127.0.0.1:{bport}/"
    try:
        for tables, clients in ((1, 10), (100, 5)):
            print(f"\n== {tables} table(s) x {clients} clients, closed loop, {seconds:.0f} s each")
            b = asyncio.run(
                load.run(burl, taku=False, tables=tables, clients=clients, seconds=seconds)
            )
            t = asyncio.run(
                load.run(turl, taku=True, tables=tables, clients=clients, seconds=seconds)
            )
            print(f"  bare  {b.line()}")
            print(f"  taku  {t.line()}")
            print(
                f"  taku/bare throughput ratio {t.per_s / b.per_s:.2f}   p99 ratio {t.pct(99) / b.pct(99):.2f}"
            )
            if tables == 100:
                rate = t.per_s / 2
                print(
                    f"\n== {tables} x {clients}, open loop at half taku's throughput ({rate:.0f} cmd/s)"
                )
                b2 = asyncio.run(
                    load.run(
                        burl, taku=False, tables=tables, clients=clients, seconds=seconds, rate=rate
                    )
                )
                t2 = asyncio.run(
                    load.run(
                        turl, taku=True, tables=tables, clients=clients, seconds=seconds, rate=rate
                    )
                )
                print(f"  bare  {b2.line()}")
                print(f"  taku  {t2.line()}")
                print(
                    f"  taku/bare p50 ratio {t2.pct(50) / b2.pct(50):.2f}   p99 ratio {t2.pct(99) / b2.pct(99):.2f}"
                )
    finally:
        taku.terminate()
        bare.terminate()
        taku.wait()
        bare.wait()


def store_appends(seconds: float) -> None:
    from taku.store.sqlite import SQLiteEventStore
    from taku.testing.store_contract import make_events, table_record

    async def go() -> None:
        store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "appends.db")
        await store.open()
        tables = []
        for _ in range(100):
            rec = table_record()
            await store.create_table(rec, make_events(rec.table_id, 1), "c")
            tables.append(rec.table_id)
        # one writer, one table: every append waits for its own fsync
        seq, n, t0 = 1, 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds / 2:
            await store.append(tables[0], make_events(tables[0], seq + 1), expected_seq=seq)
            seq += 1
            n += 1
        single = n / (time.perf_counter() - t0)
        # 100 tables appending at once: group commit shares the fsyncs
        seqs = {t: (seq if t == tables[0] else 1) for t in tables}
        count = 0
        stop = time.perf_counter() + seconds / 2

        async def writer(t: str) -> None:
            nonlocal count
            while time.perf_counter() < stop:
                await store.append(t, make_events(t, seqs[t] + 1), expected_seq=seqs[t])
                seqs[t] += 1
                count += 1

        commits0, t0 = store.commits, time.perf_counter()
        await asyncio.gather(*(writer(t) for t in tables))
        many = count / (time.perf_counter() - t0)
        commits = store.commits - commits0
        await store.close()
        print(f"  one table, sequential     {single:9.0f} appends/s (one fsync each)")
        print(
            f"  100 tables, concurrent    {many:9.0f} appends/s ({count / max(commits, 1):.1f} appends per commit)"
        )

    print("\n== SQLite appends (durable: synchronous=FULL, WAL)")
    asyncio.run(go())


def replay(n: int = 300_000) -> None:
    from taku.core.events import ChatPosted, Recorded
    from taku.core.table import TableState, event_decoder, fold
    from taku.generic import RULESET

    enc = msgspec.json.Encoder()
    t = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    recs = [
        Recorded(
            table_id="t",
            seq=i,
            type="chat_posted",
            data=msgspec.Raw(enc.encode(ChatPosted(text=f"line {i}"))),
            actor="m2",
            time=t,
            command_id=f"c{i}",
        )
        for i in range(1, n + 1)
    ]
    dec = event_decoder(RULESET)
    t0 = time.perf_counter()
    state = fold(TableState(table_id="t"), recs, RULESET, dec)
    el = time.perf_counter() - t0
    assert state.seq == n
    print(
        f"\n== replay (fold) of the generic ruleset: {n / el:,.0f} events/s ({n} events in {el:.2f} s)"
    )

    # the same, read back from a SQLite file first (what `taku replay` and a table's first load do)
    from taku.store.base import TableRecord
    from taku.store.sqlite import SQLiteEventStore

    async def from_sqlite() -> float:
        store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "replay.db")
        await store.open()
        rec = TableRecord(
            table_id="t", ruleset="generic", name="t", created=t.isoformat(), seed=b"s" * 32
        )
        await store.create_table(rec, recs[:1], "c1")
        for i in range(1, n, 1000):
            batch = recs[i : i + 1000]
            await store.append("t", batch, expected_seq=i)
        t0 = time.perf_counter()
        state = fold(TableState(table_id="t"), await store.read("t"), RULESET, dec)
        el = time.perf_counter() - t0
        assert state.seq == n
        await store.close()
        return el

    el = asyncio.run(from_sqlite())
    print(f"   read from SQLite and folded: {n / el:,.0f} events/s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--skip-network", action="store_true")
    args = ap.parse_args()
    print(
        f"taku benchmarks, {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, python {sys.version.split()[0]}"
    )
    replay()
    store_appends(args.seconds)
    if not args.skip_network:
        network(args.seconds)


if __name__ == "__main__":
    main()
