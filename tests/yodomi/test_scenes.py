"""Pre-play, scenes, 登場判定, 舞台裏, パス, the 流れ adjustment, purchases, 継続判定, 直感把握."""

from __future__ import annotations

from typing import Any

import pytest

from taku_yodomi import commands as C
from taku_yodomi.events import CheckRolled, ContinuousRolled, SceneEntered


def _check(evs: list[Any]) -> Any:
    return next(e.check for e in evs if isinstance(e, CheckRolled))


async def test_key_number_rerolled_until_valid(new_table: Any) -> None:
    """YD-71, G-YD-05: 1D9 moved by the 変動値; impossible numbers are rolled again."""
    yd = await new_table(sheets=({"variation": -2}, {"variation": 3}, {}))
    yd.h.roll(10, 2, 5)  # 0-2 = -2 (no), 2-2 = 0 (no), 5-2 = 3
    (ev,) = await yd.h.send(yd.pa, C.RollKeyNumber(character_id=yd.a))
    assert ev.key_number == 3 and len(ev.rolls) == 3
    yd.h.roll(7, 1)  # 7+3 = 10 (no), 1+3 = 4
    (ev,) = await yd.h.send(yd.pb, C.RollKeyNumber(character_id=yd.b))
    assert ev.key_number == 4 and yd.game.chars[yd.b].key_number == 4
    err = await yd.h.rejected(yd.pb, C.RollKeyNumber(character_id=yd.b))
    assert err.code == "rule/yodomi/key_number_set"


async def test_suits_unique_below_five_players(yd: Any) -> None:
    """YD-71: suits are shared only when five or more play."""
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♥"))
    err = await yd.h.rejected(yd.pb, C.ChooseSuit(character_id=yd.b, suit="♥"))
    assert err.code == "rule/yodomi/suit_taken"
    await yd.h.send(yd.pb, C.ChooseSuit(character_id=yd.b, suit="♣"))


async def test_preplay_texts(yd: Any) -> None:
    """YD-71: trailer, handouts and introductions are recorded."""
    await yd.h.send(yd.h.gm, C.ReadTrailer(text="街に澱みが溜まる。"))
    await yd.h.send(yd.h.gm, C.GiveHandout(character_id=yd.a, text="PC1: 観察者"))
    await yd.h.send(yd.pa, C.Introduce(character_id=yd.a, text="アキラです"))
    assert yd.game.trailer and yd.game.handouts[yd.a] and yd.game.introductions[yd.a]
    err = await yd.h.rejected(yd.pa, C.ReadTrailer(text="x"))
    assert err.code == "command/forbidden"


async def test_opening_shows_one_pc(yd: Any) -> None:
    """YD-72: an opening scene shows a single PC."""
    err = await yd.h.rejected(
        yd.h.gm, C.StartScene(kind="opening", scene_player=yd.a, present=[yd.b])
    )
    assert err.code == "rule/yodomi/opening_one_pc"


async def test_entry_check_against_current_pp_plus_path(yd: Any) -> None:
    """YD-74: 登場判定 is D99 against current 【PP】, +20 with a パス target in the scene."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    yd.h.roll(3, 2)  # 32 against PP 30: fails
    evs = await yd.h.send(yd.pb, C.EnterScene(character_id=yd.b))
    assert _check(evs).target == 30 and not any(isinstance(e, SceneEntered) for e in evs)
    # give B a パス to アキラ, then enter again
    await yd.h.send(yd.h.gm, C.EndScene())
    await yd.h.send(yd.pb, C.GainPath(character_id=yd.b, target="アキラ", emotion="信頼"))
    await yd.h.send(yd.h.gm, C.CloseSceneEnd())
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    yd.h.roll(3, 2)
    evs = await yd.h.send(yd.pb, C.EnterScene(character_id=yd.b))
    assert (
        _check(evs).target == 50
        and isinstance(evs[-1], SceneEntered)
        and yd.b in yd.game.scene.present
    )


async def test_scene_player_leaving_ends_the_scene(yd: Any) -> None:
    """YD-73: the scene ends when its scene player leaves."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a, present=[yd.b]))
    await yd.h.send(yd.pb, C.LeaveScene(character_id=yd.b))
    assert yd.game.phase == "scene"
    await yd.h.send(yd.pa, C.LeaveScene(character_id=yd.a))
    assert yd.game.phase == "scene_end"


