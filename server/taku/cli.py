"""The ``taku`` command: serve, rulesets, replay, export, verify, schema, play, new.

Examples::

    taku serve                                # SQLite file taku.db, http://127.0.0.1:8765/
    taku serve --db postgresql://localhost/taku --port 9000
    taku rulesets
    taku replay --db taku.db TABLE --to 40   # the table's state at seq 40, as JSON
    taku export --db taku.db TABLE --format text|jsonl|html
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from taku import __version__
from taku.errors import TakuError

__all__ = ["main"]

DEFAULT_DB = "taku.db"


def _open_store(db: str) -> Any:
    """:func:`taku.store.open_store`, with one line instead of a traceback when the
    store's driver is not installed (``postgresql://`` needs the ``postgres`` extra)."""
    from taku.store import open_store

    try:
        return open_store(db)
    except ModuleNotFoundError as e:
        if e.name != "asyncpg":
            raise
        raise SystemExit(
            "taku: a postgresql:// database needs asyncpg: pip install 'taku[postgres]'"
        ) from None


def _terminal_client() -> Any:
    """The terminal client's module, or one line saying how to install it (the extra
    ``terminal``: rich and prompt_toolkit are not needed by the server)."""
    import importlib.util

    missing = [m for m in ("rich", "prompt_toolkit") if importlib.util.find_spec(m) is None]
    if missing:
        raise SystemExit(
            f"taku: the terminal client needs {' and '.join(missing)}: pip install 'taku[terminal]'"
        )
    from taku_client import terminal  # the terminal client lives in clients/python

    return terminal


def _registry() -> Any:
    from taku.plugins import load_registry

    return load_registry()


async def _serve(args: argparse.Namespace) -> int:
    from taku import log as taku_log
    from taku.app import Hub
    from taku.net import ServerConfig, TakuServer

    taku_log.configure(json=None if not args.json_logs else True, level=args.log_level)
    if args.stage_timings:
        from taku import metrics

        metrics.stages.enabled = True
    lock = _claim(args.db)  # held while this process runs  # noqa: F841
    store = _open_store(args.db)
    await store.open()
    hub = Hub(
        store,
        _registry(),
        snapshot_every=args.snapshot_every,
        idle_unload_s=args.idle_unload_s or None,
        max_idle_tables=args.max_idle_tables or None,
    )
    config = ServerConfig(
        host=args.host,
        port=args.port,
        max_frame_bytes=args.max_frame_bytes,
        rate_per_s=args.rate,
        rate_burst=max(int(args.rate * 2), 1),
        creates_per_minute=args.creates_per_minute,
        web_dir=Path(args.web_dir) if args.web_dir else None,
        metrics=_metrics_here(args),
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
        f"taku {__version__} serving {server.url}  (WebSocket: {server.ws_url}, "
        f"db: {_shown(args.db)}, loop: {_loop_name()})",
        flush=True,
    )
    if args.metrics_port is not None and args.metrics != "off":
        from taku import metrics

        metrics.serve_elsewhere(args.metrics_host, args.metrics_port)
        print(f"metrics: http://{args.metrics_host}:{args.metrics_port}/metrics", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signalled: list[int] = []

    def on_signal(sig: int) -> None:
        signalled.append(sig)
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)
    await stop.wait()
    if signalled[0] == signal.SIGTERM and args.drain_s > 0:
        # /readyz answers 503 while the players' connections go on; a second signal ends it
        stop.clear()
        drain = asyncio.ensure_future(server.drain(args.drain_s))
        again = asyncio.ensure_future(stop.wait())
        await asyncio.wait([drain, again], return_when=asyncio.FIRST_COMPLETED)
        drain.cancel()
        again.cancel()
    server.draining = True
    await server.stop()
    await hub.close()
    await store.close()
    return 0


def _metrics_here(args: argparse.Namespace) -> bool | None:
    """ServerConfig.metrics for ``--metrics`` / ``--metrics-port``: None (auto: loopback
    only), True, or False (off, or served on a port of its own)."""
    if args.metrics == "off" or args.metrics_port is not None:
        return False
    return True if args.metrics == "on" else None


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

    if "://" not in db and db != "memory:" and not Path(db).exists():
        raise SystemExit(f"taku: データベース {db!r} がありません")
    store = _open_store(db)
    await store.open()
    try:
        record = await store.get_table(table_id)
        if record is None:
            raise SystemExit(f"taku: {db} に卓 {table_id!r} がありません")
        ruleset = _registry().get(record.ruleset)
        recs = await store.read(table_id)
    finally:
        await store.close()
    return ruleset, event_decoder(ruleset), recs


