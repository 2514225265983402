"""The cost of the hash chain and of logging commands (issue 17): before vs after, one run.

    .venv/bin/python bench/bench_chain.py --base DIR [--seconds 4] [--rounds 3]
    .venv/bin/python bench/bench_chain.py --ablation [--seconds 4] [--rounds 3]

``--ablation`` needs no old code: this checkout's command path in one process as it
is, with ``chain.seal`` made a no-op, and also with the command record left out of
the stored envelope (the yardstick), alternating within one run; then the store's
appends per second with and without hashes and command records.

``DIR`` holds the code from before (e.g. ``git archive main | tar -x -C DIR``). Each
round starts ``taku serve`` (SQLite, durable) from DIR and from this checkout in
turn, on the same machine, with the same load generator (bench/load.py): 100 tables
x 5 clients, closed loop (commands/s), then open loop at a fixed rate (latency).
Then the command path in one process (``TableService.execute`` on SQLite: decide,
records, chain, durable append, publish): commands/s on 100 tables at once and
one command's latency, each version's code in its own process. Prints
every round and the medians; the machine is shared and noisy, so only the ratio
of the two versions within one run means anything. Never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import load  # noqa: E402 - bench/ on the path first
from run_all import free_port, wait_open  # noqa: E402


def _env(code: Path) -> dict[str, str]:
    """Run the server from ``code``'s sources (ahead of the installed editable ones)."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    parts = [str(code / "server"), str(code / "plugins"), str(code / "clients" / "python")]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


def _serve(code: Path, port: int) -> subprocess.Popen[bytes]:
    db = Path(tempfile.mkdtemp()) / "bench.db"
    cmd = [
        sys.executable,
        "-m",
        "taku.cli",
        "serve",
        "--db",
        str(db),
        "--port",
        str(port),
        "--rate",
        "1000000",
        "--creates-per-minute",
        "100000",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(code)
    )
    return wait_open(proc, port)


def _which(code: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-c", "import taku.core.chain"],
        env=_env(code),
        capture_output=True,
        check=False,
    )
    return "with the chain" if out.returncode == 0 else "without the chain"


def network(base: Path, seconds: float, rounds: int, rate: float) -> None:
    results: dict[str, dict[str, list[float]]] = {}
    for r in range(rounds):
        order = (("before", base), ("after", ROOT))
        for name, code in order if r % 2 == 0 else order[::-1]:  # neither always goes first
            port = free_port()
            proc = _serve(code, port)
            url = f"ws://127.0.0.1:{port}/ws"
            try:
                closed = asyncio.run(
                    load.run(url, taku=True, tables=100, clients=5, seconds=seconds)
                )
                opened = asyncio.run(
                    load.run(url, taku=True, tables=100, clients=5, seconds=seconds, rate=rate)
                )
            finally:
                proc.terminate()
                proc.wait()
            got = results.setdefault(name, {"cmd/s": [], "p50": [], "p99": []})
            got["cmd/s"].append(closed.per_s)
            got["p50"].append(opened.pct(50))
            got["p99"].append(opened.pct(99))
            print(
                f"  round {r + 1} {name:6}  closed {closed.per_s:7.0f} cmd/s   "
                f"open at {rate:.0f}/s: p50 {opened.pct(50):6.2f} ms  p99 {opened.pct(99):6.2f} ms"
            )
    med = {n: {k: statistics.median(v) for k, v in d.items()} for n, d in results.items()}
    b, a = med["before"], med["after"]
    print(
        f"  median before {b['cmd/s']:7.0f} cmd/s  p50 {b['p50']:.2f} ms  p99 {b['p99']:.2f} ms\n"
        f"  median after  {a['cmd/s']:7.0f} cmd/s  p50 {a['p50']:.2f} ms  p99 {a['p99']:.2f} ms\n"
        f"  after/before  throughput {a['cmd/s'] / b['cmd/s']:.2f}   p50 {a['p50'] / b['p50']:.2f}"
        f"   p99 {a['p99'] / b['p99']:.2f}"
    )


_COMMANDS = r"""
import asyncio, sys, tempfile, time
from pathlib import Path
from taku.app import Hub
from taku.core.commands import Chat
from taku.plugins import load_registry
from taku.store.sqlite import SQLiteEventStore


async def main(seconds):
    store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "b.db")
    await store.open()
    hub = Hub(store, load_registry())
    tables = []
    for _ in range(100):
        c = await hub.create_table(ruleset="generic", name="bench")
        tables.append((await hub.table(c.table_id), c.member_id))
    text = "ドーモ、" + "x" * 30

    async def writer(t, m, stop, lat):
        k = 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await t.execute(m, Chat(text=text), command_id=f"c{k}-{stop}")
            lat.append((time.perf_counter() - t0) * 1000)
            k += 1

    one = []  # one table, one command at a time: a command's own latency
    await writer(*tables[0], time.perf_counter() + seconds / 2, one)
    many = []  # 100 tables at once: throughput with group commit
    t0 = time.perf_counter()
    await asyncio.gather(*(writer(t, m, t0 + seconds / 2, many) for t, m in tables))
    el = time.perf_counter() - t0
    one.sort()
    print(len(many) / el, one[len(one) // 2], one[int(len(one) * 0.99)])
    await hub.close()
    await store.close()


asyncio.run(main(float(sys.argv[1])))
"""


