"""The application service: where the clock, ids, the store and the rules meet.

:class:`Hub` holds one :class:`TableService` per open table. A table service
decides one command at a time: fold state -> ``decide`` -> append with the
expected seq -> fold the new events -> publish to subscribers -> ack. Nothing
is published or acknowledged before the store made it durable.

Subscriptions catch up from the store and then switch to live events with no
gap and no repeat: a subscription is registered at the published seq, reads
the store up to that seq, then flushes what was published meanwhile.

When one process owns its tables (memory, SQLite), commands are pipelined: the
next command is decided on the state that includes appends still in flight, so
a busy table's commands share the store's group commit instead of waiting one
fsync each; events are still published, and commands acknowledged, only once
durable and in seq order. If an append fails, the commands decided after it
fail too (``store/retry``) and deciding restarts from the published state.
Deciding is synchronous up to the store's ``append_nowait``, and the store's
answer publishes from its own callback: a command costs no task of its own
and no extra turn of the event loop.
On a shared store (PostgreSQL, several nodes) each command holds the table's
lock through its append, and a pump task folds what other nodes append.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import functools
import gc
import hashlib
import itertools
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from taku import metrics
from taku.core import chain
from taku.core import chat as chat_core
from taku.core import table as core_table
from taku.core.commands import Command, Redo, Undo, fingerprint
from taku.core.dice import DiceSource, SeededDice, epoch_seed, seed_hash
from taku.core.events import (
    CORE_EVENTS,
    NO_JSON,
    ChatPosted,
    DiceRolled,
    Event,
    HistorySettings,
    Private,
    Recorded,
    Redacted,
    TableSettings,
    tag_of,
)
from taku.core.play import Affordance, Turn
from taku.core.render import outcome, render
from taku.core.ruleset import Context, Emitted, Role, Ruleset, Viewer
from taku.core.table import TableState
from taku.core.upcast import EventReader
from taku.errors import (
    BadToken,
    CommandIdReused,
    DuplicateCommand,
    InvalidCommand,
    InvalidFields,
    SeqConflict,
    StaleSeq,
    StoreError,
    TableNotFound,
    UnknownMessageType,
)
from taku.plugins import Registry
from taku.protocol import EventMsg, Speaker, classify, encode
from taku.snapshots import decode_state, make_snapshot, snapshot_version
from taku.store.base import EventStore, TableRecord, TokenRecord

__all__ = [
    "CreatedTable",
    "DiceFactory",
    "ForkedTable",
    "Hub",
    "Joined",
    "Reply",
    "Subscription",
    "TableService",
    "hash_token",
]

log = structlog.get_logger("taku.app")

DiceFactory = Callable[[str, bytes, int], DiceSource]
"""``(table_id, seed, cursor) -> DiceSource`` for one command. Tests pass scripted dice."""

Reply = Callable[[tuple[int, int, bool] | BaseException], None]
"""How a submitted command is answered: ``(first_seq, last_seq, duplicate)`` or the error."""

MAX_CONFLICT_RETRIES = 20

CATCH_UP_PAGE = 500
"""Events read from the store at a time for a catch-up (``subscribe``)."""

CATCH_UP_PAGE_BYTES = 256 * 1024
"""Frame bytes written to a connection before waiting for it to drain, during a catch-up."""

LOG_PAGE_BYTES = 512 * 1024
"""At most this many frame bytes in one ``log`` message (``get_log``)."""

FOLD_SLICE = 250
"""Events folded between two turns of the event loop when a table is loaded or a past
state computed: a long fold never holds the loop (other tables keep their latency)."""

FOLD_PAGE = 5000
"""Events read from the store at a time for a long fold."""

EVICT_AFTER_S = 1.0
"""A table beyond ``Hub.max_idle_tables`` is unloaded only once unused this long, s."""

ACKS_KEPT = 1000
"""Command ids a table remembers in memory (the most recent); an older repeat is
answered from the store's unique index of command ids."""


