"""The ``timeout_pass`` option: a GM's timer running out passes the turn the table waits
for (issue #20, item 3; the ruleset's ``on_timer``). Time is the hub's injected clock."""

from __future__ import annotations

import datetime as dt

from taku.app import Hub
from taku.core.commands import CreateCharacter, RevealSeed, SetTimer
from taku.core.events import TimerCancelled, TimerExpired
from taku.plugins import load_registry
from taku.store import MemoryEventStore
from taku.verify import lines_from_records, verify_log
from taku_shadowjan import commands as C
from taku_shadowjan import events as ev
from taku_shadowjan.decider import waiting_for

from .conftest import Game, make_game, ninja

T0 = dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC)


def _clocked(g: Game) -> list[dt.datetime]:
    now = [T0]
    g.h.hub.clock = lambda: now[0]
    return now


async def _expire(g: Game, now: list[dt.datetime], character_id: str | None) -> list[object]:
    """The GM sets a 60 s timer (for ``character_id``'s turn), the clock passes it, and
    the hub fires it: the events of the expiry."""
    await g.h.send(g.h.gm, SetTimer(duration_s=60, label="持ち時間", character_id=character_id))
    seq = g.h.state.seq
    now[0] += dt.timedelta(seconds=60)
    assert await g.h.hub.fire_due_timers() == 1
    return await g.h.events(after_seq=seq)


async def test_an_expired_timer_passes_the_turn() -> None:
    """ジョン (dealer, 2 メンツ) does nothing for 60 s: his turn is passed with no action
    and no dice (nobody has declared, so no 振り込み判定), and スティファニー's turn begins."""
    g = await make_game(options={"timeout_pass": True})
    john, steph, _, _ = g.cids
    now = _clocked(g)
    assert g.waiting() == (john, "action")
    events = await _expire(g, now, john)
    assert [type(e) for e in events] == [
        TimerExpired,
        ev.TurnPassed,
        ev.TurnEnded,
        ev.TurnStarted,
        ev.ToMove,
    ]
    assert events[1] == ev.TurnPassed(character_id=john, step="action")
    assert g.waiting() == (steph, "action")
    assert g.p(john).mentsu == 2
    frames = await g.h.frames(g.h.gm)
    assert frames[-4]["text"] == "時間切れ: ジョン の手番を飛ばす（行動なし）"
    assert frames[-5].get("actor") is None
    await g.h.assert_replay_matches()


async def test_a_passed_tsumo_still_rolls_the_furikomi_check() -> None:
    """ジョン is in リーチ and スティファニー in ダマテン: ジョン's ツモ判定 is passed by the
    timer, and his 振り込み判定 is still rolled (SJ-20: U-HARD after リーチ, 【ニューロン】4
    dice: 6,1,1,1 succeeds); then スティファニー's ツモ判定 is due."""
    g = await make_game(options={"timeout_pass": True}, deal=[2, 2, 4, 4])
    john, steph, _, _ = g.cids
    now = _clocked(g)
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    await g.send(steph, C.Declare(character_id=steph, kind="dama"))
    assert g.waiting() == (john, "tsumo")
    g.h.roll(6, 1, 1, 1)
    events = await _expire(g, now, None)
    passed = [e for e in events if isinstance(e, ev.TurnPassed)]
    assert passed == [ev.TurnPassed(character_id=john, step="tsumo")]
    (furikomi,) = [e for e in events if isinstance(e, ev.FurikomiRolled)]
    assert furikomi.character_id == john and furikomi.difficulty == 6 and furikomi.success
    assert not [e for e in events if isinstance(e, ev.TsumoRolled)]
    assert g.waiting() == (steph, "tsumo")
    await g.h.assert_replay_matches()


async def test_the_option_off_or_another_turn_only_logs_the_expiry() -> None:
    """Without the option the expiry is logged and ジョン still has the move; with it, a
    timer for ケン's turn expiring during ジョン's passes nothing either."""
    g = await make_game()
    john, _, ken, _ = g.cids
    now = _clocked(g)
    assert [type(e) for e in await _expire(g, now, john)] == [TimerExpired]
    assert g.waiting() == (john, "action")

    g = await make_game(options={"timeout_pass": True})
    john, _, ken, _ = g.cids
    now = _clocked(g)
    assert [type(e) for e in await _expire(g, now, ken)] == [TimerExpired]
    assert g.waiting() == (john, "action")


async def test_a_passed_turn_verifies_with_the_seed() -> None:
    """On the table's own seeded dice, with ``turn_seconds`` (the ruleset's own timers),
    an expiry that passes a turn (and whatever the turn's end rolls) is decided again by
    ``taku verify`` with the same events: the deadlines from the logged times, on_timer's
    events from the ruleset."""

    now = [T0]
    for _ in range(10):  # the deal is random here: a table whose dealer has an action
        store = MemoryEventStore()
        hub = Hub(store, load_registry(), clock=lambda: now[0])
        created = await hub.create_table(
            ruleset="shadowjan", options={"timeout_pass": True, "turn_seconds": 30}
        )
        table = await hub.table(created.table_id)
        gm = created.member_id
        for i, name in enumerate(("ジョン", "ケン")):
            first, _, _ = await table.execute(
                gm, CreateCharacter(name=name, sheet=ninja()), command_id=f"cc{i}"
            )
            cid = f"c{first}"
            await table.execute(gm, C.Sit(character_id=cid), command_id=f"sit{i}")
        await table.execute(gm, C.Start(), command_id="start")
        who, step = waiting_for(table.state.game)
        if step == "action":
            break
        await hub.close()
    assert step == "action"
    assert [t.character_id for t in table.state.timers.values()] == [who]
    now[0] += dt.timedelta(seconds=30)
    assert await hub.fire_due_timers() == 1
    await table.execute(gm, RevealSeed(), command_id="reveal")
    recs = await store.read(created.table_id)
    types = [r.type for r in recs]
    assert "shadowjan.turn_passed" in types and types.count("timer_set") == 2
    report = verify_log(lines_from_records(recs), registry=load_registry())
    assert report.ok, report.problems
    assert not report.unchecked, report.unchecked
    await hub.close()


async def test_turn_seconds_times_every_move_and_passes_an_absent_player() -> None:
    """``turn_seconds`` 60: the ruleset sets the timer itself. ジョン's move gets one at
    the start; when he plays, it is stopped and スティファニー's is set; she is away, so
    at its deadline her turn is passed and ケン's timer is set."""
    g = await make_game(options={"turn_seconds": 60, "timeout_pass": True})
    john, steph, ken, _ = g.cids
    now = _clocked(g)
    (t,) = g.h.state.timers.values()
    assert (t.character_id, t.label, t.duration_s) == (john, "持ち時間", 60)
    g.h.roll(1, 1, 1, 1)  # a failed ニューロン: no メンツ, nobody has declared
    events = await g.send(john, C.Neuron(character_id=john))
    assert [e.timer_id for e in events if isinstance(e, TimerCancelled)] == [t.id]
    (t2,) = g.h.state.timers.values()
    assert t2.character_id == steph
    assert t2.deadline == now[0] + dt.timedelta(seconds=60)
    now[0] += dt.timedelta(seconds=60)
    assert await g.h.hub.fire_due_timers() == 1
    assert g.waiting() == (ken, "action")
    (t3,) = g.h.state.timers.values()
    assert t3.character_id == ken and t3.id != t2.id
    await g.h.assert_replay_matches()
