"""The shared store: PostgreSQL through asyncpg, for several taku nodes on one database.

``taku serve --db postgresql://user@host:5432/db`` opens it. Every node keeps
its own folded copy of the tables it serves; the database is the one
authority:

- **Appends** are one statement each (one round trip, its own transaction,
  prepared once per connection; a command of one event uses its plain-values
  form, a batch or a longer command its array form): the command's events
  and its ``commands`` row are inserted together, under the unique keys ``(table_id, seq)`` and
  ``(table_id, command_id)``, after checks in the same statement (table
  known, at the expected seq, id not written before). Two nodes racing for
  one seq: the database lets exactly one commit; the other gets
  :class:`~taku.errors.SeqConflict` (the application service folds the
  winner's events and decides again). A command id seen before maps to
  :class:`~taku.errors.DuplicateCommand`.
- **Group commit**: the appends waiting at the same moment, across a node's
  tables (one per table, in order), share one such statement, so one round
  trip and one fsync; a command refused by its checks fails alone, and when
  another node's write collides with one of them (a unique violation fails
  the whole statement) each is tried again alone (``max_batch``,
  ``max_flushes``). One batch is in flight at a time (by default); the
  appends made while it runs, and those of the writers its outcome wakes,
  go out together in the next. Every check is a look-up by key (``LATERAL
  … LIMIT 1``): the plan each session makes once never scans ``commands``
  or ``tables``, however large they grow.
- **Turns**: :meth:`PostgresEventStore.exclusive` makes the writers of one
  table take turns across nodes (a transaction advisory lock held from
  catch-up to the append's commit; PostgreSQL queues the waiters in order),
  so a busy node cannot win every race and starve another. It is fairness
  only: the unique keys keep the stream right without it, and a turn not
  granted within ``lock_timeout_s`` is skipped. A node that dies or goes
  silent loses its turn with its transaction (``idle_timeout_s``).
- **A lost database**: every operation has ``timeout_s``; past it, or when the
  server cannot be reached, the answer is ``store/unavailable`` (at once while
  :attr:`PostgresEventStore.reachable` is false); lock and statement timeouts
  are ``store/retry``. The sessions carry TCP keepalives and
  ``tcp_user_timeout`` so that the server drops a vanished node in seconds.
- **Notifications**: a batch's statement also runs
  ``pg_notify(channel, '<table_id> <last_seq>')`` for each table it writes,
  delivered to every node only once it commits; a turn's append notifies
  right after its commit (see :meth:`PostgresEventStore._notify_later`). A
  node holds one listening connection per store and hands each notification
  to :meth:`EventStore._published`; :meth:`EventStore.subscribe` then reads
  the range from the database, so a notification carries no event and a lost
  one loses nothing.
- **Missed notifications**: when the listening connection drops (a database
  restart, a network cut) the node reconnects with back-off, LISTENs again
  and only then reads every followed table's last seq (``_resync``); anything
  appended while it was deaf is read as a range, never skipped. The same
  resync also runs every ``resync_interval_s`` as a safety net.
- **Schema**: created or upgraded on :meth:`open`, idempotently, under a
  transaction-scoped advisory lock so that several nodes starting at once
  do not trip over each other. ``schema_version`` records each migration
  (2: the ``events`` → ``tables`` foreign key dropped; the append statement
  checks that the table exists, and a table is never deleted).
  A database whose schema is newer than this taku is refused
  (``store/schema_newer``).

The URL may carry ``?schema=NAME`` (taku's own parameter, removed before the
URL goes to asyncpg) to keep the tables in a schema other than ``public``;
the tests give each run its own schema that way; and the settings of
:data:`URL_OPTIONS` (``?timeout_s=3&lock_timeout_s=2&idle_timeout_s=2&keepalive_s=5``).
Other query parameters go to asyncpg unchanged.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import os
import re
import urllib.parse
import zlib
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import msgspec
import structlog

from taku.core.events import Recorded
from taku.errors import DuplicateCommand, SeqConflict, StoreError, TableNotFound
from taku.store.base import TIMER_TYPES, EventStore, Snapshot, TableRecord, TokenRecord

__all__ = [
    "SCHEMA_VERSION",
    "URL_OPTIONS",
    "PostgresEventStore",
    "drop_schema",
    "split_url",
    "url_options",
    "with_schema",
]

log = structlog.get_logger("taku.store.postgres")

SCHEMA_VERSION = 2
"""The schema this taku writes. Each step of :data:`_MIGRATIONS` raises it by one."""

_LOCK_CLASS = 0x7A6B
"""Advisory lock namespace of the schema migration; the key is ``hashtext(schema)``."""
_TABLE_LOCK_CLASS = 0x7A6C
"""Advisory lock namespace of :meth:`PostgresEventStore.exclusive`; the key is the CRC-32 of
``schema/table`` (as an int4)."""

_MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE {s}.tables (
            table_id text PRIMARY KEY,
            ruleset text NOT NULL,
            name text NOT NULL,
            created text NOT NULL,
            seed bytea NOT NULL
        );
        CREATE TABLE {s}.events (
            table_id text NOT NULL REFERENCES {s}.tables (table_id),
            seq bigint NOT NULL CHECK (seq > 0),
            command_id text NOT NULL,
            type text NOT NULL,
            envelope json NOT NULL,
            CONSTRAINT events_table_seq_key PRIMARY KEY (table_id, seq)
        );
        CREATE TABLE {s}.commands (
            table_id text NOT NULL,
            command_id text NOT NULL,
            first_seq bigint NOT NULL,
            last_seq bigint NOT NULL,
            CONSTRAINT commands_table_command_key PRIMARY KEY (table_id, command_id)
        );
        CREATE TABLE {s}.tokens (
            table_id text NOT NULL,
            token_hash text NOT NULL,
            role text NOT NULL,
            member_id text,
            PRIMARY KEY (table_id, token_hash)
        );
        """,
    ),
    (
        # the foreign key from events to tables: its check locked the table's row (FOR KEY
        # SHARE, a WAL record and a dirtied page) on every append, for nothing the append
        # statement does not check itself (the table exists) on a table that is never deleted;
        # it halved the single-row rate (docs/scaling.md)
        2,
        "ALTER TABLE {s}.events DROP CONSTRAINT IF EXISTS events_table_id_fkey",
    ),
)