async def test_backstage_once_then_paths_then_cut(new_table: Any, order: Any) -> None:
    """YD-75, YD-76, YD-22, YD-24: 舞台裏 (2D10 PP), then one パス, then the hand is cut to the パス."""
    yd = await new_table(
        sheets=({"pp": 40}, {"pp": 30, "social": 3, "wealth": 5}, {}),
        shuffles=[order("♠2", "♠3", "♠4")],
    )
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=3))
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    await yd.h.send(yd.h.gm, C.NoteTopic(text="古い鏡"))
    await _hurt(yd, yd.b, 20)
    await yd.h.send(yd.h.gm, C.EndScene())
    err = await yd.h.rejected(yd.pa, C.Backstage(character_id=yd.a))
    assert err.code == "rule/yodomi/was_in_scene"
    yd.h.roll(6, 3)
    (ev,) = await yd.h.send(yd.pb, C.Backstage(character_id=yd.b))
    assert ev.pp == 10 + 9
    err = await yd.h.rejected(yd.pb, C.Backstage(character_id=yd.b))
    assert err.code == "rule/yodomi/backstage_done"
    yd.h.roll(4, 4 + 1)
    await yd.h.send(yd.pb, C.Purchase(character_id=yd.b, backstage=True, wealth=2))
    await yd.h.send(yd.pb, C.BackstageSkill(character_id=yd.b, skill="情報収集"))
    err = await yd.h.rejected(yd.pb, C.GainPath(character_id=yd.b, target="謎の鏡", emotion="不安"))
    assert err.code == "rule/yodomi/not_talked_about"
    await yd.h.send(yd.pb, C.GainPath(character_id=yd.b, target="古い鏡", emotion="不安"))
    err = await yd.h.rejected(yd.pb, C.GainPath(character_id=yd.b, target="アキラ", emotion="友情"))
    assert err.code == "rule/yodomi/path_done"
    err = await yd.h.rejected(yd.pb, C.BackstageSkill(character_id=yd.b, skill="x"))
    assert err.code == "rule/yodomi/too_late"
    err = await yd.h.rejected(yd.h.gm, C.CloseSceneEnd())
    assert err.code == "rule/yodomi/hand_over_limit"
    err = await yd.h.rejected(yd.pb, C.CutHand(character_id=yd.b, cards=["♠2"]))
    assert err.code == "rule/yodomi/wrong_count"
    await yd.h.send(yd.pb, C.CutHand(character_id=yd.b, cards=["♠2", "♠4"]))
    assert yd.game.hands[yd.b] == ["♠3"]
    err = await yd.h.rejected(
        yd.pb, C.ChangeEmotion(character_id=yd.b, target="古い鏡", emotion="恐怖")
    )
    assert err.code == "rule/yodomi/too_late"
    await yd.h.send(yd.h.gm, C.CloseSceneEnd())
    assert yd.game.phase == "between"


async def _hurt(yd: Any, cid: str, amount: int) -> None:
    yd.h.roll(9, 9)
    evs = await yd.h.send(yd.h.gm, C.Attack(attacker=yd.e, target=cid, power=amount))
    owner = yd.h.state.characters[cid].owner
    await yd.h.send(owner, C.Defend(attack_id=evs[-1].attack.attack_id, mode="none"))


