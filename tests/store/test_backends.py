"""The store contract, run against the memory and SQLite backends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore
from taku.testing.store_contract import EventStoreContract, make_events, new_table


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
