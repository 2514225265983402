"""The tables of one server process: :class:`Hub`.

The hub creates, forks and joins tables (:meth:`Hub.create_table`,
:meth:`Hub.fork_table`, :meth:`Hub.join`), loads a table on first use
(:meth:`Hub.table`, one :class:`~taku.app.table.TableService` per open table, loaded
once however many ask at the same time), arms the tables' timers at start (and, on a
shared store, looks again for other nodes' now and then), and unloads the idle ones
(a sweep every ``idle_unload_s / 4``; past ``max_idle_tables``, the least recently
used at once), each with a snapshot first, so nothing is lost and a table loads again
quickly.

Also here: the shapes a creation, a fork and a join return (:class:`CreatedTable`,
:class:`ForkedTable`, :class:`Joined`), the token hash (:func:`hash_token`) and the
hub's clock and dice defaults.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import gc
import hashlib
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from taku import metrics
from taku.app.table import FOLD_SLICE, TableService
from taku.core import chain
from taku.core import table as core_table
from taku.core.dice import DiceSource, SeededDice, epoch_seed, seed_hash
from taku.core.events import Event, HistorySettings, Recorded, TableSettings, tag_of
from taku.core.ruleset import Context, Emitted, Role, Ruleset
from taku.core.table import TableState
from taku.core.upcast import EventReader
from taku.errors import BadToken, TableNotFound
from taku.plugins import Registry
from taku.protocol import encode
from taku.store.base import EventStore, TableRecord, TokenRecord

log = structlog.get_logger("taku.app")

DiceFactory = Callable[[str, bytes, int], DiceSource]
"""``(table_id, seed, cursor) -> DiceSource`` for one command. Tests pass scripted dice."""

EVICT_AFTER_S = 1.0
"""A table beyond ``Hub.max_idle_tables`` is unloaded only once unused this long, s."""


def hash_token(token: str) -> str:
    """The only form in which a token is stored: SHA-256 hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _seeded(table_id: str, seed: bytes, cursor: int) -> DiceSource:
    return SeededDice(seed, cursor)


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class CreatedTable:
    table_id: str
    member_id: str
    gm_token: str
    player_token: str
    spectator_token: str


@dataclass(frozen=True)
class ForkedTable:
    """A forked table: its :class:`CreatedTable`, where it comes from, and a new token
    for each member carried from the source (``member id -> token``)."""

    created: CreatedTable
    source_table: str
    source_seq: int
    source_head: str
    member_tokens: dict[str, str]


@dataclass(frozen=True)
class Joined:
    table_id: str
    member_id: str
    role: str
    seq: int
    member_token: str | None


@dataclass(frozen=True)
class _Codecs:
    """A ruleset's decoders, built once and shared by its tables."""

    ruleset: Ruleset
    decoder: msgspec.json.Decoder
    reader: EventReader
    command_decoder: msgspec.json.Decoder
    command_tags: set[str]


def _trim_heap() -> None:
    """Return the C heap's free memory to the system (glibc's ``malloc_trim``; elsewhere
    nothing): after many tables are unloaded, their freed memory stays in the process
    otherwise."""
    global _malloc_trim
    if _malloc_trim is None:
        try:
            import ctypes

            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


_malloc_trim: Any = None


def opening_records(
    table_id: str, events: Sequence[Event], gm_id: str, command_id: str, now: dt.datetime
) -> list[Recorded]:
    """The unsealed records of a new table's first events (a creation or a fork): the
    first is the server's (no actor), the rest the GM's ``gm_id``, all of one command."""
    return [
        Recorded(
            table_id=table_id,
            seq=i + 1,
            type=tag_of(type(e)),
            data=msgspec.Raw(encode(e)),
            actor=None if i == 0 else gm_id,
            time=now,
            command_id=command_id,
            event_version=type(e).version,
        )
        for i, e in enumerate(events)
    ]