async def _replay(args: argparse.Namespace) -> int:
    """The table's state at its end or at ``--to``: loaded from its latest snapshot and
    folded from the nearest one at or below ``--to`` (the events are read only past it)."""
    from taku.app import Hub
    from taku.core.ruleset import Viewer
    from taku.core.table import view
    from taku.errors import TakuError
    from taku.store import open_store

    if "://" not in args.db and args.db != "memory:" and not Path(args.db).exists():
        raise SystemExit(f"taku: no database {args.db!r}")
    store = open_store(args.db)
    await store.open()
    hub = Hub(store, _registry(), idle_unload_s=None, timers=False)  # read only
    try:
        if await store.get_table(args.table) is None:
            raise SystemExit(f"taku: no table {args.table!r} in {args.db}")
        try:
            table = await hub.table(args.table)
            last = table.state.seq
            if args.to is not None and args.to > last:
                raise SystemExit(
                    f"taku replay: table {args.table} ends at seq {last}; --to {args.to} is past its end"
                )
            state = table.state if args.to is None else await table.past_state(args.to)
        except TakuError as e:
            raise SystemExit(f"taku: {e.message}") from None
        ruleset = table.ruleset
    finally:
        await hub.close()
        await store.close()
    viewer = Viewer(None, "gm") if args.as_gm else Viewer(None, "spectator")
    sys.stdout.write(json.dumps(view(state, viewer, ruleset), ensure_ascii=False, indent=2) + "\n")
    return 0


def _export_member(members: Any, args: argparse.Namespace) -> str | None:
    """The member id ``--as`` names (an id, or a name only one member has); a typo would
    otherwise give the public's log as if it were that member's."""
    who = args.as_member
    if who is None:
        return None
    if args.full:
        raise SystemExit(
            "taku export: --full は全員分の完全なログです（--as とは一緒に使えません）"
        )
    if who in members:
        return str(who)
    named = [m.id for m in members.values() if m.name == who]
    if len(named) == 1:
        return str(named[0])
    listed = ", ".join(f"{m.id}（{m.name}）" for m in members.values())
    raise SystemExit(
        f"taku export: 卓 {args.table} に --as {who!r} のメンバーはいません"
        + ("（同じ名前のメンバーが複数います。IDで指定してください）" if named else "")
        + f"。メンバー: {listed}"
    )


async def _export(args: argparse.Namespace) -> int:
    from taku.app import Hub
    from taku.export import export

    store = _open_store(args.db)
    await store.open()
    hub = Hub(store, _registry(), timers=False)  # read only: never an expiry
    try:
        try:
            table = await hub.table(args.table)
        except TakuError as e:
            raise SystemExit(f"taku: {e.message}") from None
        member = _export_member(table.state.members, args)
        recs = await store.read(args.table)
        # the public's view (hidden events come redacted, exactly as a spectator saw
        # them), one member's (--as), or the GM's full log with every salt (--full)
        if args.full:
            document = "".join(msgspec.json.encode(r).decode() + "\n" for r in recs)
        else:
            document = export(table, recs, args.format, member_id=member)
    finally:
        await hub.close()
        await store.close()
    sys.stdout.write(document)
    return 0


async def _verify(args: argparse.Namespace) -> int:
    from taku.verify import lines_from_export, lines_from_records, verify_log

    if not args.source:
        raise SystemExit("使い方: taku verify --db DB TABLE、または taku verify EXPORTED.jsonl")
    if args.db:
        _, _, recs = await _load(args.db, args.source)
        lines = lines_from_records(recs)
    else:
        path = Path(args.source)
        if not path.is_file():
            raise SystemExit(
                f"taku verify: ファイル {str(path)!r} がありません（データベースの卓なら: taku verify --db DB TABLE）"
            )
        try:
            lines = lines_from_export(path.read_text(encoding="utf-8"))
        except ValueError as e:
            print(f"taku verify: {e}", file=sys.stderr)
            return 2
    report = verify_log(lines, _registry(), heads=args.head or ())
    if args.fork_source:
        await _check_fork(args, lines, report)
    c = report.counts
    # the verdict first (in Japanese, its stable form beside it), then what it rests on,
    # then what was not checked and why; each finding with its stable code (verify/…)
    what = (
        f"出来事 {c['events']} 件、ダイス {c['rolls']} 回（出目 {c['faces']} 個）、"
        f"判定し直したコマンド {c['commands']} 件、鎖のある出来事 {c['chained']}/{c['events']} 件"
        + (f"（ヘッド {report.head[:16]} まで）" if c["chained"] else "")
        + (f"、控えたヘッドに届いています: {', '.join(args.head)}" if args.head else "")
    )
    verdict = f"{report.label} [{report.verdict}]"
    if report.problems:
        print(f"{verdict}: 出来事 {c['events']} 件のうちに問題が {len(report.problems)} 件あります")
    elif report.unchecked:
        # never VERIFIED while a seq went unchecked: the 未検証 lines say which and why
        print(f"{verdict}: {what}。検証できなかったところがあります（下の「未検証」）")
    else:
        print(f"{verdict}: {what}")
    for p in report.problems:
        print(f"失敗 {p} [{p.code}]")
    for line in report.epochs:
        print(f"  {line}")
    for line in report.notes:
        print(f"  注: {line}")
    for _seq, why in report.unchecked:
        print(f"未検証 {why}")
    return report.exit_code


