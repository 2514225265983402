"""Durable timers (issue #20, item 3): set, cancel, expire exactly once, re-armed on load.

Time is the hub's injected clock: the tests move it on and ask the hub to fire what is
due, so nothing sleeps.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest

from taku.app import Hub
from taku.core.commands import CancelTimer, Chat, RevealSeed, SetTimer
from taku.errors import Forbidden, InvalidCommand, InvalidFields
from taku.plugins import load_registry
from taku.store import MemoryEventStore, SQLiteEventStore
from taku.verify import lines_from_records, verify_log

T0 = dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC)


class Clock:
    """A clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


async def _types(store, table_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.type for r in await store.read(table_id)]


async def test_a_timer_expires_once_at_its_deadline() -> None:
    """set_timer logs the deadline from the clock; nothing before it; at it, one
    timer_expired by the server; firing again appends nothing."""
    store, clock = MemoryEventStore(), Clock()
    hub = Hub(store, load_registry(), clock=clock)
    created = await hub.create_table(ruleset="generic", name="t")
    table = await hub.table(created.table_id)
    gm = created.member_id
    await table.execute(gm, SetTimer(duration_s=90, label="手番"), command_id="t1")
    timer = next(iter(table.state.timers.values()))
    assert timer.deadline == T0 + dt.timedelta(seconds=90)
    view = await table.state_at(table.state.viewer(gm))
    assert view["timers"][0]["deadline"] == "2026-12-01T15:01:30Z"
    clock.advance(89)
    assert await hub.fire_due_timers() == 0
    clock.advance(1)
    assert await hub.fire_due_timers() == 1
    assert await hub.fire_due_timers() == 0
    recs = await store.read(table.table_id)
    assert [r.type for r in recs].count("timer_expired") == 1
    last = recs[-1]
    assert (last.type, last.actor, last.command_id) == ("timer_expired", None, f"timer-{timer.id}")
    assert not table.state.timers
    await hub.close()


async def test_cancel_and_errors() -> None:
    """A cancelled timer never expires; bad input gets stable codes and writes nothing."""
    store, clock = MemoryEventStore(), Clock()
    hub = Hub(store, load_registry(), clock=clock)
    created = await hub.create_table(ruleset="generic", name="t")
    table = await hub.table(created.table_id)
    gm = created.member_id
    player = await hub.join(created.table_id, created.player_token, "P")
    with pytest.raises(Forbidden):
        await table.execute(player.member_id, SetTimer(duration_s=10), command_id="p1")
    with pytest.raises(InvalidCommand) as e:
        await table.execute(gm, CancelTimer(timer_id="timer99"), command_id="c0")
    assert e.value.code == "timer/unknown_timer"
    with pytest.raises(InvalidCommand) as e:
        await table.execute(gm, SetTimer(duration_s=5, character_id="c404"), command_id="c1")
    assert e.value.code == "command/unknown_character"
    zero = table.decode_command(b'{"type":"set_timer","duration_s":0}')
    with pytest.raises(InvalidCommand) as e:  # the bounds are the table's: its own code
        await table.execute(gm, zero, command_id="c2")
    assert e.value.code == "timer/invalid_duration"
    with pytest.raises(InvalidFields) as f:  # the type is still the decoder's
        table.decode_command(b'{"type":"set_timer","duration_s":"5"}')
    assert f.value.code == "protocol/invalid_fields"
    seq = table.state.seq
    await table.execute(gm, SetTimer(duration_s=10), command_id="s1")
    tid = next(iter(table.state.timers))
    await table.execute(gm, CancelTimer(timer_id=tid), command_id="x1")
    clock.advance(60)
    assert await hub.fire_due_timers() == 0
    assert (await _types(store, table.table_id))[seq:] == ["timer_set", "timer_cancelled"]
    await hub.close()