async def test_backstage_recovery_capped(yd: Any) -> None:
    """YD-75 (option backstage_cap): recovery stops at the sheet's 【PP】."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    await yd.h.send(yd.h.gm, C.EndScene())
    yd.h.roll(10, 10)
    (ev,) = await yd.h.send(yd.pb, C.Backstage(character_id=yd.b))
    assert ev.roll.faces == (10, 10) and ev.pp == 30


async def test_seven_paths_at_most(yd: Any) -> None:
    """YD-22: at most 7 パス; one emotion change per scene end."""
    for i in range(8):
        await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
        await yd.h.send(yd.h.gm, C.NoteTopic(text=f"話題{i}"))
        await yd.h.send(yd.h.gm, C.EndScene())
        if i < 7:
            await yd.h.send(yd.pa, C.GainPath(character_id=yd.a, target=f"話題{i}", emotion="興味"))
        else:
            err = await yd.h.rejected(
                yd.pa, C.GainPath(character_id=yd.a, target=f"話題{i}", emotion="興味")
            )
            assert err.code == "rule/yodomi/too_many_paths"
            await yd.h.send(
                yd.pa, C.ChangeEmotion(character_id=yd.a, target="話題0", emotion="嫌悪")
            )
            err = await yd.h.rejected(
                yd.pa, C.ChangeEmotion(character_id=yd.a, target="話題1", emotion="嫌悪")
            )
            assert err.code == "rule/yodomi/emotion_done"
        await yd.h.send(yd.h.gm, C.CloseSceneEnd())
    assert len(yd.game.chars[yd.a].paths) == 7 and yd.game.chars[yd.a].paths[0].emotion == "嫌悪"


async def test_purchase_once_per_scene_wealth_up_to_social(yd: Any) -> None:
    """YD-77, G-YD-16: 【社会】 2D9 check; 財産点 up to 【社会】 raise it; once a scene."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a))
    err = await yd.h.rejected(yd.pa, C.Purchase(character_id=yd.a, wealth=5))
    assert err.code == "rule/yodomi/too_much_wealth"
    yd.h.roll(2, 3)
    evs = await yd.h.send(yd.pa, C.Purchase(character_id=yd.a, wealth=4))
    assert evs[-1].total == 4 + 5 + 4 and yd.game.chars[yd.a].wealth == 6
    err = await yd.h.rejected(yd.pa, C.Purchase(character_id=yd.a))
    assert err.code == "rule/yodomi/purchase_done"


# --------------------------------------------------------------------------- 継続判定 and 直感把握


async def test_continuous_chain(yd: Any) -> None:
    """YD-16, YD-17: success +1 and the next target is the number rolled; a critical +2
    keeps the target; a failure ends the chain for the round."""
    (started,) = await yd.h.send(
        yd.h.gm, C.StartContinuous(target_points=5, ability="知", round_limit=2)
    )
    qid = started.continuous.continuous_id
    yd.h.roll(3, 5)  # 35 < 43 (知3 + PP40): +1, next target 35
    evs = await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    r = evs[-1]
    assert isinstance(r, ContinuousRolled) and (r.gained, r.points, r.next_target) == (1, 1, 35)
    yd.h.roll(2, 2)  # 22 critical: +2, target stays 35
    r = (await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a)))[-1]
    assert (r.gained, r.points, r.next_target) == (2, 3, 35)
    yd.h.roll(3, 6)  # 36 >= 35: fails, chain over
    r = (await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a)))[-1]
    assert (r.gained, r.points, r.next_target) == (0, 3, None)
    err = await yd.h.rejected(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    assert err.code == "rule/yodomi/chain_over"
    yd.h.roll(1, 2)  # B: 12 < 36 (知6 + PP30)
    r = (await yd.h.send(yd.pb, C.RollContinuous(continuous_id=qid, character_id=yd.b)))[-1]
    assert r.points == 4
    await yd.h.send(yd.h.gm, C.AdvanceContinuous(continuous_id=qid))
    yd.h.roll(1, 3)
    r = (await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a)))[-1]
    assert r.finished and r.success and yd.game.continuous[qid].finished


async def test_continuous_fumble_accident_and_round_limit(yd: Any) -> None:
    """YD-18, G-YD-19: a fumble ends the chain and loses 1D9 points (floor 0); past the limit it fails."""
    (started,) = await yd.h.send(
        yd.h.gm, C.StartContinuous(target_points=9, ability="知", round_limit=1)
    )
    qid = started.continuous.continuous_id
    yd.h.roll(1, 2, 10, 10, 7)
    await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    r = (await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a)))[-1]
    assert r.accident_points == 7 and r.points == 0 and r.next_target is None
    (adv,) = await yd.h.send(yd.h.gm, C.AdvanceContinuous(continuous_id=qid))
    assert adv.finished and adv.success is False


