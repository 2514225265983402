"""What an undo costs on a long table, next to a plain command (the yardstick).

    .venv/bin/python bench/bench_undo.py [--events 5000]

A generic table on SQLite with ``--events`` chat lines (snapshots every 250, as
``taku serve``). Times, each the median of 3 runs, in ms: a chat line (the
yardstick), an undo of the table's last command, an undo of a command 90% of the
table back (independent of the lines after it: the log is read back to it and the
lines after it are folded again), and the redo of it. An undo reads the log back to
its target and folds from the snapshot before it, so its cost follows the distance
to the target, not the table's length. Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from taku.app import Hub
from taku.core.commands import Chat, CreateCharacter, Redo, Undo
from taku.plugins import load_registry
from taku.store import open_store


async def run(events: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as d:
        store = open_store(str(Path(d) / "b.db"))
        await store.open()
        hub = Hub(store, load_registry(), snapshot_every=250, idle_unload_s=None)
        c = await hub.create_table(ruleset="generic")
        t = await hub.table(c.table_id)
        gm = c.member_id
        far = events // 10
        for i in range(events):
            if i == far:
                await t.execute(gm, CreateCharacter(name="アヤ"), command_id="far")
            else:
                await t.execute(gm, Chat(text=f"{i}"), command_id=f"c{i}")

        async def timed(cmd: object, cid: str) -> float:
            t0 = time.perf_counter()
            await t.execute(gm, cmd, command_id=cid)  # type: ignore[arg-type]
            return (time.perf_counter() - t0) * 1000

        out = {
            "chat (yardstick)": await timed(Chat(text="x"), "y"),
            "undo, last command": await timed(Undo(), "u-last"),
            "undo, 90% back": await timed(Undo(command_id="far"), "u-far"),
            "redo, 90% back": await timed(Redo(command_id="far"), "r-far"),
        }
        await hub.close()
        await store.close()
        return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=5000)
    args = ap.parse_args()
    runs = [asyncio.run(run(args.events)) for _ in range(3)]
    base = statistics.median(r["chat (yardstick)"] for r in runs)
    print(f"a generic table of {args.events} events (SQLite), medians of 3 runs:")
    for key in runs[0]:
        ms = statistics.median(r[key] for r in runs)
        print(f"  {key:22} {ms:8.2f} ms  ({ms / base:6.1f}x the chat line)")


if __name__ == "__main__":
    main()
