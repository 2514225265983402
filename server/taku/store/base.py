"""The event store contract: every backend (memory, SQLite, PostgreSQL) keeps it.

The contract (tested by :class:`taku.testing.store_contract.EventStoreContract`):

- A table is a stream of :class:`~taku.core.events.Recorded` events; ``seq``
  starts at 1 and has no gaps.
- :meth:`EventStore.append` is atomic: every event of the call is written, or
  it raises and nothing is. It raises :class:`~taku.errors.SeqConflict` when the
  table's last seq is not ``expected_seq`` (another writer took it), and
  :class:`~taku.errors.DuplicateCommand` (naming the seqs written the first
  time) when the command id was appended to that table before.
- An append that returned is durable: it survives a crash of the process
  (``kill -9``) and of the machine, as far as the backend's medium allows.
- :meth:`EventStore.read` returns events in seq order.
- :meth:`EventStore.subscribe` yields the events after ``after_seq``, then the
  live ones as they are appended (by this process or, for shared backends,
  another), with no gap and no repeat.
- Table metadata (the dice seed, token hashes) is kept beside the stream and is
  never part of it.
- Snapshots (:class:`Snapshot`, a table's folded state at one seq) are a cache kept
  beside the stream: :meth:`EventStore.put_snapshot` keeps one (replacing one at the
  same seq), :meth:`EventStore.get_snapshot` gives the latest at or below a seq,
  :meth:`EventStore.delete_snapshots` forgets them. They are never the source of
  truth: any of them may be deleted at any time and the stream still gives every state.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import TypeVar

import msgspec

from taku.core.events import Recorded

_T = TypeVar("_T")

__all__ = ["EventStore", "Snapshot", "TableRecord", "TokenRecord"]


class TableRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A table's metadata: what is not in its event stream.

    ``seed`` is the secret dice seed (bytes); it leaves the store only through the
    ``seed_revealed`` event the GM chooses to append.
    """

    table_id: str
    ruleset: str
    name: str
    created: str
    seed: bytes


class TokenRecord(msgspec.Struct, frozen=True, kw_only=True):
    """An access token, by its SHA-256 hash: an invite (``member_id`` None) or a member's own."""

    token_hash: str
    table_id: str
    role: str
    member_id: str | None = None


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A table's folded state after event ``seq``, cached beside its stream.

    ``version`` names what wrote ``data`` (the ruleset id and version and the
    snapshot format, see :func:`taku.snapshots.snapshot_version`): a reader that
    writes another drops the table's snapshots and folds from the events.
    ``data`` is opaque to the store.
    """

    table_id: str
    seq: int
    version: str
    data: bytes


def by_table(items: Sequence[_T], table_of: Callable[[_T], str]) -> list[Sequence[_T]]:
    """``items`` (a batch of appends) grouped by their table (``table_of``): each group
    in the batch's order, the groups in the order of their first items."""
    if len(items) < 2:
        return [items]
    groups: dict[str, list[_T]] = {}
    for item in items:
        tid = table_of(item)
        group = groups.get(tid)
        if group is None:
            groups[tid] = [item]
        else:
            group.append(item)
    return list(groups.values())


