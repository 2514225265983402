"""Regressions found by the second rules audit (each docstring names the CHECKLIST item)."""

from __future__ import annotations

from typing import Any

from taku_yodomi import commands as C
from taku_yodomi._render import render
from taku_yodomi.events import CardsPlayed, ContinuousRolled, Damaged


async def _combat(yd: Any, engagements: list[list[str]]) -> None:
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=engagements))
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # setup
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # initiative: A (行動値6) acts


async def test_declared_accident_replaces_the_1d9_loss(yd: Any) -> None:
    """YD-18: the 1D9 point loss is the accident only when the GM declared none; a fumble
    with a declared accident ends the chain, rolls nothing more and keeps the points."""
    (started,) = await yd.h.send(
        yd.h.gm,
        C.StartContinuous(target_points=6, ability="体", round_limit=2, accident="天井が崩れる"),
    )
    qid = started.continuous.continuous_id
    yd.h.roll(2, 7)  # 27 < 45 (体5 + PP40): +1
    await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    yd.h.roll(10, 10)  # 00: fumble
    evs = await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    r = evs[-1]
    assert isinstance(r, ContinuousRolled)
    assert (r.points, r.accident_points, r.accident_roll, r.next_target) == (1, 0, None, None)
    assert r.accident == "天井が崩れる"
    assert "天井が崩れる" in render(r, yd.h.state)
    assert yd.game.continuous[qid].points == 1
    err = await yd.h.rejected(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    assert err.code == "rule/yodomi/chain_over"


async def test_undeclared_accident_still_loses_1d9(yd: Any) -> None:
    """YD-18, G-YD-19: without a declared accident the fumble loses 1D9 points (floor 0)."""
    (started,) = await yd.h.send(
        yd.h.gm, C.StartContinuous(target_points=9, ability="体", round_limit=1)
    )
    qid = started.continuous.continuous_id
    yd.h.roll(1, 3, 2, 2, 10, 10, 3)  # 13 (+1), 22 critical (+2), 00 fumble, 1D9 = 3
    for _ in range(2):
        await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    r = (await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a)))[-1]
    assert (r.accident_points, r.points, r.accident) == (3, 0, "")


async def test_joker_played_as_own_suit_card_stays_the_one(new_table: Any, order: Any) -> None:
    """YD-25, G-YD-07: a joker already counted as the one own-suit card (20) cannot be
    displaced by a later own-suit card on the same check (that would lower the 達成値)."""
    yd = await new_table(shuffles=[order("JK2", "♥6", "♣8")])
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♥"))
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a, count=3))
    yd.h.roll(1, 4)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=3))
    kid = rolled.check.check_id
    boosted, _ = await yd.h.send(yd.pa, C.PlayCards(check_id=kid, cards=["JK2"]))
    assert boosted.check.value == 3 + 5 + 20
    err = await yd.h.rejected(yd.pa, C.PlayCards(check_id=kid, cards=["♥6"]))
    assert err.code == "rule/yodomi/bad_flow"
    assert yd.game.hands[yd.a] == ["♥6", "♣8"]
    boosted, played = await yd.h.send(yd.pa, C.PlayCards(check_id=kid, cards=["♣8"]))
    assert isinstance(played, CardsPlayed) and played.bonus == 1 and boosted.check.value == 29


async def test_called_shot_ignores_defence_modifier_keeps_defence_attribute(yd: Any) -> None:
    """YD-70: a 武器狙い hit goes straight to the item's 【PP】: the owner's 防御修正 (体2)
    does not reduce it; its 防御属性 (知) still halves it, rounded up."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    yd.h.roll(9, 8)  # 24 + 5 + 17 - 20 = 26
    evs = await yd.h.send(
        yd.pa,
        C.Attack(attacker=yd.a, target=yd.e, value=24, ability="体", power=6, called_shot="爪"),
    )
    aid = evs[-1].attack.attack_id
    yd.h.roll(1, 2)
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=aid))
    (dmg,) = [e for e in evs if isinstance(e, Damaged)]
    assert (dmg.to, dmg.amount, dmg.item_pp) == ("item", 6, 2)
    assert yd.game.chars[yd.e].pp == 20
    # a 知 called shot: 7 halved by the 防御属性 -> 4
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # E's turn ends
    await yd.h.send(yd.pb, C.Minor(character_id=yd.b, major=True))
    for _ in range(3):
        await yd.h.send(yd.h.gm, C.AdvanceRound())  # cleanup, setup, initiative
    yd.h.roll(9, 8)
    evs = await yd.h.send(
        yd.pa,
        C.Attack(attacker=yd.a, target=yd.e, value=24, attribute="知", power=5, called_shot="爪"),
    )
    aid = evs[-1].attack.attack_id
    yd.h.roll(1, 2)
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=aid))
    (dmg,) = [e for e in evs if isinstance(e, Damaged)]
    assert (dmg.amount, dmg.halved, dmg.item_pp) == (3, True, 0)


async def test_entry_check_takes_status_penalties(yd: Any) -> None:
    """YD-74 with YD-55/YD-58: 転倒 and 放心 take 10 each from every check, the 登場判定
    too; only equipment values (水中's armour 必要能力値) stay out."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="転倒"))
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.b, status="放心"))
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    yd.h.roll(1, 5)  # 15, target 30 - 20 = 10: fails
    (k,) = await yd.h.send(yd.pb, C.EnterScene(character_id=yd.b))
    assert (k.check.target, k.check.value, k.check.success) == (10, 15, False)
    yd.h.roll(10, 9)  # 09 < 10
    k, entered = await yd.h.send(yd.pb, C.EnterScene(character_id=yd.b))
    assert k.check.success is True and yd.b in yd.game.scene.present