def hash_token(token: str) -> str:
    """The only form in which a token is stored: SHA-256 hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _seeded(table_id: str, seed: bytes, cursor: int) -> DiceSource:
    return SeededDice(seed, cursor)


_CORE = frozenset(CORE_EVENTS)
_LINES = frozenset({ChatPosted, DiceRolled})


def speaker_of(state: TableState, event: Event, actor: str | None) -> Speaker | None:
    """Who ``event``'s line is from: for a chat line, a roll or a ruleset's event, the
    character its ``character_id`` names (with the character's chat colour); else (and
    for the core's own events about characters) the member ``actor``; ``None`` for the
    server."""
    speaks = type(event) in _LINES or type(event) not in _CORE
    cid = getattr(event, "character_id", None) if speaks else None
    ch = state.characters.get(cid) if isinstance(cid, str) else None
    if ch is not None:
        return Speaker(
            name=ch.name,
            member_id=actor,
            character_id=ch.id,
            color=chat_core.color_of(state.chat, ch.id),
        )
    if actor is None:
        return None
    m = state.members.get(actor)
    return Speaker(name=m.name if m else actor, member_id=actor)


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class StateView:
    """What a ``state`` message carries: the viewer's view, affordances and the turn."""

    state: dict[str, Any]
    affordances: list[Affordance]
    turn: Turn | None


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


@dataclass(eq=False, slots=True)
class _InFlight:
    """A pipelined command: decided, its append handed to the store, not yet answered."""

    recs: list[Recorded]
    events: list[Event]
    after: TableState
    generation: int
    actor: str | None
    reply: Reply
    stored: bool = False
    error: BaseException | None = None
    outcome: tuple[int, int, bool] | BaseException | None = None
    """Set for an answer known at once (a repeat, a rejection) that waits its turn."""
    same_as: _InFlight | None = None
    """Set for a command id sent again while the first is in flight: its answer repeats the first's."""
    marks: metrics.Marks | None = None
    """When it passed each stage, while stage timings are on (``taku serve --stage-timings``)."""

    @classmethod
    def answered(cls, reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> _InFlight:
        return cls([], [], TableState(table_id=""), -1, None, reply, stored=True, outcome=outcome)

    @classmethod
    def repeating(cls, first: _InFlight, reply: Reply) -> _InFlight:
        return cls([], [], TableState(table_id=""), -1, None, reply, stored=True, same_as=first)


@dataclass(eq=False)
class Subscription:
    """One viewer's feed of a table: frames go to ``sink`` in seq order."""

    table: TableService
    member_id: str | None
    sink: Callable[[bytes], None]
    last_seq: int
    live: bool = False
    pending: list[tuple[Recorded, Event]] = field(default_factory=list)

    def deliver(self, rec: Recorded, event: Event) -> None:
        if not self.live:
            self.pending.append((rec, event))
            return
        if rec.seq <= self.last_seq:
            return
        self.sink(self.table.frame(rec, event, self.member_id))
        self.last_seq = rec.seq


class TableService:
    """One table: its folded state, its command path and its subscribers."""

    def __init__(self, hub: Hub, record: TableRecord, ruleset: Ruleset) -> None:
        self.hub = hub
        self.record = record
        self.table_id = record.table_id
        self.ruleset = ruleset
        codecs = hub.codecs(ruleset)
        self.decoder: msgspec.json.Decoder = codecs.decoder
        self.reader: EventReader = codecs.reader
        """Reads stored events: upcasts old versions, names an unreadable one."""
        self.command_decoder: msgspec.json.Decoder = codecs.command_decoder
        self._command_tags: set[str] = codecs.command_tags
        self.state = TableState(table_id=record.table_id)
        """The published state: every event in it is durable and was sent to subscribers."""
        self._decided = self.state
        """The state new commands are decided on: ``state`` plus appends still in flight."""
        self.acks: dict[str, tuple[int, int]] = {}
        self._ack_actor: dict[str, str | None] = {}
        self._ack_fingerprint: dict[str, str | None] = {}
        """Each stored command's :func:`~taku.core.commands.fingerprint` (None when unknown)."""
        self._in_flight: dict[str, _InFlight] = {}
        """Pipelined commands whose append the store has not answered, by command id."""
        self._queue: collections.deque[_InFlight] = collections.deque()
        """The same, in seq order: they are published (or fail) in this order."""
        self._generation = 0
        self.lock = asyncio.Lock()
        self.subscriptions: set[Subscription] = set()
        self._frames: dict[tuple[int, bool, bool], tuple[Recorded, bytes]] = {}
        self._options: tuple[Any, Any] | None = None
        self._pump: asyncio.Task[None] | None = None
        self._past: TableState | None = None
        """The last past state :meth:`past_state` computed (the replay slider's next step
        folds from it)."""
        self._snapshotted: set[int] = set()
        """Seqs this process knows the store holds a snapshot at (of today's version)."""
        self._background: set[asyncio.Task[Any]] = set()
        self.last_used = time.monotonic()
        """When the table was last asked for (:meth:`Hub.table`, :meth:`Hub.loaded`), s."""
        self._seeds: dict[tuple[int, bool], tuple[bytes, str]] = {}
        self._alarm: asyncio.TimerHandle | None = None
        """The wake-up for the earliest armed timer's deadline (:meth:`_arm`)."""
        self._alarm_for: Any = None
        """The ``state.timers`` the alarm was set for (re-armed when they change)."""

    # ------------------------------------------------------------ folding

    def _apply(
        self,
        recs: Sequence[Recorded],
        *,
        publish: bool = True,
        events: Sequence[Event] | None = None,
    ) -> None:
        """Fold ``recs`` (skipping seqs already folded) and publish them. Synchronous.

        ``events`` are the decoded ``recs`` when the caller has them (its own command).
        """
        fresh = [(i, rec) for i, rec in enumerate(recs) if rec.seq > self.state.seq]
        if not fresh:
            return
        decoded = [events[i] if events is not None else self.reader.event(rec) for i, rec in fresh]
        new = [rec for _, rec in fresh]
        state = self._fold(self.state, new, decoded)
        self._decided = state
        self._publish(state, new, decoded, publish=publish)

    def _fold(
        self, state: TableState, recs: Sequence[Recorded], events: Sequence[Event]
    ) -> TableState:
        """``state`` after ``recs`` (whose decoded events are ``events``). Pure."""
        for rec, event in zip(recs, events, strict=True):
            assert rec.seq == state.seq + 1, f"gap in {self.table_id}: {state.seq} -> {rec.seq}"
            st = core_table.evolve(state, event, self.ruleset)
            state = msgspec.structs.replace(
                st, seq=rec.seq, dice_cursor=st.dice_cursor + rec.draws, head=rec.hash or ""
            )
        return state

    def _publish(
        self,
        state: TableState,
        recs: Sequence[Recorded],
        events: Sequence[Event],
        *,
        publish: bool = True,
    ) -> None:
        """Make durable ``recs`` (ending at ``state``) the published state and send them. Synchronous."""
        self.state = state
        for rec, event in zip(recs, events, strict=True):
            self._remember(rec)
            if publish and self.subscriptions:
                self._deliver(rec, event)
        every = self.hub.snapshot_every
        if every and recs and recs[-1].seq // every > (recs[0].seq - 1) // every:
            self._keep_snapshot(state)
        if state.timers is not self._alarm_for:
            self._arm()

    def _deliver(self, rec: Recorded, event: Event) -> None:
        """Send ``rec`` to every subscriber. An event everyone may see in full (most
        are) has one frame for all, looked up once, not once per subscriber."""
        if rec.audience is not None or rec.command_commitment is not None:
            for sub in list(self.subscriptions):
                sub.deliver(rec, event)
            return
        frame: bytes | None = None
        seq = rec.seq
        for sub in list(self.subscriptions):
            if not sub.live:
                sub.pending.append((rec, event))
            elif seq > sub.last_seq:
                if frame is None:
                    frame = self.frame(rec, event, None)
                sub.sink(frame)
                sub.last_seq = seq

    def _remember(self, rec: Recorded) -> None:
        """Note ``rec``'s command id for repeats; only the last :data:`ACKS_KEPT` stay."""
        cid = rec.command_id
        first, _ = self.acks.get(cid, (rec.seq, rec.seq))
        self.acks[cid] = (first, rec.seq)
        self._ack_actor[cid] = rec.actor
        self._ack_fingerprint[cid] = rec.command_fingerprint
        if len(self.acks) > 2 * ACKS_KEPT:
            for old in list(itertools.islice(self.acks, len(self.acks) - ACKS_KEPT)):
                del self.acks[old]
                self._ack_actor.pop(old, None)
                self._ack_fingerprint.pop(old, None)

    # ------------------------------------------------------------ snapshots and past states

    def _keep_snapshot(self, state: TableState) -> None:
        """Write a snapshot of ``state`` (durable events only) in the background."""
        if state.seq in self._snapshotted or state.seq == 0:
            return
        snap = make_snapshot(state, self.ruleset)
        if snap is None:
            log.warning("snapshot_refused", table_id=self.table_id, seq=state.seq)
            return
        self._snapshotted.add(state.seq)

        async def put() -> None:
            try:
                await self.hub.store.put_snapshot(snap)
            except Exception as e:  # noqa: BLE001 - a cache: a failed write is a slower load, no more
                self._snapshotted.discard(snap.seq)
                log.warning("snapshot_failed", table_id=self.table_id, seq=snap.seq, error=repr(e))

        task = asyncio.ensure_future(put())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _snapshot_at_most(self, seq: int | None) -> TableState | None:
        """The state of the table's snapshot nearest at or below ``seq``, or None.

        A snapshot of another version (the ruleset changed) drops the table's
        snapshots; one that does not decode is ignored: the events are the truth.
        """
        store = self.hub.store
        snap = await store.get_snapshot(self.table_id, at_most=seq)
        if snap is None:
            return None
        if snap.version != snapshot_version(self.ruleset):
            log.info(
                "snapshots_dropped",
                table_id=self.table_id,
                version=snap.version,
                now=snapshot_version(self.ruleset),
            )
            self._snapshotted.clear()
            await store.delete_snapshots(self.table_id)
            return None
        try:
            state = decode_state(snap.data, self.ruleset)
        except Exception as e:  # noqa: BLE001 - a cache that does not read is no cache
            log.warning("snapshot_unreadable", table_id=self.table_id, seq=snap.seq, error=repr(e))
            return None
        if state.table_id != self.table_id or state.seq != snap.seq:
            return None
        self._snapshotted.add(snap.seq)
        return state

    async def _fold_on(
        self, state: TableState, to_seq: int | None, *, remember: bool = False
    ) -> TableState:
        """``state`` folded on up to ``to_seq`` (the stream's end when None), read in
        pages and folded :data:`FOLD_SLICE` events between turns of the event loop;
        a snapshot is kept at each multiple of ``snapshot_every`` passed.
        ``remember``: note the command ids (a load)."""
        every = self.hub.snapshot_every
        while to_seq is None or state.seq < to_seq:
            end = state.seq + FOLD_PAGE if to_seq is None else min(state.seq + FOLD_PAGE, to_seq)
            recs = await self.hub.store.read(self.table_id, after_seq=state.seq, to_seq=end)
            if not recs:
                break
            at = 0
            while at < len(recs):
                stop = at + FOLD_SLICE
                if every:  # slices end on the snapshot seqs
                    nxt = (recs[at].seq // every + 1) * every
                    stop = min(stop, at + nxt - recs[at].seq + 1)
                chunk = recs[at:stop]
                state = self._fold(state, chunk, [self.reader.event(r) for r in chunk])
                if remember:
                    for rec in chunk:
                        self._remember(rec)
                if every and state.seq % every == 0:
                    self._keep_snapshot(state)
                at = stop
                await asyncio.sleep(0)  # let other tables' work through
        return state

    async def past_state(self, seq: int) -> TableState:
        """The table's state right after event ``seq`` (0 to the published seq).

        Folded from the nearest known state at or below it: the last past state asked
        for (a replay stepping on), a snapshot, or the start; never more than
        ``snapshot_every`` events once the table's snapshots exist. Does not block the
        event loop for long (:data:`FOLD_SLICE`).
        """
        seq = max(0, min(seq, self.state.seq))
        if seq == self.state.seq:
            return self.state
        base = self._past if self._past is not None and self._past.seq <= seq else None
        every = self.hub.snapshot_every
        if base is None or (every and seq - base.seq > every):
            snap = await self._snapshot_at_most(seq) if every else None
            if snap is not None and (base is None or snap.seq > base.seq):
                base = snap
        state = await self._fold_on(base or TableState(table_id=self.table_id), seq)
        self._past = state
        return state

    @property
    def options(self) -> Any:
        """The ruleset's options Struct for this table (fixed at creation; built once)."""
        if self._options is None or self._options[0] is not self.state.options:
            self._options = (self.state.options, self.ruleset.make_options(self.state.options))
        return self._options[1]

    async def load(self) -> None:
        """Fold the table from its latest snapshot (or its start) to the stream's end,
        in slices that leave the event loop to other tables."""
        base = await self._snapshot_at_most(None) if self.hub.snapshot_every else None
        state = await self._fold_on(base or TableState(table_id=self.table_id), None, remember=True)
        self.state = self._decided = state
        self._arm()
        if state.unfit_overrides:
            log.warning(
                "overrides_unfit",
                table_id=self.table_id,
                seqs=list(state.unfit_overrides),
                note="stored GM overrides that no longer fit the ruleset changed nothing",
            )
        if self.hub.store.shared:
            self._pump = asyncio.create_task(self._follow(), name=f"taku-follow-{self.table_id}")

    async def _follow(self) -> None:
        """Fold what other nodes append (shared stores only).

        A failed read (the database restarting) does not end the pump: it waits
        and subscribes again after the folded seq, so nothing is skipped.
        """
        delay_s = 0.05
        while True:
            try:
                async for rec in self.hub.store.subscribe(self.table_id, after_seq=self.state.seq):
                    delay_s = 0.05
                    if rec.seq > self.state.seq:
                        async with self.lock:
                            if rec.seq == self.state.seq + 1:
                                self._apply([rec])  # the record in hand: no second read
                            else:
                                await self._catch_up_locked(rec.seq)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - any failed read (a restart): retry, never end
                log.warning(
                    "follow_failed", table_id=self.table_id, error=repr(e), retry_in_s=delay_s
                )
                await asyncio.sleep(delay_s)
                delay_s = min(delay_s * 2, 0.5)  # back within 0.5 s of the database

    async def _catch_up_locked(self, to_seq: int | None = None) -> None:
        if to_seq is not None and to_seq <= self.state.seq:
            return
        self._apply(
            await self.hub.store.read(self.table_id, after_seq=self.state.seq, to_seq=to_seq)
        )

    # ------------------------------------------------------------ timers

    def _arm(self) -> None:
        """Wake up at the earliest armed timer's deadline (by the hub's clock); none armed,
        no wake-up. Called whenever the published timers change (a load, an event)."""
        self._alarm_for = self.state.timers
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if not self.state.timers or not self.hub.timers:
            return
        first = min(t.deadline for t in self.state.timers.values())
        delay_s = (first - self.hub.clock()).total_seconds()
        # at most an hour at a time: a long timer re-reads the clock on the way
        self._alarm = asyncio.get_running_loop().call_later(
            min(max(delay_s, 0.0), 3600.0), self._ring
        )

    def _ring(self) -> None:
        self._alarm = None
        task = asyncio.ensure_future(self.fire_due())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def fire_due(self) -> int:
        """Append ``timer_expired`` (and the ruleset's ``on_timer`` events) for every armed
        timer whose deadline has passed by the hub's clock; returns how many this
        process appended. Each expiry is the server command ``@expire_timer`` with the
        command id ``timer-<timer_id>``: a second expiry of the same timer (another
        node's, or this one's after a restart) is refused by the store's command ids or
        decided on a state where the timer is gone, and ignored."""
        fired = 0
        now = self.hub.clock()
        for timer in sorted(self.state.timers.values(), key=lambda t: t.deadline):
            if timer.deadline > now:
                continue
            expire = core_table.ExpireTimer(timer_id=timer.id)
            try:
                _, _, again = await self.commit(
                    functools.partial(self._decide_expiry, expire),
                    actor=None,
                    command_id=TIMER_COMMAND_ID_PREFIX + timer.id,
                    decided=expire,
                )
            except (InvalidCommand, SeqConflict, DuplicateCommand) as e:
                # another node expired it first (or it was cancelled meanwhile)
                log.info(
                    "timer_not_expired_here", table_id=self.table_id, timer_id=timer.id, code=e.code
                )
                if timer.id in self.state.timers:  # still armed: try again later, not at once
                    self._retry_alarm()
                continue
            except Exception:
                log.exception("timer_expiry_failed", table_id=self.table_id, timer_id=timer.id)
                self._retry_alarm()
                continue
            if not again:
                fired += 1
                log.info("timer_expired", table_id=self.table_id, timer_id=timer.id)
        if self._alarm is None and self.state.timers:
            self._arm()
        return fired

    def _decide_expiry(
        self, expire: core_table.ExpireTimer, state: TableState, ctx: Context
    ) -> list[Emitted]:
        return core_table.decide_server(state, expire, ctx, self.ruleset)

    def _retry_alarm(self) -> None:
        """A failed expiry (the store down): try again in a second."""
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm = asyncio.get_running_loop().call_later(1.0, self._ring)

    async def stop(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        if self._pump is not None:
            self._pump.cancel()
            try:
                await self._pump
            except asyncio.CancelledError:  # the pump retries every failure: it ends cancelled
                pass

    # ------------------------------------------------------------ frames

    def frame(self, rec: Recorded, event: Event, member_id: str | None) -> bytes:
        """The ``event`` message for ``rec`` as ``member_id`` may see it.

        A table has at most two forms of an event (full and redacted); the last
        event's forms are cached, since a broadcast asks for them once per subscriber.
        """
        sees = rec.audience is None or self.state.viewer(member_id).sees(rec.audience)
        knows = _knows_command(rec, member_id)
        cached = self._frames.get((rec.seq, sees, knows))
        if cached is not None and cached[0] is rec:
            return cached[1]
        frame = self._frame(rec, event, sees, knows)
        if len(self._frames) > 8:
            self._frames.clear()
        self._frames[(rec.seq, sees, knows)] = (rec, frame)
        return frame

    def _frame(self, rec: Recorded, event: Event, sees: bool, knows: bool) -> bytes:
        if sees:
            data, shown = self.reader.data(rec, event), event
        else:
            data = rec.redacted_form() or msgspec.Raw(encode(Redacted(of=rec.type)))
            shown = self.decoder.decode(data)
        try:
            text = render(shown, self.state, self.ruleset, rec.actor)
        except Exception:  # a ruleset's render bug must not stop the event reaching anyone
            log.exception("render_failed", table_id=self.table_id, seq=rec.seq, type=rec.type)
            text = rec.type
        return encode(
            EventMsg(
                table_id=rec.table_id,
                seq=rec.seq,
                event=data,
                actor=rec.actor,
                time=rec.time,
                command_id=rec.command_id,
                redacted=shown is not event,
                draws=rec.draws,
                text=text,
                speaker=speaker_of(self.state, shown, rec.actor),
                outcome=outcome(shown),
                audience=list(rec.audience) if sees and rec.audience is not None else None,
                head=chain.short(rec.hash or ""),
                commitment=rec.commitment,
                salt=rec.salt if sees else None,
                stand_in=chain.public_event(rec) if sees and rec.audience is not None else None,
                command=_command_frame(rec, knows),
                command_salt=rec.command_salt if knows else None,
                event_version=rec.event_version,
            )
        )

    def viewer_frames(self, recs: Sequence[Recorded], member_id: str | None) -> list[bytes]:
        """The ``event`` messages of stored ``recs`` as ``member_id`` may see them (a
        catch-up, a log page, an export): built one by one, past the one-event frame
        cache, with today's names and colours."""
        viewer = self.state.viewer(member_id)
        return [
            self._frame(
                r,
                self.reader.event(r),
                r.audience is None or viewer.sees(r.audience),
                _knows_command(r, member_id),
            )
            for r in recs
        ]

    # ------------------------------------------------------------ commands

    def decode_command(self, raw: bytes) -> Command:
        """The command Struct from its JSON (core or this table's ruleset).

        Raises:
            UnknownMessageType: ``protocol/unknown_type`` for a tag this table does not know.
            InvalidFields: ``protocol/invalid_fields``.
        """
        try:
            return self.command_decoder.decode(raw)
        except msgspec.ValidationError as e:
            err = classify(e, raw, self._command_tags)
            if isinstance(err, UnknownMessageType):
                err.message = f"{self.ruleset.id} has no command {err.message.removeprefix('unknown message type ')}"
            raise err from None
        except msgspec.DecodeError as e:
            raise InvalidFields(f"command is not valid JSON: {e}") from None

    async def execute(
        self,
        actor: str,
        command: Command,
        *,
        command_id: str,
        expected_seq: int | None = None,
    ) -> tuple[int, int, bool]:
        """Decide, append and publish one command.

        Returns:
            ``(first_seq, last_seq, duplicate)``; ``duplicate`` when the command id
            was seen before with the same command (nothing new is written; the
            first ack is repeated).

        Raises:
            StaleSeq: ``expected_seq`` is not the table's seq (nothing written).
            InvalidCommand: ``command/id_taken``, the id is another member's.
            CommandIdReused: ``command/id_reused``, the id was sent before with a
                different command (another type or other arguments, compared by
                :func:`~taku.core.commands.fingerprint`); nothing written.
            TakuError: the rejection of ``decide`` (nothing written).
        """
        if isinstance(command, Undo | Redo):
            return await self._undo(actor, command, command_id, expected_seq)

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            return core_table.decide(state, command, ctx, self.ruleset)

        return await self.commit(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint(command),
            decided=command,
        )

    def submit(
        self,
        actor: str,
        command: Command,
        *,
        command_id: str,
        expected_seq: int | None = None,
        reply: Reply,
        received: float = 0.0,
    ) -> None:
        """:meth:`execute` for the server's command path: ``reply`` is called once with
        what :meth:`execute` would return or raise (an exception is passed, not raised).
        ``received`` is when its frame was read (``perf_counter``; for stage timings).

        On a store this process owns, the command is decided now (a rejection is
        replied at once) and the ack is replied from the store's answer, right after
        the command's events went to the subscribers and inside ``hub.publishing``,
        so a connection's event and ack can leave in one write.
        """
        if isinstance(command, Undo | Redo):  # decided on the table's log, read first
            self._answer_later(reply, self._undo(actor, command, command_id, expected_seq))
            return

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            return core_table.decide(state, command, ctx, self.ruleset)

        fp = fingerprint(command)
        if not self.hub.store.shared:
            self._pipeline(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fp,
                reply=reply,
                decided=command,
                received=received,
            )
            return
        task = asyncio.ensure_future(
            self._commit_locked(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fp,
                decided=command,
            )
        )

        def answered(t: asyncio.Task[tuple[int, int, bool]]) -> None:
            if t.cancelled():
                reply(asyncio.CancelledError())
            else:
                exc = t.exception()
                reply(exc if exc is not None else t.result())

        task.add_done_callback(answered)

    async def _undo(
        self, actor: str, command: Undo | Redo, command_id: str, expected_seq: int | None
    ) -> tuple[int, int, bool]:
        """:meth:`execute` for ``undo``/``redo`` (:func:`taku.history.execute_undo`)."""
        from taku.history import execute_undo

        return await execute_undo(self, actor, command, command_id, expected_seq)

    async def commit(
        self,
        decider: Callable[[TableState, Context], list[Emitted]],
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None = None,
        fingerprint: str | None = None,
        decided: msgspec.Struct | None = None,
    ) -> tuple[int, int, bool]:
        """Run ``decider`` on the current state and append its events; see :meth:`execute`.

        ``fingerprint`` is the command's (:func:`~taku.core.commands.fingerprint`),
        kept with its events; None for the server's own commands (joins).
        ``decided`` is the command ``decider`` decides (a member's command, or a
        server command of :data:`~taku.core.table.SERVER_COMMANDS`), logged with
        its events for ``taku verify`` to decide again.
        """
        if self.hub.store.shared:
            return await self._commit_locked(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fingerprint,
                decided=decided,
            )
        future: asyncio.Future[tuple[int, int, bool]] = asyncio.get_running_loop().create_future()
        self._pipeline(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint,
            reply=functools.partial(_settle, future),
            decided=decided,
        )
        return await future

    async def _commit_locked(
        self,
        decider: Callable[[TableState, Context], list[Emitted]],
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
        decided: msgspec.Struct | None = None,
    ) -> tuple[int, int, bool]:
        """A shared store: the table lock orders this node's commands, ``store.exclusive``
        orders the nodes'; a conflict (another node appended) decides again on fresh state."""
        _check_command_id(command_id, actor)
        store = self.hub.store
        async with self.lock, store.exclusive(self.table_id):
            for _attempt in range(MAX_CONFLICT_RETRIES):
                await self._catch_up_locked()
                if command_id in self.acks:
                    return self._repeat(command_id, actor, fingerprint)
                state = self.state
                recs, events = self._decide(
                    state, decider, actor, command_id, expected_seq, fingerprint, decided
                )
                try:
                    with metrics.commit_timer():
                        await store.append(self.table_id, recs, expected_seq=state.seq)
                    metrics.commit_batch(1)  # a shared store: one transaction per append
                except SeqConflict:
                    await (
                        self._catch_up_locked()
                    )  # another node appended: decide again on fresh state
                    continue
                except DuplicateCommand as e:
                    await self._catch_up_locked()
                    if command_id not in self.acks:  # older than the acks kept
                        return await self._stored_repeat(command_id, actor, fingerprint, e)
                    return self._repeat(command_id, actor, fingerprint)
                self._apply(recs, events=events)
                return recs[0].seq, recs[-1].seq, False
            raise SeqConflict("too many concurrent writers on this table; try again")

    def _repeat(
        self, command_id: str, actor: str | None, fingerprint: str | None
    ) -> tuple[int, int, bool]:
        """The first ack of a command sent again; another member's id, or the id with
        another command, is refused, not swallowed."""
        if self._ack_actor.get(command_id) != actor:
            raise _id_taken(command_id)
        _check_same(command_id, self._ack_fingerprint.get(command_id), fingerprint)
        first, last = self.acks[command_id]
        return first, last, True

    async def _stored_repeat(
        self, command_id: str, actor: str | None, fingerprint: str | None, dup: DuplicateCommand
    ) -> tuple[int, int, bool]:
        """:meth:`_repeat` for a command id no longer in :attr:`acks`: the store's
        unique index refused it (``dup`` names its seqs); its first event tells whose
        it was and what command."""
        recs = await self.hub.store.read(
            self.table_id, after_seq=dup.first_seq - 1, to_seq=dup.first_seq
        )
        first = recs[0] if recs else None
        if first is None or first.actor != actor:
            raise _id_taken(command_id)
        _check_same(command_id, first.command_fingerprint, fingerprint)
        return dup.first_seq, dup.last_seq, True

    def _answer_later(self, reply: Reply, outcome: Awaitable[tuple[int, int, bool]]) -> None:
        """Reply with what ``outcome`` gives (or raises) once it is done."""
        task = asyncio.ensure_future(outcome)

        def done(t: asyncio.Future[tuple[int, int, bool]]) -> None:
            self._background.discard(t)
            exc = t.exception() if not t.cancelled() else asyncio.CancelledError()
            with self.hub.publishing:
                _answer(reply, exc if exc is not None else t.result())

        self._background.add(task)
        task.add_done_callback(done)

    def _decide(
        self,
        state: TableState,
        decider: Callable[[TableState, Context], list[Emitted]],
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
        decided: msgspec.Struct | None = None,
    ) -> tuple[list[Recorded], list[Event]]:
        """The records and events of one command decided at ``state`` (pure but for the
        clock and the commitments' salts), chained from ``state.head``."""
        if expected_seq is not None and expected_seq != state.seq:
            raise StaleSeq(
                f"expected seq {expected_seq}, but the table is at {state.seq}",
                expected_seq=expected_seq,
                seq=state.seq,
            )
        seed, next_hash = self._epoch(state)
        dice = self.hub.dice(self.table_id, seed, state.dice_cursor)
        now = self.hub.clock()
        ctx = Context(
            actor=actor,
            role=state.role_of(actor),
            dice=dice,
            options=self.options,
            next_seq=state.seq + 1,
            seed=seed,
            next_seed_hash=next_hash,
            id_offset=state.id_offset,
            now=now,
        )
        start = dice.cursor
        emitted = decider(state, ctx)
        if not emitted:
            raise InvalidCommand("the command changes nothing", code="command/no_effect")
        if not state.seed_open and dice.cursor != start:
            # every later face could be computed from the published seed
            raise InvalidCommand(
                "the dice seed was revealed, so this table rolls no more dice; start a new table",
                code="command/seed_revealed",
            )
        recs = self._records(
            emitted, actor, command_id, state, dice.cursor - start, fingerprint, decided, now
        )
        return recs, [e.event if isinstance(e, Private) else e for e in emitted]

    def _epoch(self, state: TableState) -> tuple[bytes, str]:
        """The current epoch's secret seed and the hash of the next one's (kept per epoch)."""
        key = (state.epoch, state.epochs)
        got = self._seeds.get(key)
        if got is None:
            seed = epoch_seed(self.record.seed, state.epoch, epochs=state.epochs)
            nxt = seed_hash(epoch_seed(self.record.seed, state.epoch + 1)) if state.epochs else ""
            got = self._seeds[key] = (seed, nxt)
        return got

    def _pipeline(
        self,
        decider: Callable[[TableState, Context], list[Emitted]],
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
        reply: Reply,
        decided: msgspec.Struct | None = None,
        received: float = 0.0,
    ) -> None:
        """One process owns the table: decide on the state including appends still in
        flight, so a table's next command needs not wait for the last one's fsync and
        the store's group commit can write both in one transaction. Publishing and acks
        still wait for durability, and happen in seq order.

        Synchronous up to handing the append to the store, so commands are decided
        one at a time without taking ``lock``; the store's answer publishes and replies
        directly (:meth:`_stored`): no task per command.

        A rejection is decided on that state too, and stands even when an append it
        saw later fails (only the commands built on a failed append get
        ``store/retry``): the client sees the same rejection it would have seen had
        the earlier command been refused a moment later.
        """
        outcome: tuple[int, int, bool] | Exception
        try:
            _check_command_id(command_id, actor)
            pending = self._in_flight.get(command_id)
            if command_id in self.acks:
                outcome = self._repeat(command_id, actor, fingerprint)
            elif pending is not None:
                if pending.actor != actor:
                    raise _id_taken(command_id)
                _check_same(command_id, pending.recs[0].command_fingerprint, fingerprint)
                self._queue.append(_InFlight.repeating(pending, reply))  # the queue holds `pending`
                return
            else:
                base = self._decided
                recs, events = self._decide(
                    base, decider, actor, command_id, expected_seq, fingerprint, decided
                )
                after = self._fold(base, recs, events)
                pending = _InFlight(recs, events, after, self._generation, actor, reply)
                if metrics.stages.enabled:
                    now = time.perf_counter()
                    pending.marks = metrics.Marks(received or now, now)
                self.hub.store.append_nowait(
                    self.table_id,
                    recs,
                    expected_seq=base.seq,
                    done=metrics.timed_commit(functools.partial(self._stored, pending)),
                )
                # after append_nowait: a store that refuses at once (closed) leaves nothing half-done
                self._decided = after
                self._in_flight[command_id] = pending
                self._queue.append(pending)
                return
        except Exception as e:  # noqa: BLE001 - a rejection (or a ruleset's bug) goes to the caller
            outcome = e
        self.answer(reply, outcome)

    def answer(self, reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> None:
        """Answer a command whose answer is known at once (a repeat, a rejection, a
        command that does not decode), after the table's commands still in flight:
        a table's answers go out in the order its commands came."""
        if self._queue:
            self._queue.append(_InFlight.answered(reply, outcome))
        else:
            reply(outcome)

    def _stored(self, pending: _InFlight, error: BaseException | None) -> None:
        """The store's answer for one pipelined append; publishes what is durable, in seq order."""
        pending.stored, pending.error = True, error
        queue = self._queue
        timed: list[metrics.Marks] = []
        woke = time.perf_counter() if metrics.stages.enabled else 0.0
        with self.hub.publishing:
            while queue and queue[0].stored:
                p = queue.popleft()
                if p.same_as is not None:
                    first = p.same_as
                    if first.error is None:
                        _answer(p.reply, (first.recs[0].seq, first.recs[-1].seq, True))
                    else:
                        _answer(
                            p.reply, first.outcome if first.outcome is not None else first.error
                        )
                    continue
                if p.outcome is not None:
                    _answer(p.reply, p.outcome)
                    continue
                del self._in_flight[p.recs[0].command_id]
                if p.error is None:
                    try:
                        self._publish(p.after, p.recs, p.events)
                    except Exception:  # durable all the same: the acks still go out
                        log.exception("publish_failed", table_id=self.table_id, seq=p.recs[0].seq)
                    _answer(p.reply, (p.recs[0].seq, p.recs[-1].seq, False))
                    if p.marks is not None:
                        self._mark_published(p.marks, woke)
                        timed.append(p.marks)
                    continue
                if p.generation == self._generation:
                    # nothing of this command is durable, and the commands decided after it
                    # built on it: they fail too; new commands start from the published state
                    self._generation += 1
                    self._decided = self.state
                    err = p.error
                    if isinstance(err, DuplicateCommand):
                        # an id older than the acks kept: the store's index knew it
                        self._answer_later(
                            p.reply,
                            self._stored_repeat(
                                p.recs[0].command_id, p.actor, p.recs[0].command_fingerprint, err
                            ),
                        )
                        continue
                else:
                    err = StoreError(
                        "an earlier command on this table failed to be stored; send this one again",
                        code="store/retry",
                    )
                    err.__cause__ = p.error
                p.outcome = err  # what a repeat of this command id is answered
                _answer(p.reply, err)
        if timed:
            written = time.perf_counter()
            for marks in timed:
                metrics.stages.observe(marks, written)

    @staticmethod
    def _mark_published(marks: metrics.Marks, woke: float) -> None:
        """Stage timings: ``marks``' command was just published, its answer having
        started at ``woke`` (the store's batch times, when it has a writer thread)."""
        batch = metrics.stages.batch
        if batch is not None:
            marks.picked, marks.committed, marks.woke = batch
        else:
            marks.woke = woke
        marks.published = time.perf_counter()

    def _records(
        self,
        emitted: Sequence[Emitted],
        actor: str | None,
        command_id: str,
        state: TableState,
        draws: int,
        fingerprint: str | None = None,
        decided: msgspec.Struct | None = None,
        now: dt.datetime | None = None,
    ) -> list[Recorded]:
        """The records of one command decided at ``state`` (at ``now``, the command's
        ``ctx.now``): hidden events with their commitments, the command on the first,
        all chained from ``state.head``."""
        now = now or self.hub.clock()
        seq = state.seq
        allowed = self.hub.core_events + self.ruleset.events
        out: list[Recorded] = []
        hidden = any(isinstance(item, Private) for item in emitted) or (
            decided is not None
            and self.ruleset.hides_command is not None
            and self.ruleset.hides_command(decided, emitted)
        )
        for i, item in enumerate(emitted):
            audience: tuple[str, ...] | None = None
            redacted = NO_JSON
            salt = commitment = None
            if isinstance(item, Private):
                event = item.event
                audience = tuple(item.audience)
                red = item.redacted or Redacted(of=tag_of(type(event)))
                redacted = msgspec.Raw(encode(red))
            else:
                event = item
            assert isinstance(event, allowed), (
                f"{type(event).__name__} is not an event of {self.ruleset.id}"
            )
            tag = tag_of(type(event))
            data = msgspec.Raw(encode(event))
            if audience is not None:
                salt = secrets.token_hex(16)
                commitment = chain.commitment(salt, data)
            command = NO_JSON
            command_salt = command_commitment = None
            if i == 0 and decided is not None:
                command = msgspec.Raw(
                    encode({"decided": decided, "version": self.ruleset.version, "at": seq})
                )
                if hidden:  # its arguments may tell what its hidden events hide (a whisper)
                    command_salt = secrets.token_hex(16)
                    command_commitment = chain.commitment(command_salt, command)
            out.append(
                Recorded(
                    table_id=self.table_id,
                    seq=seq + 1 + i,
                    type=tag,
                    data=data,
                    actor=actor,
                    time=now,
                    command_id=command_id,
                    audience=audience,
                    redacted=redacted,
                    draws=draws if i == len(emitted) - 1 else 0,
                    command_fingerprint=fingerprint,
                    event_version=type(event).version,
                    commitment=commitment,
                    salt=salt,
                    command=command,
                    command_commitment=command_commitment,
                    command_salt=command_salt,
                )
            )
        prev = state.head or chain.genesis(self.table_id, state.seed_hash, seq)
        return chain.seal(out, prev)

    # ------------------------------------------------------------ reading

    async def subscribe(
        self,
        member_id: str | None,
        sink: Callable[[bytes], None],
        after_seq: int,
        *,
        send_page: Callable[[list[bytes]], None] | None = None,
        drain: Callable[[], Awaitable[None]] | None = None,
        page_bytes: int = CATCH_UP_PAGE_BYTES,
    ) -> Subscription:
        """Send ``sink`` the events after ``after_seq``, then live ones. Returns when live.

        The catch-up is read from the store and sent in pages (at most
        :data:`CATCH_UP_PAGE` events and ``page_bytes`` bytes each, to
        ``send_page`` when given, else frame by frame to ``sink``), awaiting ``drain``
        (the connection's socket taking what was written) between pages, so a reader
        of any speed is never left with a backlog it did not cause. Events published
        meanwhile are held and sent after the catch-up, in order, with no gap and no
        repeat; when they grow past a page the catch-up goes on from the store.
        ``drain`` raising (the connection went away) ends the subscription.
        """
        async with self.lock:
            head = self.state.seq
            # a seq past the table's end (a client that remembers more than exists) starts live
            sub = Subscription(self, member_id, sink, last_seq=min(max(after_seq, 0), head))
            self.subscriptions.add(sub)
            metrics.subscribers_changed(+1)
        try:
            await self._catch_up_subscription(sub, head, send_page, drain, page_bytes)
        except BaseException:
            self.unsubscribe(sub)
            raise
        # what was published meanwhile (all > last_seq); no await between flush and going live
        pending, sub.pending = sub.pending, []
        sub.live = True
        for rec, event in pending:
            sub.deliver(rec, event)
        return sub

    async def _catch_up_subscription(
        self,
        sub: Subscription,
        target: int,
        send_page: Callable[[list[bytes]], None] | None,
        drain: Callable[[], Awaitable[None]] | None,
        page_bytes: int,
    ) -> None:
        """Send ``sub`` the stored events up to ``target`` (and on, while live events pile up).

        The next page is read from the store while this one is framed and sent."""
        store, tid = self.hub.store, self.table_id
        ahead: asyncio.Future[list[Recorded]] | None = None

        def read_after(seq: int) -> asyncio.Future[list[Recorded]]:
            return asyncio.ensure_future(
                store.read(tid, after_seq=seq, to_seq=min(seq + CATCH_UP_PAGE, target))
            )

        try:
            while True:
                while sub.last_seq < target:
                    recs = await (ahead or read_after(sub.last_seq))
                    ahead = None
                    if not recs:
                        break
                    last = recs[-1].seq
                    if last < target:
                        ahead = read_after(last)
                    frames = self.viewer_frames(recs, sub.member_id)
                    at = 0
                    while at < len(frames):
                        size, end = 0, at
                        while end < len(frames) and (end == at or size < page_bytes):
                            size += len(frames[end])
                            end += 1
                        if send_page is not None:
                            send_page(frames[at:end])
                        else:
                            for f in frames[at:end]:
                                sub.sink(f)
                        at = end
                        if drain is not None:
                            await drain()
                    sub.last_seq = last
                    metrics.catch_up_sent(len(recs))
                    if len(sub.pending) > CATCH_UP_PAGE:
                        sub.pending = [p for p in sub.pending if p[0].seq > last]
                if len(sub.pending) <= CATCH_UP_PAGE or self.state.seq <= sub.last_seq:
                    return
                target = self.state.seq  # a busy table: catch up on what it published meanwhile
        finally:
            if ahead is not None:
                ahead.cancel()

    def unsubscribe(self, sub: Subscription) -> None:
        if sub in self.subscriptions:
            self.subscriptions.discard(sub)
            metrics.subscribers_changed(-1)

    async def state_at(self, viewer: Viewer, at_seq: int | None = None) -> dict[str, Any]:
        """The table as ``viewer`` may see it, now or folded up to ``at_seq`` (the ``state`` of :meth:`view_at`)."""
        return (await self.view_at(viewer, at_seq)).state

    async def view_at(self, viewer: Viewer, at_seq: int | None = None) -> StateView:
        """The table as ``viewer`` may see it, now or folded up to ``at_seq``, with the
        viewer's affordances (none at an earlier seq) and the turn."""
        state = self.state
        past = at_seq is not None and at_seq < state.seq
        if past:
            state = await self.past_state(at_seq or 0)
        return StateView(
            state=core_table.view(state, viewer, self.ruleset),
            affordances=[] if past else core_table.affordances(state, viewer, self.ruleset),
            turn=core_table.turn(state, self.ruleset),
        )

    async def log_frames(self, member_id: str | None, after_seq: int, limit: int) -> list[bytes]:
        """Up to ``limit`` (1 to 5,000) event frames after ``after_seq``, and at most
        :data:`LOG_PAGE_BYTES` of them (one event at least): one ``log`` message stays
        a reasonable frame however big the events; the caller pages on the last seq."""
        limit = max(1, min(limit, 5000))
        # up to the published seq: an event already durable but not yet sent to the
        # subscribers is not shown here before it is there
        to_seq = min(after_seq + limit, self.state.seq)
        out: list[bytes] = []
        size = 0
        while after_seq < to_seq and size < LOG_PAGE_BYTES:
            end = min(after_seq + CATCH_UP_PAGE, to_seq)
            recs = await self.hub.store.read(self.table_id, after_seq=after_seq, to_seq=end)
            if not recs:
                break
            for frame in self.viewer_frames(recs, member_id):
                if out and size + len(frame) > LOG_PAGE_BYTES:
                    return out
                out.append(frame)
                size += len(frame)
            after_seq = recs[-1].seq
        return out

    async def export(self, fmt: str, member_id: str | None = None) -> str:
        """The table's log up to the published seq as ``fmt`` (:func:`taku.export.export`),
        in the public's view or as ``member_id`` received it (their own hidden events and
        hidden commands in full, with their salts)."""
        from taku.export import export

        recs = await self.hub.store.read(self.table_id, to_seq=self.state.seq)
        return export(self, recs, fmt, member_id=member_id)  # type: ignore[arg-type]


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


def _command_frame(rec: Recorded, knows: bool) -> msgspec.Raw | None:
    """The ``command`` of ``rec``'s frame: the record, or the commitment to a hidden one."""
    if bytes(rec.command) == b"null":
        return None
    if knows or rec.command_commitment is None:
        return rec.command
    return msgspec.Raw(encode({"commitment": rec.command_commitment}))


def _knows_command(rec: Recorded, member_id: str | None) -> bool:
    """Whether ``member_id`` gets ``rec``'s command in clear: a hidden command's
    arguments (a whisper's text, cards given from a hand …) are for its sender only."""
    return rec.command_commitment is None or (member_id is not None and member_id == rec.actor)


#: the prefix of the server's own command ids for a timer's expiry (``timer-<timer_id>``,
#: predictable): a member may not send a command with one (it would keep the timer from
#: ever expiring)
TIMER_COMMAND_ID_PREFIX = "timer-"


def _check_command_id(command_id: str, actor: str | None = None) -> None:
    if not command_id or len(command_id) > 128:
        raise InvalidCommand("a command id has 1 to 128 characters", code="command/invalid_id")
    if actor is not None and command_id.startswith(TIMER_COMMAND_ID_PREFIX):
        raise _id_taken(command_id)


def _answer(reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> None:
    """Call a reply; one caller's failure must not stop the table's publication."""
    try:
        reply(outcome)
    except Exception:
        log.exception("reply_failed")


def _settle(future: asyncio.Future[Any], outcome: Any) -> None:
    """Complete ``future`` with a result or an exception, unless its waiter went away."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
        future.exception()  # retrieved: a waiter that went away leaves no warning
    else:
        future.set_result(outcome)


def _id_taken(command_id: str) -> InvalidCommand:
    return InvalidCommand(
        f"command id {command_id!r} was already used by another member; use unique ids (e.g. UUIDs)",
        code="command/id_taken",
    )


def _check_same(command_id: str, first: str | None, again: str | None) -> None:
    """Refuse a command id sent again with another command (:class:`~taku.errors.CommandIdReused`).

    Events stored before taku kept fingerprints (``first`` None) repeat their ack
    as before: nothing to compare with.
    """
    if first is not None and again is not None and first != again:
        raise CommandIdReused(
            f"command id {command_id!r} was already used for a different command; "
            "a repeat must send the same command, a new command needs a new id (e.g. a UUID)",
            command_id=command_id,
        )


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
        self.publishing: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        """Entered around each publication of durable events and their acks: the
        server sets it to hold each connection's frames until it is left, then
        write them together (one write, not one per frame)."""
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
            and not table._in_flight
            and not table._queue
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
        recs = [
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
