"""A bound on loaded idle tables (issue 18, part 4: bounded memory): beyond
``max_idle_tables`` the least recently used tables nobody subscribes to are unloaded
at once, whatever the idle time, with nothing lost."""

from __future__ import annotations

from pathlib import Path

from taku.app import EVICT_AFTER_S, Hub
from taku.core.commands import Chat
from taku.core.table import TableState, fold
from taku.plugins import load_registry
from taku.store import SQLiteEventStore


async def test_tables_beyond_the_bound_are_unloaded_least_recently_used_first(
    tmp_path: Path,
) -> None:
    """Five tables with a bound of two idle ones: a sixth load unloads the three least
    recently used of the five without a subscriber (the subscribed one stays, though
    it is the oldest; the sixth and the most recent other stay); each unloaded table loads again with the state of its events,
    answers an old command id with its first ack, and the subscriber keeps its feed."""
    store = SQLiteEventStore(tmp_path / "t.db")
    await store.open()
    hub = Hub(store, load_registry(), idle_unload_s=None, max_idle_tables=2, snapshot_every=10)
    try:
        ids, gms, firsts = [], [], []
        for i in range(5):
            created = await hub.create_table(ruleset="generic", name=f"卓{i}")
            t = await hub.table(created.table_id)
            firsts.append(await t.execute(created.member_id, Chat(text="最初"), command_id="c0"))
            for k in range(12 if i == 1 else 1):  # table 1: a tail past its snapshot
                await t.execute(created.member_id, Chat(text=f"行 {k}"), command_id=f"c{k + 1}")
            ids.append(created.table_id)
            gms.append(created.member_id)
        frames: list[bytes] = []
        watched = hub._tables[ids[0]]
        await watched.subscribe(gms[0], frames.append, watched.state.seq)
        for n, tid in enumerate(ids):  # table 0 the least recently used, table 4 the most
            hub._tables[tid].last_used -= 2 * EVICT_AFTER_S + 10 - n
        heads = {tid: hub._tables[tid].state for tid in ids}
        assert len(hub._tables) == 5  # under the mark (the bound and a tenth of it): no scan

        sixth = await hub.create_table(ruleset="generic")
        await hub.table(sixth.table_id)  # the sixth load passes the mark
        assert hub._evicting is not None
        await hub._evicting
        assert sorted(hub._tables) == sorted([ids[0], ids[4], sixth.table_id])
        assert hub.unloaded == 3

        for n in (1, 2, 3):
            again = await hub.table(ids[n])
            truth = fold(
                TableState(table_id=ids[n]), await store.read(ids[n]), again.ruleset, again.reader
            )
            assert again.state == truth == heads[ids[n]]
            repeat = await again.execute(gms[n], Chat(text="最初"), command_id="c0")
            assert repeat[:2] == firsts[n][:2] and repeat[2] is True
        assert (await store.get_snapshot(ids[1])).seq == 10  # type: ignore[union-attr]

        await watched.execute(gms[0], Chat(text="見ている"), command_id="later")
        assert hub._tables[ids[0]] is watched
        assert len(frames) == 1 and "見ている".encode() in frames[0]
    finally:
        await hub.close()
        await store.close()


async def test_a_recently_used_table_is_not_unloaded_by_the_bound(tmp_path: Path) -> None:
    """A table asked for in the last EVICT_AFTER_S may be in a caller's hands (between a
    join's two awaits): a bound of 0 still leaves it loaded."""
    store = SQLiteEventStore(tmp_path / "t.db")
    await store.open()
    hub = Hub(store, load_registry(), idle_unload_s=None, max_idle_tables=0)
    try:
        a = await hub.create_table(ruleset="generic")
        ta = await hub.table(a.table_id)
        b = await hub.create_table(ruleset="generic")
        await hub.table(b.table_id)
        assert await hub.evict() == 0
        ta.last_used -= 2 * EVICT_AFTER_S
        assert await hub.evict() == 1
        assert sorted(hub._tables) == [b.table_id]
    finally:
        await hub.close()
        await store.close()
