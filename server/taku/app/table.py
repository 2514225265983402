"""One table: its folded state, snapshots and past states, its subscribers, timers.

:class:`TableService` folds the table's durable events into ``state`` (a
:class:`~taku.core.table.TableState`; ``seq`` is the last published event) and
keeps ``_decided``, the state new commands are decided on (``state`` plus the
appends still in flight, on a store this process owns). It owns two helpers:
``commands`` (:mod:`taku.app.commands`, the command path: one of two strategies,
chosen from ``hub.store.shared``) and ``frames`` (:mod:`taku.app.frames`, the
per-viewer event frames and their delivery to ``subscriptions``).

Subscriptions catch up from the store and then switch to live events with no
gap and no repeat: a subscription is registered at the published seq, reads
the store up to that seq, then flushes what was published meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import structlog

from taku import app as _app
from taku import metrics
from taku.app.commands import (
    TIMER_COMMAND_ID_PREFIX,
    CommandPath,
    Locked,
    Pipelined,
    Reply,
    _settle,
)
from taku.app.frames import Frames, Subscription
from taku.core import table as core_table
from taku.core.commands import Command, Redo, Undo, fingerprint
from taku.core.events import Event, Recorded
from taku.core.play import Affordance, Turn
from taku.core.ruleset import Context, Emitted, Ruleset, Viewer
from taku.core.table import TableState
from taku.core.upcast import EventReader
from taku.errors import (
    DuplicateCommand,
    InvalidCommand,
    InvalidFields,
    SeqConflict,
    UnknownMessageType,
)
from taku.protocol import classify
from taku.snapshots import decode_state, make_snapshot, snapshot_version
from taku.store.base import TableRecord

if TYPE_CHECKING:
    from taku.app.hub import Hub

log = structlog.get_logger("taku.app")

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

ACKS_KEPT = 1000
"""Command ids a table remembers in memory (the most recent); an older repeat is
answered from the store's unique index of command ids. Read through the package
(``taku.app.ACKS_KEPT``) at each use, so a test can lower it."""


@dataclass(frozen=True)
class StateView:
    """What a ``state`` message carries: the viewer's view, affordances and the turn."""

    state: dict[str, Any]
    affordances: list[Affordance]
    turn: Turn | None


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
        self.lock = asyncio.Lock()
        """Held by a command on a shared store, by the pump folding other nodes' appends,
        and while a subscription registers."""
        self.subscriptions: set[Subscription] = set()
        self.commands: CommandPath = Locked(self) if hub.store.shared else Pipelined(self)
        """The command path (:mod:`taku.app.commands`): locked on a shared store, else pipelined."""
        self.frames = Frames(self)
        """The per-viewer event frames and their delivery to ``subscriptions``."""
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
                self.frames.deliver(rec, event)
        every = self.hub.snapshot_every
        if every and recs and recs[-1].seq // every > (recs[0].seq - 1) // every:
            self._keep_snapshot(state)
        if state.timers is not self._alarm_for:
            self._arm()

    def _remember(self, rec: Recorded) -> None:
        """Note ``rec``'s command id for repeats; only the last :data:`ACKS_KEPT` stay."""
        kept = _app.ACKS_KEPT
        cid = rec.command_id
        first, _ = self.acks.get(cid, (rec.seq, rec.seq))
        self.acks[cid] = (first, rec.seq)
        self._ack_actor[cid] = rec.actor
        self._ack_fingerprint[cid] = rec.command_fingerprint
        if len(self.acks) > 2 * kept:
            for old in list(itertools.islice(self.acks, len(self.acks) - kept)):
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
        """The ``event`` message for ``rec`` as ``member_id`` may see it (:meth:`Frames.frame`)."""
        return self.frames.frame(rec, event, member_id)

    def viewer_frames(self, recs: Sequence[Recorded], member_id: str | None) -> list[bytes]:
        """The ``event`` messages of stored ``recs`` as ``member_id`` may see them (a
        catch-up, a log page, an export): built one by one, past the one-event frame
        cache, with today's names and colours."""
        return self.frames.viewer_frames(recs, member_id)

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
        future: asyncio.Future[tuple[int, int, bool]] = asyncio.get_running_loop().create_future()
        self.submit(
            actor,
            command,
            command_id=command_id,
            expected_seq=expected_seq,
            reply=functools.partial(_settle, future),
        )
        return await future

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
            self.commands.answer_later(reply, self._undo(actor, command, command_id, expected_seq))
            return

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            return core_table.decide(state, command, ctx, self.ruleset)

        self.commands.run(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint(command),
            decided=command,
            reply=reply,
            received=received,
        )

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

        Once handed to the command path the command runs to its answer, whether or
        not the caller still waits for it.
        """
        future: asyncio.Future[tuple[int, int, bool]] = asyncio.get_running_loop().create_future()
        self.commands.run(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint,
            decided=decided,
            reply=functools.partial(_settle, future),
        )
        return await future

    def answer(self, reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> None:
        """Answer a command whose answer is known at once (a repeat, a rejection, a
        command that does not decode), after the table's commands still in flight:
        a table's answers go out in the order its commands came."""
        self.commands.answer(reply, outcome)

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
