"""The store contract, run against the memory and SQLite backends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore
from taku.testing.store_contract import EventStoreContract, make_events, new_table


class _Answering:
    """A store's ``answering``: counts how often it is entered and which appends it
    answers inside; ``done`` of an append outside it is noted as such."""

    def __init__(self) -> None:
        self.entered = 0
        self.inside = False
        self.answered: list[tuple[int, str]] = []  # (entry, table) per answer
        self.commits = 0

    def __enter__(self) -> None:
        assert not self.inside
        self.entered += 1
        self.inside = True

    def __exit__(self, *exc: object) -> None:
        self.inside = False

    def done(self, table_id: str) -> Callable[[BaseException | None], None]:
        def answered(err: BaseException | None) -> None:
            assert err is None
            self.answered.append((self.entered if self.inside else 0, table_id))

        return answered


async def _batched(store: EventStore, n: int, per_table: int = 3) -> _Answering:
    """``per_table`` appends on each of ``n`` new tables, all started in one turn of the
    loop, awaited; checks each is answered once, each table's in its order."""
    import asyncio

    tables = [await new_table(store) for _ in range(n)]
    rec = _Answering()
    rec.commits = getattr(store, "commits", 0)  # before the batch, after the tables
    store.answering = rec
    for k in range(per_table):
        for t in tables:
            store.append_nowait(t, make_events(t, 2 + k), expected_seq=1 + k, done=rec.done(t))
    for _ in range(500):
        if len(rec.answered) == n * per_table:
            break
        await asyncio.sleep(0.01)
    assert sorted(t for _, t in rec.answered) == sorted(tables * per_table)
    for t in tables:
        assert [e.seq for e in await store.read(t)] == list(range(1, 2 + per_table))
    return rec


def _one_table_each(rec: _Answering) -> dict[int, set[str]]:
    """The tables answered inside each entry of ``answering``: one each."""
    tables: dict[int, set[str]] = {}
    for entry, t in rec.answered:
        assert entry > 0, "answered outside answering"
        tables.setdefault(entry, set()).add(t)
    assert all(len(ts) == 1 for ts in tables.values())
    return tables


class TestMemoryStore(EventStoreContract):
    @pytest.fixture
    async def store(self) -> AsyncIterator[EventStore]:
        s = MemoryEventStore()
        await s.open()
        yield s
        await s.close()

    @pytest.fixture
    def reopen(self, store: EventStore) -> Callable[[], Awaitable[EventStore]]:
        async def again() -> EventStore:
            return store

        return again

    async def test_appends_of_one_turn_are_answered_together(self, store: EventStore) -> None:
        """The appends started in one turn of the loop are one batch: each table's
        answered in one ``answering`` (where the server holds each connection's frames),
        in order, without waiting for the other tables'."""
        rec = await _batched(store, 5)
        assert len(_one_table_each(rec)) == rec.entered == 5

    async def test_an_awaited_append_keeps_its_place_among_the_others(
        self, store: MemoryEventStore
    ) -> None:
        """Appends started one after another reach the store in that order, awaited or
        not: one started while an awaited one waits comes after it."""
        import asyncio

        tid = await new_table(store)
        answers: list[tuple[str, BaseException | None]] = []

        async def nowait_then_awaited() -> None:
            store.append_nowait(
                tid,
                make_events(tid, 2, command_id="n1"),
                expected_seq=1,
                done=lambda e: answers.append(("n1", e)),
            )
            await store.append(tid, make_events(tid, 3, command_id="x"), expected_seq=2)
            answers.append(("x", None))

        task = asyncio.ensure_future(nowait_then_awaited())
        asyncio.get_running_loop().call_soon(
            lambda: store.append_nowait(
                tid,
                make_events(tid, 4, command_id="n2"),
                expected_seq=3,
                done=lambda e: answers.append(("n2", e)),
            )
        )
        await task
        await asyncio.sleep(0.01)
        assert all(err is None for _, err in answers) and len(answers) == 3
        assert [e.command_id for e in await store.read(tid)][1:] == ["n1", "x", "n2"]

    async def test_an_append_refused_without_a_loop_leaves_nothing_behind(
        self, store: MemoryEventStore
    ) -> None:
        """An append that cannot be scheduled (no running loop) raises and is not kept:
        the appends after it are answered."""
        import asyncio

        tid = await new_table(store)
        with pytest.raises(RuntimeError):
            await asyncio.to_thread(
                store.append_nowait, tid, make_events(tid, 2), expected_seq=1, done=print
            )
        answered: asyncio.Future[BaseException | None] = asyncio.Future()
        store.append_nowait(tid, make_events(tid, 2), expected_seq=1, done=answered.set_result)
        assert await asyncio.wait_for(answered, 5) is None
        assert await store.last_seq(tid) == 2


