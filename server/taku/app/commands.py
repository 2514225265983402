"""The command path of one table: decide, append, publish in seq order, answer.

A command enters as a *decider* (:data:`Decider`, ``(TableState, Context) ->
list[Emitted]``) with its actor (a member id, or None for the server), its command
id, the seq it expects (or None), its fingerprint and the command Struct it decides;
it leaves as exactly one call of its :data:`Reply`, with ``(first_seq, last_seq,
duplicate)`` or the exception. :meth:`CommandPath.run` is the one entry:
:meth:`TableService.submit <taku.app.TableService.submit>` (the server's path, a
callback), :meth:`~taku.app.TableService.commit` and
:meth:`~taku.app.TableService.execute` (awaitables) are thin wrappers over it.

Why two strategies, chosen once per table by the store (``EventStore.shared``):

- :class:`Pipelined` (a store this process owns: memory, SQLite). Nobody else
  appends to the table, so the next command is decided on the state that includes
  the appends still in flight (``TableService._decided``) and a busy table's
  commands share the store's group commit instead of waiting one fsync each.
  Deciding is synchronous up to ``store.append_nowait``; the store's callback
  publishes and answers (:meth:`Pipelined.stored`), in seq order, inside
  ``hub.publishing``: no task and no extra turn of the event loop per command.
- :class:`Locked` (a shared store: PostgreSQL, several nodes). Another node may
  append at any time, so a command is decided on the stored head only: the table's
  lock orders this node's commands, ``store.exclusive`` the nodes', and a
  :class:`~taku.errors.SeqConflict` (another node appended first) catches up and
  decides again. Pipelining there would decide on a state another node may already
  have made stale; locking here would give up the group commit (one fsync per
  command), so neither strategy can serve both kinds of store.

Both answer a repeated command id with its first ack (:meth:`CommandPath.repeat`,
:meth:`CommandPath.stored_repeat` for an id older than the acks kept) and refuse
another member's id or the id with another command.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import datetime as dt
import functools
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec
import structlog

from taku import metrics
from taku.core import chain
from taku.core.dice import epoch_seed, seed_hash
from taku.core.events import NO_JSON, Event, Private, Recorded, Redacted, tag_of
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import (
    CommandIdReused,
    DuplicateCommand,
    InvalidCommand,
    SeqConflict,
    StaleSeq,
    StoreError,
)
from taku.protocol import encode

if TYPE_CHECKING:
    from taku.app.table import TableService

log = structlog.get_logger("taku.app")

Reply = Callable[[tuple[int, int, bool] | BaseException], None]
"""How a submitted command is answered: ``(first_seq, last_seq, duplicate)`` or the error."""

Decider = Callable[[TableState, Context], list[Emitted]]
"""Decides one command on a state: its events (or raises its rejection)."""

MAX_CONFLICT_RETRIES = 20
"""Decisions a command gets on a shared store before ``SeqConflict`` is its answer."""

#: the prefix of the server's own command ids for a timer's expiry (``timer-<timer_id>``,
#: predictable): a member may not send a command with one (it would keep the timer from
#: ever expiring)
TIMER_COMMAND_ID_PREFIX = "timer-"


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


class CommandPath(abc.ABC):
    """One table's command path; what both strategies share: deciding a command into
    its chained records, answering repeats, answering later."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self._seeds: dict[tuple[int, bool], tuple[bytes, str]] = {}
        self._allowed = frozenset(table.hub.core_events + table.ruleset.events)
        """The event types this table's commands may emit (the core's and its ruleset's)."""

    @abc.abstractmethod
    def run(
        self,
        decider: Decider,
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None = None,
        fingerprint: str | None = None,
        decided: msgspec.Struct | None = None,
        reply: Reply,
        received: float = 0.0,
    ) -> None:
        """Decide, append and publish one command; ``reply`` is called once with
        ``(first_seq, last_seq, duplicate)`` or the error (passed, not raised).

        ``fingerprint`` is the command's (:func:`~taku.core.commands.fingerprint`),
        kept with its events; None for the server's own commands (joins).
        ``decided`` is the command ``decider`` decides, logged with its events for
        ``taku verify`` to decide again. ``received`` is when its frame was read
        (``perf_counter``; for stage timings, 0: now).
        """

    @property
    def busy(self) -> bool:
        """Whether commands are decided and not yet answered (the table stays loaded)."""
        return False

    def pending(self, command_id: str) -> bool:
        """Whether a command with this id is decided and its append not yet answered."""
        return False

    def answer(self, reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> None:
        """Answer a command whose answer is known at once (a repeat, a rejection, a
        command that does not decode), after the table's commands still in flight:
        a table's answers go out in the order its commands came."""
        reply(outcome)

    def answer_later(self, reply: Reply, outcome: Awaitable[tuple[int, int, bool]]) -> None:
        """Reply with what ``outcome`` gives (or raises) once it is done."""
        table = self.table
        task = asyncio.ensure_future(outcome)

        def done(t: asyncio.Future[tuple[int, int, bool]]) -> None:
            table._background.discard(t)
            exc = t.exception() if not t.cancelled() else asyncio.CancelledError()
            with table.hub.publishing:
                _answer(reply, exc if exc is not None else t.result())

        table._background.add(task)
        task.add_done_callback(done)

    # ------------------------------------------------------------ repeats

    def repeat(
        self, command_id: str, actor: str | None, fingerprint: str | None
    ) -> tuple[int, int, bool]:
        """The first ack of a command sent again; another member's id, or the id with
        another command, is refused, not swallowed."""
        table = self.table
        if table._ack_actor.get(command_id) != actor:
            raise _id_taken(command_id)
        _check_same(command_id, table._ack_fingerprint.get(command_id), fingerprint)
        first, last = table.acks[command_id]
        return first, last, True

    async def stored_repeat(
        self, command_id: str, actor: str | None, fingerprint: str | None, dup: DuplicateCommand
    ) -> tuple[int, int, bool]:
        """:meth:`repeat` for a command id no longer in the table's ``acks``: the
        store's unique index refused it (``dup`` names its seqs); its first event tells
        whose it was and what command."""
        recs = await self.table.hub.store.read(
            self.table.table_id, after_seq=dup.first_seq - 1, to_seq=dup.first_seq
        )
        first = recs[0] if recs else None
        if first is None or first.actor != actor:
            raise _id_taken(command_id)
        _check_same(command_id, first.command_fingerprint, fingerprint)
        return dup.first_seq, dup.last_seq, True

    # ------------------------------------------------------------ deciding

    def decide(
        self,
        state: TableState,
        decider: Decider,
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
        table = self.table
        hub = table.hub
        seed, next_hash = self._epoch(state)
        dice = hub.dice(table.table_id, seed, state.dice_cursor)
        now = hub.clock()
        ctx = Context(
            actor=actor,
            role=state.role_of(actor),
            dice=dice,
            options=table.options,
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
            secret = self.table.record.seed
            seed = epoch_seed(secret, state.epoch, epochs=state.epochs)
            nxt = seed_hash(epoch_seed(secret, state.epoch + 1)) if state.epochs else ""
            got = self._seeds[key] = (seed, nxt)
        return got

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
        table = self.table
        ruleset = table.ruleset
        table_id = table.table_id
        now = now or table.hub.clock()
        seq = state.seq
        allowed = self._allowed
        out: list[Recorded] = []
        hidden = any(isinstance(item, Private) for item in emitted) or (
            decided is not None
            and ruleset.hides_command is not None
            and ruleset.hides_command(decided, emitted)
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
            assert type(event) in allowed or isinstance(event, tuple(allowed)), (
                f"{type(event).__name__} is not an event of {ruleset.id}"
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
                    encode({"decided": decided, "version": ruleset.version, "at": seq})
                )
                if hidden:  # its arguments may tell what its hidden events hide (a whisper)
                    command_salt = secrets.token_hex(16)
                    command_commitment = chain.commitment(command_salt, command)
            out.append(
                Recorded(
                    table_id=table_id,
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
        prev = state.head or chain.genesis(table_id, state.seed_hash, seq)
        return chain.seal(out, prev)


class Pipelined(CommandPath):
    """A store this process owns (memory, SQLite): commands are decided on the state
    including appends still in flight, published and answered once durable, in seq
    order.

    ``in_flight`` holds the decided commands whose append the store has not answered,
    by command id; ``queue`` the same and the answers known at once behind them, in
    the order they came: they are answered in this order. ``generation`` counts the
    failed appends: the commands decided on a failed one fail too (``store/retry``).
    """

    def __init__(self, table: TableService) -> None:
        super().__init__(table)
        self.in_flight: dict[str, _InFlight] = {}
        self.queue: collections.deque[_InFlight] = collections.deque()
        self.generation = 0

    @property
    def busy(self) -> bool:
        return bool(self.in_flight or self.queue)

    def pending(self, command_id: str) -> bool:
        return command_id in self.in_flight

    def run(
        self,
        decider: Decider,
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None = None,
        fingerprint: str | None = None,
        decided: msgspec.Struct | None = None,
        reply: Reply,
        received: float = 0.0,
    ) -> None:
        """Decide on the state including appends still in flight, so a table's next
        command needs not wait for the last one's fsync and the store's group commit
        can write both in one transaction. Publishing and acks still wait for
        durability, and happen in seq order.

        Synchronous up to handing the append to the store, so commands are decided
        one at a time without taking the table's lock; the store's answer publishes
        and replies directly (:meth:`stored`): no task per command.

        A rejection is decided on that state too, and stands even when an append it
        saw later fails (only the commands built on a failed append get
        ``store/retry``): the client sees the same rejection it would have seen had
        the earlier command been refused a moment later.
        """
        table = self.table
        outcome: tuple[int, int, bool] | Exception
        try:
            _check_command_id(command_id, actor)
            pending = self.in_flight.get(command_id)
            if command_id in table.acks:
                outcome = self.repeat(command_id, actor, fingerprint)
            elif pending is not None:
                if pending.actor != actor:
                    raise _id_taken(command_id)
                _check_same(command_id, pending.recs[0].command_fingerprint, fingerprint)
                self.queue.append(_InFlight.repeating(pending, reply))  # the queue holds `pending`
                return
            else:
                base = table._decided
                recs, events = self.decide(
                    base, decider, actor, command_id, expected_seq, fingerprint, decided
                )
                after = table._fold(base, recs, events)
                pending = _InFlight(recs, events, after, self.generation, actor, reply)
                if metrics.stages.enabled:
                    now = time.perf_counter()
                    pending.marks = metrics.Marks(received or now, now)
                table.hub.store.append_nowait(
                    table.table_id,
                    recs,
                    expected_seq=base.seq,
                    done=metrics.timed_commit(functools.partial(self.stored, pending)),
                )
                # after append_nowait: a store that refuses at once (closed) leaves nothing half-done
                table._decided = after
                self.in_flight[command_id] = pending
                self.queue.append(pending)
                return
        except Exception as e:  # noqa: BLE001 - a rejection (or a ruleset's bug) goes to the caller
            outcome = e
        self.answer(reply, outcome)

    def answer(self, reply: Reply, outcome: tuple[int, int, bool] | BaseException) -> None:
        if self.queue:
            self.queue.append(_InFlight.answered(reply, outcome))
        else:
            reply(outcome)

    def stored(self, pending: _InFlight, error: BaseException | None) -> None:
        """The store's answer for one pipelined append; publishes what is durable, in seq order."""
        pending.stored, pending.error = True, error
        table = self.table
        queue = self.queue
        timed: list[metrics.Marks] = []
        woke = time.perf_counter() if metrics.stages.enabled else 0.0
        with table.hub.publishing:
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
                del self.in_flight[p.recs[0].command_id]
                if p.error is None:
                    try:
                        table._publish(p.after, p.recs, p.events)
                    except Exception:  # durable all the same: the acks still go out
                        log.exception("publish_failed", table_id=table.table_id, seq=p.recs[0].seq)
                    _answer(p.reply, (p.recs[0].seq, p.recs[-1].seq, False))
                    if p.marks is not None:
                        _mark_published(p.marks, woke)
                        timed.append(p.marks)
                    continue
                if p.generation == self.generation:
                    # nothing of this command is durable, and the commands decided after it
                    # built on it: they fail too; new commands start from the published state
                    self.generation += 1
                    table._decided = table.state
                    err = p.error
                    if isinstance(err, DuplicateCommand):
                        # an id older than the acks kept: the store's index knew it
                        self.answer_later(
                            p.reply,
                            self.stored_repeat(
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


class Locked(CommandPath):
    """A shared store (PostgreSQL, several nodes): each command holds the table's lock
    and ``store.exclusive`` through its append, decided on the stored head (caught up
    first), and is decided again when another node appended first."""

    def __init__(self, table: TableService) -> None:
        super().__init__(table)
        self._running: set[asyncio.Task[Any]] = set()
        """The commands' tasks (held: the event loop keeps only weak references)."""

    def run(
        self,
        decider: Decider,
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None = None,
        fingerprint: str | None = None,
        decided: msgspec.Struct | None = None,
        reply: Reply,
        received: float = 0.0,
    ) -> None:
        """One task per command (:meth:`commit`), which answers ``reply`` when done;
        it runs to its end whether or not its caller still waits. With stage timings
        on, a command that commits is timed from ``received`` (its frame read) to its
        ack written: ``decide`` (the wait for the table's and the store's locks
        included: commands wait before deciding here, not after), ``commit``,
        ``publish`` and ``write``."""
        marks = (
            metrics.Marks(received or time.perf_counter(), 0.0) if metrics.stages.enabled else None
        )
        task = asyncio.ensure_future(
            self.commit(
                decider,
                actor=actor,
                command_id=command_id,
                expected_seq=expected_seq,
                fingerprint=fingerprint,
                decided=decided,
                marks=marks,
            )
        )
        self._running.add(task)

        def answered(t: asyncio.Task[tuple[int, int, bool]]) -> None:
            self._running.discard(t)
            if t.cancelled():
                reply(asyncio.CancelledError())
                return
            exc = t.exception()
            if marks is not None and marks.committed and exc is None:
                marks.published = time.perf_counter()  # its events are out; now its ack
            reply(exc if exc is not None else t.result())
            if marks is not None and marks.published:
                metrics.stages.observe(marks, time.perf_counter())

        task.add_done_callback(answered)

    async def commit(
        self,
        decider: Decider,
        *,
        actor: str | None,
        command_id: str,
        expected_seq: int | None,
        fingerprint: str | None,
        decided: msgspec.Struct | None = None,
        marks: metrics.Marks | None = None,
    ) -> tuple[int, int, bool]:
        """The table lock orders this node's commands, ``store.exclusive`` orders the
        nodes'; a conflict (another node appended) decides again on fresh state.
        ``marks`` (stage timings) gets the times it was decided and durable."""
        _check_command_id(command_id, actor)
        table = self.table
        store = table.hub.store
        async with table.lock, store.exclusive(table.table_id):
            for _attempt in range(MAX_CONFLICT_RETRIES):
                await table._catch_up_locked()
                if command_id in table.acks:
                    return self.repeat(command_id, actor, fingerprint)
                state = table.state
                recs, events = self.decide(
                    state, decider, actor, command_id, expected_seq, fingerprint, decided
                )
                if marks is not None:
                    marks.decided = time.perf_counter()
                try:
                    with metrics.commit_timer():
                        await store.append(table.table_id, recs, expected_seq=state.seq)
                    metrics.commit_batch(1)  # a shared store: one transaction per append
                except SeqConflict:
                    # another node appended: decide again on fresh state
                    await table._catch_up_locked()
                    continue
                except DuplicateCommand as e:
                    await table._catch_up_locked()
                    if command_id not in table.acks:  # older than the acks kept
                        return await self.stored_repeat(command_id, actor, fingerprint, e)
                    return self.repeat(command_id, actor, fingerprint)
                if marks is not None:
                    marks.committed = time.perf_counter()
                table._apply(recs, events=events)
                return recs[0].seq, recs[-1].seq, False
            raise SeqConflict("too many concurrent writers on this table; try again")


def _mark_published(marks: metrics.Marks, woke: float) -> None:
    """Stage timings: ``marks``' command was just published, its answer having
    started at ``woke`` (the store's batch times, when it has a writer thread)."""
    batch = metrics.stages.batch
    if batch is not None:
        marks.picked, marks.committed, marks.woke = batch
    else:
        marks.woke = woke
    marks.published = time.perf_counter()


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