@pytest.mark.parametrize(("faces", "ok"), [((4, 1), True), ((4, 2), False)])
async def test_intuition(yd: Any, faces: tuple[int, int], ok: bool) -> None:
    """YD-21: 直感把握 is D99 against 【PP】 + a base ability (A: 40 + 体5 - 3 = 42; 41 passes, 42 fails)."""
    yd.h.roll(*faces)
    k = _check(await yd.h.send(yd.pa, C.Intuition(character_id=yd.a, ability="体", modifier=-3)))
    assert k.target == 40 + 5 - 3 and k.success is ok


async def test_no_other_pc_enters_an_opening(yd: Any) -> None:
    """YD-72: other PCs do not appear in an opening scene."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="opening", scene_player=yd.a))
    err = await yd.h.rejected(yd.pb, C.EnterScene(character_id=yd.b))
    assert err.code == "rule/yodomi/opening_one_pc"


async def test_continuous_chain_is_a_major_action_in_combat(yd: Any) -> None:
    """YD-20: during round progression a PC makes its chain in its major action; the turn ends with it."""
    (started,) = await yd.h.send(
        yd.h.gm, C.StartContinuous(target_points=9, ability="知", round_limit=3)
    )
    qid = started.continuous.continuous_id
    await yd.h.send(yd.h.gm, C.StartCombat(engagements=[[yd.a, yd.e], [yd.b]]))
    await yd.h.send(yd.h.gm, C.AdvanceRound())
    await yd.h.send(yd.h.gm, C.AdvanceRound())  # アキラ's main process
    err = await yd.h.rejected(yd.pb, C.RollContinuous(continuous_id=qid, character_id=yd.b))
    assert err.code == "rule/yodomi/not_your_turn"
    yd.h.roll(1, 2)  # 12 < 43 (知3 + PP40): +1, the chain goes on against 12
    await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    assert yd.game.combat.actor == yd.a
    yd.h.roll(5, 10)  # 50 >= 12: the chain ends, and so does アキラ's turn
    await yd.h.send(yd.pa, C.RollContinuous(continuous_id=qid, character_id=yd.a))
    assert yd.game.combat.actor == yd.e and yd.game.continuous[qid].points == 1


async def test_suits_shared_with_five_pcs(yd: Any) -> None:
    """YD-71: with five or more PCs a suit may be shared."""
    from taku.core.commands import CreateCharacter

    extra = []
    for i in range(3):
        (ev,) = await yd.h.send(yd.pa, CreateCharacter(name=f"予備{i}"))
        extra.append(ev.character_id)
    await yd.h.send(yd.pa, C.ChooseSuit(character_id=yd.a, suit="♥"))
    await yd.h.send(yd.pb, C.ChooseSuit(character_id=yd.b, suit="♥"))
    assert yd.game.chars[yd.b].suit == "♥"


async def test_no_backstage_for_a_pc_who_appeared_and_left(yd: Any) -> None:
    """YD-75, YD-73: 舞台裏 is for PCs who did not appear in the scene; leaving it (the scene
    player's leaving ends it) does not make a PC absent."""
    await yd.h.send(yd.h.gm, C.StartScene(kind="middle", scene_player=yd.a, present=[yd.b]))
    await yd.h.send(yd.pb, C.LeaveScene(character_id=yd.b))
    await yd.h.send(yd.pa, C.LeaveScene(character_id=yd.a))
    assert yd.game.phase == "scene_end"
    for member, cid in ((yd.pa, yd.a), (yd.pb, yd.b)):
        err = await yd.h.rejected(member, C.Backstage(character_id=cid))
        assert err.code == "rule/yodomi/was_in_scene"
        err = await yd.h.rejected(member, C.Purchase(character_id=cid, backstage=True))
        assert err.code == "rule/yodomi/was_in_scene"