_SNAPSHOTS = """
CREATE TABLE IF NOT EXISTS {s}.snapshots (
    table_id text NOT NULL,
    seq bigint NOT NULL,
    version text NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (table_id, seq)
)
"""
"""Each table's cached folded states (:class:`~taku.store.base.Snapshot`)."""

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,47}")

_encode = msgspec.json.Encoder().encode
_decode_recorded = msgspec.json.Decoder(Recorded).decode

_UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
)
"""Errors that mean "the database cannot be reached now", not "the request is wrong"."""

_RETRY: tuple[type[BaseException], ...] = (
    asyncpg.LockNotAvailableError,  # lock_timeout
    asyncpg.QueryCanceledError,  # statement_timeout
    asyncpg.TransactionRollbackError,  # a deadlock, a serialization failure
)
"""Errors after which nothing was written and the same command may be sent again at once."""

_EVENT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("seq", "bigint"),
    ("type", "text"),
    ("envelope", "text"),
)
"""The ``events`` columns an append writes besides ``table_id`` and ``command_id``, with their
types; :func:`_event_values` builds each event's values in this order."""


def split_url(url: str) -> tuple[str, str]:
    """``(dsn for asyncpg, schema)`` from a ``--db`` URL with an optional ``?schema=``.

    taku's own parameters (``schema`` and those of :data:`URL_OPTIONS`) are
    removed from the dsn; every other one goes to asyncpg.

    Raises:
        StoreError: ``store/bad_url`` for a schema name that is not a plain identifier.
    """
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    schema = "public"
    rest = []
    for k, v in query:
        if k == "schema":
            schema = v
        elif k not in URL_OPTIONS:
            rest.append((k, v))
    if not _SCHEMA_NAME.fullmatch(schema):
        raise StoreError(
            f"schema {schema!r}: use lower-case letters, digits and _ (at most 48)",
            code="store/bad_url",
        )
    dsn = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(rest)))
    return dsn, schema


URL_OPTIONS = ("timeout_s", "lock_timeout_s", "idle_timeout_s", "keepalive_s")
"""The :class:`PostgresEventStore` settings a ``--db`` URL may carry (``?timeout_s=2``), in seconds."""


def url_options(url: str) -> dict[str, float]:
    """The :data:`URL_OPTIONS` given in ``url``, as floats.

    Raises:
        StoreError: ``store/bad_url`` for a value that is not a positive number.
    """
    out: dict[str, float] = {}
    for k, v in urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query):
        if k in URL_OPTIONS:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = -1.0
            if not 0 < out[k] < 86400:
                raise StoreError(f"{k}={v!r}: give seconds, e.g. {k}=2", code="store/bad_url")
    return out


def with_schema(url: str, schema: str) -> str:
    """``url`` with ``?schema=`` set (replacing one it had)."""
    parts = urllib.parse.urlsplit(url)
    query = [
        (k, v)
        for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
        if k != "schema"
    ]
    query.append(("schema", schema))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


async def drop_schema(url: str) -> None:
    """Drop the schema named by ``url`` with everything in it (test clean-up; never ``public``)."""
    dsn, schema = split_url(url)
    if schema == "public":
        raise StoreError("refusing to drop the public schema", code="store/bad_url")
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


class _Pending:
    """One append waiting for its batch (:meth:`PostgresEventStore._grouped`)."""

    __slots__ = ("events", "expected_seq", "future", "table_id")

    def __init__(self, table_id: str, events: Sequence[Recorded], expected_seq: int) -> None:
        self.table_id = table_id
        self.events = events
        self.expected_seq = expected_seq
        self.future: asyncio.Future[tuple[Any, ...]] | None = None


def _settle(p: _Pending, outcome: tuple[Any, ...] | BaseException) -> None:
    if p.future is None or p.future.done():
        return
    if isinstance(outcome, BaseException):
        p.future.set_exception(outcome)
    else:
        p.future.set_result(outcome)


class _Turn:
    """A table's turn inside :meth:`PostgresEventStore.exclusive`: the connection whose open
    transaction holds the table's advisory lock (``active`` until that transaction ends)."""

    __slots__ = ("active", "conn", "table_id")

    def __init__(self, table_id: str, conn: asyncpg.Connection) -> None:
        self.table_id = table_id
        self.conn = conn
        self.active = True


