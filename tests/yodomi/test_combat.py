"""Round progression, engagements, attacks and spot rules (YD-29 … YD-70)."""

from __future__ import annotations

from typing import Any

from taku_yodomi import commands as C
from taku_yodomi.events import ActorChosen, AttackResolved, ContestResolved, Damaged
from taku_yodomi.state import Process


async def _combat(yd: Any, engagements: list[list[str]], **kw: Any) -> None:
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=engagements, **kw))
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # initiative: first actor


def _actor(yd: Any) -> str | None:
    return yd.game.combat.actor


async def test_initiative_highest_action_first(yd: Any) -> None:
    """G-YD-09: the 未行動 character with the highest 【行動値】 acts next (A 6, E 4, B 3)."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    assert yd.game.combat.process == Process.MAIN and _actor(yd) == yd.a
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a, major=True, what="様子見"))
    assert _actor(yd) == yd.e
    await yd.h.send(yd.h.gm, C.Minor(character_id=yd.e, major=True))
    assert _actor(yd) == yd.b
    evs = await yd.h.send(yd.pb, C.Minor(character_id=yd.b, major=True))
    assert evs[-1] == ActorChosen(character_id=None) and yd.game.combat.process == Process.CLEANUP


async def test_waiting_acts_last_lowest_first(yd: Any) -> None:
    """YD-32: 待機 moves to the end; among waiters the lowest 【行動値】 acts first."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    await yd.h.send(yd.pa, C.Wait(character_id=yd.a))  # A (6) waits
    assert _actor(yd) == yd.e
    await yd.h.send(yd.h.gm, C.Wait(character_id=yd.e))  # E (4) waits
    assert _actor(yd) == yd.b
    await yd.h.send(yd.pb, C.Minor(character_id=yd.b, major=True))
    assert _actor(yd) == yd.e  # lowest waiter first
    await yd.h.send(yd.h.gm, C.Minor(character_id=yd.e, major=True))
    assert _actor(yd) == yd.a


async def test_only_the_actor_acts(yd: Any) -> None:
    """YD-32: actions belong to the character whose main process it is."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    err = await yd.h.rejected(yd.pb, C.Minor(character_id=yd.b))
    assert err.code == "rule/yodomi/not_your_turn"
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a))
    err = await yd.h.rejected(yd.pa, C.Minor(character_id=yd.a))
    assert err.code == "rule/yodomi/minor_used"


async def test_surprised_are_acted_in_round_one(yd: Any) -> None:
    """YD-67: 不意打ち victims are 行動済み for the first round."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]], surprised=[yd.a])
    assert _actor(yd) == yd.e and yd.game.chars[yd.a].acted == "acted"


async def test_cleanup_poison_and_stun_then_new_round(yd: Any) -> None:
    """YD-36, YD-56, YD-58: cleanup deals 毒X as XD6 and ends 放心; then a new setup."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="毒", x=2))
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="放心"))
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    for who, cid in ((yd.pa, yd.a), (yd.h.gm, yd.e), (yd.pb, yd.b)):
        await yd.h.send(who, C.Minor(character_id=cid, major=True))
    yd.h.roll(3, 5)
    evs = await yd.h.send(yd.h.gm, C.AdvanceRound())
    d = next(e for e in evs if isinstance(e, Damaged))
    assert (
        d.amount == 8
        and yd.game.chars[yd.b].pp == 22
        and "放心" not in yd.game.chars[yd.b].statuses
    )
    assert yd.game.combat.round == 2 and yd.game.combat.process == Process.SETUP


async def test_move_and_engaged_block(yd: Any) -> None:
    """YD-39: 移動 joins another engagement; not while engaged with an enemy."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    err = await yd.h.rejected(yd.pa, C.Move(character_id=yd.a, engagement="e2"))
    assert err.code == "rule/yodomi/engaged"
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a, major=True))
    await yd.h.send(yd.h.gm, C.Minor(character_id=yd.e, major=True))
    await yd.h.send(yd.pb, C.Move(character_id=yd.b, engagement="e1"))
    assert (
        set(yd.game.combat.engagements["e1"]) == {yd.a, yd.e, yd.b}
        and "e2" not in yd.game.combat.engagements
    )


