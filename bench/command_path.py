"""The command path in one process, without sockets: CPU a chat command costs.

    .venv/bin/python bench/command_path.py [--commands 20000] [--batch 50] [--runs 5]
                                           [--tables 100] [--store memory|sqlite]
                                           [--in-flight 500] [--profile]

What the server does for a ``command`` frame of the peer bench (a chat at a table of
five, every member subscribed), minus the sockets and websockets' framing: the
connection's :class:`taku.session.Session` reads and decodes the frame, the table
decodes and decides the command, seals it into the chain, folds it and hands it to
the store (``--store memory``: the in-memory store, which answers a turn of the event
loop's appends together; ``--store sqlite``: a fresh SQLite file, durable, its writer
thread committing what is waiting in one transaction), and the answer publishes the
event to the five subscribers and encodes the sender's ack, inside the hub's
publication. ``--batch`` commands are submitted per turn of the loop while fewer than
``--in-flight`` are unanswered (the peer bench's closed loop at 100 x 5 keeps 500 in
flight).

It prints, per command, the wall time, the event loop thread's CPU time and the
whole process's CPU time (with SQLite, the difference is mostly the writer thread),
each run and the medians. The network is not in it: the peer bench
(``make bench-peers``) measures that. ``--profile`` prints cProfile's top functions
by own time for one more run. Use it to compare two versions of the
code within one session (``PYTHONPATH=OTHER/server``), never as a test; figures in
docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import pstats
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from taku.app import Hub
from taku.net import ServerConfig
from taku.plugins import load_registry
from taku.protocol import ChatMsg, CommandMsg
from taku.session import Session
from taku.store.memory import MemoryEventStore
from taku.store.sqlite import SQLiteEventStore

LIMITS = ServerConfig(rate_per_s=1e9, rate_burst=10**9)
"""The server's defaults, with no rate limit (the peer bench runs ``--rate 1000000``)."""


class _Outbox:
    """What the server's outbox does with frames, minus the write: held per sink, dropped."""

    def __init__(self) -> None:
        self.depth = 0
        self.held: dict[Any, list[bytes]] = {}
        self.frames = 0

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if not self.depth and self.held:
            for frames in self.held.values():
                self.frames += len(frames)
            self.held = {}


async def _setup(
    tables: int, store: Any
) -> tuple[Hub, list[tuple[Any, list[tuple[Session, str]]]], _Outbox]:
    await store.open()
    hub = Hub(store, load_registry())
    outbox = _Outbox()
    hub.publishing = outbox
    setup: list[tuple[Any, list[tuple[Session, str]]]] = []
    for t in range(tables):
        created = await hub.create_table(
            ruleset="generic", name=f"bench{t}", options={}, gm_name="gm"
        )
        table = await hub.table(created.table_id)
        members = [created.member_id]
        for i in range(1, 5):
            members.append(
                (await hub.join(created.table_id, created.player_token, f"p{i}")).member_id
            )
        sessions = []
        for n, mid in enumerate(members):
            session = Session(LIMITS, conn_id=f"c{t}-{n}")
            session.joined(created.table_id, mid)

            def sink(frame: bytes, key: object = session) -> None:
                held = outbox.held.get(key)
                if held is None:
                    outbox.held[key] = [frame]
                else:
                    held.append(frame)

            sub = await table.subscribe(mid, sink, table.state.seq)
            session.subscribed(created.table_id, sub)
            sessions.append((session, mid))
        setup.append((table, sessions))
    return hub, setup, outbox


def _frame(table_id: str, n: int) -> bytes:
    return msgspec.json.encode(
        {
            "type": "command",
            "table_id": table_id,
            "command_id": f"bench-{n}",
            "command": {"type": "chat", "text": f"message {n} from the bench"},
        }
    )


async def _run(
    commands: int, batch: int, tables: int, store_kind: str, in_flight: int
) -> tuple[float, float, float]:
    """(wall, loop thread CPU, process CPU) in µs a command."""
    with tempfile.TemporaryDirectory() as tmp:
        store = (
            SQLiteEventStore(Path(tmp) / "bench.db")
            if store_kind == "sqlite"
            else MemoryEventStore()
        )
        try:
            out = await _measure(store, commands, batch, tables, in_flight)
            if isinstance(store, SQLiteEventStore):
                print(f"  (SQLite: {store.appends} appends in {store.commits} commits)")
            return out
        finally:
            await store.close()


async def _measure(
    store: Any, commands: int, batch: int, tables: int, in_flight: int
) -> tuple[float, float, float]:
    hub, setup, outbox = await _setup(tables, store)
    frames = []
    for n in range(commands):
        table, sessions = setup[n % tables]
        session, _ = sessions[(n // tables) % 5]
        frames.append((table, session, _frame(table.table_id, n)))
    answered = 0

    def submit(table: Any, session: Session, frame: bytes) -> None:
        msg = session.receive(frame)
        assert isinstance(msg, CommandMsg | ChatMsg)
        mid = session.member(msg.table_id)
        command = table.decode_command(msg.command)
        pending = session.submitted(
            msg.id, table.table_id, table.ruleset.id, mid, msg.command_id, command
        )

        def reply(outcome: Any) -> None:
            nonlocal answered
            state = table.state
            frame = session.answer(pending, outcome, state.head, state.seq)
            held = outbox.held.get(session)
            if held is None:
                outbox.held[session] = [frame]
            else:
                held.append(frame)
            answered += 1

        table.submit(
            mid, command, command_id=msg.command_id, reply=reply, received=session.frame_in
        )

    gc.collect()
    t0, c0, p0 = time.perf_counter(), time.thread_time(), time.process_time()
    at = 0
    while at < commands:
        if at - answered >= in_flight:
            await asyncio.sleep(0)  # the store answers what it has made durable
            continue
        for table, session, frame in frames[at : at + batch]:
            submit(table, session, frame)
        at += batch
        await asyncio.sleep(0)
    while answered < commands:
        await asyncio.sleep(0.0005 if at - answered < batch else 0)
    wall, cpu, proc = time.perf_counter() - t0, time.thread_time() - c0, time.process_time() - p0
    assert outbox.frames >= 6 * commands, outbox.frames  # five events and an ack a command
    return wall / commands * 1e6, cpu / commands * 1e6, proc / commands * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commands", type=int, default=20_000)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    ap.add_argument("--in-flight", type=int, default=500)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    import structlog

    structlog.configure(
        wrapper_class=structlog.make_filtering_bound_logger(30), cache_logger_on_first_use=True
    )
    params = (args.commands, args.batch, args.tables, args.store, args.in_flight)
    runs = [asyncio.run(_run(*params)) for _ in range(args.runs)]
    print(
        f"command path, in process, {args.store} store: {args.tables} tables x 5 subscribers, "
        f"batches of {args.batch}, at most {args.in_flight} in flight"
    )
    for i, name in enumerate(("wall", "loop thread CPU", "process CPU")):
        figures = [r[i] for r in runs]
        print(
            f"{name:>16}: median {statistics.median(figures):6.1f} µs a command  "
            f"(runs: {', '.join(f'{f:.1f}' for f in figures)})"
        )
    if args.profile:
        prof = cProfile.Profile()
        with contextlib.redirect_stdout(None):
            prof.enable()
            asyncio.run(_run(*params))
            prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