def commands(base: Path, seconds: float, rounds: int) -> None:
    """The command path in one process, no network: ``execute`` of a chat line on SQLite
    (decide, records, chain, append, publish), before and after, alternating."""
    got: dict[str, list[tuple[float, float, float]]] = {"before": [], "after": []}
    for r in range(rounds):
        order = (("before", base), ("after", ROOT))
        for name, code in order if r % 2 == 0 else order[::-1]:
            out = subprocess.run(
                [sys.executable, "-c", _COMMANDS, str(seconds)],
                env=_env(code),
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            rate, p50, p99 = (float(x) for x in out[-3:])
            got[name].append((rate, p50, p99))
            print(
                f"  round {r + 1} {name:6}  100 tables {rate:7.0f} commands/s   "
                f"one table: p50 {p50:5.2f} ms  p99 {p99:5.2f} ms"
            )
    med = {n: [statistics.median(x[i] for x in v) for i in range(3)] for n, v in got.items()}
    b, a = med["before"], med["after"]
    print(
        f"  median before {b[0]:7.0f}/s  p50 {b[1]:.2f} ms  p99 {b[2]:.2f} ms\n"
        f"  median after  {a[0]:7.0f}/s  p50 {a[1]:.2f} ms  p99 {a[2]:.2f} ms\n"
        f"  after/before  throughput {a[0] / b[0]:.2f}   p50 {a[1] / b[1]:.2f}   p99 {a[2] / b[2]:.2f}"
    )


def sealing(n: int = 20_000) -> None:
    """What the chain adds to one command on the event loop: sealing one event (its
    body's canonical JSON and one SHA-256), against encoding the event (the yardstick)."""
    from taku.core import chain
    from taku.core.events import ChatPosted, Recorded

    t = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    enc = msgspec.json.Encoder()
    recs = [
        Recorded(
            table_id="t",
            seq=i,
            type="chat_posted",
            data=msgspec.Raw(enc.encode(ChatPosted(text=f"line {i} " + "x" * 40))),
            actor="m2",
            time=t,
            command_id=f"c{i}",
        )
        for i in range(n)
    ]
    runs_seal, runs_enc = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        for r in recs:
            enc.encode(r)
        runs_enc.append((time.perf_counter() - t0) / n * 1e6)
        t0 = time.perf_counter()
        prev = "00" * 32
        for r in recs:
            (s,) = chain.seal([r], prev)
            prev = s.hash or prev
        runs_seal.append((time.perf_counter() - t0) / n * 1e6)
    print(
        f"  sealing one event {statistics.median(runs_seal):.1f} µs "
        f"(encoding its envelope: {statistics.median(runs_enc):.1f} µs; medians of 3)"
    )


_ABLATION = r"""
import asyncio, os, sys, tempfile, time
from pathlib import Path
import msgspec
from taku.core import chain
from taku.core.events import NO_JSON
from taku.app import Hub
from taku.core.commands import Chat
from taku.plugins import load_registry
from taku.store.sqlite import SQLiteEventStore

mode, seconds = sys.argv[1], float(sys.argv[2])
if mode in ("no-chain", "neither"):
    chain.seal = lambda recs, prev: list(recs)  # events without hashes
strip = mode == "neither"


def bare(events):
    # the envelope without the command record (what storing commands adds); the
    # command's fingerprint (idempotency) was stored before the chain and stays
    return [
        msgspec.structs.replace(e, command=NO_JSON, command_commitment=None, command_salt=None)
        for e in events
    ]


async def main():
    store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "b.db")
    await store.open()
    if strip:
        nowait, wait = store.append_nowait, store.append
        store.append_nowait = lambda t, ev, **kw: nowait(t, bare(ev), **kw)
        store.append = lambda t, ev, **kw: wait(t, bare(ev), **kw)
    hub = Hub(store, load_registry())
    tables = []
    for _ in range(100):
        c = await hub.create_table(ruleset="generic", name="bench")
        tables.append((await hub.table(c.table_id), c.member_id))
    text = "ドーモ、" + "x" * 30

    async def writer(t, m, stop, lat):
        k = 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await t.execute(m, Chat(text=text), command_id=f"c{k}-{stop}")
            lat.append((time.perf_counter() - t0) * 1000)
            k += 1

    one = []
    await writer(*tables[0], time.perf_counter() + seconds / 2, one)
    many = []
    t0 = time.perf_counter()
    await asyncio.gather(*(writer(t, m, t0 + seconds / 2, many) for t, m in tables))
    el = time.perf_counter() - t0
    one.sort()
    recs = [r for r in await store.read(tables[1][0].table_id) if r.type == "chat_posted"]
    size = sum(len(msgspec.json.encode(r)) for r in recs[-20:]) / max(len(recs[-20:]), 1)
    print(len(many) / el, one[len(one) // 2], one[int(len(one) * 0.99)], size)
    await hub.close()
    await store.close()


asyncio.run(main())
"""

_APPENDS = r"""
import asyncio, datetime as dt, sys, tempfile, time
from pathlib import Path
import msgspec
from taku.core import chain
from taku.core.events import ChatPosted, Recorded
from taku.store.base import TableRecord
from taku.store.sqlite import SQLiteEventStore

mode, n = sys.argv[1], int(sys.argv[2])
enc = msgspec.json.Encoder()
t = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def recs(tid, k):
    data = msgspec.Raw(enc.encode(ChatPosted(text="ドーモ、" + "x" * 30)))
    out = []
    for i in range(k):
        cmd = msgspec.Raw(
            enc.encode({"decided": {"type": "chat", "text": "ドーモ、" + "x" * 30}, "version": "1", "at": i})
        )
        r = Recorded(table_id=tid, seq=i + 1, type="chat_posted", data=data, actor="m2", time=t,
                     command_id=f"c{i}", command=cmd if mode == "full" else msgspec.Raw(b"null"))
        out.append(r)
    return chain.seal(out, "00" * 32) if mode == "full" else out


async def main():
    store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "a.db")
    await store.open()
    per = n // 100
    batches = {f"t{j}": recs(f"t{j}", per + 1) for j in range(100)}
    for tid, rs in batches.items():  # seq 1 creates the table
        rec = TableRecord(table_id=tid, ruleset="generic", name="b", created="", seed=b"0" * 32)
        await store.create_table(rec, rs[:1], "create")
    t0 = time.perf_counter()

    async def one(tid, rs):
        for i, r in enumerate(rs[1:], 1):
            await store.append(tid, [r], expected_seq=i)

    await asyncio.gather(*(one(tid, rs) for tid, rs in batches.items()))
    el = time.perf_counter() - t0
    print(per * 100 / el)
    await store.close()


asyncio.run(main())
"""


def ablation(seconds: float, rounds: int) -> None:
    """This checkout only, in one process: the command path as it is (``full``), with
    ``chain.seal`` made a no-op (``no-chain``), and with the command record also left out
    of the stored envelope (``neither``, the yardstick), alternating; medians and the
    ratio of each to the yardstick. Then the store's appends per second (100 tables at
    once, one event per append) with and without hashes and command records."""
    modes = ("neither", "no-chain", "full")
    got: dict[str, list[tuple[float, float, float, float]]] = {m: [] for m in modes}
    for r in range(rounds):
        for mode in modes if r % 2 == 0 else modes[::-1]:
            out = subprocess.run(
                [sys.executable, "-c", _ABLATION, mode, str(seconds)],
                env=_env(ROOT),
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            rate, p50, p99, size = (float(x) for x in out[-4:])
            got[mode].append((rate, p50, p99, size))
            print(
                f"  round {r + 1} {mode:8}  100 tables {rate:7.0f} commands/s   one table: "
                f"p50 {p50:5.2f} ms  p99 {p99:6.2f} ms   envelope {size:.0f} B"
            )
    med = {m: [statistics.median(x[i] for x in v) for i in range(4)] for m, v in got.items()}
    y = med["neither"]
    for m in modes:
        v = med[m]
        print(
            f"  median {m:8} {v[0]:7.0f}/s  p50 {v[1]:.2f} ms  p99 {v[2]:.2f} ms  {v[3]:.0f} B"
            f"   vs neither: throughput {v[0] / y[0]:.2f}  p50 {v[1] / y[1]:.2f}"
        )
    runs: dict[str, list[float]] = {"bare": [], "full": []}
    for r in range(rounds):
        for mode in ("bare", "full") if r % 2 == 0 else ("full", "bare"):
            out = subprocess.run(
                [sys.executable, "-c", _APPENDS, mode, "20000"],
                env=_env(ROOT),
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()
            runs[mode].append(float(out[-1]))
            print(f"  round {r + 1} appends {mode:4} {runs[mode][-1]:7.0f} appends/s")
    b, f = statistics.median(runs["bare"]), statistics.median(runs["full"])
    print(
        f"  median appends/s: without hash and command {b:.0f}, with both {f:.0f}; ratio {f / b:.2f}"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", type=Path, default=None, help="the code from before")
    p.add_argument(
        "--ablation",
        action="store_true",
        help="only this checkout, chain and command record switched off in turn",
    )
    p.add_argument("--seconds", type=float, default=4.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--rate", type=float, default=300.0, help="open-loop commands/s")
    args = p.parse_args()
    if args.ablation or args.base is None:
        print("\n== this checkout: full vs no chain vs neither chain nor command record")
        ablation(args.seconds, args.rounds)
        print("\n== the chain's own cost per event")
        sealing()
        if args.base is None:
            return
    print(f"before: {args.base} ({_which(args.base)}); after: {ROOT} ({_which(ROOT)})")
    print("\n== 100 tables x 5 clients over WebSocket, SQLite, before/after alternating")
    network(args.base, args.seconds, args.rounds, args.rate)
    print("\n== the command path in one process (SQLite, durable), before/after alternating")
    commands(args.base, args.seconds, args.rounds)
    print("\n== the chain's own cost per event")
    sealing()


if __name__ == "__main__":
    main()