async def test_disengage_and_block(yd: Any) -> None:
    """YD-40, YD-41: 離脱 without a roll; against 封鎖, win a 行動値 対決 (ties to the blocker)."""
    await _combat(yd, [[yd.a, yd.b, yd.e]])
    # A (6) acts first, waits; E (4) blocks; B (3) tries to leave
    await yd.h.send(yd.pa, C.Wait(character_id=yd.a))
    await yd.h.send(yd.h.gm, C.Block(character_id=yd.e))
    assert yd.game.combat.blockers["e1"] == [yd.e]
    yd.h.roll(4, 5, 5, 2)  # B: 3+9 = 12, E: 4+7 = 11 -> B wins
    evs = await yd.h.send(yd.pb, C.Disengage(character_id=yd.b))
    res = next(e for e in evs if isinstance(e, ContestResolved))
    assert (res.action_value, res.reaction_value, res.winner) == (12, 11, "action")
    assert yd.game.combat.engagements["e2"] == [yd.b]
    # A: 6+4 = 10 against E: 4+6 = 10 -> the blocker wins the tie
    yd.h.roll(2, 2 + 2, 3, 3 + 0)
    evs = await yd.h.send(yd.pa, C.Disengage(character_id=yd.a))
    assert type(evs[-2]).__name__ == "DisengageFailed" and yd.a in yd.game.combat.engagements["e1"]


async def test_flying_leaves_by_move(yd: Any) -> None:
    """YD-65: a flying character leaves a non-flying engagement with a plain 移動, unblocked."""
    await yd.h.send(yd.pa, C.SetFlying(character_id=yd.a))
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    await yd.h.send(yd.pa, C.Move(character_id=yd.a, engagement="e2"))
    assert set(yd.game.combat.engagements["e2"]) == {yd.a, yd.b}


async def test_attack_defence_tie_goes_to_defender(yd: Any) -> None:
    """YD-42: hit 2D9 against the defence; equal 達成値 go to the defender."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    yd.h.roll(3, 4)  # A: 体5 + 7 = 12
    evs = await yd.h.send(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, ability="体", power=10, attribute="体")
    )
    aid = evs[-1].attack.attack_id
    yd.h.roll(4, 5)  # E: evasion 3 + 9 = 12
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=aid))
    res = next(e for e in evs if isinstance(e, AttackResolved))
    assert res.winner == "defender" and yd.game.chars[yd.e].pp == 20
    assert _actor(yd) == yd.e


async def test_attack_hits_and_damages(yd: Any) -> None:
    """YD-42, YD-44: the attacker wins, damage = power - defence."""
    yd.h.roll(6, 4)
    evs = await yd.h.send(
        yd.pa,
        C.Attack(attacker=yd.a, target=yd.e, ability="体", power=10, skill_bonus=3, attribute="体"),
    )
    yd.h.roll(1, 2)
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=evs[-1].attack.attack_id))
    assert (
        next(e for e in evs if isinstance(e, Damaged)).amount == 11 and yd.game.chars[yd.e].pp == 9
    )


async def test_attacker_fumble_misses_without_defence(yd: Any) -> None:
    """YD-43, G-YD-08: an attacker's fumble misses; the defender does not roll."""
    yd.h.roll(10, 10)
    evs = await yd.h.send(yd.pa, C.Attack(attacker=yd.a, target=yd.e, power=10))
    assert isinstance(evs[-1], AttackResolved) and evs[-1].fumble and yd.game.attacks == {}


async def test_counter_damages_attacker(yd: Any) -> None:
    """YD-42: a successful 突き返し lets the defender deal damage."""
    yd.h.roll(1, 1 + 1)
    evs = await yd.h.send(yd.h.gm, C.Attack(attacker=yd.e, target=yd.a, ability="体", power=10))
    yd.h.roll(5, 5 + 1)
    evs = await yd.h.send(
        yd.pa,
        C.Defend(
            attack_id=evs[-1].attack.attack_id,
            mode="counter",
            ability="体",
            counter_power=8,
            counter_attribute="体",
        ),
    )
    res = next(e for e in evs if isinstance(e, AttackResolved))
    assert res.countered and yd.game.chars[yd.e].pp == 20 - (8 - 2)