class PostgresEventStore(EventStore):
    """Events in PostgreSQL, shared by every node that opens the same database and schema.

    Every setting in seconds may also come from the URL (``?timeout_s=2&lock_timeout_s=1``,
    :data:`URL_OPTIONS`); an argument given here wins over the URL.

    Args:
        url: ``postgresql://user[:password]@host[:port]/database[?schema=NAME]``.
        pool_size: the most connections this node holds for appends and reads
            (plus one for LISTEN).
        resync_interval_s: how often the listener re-reads the last seq of the
            tables this node follows, besides after every reconnect.
        reconnect_min_s: the first wait before the listener connects again
            after losing its connection; it doubles on each failure, up to
            ``reconnect_max_s``.
        timeout_s: the longest a store operation (a connection, a statement, a
            commit) may take (default 3 s); past it the operation fails with
            ``store/unavailable``, its connection is dropped, and the store answers
            ``store/unavailable`` at once (:attr:`reachable` false) until the listener
            reaches the database again. It also bounds connecting.
        lock_timeout_s: the longest wait for a lock (PostgreSQL ``lock_timeout``,
            default 2 s): for a table's turn in :meth:`exclusive` (after which the
            writer goes on optimistically) and for a row another writer is inserting
            (then ``store/retry``).
        idle_timeout_s: PostgreSQL's ``idle_in_transaction_session_timeout`` (default
            2 s): a node that goes silent inside a transaction (holding a table's
            turn) loses that session, and the turn, after this long.
        keepalive_s: TCP keepalive idle time of the server's side of each session
            (``tcp_keepalives_idle``, then probes every second, three of them) and,
            times 1000, its ``tcp_user_timeout`` in ms (default 5 s): a peer that
            vanished is dropped in seconds, not the two hours of the defaults.
        ping_s: how often the listener checks that its connection answers (so that
            :attr:`reachable` turns false within ``ping_s + timeout_s`` of a cut).
    """

    shared = True

    def __init__(
        self,
        url: str,
        *,
        pool_size: int = 10,
        resync_interval_s: float = 5.0,
        reconnect_min_s: float = 0.05,
        reconnect_max_s: float = 0.5,
        timeout_s: float | None = None,
        lock_timeout_s: float | None = None,
        idle_timeout_s: float | None = None,
        keepalive_s: float | None = None,
        ping_s: float = 1.0,
    ) -> None:
        super().__init__()
        self.url = url
        self._dsn, self.schema = split_url(url)
        opts = url_options(url)
        self.channel = "taku_events" if self.schema == "public" else f"taku_events_{self.schema}"
        """The NOTIFY channel: one per schema, so two deployments on one database stay apart."""
        self.pool_size = pool_size
        self.resync_interval_s = resync_interval_s
        self.reconnect_min_s = reconnect_min_s
        self.reconnect_max_s = reconnect_max_s
        self.timeout_s = timeout_s or opts.get("timeout_s", 3.0)
        self.lock_timeout_s = lock_timeout_s or opts.get("lock_timeout_s", 2.0)
        self.idle_timeout_s = idle_timeout_s or opts.get("idle_timeout_s", 2.0)
        self.keepalive_s = keepalive_s or opts.get("keepalive_s", 5.0)
        self.ping_s = ping_s
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        """Set while the LISTEN connection is up (and its resync done); tests wait on it."""
        self.reconnects = 0
        """How many times the listener had to connect again after losing its connection."""
        self._cut = False
        """An operation found the database unreachable; cleared when the listener reaches it."""
        self._listen_conn: asyncpg.Connection | None = None
        self._held: contextvars.ContextVar[_Turn | None] = contextvars.ContextVar(
            f"taku_pg_held_{id(self)}", default=None
        )
        """The turn of the :meth:`exclusive` block this task is in."""
        s = f'"{self.schema}"'
        self._s = s
        ev_cols = ", ".join(c for c, _t in _EVENT_COLUMNS)
        ev_arrays = ", ".join(f"${i + 6}::{t}[]" for i, (_c, t) in enumerate(_EVENT_COLUMNS))
        ev_values = ", ".join(
            f"u.{c}::json" if c == "envelope" else f"u.{c}" for c, _t in _EVENT_COLUMNS
        )
        # every append is this one statement (one round trip, all or nothing), for one command
        # or a batch of commands of different tables: each command is checked (table known, at
        # its expected seq, its id not written before) and only those that pass are written.
        # $1…$4 one entry per command: table, command id, expected seq, last seq;
        # $5 one entry per event: its table, then $6… one array per event column; then the
        # channel to NOTIFY on for each command written (NULL: none, the caller notifies later)
        notify = len(_EVENT_COLUMNS) + 6
        self._sql_append = f"""
            WITH c AS (
                SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
                    WITH ORDINALITY AS c(table_id, command_id, expected, last_seq, ord)
            ), chk AS (
                SELECT c.*, (m.cur IS NOT NULL OR k.known IS NOT NULL) AS known, coalesce(m.cur, 0) AS cur,
                       d.first_seq AS dup_first, d.last_seq AS dup_last
                FROM c
                LEFT JOIN LATERAL (
                    SELECT e.seq AS cur FROM {s}.events AS e
                    WHERE e.table_id = c.table_id ORDER BY e.seq DESC LIMIT 1
                ) AS m ON true
                LEFT JOIN LATERAL (  -- a table with events exists: look only when it has none
                    SELECT true AS known FROM {s}.tables AS t
                    WHERE m.cur IS NULL AND t.table_id = c.table_id LIMIT 1
                ) AS k ON true
                LEFT JOIN LATERAL (
                    SELECT d.first_seq, d.last_seq FROM {s}.commands AS d
                    WHERE d.table_id = c.table_id AND d.command_id = c.command_id LIMIT 1
                ) AS d ON true
            ), ok AS (
                SELECT * FROM chk WHERE known AND cur = expected AND dup_first IS NULL
            ), ev AS (
                INSERT INTO {s}.events (table_id, command_id, {ev_cols})
                SELECT u.table_id, ok.command_id, {ev_values}
                FROM unnest($5::text[], {ev_arrays}) AS u(table_id, {ev_cols})
                JOIN ok ON ok.table_id = u.table_id
            ), cmd AS (
                INSERT INTO {s}.commands (table_id, command_id, first_seq, last_seq)
                SELECT table_id, command_id, expected + 1, last_seq FROM ok
            )
            SELECT known, cur, dup_first, dup_last, (known AND cur = expected AND dup_first IS NULL),
                   (SELECT count(pg_notify(${notify}::text, ok.table_id || ' ' || ok.last_seq::text))
                    FROM ok WHERE ${notify}::text IS NOT NULL)
            FROM chk ORDER BY ord
        """
        # the same statement for the commonest append, one command of one event, with plain
        # values instead of arrays (no unnest, no join, no sort: a quarter less of the server's
        # and the client's time): $1 table, $2 command id, $3 expected seq, then the event's
        # columns ($4 its seq…), then the channel
        sc = {c: f"${i + 4}" for i, (c, _t) in enumerate(_EVENT_COLUMNS)}
        sc_values = ", ".join(
            f"{sc[c]}::json" if c == "envelope" else f"{sc[c]}::{t}" for c, t in _EVENT_COLUMNS
        )
        sc_notify = len(_EVENT_COLUMNS) + 4
        self._sql_append_one = f"""
            WITH chk AS (
                SELECT (m.cur IS NOT NULL OR k.known IS NOT NULL) AS known,
                       coalesce(m.cur, 0) AS cur, d.first_seq AS dup_first, d.last_seq AS dup_last
                FROM (SELECT 1) AS one
                LEFT JOIN LATERAL (
                    SELECT e.seq AS cur FROM {s}.events AS e
                    WHERE e.table_id = $1::text ORDER BY e.seq DESC LIMIT 1
                ) AS m ON true
                LEFT JOIN LATERAL (
                    SELECT true AS known FROM {s}.tables AS t
                    WHERE m.cur IS NULL AND t.table_id = $1::text LIMIT 1
                ) AS k ON true
                LEFT JOIN LATERAL (
                    SELECT d.first_seq, d.last_seq FROM {s}.commands AS d
                    WHERE d.table_id = $1::text AND d.command_id = $2::text LIMIT 1
                ) AS d ON true
            ), ok AS (
                SELECT 1 FROM chk WHERE known AND cur = $3::bigint AND dup_first IS NULL
            ), ev AS (
                INSERT INTO {s}.events (table_id, command_id, {ev_cols})
                SELECT $1::text, $2::text, {sc_values} FROM ok
            ), cmd AS (
                INSERT INTO {s}.commands (table_id, command_id, first_seq, last_seq)
                SELECT $1::text, $2::text, {sc["seq"]}::bigint, {sc["seq"]}::bigint FROM ok
            )
            SELECT known, cur, dup_first, dup_last, (known AND cur = $3::bigint AND dup_first IS NULL),
                   (SELECT count(pg_notify(${sc_notify}::text, $1::text || ' ' || {sc["seq"]}::text))
                    FROM ok WHERE ${sc_notify}::text IS NOT NULL)
            FROM chk
        """
        self._sql_notify = "SELECT pg_notify($1, u.t || ' ' || u.s::text) FROM unnest($2::text[], $3::bigint[]) AS u(t, s)"
        self.max_batch = 256
        """The most commands one append statement carries (each of another table)."""
        self.max_flushes = 1
        """How many batches may be in flight at once (each on its own connection). One, by
        default: the appends that come while it runs all wait for the next, which then
        shares one statement and one fsync among them (two in flight halved the batches and
        doubled the fsyncs: 0.41 against 0.48 of the yardstick with 8 tables, docs/scaling.md)."""
        self._waiting: collections.deque[_Pending] = collections.deque()
        self._flushing: set[str] = set()  # tables with an append in flight
        self._flushes = 0
        self._kick_due = False  # a _kick is scheduled (_kick_soon)
        self._writers: list[asyncpg.Connection] = []  # idle writer connections (_on_writer)
        self._notes: dict[str, int] = {}
        self._notifier: asyncio.Task[None] | None = None
        self.batches = 0
        """How many append statements were run (group commit: fewer than the appends)."""

    def _session(self, role: str = "") -> dict[str, str]:
        """Each session's settings: its name, durability, and how soon a silent peer is dropped."""
        return {
            **self._settings(role),
            "lock_timeout": f"{int(self.lock_timeout_s * 1000)}ms",
            "idle_in_transaction_session_timeout": f"{int(self.idle_timeout_s * 1000)}ms",
            "tcp_keepalives_idle": str(max(1, int(self.keepalive_s))),
            "tcp_keepalives_interval": "1",
            "tcp_keepalives_count": "3",
            "tcp_user_timeout": str(int(self.keepalive_s * 1000)),
            # every statement is a lookup by key: plan it once per connection, not each time
            "plan_cache_mode": "force_generic_plan",
            # the contract: an append that returned survives a crash, whatever the server's default
            "synchronous_commit": "on",
        }

    @property
    def reachable(self) -> bool:
        """True while this node can reach its database (what ``/readyz`` reports).

        False from the moment an operation fails to reach it or the listener's
        check goes unanswered (within ``ping_s + timeout_s``), until the listener
        is connected again.
        """
        return self._pool is not None and self.listening.is_set() and not self._cut

    # ------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        """Connect, create or upgrade the schema (idempotent, safe with concurrent nodes), start listening.

        Raises:
            StoreError: ``store/schema_newer`` when the database was written by a newer taku;
                ``store/unavailable`` when the server cannot be reached; ``store/open_failed``
                when it refuses (credentials, no such database, no right to create the schema).
        """
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self._dsn,
                min_size=1,
                max_size=self.pool_size,
                reset=_reset,
                timeout=self.timeout_s,
                server_settings=self._session(),
            )
        except _UNAVAILABLE as e:
            raise StoreError(f"cannot reach PostgreSQL: {e}", code="store/unavailable") from e
        except asyncpg.PostgresError as e:  # a wrong password, no such database …
            raise StoreError(f"cannot open PostgreSQL: {e}", code="store/open_failed") from e
        try:
            async with pool.acquire() as conn:
                await self._migrate(conn)
        except BaseException as e:
            await pool.close()
            if isinstance(e, asyncpg.PostgresError):  # e.g. no right to create the schema
                raise StoreError(
                    f"cannot set up the taku schema: {e}", code="store/open_failed"
                ) from e
            raise
        self._pool = pool
        self._cut = False
        self.listening.clear()
        self._listener = asyncio.create_task(
            self._listen_loop(), name=f"taku-pg-listen-{self.schema}"
        )
        # the first LISTEN is in place before open() returns, so nothing appended later is missed
        waiter = asyncio.ensure_future(self.listening.wait())
        await asyncio.wait({waiter, self._listener}, return_when=asyncio.FIRST_COMPLETED)
        if not waiter.done():
            waiter.cancel()

    def _settings(self, role: str) -> dict[str, str]:
        """``application_name`` ``taku/<pid>[/listen]``, so that ``pg_stat_activity`` shows each node."""
        if "application_name" in self._dsn:
            return {}
        return {"application_name": f"taku/{os.getpid()}{role}"}

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        s = self._s
        async with conn.transaction():
            # one node at a time; the others wait here and then find the work done
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))", _LOCK_CLASS, self.schema
            )
            if not await conn.fetchval(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", self.schema
            ):
                await conn.execute(
                    f"CREATE SCHEMA {s}"
                )  # needs CREATE on the database; an existing one does not
            await conn.execute(
                f"""CREATE TABLE IF NOT EXISTS {s}.schema_version (
                    version integer PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )"""
            )
            current = await conn.fetchval(
                f"SELECT coalesce(max(version), 0) FROM {s}.schema_version"
            )
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"the database schema is version {current}, newer than this taku ({SCHEMA_VERSION})",
                    code="store/schema_newer",
                )
            for version, ddl in _MIGRATIONS:
                if version > current:
                    await conn.execute(ddl.format(s=s))
                    await conn.execute(
                        f"INSERT INTO {s}.schema_version (version) VALUES ($1)", version
                    )
                    log.info("schema_upgraded", schema=self.schema, version=version)
            # snapshots are a cache beside the streams, not a schema step: made when missing
            await conn.execute(_SNAPSHOTS.format(s=s))
            # the timer events, for timer_tables at start (a hint beside the streams, like snapshots)
            await conn.execute(
                f"CREATE INDEX IF NOT EXISTS events_timers ON {s}.events (table_id)"
                " WHERE type IN ('timer_set', 'timer_expired', 'timer_cancelled')"
            )

    async def schema_version(self) -> int:
        """The highest migration recorded in ``schema_version``."""
        async with self._conn() as conn:
            return int(await conn.fetchval(f"SELECT max(version) FROM {self._s}.schema_version"))

    async def close(self) -> None:
        """Finish the appends and notifications in flight (within ``timeout_s``), stop
        listening and close every connection. The store may be opened again."""
        busy = [t for t in (*self._running, self._notifier) if t is not None and not t.done()]
        if busy:
            await asyncio.wait(busy, timeout=self.timeout_s)
        while self._writers:
            await self._release(self._writers.pop())
        if self._listener is not None:
            self._listener.cancel()
            try:
                await self._listener
            except asyncio.CancelledError:  # the loop retries every failure: it ends cancelled
                pass
            self._listener = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), 5)
            except TimeoutError:
                pool.terminate()

    async def _acquire(self) -> asyncpg.Connection:
        """A pooled connection within ``timeout_s``; ``store/unavailable`` at once while
        the database is known to be unreachable."""
        if self._pool is None:
            raise StoreError("the store is not open", code="store/closed")
        if self._cut:
            raise _unavailable(None)
        try:
            return await self._pool.acquire(timeout=self.timeout_s)
        except (*_UNAVAILABLE, asyncpg.PostgresError) as e:
            self._cut = True
            raise _unavailable(e) from e

    async def _release(self, conn: asyncpg.Connection) -> None:
        if self._pool is None:
            _drop(conn)
            return
        try:
            await self._pool.release(conn, timeout=self.timeout_s)
        except Exception:  # noqa: BLE001 - a connection that cannot be reset is dropped
            _drop(conn)

    @asynccontextmanager
    async def _guard(self, conn: asyncpg.Connection) -> AsyncIterator[None]:
        """One operation on ``conn``: at most ``timeout_s``, its failures as taku's codes.

        Raises:
            StoreError: ``store/unavailable`` when the database cannot be reached or the
                operation overran ``timeout_s`` (the connection is dropped: its state is
                unknown); ``store/retry`` for a lock or statement timeout, a deadlock or a
                serialization failure (nothing was written).
        """
        try:
            async with asyncio.timeout(self.timeout_s):
                yield
        except _RETRY as e:
            raise StoreError(
                f"PostgreSQL gave up waiting ({type(e).__name__}); nothing was written",
                code="store/retry",
            ) from e
        except _UNAVAILABLE as e:
            if isinstance(e, TimeoutError):
                _drop(conn)  # mid-statement: never reuse it
            self._cut = True
            raise _unavailable(e) from e
        except asyncpg.InternalClientError as e:
            # a pooled connection the server ended while it lay idle (a restart) and the
            # driver has not closed yet: never reuse it; the next one is fresh
            _drop(conn)
            raise _unavailable(e) from e

    @asynccontextmanager
    async def _conn(self, table_id: str | None = None) -> AsyncIterator[asyncpg.Connection]:
        """A connection for one operation (:meth:`_guard`): pooled, or inside
        :meth:`exclusive` of ``table_id`` the turn's own."""
        turn = self._held.get()
        if turn is not None and turn.table_id == table_id and not turn.conn.is_closed():
            async with self._guard(turn.conn):
                yield turn.conn
            return
        conn = await self._acquire()
        try:
            async with self._guard(conn):
                yield conn
        finally:
            await self._release(conn)

    @asynccontextmanager
    async def exclusive(self, table_id: str) -> AsyncIterator[None]:
        """Writers of ``table_id`` on every node take turns (a transaction advisory lock, FIFO).

        The turn is a transaction on one connection holding
        ``pg_advisory_xact_lock``; the block's reads and its append of that table run
        on it, and the append's commit ends the turn (the lock goes with the
        transaction). A block that ends without appending rolls back. A node that
        dies or goes silent cannot keep the turn: its session ends with its
        connection, or after ``idle_timeout_s`` idle in the transaction. A turn not
        granted within ``lock_timeout_s`` is skipped (optimistic writes; the unique
        keys keep the stream right).

        Raises:
            StoreError: ``store/unavailable`` when the database cannot be reached.
        """
        if self._held.get() is not None:  # nested: the outer block already holds a lock
            yield
            return
        key = zlib.crc32(f"{self.schema}/{table_id}".encode()) - 2**31  # an int4, stable
        conn = await self._acquire()
        try:
            granted = True
            async with self._guard(conn):
                try:
                    # one round trip: the transaction and its lock
                    await conn.execute(
                        f"BEGIN; SELECT pg_advisory_xact_lock({_TABLE_LOCK_CLASS}, {key})"
                    )
                except asyncpg.LockNotAvailableError:
                    granted = False
                    await conn.execute("ROLLBACK")  # a stuck holder (lock_timeout): no turns
        except BaseException:
            await self._release(conn)
            raise
        if not granted:
            await self._release(conn)
            # optimistic concurrency alone (SeqConflict) still keeps the stream right
            log.warning("table_turn_timeout", table_id=table_id, lock_timeout_s=self.lock_timeout_s)
            yield
            return
        turn = _Turn(table_id, conn)
        token = self._held.set(turn)
        try:
            yield
        finally:
            self._held.reset(token)
            try:
                if turn.active and not conn.is_closed():
                    async with asyncio.timeout(self.timeout_s):
                        await conn.execute("ROLLBACK")  # nothing appended: end the turn
            except BaseException as e:
                _drop(conn)  # the server drops the lock with the session
                if not isinstance(e, Exception):
                    raise
            finally:
                await self._release(conn)

    # ------------------------------------------------------------ LISTEN / NOTIFY

    async def _listen_loop(self) -> None:
        """Keep one connection LISTENing; after each (re)connect, resync what was missed.

        Every ``ping_s`` the connection must answer within ``timeout_s``, or it is
        dropped and made again: a silent database shows in seconds.
        """
        delay = self.reconnect_min_s
        first = True
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(
                    self._dsn, timeout=self.timeout_s, server_settings=self._session("/listen")
                )
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                async with asyncio.timeout(self.timeout_s):
                    await conn.add_listener(self.channel, self._on_notify)
                self._listen_conn = conn
                if not first:
                    self.reconnects += 1
                    log.info("listener_reconnected", schema=self.schema, reconnects=self.reconnects)
                first = False
                # LISTEN is in place: whatever committed before it is in the database
                self._cut = False
                await self._resync(conn)
                self.listening.set()
                delay = self.reconnect_min_s
                loop = asyncio.get_running_loop()
                next_resync = loop.time() + self.resync_interval_s
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), self.ping_s)
                    except TimeoutError:
                        async with asyncio.timeout(self.timeout_s):
                            await conn.fetchval("SELECT 1")  # a half-open connection shows here
                        if self._cut:
                            self._cut = False  # the database answers again
                            await self._resync(conn)
                        elif loop.time() >= next_resync:
                            next_resync = loop.time() + self.resync_interval_s
                            await self._resync(conn)
                log.warning("listener_lost", schema=self.schema, retry_in_s=delay)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database went away: wait, connect again
                log.warning(
                    "listener_lost", schema=self.schema, error=type(e).__name__, retry_in_s=delay
                )
            finally:
                self.listening.clear()
                self._listen_conn = None
                if conn is not None and not conn.is_closed():
                    conn.terminate()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.reconnect_max_s)

    def _on_notify(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        table_id, _, seq = payload.rpartition(" ")
        try:
            last = int(seq)
        except ValueError:
            log.warning("bad_notification", payload=payload[:200])
            return
        self._published(table_id, last)

    async def _resync(self, conn: asyncpg.Connection) -> None:
        """Tell every followed table its last seq as the database has it (recovers missed NOTIFYs).

        Runs on the listener's connection ``conn``, within ``timeout_s``.
        """
        tables = list(self._listeners)
        if not tables:
            return
        async with asyncio.timeout(self.timeout_s):
            rows = await conn.fetch(
                f"SELECT table_id, max(seq) FROM {self._s}.events WHERE table_id = ANY($1::text[]) GROUP BY table_id",
                tables,
            )
        for table_id, last in rows:
            self._published(table_id, int(last))

    # ------------------------------------------------------------ tables and tokens

    async def create_table(
        self, table: TableRecord, events: Sequence[Recorded], command_id: str
    ) -> None:
        s = self._s
        async with self._conn() as conn, conn.transaction():
            made = await conn.fetchval(
                f"""INSERT INTO {s}.tables (table_id, ruleset, name, created, seed) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (table_id) DO NOTHING RETURNING table_id""",
                table.table_id,
                table.ruleset,
                table.name,
                table.created,
                table.seed,
            )
            if made is None:
                raise StoreError(f"table {table.table_id} exists", code="store/table_exists")
            if events:
                _check_continues(table.table_id, events, 0)
                (outcome,) = await self._append_rows(conn, [_Pending(table.table_id, events, 0)])
                assert outcome[4], outcome  # a new table: nothing can be in the way
        if events:
            self._published(table.table_id, events[-1].seq)

    async def get_table(self, table_id: str) -> TableRecord | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"SELECT table_id, ruleset, name, created, seed FROM {self._s}.tables WHERE table_id = $1",
                table_id,
            )
        return None if row is None else _table(row)

    async def list_tables(self) -> list[TableRecord]:
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT table_id, ruleset, name, created, seed FROM {self._s}.tables ORDER BY created, table_id"
            )
        return [_table(r) for r in rows]

    async def timer_tables(self) -> list[str]:
        """One query on the events' ``type`` column (a partial index holds the timer events)."""
        async with self._conn() as conn:
            rows = await conn.fetch(
                f"SELECT table_id FROM {self._s}.events WHERE type = ANY($1::text[])"
                " GROUP BY table_id HAVING count(*) FILTER (WHERE type = 'timer_set')"
                " > count(*) FILTER (WHERE type <> 'timer_set')",
                list(TIMER_TYPES),
            )
        return [r["table_id"] for r in rows]

    async def add_token(self, token: TokenRecord) -> None:
        async with self._conn() as conn:
            await conn.execute(
                f"""INSERT INTO {self._s}.tokens (table_id, token_hash, role, member_id) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (table_id, token_hash) DO UPDATE SET role = excluded.role, member_id = excluded.member_id""",
                token.table_id,
                token.token_hash,
                token.role,
                token.member_id,
            )

    async def find_token(self, table_id: str, token_hash: str) -> TokenRecord | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"SELECT token_hash, table_id, role, member_id FROM {self._s}.tokens WHERE table_id = $1 AND token_hash = $2",
                table_id,
                token_hash,
            )
        if row is None:
            return None
        return TokenRecord(token_hash=row[0], table_id=row[1], role=row[2], member_id=row[3])

    # ------------------------------------------------------------ events

    async def append(self, table_id: str, events: Sequence[Recorded], *, expected_seq: int) -> None:
        """Group commit: the appends waiting at the same moment, across this node's tables,
        go to the database as one statement (one round trip, one transaction, one fsync).
        Inside :meth:`exclusive` the append is that statement alone, in the turn's
        transaction, then its commit (which ends the turn).

        The batch's statement NOTIFYs each table it writes (delivered at the commit: one
        NOTIFY lock per batch, see :meth:`_notify_later`); a turn's append notifies right
        after its commit, on the same connection, before it returns.

        Raises:
            SeqConflict, DuplicateCommand, TableNotFound: as :meth:`EventStore.append`;
                a refused command in a batch fails alone, the others are written.
            StoreError: ``store/unavailable`` (the append may still commit: send the
                command again with its id), ``store/retry`` (nothing was written).
        """
        if not events:
            if await self.get_table(table_id) is None:
                raise TableNotFound(f"no table {table_id}")
            return
        _check_continues(table_id, events, expected_seq)
        turn = self._held.get()
        if (
            turn is not None
            and turn.table_id == table_id
            and turn.active
            and not turn.conn.is_closed()
        ):
            outcome = await self._append_in_turn(turn, table_id, events, expected_seq)
        else:
            outcome = await self._grouped(_Pending(table_id, events, expected_seq))
        _raise_refusal(table_id, expected_seq, outcome)
        self._published(table_id, events[-1].seq)

    async def _append_in_turn(
        self, turn: _Turn, table_id: str, events: Sequence[Recorded], expected_seq: int
    ) -> tuple[Any, ...]:
        async with self._conn(table_id) as conn:
            try:
                (outcome,) = await self._append_rows(
                    conn, [_Pending(table_id, events, expected_seq)], notify=False
                )
                if outcome[4]:
                    turn.active = False  # the commit ends the turn, whatever it answers
                    status = await conn.execute("COMMIT")
                    if status != "COMMIT":  # the transaction had failed: nothing was written
                        log.error("turn_commit_refused", table_id=table_id, status=status)
                        raise StoreError(
                            f"the turn's transaction ended with {status}; nothing was written",
                            code="store/retry",
                        )
                    try:  # the NOTIFY right after the commit, before the ack: no fsync, no wait
                        await conn.execute(
                            self._sql_notify, self.channel, [table_id], [events[-1].seq]
                        )
                    except Exception as e:  # noqa: BLE001 - written all the same
                        log.warning("notify_failed", table_id=table_id, error=repr(e))
                        self._notify_later(table_id, events[-1].seq)
            except asyncpg.UniqueViolationError as e:
                # another node committed between our check and our insert (it wrote without a turn)
                turn.active = False
                await conn.execute("ROLLBACK")
                await self._conflict(conn, e, table_id, events, expected_seq)
        return outcome

    async def _grouped(self, p: _Pending) -> tuple[Any, ...]:
        """Queue ``p`` for the next batch and wait for its outcome."""
        if self._pool is None:
            raise StoreError("the store is not open", code="store/closed")
        if self._cut:
            raise _unavailable(None)
        p.future = asyncio.get_running_loop().create_future()
        if not (self._flushes or self._waiting or self._kick_due):
            # nothing in flight or about to go: this task runs the statement itself
            self._flushing.add(p.table_id)
            self._flushes += 1
            await self._flush([p])
        else:
            self._waiting.append(p)
            self._kick_soon()
        return await p.future

    def _kick_soon(self) -> None:
        """:meth:`_kick` once the tasks ready now have run: the writers woken by a batch's
        outcomes append again in the same turn of the event loop, and go out together."""
        if not self._kick_due:
            self._kick_due = True
            asyncio.get_running_loop().call_soon(self._kick)

    def _kick(self) -> None:
        """Start batches while appends wait and fewer than ``max_flushes`` are in flight.

        A batch takes at most one append per table (the first waiting), none of a table
        with an append in flight: each table's appends reach the database in order."""
        self._kick_due = False
        while self._waiting and self._flushes < self.max_flushes:
            batch: list[_Pending] = []
            tables: set[str] = set()
            later: list[_Pending] = []
            while self._waiting and len(batch) < self.max_batch:
                p = self._waiting.popleft()
                if p.table_id in tables or p.table_id in self._flushing:
                    later.append(p)
                else:
                    batch.append(p)
                    tables.add(p.table_id)
            self._waiting.extendleft(reversed(later))
            if not batch:
                return
            self._flushing |= tables
            self._flushes += 1
            task = asyncio.ensure_future(self._flush(batch))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _flush(self, batch: list[_Pending]) -> None:
        """One statement for the batch; if another node's write collides with one of its
        commands (a unique violation fails the whole statement), each command again alone,
        so that the collision fails only its own."""
        try:
            try:
                outcomes = await self._on_writer(batch)
                for p, outcome in zip(batch, outcomes, strict=True):
                    _settle(p, outcome)
            except asyncpg.UniqueViolationError:
                for p in batch:
                    try:
                        async with self._conn() as conn:
                            try:
                                (outcome,) = await self._append_rows(conn, [p])
                            except asyncpg.UniqueViolationError as e:
                                await self._conflict(conn, e, p.table_id, p.events, p.expected_seq)
                        _settle(p, outcome)
                    except Exception as e:  # noqa: BLE001 - the command's own answer
                        _settle(p, e)
        except Exception as e:  # noqa: BLE001 - every command of the batch gets it
            for p in batch:
                _settle(p, e)
        finally:
            self._flushing.difference_update(p.table_id for p in batch)
            self._flushes -= 1
            if self._waiting or len(batch) > 1:  # several writers: the woken ones go together
                self._kick_soon()

    async def _on_writer(self, batch: Sequence[_Pending]) -> list[tuple[Any, ...]]:
        """The batch's statement on a writer connection: one of at most ``max_flushes``
        kept out of the pool between batches (the pool's acquire and release cost more
        CPU than the rest of an append), given back to the pool on any failure."""
        conn = None
        while self._writers and conn is None:
            c = self._writers.pop()
            if c.is_closed():
                await self._release(c)
            else:
                conn = c
        if conn is None:
            conn = await self._acquire()
        kept = False
        try:
            async with self._guard(conn):
                outcomes = await self._append_rows(conn, batch)
            kept = self._pool is not None and not conn.is_closed()
            return outcomes
        finally:
            if kept:
                self._writers.append(conn)
            else:
                await self._release(conn)

    async def _append_rows(
        self, conn: asyncpg.Connection, batch: Sequence[_Pending], *, notify: bool = True
    ) -> list[tuple[Any, ...]]:
        """Run the append statement for ``batch`` (one command of one event: its plain-values
        form); for each command ``(known, its table's last seq, first and last seq of its id if
        written before, written)``. With ``notify`` the statement NOTIFYs each table written
        (delivered at its commit)."""
        self.batches += 1
        if len(batch) == 1 and len(batch[0].events) == 1:
            p = batch[0]
            e = p.events[0]
            row = await conn.fetchrow(
                self._sql_append_one,
                p.table_id,
                e.command_id,
                p.expected_seq,
                *_event_values(e),
                self.channel if notify else None,
            )
            return [tuple(row)[:5]]
        events = [e for p in batch for e in p.events]
        columns = list(zip(*map(_event_values, events), strict=True))
        rows = await conn.fetch(
            self._sql_append,
            [p.table_id for p in batch],
            [p.events[0].command_id for p in batch],
            [p.expected_seq for p in batch],
            [p.events[-1].seq for p in batch],
            [e.table_id for e in events],
            *map(list, columns),
            self.channel if notify else None,
        )
        return [tuple(r)[:5] for r in rows]

    async def _conflict(
        self,
        conn: asyncpg.Connection,
        e: asyncpg.UniqueViolationError,
        table_id: str,
        events: Sequence[Recorded],
        expected_seq: int,
    ) -> None:
        """Raise what a unique violation of one command's append means."""
        if e.constraint_name == "commands_table_command_key":
            found = await conn.fetchrow(
                f"SELECT first_seq, last_seq FROM {self._s}.commands WHERE table_id = $1 AND command_id = $2",
                table_id,
                events[0].command_id,
            )
            assert found is not None, "a committed command row is never deleted"
            raise DuplicateCommand(
                "command already appended", first_seq=found[0], last_seq=found[1]
            ) from None
        raise SeqConflict(
            f"seq {expected_seq + 1} of {table_id} was taken by another writer"
        ) from None

    def _notify_later(self, table_id: str, last_seq: int) -> None:
        """Tell the other nodes, soon, that ``table_id`` reaches ``last_seq`` (when a turn's
        own NOTIFY after its commit failed).

        Not inside the turn's transaction: PostgreSQL serializes the commits of every
        transaction that notifies (one lock for the whole cluster, held through the
        fsync), which made the turns of different tables wait for each other. The
        notifications waiting at the same moment go out as one statement on a pooled
        connection, off the command's path; one lost (the node dies first) is recovered
        by the other nodes' resync.
        """
        if last_seq > self._notes.get(table_id, 0):
            self._notes[table_id] = last_seq
        if self._notifier is None or self._notifier.done():
            self._notifier = asyncio.ensure_future(self._notify_loop())

    async def _notify_loop(self) -> None:
        while self._notes:
            notes, self._notes = self._notes, {}
            try:
                async with self._conn() as conn:
                    await conn.execute(
                        self._sql_notify, self.channel, list(notes), list(notes.values())
                    )
            except Exception as e:  # noqa: BLE001 - the others' resync recovers it
                log.warning("notify_failed", schema=self.schema, tables=len(notes), error=repr(e))

    async def read(
        self, table_id: str, *, after_seq: int = 0, to_seq: int | None = None
    ) -> list[Recorded]:
        async with self._conn(table_id) as conn:
            if to_seq is None:
                rows = await conn.fetch(
                    f"SELECT envelope FROM {self._s}.events WHERE table_id = $1 AND seq > $2 ORDER BY seq",
                    table_id,
                    after_seq,
                )
            else:
                rows = await conn.fetch(
                    f"SELECT envelope FROM {self._s}.events WHERE table_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq",
                    table_id,
                    after_seq,
                    to_seq,
                )
        return [_decode_recorded(r[0]) for r in rows]

    async def last_seq(self, table_id: str) -> int:
        async with self._conn(table_id) as conn:
            return int(
                await conn.fetchval(
                    f"SELECT coalesce(max(seq), 0) FROM {self._s}.events WHERE table_id = $1",
                    table_id,
                )
            )

    async def find_command(self, table_id: str, command_id: str) -> tuple[int, int] | None:
        async with self._conn(table_id) as conn:
            row = await conn.fetchrow(
                f"SELECT first_seq, last_seq FROM {self._s}.commands WHERE table_id = $1 AND command_id = $2",
                table_id,
                command_id,
            )
        return None if row is None else (int(row[0]), int(row[1]))

    # ------------------------------------------------------------ snapshots (a cache)

    async def put_snapshot(self, snapshot: Snapshot) -> None:
        async with self._conn() as conn:
            await conn.execute(
                f"""INSERT INTO {self._s}.snapshots (table_id, seq, version, data) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (table_id, seq) DO UPDATE SET version = excluded.version, data = excluded.data""",
                snapshot.table_id,
                snapshot.seq,
                snapshot.version,
                snapshot.data,
            )

    async def get_snapshot(self, table_id: str, *, at_most: int | None = None) -> Snapshot | None:
        async with self._conn() as conn:
            row = await conn.fetchrow(
                f"""SELECT seq, version, data FROM {self._s}.snapshots
                    WHERE table_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1""",
                table_id,
                at_most if at_most is not None else 2**62,
            )
        if row is None:
            return None
        return Snapshot(table_id=table_id, seq=int(row[0]), version=row[1], data=bytes(row[2]))

    async def delete_snapshots(self, table_id: str | None = None) -> int:
        async with self._conn() as conn:
            if table_id is None:
                status = await conn.execute(f"DELETE FROM {self._s}.snapshots")
            else:
                status = await conn.execute(
                    f"DELETE FROM {self._s}.snapshots WHERE table_id = $1", table_id
                )
        return int(status.rsplit(" ", 1)[-1])


