"""The ``taku`` command: serve, rulesets, replay, export, verify, schema, play, new.

Examples::

    taku serve                                # SQLite file taku.db, http://127.0.0.1:8765/
    taku serve --db postgresql://localhost/taku --port 9000
    taku rulesets
    taku replay --db taku.db TABLE --to 40   # the table's state at seq 40, as JSON
    taku export --db taku.db TABLE --format text
    taku verify --db taku.db TABLE           # or: taku verify log.jsonl
    taku new http://127.0.0.1:8765/ --ruleset nstrpg   # a table from the terminal
    taku play 'http://127.0.0.1:8765/#table=…&token=…'  # play in the terminal
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from taku import __version__
from taku.errors import TakuError

__all__ = ["main"]

DEFAULT_DB = "taku.db"


def _registry() -> Any:
    from taku.plugins import load_registry

    return load_registry()


async def _serve(args: argparse.Namespace) -> int:
    from taku import log as taku_log
    from taku.app import Hub
    from taku.net import ServerConfig, TakuServer
    from taku.store import open_store

    taku_log.configure(json=None if not args.json_logs else True, level=args.log_level)
    lock = _claim(args.db)  # held while this process runs  # noqa: F841
    store = open_store(args.db)
    await store.open()
    hub = Hub(store, _registry())
    config = ServerConfig(
        host=args.host,
        port=args.port,
        max_frame_bytes=args.max_frame_bytes,
        rate_per_s=args.rate,
        rate_burst=max(int(args.rate * 2), 1),
        creates_per_minute=args.creates_per_minute,
        web_dir=Path(args.web_dir) if args.web_dir else None,
    )
    server = TakuServer(hub, config)
    try:
        await server.start()
    except OSError as e:
        await store.close()
        raise SystemExit(
            f"taku: cannot listen on {args.host}:{args.port}: {e.strerror or e}"
        ) from None
    # a server's heap is mostly long-lived (tables, their states): keep the cyclic GC off
    # it, and let it run less often, so its pauses do not land in command latencies
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    print(
        f"taku {__version__} serving {server.url}  (WebSocket: {server.ws_url}, db: {_shown(args.db)})",
        flush=True,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()
    await hub.close()
    await store.close()
    return 0


def _claim(db: str) -> Any:
    """Refuse to serve a SQLite file another ``taku serve`` is serving: its writer
    keeps the tables' last seqs in memory, so two would refuse each other's appends.
    Returns the lock (a file kept open); None for other stores or without ``fcntl``."""
    if db in ("memory:", ":memory:") or db.startswith(("postgresql://", "postgres://")):
        return None
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    path = Path(db.removeprefix("sqlite:///"))
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = open(path.with_name(path.name + ".lock"), "w")  # noqa: SIM115 - kept open on purpose
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise SystemExit(
            f"taku: another taku serve is serving {db}; stop it first (or use PostgreSQL for several nodes)"
        ) from None
    return lock


def _shown(db: str) -> str:
    """``db`` as it may be printed: a password in a URL becomes ``***``."""
    import urllib.parse

    parts = urllib.parse.urlsplit(db)
    if parts.password is None:
        return db
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


async def _load(db: str, table_id: str) -> tuple[Any, Any, list[Any]]:
    """(ruleset, event decoder, every stored event) of a table; exits when there is none."""
    from taku.core.table import event_decoder
    from taku.store import open_store

    if "://" not in db and db != "memory:" and not Path(db).exists():
        raise SystemExit(f"taku: no database {db!r}")
    store = open_store(db)
    await store.open()
    try:
        record = await store.get_table(table_id)
        if record is None:
            raise SystemExit(f"taku: no table {table_id!r} in {db}")
        ruleset = _registry().get(record.ruleset)
        recs = await store.read(table_id)
    finally:
        await store.close()
    return ruleset, event_decoder(ruleset), recs


async def _replay(args: argparse.Namespace) -> int:
    from taku.core.ruleset import Viewer
    from taku.core.table import TableState, fold, view

    ruleset, decoder, recs = await _load(args.db, args.table)
    if args.to is not None:
        last = recs[-1].seq if recs else 0
        if args.to > last:
            raise SystemExit(
                f"taku replay: table {args.table} ends at seq {last}; --to {args.to} is past its end"
            )
        recs = [r for r in recs if r.seq <= args.to]
    state = fold(TableState(table_id=args.table), recs, ruleset, decoder)
    viewer = Viewer(None, "gm") if args.as_gm else Viewer(None, "spectator")
    sys.stdout.write(json.dumps(view(state, viewer, ruleset), ensure_ascii=False, indent=2) + "\n")
    return 0


async def _export(args: argparse.Namespace) -> int:
    from taku.app import Hub
    from taku.store import open_store

    store = open_store(args.db)
    await store.open()
    hub = Hub(store, _registry())
    try:
        try:
            table = await hub.table(args.table)
        except TakuError as e:
            raise SystemExit(f"taku: {e.message}") from None
        recs = await store.read(args.table)
        # the public's view: hidden events come redacted, exactly as a spectator saw them
        frames = table.viewer_frames(recs, args.as_member)
        if args.full:  # the GM publishes the full log: every hidden event and its salt
            frames = [msgspec.json.encode(r) for r in recs]
    finally:
        await hub.close()
        await store.close()
    out = sys.stdout
    for frame in frames:
        if args.format == "jsonl" or args.full:
            out.write(frame.decode() + "\n")
        else:
            msg = msgspec.json.decode(frame)
            text = msg["text"].replace("\n", "\n    ")  # a continuation never looks like an entry
            out.write(f"[{msg['seq']}] {msg['time'][:19].replace('T', ' ')} {text}\n")
    return 0


async def _verify(args: argparse.Namespace) -> int:
    from taku.verify import lines_from_export, lines_from_records, verify_log

    if not args.source:
        raise SystemExit("usage: taku verify --db DB TABLE, or taku verify EXPORTED.jsonl")
    if args.db:
        _, _, recs = await _load(args.db, args.source)
        lines = lines_from_records(recs)
    else:
        path = Path(args.source)
        if not path.is_file():
            raise SystemExit(
                f"taku verify: no file {str(path)!r} (for a table in a database: taku verify --db DB TABLE)"
            )
        try:
            lines = lines_from_export(path.read_text(encoding="utf-8"))
        except ValueError as e:
            print(f"taku verify: {e}", file=sys.stderr)
            return 2
    report = verify_log(lines, _registry(), heads=args.head or ())
    c = report.counts
    # the verdict first, then what it rests on
    if report.problems:
        print(f"NOT VERIFIED: {len(report.problems)} problem(s) in {c['events']} events")
    else:
        print(
            f"VERIFIED: {c['rolls']} rolls, {c['faces']} faces in {c['events']} events; "
            f"{c['commands']} commands decided again; {c['chained']} of {c['events']} events chained"
            + (f" to head {report.head[:16]}" if c["chained"] else "")
            + (f"; the heads you hold are reached: {', '.join(args.head)}" if args.head else "")
        )
    for p in report.problems:
        print(f"FAIL {p}")
    for line in report.epochs:
        print(f"  {line}")
    for _seq, why in report.unchecked:
        print(f"NOT CHECKED {why}")
    return 1 if report.problems else 0


def _rulesets(args: argparse.Namespace) -> int:
    for r in _registry():
        print(f"{r.id:10} {r.version:8} {r.name}" + (f" — {r.summary}" if r.summary else ""))
    return 0


def _schema(args: argparse.Namespace) -> int:
    from taku.schema import write_schemas

    written = write_schemas(Path(args.out))
    protocol = Path(args.out).parent / "protocol.md"
    if protocol.exists():  # the error table of docs/protocol.md comes from the catalogue
        from taku import codes

        text = protocol.read_text(encoding="utf-8")
        protocol.write_text(codes.with_table(text), encoding="utf-8")
        written.append(protocol)
    for p in written:
        print(p)
    return 0


def _play(args: argparse.Namespace) -> Any:
    from taku_client.terminal import main_play  # the terminal client lives in clients/python

    return main_play(args)


def _new(args: argparse.Namespace) -> Any:
    from taku_client.terminal import main_new

    return main_new(args)


def _port(text: str) -> int:
    port = int(text)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is 0 to 65535")
    return port


def _positive(kind: type, most: float | None = None) -> Any:
    def check(text: str) -> Any:
        value = kind(text)
        if value <= 0 or (most is not None and value > most):
            raise argparse.ArgumentTypeError(
                f"must be above 0{f' and at most {most}' if most else ''}"
            )
        return value

    return check


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="taku", description="taku (卓): a session server for tabletop RPGs"
    )
    p.add_argument("--version", action="version", version=f"taku {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("serve", help="run the server (WebSocket and the web client on one port)")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=_port, default=8765)
    s.add_argument(
        "--db", default=DEFAULT_DB, help="SQLite file (default taku.db), postgresql://… or memory:"
    )
    s.add_argument(
        "--max-frame-bytes",
        type=_positive(int, 1024 * 1024),
        default=64 * 1024,
        help="at most 1048576 (1 MiB)",
    )
    s.add_argument(
        "--rate", type=_positive(float), default=50.0, help="messages per second per connection"
    )
    s.add_argument(
        "--creates-per-minute",
        type=_positive(float),
        default=60.0,
        help="new tables per minute, server-wide",
    )
    s.add_argument(
        "--web-dir", default=None, help="static files served at / (default: clients/web)"
    )
    s.add_argument("--log-level", default="info")
    s.add_argument("--json-logs", action="store_true", help="JSON log lines even on a terminal")
    s.set_defaults(run=_serve)

    s = sub.add_parser("rulesets", help="list the installed rulesets")
    s.set_defaults(run=_rulesets)

    s = sub.add_parser("replay", help="print a table's state (as JSON) at its end or at --to SEQ")
    s.add_argument("--db", default=DEFAULT_DB)
    s.add_argument("table")
    s.add_argument(
        "--to",
        type=_positive(int),
        default=None,
        metavar="SEQ",
        help="the state at this seq (1 to the table's last)",
    )
    s.add_argument(
        "--as-gm", action="store_true", help="the GM's view (hidden information included)"
    )
    s.set_defaults(run=_replay)

    s = sub.add_parser("export", help="a table's log without secrets: readable text or JSON lines")
    s.add_argument("--db", default=DEFAULT_DB)
    s.add_argument("table")
    s.add_argument("--format", choices=("jsonl", "text"), default="text")
    s.add_argument(
        "--as",
        dest="as_member",
        default=None,
        metavar="MEMBER",
        help="the log as this member received it (their own hidden events in full)",
    )
    s.add_argument(
        "--full",
        action="store_true",
        help="jsonl: the full log with every hidden event and salt (for the GM to publish at the end)",
    )
    s.set_defaults(run=_export)

    s = sub.add_parser(
        "verify",
        help="check a table's log: hash chain, held heads, seeds, every command decided again, commitments, faces",
    )
    s.add_argument("source", nargs="?", help="TABLE with --db, or an exported .jsonl file")
    s.add_argument("--db", default=None)
    s.add_argument(
        "--head",
        action="append",
        metavar="[SEQ:]HASH",
        help="a head you hold (a client shows it as the table's fingerprint); the log must reach it",
    )
    s.set_defaults(run=_verify)

    s = sub.add_parser("play", help="play at a table in the terminal (taku_client)")
    s.add_argument("url", help="an invite link, or the server's URL with --table and --token")
    s.add_argument("--token", default=None)
    s.add_argument("--table", default=None)
    s.add_argument("--name", default="")
    s.add_argument(
        "--plain", action="store_true", help="no prompt_toolkit: read plain lines from stdin"
    )
    s.set_defaults(run=_play)

    s = sub.add_parser(
        "new", help="create a table from the terminal and play it as its GM (taku_client)"
    )
    s.add_argument("url", help="the server's URL, e.g. http://127.0.0.1:8765/")
    s.add_argument("--ruleset", default="generic")
    s.add_argument("--name", default="")
    s.add_argument("--gm-name", default="GM")
    s.add_argument("--no-play", action="store_true", help="only print the invite links")
    s.add_argument(
        "--plain", action="store_true", help="no prompt_toolkit: read plain lines from stdin"
    )
    s.set_defaults(run=_new)

    s = sub.add_parser(
        "schema",
        help="write the JSON Schema of every protocol message (and docs/protocol.md's error table)",
    )
    s.add_argument("--out", default="docs/schema")
    s.set_defaults(run=_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result = args.run(args)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
    except TakuError as e:  # a store that cannot be opened, an unknown table …
        print(f"taku: {e.message} ({e.code})", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `taku export … | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
