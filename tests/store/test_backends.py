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