async def test_cover_takes_the_attack(yd: Any) -> None:
    """YD-69: an 未行動 ally in the same engagement takes the attack and becomes 行動済み."""
    await _combat(yd, [[yd.a, yd.b, yd.e]])
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a, major=True))
    yd.h.roll(9, 8)
    evs = await yd.h.send(yd.h.gm, C.Attack(attacker=yd.e, target=yd.a, power=10))
    aid = evs[-1].attack.attack_id
    await yd.h.send(yd.pb, C.Cover(attack_id=aid, character_id=yd.b))
    assert yd.game.chars[yd.b].acted == "acted"
    yd.h.roll(1, 2)
    await yd.h.send(yd.pb, C.Defend(attack_id=aid))
    assert yd.game.chars[yd.b].pp == 20 and yd.game.chars[yd.a].pp == 40


async def test_called_shot_minus_20_hits_the_item(yd: Any) -> None:
    """YD-70: 武器狙い takes -20 and its damage goes to the item's 【PP】."""
    yd.h.roll(9, 9)
    evs = await yd.h.send(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, value=30, called_shot="爪", power=7)
    )
    assert evs[0].check.penalty == 20
    yd.h.roll(1, 1 + 1)
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=evs[-1].attack.attack_id))
    d = next(e for e in evs if isinstance(e, Damaged))
    assert d.to == "item" and d.item_pp == 1 and yd.game.chars[yd.e].pp == 20


async def test_ambush_reaction_minus_3(yd: Any) -> None:
    """YD-67: reactions against a 不意打ち take -3."""
    yd.h.roll(5, 5 + 1)
    evs = await yd.h.send(yd.h.gm, C.Attack(attacker=yd.e, target=yd.a, power=1, ambush=True))
    yd.h.roll(5, 5 + 1)
    evs = await yd.h.send(yd.pa, C.Defend(attack_id=evs[-1].attack.attack_id))
    assert evs[0].check.penalty == 3


async def test_stealth_untargetable_until_major(yd: Any) -> None:
    """YD-66: 隠密 (not engaged) cannot be targeted; it ends with a major action."""
    await yd.h.send(yd.pb, C.Hide(character_id=yd.b))
    err = await yd.h.rejected(yd.h.gm, C.Attack(attacker=yd.e, target=yd.b, power=1))
    assert err.code == "rule/yodomi/hidden_target"
    yd.h.roll(1, 2)
    await yd.h.send(yd.pb, C.Attack(attacker=yd.b, target=yd.e, power=1))
    assert not yd.game.chars[yd.b].stealth


async def test_passenger_moves_with_rider(yd: Any) -> None:
    """YD-68: a 同乗 passenger moves with the rider and cannot move on its own."""
    await _combat(yd, [[yd.a, yd.b], [yd.e]])
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a, major=True))
    await yd.h.send(yd.h.gm, C.Minor(character_id=yd.e, major=True))
    await yd.h.send(yd.pb, C.Mount(character_id=yd.b, rider=yd.a))
    err = await yd.h.rejected(yd.pb, C.Move(character_id=yd.b, engagement="e2", major=True))
    assert err.code == "rule/yodomi/passenger"
    await yd.h.send(yd.pb, C.Minor(character_id=yd.b, major=True))
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # cleanup
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # A first
    await yd.h.send(yd.pa, C.Move(character_id=yd.a, engagement="e2"))
    assert set(yd.game.combat.engagements["e2"]) == {yd.a, yd.b, yd.e}
    await yd.h.assert_replay_matches()


async def test_paralysis_blocks_major(yd: Any) -> None:
    """YD-57: マヒ: no major action."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="マヒ"))
    err = await yd.h.rejected(yd.pa, C.Attack(attacker=yd.a, target=yd.e, power=1))
    assert err.code == "rule/yodomi/paralysed"


async def test_entering_during_combat_joins_it(yd: Any) -> None:
    """YD-30: a character who enters the scene in the setup process joins the fight, 未行動."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="climax", scene_player=yd.a, present=[yd.e]))
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=[[yd.a, yd.e]]))
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    yd.h.roll(1, 2)
    await yd.h.send(yd.pb, C.EnterScene(character_id=yd.b))
    cb = yd.game.combat
    assert yd.b in cb.participants and cb.engagements["e2"] == [yd.b]
    assert yd.game.chars[yd.b].acted == "unacted"


