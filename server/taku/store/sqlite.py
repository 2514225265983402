"""The embedded default store: one SQLite file, WAL, durable group commit.

Appends go to one writer thread. It takes every append waiting in its queue,
writes them in one transaction (a savepoint each, so one append's conflict does
not undo another's), commits with ``synchronous=FULL`` (one fsync for the whole
batch) and only then resolves the callers' futures. Nothing is acknowledged
before it is durable, yet under load many commands share one fsync.

Reads use their own connection in a worker thread; WAL lets them run beside the
writer.

Checkpoints (copying the WAL's pages into the database file) never run inside a
commit (issue 16). Every connection of the store has SQLite's auto-checkpoint off
(``wal_autocheckpoint=0``), so no commit pays for one; instead:

1. A checkpointer thread with its own connection wakes every
   ``CHECKPOINT_INTERVAL_S`` seconds and, if anything was committed since its last
   look (``PRAGMA data_version``), runs ``PRAGMA wal_checkpoint(PASSIVE)``. A
   passive checkpoint takes no writer lock: the writer and the readers go on while
   it copies and fsyncs.
2. A passive checkpoint alone lets the WAL grow without bound under steady load:
   the WAL starts over from its beginning only when a write transaction begins
   with every frame copied, and the writer commits frames while the checkpointer
   copies. So once a pass finds the WAL at least ``WAL_RESTART_PAGES`` pages long,
   the writer finishes the checkpoint itself, *between* two batches (after the
   batch before is answered, never inside a transaction), when its queue is
   empty: only the frames committed since the pass are left to copy, and its next
   commit starts the WAL over. If the WAL reaches ``WAL_LIMIT_PAGES`` pages (the
   queue was never empty), the writer finishes it after its next batch even with
   commands waiting: the WAL stays within about that many pages plus what is
   committed during one interval and one pass.
3. ``close()`` stops the checkpointer, then the writer runs a final
   ``wal_checkpoint(TRUNCATE)``: the database file alone holds every commit.

``journal_size_limit`` (``JOURNAL_SIZE_LIMIT_BYTES``) truncates a WAL file grown
past it when the WAL starts over.
"""

from __future__ import annotations

import asyncio
import functools
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import structlog

from taku import metrics
from taku.core.events import Recorded
from taku.errors import DuplicateCommand, SeqConflict, StoreError, TableNotFound
from taku.store.base import EventStore, Snapshot, TableRecord, TokenRecord, _armed, by_table

__all__ = ["SQLiteEventStore"]

_T = TypeVar("_T")

log = structlog.get_logger("taku.store")

SCHEMA_VERSION = 1

CHECKPOINT_INTERVAL_S = 0.5
"""Seconds between the checkpointer's looks; a look after a commit runs a passive
checkpoint (see the module docstring)."""

WAL_RESTART_PAGES = 1_000
"""WAL length in pages (4 KiB each, so about 4 MiB) from which the writer finishes
a checkpoint between two batches when its queue is empty, so that the WAL starts over."""

WAL_LIMIT_PAGES = 10_000
"""WAL length in pages (about 40 MiB) from which the writer finishes a checkpoint
after its next batch even with commands waiting."""

JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024
"""Bytes a WAL file is truncated to when the WAL starts over (``journal_size_limit``)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    seed BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    envelope BLOB NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT NOT NULL,
    command_id TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (table_id, command_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    version TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT NOT NULL,
    table_id TEXT NOT NULL,
    role TEXT NOT NULL,
    member_id TEXT,
    PRIMARY KEY (table_id, token_hash)
) WITHOUT ROWID;
"""

