"""Damage, 戦闘不能, 強制転換, 死亡 and the choices at death, bad statuses (YD-44 … YD-64)."""

from __future__ import annotations

from typing import Any

import pytest

from taku_yodomi import commands as C
from taku_yodomi.events import ConversionResolved, Damaged
from taku_yodomi.state import Condition


async def _hit(
    yd: Any,
    attacker: str,
    target: str,
    power: int,
    *,
    attribute: str = "",
    by: str | None = None,
    yodomi: bool = False,
    statuses: dict[str, int] | None = None,
) -> list[Any]:
    """``attacker`` hits ``target`` for sure: hit 9+9 (a critical) against a defence that cannot roll."""
    who = by or yd.h.gm
    yd.h.roll(9, 9)
    evs = await yd.h.send(
        who,
        C.Attack(
            attacker=attacker,
            target=target,
            power=power,
            attribute=attribute,
            yodomi=yodomi,
            statuses=statuses or {},
        ),
    )
    aid = evs[-1].attack.attack_id
    owner = yd.h.state.characters[target].owner or yd.h.gm
    return await yd.h.send(owner, C.Defend(attack_id=aid, mode="none"))


async def _fall(yd: Any, cid: str) -> None:
    await _hit(yd, yd.e, cid, 1000)
    assert yd.game.chars[cid].condition == Condition.INCAPACITATED and yd.game.chars[cid].pp == 0


def _dmg(evs: list[Any]) -> Damaged:
    return next(e for e in evs if isinstance(e, Damaged))


async def test_damage_minus_defence(yd: Any) -> None:
    """YD-44: real damage = attack + skill - the defence modifier for the attribute."""
    evs = await _hit(yd, yd.a, yd.e, 9, attribute="体", by=yd.pa)
    d = _dmg(evs)
    assert d.amount == 9 - 2 and d.pp == 20 - 7 and not d.halved


async def test_matching_defence_attribute_halves_rounding_up(yd: Any) -> None:
    """YD-46, G-YD-12: a matching 防御属性 halves the damage, rounded up."""
    d = _dmg(await _hit(yd, yd.a, yd.e, 7, attribute="知", by=yd.pa))
    assert d.halved and d.amount == 4 and d.pp == 16


async def test_yodomi_damage_has_attribute_yodomi(new_table: Any) -> None:
    """YD-45: every damage of 澱み has the attribute 澱み (its defence modifier applies)."""
    yd = await new_table(
        sheets=({"pp": 40, "defense": {"澱み": 3, "体": 1}}, {"pp": 30}, {"pp": 20})
    )
    d = _dmg(await _hit(yd, yd.e, yd.a, 10, attribute="体", yodomi=True))
    assert d.attribute == "澱み" and d.amount == 7 and d.pp == 33


async def test_pp_floors_at_zero_then_damage_goes_to_sp(yd: Any) -> None:
    """YD-44, YD-47: PP stops at 0 (戦闘不能); further damage goes to SP; SP 0 is 死亡."""
    d = _dmg(await _hit(yd, yd.e, yd.b, 45))
    assert d.pp == 0 and d.sp == 50 and yd.game.chars[yd.b].condition == Condition.INCAPACITATED
    d = _dmg(await _hit(yd, yd.e, yd.b, 20))
    assert d.to == "sp" and d.sp == 30 and d.pp == 0
    await _hit(yd, yd.e, yd.b, 99)
    assert yd.game.chars[yd.b].sp == 0 and yd.game.chars[yd.b].condition == Condition.DEAD
    await _hit(yd, yd.e, yd.b, 1)
    assert yd.game.chars[yd.b].condition == Condition.VANISHED  # YD-50: attacked while dead


# --------------------------------------------------------------------------- 強制転換