async def _check_fork(args: argparse.Namespace, lines: Any, report: Any) -> None:
    """``--fork-source``: the fork's prefix through its source's log (a TABLE with --db, or a .jsonl)."""
    from taku.verify import check_fork, lines_from_export, lines_from_records

    src = args.fork_source
    if args.db and not Path(src).is_file():
        _, _, recs = await _load(args.db, src)
        source = lines_from_records(recs)
    else:
        source = lines_from_export(Path(src).read_text(encoding="utf-8"))
    check_fork(lines, source, _registry(), report)
    if "fork_prefix" in report.counts:
        print(
            f"分岐した卓の最初の状態は、分岐元の seq {report.counts['fork_prefix']} の状態と一致します"
        )


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
    return _terminal_client().main_play(args)


def _new(args: argparse.Namespace) -> Any:
    return _terminal_client().main_new(args)


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
        "--web-dir",
        default=None,
        help="static files served at / (default: the web client installed with taku)",
    )
    s.add_argument(
        "--metrics",
        choices=("auto", "on", "off"),
        default="auto",
        help="Prometheus metrics at /metrics on this port (auto: when --host is loopback)",
    )
    s.add_argument(
        "--metrics-port",
        type=_port,
        default=None,
        help="serve /metrics on this port instead (on --metrics-host)",
    )
    s.add_argument("--metrics-host", default="127.0.0.1")
    s.add_argument(
        "--drain-s",
        type=float,
        default=0.0,
        help="on SIGTERM, answer /readyz 503 and keep serving this many seconds before stopping",
    )
    s.add_argument(
        "--snapshot-every",
        type=int,
        default=250,
        metavar="EVENTS",
        help="a table's state is cached every this many events (0: never); default 250",
    )
    s.add_argument(
        "--idle-unload-s",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="unload a table nobody subscribes to or uses for this long (0: never); default 600",
    )
    s.add_argument(
        "--max-idle-tables",
        type=int,
        default=500,
        metavar="TABLES",
        help="keep at most this many tables nobody subscribes to loaded, unloading the least "
        "recently used beyond it (0: no bound); default 500",
    )
    s.add_argument("--log-level", default="info")
    s.add_argument("--json-logs", action="store_true", help="JSON log lines even on a terminal")
    s.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="the event loop: uvloop where installed (auto, the default), or asyncio's own",
    )
    s.add_argument(
        "--stage-timings",
        action="store_true",
        help="time each command's stages (decide, queue, commit, wake, publish, write) "
        "into taku_command_stage_seconds at /metrics (docs/performance.md)",
    )
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

    s = sub.add_parser(
        "export", help="a table's log without secrets: readable text, JSON lines or an HTML page"
    )
    s.add_argument("--db", default=DEFAULT_DB)
    s.add_argument("table")
    s.add_argument("--format", choices=("jsonl", "text", "html"), default="text")
    s.add_argument(
        "--as",
        dest="as_member",
        default=None,
        metavar="MEMBER",
        help="the log as this member (id or name) received it (their own hidden events in full)",
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
    s.add_argument(
        "--fork-source",
        default=None,
        metavar="TABLE|FILE",
        help="for a forked table: its source's log (TABLE with --db, or a .jsonl); checks the fork's prefix",
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


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop ``taku serve --loop`` names: ``uvloop`` (an error when it is not
    installed), ``asyncio`` (None: asyncio's own), or ``auto``: uvloop where installed.

    uvloop runs the same code with its event loop and transports in C (libuv): fewer
    microseconds per frame read and written (docs/performance.md)."""
    if name == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if name == "uvloop":
            raise SystemExit("taku: --loop uvloop, but uvloop is not installed") from None
        return None
    return uvloop.new_event_loop


def _loop_name() -> str:
    loop = asyncio.get_running_loop()
    return "uvloop" if type(loop).__module__.startswith("uvloop") else "asyncio"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result = args.run(args)
        if asyncio.iscoroutine(result):
            with asyncio.Runner(loop_factory=loop_factory(getattr(args, "loop", "asyncio"))) as r:
                result = r.run(result)
    except TakuError as e:  # a store that cannot be opened, an unknown table …
        print(f"taku: {e.message} ({e.code})", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `taku export … | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