async def test_attack_statuses_checked_before_the_roll(yd: Any) -> None:
    """YD-56, YD-60: an attack carrying 毒0 or 使用不能 without a 武器狙い is refused at
    the declaration (nothing written), not at the defence where it would leave the attack stuck."""
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    err = await yd.h.rejected(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, value=9, power=4, statuses={"毒": 0})
    )
    assert err.code == "rule/yodomi/bad_status_value"
    err = await yd.h.rejected(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, value=9, power=4, statuses={"使用不能": 0})
    )
    assert err.code == "rule/yodomi/bad_status_value"
    yd.h.roll(6, 7)
    evs = await yd.h.send(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, value=9, power=4, statuses={"毒": 2})
    )
    aid = evs[-1].attack.attack_id
    yd.h.roll(1, 2)
    await yd.h.send(yd.h.gm, C.Defend(attack_id=aid))
    assert yd.game.chars[yd.e].statuses == {"毒": 2} and aid not in yd.game.attacks


async def test_water_from_an_attack_skips_a_flying_defender(yd: Any) -> None:
    """YD-62: 水中 does not befall a flying character; the hit still lands and resolves."""
    await yd.h.send(yd.h.gm, C.SetFlying(character_id=yd.e))
    await _combat(yd, [[yd.a, yd.e], [yd.b]])
    yd.h.roll(6, 7)
    evs = await yd.h.send(
        yd.pa, C.Attack(attacker=yd.a, target=yd.e, value=9, power=4, statuses={"水中": 0})
    )
    aid = evs[-1].attack.attack_id
    yd.h.roll(1, 2)
    evs = await yd.h.send(yd.h.gm, C.Defend(attack_id=aid))
    assert yd.game.chars[yd.e].statuses == {} and yd.game.chars[yd.e].pp == 16


async def test_negative_wealth_is_its_own_error(yd: Any) -> None:
    """YD-77: a negative 財産点 spend is refused as such (not as "more than 【社会】")."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    err = await yd.h.rejected(yd.pa, C.Purchase(character_id=yd.a, wealth=-2))
    assert err.code == "rule/yodomi/bad_wealth"
    err = await yd.h.rejected(yd.pa, C.Purchase(character_id=yd.a, wealth=5))  # 【社会】4
    assert err.code == "rule/yodomi/too_much_wealth"
    yd.h.roll(3, 6)
    evs = await yd.h.send(yd.pa, C.Purchase(character_id=yd.a, wealth=4))
    assert (evs[-1].total, evs[-1].wealth) == (4 + 9 + 4, 6)


async def test_purchase_with_a_sheet_without_social(new_table: Any) -> None:
    """YD-77, G-YD-15: a sheet without 【社会】 has 0 (the sheet schema's default); its
    purchase check is 2D9 + 0 and it may spend no 財産点, rather than an unknown_ability error."""
    yd = await new_table(sheets=({"pp": 40, "sp": 60, "wealth": 3}, {"pp": 30}, {"pp": 20}))
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    err = await yd.h.rejected(yd.pa, C.Purchase(character_id=yd.a, wealth=1))
    assert err.code == "rule/yodomi/too_much_wealth"
    yd.h.roll(2, 5)
    evs = await yd.h.send(yd.pa, C.Purchase(character_id=yd.a))
    assert evs[-1].total == 7
