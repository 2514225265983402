"""Where an idle server's memory goes (issue 18): ``taku serve`` in a child process that
dumps its memory counters on SIGUSR1, driven like ``long_tables.py --only idle``.
Prints the counters at the baseline, the peak and after the idle time. Never a test.

    .venv/bin/python bench/idle_probe.py [--tables 3000] [--idle-s 60] [-- SERVE-OPTIONS]

Counters: /proc status (RssAnon, RssFile), pymalloc's arenas and blocks
(``sys._debugmallocstats``), glibc's heap (``mallinfo2``: in use, free, mmapped, arenas
of threads), threads, objects the GC tracks by type (the top ones beyond the baseline),
SQLite's own heap. ``TAKU_PROBE_TRACE=N`` also traces allocations (``tracemalloc``, N
frames) and prints the biggest differences of live blocks against the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import ctypes
import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from long_tables import Peer, free_port
from run_all import wait_open

OUT = os.environ.get("TAKU_PROBE_OUT", "")


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _pymalloc() -> dict[str, int]:
    """Arenas and bytes from ``sys._debugmallocstats`` (it writes to fd 2)."""
    r, w = os.pipe()
    saved = os.dup(2)
    os.dup2(w, 2)
    try:
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(w)
    text = b""
    while chunk := os.read(r, 65536):
        text += chunk
    os.close(r)
    out: dict[str, int] = {}
    for line in text.decode().splitlines():
        left, eq, right = line.partition("=")
        if not eq:
            continue
        value = int(right.replace(",", "").split()[0])
        if "unused pools" in left:
            out["unused pools"] = int(left.split()[0])
        elif left.startswith("# "):
            out[left[2:].strip()] = value
    return out


def _counters(trace: bool) -> dict[str, Any]:
    status = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "Threads"):
            status[k] = int(v.split()[0])
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _Mallinfo2
    mi = libc.mallinfo2()
    try:
        sq = ctypes.CDLL("libsqlite3.so.0")
        sq.sqlite3_memory_used.restype = ctypes.c_int64
        sqlite_used = sq.sqlite3_memory_used()
    except OSError:
        sqlite_used = -1
    types = collections.Counter(type(o).__name__ for o in gc.get_objects())
    out = {
        "status_kib": status,
        "pymalloc": _pymalloc(),
        "blocks": sys.getallocatedblocks(),
        "malloc": {
            "heap": mi.arena,
            "mmapped": mi.hblkhd,
            "in_use": mi.uordblks,
            "free": mi.fordblks,
            "top_pad": mi.keepcost,
        },
        "threads": [t.name for t in threading.enumerate()],
        "sqlite_used": sqlite_used,
        "gc_types": dict(types.most_common(60)),
    }
    hook = os.environ.get("TAKU_PROBE_EXEC")
    if hook:  # a snippet that sets ``extra`` (an investigation's own question)
        scope: dict[str, Any] = {"gc": gc}
        exec(Path(hook).read_text(), scope)
        out["extra"] = scope.get("extra")
    if trace:
        import pickle
        import tracemalloc

        snap = tracemalloc.take_snapshot()
        path = f"{OUT}.{int(time.time() * 1000)}.trace"
        with open(path, "wb") as f:
            pickle.dump(snap, f)
        out["trace"] = path
    return out


def serve_child(argv: list[str]) -> int:
    """``taku serve argv`` with the SIGUSR1 dump installed."""
    trace = int(os.environ.get("TAKU_PROBE_TRACE", "0"))
    if trace:
        import tracemalloc

        tracemalloc.start(trace)

    def dump(signum: int, frame: Any) -> None:
        gc.collect()
        data = _counters(bool(trace))
        tmp = OUT + ".tmp"
        Path(tmp).write_text(json.dumps(data))
        os.replace(tmp, OUT)

    signal.signal(signal.SIGUSR1, dump)
    from taku.cli import main

    return main(["serve", *argv])


def ask(proc: subprocess.Popen[bytes], out: Path) -> dict[str, Any]:
    out.unlink(missing_ok=True)
    proc.send_signal(signal.SIGUSR1)
    for _ in range(600):
        if out.exists():
            return json.loads(out.read_text())  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise SystemExit("no dump")


async def drive(tables: int, idle_s: float, extra: list[str]) -> list[dict[str, Any]]:
    db = Path(tempfile.mkdtemp()) / "probe.db"
    out = db.with_suffix(".json")
    port = free_port()
    env = {**os.environ, "TAKU_PROBE_OUT": str(out)}
    cmd = [
        sys.executable,
        __file__,
        "--serve",
        "--db",
        str(db),
        "--port",
        str(port),
        "--rate",
        "100000",
        "--creates-per-minute",
        "10000000",
        "--log-level",
        "warning",
        "--idle-unload-s",
        str(idle_s),
        *extra,
    ]
    proc = wait_open(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env), port, tries=400)
    try:
        p = await Peer.open(port)
        await p.request({"type": "hello"})

        async def work(peer: Peer, k: int) -> None:
            for _ in range(k):
                c = await peer.request({"type": "create_table", "ruleset": "generic"})
                tid = c["table_id"]
                await peer.request({"type": "chat", "table_id": tid, "text": "一度だけ"})
                await peer.request({"type": "get_state", "table_id": tid})

        await work(p, 1)
        await asyncio.sleep(1.0)
        base = ask(proc, out)
        peers = [await Peer.open(port) for _ in range(8)]
        t0 = time.perf_counter()
        await asyncio.gather(*(work(peer, tables // len(peers)) for peer in peers))
        touched = time.perf_counter() - t0
        peak = ask(proc, out)
        for pr in [p, *peers]:
            await pr.ws.close()  # type: ignore[attr-defined]
        await asyncio.sleep(idle_s * 1.5 + 2)
        after = ask(proc, out)
        print(f"(touching took {touched:.0f} s; load {os.getloadavg()[0]:.1f})")
    finally:
        proc.terminate()
        proc.wait()
    return [base, peak, after]


def show(runs: list[dict[str, Any]]) -> None:
    names = ("baseline", "peak", "after")
    rows = [
        ("RSS MiB", lambda d: d["status_kib"]["VmRSS"] / 1024),
        ("RssAnon MiB", lambda d: d["status_kib"]["RssAnon"] / 1024),
        ("RssFile MiB", lambda d: d["status_kib"]["RssFile"] / 1024),
        ("threads", lambda d: d["status_kib"]["Threads"]),
        ("pymalloc arenas", lambda d: d["pymalloc"].get("arenas allocated current", -1)),
        (
            "pymalloc alloc'd MiB",
            lambda d: d["pymalloc"].get("bytes in allocated blocks", 0) / 2**20,
        ),
        ("pymalloc avail MiB", lambda d: d["pymalloc"].get("bytes in available blocks", 0) / 2**20),
        ("pymalloc unused pools", lambda d: d["pymalloc"].get("unused pools", -1)),
        ("blocks", lambda d: d["blocks"]),
        ("malloc heap MiB", lambda d: d["malloc"]["heap"] / 2**20),
        ("malloc in use MiB", lambda d: d["malloc"]["in_use"] / 2**20),
        ("malloc free MiB", lambda d: d["malloc"]["free"] / 2**20),
        ("malloc mmapped MiB", lambda d: d["malloc"]["mmapped"] / 2**20),
        ("sqlite heap MiB", lambda d: d["sqlite_used"] / 2**20),
    ]
    print(f"{'':24}" + "".join(f"{n:>12}" for n in names))
    for label, f in rows:
        print(f"{label:24}" + "".join(f"{f(d):12.2f}" for d in runs))
    b, a = runs[0]["gc_types"], runs[2]["gc_types"]
    diff = {k: a.get(k, 0) - b.get(k, 0) for k in set(a) | set(b)}
    top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:12]
    print("gc-tracked objects after - baseline:", ", ".join(f"{k} {v:+d}" for k, v in top))
    print("threads after:", runs[2]["threads"])
    for name, d in zip(names, runs, strict=True):
        if d.get("extra") is not None:
            print(f"extra ({name}):", d["extra"])
    if "trace" in runs[0]:
        import pickle

        with open(runs[0]["trace"], "rb") as f:
            s0 = pickle.load(f)
        with open(runs[2]["trace"], "rb") as f:
            s2 = pickle.load(f)
        print("tracemalloc, live after - baseline (top 25 by blocks):")
        stats = s2.compare_to(s0, "traceback")
        stats.sort(key=lambda s: -abs(s.count_diff))
        for st in stats[:25]:
            print(f"  {st.count_diff:+6d} blocks {st.size_diff / 1024:+8.1f} KiB")
            for line in st.traceback.format()[-8:]:
                print("     ", line)


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        raise SystemExit(serve_child(sys.argv[2:]))
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=3000)
    ap.add_argument("--idle-s", type=float, default=60.0)
    ap.add_argument("extra", nargs="*", help="more taku serve options (after --)")
    args = ap.parse_args()
    show(asyncio.run(drive(args.tables, args.idle_s, args.extra)))


if __name__ == "__main__":
    main()