class TestSQLiteStore(EventStoreContract):
    @pytest.fixture
    async def store(self, tmp_path: Path) -> AsyncIterator[EventStore]:
        s = SQLiteEventStore(tmp_path / "t.db")
        await s.open()
        yield s
        await s.close()

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], Awaitable[EventStore]]:
        async def again() -> EventStore:
            s = SQLiteEventStore(tmp_path / "t.db")
            await s.open()
            return s

        return again

    async def test_group_commit_batches_concurrent_appends(self, store: SQLiteEventStore) -> None:
        """Appends to many tables at once share transactions, and all are durable."""
        import asyncio

        tables = [await new_table(store) for _ in range(50)]
        commits_before = store.commits
        await asyncio.gather(*(store.append(t, make_events(t, 2), expected_seq=1) for t in tables))
        assert all([await store.last_seq(t) == 2 for t in tables])
        assert store.commits - commits_before < 50

    async def test_each_transactions_appends_are_answered_together(
        self, store: SQLiteEventStore
    ) -> None:
        """Every append is answered inside ``answering``, entered once per table of each
        transaction: what one commit makes durable of a table is published together."""
        rec = await _batched(store, 20)
        _one_table_each(rec)
        commits = store.commits - rec.commits
        assert commits < 60 and rec.entered < 60  # grouped, not one by one
        assert rec.entered <= commits * 20

    async def test_big_batches_are_written_whole(self, store: SQLiteEventStore) -> None:
        """Batches of many appends at once, and a command of more events than one
        statement holds, are written whole and in order; a duplicate inside a batch
        fails only its own append."""
        import asyncio

        tables = [await new_table(store) for _ in range(120)]
        commits = store.commits
        big = make_events(tables[0], 2, 75, command_id="big")
        results = await asyncio.gather(
            store.append(tables[0], big, expected_seq=1),
            *(store.append(t, make_events(t, 2, 2), expected_seq=1) for t in tables[1:]),
        )
        assert all(r is None for r in results) and store.commits - commits < 10
        assert [e.seq for e in await store.read(tables[0])] == list(range(1, 77))
        assert await store.find_command(tables[0], "big") == (2, 76)
        assert all([await store.last_seq(t) == 3 for t in tables[1:]])
        # a duplicate among many: only its own append fails
        dup = make_events(tables[1], 4, 1, command_id=(await store.read(tables[1]))[1].command_id)
        results = await asyncio.gather(
            store.append(tables[1], dup, expected_seq=3),
            *(store.append(t, make_events(t, 4, 2), expected_seq=3) for t in tables[2:]),
            return_exceptions=True,
        )
        assert type(results[0]).__name__ == "DuplicateCommand" and all(
            r is None for r in results[1:]
        )
        assert await store.last_seq(tables[1]) == 3 and all(
            [await store.last_seq(t) == 5 for t in tables[2:]]
        )
        # past one statement's rows: several statements in one transaction
        huge = make_events(tables[2], 6, 2100, command_id="huge")
        await store.append(tables[2], huge, expected_seq=5)
        assert [e.seq for e in await store.read(tables[2])] == list(range(1, 2106))
        assert await store.find_command(tables[2], "huge") == (6, 2105)
