"""ラウンド進行: initiative, 待機, 行動放棄, 状態 and the end of a combat (CH-10…CH-17, CH-24, CH-25)."""

from __future__ import annotations

from typing import Any

from taku_chabu.commands import (
    Attack,
    Decline,
    EndCombat,
    Evade,
    Move,
    PassAction,
    SetOrder,
    StartCombat,
    Wait,
)
from taku_chabu.events import CombatEnded, RoundEnded, RoundStarted
from taku_chabu.state import Condition

MANUAL = Condition(text="GMが判断する")


def start(participants: list[str], agreed: list[str] | None = None, **kw: Any) -> StartCombat:
    return StartCombat(
        victory=kw.get("victory", MANUAL),
        defeat=kw.get("defeat", MANUAL),
        participants=participants,
        agreed_order=agreed or [],
    )


async def test_initiative_by_dl_then_ingaoho_then_pc_first(t: Any) -> None:
    """CH-12: higher DL first; on equal DL higher current インガオホー値; then PCs before NPCs."""
    npc_dl3 = await t.npc("DL3のNPC", dl=3)
    pc_dl2_low = await t.pc(t.pl1, "DL2 イ10のPC", dl=2, ingaoho=10)
    npc_dl2_high = await t.npc("DL2 イ30のNPC", dl=2, ingaoho=30)
    npc_dl1 = await t.npc("DL1のNPC", dl=1, ingaoho=5)
    pc_dl1 = await t.pc(t.pl2, "DL1のPC", dl=1, ingaoho=5)
    events = await t.h.send(t.gm, start([npc_dl1, pc_dl2_low, npc_dl3, pc_dl1, npc_dl2_high]))
    (rs,) = [e for e in events if isinstance(e, RoundStarted)]
    assert list(rs.order) == [npc_dl3, npc_dl2_high, pc_dl2_low, pc_dl1, npc_dl1]
    assert t.h.view(t.pl1)["game"]["turn"] == npc_dl3


async def test_players_agreed_order_breaks_the_last_tie(t: Any) -> None:
    """CH-12: equal DL, インガオホー値 and both PCs: the players' agreed order, recomputed each round."""
    a = await t.pc(t.pl1, "A")
    b = await t.pc(t.pl2, "B")
    events = await t.h.send(t.gm, start([a, b], agreed=[b, a]))
    assert [e for e in events if isinstance(e, RoundStarted)][0].order == (b, a)
    await t.h.send(t.gm, SetOrder(agreed_order=[a, b]))
    await t.h.send(t.pl2, PassAction(character_id=b))
    events = await t.h.send(t.pl1, PassAction(character_id=a))
    assert [e for e in events if isinstance(e, RoundStarted)][0].order == (a, b)


async def test_initiative_recomputed_each_round_from_current_ingaoho(t: Any) -> None:
    """CH-12: the order uses the CURRENT インガオホー値 and is decided again every round."""
    a = await t.pc(t.pl1, "A", ingaoho=10)
    b = await t.npc("B", ingaoho=20)
    await t.h.send(t.gm, start([a, b]))
    assert t.h.game.combat.round.order == [b, a]
    from taku_chabu.commands import Adjust

    await t.h.send(t.gm, Adjust(character_id=a, key="ingaoho", value=40))
    await t.h.send(t.gm, PassAction(character_id=b))
    await t.h.send(t.pl1, PassAction(character_id=a))
    assert t.h.game.combat.round.number == 2 and t.h.game.combat.round.order == [a, b]


async def test_a_waiting_character_acts_after_everyone_else(t: Any) -> None:
    """CH-14: 待機 moves the character after all who did not wait; waiters keep initiative order."""
    a = await t.npc("A", dl=4)
    b = await t.npc("B", dl=3)
    c = await t.pc(t.pl1, "C", dl=2)
    d = await t.pc(t.pl2, "D", dl=1)
    await t.h.send(t.gm, start([a, b, c, d]))
    turn = lambda: t.h.view(t.gm)["game"]["turn"]  # noqa: E731
    assert turn() == a
    await t.h.send(t.gm, Wait(character_id=a))
    assert turn() == b
    await t.h.send(t.gm, Wait(character_id=b))
    assert turn() == c
    err = await t.h.rejected(t.gm, PassAction(character_id=a))
    assert err.code == "rule/chabu/not_your_turn"
    await t.h.send(t.pl1, Move(character_id=c))
    await t.h.send(t.pl2, PassAction(character_id=d))
    # everyone who did not wait is 行動完了: the waiters, in initiative order
    assert turn() == a
    err = await t.h.rejected(t.gm, Wait(character_id=a))
    assert err.code == "rule/chabu/already_waited"  # G-CH-12
    await t.h.send(t.gm, PassAction(character_id=a))
    assert turn() == b
    assert t.h.view(t.gm)["game"]["status"][a] == "koudoukanryou"
    events = await t.h.send(t.gm, PassAction(character_id=b))
    assert [type(e) for e in events][-2:] == [RoundEnded, RoundStarted]
    assert t.h.view(t.gm)["game"]["status"] == {x: "mikoudou" for x in (a, b, c, d)}
    await t.h.assert_replay_matches()