_APPENDED = """
CREATE TEMP VIEW IF NOT EXISTS appended AS
    SELECT e.table_id, e.seq, e.envelope, c.command_id, c.first_seq, c.last_seq
    FROM events e JOIN commands c ON 0;
CREATE TEMP TRIGGER IF NOT EXISTS appended_insert INSTEAD OF INSERT ON appended
WHEN NEW.table_id IS NOT NULL BEGIN
    INSERT INTO events VALUES (NEW.table_id, NEW.seq, NEW.envelope);
    INSERT INTO commands SELECT NEW.table_id, NEW.command_id, NEW.first_seq, NEW.last_seq
        WHERE NEW.seq = NEW.first_seq;
END;
"""
"""The writer's one-statement append (a view of the writer's connection only): each
row is an event with its command's id and seq range; the command's row is written
with its first event."""

_PLAIN_ROWS = 2048
"""Events in one plain statement at most (6 parameters each, under SQLite's 32,766)."""

_NO_ROW = (None,) * 6


def _plain_insert(rows: list[object]) -> tuple[str, list[object]]:
    """The statement and parameters for ``rows`` (6 values per event).

    Each row count is its own prepared statement in the connection's cache (about
    0.7 KB per row), so the rows are padded with empty ones (which the trigger
    skips) up to a power of two: a dozen statements at most, whatever the batches.
    """
    n = len(rows) // 6
    size = 1 << (n - 1).bit_length()
    return _plain_sql(size), rows + list(_NO_ROW * (size - n))


@functools.lru_cache(maxsize=16)
def _plain_sql(rows: int) -> str:
    return "INSERT INTO appended VALUES " + ",".join(["(?,?,?,?,?,?)"] * rows)


_encode = msgspec.json.Encoder().encode
_decode_recorded = msgspec.json.Decoder(Recorded).decode


class _Append(msgspec.Struct):
    table_id: str
    events: Sequence[Recorded]
    expected_seq: int
    done: Callable[[BaseException | None], None]
    new_table: TableRecord | None = None


def _table_of(result: tuple[_Append, BaseException | None]) -> str:
    return result[0].table_id


class _OneCursor(sqlite3.Connection):
    """A connection whose ``execute`` and ``executemany`` run on one cursor, made once.

    ``sqlite3.Connection.execute`` makes a cursor per statement and keeps a weak
    reference to each, dropping the dead ones only every 200 cursors: a few hundred
    small blocks made while tables are open, which pin the tables' freed 1 MiB arenas
    after they are unloaded (issue 18: idle memory). Each connection is used by one
    thread at a time (the writer; the readers under ``_read_lock``), and every caller
    reads its rows before the next statement.
    """

    _one: sqlite3.Cursor | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if self._one is None:
            self._one = self.cursor()
        return self._one.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        if self._one is None:
            self._one = self.cursor()
        return self._one.executemany(sql, parameters)


