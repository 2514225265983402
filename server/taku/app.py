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
import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from taku.core import table as core_table
from taku.core.commands import Command, fingerprint
from taku.core.dice import DiceSource, SeededDice, seed_hash
from taku.core.events import Event, Private, Recorded, Redacted, TableSettings
from taku.core.play import Affordance, Turn
from taku.core.render import render
from taku.core.ruleset import Context, Emitted, Role, Ruleset, Viewer
from taku.core.table import TableState
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
from taku.protocol import EventMsg, classify, encode
from taku.store.base import EventStore, TableRecord, TokenRecord

__all__ = [
    "CreatedTable",
    "DiceFactory",
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


def hash_token(token: str) -> str:
    """The only form in which a token is stored: SHA-256 hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def _seeded(table_id: str, seed: bytes, cursor: int) -> DiceSource:
    return SeededDice(seed, cursor)


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
class Joined:
    table_id: str
    member_id: str
    role: str
    seq: int
    member_token: str | None


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
        self.decoder = core_table.event_decoder(ruleset)
        self.command_decoder = core_table.command_decoder(ruleset)
        self._command_tags = {t.__struct_config__.tag for t in hub.core_commands + ruleset.commands}
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
        self._frames: dict[tuple[int, bool], tuple[Recorded, bytes]] = {}
        self._options: tuple[Any, Any] | None = None
        self._pump: asyncio.Task[None] | None = None

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
        decoded = [
            events[i] if events is not None else self.decoder.decode(rec.data) for i, rec in fresh
        ]
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
            state = msgspec.structs.replace(st, seq=rec.seq, dice_cursor=st.dice_cursor + rec.draws)
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
            first, _ = self.acks.get(rec.command_id, (rec.seq, rec.seq))
            self.acks[rec.command_id] = (first, rec.seq)
            self._ack_actor[rec.command_id] = rec.actor
            self._ack_fingerprint[rec.command_id] = rec.command_fingerprint
            if publish:
                for sub in list(self.subscriptions):
                    sub.deliver(rec, event)

    @property
    def options(self) -> Any:
        """The ruleset's options Struct for this table (fixed at creation; built once)."""
        if self._options is None or self._options[0] is not self.state.options:
            self._options = (self.state.options, self.ruleset.make_options(self.state.options))
        return self._options[1]

    async def load(self) -> None:
        self._apply(await self.hub.store.read(self.table_id), publish=False)
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
            except Exception as e:
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

    async def stop(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            try:
                await self._pump
            except (asyncio.CancelledError, Exception):
                pass

    # ------------------------------------------------------------ frames

    def frame(self, rec: Recorded, event: Event, member_id: str | None) -> bytes:
        """The ``event`` message for ``rec`` as ``member_id`` may see it.

        A table has at most two forms of an event (full and redacted); the last
        event's forms are cached, since a broadcast asks for them once per subscriber.
        """
        sees = rec.audience is None or self.state.viewer(member_id).sees(rec.audience)
        cached = self._frames.get((rec.seq, sees))
        if cached is not None and cached[0] is rec:
            return cached[1]
        frame = self._frame(rec, event, sees)
        if len(self._frames) > 8:
            self._frames.clear()
        self._frames[(rec.seq, sees)] = (rec, frame)
        return frame

    def _frame(self, rec: Recorded, event: Event, sees: bool) -> bytes:
        if sees:
            data, shown = rec.data, event
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
            )
        )

    def viewer_frames(self, recs: Sequence[Recorded], member_id: str | None) -> list[bytes]:
        return [self.frame(r, self.decoder.decode(r.data), member_id) for r in recs]

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

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            return core_table.decide(state, command, ctx, self.ruleset)

        return await self.commit(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint(command),
        )

    def submit(
        self,
        actor: str,
        command: Command,
        *,
        command_id: str,
        expected_seq: int | None = None,
        reply: Reply,
    ) -> None:
        """:meth:`execute` for the server's command path: ``reply`` is called once with
        what :meth:`execute` would return or raise (an exception is passed, not raised).

        On a store this process owns, the command is decided now (a rejection is
        replied at once) and the ack is replied from the store's answer, right after
        the command's events went to the subscribers and inside ``hub.publishing``,
        so a connection's event and ack can leave in one write.
        """

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
            )
            return
        task = asyncio.ensure_future(
            self._commit_locked(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fp,
            )
        )

        def answered(t: asyncio.Task[tuple[int, int, bool]]) -> None:
            if t.cancelled():
                reply(asyncio.CancelledError())
            else:
                exc = t.exception()
                reply(exc if exc is not None else t.result())

        task.add_done_callback(answered)

    async def commit(
        self,
        decider: Callable[[TableState, Context], list[Emitted]],
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None = None,
        fingerprint: str | None = None,
    ) -> tuple[int, int, bool]:
        """Run ``decider`` on the current state and append its events; see :meth:`execute`.

        ``fingerprint`` is the command's (:func:`~taku.core.commands.fingerprint`),
        kept with its events; None for the server's own commands (joins).
        """
        if self.hub.store.shared:
            return await self._commit_locked(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fingerprint,
            )
        future: asyncio.Future[tuple[int, int, bool]] = asyncio.get_running_loop().create_future()
        self._pipeline(
            decider,
            actor=actor,
            command_id=command_id,
            expected_seq=expected_seq,
            fingerprint=fingerprint,
            reply=functools.partial(_settle, future),
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
    ) -> tuple[int, int, bool]:
        """A shared store: the table lock orders this node's commands, ``store.exclusive``
        orders the nodes'; a conflict (another node appended) decides again on fresh state."""
        _check_command_id(command_id)
        store = self.hub.store
        async with self.lock, store.exclusive(self.table_id):
            for _attempt in range(MAX_CONFLICT_RETRIES):
                await self._catch_up_locked()
                if command_id in self.acks:
                    return self._repeat(command_id, actor, fingerprint)
                state = self.state
                recs, events = self._decide(
                    state, decider, actor, command_id, expected_seq, fingerprint
                )
                try:
                    await store.append(self.table_id, recs, expected_seq=state.seq)
                except SeqConflict:
                    await (
                        self._catch_up_locked()
                    )  # another node appended: decide again on fresh state
                    continue
                except DuplicateCommand:
                    await self._catch_up_locked()
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

    def _decide(
        self,
        state: TableState,
        decider: Callable[[TableState, Context], list[Emitted]],
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
    ) -> tuple[list[Recorded], list[Event]]:
        """The records and events of one command decided at ``state`` (pure but for the clock)."""
        if expected_seq is not None and expected_seq != state.seq:
            raise StaleSeq(
                f"expected seq {expected_seq}, but the table is at {state.seq}",
                expected_seq=expected_seq,
                seq=state.seq,
            )
        dice = self.hub.dice(self.table_id, self.record.seed, state.dice_cursor)
        ctx = Context(
            actor=actor,
            role=state.role_of(actor),
            dice=dice,
            options=self.options,
            next_seq=state.seq + 1,
            seed=self.record.seed,
        )
        start = dice.cursor
        emitted = decider(state, ctx)
        if not emitted:
            raise InvalidCommand("the command changes nothing", code="command/no_effect")
        if state.seed is not None and dice.cursor != start:
            # every later face could be computed from the published seed
            raise InvalidCommand(
                "the dice seed was revealed, so this table rolls no more dice; start a new table",
                code="command/seed_revealed",
            )
        recs = self._records(
            emitted, actor, command_id, state.seq, dice.cursor - start, fingerprint
        )
        return recs, [e.event if isinstance(e, Private) else e for e in emitted]

    def _pipeline(
        self,
        decider: Callable[[TableState, Context], list[Emitted]],
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
        reply: Reply,
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
            _check_command_id(command_id)
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
                    base, decider, actor, command_id, expected_seq, fingerprint
                )
                after = self._fold(base, recs, events)
                pending = _InFlight(recs, events, after, self._generation, actor, reply)
                self.hub.store.append_nowait(
                    self.table_id,
                    recs,
                    expected_seq=base.seq,
                    done=functools.partial(self._stored, pending),
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
                    continue
                if p.generation == self._generation:
                    # nothing of this command is durable, and the commands decided after it
                    # built on it: they fail too; new commands start from the published state
                    self._generation += 1
                    self._decided = self.state
                    err = p.error
                else:
                    err = StoreError(
                        "an earlier command on this table failed to be stored; send this one again",
                        code="store/retry",
                    )
                    err.__cause__ = p.error
                p.outcome = err  # what a repeat of this command id is answered
                _answer(p.reply, err)

    def _records(
        self,
        emitted: Sequence[Emitted],
        actor: str | None,
        command_id: str,
        seq: int,
        draws: int,
        fingerprint: str | None = None,
    ) -> list[Recorded]:
        now = self.hub.clock()
        allowed = self.hub.core_events + self.ruleset.events
        out: list[Recorded] = []
        for i, item in enumerate(emitted):
            audience: tuple[str, ...] | None = None
            redacted = msgspec.Raw(b"null")
            if isinstance(item, Private):
                event = item.event
                audience = tuple(item.audience)
                red = item.redacted or Redacted(of=type(event).__struct_config__.tag)
                redacted = msgspec.Raw(encode(red))
            else:
                event = item
            assert isinstance(event, allowed), (
                f"{type(event).__name__} is not an event of {self.ruleset.id}"
            )
            out.append(
                Recorded(
                    table_id=self.table_id,
                    seq=seq + 1 + i,
                    type=type(event).__struct_config__.tag,
                    data=msgspec.Raw(encode(event)),
                    actor=actor,
                    time=now,
                    command_id=command_id,
                    audience=audience,
                    redacted=redacted,
                    draws=draws if i == len(emitted) - 1 else 0,
                    command_fingerprint=fingerprint,
                )
            )
        return out

    # ------------------------------------------------------------ reading

    async def subscribe(
        self, member_id: str | None, sink: Callable[[bytes], None], after_seq: int
    ) -> Subscription:
        """Send ``sink`` the events after ``after_seq``, then live ones. Returns when live."""
        async with self.lock:
            head = self.state.seq
            # a seq past the table's end (a client that remembers more than exists) starts live
            sub = Subscription(self, member_id, sink, last_seq=min(max(after_seq, 0), head))
            self.subscriptions.add(sub)
        if after_seq < head:
            for rec in await self.hub.store.read(self.table_id, after_seq=after_seq, to_seq=head):
                sink(self.frame(rec, self.decoder.decode(rec.data), member_id))
            sub.last_seq = head
        # what was published meanwhile (all > head); no await between flush and going live
        pending, sub.pending = sub.pending, []
        sub.live = True
        for rec, event in pending:
            sub.deliver(rec, event)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self.subscriptions.discard(sub)

    async def state_at(self, viewer: Viewer, at_seq: int | None = None) -> dict[str, Any]:
        """The table as ``viewer`` may see it, now or folded up to ``at_seq`` (the ``state`` of :meth:`view_at`)."""
        return (await self.view_at(viewer, at_seq)).state

    async def view_at(self, viewer: Viewer, at_seq: int | None = None) -> StateView:
        """The table as ``viewer`` may see it, now or folded up to ``at_seq``, with the
        viewer's affordances (none at an earlier seq) and the turn."""
        state = self.state
        past = at_seq is not None and at_seq < state.seq
        if past:
            state = core_table.fold(
                TableState(table_id=self.table_id),
                await self.hub.store.read(self.table_id, to_seq=max(at_seq or 0, 0)),
                self.ruleset,
                self.decoder,
            )
        return StateView(
            state=core_table.view(state, viewer, self.ruleset),
            affordances=[] if past else core_table.affordances(state, viewer, self.ruleset),
            turn=core_table.turn(state, self.ruleset),
        )

    async def log_frames(self, member_id: str | None, after_seq: int, limit: int) -> list[bytes]:
        limit = max(1, min(limit, 5000))
        # up to the published seq: an event already durable but not yet sent to the
        # subscribers is not shown here before it is there
        to_seq = min(after_seq + limit, self.state.seq)
        if to_seq <= after_seq:
            return []
        recs = await self.hub.store.read(self.table_id, after_seq=after_seq, to_seq=to_seq)
        return self.viewer_frames(recs, member_id)


def _check_command_id(command_id: str) -> None:
    if not command_id or len(command_id) > 128:
        raise InvalidCommand("a command id has 1 to 128 characters", code="command/invalid_id")


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
        clock: UTC ``datetime`` for event times.
    """

    def __init__(
        self,
        store: EventStore,
        registry: Registry,
        *,
        dice: DiceFactory = _seeded,
        clock: Callable[[], dt.datetime] = _utcnow,
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

    async def close(self) -> None:
        for t in self._tables.values():
            await t.stop()
        self._tables.clear()

    def loaded(self, table_id: str) -> TableService | None:
        """The table if it is open already (no wait), else None: see :meth:`table`."""
        return self._tables.get(table_id)

    async def table(self, table_id: str) -> TableService:
        """The open table, loaded (folded from the store) on first use.

        Raises:
            TableNotFound: ``table/not_found``.
        """
        t = self._tables.get(table_id)
        if t is not None:
            return t
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
            fut.set_result(t)
            return t
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            del self._loading[table_id]

    async def create_table(
        self,
        *,
        ruleset: str,
        name: str = "",
        options: dict[str, Any] | None = None,
        gm_name: str = "GM",
        settings: TableSettings | None = None,
    ) -> CreatedTable:
        """A new table with its GM. Returns the GM's token and the two invite tokens.

        Raises:
            UnknownRuleset: ``table/unknown_ruleset``.
            InvalidCommand: bad options or names.
        """
        rs = self.registry.get(ruleset)
        table_id = "t" + secrets.token_hex(6)
        seed = secrets.token_bytes(32)
        gm_id = "m2"  # the GM's member_joined is the table's second event
        events = core_table.creation_events(
            name=name,
            ruleset=rs,
            options=options or {},
            seed_hash=seed_hash(seed),
            gm_id=gm_id,
            gm_name=gm_name,
            settings=settings,
        )
        now = self.clock()
        command_id = "create-" + table_id
        recs = [
            Recorded(
                table_id=table_id,
                seq=i + 1,
                type=type(e).__struct_config__.tag,
                data=msgspec.Raw(encode(e)),
                actor=None if i == 0 else gm_id,
                time=now,
                command_id=command_id,
            )
            for i, e in enumerate(events)
        ]
        record = TableRecord(
            table_id=table_id, ruleset=rs.id, name=name, created=now.isoformat(), seed=seed
        )
        await self.store.create_table(record, recs, command_id)
        tokens = {role: secrets.token_urlsafe(24) for role in ("gm", "player", "spectator")}
        await self.store.add_token(
            TokenRecord(
                token_hash=hash_token(tokens["gm"]),
                table_id=table_id,
                role=Role.GM,
                member_id=gm_id,
            )
        )
        for role in ("player", "spectator"):
            await self.store.add_token(
                TokenRecord(token_hash=hash_token(tokens[role]), table_id=table_id, role=role)
            )
        log.info("table_created", table_id=table_id, ruleset=rs.id)
        return CreatedTable(table_id, gm_id, tokens["gm"], tokens["player"], tokens["spectator"])

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
                role = member.role
                await table.commit(
                    lambda s, c: [core_table.join_event(mid, member.name, role)],
                    actor=mid,
                    command_id="rejoin-" + secrets.token_hex(8),
                )
            return Joined(table_id, mid, table.state.role_of(mid), table.state.seq, None)
        member_token = secrets.token_urlsafe(24)
        holder: dict[str, str] = {}

        def decider(state: TableState, ctx: Context) -> list[Emitted]:
            holder["id"] = mid = ctx.new_id("m")
            return [core_table.join_event(mid, name or f"{found.role}{ctx.next_seq}", found.role)]

        first, _, _ = await table.commit(
            decider, actor=None, command_id="join-" + secrets.token_hex(8)
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
