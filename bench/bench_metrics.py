"""What the Prometheus hooks cost a command (taku.metrics), beside a yardstick.

    .venv/bin/python bench/bench_metrics.py

Per command the server calls ``command_answered`` (a counter and a histogram),
``timed_commit`` (a wrapper around the store's answer, one histogram) and
``commit_batch`` (one histogram; SQLite calls it once per group commit, this
counts it once per command: the worst case). The yardstick is encoding the
command's ``ack`` with msgspec, which the server does for every command too.
Prints nanoseconds per command, the median of 3 runs of each.
"""

from __future__ import annotations

import statistics
import time

from taku import metrics
from taku.protocol import Ack, encode

N = 200_000


def hooks() -> None:
    def stored(err: BaseException | None) -> None:
        pass

    for _ in range(N):
        metrics.timed_commit(stored)(None)
        metrics.commit_batch(1)
        metrics.command_answered("generic", "ok", 0.0012)


def yardstick() -> None:
    for i in range(N):
        encode(Ack(re=i, table_id="t1", command_id="c1", first_seq=i, last_seq=i))


def ns_per_op(fn: object) -> float:
    runs = []
    for _ in range(3):
        t0 = time.perf_counter_ns()
        fn()  # type: ignore[operator]
        runs.append((time.perf_counter_ns() - t0) / N)
    return statistics.median(runs)


if __name__ == "__main__":
    y = ns_per_op(yardstick)
    h = ns_per_op(hooks)
    print(f"ack encode (yardstick): {y:8.0f} ns/command")
    print(f"metrics hooks:          {h:8.0f} ns/command  ({h / y:.2f}x the yardstick)")