async def _reset(conn: asyncpg.Connection) -> None:
    """Make a connection fit for the pool again, without asyncpg's full reset (a round trip each time).

    Nothing here changes session state: transactions end in their block and
    :meth:`PostgresEventStore.exclusive` unlocks (or terminates the connection)
    itself. Only a transaction cut short by cancellation may be left open.
    """
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


def _unavailable(e: BaseException | None) -> StoreError:
    why = "not answering" if e is None else type(e).__name__
    return StoreError(
        f"PostgreSQL is unavailable ({why}); a command may or may not have been "
        "written: send it again with the same command id",
        code="store/unavailable",
    )


def _drop(conn: asyncpg.Connection) -> None:
    """Close ``conn`` at once, without a goodbye (its state is unknown)."""
    try:
        if not conn.is_closed():
            conn.terminate()
    except asyncpg.InterfaceError:  # already back in the pool, closed there
        pass


def _raise_refusal(table_id: str, expected_seq: int, outcome: tuple[Any, ...]) -> None:
    """The append statement's answer when it wrote nothing, as the exception the contract names."""
    known, last, first_seq, last_seq, written = outcome
    if written:
        return
    if not known:
        raise TableNotFound(f"no table {table_id}")
    if first_seq is not None:
        raise DuplicateCommand("command already appended", first_seq=first_seq, last_seq=last_seq)
    if last != expected_seq:
        raise SeqConflict(f"expected seq {expected_seq}, table is at {last}")


def _event_values(e: Recorded) -> tuple[Any, ...]:
    """One event's row, in the order of :data:`_EVENT_COLUMNS`: the one place that builds it."""
    return (e.seq, e.type, _encode(e).decode())


def _check_continues(table_id: str, events: Sequence[Recorded], expected_seq: int) -> None:
    command_id = events[0].command_id
    for i, e in enumerate(events):
        if e.seq != expected_seq + 1 + i or e.table_id != table_id or e.command_id != command_id:
            raise StoreError(
                "events must continue the stream, all of one command", code="store/bad_seq"
            )


def _table(row: Any) -> TableRecord:
    return TableRecord(
        table_id=row[0], ruleset=row[1], name=row[2], created=row[3], seed=bytes(row[4])
    )