async def test_disabled_weapon_cannot_attack(yd: Any) -> None:
    """YD-60: 使用不能 weapons cannot be used to attack; a minor action repairs it."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="使用不能", item="刀"))
    err = await yd.h.rejected(yd.pa, C.Attack(attacker=yd.a, target=yd.e, weapon="刀", power=5))
    assert err.code == "rule/yodomi/weapon_disabled"
    await yd.h.send(yd.pa, C.RemoveStatus(character_id=yd.a, status="使用不能", item="刀"))
    yd.h.roll(1, 2)
    await yd.h.send(yd.pa, C.Attack(attacker=yd.a, target=yd.e, weapon="刀", power=5))


async def test_nothing_after_the_major_action(yd: Any) -> None:
    """YD-32: the major action comes last; while its attack waits for the defence, no more actions."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    yd.h.roll(5, 6)
    evs = await yd.h.send(yd.pa, C.Attack(attacker=yd.a, target=yd.e, power=1))
    err = await yd.h.rejected(yd.pa, C.Minor(character_id=yd.a))
    assert err.code == "rule/yodomi/turn_over"
    yd.h.roll(1, 2)
    await yd.h.send(yd.h.gm, C.Defend(attack_id=evs[-1].attack.attack_id))
    assert _actor(yd) == yd.e


async def test_disengage_plays_flow_on_the_block_contest(new_table: Any, order: Any) -> None:
    """YD-41, YD-25: 流れ given with a 離脱 raise the leaver's 対決 against the blocker (they were
    silently dropped); with no blocker there is no check, so cards are refused and nothing is written."""
    yd = await new_table(shuffles=[order("♠5", "♥7")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    await _combat(yd, [[yd.a, yd.b, yd.e]])
    await yd.h.send(yd.pa, C.Wait(character_id=yd.a))
    await yd.h.send(yd.h.gm, C.Block(character_id=yd.e))
    yd.h.roll(2, 3, 5, 2)  # B: 3+5 = 8 (+1 off-suit ♥7 = 9), E: 4+7 = 11
    evs = await yd.h.send(yd.pb, C.Disengage(character_id=yd.b, cards=["♥7"]))
    res = next(e for e in evs if isinstance(e, ContestResolved))
    assert (res.action_value, res.reaction_value) == (9, 11)
    assert yd.game.hands[yd.b] == ["♠5"]


async def test_disengage_without_block_refuses_cards(new_table: Any, order: Any) -> None:
    """YD-40: an unblocked 離脱 has no check: 流れ are refused with nothing written."""
    yd = await new_table(shuffles=[order("♠5")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a))
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    err = await yd.h.rejected(yd.pa, C.Disengage(character_id=yd.a, cards=["♠5"]))
    assert err.code == "rule/yodomi/no_check"


async def test_poison_does_not_vanish_the_dead_or_stop_the_cleanup(yd: Any) -> None:
    """YD-56, YD-50, YD-53: 毒X is no attack: a 死亡 character with 毒 is not made 完全消滅 by it,
    and a 完全消滅 one with 毒 takes nothing (the cleanup used to be refused: not_in_play)."""
    from taku_yodomi.state import Condition

    from .test_states import _hit

    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="毒", x=1))
    await _hit(yd, yd.e, yd.b, 30)  # PP 0
    await _hit(yd, yd.e, yd.b, 50)  # SP 0: 死亡
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    for who, cid in ((yd.pa, yd.a), (yd.h.gm, yd.e)):
        await yd.h.send(who, C.Minor(character_id=cid, major=True))
    evs = await yd.h.send(yd.h.gm, C.AdvanceRound())  # cleanup: no die, no damage
    assert not any(isinstance(e, Damaged) for e in evs)
    assert yd.game.chars[yd.b].condition == Condition.DEAD
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # A acts
    await _hit(yd, yd.a, yd.b, 1, by=yd.pa)  # attacked while dead: 完全消滅
    assert yd.game.chars[yd.b].condition == Condition.VANISHED
    await yd.h.send(yd.h.gm, C.Minor(character_id=yd.e, major=True))
    evs = await yd.h.send(yd.h.gm, C.AdvanceRound())
    assert yd.game.combat.round == 3


async def test_kiwaza_fall_on_the_dead_deals_nothing(yd: Any) -> None:
    """YD-61, YD-50: the 4D6 of 極技+転倒 is no attack and does not make the dead 完全消滅."""
    from taku_yodomi.state import Condition

    from .test_states import _hit

    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="極技", by=yd.e))
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    evs = await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="転倒"))
    assert not any(isinstance(e, Damaged) for e in evs)
    assert yd.game.chars[yd.b].condition == Condition.DEAD
