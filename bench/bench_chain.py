"""The cost of the hash chain and of logging commands (issue 17): before vs after, one run.

    .venv/bin/python bench/bench_chain.py --base DIR [--seconds 4] [--rounds 3]

``DIR`` holds the code from before (e.g. ``git archive main | tar -x -C DIR``). Each
round starts ``taku serve`` (SQLite, durable) from DIR and from this checkout in
turn, on the same machine, with the same load generator (bench/load.py): 100 tables
x 5 clients, closed loop (commands/s), then open loop at a fixed rate (latency).
Then the SQLite store's appends/s with the envelopes each version writes. Prints
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

import load  # noqa: E402
from run_all import free_port  # noqa: E402


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
    return _wait_open(proc, port)


def _wait_open(proc: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    import socket

    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("server did not start")


def _which(code: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-c", "import taku.core.chain"],
        env=_env(code),
        capture_output=True,
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


def appends(seconds: float, rounds: int) -> None:
    """The SQLite store's appends/s (100 tables at once): the envelopes of before (no
    chain, no command) against those of after (hash, command record)."""
    from taku.core import chain
    from taku.store.sqlite import SQLiteEventStore
    from taku.testing.store_contract import make_events, table_record

    def plain(tid: str, seq: int) -> list:  # type: ignore[type-arg]
        return make_events(tid, seq, size=40)

    def chained(tid: str, seq: int) -> list:  # type: ignore[type-arg]
        (e,) = make_events(tid, seq, size=40)
        cmd = msgspec.json.encode(
            {"decided": {"type": "chat", "text": "x" * 40}, "version": "1.0", "at": seq - 1}
        )
        e = msgspec.structs.replace(e, command=msgspec.Raw(cmd))
        return chain.seal([e], "00" * 32)

    async def go(make) -> float:  # type: ignore[no-untyped-def]
        store = SQLiteEventStore(Path(tempfile.mkdtemp()) / "appends.db")
        await store.open()
        tables = []
        for _ in range(100):
            rec = table_record()
            await store.create_table(rec, make_events(rec.table_id, 1), "c")
            tables.append(rec.table_id)
        seqs = dict.fromkeys(tables, 1)
        count, stop = 0, time.perf_counter() + seconds

        async def writer(t: str) -> None:
            nonlocal count
            while time.perf_counter() < stop:
                await store.append(t, make(t, seqs[t] + 1), expected_seq=seqs[t])
                seqs[t] += 1
                count += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(writer(t) for t in tables))
        rate = count / (time.perf_counter() - t0)
        await store.close()
        return rate

    got: dict[str, list[float]] = {"before": [], "after": []}
    for r in range(rounds):
        order = (("before", plain), ("after", chained))
        for name, make in order if r % 2 == 0 else order[::-1]:
            got[name].append(asyncio.run(go(make)))
            print(f"  round {r + 1} {name:6}  {got[name][-1]:8.0f} appends/s")
    b, a = statistics.median(got["before"]), statistics.median(got["after"])
    print(f"  median before {b:8.0f}  after {a:8.0f}  after/before {a / b:.2f}")


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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", type=Path, required=True, help="the code from before")
    p.add_argument("--seconds", type=float, default=4.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--rate", type=float, default=300.0, help="open-loop commands/s")
    args = p.parse_args()
    print(f"before: {args.base} ({_which(args.base)}); after: {ROOT} ({_which(ROOT)})")
    print("\n== 100 tables x 5 clients over WebSocket, SQLite, before/after alternating")
    network(args.base, args.seconds, args.rounds, args.rate)
    print("\n== SQLite appends/s, 100 tables at once (envelopes of before/after)")
    appends(args.seconds / 2, args.rounds)
    print("\n== the chain's own cost per event")
    sealing()


if __name__ == "__main__":
    main()
