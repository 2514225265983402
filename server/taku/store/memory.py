"""An in-memory event store: for tests, and the reference for the contract."""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Callable, Sequence

import structlog

from taku.core.events import Recorded
from taku.errors import DuplicateCommand, SeqConflict, StoreError, TableNotFound
from taku.store.base import EventStore, Snapshot, TableRecord, TokenRecord, _armed, by_table

log = structlog.get_logger("taku.store")

_Pending = tuple[str, Sequence[Recorded], int, Callable[[BaseException | None], None]]


def _table_of(pending: _Pending) -> str:
    return pending[0]


__all__ = ["MemoryEventStore"]


class MemoryEventStore(EventStore):
    """Keeps everything in dicts. Durable only as long as the process; passes the contract."""

    def __init__(self) -> None:
        super().__init__()
        self._tables: dict[str, TableRecord] = {}
        self._events: dict[str, list[Recorded]] = {}
        self._commands: dict[tuple[str, str], tuple[int, int]] = {}
        self._tokens: dict[tuple[str, str], TokenRecord] = {}
        self._snapshots: dict[str, dict[int, Snapshot]] = {}
        self.appends = 0
        """How many appends succeeded (for tests that count writes)."""
        self._batch: list[_Pending] = []
        """The appends started in this turn of the event loop (:meth:`append_nowait`)."""

    async def create_table(
        self, table: TableRecord, events: Sequence[Recorded], command_id: str
    ) -> None:
        if table.table_id in self._tables:
            raise StoreError(f"table {table.table_id} exists", code="store/table_exists")
        self._tables[table.table_id] = table
        self._events[table.table_id] = []
        await self.append(table.table_id, events, expected_seq=0)

    async def get_table(self, table_id: str) -> TableRecord | None:
        return self._tables.get(table_id)

    async def list_tables(self) -> list[TableRecord]:
        return list(self._tables.values())

    async def timer_tables(self) -> list[str]:
        return [tid for tid, recs in self._events.items() if _armed(r.type for r in recs)]

    async def add_token(self, token: TokenRecord) -> None:
        self._tokens[(token.table_id, token.token_hash)] = token

    async def find_token(self, table_id: str, token_hash: str) -> TokenRecord | None:
        return self._tokens.get((table_id, token_hash))

    async def append(self, table_id: str, events: Sequence[Recorded], *, expected_seq: int) -> None:
        """In the same batches as :meth:`append_nowait`, so appends started one after
        another reach the store in that order, however they were started."""
        if table_id not in self._events:
            raise TableNotFound(f"no table {table_id}")
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def done(err: BaseException | None) -> None:
            if answered.done():  # the caller stopped waiting: the append stands all the same
                return
            if err is None:
                answered.set_result(None)
            else:
                answered.set_exception(err)

        self._enqueue((table_id, events, expected_seq, done))
        await answered  # an append is a suspension point in every real backend

    def append_nowait(
        self,
        table_id: str,
        events: Sequence[Recorded],
        *,
        expected_seq: int,
        done: Callable[[BaseException | None], None],
    ) -> None:
        """The appends started in one turn of the event loop are applied, in order, in
        one callback on the next: one batch, each table's answered inside
        :attr:`answering`."""
        self._enqueue((table_id, events, expected_seq, done))

    def _enqueue(self, pending: _Pending) -> None:
        if not self._batch:  # scheduled first: a loop that refuses leaves nothing behind
            asyncio.get_running_loop().call_soon(self._apply_batch)
        self._batch.append(pending)

    def _apply_batch(self) -> None:
        batch, self._batch = self._batch, []
        groups = by_table(batch, _table_of)
        for n, group in enumerate(groups):
            with self.answering:  # one table's appends of the batch
                for k, (table_id, events, expected_seq, done) in enumerate(group):
                    try:
                        self._append_now(table_id, events, expected_seq)
                    except Exception as e:  # noqa: BLE001 - handed to done
                        err: Exception | None = e
                    else:
                        err = None
                    try:
                        done(err)
                    except Exception:  # one caller's bug must not keep the others waiting
                        log.exception("append_callback_failed", table_id=table_id)
                    except BaseException:  # the loop stopping: the rest are applied later
                        self._requeue([*group[k + 1 :], *(p for g in groups[n + 1 :] for p in g)])
                        raise

    def _requeue(self, rest: list[_Pending]) -> None:
        if rest:
            if not self._batch:
                asyncio.get_running_loop().call_soon(self._apply_batch)
            self._batch[:0] = rest

    def _append_now(self, table_id: str, events: Sequence[Recorded], expected_seq: int) -> None:
        stream = self._events.get(table_id)
        if stream is None:
            raise TableNotFound(f"no table {table_id}")
        if not events:
            return
        key = (table_id, events[0].command_id)
        if key in self._commands:
            first, last = self._commands[key]
            raise DuplicateCommand("command already appended", first_seq=first, last_seq=last)
        if len(stream) != expected_seq:
            raise SeqConflict(f"expected seq {expected_seq}, table is at {len(stream)}")
        for i, e in enumerate(events):
            if e.seq != expected_seq + 1 + i or e.table_id != table_id:
                raise StoreError("events must continue the stream", code="store/bad_seq")
        stream.extend(events)
        self._commands[key] = (events[0].seq, events[-1].seq)
        self.appends += 1
        self._published(table_id, events[-1].seq)

    async def read(
        self, table_id: str, *, after_seq: int = 0, to_seq: int | None = None
    ) -> list[Recorded]:
        stream = self._events.get(table_id, [])
        end = len(stream) if to_seq is None else min(to_seq, len(stream))
        return stream[max(after_seq, 0) : end]

    async def last_seq(self, table_id: str) -> int:
        return len(self._events.get(table_id, ()))

    async def find_command(self, table_id: str, command_id: str) -> tuple[int, int] | None:
        return self._commands.get((table_id, command_id))

    async def put_snapshot(self, snapshot: Snapshot) -> None:
        self._snapshots.setdefault(snapshot.table_id, {})[snapshot.seq] = snapshot

    async def get_snapshot(self, table_id: str, *, at_most: int | None = None) -> Snapshot | None:
        kept = self._snapshots.get(table_id)
        if not kept:
            return None
        seqs = sorted(kept)
        i = len(seqs) if at_most is None else bisect.bisect_right(seqs, at_most)
        return kept[seqs[i - 1]] if i else None

    async def delete_snapshots(self, table_id: str | None = None) -> int:
        if table_id is None:
            n = sum(len(v) for v in self._snapshots.values())
            self._snapshots.clear()
            return n
        return len(self._snapshots.pop(table_id, {}))
