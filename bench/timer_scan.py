"""What finding the armed timers costs at start (issue #20, timers): SQLite's
``timer_tables`` (one pass over the events) beside a plain read of every event.

    .venv/bin/python bench/timer_scan.py [--tables 200] [--events 1000] [--rounds 3]

Builds a SQLite file of ``tables`` x ``events`` chat events, a tenth of the tables with
a timer (half of them expired), then times ``timer_tables()`` and, as the yardstick in
the same run, ``SELECT count(*), sum(length(envelope)) FROM events`` (a pass over the
same bytes). Prints each round and the medians. Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import msgspec

from taku.core.events import ChatPosted, Recorded, TimerExpired, TimerSet
from taku.store import SQLiteEventStore
from taku.store.base import TableRecord

T0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def _rec(tid: str, seq: int, event: object) -> Recorded:
    tag = type(event).__struct_config__.tag  # type: ignore[attr-defined]
    return Recorded(
        table_id=tid,
        seq=seq,
        type=tag,
        data=msgspec.Raw(msgspec.json.encode(event)),
        actor="m2",
        time=T0,
        command_id=f"c{seq}",
    )


async def build(path: Path, tables: int, events: int) -> None:
    store = SQLiteEventStore(path)
    await store.open()
    for t in range(tables):
        tid = f"t{t:05d}"
        evs: list[object] = [ChatPosted(text=f"行 {i} " * 8) for i in range(events)]
        if t % 10 == 0:
            evs[events // 2] = TimerSet(timer_id="timer1", deadline=T0, duration_s=60)
            if t % 20 == 0:
                evs[events // 2 + 1] = TimerExpired(timer_id="timer1", deadline=T0)
        recs = [_rec(tid, i + 1, e) for i, e in enumerate(evs)]
        rec = TableRecord(
            table_id=tid, ruleset="generic", name="b", created=T0.isoformat(), seed=b"s"
        )
        await store.create_table(rec, recs[:1], "c1")
        for at in range(1, len(recs), 500):
            await store.append(tid, recs[at : at + 500], expected_seq=at)
    await store.close()


async def scan(path: Path) -> tuple[float, int]:
    store = SQLiteEventStore(path)
    await store.open()
    t = time.perf_counter()
    found = await store.timer_tables()
    took = time.perf_counter() - t
    await store.close()
    return took, len(found)


def yardstick(path: Path) -> float:
    conn = sqlite3.connect(path)
    t = time.perf_counter()
    conn.execute("SELECT count(*), sum(length(envelope)) FROM events").fetchone()
    took = time.perf_counter() - t
    conn.close()
    return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    path = Path(tempfile.mkdtemp()) / "scan.db"
    asyncio.run(build(path, args.tables, args.events))
    n = args.tables * args.events
    print(
        f"{args.tables} tables x {args.events} events = {n} events, {path.stat().st_size / 1e6:.0f} MB"
    )
    scans, reads = [], []
    for r in range(args.rounds):
        took, found = asyncio.run(scan(path))
        base = yardstick(path)
        scans.append(took)
        reads.append(base)
        print(
            f"round {r + 1}: timer_tables {took * 1000:.0f} ms ({found} tables), read every event {base * 1000:.0f} ms"
        )
    s, b = statistics.median(scans), statistics.median(reads)
    print(
        f"median: timer_tables {s * 1000:.0f} ms = {s / n * 1e9:.0f} ns/event; yardstick {b * 1000:.0f} ms; ratio {s / b:.2f}"
    )


if __name__ == "__main__":
    main()
