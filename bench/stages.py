"""Where a command's time goes: per-stage histograms of taku's command path.

    .venv/bin/python bench/stages.py [--seconds 8] [--rate 1000] [--db sqlite|memory|postgres]
                                     [--loop auto|asyncio] [--tables 100 --clients 5]
                                     [--open-only] [--runs 3]

Starts ``taku serve --stage-timings`` (a fresh SQLite file, ``memory:``, or a fresh
schema on PostgreSQL, ``--pg URL``, the locked path: no ``queue`` or ``wake``), drives
it with bench/load.py (closed loop, then open loop at ``--rate`` commands/s), and
after each workload reads ``taku_command_stage_seconds`` from ``/metrics``: for
each stage (decide, queue, commit, wake, publish, write, total; see
``taku.metrics.StageTimings``) its p50, p90, p99 and mean, its share of the mean
total, and its histogram (commands per bucket, buckets of 1-2-5 per decade). The
quantiles are read off the buckets (linear within one), so they are as coarse as
the buckets. With ``--runs N``, N fresh servers in turn, then each stage's median
p50 and p99. ``--loop auto`` passes no ``--loop`` (a checkout from before the flag
can be measured: run this file with that checkout's Python). Never run as a test;
figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import urllib.request
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import load  # noqa: E402
from run_all import free_port, start  # noqa: E402

STAGES = ("decide", "queue", "commit", "wake", "publish", "write", "total")
Histograms = dict[str, list[tuple[float, float]]]
"""stage -> cumulative ``(upper bound s, count)``, +Inf last."""


def scrape(port: int) -> tuple[Histograms, dict[str, float]]:
    """The stage histograms (cumulative buckets) and their sums, from ``/metrics``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        text = r.read().decode()
    hist: Histograms = {}
    sums: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("taku_command_stage_seconds_bucket{"):
            labels, value = line[len("taku_command_stage_seconds_bucket{") :].split("} ")
            kv = dict(part.split("=", 1) for part in labels.split(","))
            le = kv["le"].strip('"')
            hist.setdefault(kv["stage"].strip('"'), []).append(
                (float("inf") if le == "+Inf" else float(le), float(value))
            )
        elif line.startswith("taku_command_stage_seconds_sum{"):
            labels, value = line[len("taku_command_stage_seconds_sum{") :].split("} ")
            sums[labels.split("=", 1)[1].strip('"')] = float(value)
    return hist, sums


def diff(
    after: tuple[Histograms, dict[str, float]], before: tuple[Histograms, dict[str, float]]
) -> tuple[Histograms, dict[str, float]]:
    hist = {
        stage: [
            (le, n - m)
            for (le, n), (_, m) in zip(
                buckets, before[0].get(stage, [(le, 0.0) for le, _ in buckets]), strict=True
            )
        ]
        for stage, buckets in after[0].items()
    }
    return hist, {k: v - before[1].get(k, 0.0) for k, v in after[1].items()}


def quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """The ``q`` quantile (0-1) of cumulative ``buckets``, linear within a bucket, s."""
    total = buckets[-1][1]
    if not total:
        return float("nan")
    want, lo, below = q * total, 0.0, 0.0
    for le, n in buckets:
        if n >= want:
            if le == float("inf"):
                return lo
            return lo + (le - lo) * ((want - below) / (n - below) if n > below else 0.0)
        lo, below = le, n
    return lo


def _ms(s: float) -> str:
    return f"{s * 1e3:8.3f}"


def report(title: str, got: tuple[Histograms, dict[str, float]]) -> None:
    hist, sums = got
    total_n = hist.get("total", [(0.0, 0.0)])[-1][1]
    total_mean = sums.get("total", 0.0) / total_n if total_n else float("nan")
    print(f"\n== {title}: {int(total_n)} commands timed")
    print(f"  {'stage':8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'share':>6}")
    for stage in STAGES:
        buckets = hist.get(stage)
        if not buckets or not buckets[-1][1]:
            continue
        n = buckets[-1][1]
        mean = sums.get(stage, 0.0) / n
        share = f"{100 * mean / total_mean:5.1f}%" if stage != "total" else ""
        print(
            f"  {stage:8} {_ms(quantile(buckets, 0.5))} {_ms(quantile(buckets, 0.9))} "
            f"{_ms(quantile(buckets, 0.99))} {_ms(mean)} {share:>6}"
        )
    print("  histograms (commands per bucket; upper bounds in ms):")
    bounds = [le for le, _ in hist.get("total", [])]
    print("  " + " " * 8 + "".join(f"{_bound(le):>7}" for le in bounds))
    for stage in STAGES:
        buckets = hist.get(stage)
        if not buckets or not buckets[-1][1]:
            continue
        counts, prev = [], 0.0
        for _, n in buckets:
            counts.append(n - prev)
            prev = n
        print(f"  {stage:8}" + "".join(f"{int(c) if c else '.':>7}" for c in counts))