async def test_incapacitated_is_not_mikoudou_next_round(t: Any) -> None:
    """CH-11, CH-24: at HP 0 the character does not become 未行動 and takes no action."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    await t.h.send(t.gm, start([a, b]))
    from taku_chabu.commands import Adjust

    await t.h.send(t.gm, Adjust(character_id=b, key="hp", value=0))
    assert t.h.view(t.gm)["game"]["status"][b] == "sentoufunou"
    err = await t.h.rejected(t.gm, Move(character_id=b))
    assert err.code == "rule/chabu/incapacitated"
    events = await t.h.send(t.pl1, PassAction(character_id=a))
    (rs,) = [e for e in events if isinstance(e, RoundStarted)]
    assert rs.number == 2 and rs.order == (a,)


async def test_dl0_at_hp0_dies_and_stays_dead(t: Any) -> None:
    """CH-25: a DL 0 character at HP 0 is 死亡, not merely 戦闘不能."""
    mook = await t.npc("モータルヤクザ", dl=0, hp=5)
    ninja = await t.npc("ニンジャ", dl=1, hp=5)
    from taku_chabu.commands import Adjust

    await t.h.send(t.gm, Adjust(character_id=mook, key="hp", value=0))
    await t.h.send(t.gm, Adjust(character_id=ninja, key="hp", value=0))
    status = t.h.view(t.gm)["game"]["status"]
    assert status[mook] == "shibou" and status[ninja] == "sentoufunou"
    await t.h.send(t.gm, Adjust(character_id=mook, key="hp", value=5))
    assert t.h.view(t.gm)["game"]["status"][mook] == "shibou"


async def test_gm_ends_a_manual_condition(t: Any) -> None:
    """CH-10: a condition the server cannot see is declared by the GM; only the GM may."""
    a = await t.pc(t.pl1, "A")
    await t.h.send(t.gm, start([a]))
    err = await t.h.rejected(t.pl1, EndCombat(outcome="victory"))
    assert err.code == "command/forbidden"
    (ev,) = await t.h.send(t.gm, EndCombat(outcome="victory", reason="護衛対象が脱出した"))
    assert isinstance(ev, CombatEnded) and t.h.game.combat is None


async def test_full_round_to_the_victory_condition_and_replay(t: Any) -> None:
    """CH-10…CH-22: a scripted fight ends the moment the GM's victory condition holds; the log replays to it."""
    hero = await t.pc(
        t.pl1,
        "ニンジャスレイヤー",
        dl=3,
        hp=40,
        abilities={"肉体": 60, "反応": 50},
        skills={"カラテ": 20},
    )
    ally = await t.pc(t.pl2, "ナンシー", dl=2, hp=20)
    foe1 = await t.npc("クローンヤクザ1", dl=1, hp=8)
    foe2 = await t.npc("クローンヤクザ2", dl=1, hp=30)
    victory = Condition(text="襲撃者の全滅", kind="all_down", characters=[foe1, foe2])
    defeat = Condition(text="ナンシーの死亡", kind="any_dead", characters=[ally])
    await t.h.send(t.gm, start([foe1, hero, foe2, ally], victory=victory, defeat=defeat))
    # round 1: hero (DL3) → ally (DL2) → foe1, foe2 (DL1, participant order)
    assert t.h.game.combat.round.order == [hero, ally, foe1, foe2]
    # hero cuts foe1: hit 30 <= 80, foe1 evades with 反応30: 70 fails; 5 + 3d10 [2,3,4] = 14 ≥ 8
    t.roll(30, 70)
    t.d10(2, 3, 4)
    await t.h.send(t.pl1, Attack(character_id=hero, equipment="カタナ", targets=[foe1]))
    await t.h.send(t.gm, Evade(character_id=foe1))
    assert t.char(foe1).hp == 0
    # ally throws shuriken at foe2: 肉体40+射撃20 = 60, roll 45 hits; foe2 takes it: 3 + 2d10 [6,1] = 10
    t.roll(45)
    t.d10(6, 1)
    await t.h.send(t.pl2, Attack(character_id=ally, equipment="スリケン", targets=[foe2]))
    await t.h.send(t.gm, Decline(character_id=foe2))
    assert t.char(foe2).hp == 20
    # foe1 is 戦闘不能 and skipped; foe2 attacks ally and misses (roll 90 > 55)
    assert t.h.view(t.gm)["game"]["turn"] == foe2
    t.roll(90)
    events = await t.h.send(t.gm, Attack(character_id=foe2, equipment="カタナ", targets=[ally]))
    (rs,) = [e for e in events if isinstance(e, RoundStarted)]
    assert rs.number == 2 and rs.order == (hero, ally, foe2)
    # round 2: hero finishes foe2: hit 12, evasion 50 > 30 fails, 5 + [10,10,10] = 35
    t.roll(12, 50)
    t.d10(10, 10, 10)
    await t.h.send(t.pl1, Attack(character_id=hero, equipment="カタナ", targets=[foe2]))
    events = await t.h.send(t.gm, Evade(character_id=foe2))
    assert isinstance(events[-1], CombatEnded)
    assert events[-1].outcome == "victory" and events[-1].reason == "襲撃者の全滅"
    assert t.h.game.combat is None and t.h.game.outcome == "victory: 襲撃者の全滅"
    assert t.h.dice.remaining == []
    # the stored log alone folds to the same state, and again at the last seq
    await t.h.assert_replay_matches()
    replayed = await t.h.replay()
    assert replayed.game.outcome == "victory: 襲撃者の全滅"
    assert replayed.game.chars[foe2].hp == 0 and replayed.game.chars[hero].hp == 40