async def test_rearmed_on_load_and_kept_loaded(tmp_path: Path) -> None:
    """A new hub on the same file finds the armed timer (store.timer_tables) and fires it
    once; an idle table with an armed timer is not unloaded; the log still verifies."""
    path = tmp_path / "t.db"
    store, clock = SQLiteEventStore(path), Clock()
    await store.open()
    hub = Hub(store, load_registry(), clock=clock, idle_unload_s=0.0)
    created = await hub.create_table(ruleset="generic", name="t")
    table = await hub.table(created.table_id)
    gm = created.member_id
    await table.execute(gm, SetTimer(duration_s=30), command_id="s1")
    await table.execute(gm, Chat(text="待つ"), command_id="c1")
    assert await store.timer_tables() == [created.table_id]
    assert await hub.unload_idle() == 0  # armed: stays loaded
    await hub.close()
    await store.close()

    store = SQLiteEventStore(path)
    await store.open()
    clock.advance(31)  # the deadline passed while no server ran
    hub = Hub(store, load_registry(), clock=clock)
    assert await hub.arm_timers() == 1
    assert await hub.fire_due_timers() == 1
    assert await hub.fire_due_timers() == 0
    assert (await _types(store, created.table_id)).count("timer_expired") == 1
    assert await store.timer_tables() == []
    table = await hub.table(created.table_id)
    await table.execute(gm, RevealSeed(), command_id="r1")
    report = verify_log(
        lines_from_records(await store.read(created.table_id)), registry=load_registry()
    )
    assert report.ok, report.problems
    assert report.counts["commands"] >= 4
    await hub.close()
    await store.close()


async def test_an_overdue_timer_fires_by_itself_on_load_but_not_for_read_only_tools() -> None:
    """Loading a table whose deadline passed arms its alarm, which expires it without
    anyone asking; a hub of a read-only tool (``timers=False``: replay, export) loads the
    same table and appends nothing."""
    store, clock = MemoryEventStore(), Clock()
    hub = Hub(store, load_registry(), clock=clock)
    created = await hub.create_table(ruleset="generic", name="t")
    table = await hub.table(created.table_id)
    await table.execute(created.member_id, SetTimer(duration_s=5), command_id="s1")
    await hub.close()
    clock.advance(10)

    reader = Hub(store, load_registry(), clock=clock, timers=False)
    assert await reader.arm_timers() == 0
    await reader.table(created.table_id)
    for _ in range(20):
        await asyncio.sleep(0)
    assert "timer_expired" not in await _types(store, created.table_id)
    await reader.close()

    server = Hub(store, load_registry(), clock=clock)
    assert await server.arm_timers() == 1
    for _ in range(200):
        if "timer_expired" in await _types(store, created.table_id):
            break
        await asyncio.sleep(0.005)
    assert (await _types(store, created.table_id)).count("timer_expired") == 1
    await server.close()


async def test_a_member_cannot_take_a_timers_command_id() -> None:
    """A timer's expiry is the server's command ``timer-<timer_id>`` (the id is
    predictable): a member's command with that id is refused (command/id_taken, nothing
    written), so no player can keep a timer from ever expiring (or spin the server on it)."""
    store, clock = MemoryEventStore(), Clock()
    hub = Hub(store, load_registry(), clock=clock)
    created = await hub.create_table(ruleset="generic", name="t")
    table = await hub.table(created.table_id)
    gm = created.member_id
    await table.execute(gm, SetTimer(duration_s=5), command_id="t1")
    timer_id = next(iter(table.state.timers))
    seq = table.state.seq
    for command_id in (f"timer-{timer_id}", "timer-anything"):
        with pytest.raises(InvalidCommand) as e:
            await table.execute(gm, Chat(text="横取り"), command_id=command_id)
        assert e.value.code == "command/id_taken"
    assert table.state.seq == seq
    clock.advance(5)
    assert await hub.fire_due_timers() == 1
    assert not table.state.timers
    await hub.close()