def _bound(le: float) -> str:
    if le == float("inf"):
        return "+Inf"
    ms = le * 1e3
    return f"{ms:g}"


def run_once(args: argparse.Namespace) -> dict[str, tuple[Histograms, dict[str, float]]]:
    """One fresh server, each workload once: workload title -> its stage histograms."""
    if args.db == "postgres":  # a fresh schema on the server, dropped afterwards
        from taku.store.postgres import with_schema

        db = with_schema(args.pg, "taku_stages_" + uuid.uuid4().hex[:12])
    elif args.db == "memory":
        db = "memory:"
    else:
        db = str(Path(tempfile.mkdtemp()) / "stages.db")
    port = free_port()
    server = start(
        [
            sys.executable,
            "-m",
            "taku.cli",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--rate",
            "1000000",
            "--creates-per-minute",
            "1000000",
            "--log-level",
            "warning",
            "--metrics",
            "on",
            *(["--loop", args.loop] if args.loop != "auto" else []),
            "--stage-timings",
        ],
        port,
    )
    url = f"ws://127.0.0.1:{port}/ws"
    shape = dict(tables=args.tables, clients=args.clients, seconds=args.seconds)
    got = {}
    try:
        workloads = [("closed loop", None), (f"open loop at {args.rate:g}/s", args.rate)]
        for title, rate in workloads[1:] if args.open_only else workloads:
            before = scrape(port)
            res = asyncio.run(load.run(url, taku=True, rate=rate, **shape))  # type: ignore[arg-type]
            print(f"\n{title}: {res.line()}")
            got[title] = diff(scrape(port), before)
            report(title, got[title])
    finally:
        server.terminate()
        server.wait()
        if args.db == "postgres":
            from taku.store.postgres import drop_schema

            asyncio.run(drop_schema(db))
    return got


def medians(runs: list[dict[str, tuple[Histograms, dict[str, float]]]]) -> None:
    """Each workload's stage p50 and p99, the median over ``runs``."""
    print(f"\n## medians of {len(runs)} run(s): p50 / p99 ms")
    for title in runs[0]:
        print(f"\n{title}")
        print(f"  {'stage':8} {'p50 ms':>8} {'p99 ms':>8}")
        for stage in STAGES:
            p50s, p99s = [], []
            for run in runs:
                buckets = run[title][0].get(stage)
                if buckets and buckets[-1][1]:
                    p50s.append(quantile(buckets, 0.5))
                    p99s.append(quantile(buckets, 0.99))
            if p50s:
                print(f"  {stage:8} {_ms(statistics.median(p50s))} {_ms(statistics.median(p99s))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--rate", type=float, default=1000.0, help="the open loop's commands/s")
    ap.add_argument("--db", choices=("sqlite", "memory", "postgres"), default="sqlite")
    ap.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="with --db postgres: the server (a schema of its own is made and dropped)",
    )
    ap.add_argument("--loop", choices=("auto", "uvloop", "asyncio"), default="auto")
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--clients", type=int, default=5)
    ap.add_argument("--open-only", action="store_true", help="skip the closed loop")
    ap.add_argument("--runs", type=int, default=1, help="fresh servers in turn; then medians")
    args = ap.parse_args()
    print(
        f"taku serve --stage-timings --db {args.db} --loop {args.loop}, {args.tables} x {args.clients}"
    )
    runs = [run_once(args) for _ in range(args.runs)]
    if args.runs > 1:
        medians(runs)


if __name__ == "__main__":
    main()