@pytest.mark.parametrize(
    ("faces", "outcome", "pp", "sp", "condition"),
    [
        ((3, 5), "success", 35, 25, Condition.ACTIVE),  # 35 < 60: PP +35, SP -35
        ((7, 2), "failure", 0, 60, Condition.INCAPACITATED),  # 72 >= 60
        ((4, 4), "full", 0, 60, Condition.ACTIVE),  # a double: 完全転換
        ((10, 10), "complete_failure", 0, 60, Condition.DEAD),  # 00: 完全失敗
        ((6, 10), "complete_failure", 0, 60, Condition.DEAD),  # exactly the SP (60): 完全失敗
    ],
)
async def test_forced_conversion_outcomes(
    yd: Any, faces: tuple[int, int], outcome: str, pp: int, sp: int, condition: Condition
) -> None:
    """YD-49: every outcome of 強制転換 (D99 against the current SP 60)."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="重圧"))
    await _fall(yd, yd.a)
    yd.h.roll(*faces)
    evs = await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    res = evs[-1]
    assert isinstance(res, ConversionResolved) and res.outcome == outcome
    c = yd.game.chars[yd.a]
    assert (c.pp, c.sp, c.condition) == (pp, sp, condition)
    assert ("重圧" in c.statuses) == (outcome in ("failure", "complete_failure"))
    await yd.h.assert_replay_matches()


async def test_critical_equal_to_sp_is_death(new_table: Any) -> None:
    """G-YD-13: a double that equals the SP is 完全失敗 (death), not 完全転換."""
    yd = await new_table(sheets=({"pp": 10, "sp": 55}, {"pp": 10}, {"pp": 10}))
    await _fall(yd, yd.a)
    yd.h.roll(5, 5)
    (*_, res) = await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    assert res.outcome == "complete_failure" and yd.game.chars[yd.a].condition == Condition.DEAD


async def test_full_conversion_moves_chosen_sp(yd: Any) -> None:
    """YD-49: after 完全転換 the player moves any amount of SP into PP (SP stays above 0)."""
    await _fall(yd, yd.a)
    yd.h.roll(2, 2)
    await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    err = await yd.h.rejected(yd.pa, C.FullConversion(character_id=yd.a, amount=60))
    assert err.code == "rule/yodomi/bad_amount"
    await yd.h.send(yd.pa, C.FullConversion(character_id=yd.a, amount=45))
    c = yd.game.chars[yd.a]
    assert (c.pp, c.sp, c.full_conversion_pending) == (45, 15, False)


async def test_no_flow_on_forced_conversion(new_table: Any, order: Any) -> None:
    """YD-28, YD-49: 流れ cannot raise the 強制転換 target."""
    yd = await new_table(shuffles=[order("♠5")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a))
    await _fall(yd, yd.a)
    yd.h.roll(7, 2)
    (rolled, _res) = await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    err = await yd.h.rejected(yd.pa, C.PlayCards(check_id=rolled.check.check_id, cards=["♠5"]))
    assert err.code in ("rule/yodomi/check_settled", "rule/yodomi/flow_not_allowed")


async def test_conversion_only_when_fallen_or_in_setup(yd: Any) -> None:
    """YD-49: after a failure the next try waits for a setup process."""
    err = await yd.h.rejected(yd.pa, C.ForcedConversion(character_id=yd.a))
    assert err.code == "rule/yodomi/not_incapacitated"
    await _fall(yd, yd.a)
    yd.h.roll(9, 8)
    await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    err = await yd.h.rejected(yd.pa, C.ForcedConversion(character_id=yd.a))
    assert err.code == "rule/yodomi/not_now"
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=[[yd.a, yd.e], [yd.b]]))
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    yd.h.roll(1, 2)
    (*_, res) = await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    assert res.outcome == "success" and yd.game.chars[yd.a].acted == "unacted"


async def test_incapacitated_back_at_pp1_next_scene(yd: Any) -> None:
    """YD-48: 戦闘不能 at the end of a scene: 【PP】1 in the next one."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.b, present=[yd.a]))
    await _fall(yd, yd.a)
    await yd.h.send(yd.h.gm, C.EndScene())
    await yd.h.send(yd.h.gm, C.CloseSceneEnd())
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.b))
    c = yd.game.chars[yd.a]
    assert c.pp == 1 and c.condition == Condition.ACTIVE


async def test_dead_at_scene_end_vanishes_and_drops_flow(new_table: Any, order: Any) -> None:
    """YD-50, YD-53: still 死亡 when the scene ends: 完全消滅, every 流れ discarded."""
    yd = await new_table(shuffles=[order("♠5", "♠6")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a, present=[yd.b]))
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    assert yd.game.chars[yd.b].condition == Condition.DEAD
    await yd.h.send(yd.h.gm, C.EndScene())
    assert yd.game.chars[yd.b].condition == Condition.VANISHED and yd.game.hands[yd.b] == []
    err = await yd.h.rejected(yd.h.gm, C.DealCards(character_id=yd.b))
    assert err.code == "rule/yodomi/not_in_play"


async def test_flow_death(new_table: Any) -> None:
    """YD-51: 流れとしての死: 5 流れ, may give, never receives."""
    yd = await new_table()
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    await yd.h.send(yd.pb, C.ChooseDeath(character_id=yd.b, choice="flow"))
    assert yd.game.chars[yd.b].condition == Condition.FLOW_DEATH and len(yd.game.hands[yd.b]) == 5
    card = yd.game.hands[yd.b][0]
    await yd.h.send(yd.pb, C.GiveCards(from_character=yd.b, to_character=yd.a, cards=[card]))
    assert yd.game.hands[yd.a] == [card]
    err = await yd.h.rejected(
        yd.pa, C.GiveCards(from_character=yd.a, to_character=yd.b, cards=[card])
    )
    assert err.code == "rule/yodomi/no_flow_receiving"
    err = await yd.h.rejected(yd.h.gm, C.DealCards(character_id=yd.b))
    assert err.code == "rule/yodomi/no_flow_receiving"


