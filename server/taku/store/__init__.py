"""Event stores: the contract (:mod:`taku.store.base`) and its backends."""

from taku.store.base import EventStore, TableRecord, TokenRecord
from taku.store.memory import MemoryEventStore
from taku.store.sqlite import SQLiteEventStore

__all__ = [
    "EventStore",
    "MemoryEventStore",
    "SQLiteEventStore",
    "TableRecord",
    "TokenRecord",
    "open_store",
]


def open_store(url: str) -> EventStore:
    """The store for a ``--db`` value: ``memory:``, ``postgresql://…`` or a SQLite file path.

    The store is not opened yet; ``await store.open()``.
    """
    if url in ("memory:", ":memory:"):
        return MemoryEventStore()
    if url.startswith(("postgresql://", "postgres://")):
        from taku.store.postgres import PostgresEventStore

        return PostgresEventStore(url)
    url = url.removeprefix("sqlite:///")
    return SQLiteEventStore(url)