class Hub:
    """All open tables of one server process.

    Args:
        store: an opened event store.
        registry: the installed rulesets.
        dice: makes each command's dice source; the server's default draws from
            the table's secret seed (:class:`~taku.core.dice.SeededDice`).
        clock: UTC ``datetime`` for event times and timer deadlines.
        timers: arm the loaded tables' timers (False: a read-only tool, which must
            never append an expiry).
        timer_rescan_s: on a shared store (several nodes), how often :meth:`arm_timers`
            looks again for tables with armed timers this node does not hold (None: only
            at start).
    """

    def __init__(
        self,
        store: EventStore,
        registry: Registry,
        *,
        dice: DiceFactory = _seeded,
        clock: Callable[[], dt.datetime] = _utcnow,
        snapshot_every: int = 250,
        idle_unload_s: float | None = 600.0,
        timers: bool = True,
        timer_rescan_s: float | None = 30.0,
        max_idle_tables: int | None = 500,
    ) -> None:
        from taku.core.commands import CORE_COMMANDS
        from taku.core.events import CORE_EVENTS

        self.store = store
        self.registry = registry
        self.dice = dice
        self.clock = clock
        self.core_commands = CORE_COMMANDS
        self.core_events = CORE_EVENTS
        self.publishing = contextlib.nullcontext()
        self._tables: dict[str, TableService] = {}
        self._loading: dict[str, asyncio.Future[TableService]] = {}
        self.snapshot_every = max(0, snapshot_every)
        """Events between two snapshots of a table (0: no snapshots)."""
        self.timers = timers
        """Whether loaded tables arm their timers (expire them at their deadlines); the
        read-only tools (``taku replay``, ``taku export``) load tables without."""
        self.idle_unload_s = idle_unload_s
        """A table with no subscriber and no use for this long is unloaded (None: never)."""
        self.max_idle_tables = max_idle_tables
        """At most this many tables with no subscriber stay loaded: beyond it the least
        recently used are unloaded at once, whatever ``idle_unload_s`` (None: no bound).
        Bounds the server's peak memory, and so what it keeps after tables go idle."""
        self.unloaded = 0
        """Tables unloaded for being idle or beyond ``max_idle_tables`` (since the hub started)."""
        self._evict_at = self._evict_mark()
        self._evicting: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._codecs: dict[str, _Codecs] = {}
        self.timer_rescan_s = timer_rescan_s
        """On a shared store, how often the node looks for armed timers it does not hold (s)."""
        self._timer_watch: asyncio.Task[None] | None = None
        _trim_heap()  # loads libc now: objects made at the first sweep would outlive it

    @property
    def publishing(self) -> contextlib.AbstractContextManager[Any]:
        """Entered around each publication of durable events and their acks: the
        server sets it to hold each connection's frames until it is left, then
        write them together (one write, not one per frame). It is also the store's
        :attr:`~taku.store.base.EventStore.answering`, so a batch of appends
        answered together is one publication."""
        return self._publishing

    @publishing.setter
    def publishing(self, value: contextlib.AbstractContextManager[Any]) -> None:
        self._publishing = value
        self.store.answering = value

    async def close(self) -> None:
        if self._timer_watch is not None:
            self._timer_watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_watch
            self._timer_watch = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        if self._evicting is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._evicting
            self._evicting = None
        for t in self._tables.values():
            await t.stop()
        metrics.tables_changed(-len(self._tables))
        self._tables.clear()

    def codecs(self, ruleset: Ruleset) -> _Codecs:
        """``ruleset``'s event and command decoders (built on first use, then shared)."""
        c = self._codecs.get(ruleset.id)
        if c is None or c.ruleset is not ruleset:
            decoder = core_table.event_decoder(ruleset)
            c = _Codecs(
                ruleset,
                decoder,
                EventReader.of(ruleset, decoder),
                core_table.command_decoder(ruleset),
                {tag_of(t) for t in self.core_commands + ruleset.commands},
            )
            self._codecs[ruleset.id] = c
        return c

    def loaded(self, table_id: str) -> TableService | None:
        """The table if it is open already (no wait), else None: see :meth:`table`."""
        t = self._tables.get(table_id)
        if t is not None:
            t.last_used = time.monotonic()
        return t

    def idle(self, table: TableService, now: float) -> bool:
        """Whether ``table`` may be unloaded: nobody subscribed, nothing in flight or
        waiting for it, and unused for ``idle_unload_s``."""
        return (
            self.idle_unload_s is not None
            and now - table.last_used >= self.idle_unload_s
            and self.unloadable(table)
        )

    def unloadable(self, table: TableService) -> bool:
        """Whether ``table`` could be unloaded now, however recently used: nobody
        subscribed, nothing in flight or waiting for it, no armed timer."""
        return (
            not table.subscriptions
            and not table.commands.busy
            and not table.lock.locked()
            and not (self.timers and table.state.timers)  # an armed timer keeps its table loaded
        )

    async def unload_idle(self) -> int:
        """Unload every idle table (see :meth:`idle`); returns how many.

        Each keeps a snapshot of its state first, so it loads again at once on its
        next use (:meth:`table`), with nothing lost: the events are in the store.
        """
        now = time.monotonic()
        return await self._unload([t for t in list(self._tables.values()) if self.idle(t, now)])

    def _evict_mark(self) -> int | None:
        """The number of loaded tables at which :meth:`evict` next runs: a tenth of the
        bound past it (or past the tables now loaded), so the scan is paid once per
        many loads, not on each."""
        if self.max_idle_tables is None:
            return None
        cap = max(0, self.max_idle_tables)
        return max(cap, len(self._tables)) + max(cap // 10, 1)

    async def evict(self) -> int:
        """Unload the least recently used tables with no subscriber beyond
        ``max_idle_tables`` (those that :meth:`unloadable` allows); returns how many.
        The same unload as :meth:`unload_idle`: a snapshot first, nothing lost."""
        if self.max_idle_tables is None:
            return 0
        # a table asked for in the last EVICT_AFTER_S may be in a caller's hands between
        # two awaits (join: the table, then its token): it stays, even over the bound
        recent = time.monotonic() - EVICT_AFTER_S
        idle = sorted(
            (t for t in self._tables.values() if self.unloadable(t)), key=lambda t: t.last_used
        )
        idle = idle[: max(0, len(idle) - max(0, self.max_idle_tables))]
        gone = await self._unload([t for t in idle if t.last_used < recent])
        self._evict_at = self._evict_mark()
        return gone

    def _evict_soon(self) -> None:
        """Run :meth:`evict` in the background once the loaded tables pass the mark."""
        if self._evict_at is None or len(self._tables) <= self._evict_at:
            return
        if self._evicting is not None and not self._evicting.done():
            return

        async def run() -> None:
            try:
                await self.evict()
            except Exception:
                log.exception("evict_failed")

        self._evicting = asyncio.create_task(run(), name="taku-evict-idle")

    async def _unload(self, gone: list[TableService]) -> int:
        """Unload ``gone`` (each :meth:`unloadable`), keeping a snapshot of each whose
        tail since its last one is longer than a slice; returns how many."""
        # a table the sweep and the bound both chose is unloaded once
        gone = [t for t in gone if self._tables.get(t.table_id) is t]
        for t in gone:
            del self._tables[t.table_id]  # at once: the next use loads it again
            metrics.tables_changed(-1)
            known = max(t._snapshotted, default=0)
            if t.state.seq - known > FOLD_SLICE:  # else loading again folds one slice at most
                t._keep_snapshot(t.state)
        for t in gone:
            await t.stop()
            if t.table_id not in self._tables:
                self.store.forget(t.table_id)
        if gone:
            # a dict never shrinks: copy the hub's once most of its tables left it
            if len(self._tables) < len(gone):
                self._tables = dict(self._tables)
            # an unloaded table's objects hold cycles (callbacks, its lock); the server
            # runs the cyclic GC rarely (taku serve), so collect them now, once per sweep,
            # and hand the freed heap back to the system
            gc.collect()
            # CPython's method cache holds the last few thousand attribute names looked
            # up, among them strings C code made for one call (datetime's "utcoffset"):
            # made while tables were open, they pin the tables' freed 1 MiB arenas
            sys._clear_type_cache()
            _trim_heap()
            self.unloaded += len(gone)
            log.info("tables_unloaded", count=len(gone), loaded=len(self._tables))
        return len(gone)

    async def arm_timers(self) -> int:
        """Load every table whose log has an armed timer (``store.timer_tables``), which
        arms it: a deadline that passed while no server ran expires at once. Called
        when the server starts (:meth:`taku.net.TakuServer.start`); returns how many
        tables were loaded. A table that fails to load is logged and skipped."""
        if not self.timers:
            return 0
        n = await self._load_timer_tables()
        if n:
            log.info("timers_armed", tables=n)
        if self.store.shared and self.timer_rescan_s and self._timer_watch is None:
            self._timer_watch = asyncio.create_task(self._rescan(), name="taku-timer-rescan")
        return n

    async def _load_timer_tables(self) -> int:
        n = 0
        for table_id in await self.store.timer_tables():
            if table_id in self._tables:
                continue
            try:
                await self.table(table_id)
                n += 1
            except Exception:
                log.exception("timer_table_unloadable", table_id=table_id)
        return n

    async def _rescan(self) -> None:
        """A shared store: every ``timer_rescan_s``, load the tables with an armed timer
        that this node does not hold (one set on another node, which may have died), so
        every node is armed for every timer."""
        assert self.timer_rescan_s
        while True:
            await asyncio.sleep(self.timer_rescan_s)
            try:
                n = await self._load_timer_tables()
                if n:
                    log.info("timers_armed", tables=n)
            except Exception as e:  # noqa: BLE001 - the database away: the next round tries again
                log.warning("timer_rescan_failed", error=repr(e))

    async def fire_due_timers(self) -> int:
        """:meth:`TableService.fire_due` on every loaded table (tests with a fake clock
        call it after moving the clock on); returns how many timers expired."""
        return sum([await t.fire_due() for t in list(self._tables.values())])

    async def _sweep(self) -> None:
        """Unload idle tables now and then, for as long as the hub runs."""
        assert self.idle_unload_s is not None
        every_s = min(max(self.idle_unload_s / 4, 0.01), 30.0)
        while True:
            await asyncio.sleep(every_s)
            try:
                await self.unload_idle()
            except Exception:
                log.exception("unload_failed")

    async def table(self, table_id: str) -> TableService:
        """The open table, loaded (folded from the store) on first use.

        Raises:
            TableNotFound: ``table/not_found``.
        """
        t = self._tables.get(table_id)
        if t is not None:
            t.last_used = time.monotonic()
            return t
        if self.idle_unload_s is not None and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(), name="taku-unload-idle")
        if table_id in self._loading:
            return await asyncio.shield(self._loading[table_id])
        fut: asyncio.Future[TableService] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            record = await self.store.get_table(table_id)
            if record is None:
                raise TableNotFound(f"no table {table_id!r}")
            t = TableService(self, record, self.registry.get(record.ruleset))
            await t.load()
            self._tables[table_id] = t
            metrics.tables_changed(+1)
            fut.set_result(t)
            self._evict_soon()
            return t
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            del self._loading[table_id]

    async def store_new_table(
        self,
        record: TableRecord,
        recs: list[Recorded],
        first_hash: str,
        command_id: str,
        gm_id: str,
    ) -> dict[str, str]:
        """Chain ``recs`` from the new table's genesis (its id and ``first_hash``, the hash
        of epoch 0's seed), create the table in the store with them, and issue its three
        invite tokens, the GM's bound to ``gm_id``. Returns ``role -> token`` (shown once;
        the store keeps hashes). Used by :meth:`create_table` and by forks."""
        recs = chain.seal(recs, chain.genesis(record.table_id, first_hash))
        await self.store.create_table(record, recs, command_id)
        tokens = {role: secrets.token_urlsafe(24) for role in ("gm", "player", "spectator")}
        await self.store.add_token(
            TokenRecord(
                token_hash=hash_token(tokens["gm"]),
                table_id=record.table_id,
                role=Role.GM,
                member_id=gm_id,
            )
        )
        for role in ("player", "spectator"):
            await self.store.add_token(
                TokenRecord(
                    token_hash=hash_token(tokens[role]), table_id=record.table_id, role=role
                )
            )
        return tokens

    async def create_table(
        self,
        *,
        ruleset: str,
        name: str = "",
        options: dict[str, Any] | None = None,
        gm_name: str = "GM",
        settings: TableSettings | None = None,
        history: HistorySettings | None = None,
    ) -> CreatedTable:
        """A new table with its GM. Returns the GM's token and the two invite tokens.

        Raises:
            UnknownRuleset: ``table/unknown_ruleset``.
            InvalidCommand: bad options or names.
        """
        rs = self.registry.get(ruleset)
        table_id = "t" + secrets.token_hex(6)
        seed = secrets.token_bytes(32)  # the table's secret: each epoch's seed derives from it
        gm_id = "m2"  # the GM's member_joined is the table's second event
        first_hash = seed_hash(epoch_seed(seed, 0))
        events = core_table.creation_events(
            name=name,
            ruleset=rs,
            options=options or {},
            seed_hash=first_hash,
            gm_id=gm_id,
            gm_name=gm_name,
            settings=settings,
            history=history,
        )
        now = self.clock()
        command_id = "create-" + table_id
        recs = opening_records(table_id, events, gm_id, command_id, now)
        record = TableRecord(
            table_id=table_id, ruleset=rs.id, name=name, created=now.isoformat(), seed=seed
        )
        tokens = await self.store_new_table(record, recs, first_hash, command_id, gm_id)
        log.info("table_created", table_id=table_id, ruleset=rs.id)
        return CreatedTable(table_id, gm_id, tokens["gm"], tokens["player"], tokens["spectator"])

    async def fork_table(
        self, source_id: str, member_id: str | None, *, at_seq: int | None = None, name: str = ""
    ) -> ForkedTable:
        """A new table from ``source_id``'s state right after ``at_seq`` (:func:`taku.history.fork_table`)."""
        from taku.history import fork_table

        return await fork_table(self, source_id, member_id, at_seq=at_seq, name=name)

    async def join(self, table_id: str, token: str, name: str = "") -> Joined:
        """Join with an invite token (a new member) or a member token (the same member).

        Raises:
            TableNotFound, BadToken (``auth/bad_token``), InvalidCommand (bad name).
        """
        table = await self.table(table_id)
        found = await self.store.find_token(table_id, hash_token(token))
        if found is None:
            raise BadToken("that token does not open this table")
        if found.member_id is not None:
            mid = found.member_id
            member = table.state.members.get(mid)
            if member is not None and not member.present:
                back = core_table.Rejoin(member_id=mid)
                await table.commit(
                    lambda s, c: core_table.decide_server(s, back, c),
                    actor=mid,
                    command_id="rejoin-" + secrets.token_hex(8),
                    decided=back,
                )
            return Joined(table_id, mid, table.state.role_of(mid), table.state.seq, None)
        member_token = secrets.token_urlsafe(24)
        holder: dict[str, str] = {}
        admit = core_table.Admit(name=name, role=found.role)

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            out = core_table.decide_server(state, admit, ctx)
            holder["id"] = out[0].member_id  # type: ignore[union-attr]
            return out

        first, _, _ = await table.commit(
            decider, actor=None, command_id="join-" + secrets.token_hex(8), decided=admit
        )
        mid = holder["id"]
        await self.store.add_token(
            TokenRecord(
                token_hash=hash_token(member_token),
                table_id=table_id,
                role=found.role,
                member_id=mid,
            )
        )
        return Joined(table_id, mid, found.role, table.state.seq, member_token)