async def test_yodomi_life(new_table: Any, order: Any) -> None:
    """YD-52, G-YD-21: 澱みとしての生: all 流れ discarded, SP +200, acts at PP 0, receives none."""
    yd = await new_table(shuffles=[order("♥3", "♥4")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    await yd.h.send(yd.pb, C.ChooseDeath(character_id=yd.b, choice="yodomi"))
    c = yd.game.chars[yd.b]
    assert (
        c.condition == Condition.YODOMI_LIFE
        and c.sp == 200
        and c.pp == 0
        and yd.game.hands[yd.b] == []
    )
    assert yd.game.discards == ["♥3", "♥4"]
    yd.h.roll(5, 5, 1, 1)
    await yd.h.send(yd.pb, C.Attack(attacker=yd.b, target=yd.e, power=3))  # acts at PP 0
    err = await yd.h.rejected(yd.h.gm, C.DealCards(character_id=yd.b))
    assert err.code == "rule/yodomi/no_flow_receiving"


# --------------------------------------------------------------------------- bad statuses


async def test_minor_action_removes_unnoted_statuses(yd: Any) -> None:
    """バッドステータス一覧: statuses without a note go with a minor action; the others do not."""
    for s in ("重圧", "マヒ", "放心"):
        await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status=s))
    await yd.h.send(yd.pa, C.RemoveStatus(character_id=yd.a, status="重圧"))
    await yd.h.send(yd.pa, C.RemoveStatus(character_id=yd.a, status="マヒ"))
    err = await yd.h.rejected(yd.pa, C.RemoveStatus(character_id=yd.a, status="放心"))
    assert err.code == "rule/yodomi/not_removable"
    assert set(yd.game.chars[yd.a].statuses) == {"放心"}


async def test_erosion_removed_by_discarding_one_card(new_table: Any, order: Any) -> None:
    """YD-64: 蝕み bars own-suit 流れ and ends by discarding one 流れ."""
    yd = await new_table(shuffles=[order("♦5", "♣2")])
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♦"))
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a, count=2))
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="蝕み"))
    yd.h.roll(1, 2)
    err = await yd.h.rejected(yd.pa, C.RollCheck(character_id=yd.a, cards=["♦5"]))
    assert err.code == "rule/yodomi/bad_flow"
    await yd.h.send(yd.pa, C.RemoveStatus(character_id=yd.a, status="蝕み", card="♣2"))
    assert "蝕み" not in yd.game.chars[yd.a].statuses and yd.game.hands[yd.a] == ["♦5"]


async def test_kiwaza_then_fall_deals_4d6(yd: Any) -> None:
    """YD-61: 転倒 during 極技: 4D6 unattributed damage, and 極技 ends."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="極技", by=yd.e))
    yd.h.roll(1, 2, 3, 4)
    evs = await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="転倒"))
    d = _dmg(evs)
    assert d.amount == 10 and d.roll is not None and d.roll.faces == (1, 2, 3, 4)
    assert set(yd.game.chars[yd.a].statuses) == {"転倒"} and yd.game.chars[yd.a].pp == 30


async def test_attack_adds_statuses_after_damage(yd: Any) -> None:
    """YD-42: added effects (a bad status) come after the damage."""
    await _hit(yd, yd.e, yd.a, 5, statuses={"毒": 2})
    assert yd.game.chars[yd.a].statuses == {"毒": 2}


async def test_poison_needs_x(yd: Any) -> None:
    err = await yd.h.rejected(yd.h.gm, C.AddStatus(character_id=yd.a, status="毒"))
    assert err.code == "rule/yodomi/bad_status_value"


async def test_cost_to_zero_pp_makes_intuition_due(yd: Any) -> None:
    """YD-35: a cost that takes 【PP】 to 0 makes 直感把握 due; it is cleared by rolling it."""
    await yd.h.send(yd.pb, C.PayCost(character_id=yd.b, pp=12, what="《閃き》"))
    assert yd.game.chars[yd.b].pp == 18 and not yd.game.chars[yd.b].intuition_due
    err = await yd.h.rejected(yd.pb, C.PayCost(character_id=yd.b, pp=19))
    assert err.code == "rule/yodomi/not_enough_pp"
    (ev,) = await yd.h.send(yd.pb, C.PayCost(character_id=yd.b, pp=18))
    assert ev.intuition_due and yd.game.chars[yd.b].intuition_due
    yd.h.roll(1, 2)
    await yd.h.send(yd.pb, C.Intuition(character_id=yd.b, ability="知"))
    assert not yd.game.chars[yd.b].intuition_due


async def test_sp_cost_to_zero_is_death(yd: Any) -> None:
    """YD-35: 【SP】 0 through a cost is 死亡."""
    await yd.h.send(yd.pb, C.PayCost(character_id=yd.b, sp=50))
    assert yd.game.chars[yd.b].condition == Condition.DEAD


async def test_yodomi_life_pays_sp_for_flow_costs(new_table: Any) -> None:
    """YD-52: 澱みとしての生 pays no 【PP】 costs, and 10 【SP】 per 流れ a cost asks for."""
    yd = await new_table()
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    await yd.h.send(yd.pb, C.ChooseDeath(character_id=yd.b, choice="yodomi"))
    (ev,) = await yd.h.send(yd.pb, C.PayCost(character_id=yd.b, pp=5, cards=["♠A", "♠2"]))
    assert (ev.pp_paid, ev.sp_paid, ev.sp) == (0, 20, 180)


async def test_underwater_lowers_by_armour_requirement(new_table: Any) -> None:
    """YD-62: 水中 lowers every 判定値 by the armour's 必要能力値; flying ends it."""
    yd = await new_table(sheets=({"pp": 40, "armor_requirement": 3}, {}, {}))
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="水中"))
    yd.h.roll(2, 2 + 1)
    (ev,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=10))
    assert ev.check.penalty == 3 and ev.check.value == 10 + 5 - 3
    await yd.h.send(yd.pa, C.SetFlying(character_id=yd.a))
    assert "水中" not in yd.game.chars[yd.a].statuses


