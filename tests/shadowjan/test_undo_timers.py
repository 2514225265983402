"""Undo and redo with ``turn_seconds`` (issue #20): the armed turn timers follow the
fold without the undone move, so the table never waits for ever on a timer armed for
the wrong player."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from taku.app import Hub
from taku.core.commands import CreateCharacter, Redo, RevealSeed, Undo
from taku.core.events import HistorySettings
from taku.plugins import load_registry
from taku.store import MemoryEventStore
from taku.verify import lines_from_records, verify_log
from taku_shadowjan import commands as C
from taku_shadowjan.decider import waiting_for

from .conftest import make_game, ninja

T0 = dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("redo", [False, True])
async def test_undo_gives_the_turn_timer_back_and_redo_takes_it_again(redo: bool) -> None:
    """shadowjan ``turn_seconds`` 60 with ``player_undo``: ジョン plays (his timer stops,
    スティファニー's is set), then undoes: his timer runs again with its first deadline
    and hers is gone; at that deadline his turn is passed. Redo instead puts hers back."""
    g = await make_game(
        options={"turn_seconds": 60, "timeout_pass": True},
        history=HistorySettings(player_undo=True),
    )
    now = [T0]
    g.h.hub.clock = lambda: now[0]
    john, steph, ken, _ = g.cids
    (mine,) = g.h.state.timers.values()
    g.h.roll(1, 1, 1, 1)
    await g.send(john, C.Neuron(character_id=john))
    (hers,) = g.h.state.timers.values()
    assert hers.character_id == steph
    await g.send(john, Undo())
    assert g.waiting() == (john, "action")
    assert list(g.h.state.timers.values()) == [mine]
    if redo:
        await g.send(john, Redo())
        assert list(g.h.state.timers.values()) == [hers]
        assert g.waiting() == (steph, "action")
    else:
        now[0] = mine.deadline
        assert await g.h.hub.fire_due_timers() == 1
        assert g.waiting() == (steph, "action")  # ジョン's turn passed by his own timer
    await g.h.assert_replay_matches()
    await g.h.hub.close()


async def test_a_restored_timer_past_its_deadline_expires_at_once() -> None:
    """The undo comes after ジョン's first deadline: his timer is back and the server
    expires it at once (its own wake-up, re-armed by the undo), passing his turn."""
    g = await make_game(options={"turn_seconds": 60, "timeout_pass": True})
    now = [T0]
    g.h.hub.clock = lambda: now[0]
    john, steph, _, _ = g.cids
    (mine,) = g.h.state.timers.values()
    g.h.roll(1, 1, 1, 1)
    await g.send(john, C.Neuron(character_id=john))
    now[0] = mine.deadline + dt.timedelta(seconds=5)
    await g.h.send(g.h.gm, Undo())
    assert list(g.h.state.timers) == [mine.id]
    # the hub re-armed its wake-up on the undo: its own alarm expires the timer, unasked
    for _ in range(200):
        if mine.id not in g.h.state.timers:
            break
        await asyncio.sleep(0)
    assert mine.id not in g.h.state.timers
    assert g.waiting() == (steph, "action")
    assert await g.h.hub.fire_due_timers() == 0  # once only
    await g.h.hub.close()


async def test_turn_timers_stop_after_a_whole_round_of_timeouts_until_someone_moves() -> None:
    """Everyone gone, ``turn_seconds`` 60: the four turns pass by the timer, then no timer
    is set (the table waits instead of passing turns for ever); when a player moves
    again, the timers come back."""
    g = await make_game(options={"turn_seconds": 60, "timeout_pass": True})
    now = [T0]
    g.h.hub.clock = lambda: now[0]
    (first,) = g.h.state.timers.values()
    now[0] = first.deadline
    passed = []
    for _ in range(4):
        who, _step = g.waiting()
        passed.append(who)
        now[0] += dt.timedelta(seconds=60)
        assert await g.h.hub.fire_due_timers() == 1
    assert passed == list(g.g.seats)  # one whole round, each passed once
    assert not g.h.state.timers
    now[0] += dt.timedelta(hours=1)
    assert await g.h.hub.fire_due_timers() == 0
    who, step = g.waiting()
    assert step == "action"
    g.h.roll(1, 1, 1, 1)
    await g.send(who, C.Neuron(character_id=who))
    (t,) = g.h.state.timers.values()
    assert t.character_id == g.waiting()[0] and g.g.idle_passes == 0
    await g.h.assert_replay_matches()
    await g.h.hub.close()


async def test_an_undo_with_its_timer_events_verifies_with_the_seed() -> None:
    """On the table's own seeded dice, a move undone (its timer events after the
    ``undone``) is decided again by ``taku verify`` with the same events."""
    now = [T0]
    for _ in range(10):  # the deal is random here: a table whose dealer has an action
        store = MemoryEventStore()
        hub = Hub(store, load_registry(), clock=lambda: now[0])
        created = await hub.create_table(
            ruleset="shadowjan",
            options={"timeout_pass": True, "turn_seconds": 30},
            history=HistorySettings(player_undo=True),
        )
        table = await hub.table(created.table_id)
        gm = created.member_id
        for i, name in enumerate(("ジョン", "ケン")):
            first, _, _ = await table.execute(
                gm, CreateCharacter(name=name, sheet=ninja()), command_id=f"cc{i}"
            )
            await table.execute(gm, C.Sit(character_id=f"c{first}"), command_id=f"sit{i}")
        await table.execute(gm, C.Start(), command_id="start")
        who, step = waiting_for(table.state.game)
        if step == "action":
            break
        await hub.close()
    assert step == "action"
    before = dict(table.state.timers)
    await table.execute(gm, C.Neuron(character_id=who), command_id="move")
    assert table.state.timers != before
    await table.execute(gm, Undo(), command_id="undo")
    assert table.state.timers == before
    await table.execute(gm, RevealSeed(), command_id="reveal")
    recs = await store.read(created.table_id)
    assert [r.type for r in recs if r.command_id == "undo"][1:] == ["timer_cancelled", "timer_set"]
    report = verify_log(lines_from_records(recs), registry=load_registry())
    assert report.ok, report.problems
    assert not report.unchecked, report.unchecked
    await hub.close()