class EventStore(abc.ABC):
    """Append-only event streams, one per table, plus table metadata.

    Backends implement the abstract methods and call :meth:`_published` after
    each durable append (and on learning of another node's append), which feeds
    :meth:`subscribe`.
    """

    shared: bool = False
    """True when other processes may append to the same tables (PostgreSQL)."""

    answering: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
    """Entered around the ``done`` calls of :meth:`append_nowait` that one batch (one
    transaction) answers for one table, in one event-loop callback (:func:`by_table`):
    the hub sets it to its ``publishing``, so what a batch publishes to one
    connection leaves in one write, however many of its table's commands it holds,
    and a table's answers do not wait for the other tables' of the batch."""

    @property
    def reachable(self) -> bool:
        """True while the store can serve appends and reads (``GET /readyz``); a shared store
        turns it false while its database cannot be reached. Always true here."""
        return True

    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Queue[int]]] = {}
        self._running: set[asyncio.Task[None]] = set()  # append_nowait's tasks, kept from the GC
        self._tails: dict[str, asyncio.Task[None]] = {}  # each table's last append_nowait task

    # ------------------------------------------------------------ lifecycle

    async def open(self) -> None:  # noqa: B027 - optional: a store without a schema keeps it
        """Create or upgrade the schema. Idempotent."""

    async def close(self) -> None:  # noqa: B027 - optional: a store without resources keeps it
        """Flush and release resources. The store may be opened again."""

    # ------------------------------------------------------------ tables and tokens

    @abc.abstractmethod
    async def create_table(
        self, table: TableRecord, events: Sequence[Recorded], command_id: str
    ) -> None:
        """Record a new table and its first events (seq 1..n) atomically.

        Raises:
            StoreError: ``store/table_exists`` when the id is taken.
        """

    @abc.abstractmethod
    async def get_table(self, table_id: str) -> TableRecord | None:
        """The table's metadata, or ``None``."""

    @abc.abstractmethod
    async def list_tables(self) -> list[TableRecord]:
        """Every table, oldest first."""

    @abc.abstractmethod
    async def add_token(self, token: TokenRecord) -> None:
        """Store a token hash (never the token)."""

    @abc.abstractmethod
    async def find_token(self, table_id: str, token_hash: str) -> TokenRecord | None:
        """The token with this hash on this table, or ``None``."""

    # ------------------------------------------------------------ events

    @abc.abstractmethod
    async def append(self, table_id: str, events: Sequence[Recorded], *, expected_seq: int) -> None:
        """Append ``events`` (seq ``expected_seq+1``…, one command id) atomically and durably.

        Raises:
            SeqConflict: the table's last seq is not ``expected_seq``; nothing written.
            DuplicateCommand: the command id is already in the table; nothing written.
            TableNotFound: no such table.
        """

    def append_nowait(
        self,
        table_id: str,
        events: Sequence[Recorded],
        *,
        expected_seq: int,
        done: Callable[[BaseException | None], None],
    ) -> None:
        """Start :meth:`append` and return at once; ``done`` gets its outcome on the event loop.

        ``done(None)`` once the events are durable, ``done(error)`` with what
        :meth:`append` would have raised. Appends started one after another on
        one table reach the store in that order. This is the application
        service's hot path: a backend that batches (SQLite, memory) calls ``done``
        straight from its batch's completion, with no task per append, every
        ``done`` of one batch for one table inside :attr:`answering`. The default runs
        :meth:`append` in a task that waits for the table's previous one.
        """

        previous = self._tails.get(table_id)

        async def run() -> None:
            if previous is not None:
                await asyncio.wait([previous])  # in order on the table, whatever became of it
            try:
                await self.append(table_id, events, expected_seq=expected_seq)
            except BaseException as e:
                done(e)
                if not isinstance(e, Exception):
                    raise
            else:
                done(None)

        task = asyncio.ensure_future(run())
        self._tails[table_id] = task
        self._running.add(task)

        def finished(t: asyncio.Task[None]) -> None:
            self._running.discard(t)
            if self._tails.get(table_id) is t:
                del self._tails[table_id]

        task.add_done_callback(finished)

    @abc.abstractmethod
    async def read(
        self, table_id: str, *, after_seq: int = 0, to_seq: int | None = None
    ) -> list[Recorded]:
        """Events with ``after_seq < seq <= to_seq`` (all after when ``to_seq`` is None), in seq order."""

    async def ping(self) -> None:
        """Return once the store answers a read (``/healthz``); raises what the read raises
        (``store/unavailable``, ``store/closed``)."""
        await self.last_seq("")

    @abc.abstractmethod
    async def last_seq(self, table_id: str) -> int:
        """The table's last seq (0 for an unknown or empty table)."""

    @abc.abstractmethod
    async def find_command(self, table_id: str, command_id: str) -> tuple[int, int] | None:
        """``(first_seq, last_seq)`` written by that command id, or ``None``."""

    def exclusive(self, table_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Keep other processes' writers of ``table_id`` waiting while this one decides and appends.

        Fairness for shared stores, not correctness: :meth:`append` still
        raises :class:`~taku.errors.SeqConflict` whenever the expected seq is
        taken. Without it a busy node can win every race for a table and
        starve another; with it, writers take turns in arrival order. The
        application service holds it around its catch-up, ``decide`` and
        ``append``. The default (one process) does nothing.
        """
        return contextlib.nullcontext()

    # ------------------------------------------------------------ snapshots (a cache)

    @abc.abstractmethod
    async def put_snapshot(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` (replacing the table's snapshot at the same seq, if any).

        Not part of any append: a snapshot lost in a crash is only a slower load.
        """

    @abc.abstractmethod
    async def get_snapshot(self, table_id: str, *, at_most: int | None = None) -> Snapshot | None:
        """The table's snapshot with the highest seq ``<= at_most`` (any seq when
        None), or ``None``."""

    @abc.abstractmethod
    async def delete_snapshots(self, table_id: str | None = None) -> int:
        """Forget the table's snapshots (every table's when ``table_id`` is None);
        returns how many were deleted. Nothing else changes."""

    async def timer_tables(self) -> list[str]:
        """Ids of the tables whose log holds more ``timer_set`` events than
        ``timer_expired`` and ``timer_cancelled`` ones: those with a timer still armed,
        which the server loads when it starts. This default reads every stream; the
        stores answer it with one query."""
        out = []
        for table in await self.list_tables():
            recs = await self.read(table.table_id)
            if _armed(r.type for r in recs):
                out.append(table.table_id)
        return out

    def forget(self, table_id: str) -> None:  # noqa: B027 - optional, no cache by default
        """Drop what this process caches in memory about ``table_id`` (the application
        unloaded it); nothing stored changes. The default caches nothing."""

    # ------------------------------------------------------------ subscriptions

    async def subscribe(self, table_id: str, *, after_seq: int = 0) -> AsyncIterator[Recorded]:
        """Events after ``after_seq``: the stored ones, then live ones, no gap, no repeat.

        The iterator never ends by itself; close it (``aclose``) or cancel its task.
        A notification that was missed or arrives out of order is recovered by
        reading the range from the store, never skipped.
        """
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.setdefault(table_id, set()).add(queue)
        last = after_seq
        try:
            while True:
                for rec in await self.read(table_id, after_seq=last):
                    if rec.seq == last + 1:
                        last = rec.seq
                        yield rec
                # wait until something past `last` is known to exist
                while (await queue.get()) <= last:
                    pass
        finally:
            self._listeners[table_id].discard(queue)
            if not self._listeners[table_id]:
                del self._listeners[table_id]

    def _published(self, table_id: str, last_seq: int) -> None:
        """Tell this process's subscribers that ``table_id`` now reaches ``last_seq``."""
        for queue in self._listeners.get(table_id, ()):
            queue.put_nowait(last_seq)


TIMER_TYPES = ("timer_set", "timer_expired", "timer_cancelled")
"""The event types that arm and disarm a timer (:meth:`EventStore.timer_tables`)."""


def _armed(types: Iterable[str]) -> bool:
    """Whether a stream with events of ``types`` has a timer armed at its end."""
    n = 0
    for t in types:
        if t == "timer_set":
            n += 1
        elif t in TIMER_TYPES:
            n -= 1
    return n > 0