async def test_conversion_chance_right_after_falling_in_combat(yd: Any) -> None:
    """YD-47: the moment a character falls (even mid-round) it may choose 強制転換."""
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=[[yd.a, yd.e], [yd.b]]))
    await yd.h.send(yd.h.gm, C.AdvanceRound())
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # アキラ acts
    await yd.h.send(yd.pa, C.Minor(character_id=yd.a, major=True))
    await _hit(yd, yd.e, yd.b, 100)  # the beast fells ミナ, next actor chosen
    yd.h.roll(1, 2)
    (*_, res) = await yd.h.send(yd.pb, C.ForcedConversion(character_id=yd.b))
    assert res.outcome == "success" and yd.game.chars[yd.b].pp == 12


async def test_attacked_while_dead_discards_flow(new_table: Any, order: Any) -> None:
    """YD-50, YD-53: a dead character hit again is 完全消滅 and drops every 流れ."""
    yd = await new_table(shuffles=[order("♠5", "♠6")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    await _hit(yd, yd.e, yd.b, 30)
    await _hit(yd, yd.e, yd.b, 50)
    await _hit(yd, yd.e, yd.b, 1)
    assert yd.game.chars[yd.b].condition == Condition.VANISHED and yd.game.hands[yd.b] == []
    assert sorted(yd.game.discards) == ["♠5", "♠6"]


async def test_forced_conversion_clears_disabled_weapons(yd: Any) -> None:
    """YD-49, YD-60: a successful 強制転換 clears ALL bad statuses, 使用不能 on a weapon included."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status="使用不能", item="刀"))
    await _fall(yd, yd.a)
    yd.h.roll(2, 6)
    evs = await yd.h.send(yd.pa, C.ForcedConversion(character_id=yd.a))
    assert any(isinstance(e, ConversionResolved) and e.outcome == "success" for e in evs)
    assert yd.game.chars[yd.a].disabled_items == []
    await yd.h.assert_replay_matches()


async def test_weapon_attack_attribute_is_the_ability_used(yd: Any) -> None:
    """YD-44, YD-45: a weapon attack's attribute is the 基本能力値 it used; without a named
    attribute, an attack with 体 meets the target's 防御修正 for 体 (2): 13 - 2 = 11."""
    yd.h.roll(9, 9)
    evs = await yd.h.send(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, weapon="刀", ability="体", power=13)
    )
    assert evs[-1].attack.attribute == "体"
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=evs[-1].attack.attack_id, mode="none"))
    assert _dmg(evs).amount == 11 and yd.game.chars[yd.e].pp == 20 - 11


async def test_attack_with_a_defence_attribute_ability_is_halved(yd: Any) -> None:
    """YD-46: an attack made with 知 against a 防御属性 知 is halved, rounding up: (9 - 0) / 2 → 5."""
    yd.h.roll(9, 9)
    evs = await yd.h.send(yd.pb, C.Attack(attacker=yd.b, target=yd.e, ability="知", power=9))
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=evs[-1].attack.attack_id, mode="none"))
    d = _dmg(evs)
    assert d.halved and d.amount == 5