class SQLiteEventStore(EventStore):
    """Events in one SQLite file (created if missing).

    Args:
        path: the database file; ``":memory:"`` is refused (use MemoryEventStore).
        checkpoint_interval: seconds between the checkpointer's looks
            (``CHECKPOINT_INTERVAL_S``); must be positive.
        wal_restart_pages: WAL pages from which the writer finishes a checkpoint
            when its queue is empty (``WAL_RESTART_PAGES``).
        wal_limit_pages: WAL pages from which it finishes one even with commands
            waiting (``WAL_LIMIT_PAGES``); at least ``wal_restart_pages``.

    Raises:
        ValueError: a non-positive interval, or a limit below the restart length.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        checkpoint_interval: float = CHECKPOINT_INTERVAL_S,
        wal_restart_pages: int = WAL_RESTART_PAGES,
        wal_limit_pages: int = WAL_LIMIT_PAGES,
    ) -> None:
        super().__init__()
        if not checkpoint_interval > 0:
            raise ValueError("checkpoint_interval must be positive")
        if not 0 < wal_restart_pages <= wal_limit_pages:
            raise ValueError("need 0 < wal_restart_pages <= wal_limit_pages")
        self.path = str(path)
        self._checkpoint_interval = checkpoint_interval
        self._restart_pages = wal_restart_pages
        self._limit_pages = wal_limit_pages
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpointer = threading.Event()
        self._finish_wanted = False
        """Set by the checkpointer: the writer should finish a checkpoint between batches."""
        self.checkpoints = 0
        """Passive checkpoints run by the checkpointer thread."""
        self.writer_checkpoints = 0
        """Checkpoints the writer finished between two batches (never inside one)."""
        self.wal_pages = 0
        """The WAL's length in pages (frames) when a checkpoint last looked at it."""
        self._queue: queue.SimpleQueue[_Append | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._reader: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        """The one thread that runs reads (they take ``_read_lock`` one at a time anyway):
        started with the store, so no thread (and no C heap of its own) is made later,
        while tables are open (issue 18: idle memory)."""
        self.commits = 0
        """Transactions committed by the writer (one fsync each)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last: dict[str, int] = {}
        """The writer thread's cache of each table's last seq (it is the file's only writer)."""
        self.appends = 0

    # ------------------------------------------------------------ lifecycle

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, factory=_OneCursor
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=10000")
        # no commit on any of the store's connections checkpoints: the checkpointer
        # thread and the writer between batches do (see the module docstring)
        conn.execute("PRAGMA wal_autocheckpoint=0")
        return conn

    async def open(self) -> None:
        if self._writer is not None:
            return
        if self.path == ":memory:":
            raise StoreError("use MemoryEventStore for an in-memory store", code="store/bad_path")
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._loop = asyncio.get_running_loop()
        ready: Future[None] = Future()
        self._writer = threading.Thread(
            target=self._write_loop, args=(ready,), name="taku-sqlite-writer", daemon=True
        )
        self._writer.start()
        await asyncio.wrap_future(ready)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="taku-sqlite-reader")
        await self._loop.run_in_executor(self._pool, lambda: None)  # the thread starts now
        self._reader = self._connect()
        self._stop_checkpointer = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop,
            args=(self._connect(), self._stop_checkpointer),
            name="taku-sqlite-checkpointer",
            daemon=True,
        )
        self._checkpointer.start()

    async def close(self) -> None:
        if self._writer is None:
            return
        if self._checkpointer is not None:
            # first, so that the writer's final checkpoint has the file to itself
            self._stop_checkpointer.set()
            await asyncio.to_thread(self._checkpointer.join)
            self._checkpointer = None
        self._queue.put(None)
        await asyncio.to_thread(self._writer.join)
        self._writer = None
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    # ------------------------------------------------------------ the writer thread

    def _write_loop(self, ready: Future[None]) -> None:
        try:
            conn = self._connect()
            conn.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT_BYTES}")
            conn.executescript(_SCHEMA)
            conn.executescript(_APPENDED)
            row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(
                    f"database schema {row[0]} is newer than this taku", code="store/schema_newer"
                )
        except BaseException as e:  # noqa: BLE001 - handed to open(), which raises it
            ready.set_exception(e)
            return
        ready.set_result(None)
        stop = False
        while not stop:
            batch = [self._queue.get()]
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            appends = [b for b in batch if b is not None]
            stop = len(appends) < len(batch)  # None: close() asked the writer to stop
            if appends:
                self._write_batch(conn, appends)
            # hold nothing while waiting for the next batch: an append's callback holds
            # its table, which would outlive an unload (issue 18: idle memory)
            del batch, appends
            if self._finish_wanted and not stop:
                self._finish_checkpoint(conn)
        self._final_checkpoint(conn)
        conn.close()

    def _finish_checkpoint(self, conn: sqlite3.Connection) -> None:
        """Between two batches (the one before already handed to the event loop, no
        transaction open): copy what the checkpointer left, so the next commit starts
        the WAL over; only when no append waits, or once the WAL is at the limit."""
        if not self._queue.empty() and self.wal_pages < self._limit_pages:
            return
        try:
            busy, pages, _copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:
            self._finish_wanted = False
            log.exception("checkpoint_failed", by="writer")
            return
        if busy:  # the checkpointer is in a pass: try again after the next batch
            return
        # one try per request, finished or not (a reader's snapshot may hold frames
        # back): the checkpointer asks again after its next pass
        self._finish_wanted = False
        self.writer_checkpoints += 1
        self.wal_pages = int(pages)

    def _final_checkpoint(self, conn: sqlite3.Connection) -> None:
        """On close, the writer's last act: every commit into the database file, the
        WAL emptied (a reader still in a transaction makes it wait ``busy_timeout``)."""
        try:
            busy, pages, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error:
            log.exception("checkpoint_failed", by="close")
            return
        if busy:
            log.warning("final_checkpoint_busy", wal_pages=pages, copied=copied)

    # ------------------------------------------------------------ the checkpointer thread

    def _checkpoint_loop(self, conn: sqlite3.Connection, stop: threading.Event) -> None:
        """Every ``checkpoint_interval`` seconds that followed a commit (by any
        connection): a passive checkpoint, beside the writer and the readers; asks
        the writer to finish it once the WAL is ``wal_restart_pages`` long."""
        try:
            # its first statement now, while the store opens: the thread's C heap is made
            # before any table is open, not later (issue 18: idle memory)
            seen: object = conn.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            log.exception("checkpoint_failed", by="checkpointer")
            seen = None
        try:
            while not stop.wait(self._checkpoint_interval):
                try:
                    (version,) = conn.execute("PRAGMA data_version").fetchone()
                    if version == seen:
                        continue  # nothing committed since the last look
                    seen = version
                    busy, pages, _copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:
                    log.exception("checkpoint_failed", by="checkpointer")
                    continue
                if busy:  # the writer is finishing one; the next look sees what it left
                    continue
                self.checkpoints += 1
                self.wal_pages = int(pages)
                if pages >= self._restart_pages:
                    self._finish_wanted = True
        finally:
            conn.close()

    def _write_batch(self, conn: sqlite3.Connection, batch: list[_Append]) -> None:
        picked = time.perf_counter()
        try:
            results = self._write_plain(conn, batch)
            if results is None:
                results = self._write_checked(conn, batch)
        except (
            Exception
        ) as e:  # a bug must not end the writer thread: this batch fails, the next may not
            log.exception("write_batch_failed", appends=len(batch))
            try:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            results = [
                (item, StoreError(f"write failed: {e}", code="store/commit_failed"))
                for item in batch
            ]
        self.appends += sum(1 for _, err in results if err is None)
        # one wake-up of the event loop for the whole batch, not one per append
        assert self._loop is not None, "open() set the loop"
        try:
            self._loop.call_soon_threadsafe(self._resolve, results, picked, time.perf_counter())
        except RuntimeError:  # the loop is closed: nobody is waiting any more
            pass

    def _write_plain(
        self, conn: sqlite3.Connection, batch: list[_Append]
    ) -> list[tuple[_Append, BaseException | None]] | None:
        """The common batch in one statement: every append continues its table as the
        writer's cache says, so the batch is a single ``INSERT`` into the ``appended``
        view (its trigger fills ``events`` and ``commands``), committed on its own.

        One statement means the writer thread asks for the GIL back a few times per
        batch, not several times per append: under load the event loop holds the GIL
        and each of those waits is long. Returns None, having written nothing, when
        the batch needs :meth:`_write_checked` (a new table, a table not cached yet, a
        stale expected seq, a duplicate command id). A batch of more than
        ``_PLAIN_ROWS`` events is written ``_PLAIN_ROWS`` at a time in one transaction.
        """
        rows: list[object] = []
        pending: dict[str, int] = {}
        for item in batch:
            tid, events = item.table_id, item.events
            if item.new_table is not None or not events:
                return None
            last = pending.get(tid)
            if last is None:
                last = self._last.get(tid)
            if last is None or last != item.expected_seq:
                return None
            first_seq, last_seq, command_id = events[0].seq, events[-1].seq, events[0].command_id
            for i, e in enumerate(events):
                if e.seq != last + 1 + i or e.table_id != tid or e.command_id != command_id:
                    return None
                rows += (tid, e.seq, _encode(e), command_id, first_seq, last_seq)
            pending[tid] = last_seq
        n = len(rows) // 6
        try:
            if n <= _PLAIN_ROWS:
                conn.execute(*_plain_insert(rows))  # autocommit: the statement is the transaction
            else:
                conn.execute("BEGIN IMMEDIATE")
                step = 6 * _PLAIN_ROWS
                for at in range(0, len(rows), step):
                    conn.execute(*_plain_insert(rows[at : at + step]))
                conn.execute("COMMIT")
        except sqlite3.IntegrityError:
            # a duplicate command id: nothing of the batch is written; sort it out append by append
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return None
        except sqlite3.Error as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return [
                (item, StoreError(f"commit failed: {e}", code="store/commit_failed"))
                for item in batch
            ]
        self.commits += 1
        self._last.update(pending)
        return [(item, None) for item in batch]

    def _write_checked(
        self, conn: sqlite3.Connection, batch: list[_Append]
    ) -> list[tuple[_Append, BaseException | None]]:
        """Any batch: one transaction, a savepoint per append, so one append's error
        (conflict, duplicate, unknown table) does not undo another's."""
        results: list[tuple[_Append, BaseException | None]] = []
        pending: dict[str, int] = {}  # last seqs this transaction writes, cached once it commits
        try:
            conn.execute("BEGIN IMMEDIATE")
            for item in batch:
                conn.execute("SAVEPOINT a")
                try:
                    last = self._write_one(conn, item, pending)
                except BaseException as e:  # noqa: BLE001 - this append's answer, the batch goes on
                    conn.execute("ROLLBACK TO a")
                    results.append((item, e))
                else:
                    pending[item.table_id] = last
                    results.append((item, None))
                conn.execute("RELEASE a")
            conn.execute("COMMIT")
            self.commits += 1
            self._last.update(pending)
        except BaseException as e:  # noqa: BLE001 - the commit failed: nothing of the batch is durable
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            results = [
                (item, StoreError(f"commit failed: {e}", code="store/commit_failed"))
                for item in batch
            ]
        return results

    def _known_last(self, conn: sqlite3.Connection, tid: str, pending: dict[str, int]) -> int:
        """The table's last seq: from this transaction, the writer's cache, or the file."""
        if tid in pending:
            return pending[tid]
        if tid in self._last:
            return self._last[tid]
        if conn.execute("SELECT 1 FROM tables WHERE table_id=?", (tid,)).fetchone() is None:
            raise TableNotFound(f"no table {tid}")
        (last,) = conn.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE table_id=?", (tid,)
        ).fetchone()
        return int(last)

    def _write_one(self, conn: sqlite3.Connection, item: _Append, pending: dict[str, int]) -> int:
        """Write one append (inside a savepoint); returns the table's new last seq."""
        tid = item.table_id
        if item.new_table is not None:
            t = item.new_table
            try:
                conn.execute(
                    "INSERT INTO tables VALUES (?, ?, ?, ?, ?)",
                    (t.table_id, t.ruleset, t.name, t.created, t.seed),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"table {tid} exists", code="store/table_exists") from None
            last = 0
        else:
            last = self._known_last(conn, tid, pending)
        if not item.events:
            return last
        command_id = item.events[0].command_id
        try:
            conn.execute(
                "INSERT INTO commands VALUES (?, ?, ?, ?)",
                (tid, command_id, item.events[0].seq, item.events[-1].seq),
            )
        except sqlite3.IntegrityError:
            first, final = conn.execute(
                "SELECT first_seq, last_seq FROM commands WHERE table_id=? AND command_id=?",
                (tid, command_id),
            ).fetchone()
            raise DuplicateCommand(
                "command already appended", first_seq=first, last_seq=final
            ) from None
        if last != item.expected_seq:
            raise SeqConflict(f"expected seq {item.expected_seq}, table is at {last}")
        for i, e in enumerate(item.events):
            if e.seq != item.expected_seq + 1 + i or e.table_id != tid:
                raise StoreError("events must continue the stream", code="store/bad_seq")
        conn.executemany(
            "INSERT INTO events VALUES (?, ?, ?)", [(tid, e.seq, _encode(e)) for e in item.events]
        )
        return item.events[-1].seq

    def _resolve(
        self,
        results: list[tuple[_Append, BaseException | None]],
        picked: float = 0.0,
        committed: float = 0.0,
    ) -> None:
        """On the event loop: tell each append of a committed (or failed) batch how it went,
        in order, each table's inside :attr:`answering`. The writer took the batch up at ``picked`` and committed it at
        ``committed`` (``perf_counter``; for stage timings)."""
        metrics.commit_batch(len(results))
        stages = metrics.stages
        if stages.enabled:
            stages.batch_times(picked, committed)
        try:
            for group in by_table(results, _table_of):
                with self.answering:  # a table's publications of the batch leave together
                    for item, err in group:
                        if err is None and item.events:
                            self._published(item.table_id, item.events[-1].seq)
                        try:
                            item.done(err)
                        except Exception:  # one caller's bug must not keep the others waiting
                            log.exception("append_callback_failed", table_id=item.table_id)
        finally:
            stages.batch_done()

    def _submit(self, item: _Append) -> None:
        if self._writer is None:
            raise StoreError("the store is not open", code="store/closed")
        self._queue.put(item)

    async def _wait(
        self,
        table_id: str,
        events: Sequence[Recorded],
        expected_seq: int,
        new_table: TableRecord | None = None,
    ) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def done(err: BaseException | None) -> None:
            if future.done():  # the caller was cancelled; what was written stays written
                return
            if err is None:
                future.set_result(None)
            else:
                future.set_exception(err)

        self._submit(_Append(table_id, events, expected_seq, done, new_table=new_table))
        await future

    # ------------------------------------------------------------ reads

    async def _query(self, sql: str, args: tuple[object, ...]) -> list[tuple[object, ...]]:
        def run() -> list[tuple[object, ...]]:
            if self._reader is None:
                raise StoreError("the store is not open", code="store/closed")
            with self._read_lock:
                return self._reader.execute(sql, args).fetchall()

        return await self._in_pool(run)

    async def _in_pool(self, run: Callable[[], _T]) -> _T:
        """``run()`` on the reading thread (the store must be open)."""
        if self._pool is None:
            raise StoreError("the store is not open", code="store/closed")
        return await asyncio.get_running_loop().run_in_executor(self._pool, run)

    # ------------------------------------------------------------ the contract

    async def create_table(
        self, table: TableRecord, events: Sequence[Recorded], command_id: str
    ) -> None:
        await self._wait(table.table_id, events, 0, new_table=table)

    async def get_table(self, table_id: str) -> TableRecord | None:
        rows = await self._query(
            "SELECT table_id, ruleset, name, created, seed FROM tables WHERE table_id=?",
            (table_id,),
        )
        if not rows:
            return None
        return _table_record(rows[0])

    async def list_tables(self) -> list[TableRecord]:
        rows = await self._query(
            "SELECT table_id, ruleset, name, created, seed FROM tables ORDER BY created, table_id",
            (),
        )
        return [_table_record(row) for row in rows]

    async def timer_tables(self) -> list[str]:
        """One pass over the events (their envelopes hold the type as ``"type":"timer_…"``;
        a chat line's quotes are escaped, so only a timer event's envelope matches)."""
        rows = await self._query(
            "SELECT table_id, seq, envelope FROM events WHERE instr(envelope, ?) > 0"
            " ORDER BY table_id, seq",
            (b'"type":"timer_',),
        )
        types: dict[str, list[str]] = {}
        for tid, _seq, envelope in rows:
            rec = _decode_recorded(envelope)  # type: ignore[arg-type]
            types.setdefault(str(tid), []).append(rec.type)
        return [tid for tid, ts in types.items() if _armed(ts)]

    async def add_token(self, token: TokenRecord) -> None:
        def run() -> None:
            with self._read_lock:
                assert self._reader is not None
                self._reader.execute(
                    "INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?)",
                    (token.token_hash, token.table_id, token.role, token.member_id),
                )

        await self._in_pool(run)

    async def find_token(self, table_id: str, token_hash: str) -> TokenRecord | None:
        rows = await self._query(
            "SELECT token_hash, table_id, role, member_id FROM tokens WHERE table_id=? AND token_hash=?",
            (table_id, token_hash),
        )
        if not rows:
            return None
        h, t, r, m = rows[0]
        return TokenRecord(token_hash=h, table_id=t, role=r, member_id=m)  # type: ignore[arg-type]

    async def append(self, table_id: str, events: Sequence[Recorded], *, expected_seq: int) -> None:
        await self._wait(table_id, events, expected_seq)

    def append_nowait(
        self,
        table_id: str,
        events: Sequence[Recorded],
        *,
        expected_seq: int,
        done: Callable[[BaseException | None], None],
    ) -> None:
        self._submit(_Append(table_id, events, expected_seq, done))

    async def read(
        self, table_id: str, *, after_seq: int = 0, to_seq: int | None = None
    ) -> list[Recorded]:
        if to_seq is None:
            rows = await self._query(
                "SELECT envelope FROM events WHERE table_id=? AND seq>? ORDER BY seq",
                (table_id, after_seq),
            )
        else:
            rows = await self._query(
                "SELECT envelope FROM events WHERE table_id=? AND seq>? AND seq<=? ORDER BY seq",
                (table_id, after_seq, to_seq),
            )
        return [_decode_recorded(r[0]) for r in rows]  # type: ignore[arg-type]

    async def last_seq(self, table_id: str) -> int:
        rows = await self._query(
            "SELECT coalesce(max(seq), 0) FROM events WHERE table_id=?", (table_id,)
        )
        return int(rows[0][0])  # type: ignore[call-overload]

    async def find_command(self, table_id: str, command_id: str) -> tuple[int, int] | None:
        rows = await self._query(
            "SELECT first_seq, last_seq FROM commands WHERE table_id=? AND command_id=?",
            (table_id, command_id),
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None  # type: ignore[call-overload]

    def forget(self, table_id: str) -> None:
        # the writer reads the table's last seq from the file again when it next appends
        self._last.pop(table_id, None)

    # ------------------------------------------------------------ snapshots (a cache)

    async def _change(self, sql: str, args: tuple[object, ...]) -> int:
        """One write on the reading connection (beside the writer: WAL and the busy
        timeout order them); returns the rows changed."""

        def run() -> int:
            with self._read_lock:
                if self._reader is None:
                    raise StoreError("the store is not open", code="store/closed")
                return self._reader.execute(sql, args).rowcount

        return await self._in_pool(run)

    async def put_snapshot(self, snapshot: Snapshot) -> None:
        await self._change(
            "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)",
            (snapshot.table_id, snapshot.seq, snapshot.version, snapshot.data),
        )

    async def get_snapshot(self, table_id: str, *, at_most: int | None = None) -> Snapshot | None:
        rows = await self._query(
            "SELECT seq, version, data FROM snapshots WHERE table_id=? AND seq<=? "
            "ORDER BY seq DESC LIMIT 1",
            (table_id, at_most if at_most is not None else 2**62),
        )
        if not rows:
            return None
        seq, version, data = rows[0]
        return Snapshot(table_id=table_id, seq=int(seq), version=str(version), data=bytes(data))  # type: ignore[call-overload]

    async def delete_snapshots(self, table_id: str | None = None) -> int:
        if table_id is None:
            return await self._change("DELETE FROM snapshots", ())
        return await self._change("DELETE FROM snapshots WHERE table_id=?", (table_id,))


def _table_record(row: tuple[object, ...]) -> TableRecord:
    """A ``tables`` row (table_id, ruleset, name, created, seed) as a TableRecord."""
    tid, ruleset, name, created, seed = row
    assert isinstance(seed, bytes | memoryview), "seed is a BLOB"
    return TableRecord(
        table_id=str(tid),
        ruleset=str(ruleset),
        name=str(name),
        created=str(created),
        seed=bytes(seed),
    )
