"""nstrpg map geometry: how long the reachable squares and line of sight take on a large map.

    .venv/bin/python bench/nstrpg_map.py

A 64×64 map of 6×6 rooms with a door in every wall (80+ doors). Printed: the median of 3
runs of ``reachable`` (通常移動 and 連続側転移動, 20 squares) and of 1,000 ``line_of_sight``
calls, each also as a ratio to a bare flood fill of the same grid measured in the same run
(the yardstick: the machine is shared and noisy). Target: a move affordance under 50 ms
(a state message carries it). Never run as a test.
"""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable

from taku_nstrpg import board as bd


def rooms() -> bd.NsMap:
    rows = []
    for y in range(64):
        row = ""
        for x in range(64):
            wall = y % 7 == 0 or x % 7 == 0
            door = (y % 7 == 3 or x % 7 == 3) and not (y % 7 == 0 and x % 7 == 0)
            row += ("d" if door else "#") if wall else "."
        rows.append(row)
    return bd.parse_map("\n".join(rows))


def flood(m: bd.NsMap, start: bd.Pos) -> int:
    """The yardstick: squares within 20 orthogonal steps, no rules."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        if dist[p] == 20:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (p[0] + dx, p[1] + dy)
            if q not in dist and m.cell(q) != "#":
                dist[q] = dist[p] + 1
                todo.append(q)
    return len(dist)


def median_ms(fn: Callable[[], object]) -> float:
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t) * 1000)
    return statistics.median(runs)


def main() -> None:
    m = rooms()
    start = (10, 10)
    yard = median_ms(lambda: flood(m, start))
    normal = median_ms(lambda: bd.reachable(m, start, bd.MoveRules(limit=20)))
    side = median_ms(lambda: bd.reachable(m, start, bd.MoveRules(limit=20, sokuten=True)))
    pairs = [((x, y), (63 - x, 63 - y)) for x in range(1, 40) for y in range(1, 27)][:1000]
    sight = median_ms(lambda: [bd.line_of_sight(m, a, b) for a, b in pairs])
    print(f"yardstick flood fill (20 steps): {yard:.2f} ms")
    print(f"reachable 通常移動 20: {normal:.2f} ms ({normal / yard:.1f}x)")
    print(f"reachable 連続側転 20: {side:.2f} ms ({side / yard:.1f}x)")
    print(f"line_of_sight ×1000: {sight:.2f} ms ({sight / yard:.1f}x)")


if __name__ == "__main__":
    main()
