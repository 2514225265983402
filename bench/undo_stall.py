"""How long an undo holds the event loop: the GM undoes a command far back (the second
of the table) and a recent one (five from the end) on a generic table of chat lines,
while a probe beside it times 1 ms sleeps; prints each undo's time and the longest
sleep (the stall every other table's commands would see), and the cyclic GC's passes
over 5 ms meanwhile.

    .venv/bin/python bench/undo_stall.py [--events 5000 20000] [--db memory sqlite]

Never a test; figures in docs/performance.md ("Long tables").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
import time
from pathlib import Path

from taku.app import Hub
from taku.core.commands import Chat, Undo
from taku.plugins import load_registry
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore

_passes: list[tuple[int, float]] = []
_started: dict[str, float] = {}


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _started["t"] = time.perf_counter()
    else:
        _passes.append((info["generation"], time.perf_counter() - _started["t"]))


async def _probe(lags: list[float]) -> None:
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append(time.perf_counter() - t)


async def one(events: int, db: str, target: str) -> None:
    store: EventStore = (
        MemoryEventStore()
        if db == "memory"
        else SQLiteEventStore(Path(tempfile.mkdtemp()) / "u.db")
    )
    await store.open()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="generic", name="長い卓")
    table = await hub.table(created.table_id)
    gm = created.member_id
    for i in range(events):
        await table.execute(gm, Chat(text=f"行 {i}"), command_id=f"c{i}")
    command = "c1" if target == "far back" else f"c{events - 5}"
    lags: list[float] = []
    probe = asyncio.ensure_future(_probe(lags))
    await asyncio.sleep(0.02)
    lags.clear()
    _passes.clear()
    t0 = time.perf_counter()
    await table.execute(gm, Undo(command_id=command), command_id="u")
    took = time.perf_counter() - t0
    probe.cancel()
    slow_gc = [f"gen{g} {1000 * d:.0f} ms" for g, d in _passes if d > 0.005]
    print(
        f"{events:>6} events, {db:6} undo {target:9}: {1000 * took:7.1f} ms, "
        f"loop held at most {1000 * max(lags):6.1f} ms; GC passes over 5 ms: {slow_gc or 'none'}"
    )
    await hub.close()
    await store.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--events", type=int, nargs="+", default=[5000, 20000])
    ap.add_argument("--db", nargs="+", choices=("memory", "sqlite"), default=["memory", "sqlite"])
    args = ap.parse_args()
    gc.callbacks.append(_gc_timer)
    for events in args.events:
        for db in args.db:
            for target in ("far back", "recent"):
                await one(events, db, target)


if __name__ == "__main__":
    asyncio.run(main())
