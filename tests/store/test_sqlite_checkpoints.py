"""The SQLite store's checkpoints run outside commits, keep the WAL bounded, and
close() leaves every commit in the database file (issue 16)."""

from __future__ import annotations

import asyncio
import queue
import shutil
import sqlite3
from pathlib import Path

import pytest

from taku.store import SQLiteEventStore
from taku.testing.store_contract import make_events, new_table

FRAME = 4096 + 24
"""Bytes of one WAL frame: a 4 KiB page and its header."""

SQLITE_DEFAULT_AUTOCHECKPOINT = 1000
"""Pages after which a commit checkpoints when auto-checkpoint is left on."""


def wal_pages(db: Path) -> int:
    """The WAL file's length in frames (its high-water mark since it was last truncated)."""
    wal = Path(str(db) + "-wal")
    return wal.stat().st_size // FRAME if wal.exists() else 0


async def fill(
    store: SQLiteEventStore, tables: list[str], rounds: int, size: int, *, after: int = 1
) -> None:
    """``rounds`` appends of one ``size``-byte event to each table (at seq ``after``
    so far), the tables at once."""
    for r in range(after, after + rounds):
        await asyncio.gather(
            *(store.append(t, make_events(t, r + 1, size=size), expected_seq=r) for t in tables)
        )


async def test_commits_never_checkpoint(tmp_path: Path) -> None:
    """With the checkpointer not looking, commits never copy the WAL into the file:
    it keeps every frame, far past SQLite's own auto-checkpoint length."""
    db = tmp_path / "t.db"
    store = SQLiteEventStore(db, checkpoint_interval=3600)
    await store.open()
    try:
        tables = [await new_table(store) for _ in range(10)]
        await fill(store, tables, 150, 3000)  # 1,500 pages of events alone
        # every commit's frames are still there: none started the WAL over
        assert wal_pages(db) > 2 * SQLITE_DEFAULT_AUTOCHECKPOINT
        assert store.checkpoints == 0 and store.writer_checkpoints == 0
        other = sqlite3.connect(db)  # copies what no commit copied
        try:
            _busy, pages, copied = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            other.close()
        assert pages == copied and pages > 2 * SQLITE_DEFAULT_AUTOCHECKPOINT
        assert all([await store.last_seq(t) == 151 for t in tables])
    finally:
        await store.close()


async def test_the_wal_stays_bounded_while_commits_go_on(tmp_path: Path) -> None:
    """Past the restart length the checkpointer and the writer (between batches)
    start the WAL over: it stays within a few times the limit while a hundred times
    that is written, every append succeeds and reads go on meanwhile."""
    db = tmp_path / "t.db"
    store = SQLiteEventStore(
        db, checkpoint_interval=0.01, wal_restart_pages=50, wal_limit_pages=200
    )
    await store.open()
    try:
        tables = [await new_table(store) for _ in range(10)]
        highest = 0
        for r in range(40):
            await fill(
                store, tables, 10, 3000, after=1 + 10 * r
            )  # 100 events of almost a page each
            highest = max(highest, wal_pages(db))
            assert len(await store.read(tables[r % 10])) == 1 + 10 * (r + 1)
        # about 20,000 frames went through the WAL (410 commits of some 50 pages each)
        assert highest <= 10 * 200, highest
        assert store.checkpoints > 0 and store.writer_checkpoints > 0
        assert all([await store.last_seq(t) == 401 for t in tables])
    finally:
        await store.close()


class NeverEmpty(queue.SimpleQueue):  # type: ignore[type-arg]
    """A writer's queue that always says appends are waiting."""

    def empty(self) -> bool:
        return False


async def test_the_wal_stays_bounded_when_the_queue_never_empties(tmp_path: Path) -> None:
    """A server so busy that appends are always waiting when a batch is done: at
    the limit the writer finishes the checkpoint anyway, after a batch."""
    db = tmp_path / "t.db"
    store = SQLiteEventStore(
        db, checkpoint_interval=0.01, wal_restart_pages=50, wal_limit_pages=200
    )
    store._queue = NeverEmpty()
    await store.open()
    try:
        tables = [await new_table(store) for _ in range(10)]
        highest = 0
        for r in range(40):
            await fill(store, tables, 10, 3000, after=1 + 10 * r)
            highest = max(highest, wal_pages(db))
        assert highest <= 10 * 200, highest
        assert store.writer_checkpoints > 0
        assert all([await store.last_seq(t) == 401 for t in tables])
    finally:
        await store.close()


async def test_close_leaves_every_event_in_the_database_file(tmp_path: Path) -> None:
    """After close() the database file alone (its WAL left behind) holds every
    event, even while another program kept the file open (so SQLite's own
    checkpoint when the last connection closes did not run)."""
    db = tmp_path / "t.db"
    store = SQLiteEventStore(db, checkpoint_interval=3600)
    await store.open()
    other = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # e.g. a backup tool, idle
    try:
        tables = [await new_table(store) for _ in range(5)]
        await fill(store, tables, 20, 100)
        assert store.checkpoints == 0  # everything is still in the WAL
        await store.close()
        copy = tmp_path / "copy.db"
        shutil.copyfile(db, copy)  # the file alone, without t.db-wal
    finally:
        other.close()
    again = SQLiteEventStore(copy)
    await again.open()
    try:
        for t in tables:
            assert [e.seq for e in await again.read(t)] == list(range(1, 22))
    finally:
        await again.close()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"checkpoint_interval": 0},
        {"wal_restart_pages": 0},
        {"wal_restart_pages": 300, "wal_limit_pages": 200},
    ],
)
def test_bad_checkpoint_settings_are_refused(tmp_path: Path, kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        SQLiteEventStore(tmp_path / "t.db", **kwargs)  # type: ignore[arg-type]