async def test_gm_override_of_ingaoho_to_100_kills(t: Any) -> None:
    """CH-25 via the core ``override``: the game state round-trips and 死亡 follows the value."""
    from taku.core.commands import Override

    a = await t.pc(t.pl1, "A", ingaoho=50)
    await t.h.send(t.gm, Override(path=["game", "chars", a, "ingaoho"], value=100, reason="カルマ"))
    assert t.char(a).dead
    # ディセンション / ゴウランガ are the GM's: lifting 死亡 by hand sticks
    await t.h.send(t.gm, Override(path=["game", "chars", a, "dead"], value=False))
    assert not t.char(a).dead
    await t.h.assert_replay_matches()


async def test_sheet_edit_resets_current_values_only_outside_combat(t: Any) -> None:
    """Starting values edited on the sheet become current outside ラウンド進行; in a round they do not."""
    from taku.core.commands import UpdateCharacter

    a = await t.pc(t.pl1, "A", hp=10)
    await t.h.send(t.pl1, UpdateCharacter(character_id=a, sheet={"hp": 25}))
    assert t.char(a).hp == 25
    await t.h.send(t.gm, StartCombat(victory=MANUAL, defeat=MANUAL, participants=[a]))
    await t.h.send(t.pl1, UpdateCharacter(character_id=a, sheet={"hp": 99}))
    assert t.char(a).hp == 25
    err = await t.h.rejected(t.pl1, UpdateCharacter(character_id=a, sheet={"dl": -1}))
    assert err.code == "command/invalid_sheet"


async def test_waiters_are_ordered_by_the_current_ingaoho(t: Any) -> None:
    """CH-14 (▼メインフェイズ▼ "それらのキャラクターの中で、イニシアティヴ決定フェイズと同様の基準で
    行動順を決定する"): the criteria include the CURRENT インガオホー値 (CH-12).

    A (DL2, イ10) and B (DL2, イ5) both wait; B's 刹那 (cost +8) during C's turn takes
    B to 13, so B acts before A among the waiters.
    """
    from taku_chabu.commands import Check, Proceed, UseTokugi

    a = await t.npc("A", dl=2, ingaoho=10)
    b = await t.npc(
        "B", dl=2, ingaoho=5, tokugi=[{"name": "横槍", "timing": "setsuna", "cost": {"ingaoho": 8}}]
    )
    c = await t.pc(t.pl1, "C", dl=1)
    await t.h.send(t.gm, start([a, b, c]))
    assert t.h.game.combat.round.order == [a, b, c]
    await t.h.send(t.gm, Wait(character_id=a))
    await t.h.send(t.gm, Wait(character_id=b))
    await t.h.send(t.pl1, Check(character_id=c, ability="精神", hold=True))
    await t.h.send(t.gm, UseTokugi(character_id=b, tokugi="横槍"))
    t.roll(20)
    await t.h.send(t.pl1, Proceed())
    await t.h.send(t.pl1, PassAction(character_id=c))
    assert t.char(b).ingaoho == 13
    assert t.h.view(t.gm)["game"]["turn"] == b
    err = await t.h.rejected(t.gm, PassAction(character_id=a))
    assert err.code == "rule/chabu/not_your_turn"
    await t.h.send(t.gm, PassAction(character_id=b))
    assert t.h.view(t.gm)["game"]["turn"] == a
    await t.h.assert_replay_matches()
