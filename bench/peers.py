"""taku against its peers, as issue 16 measures it: medians of several peer-bench runs.

    make bench-peers                          (3 rounds, about 12 minutes)
    .venv/bin/python bench/peers.py [--runs 3] [--peerbench ../shared/peerbench]

Each round runs ../shared/peerbench/run.sh (Node, each server's own client, one load
generator; see its README) three times against this checkout:

- ``main``: taku-sqlite, bare and Colyseus, closed loop and open loop at 1,000/s, 100 x 5;
- ``cliff``: taku-sqlite, open loop at 3,000/s (``PB_RATE_MANY=3000``);
- ``idle``: taku-sqlite and Colyseus with 10,000 idle clients (``PB_IDLE_CLIENTS=10000``).

It prints every run's figures, then the median of each figure over the rounds and the
issue's targets as ratios of those medians (these machines are noisy: one run says
little). The raw JSON of each run stays in the peer bench's ``results/``. Never a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

PARTS: dict[str, dict[str, str]] = {
    "main": {"PB_SERVERS": "taku-sqlite,bare,colyseus", "PB_WORKLOADS": "closed-100x5,open-100x5"},
    "cliff": {"PB_SERVERS": "taku-sqlite", "PB_WORKLOADS": "open-100x5", "PB_RATE_MANY": "3000"},
    "idle": {
        "PB_SERVERS": "taku-sqlite,colyseus",
        "PB_WORKLOADS": "idle",
        "PB_IDLE_CLIENTS": "10000",
    },
}

FIGURES = (
    # (label, part, server, workload, key)
    ("closed 100x5 cmd/s, taku", "main", "taku-sqlite", "closed-100x5", "cmd_per_s"),
    ("closed 100x5 cmd/s, bare", "main", "bare", "closed-100x5", "cmd_per_s"),
    ("closed 100x5 cmd/s, Colyseus", "main", "colyseus", "closed-100x5", "cmd_per_s"),
    ("server CPU µs/cmd, taku", "main", "taku-sqlite", "closed-100x5", "server_cpu_us_per_cmd"),
    ("server CPU µs/cmd, bare", "main", "bare", "closed-100x5", "server_cpu_us_per_cmd"),
    ("server CPU µs/cmd, Colyseus", "main", "colyseus", "closed-100x5", "server_cpu_us_per_cmd"),
    ("open 1000/s p50 ms, taku", "main", "taku-sqlite", "open-100x5", "complete_p50_ms"),
    ("open 1000/s p50 ms, Colyseus", "main", "colyseus", "open-100x5", "complete_p50_ms"),
    ("open 1000/s p99 ms, taku", "main", "taku-sqlite", "open-100x5", "complete_p99_ms"),
    ("open 1000/s p99 ms, bare", "main", "bare", "open-100x5", "complete_p99_ms"),
    ("open 1000/s p99 ms, Colyseus", "main", "colyseus", "open-100x5", "complete_p99_ms"),
    ("open 3000/s p99 ms, taku", "cliff", "taku-sqlite", "open-100x5", "complete_p99_ms"),
    ("10,000 idle RSS MiB, taku", "idle", "taku-sqlite", "idle", "rss_mib"),
    ("10,000 idle RSS MiB, Colyseus", "idle", "colyseus", "idle", "rss_mib"),
)

TARGETS = (
    # (what, numerator, denominator, bound, "le" or "ge")
    ("open 1000/s p99: taku ÷ Colyseus", "open 1000/s p99 ms, taku", "open 1000/s p99 ms, Colyseus", 1.5, "le"),
    ("open 1000/s p50: taku ÷ Colyseus", "open 1000/s p50 ms, taku", "open 1000/s p50 ms, Colyseus", 2.0, "le"),
    ("closed cmd/s: taku ÷ Colyseus", "closed 100x5 cmd/s, taku", "closed 100x5 cmd/s, Colyseus", 0.6, "ge"),
    ("closed cmd/s: taku ÷ bare", "closed 100x5 cmd/s, taku", "closed 100x5 cmd/s, bare", 0.6, "ge"),
    ("p99 at 3000/s ÷ p99 at 1000/s (taku)", "open 3000/s p99 ms, taku", "open 1000/s p99 ms, taku", 3.0, "le"),
    ("server CPU/cmd: taku ÷ bare", "server CPU µs/cmd, taku", "server CPU µs/cmd, bare", 1.6, "le"),
    ("10,000 idle RSS: taku ÷ Colyseus", "10,000 idle RSS MiB, taku", "10,000 idle RSS MiB, Colyseus", 0.8, "le"),
)  # fmt: skip


def run_part(peerbench: Path, part: str, checkout: Path = ROOT) -> dict[str, Any]:
    """One peer-bench run of ``part`` against ``checkout``: its results JSON
    (server -> workload -> figures)."""
    env = {**os.environ, **PARTS[part]}
    proc = subprocess.run(
        ["bash", str(peerbench / "run.sh"), str(checkout)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    sys.stdout.write(proc.stdout)
    m = re.search(r"raw results: (\S+)", proc.stdout)
    if proc.returncode or m is None:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f"peer bench ({part}) failed with {proc.returncode}")
    results: dict[str, Any] = json.loads(Path(m.group(1)).read_text())["results"]
    return results


def figure(results: dict[str, Any], server: str, workload: str, key: str) -> float | None:
    got = results.get(server, {}).get(workload, {})
    if key == "rss_mib":
        kib = got.get("rss_kib")
        return None if kib is None else kib / 1024
    value = got.get(key)
    return None if value is None else float(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peerbench", type=Path, default=ROOT.parent / "shared" / "peerbench")
    ap.add_argument("--parts", default="main,cliff,idle", help="comma-separated: main,cliff,idle")
    ap.add_argument(
        "--checkout", type=Path, default=ROOT, help="the taku checkout to measure (default: this)"
    )
    args = ap.parse_args()
    parts = args.parts.split(",")
    rounds: list[dict[str, dict[str, Any]]] = []
    for n in range(args.runs):
        print(f"\n######## round {n + 1} of {args.runs}", flush=True)
        rounds.append({part: run_part(args.peerbench, part, args.checkout) for part in parts})
    values: dict[str, list[float]] = {}
    for label, part, server, workload, key in FIGURES:
        if part not in parts:
            continue
        got = [figure(r[part], server, workload, key) for r in rounds]
        values[label] = [v for v in got if v is not None]
    print(f"\n## medians of {args.runs} round(s)\n")
    print("| figure | runs | median |\n|---|---|---|")
    for label, vs in values.items():
        runs = ", ".join(f"{v:,.2f}" for v in vs)
        median = f"{statistics.median(vs):,.2f}" if vs else "n/a"
        print(f"| {label} | {runs} | {median} |")
    print("\n| target | ratio of medians | bound | met |\n|---|---|---|---|")
    for what, num, den, bound, way in TARGETS:
        if not values.get(num) or not values.get(den):
            continue
        ratio = statistics.median(values[num]) / statistics.median(values[den])
        met = ratio <= bound if way == "le" else ratio >= bound
        sign = "≤" if way == "le" else "≥"
        print(f"| {what} | {ratio:.2f} | {sign} {bound} | {'yes' if met else 'no'} |")


if __name__ == "__main__":
    main()
