"""An unloaded table leaves nothing of itself in the process (issue 18, part 4: a
long-running server's memory returns near its baseline after tables go idle)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from taku.app import Hub
from taku.core.commands import Chat
from taku.core.table import TableState
from taku.plugins import load_registry
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.store.base import EventStore


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_an_unloaded_table_is_freed(kind: str, tmp_path: Path) -> None:
    """The table written last is unloaded like the others: nothing (the SQLite writer's
    last batch, a store cache, the hub) keeps its TableService or its state alive."""
    store: EventStore = (
        MemoryEventStore() if kind == "memory" else SQLiteEventStore(tmp_path / "t.db")
    )
    await store.open()
    try:
        hub = Hub(store, load_registry(), idle_unload_s=None)
        refs = []
        ids: set[str] = set()
        for i in range(3):
            created = await hub.create_table(ruleset="generic")
            t = await hub.table(created.table_id)
            await t.execute(created.member_id, Chat(text=f"一度だけ {i}"), command_id="c1")
            refs.append(weakref.ref(t))
            ids.add(created.table_id)
        del t
        hub.idle_unload_s = 0.0
        assert await hub.unload_idle() == 3
        gc.collect()
        assert [r() is None for r in refs] == [True] * 3
        states = [o for o in gc.get_objects() if isinstance(o, TableState) and o.table_id in ids]
        assert states == []
        await hub.close()
    finally:
        await store.close()
