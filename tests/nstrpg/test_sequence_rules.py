"""The combat sequence where the rulebook decides (2-3, 2-12, 一騎打ち), over the command path
with scripted dice: a 気絶 PC or boss still gets its 手番 but only for 些細な行動 (NS-82), a fallen
mob leaves the map (NS-81); an initiative change reorders from the next turn (2-3); a sudden
combat places everyone before turn 1 (NS-33); 一騎打ち counts only the ninjas present (NS-34)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku.core.table import affordances, turn
from taku_nstrpg import commands as c
from taku_nstrpg import events as ev
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]


def sheet(neuron: int, kind: str = "pc", **more: Any) -> dict[str, Any]:
    return {"kind": kind, "karate": 3, "neuron": neuron, "wazamae": 3, "tairyoku": 9, **more}


def names(t: Any) -> list[tuple[str, int]]:
    tn = turn(t.h.table.state, t.h.table.ruleset)
    return [(s.label, s.value) for s in tn.order]


def actor(t: Any) -> str | None:
    return turn(t.h.table.state, t.h.table.ruleset).actor  # type: ignore[no-any-return]


def offers(t: Any, member: str, cid: str) -> list[tuple[str, str]]:
    state = t.h.table.state
    return [
        (a.command, a.label)
        for a in affordances(state, state.viewer(member), t.h.table.ruleset)
        if cid in (a.args.get("character_id"), a.args.get("attacker"), a.args.get("defender"))
    ]


async def test_a_fainted_pc_still_gets_its_te_ban_for_trivial_actions_only(ns: Make) -> None:
    """NS-82 (2-12 気絶状態): 「マップ上に残り続け、手番も回ってくる。ただし…移動や攻撃や射撃や
    その他の行動はできず」. The boss's 2 hits take ボブ's 体力 2 to 0: 気絶. In turn 2 his
    手番 comes in its place (【ニューロン】5, first); only beginning and ending it (and a
    抵抗判定) are offered, an attack, a check, 集中 and a weapon switch are ``cannot_act``."""
    t = await ns()
    bob = await t.pc("ボブ", **sheet(5, tairyoku=2, weapons=["katana"]))
    boss = await t.npc("ヤクザ", **sheet(4, "boss", karate=2, tairyoku=5, renzoku=2))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=bob))
    await t.do(c.EndTurnOf(character_id=bob))
    await t.gm_do(c.BeginTurnOf(character_id=boss))
    t.roll(5, 6)  # 【カラテ】2 at NORMAL, ●連続攻撃2 split 1+1: two hits of 1
    out = await t.gm_do(c.Attack(attacker=boss, splits=[c.Split(target=bob, dice=1)] * 2))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    await t.do(c.Evade(defender=bob, hits=[h.id for h in a.hits], dice=0))
    assert (t.f(bob).tairyoku, t.f(bob).status) == (0, "fainted")
    await t.gm_do(c.EndTurnOf(character_id=boss))
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    assert names(t) == [("ボブ（気絶）", 5), ("ヤクザ", 4)]
    assert actor(t) == bob  # before the fix: the boss (the 気絶 were skipped)
    assert ("nstrpg.begin_turn_of", "手番を始める（気絶状態: 些細な行動のみ）") in offers(
        t, t.pl, bob
    )
    code = await t.rejected(t.gm, c.BeginTurnOf(character_id=boss))
    assert code == "rule/nstrpg/not_your_turn"  # his 手番 is due, nobody skips it
    for bad in (
        c.BeginTurnOf(character_id=bob, shuchu=True),
        c.BeginTurnOf(character_id=bob, equip="katana"),
    ):
        assert await t.rejected(t.pl, bad) == "rule/nstrpg/cannot_act"
    await t.do(c.BeginTurnOf(character_id=bob))
    assert sorted(offers(t, t.pl, bob)) == [
        ("nstrpg.check", "抵抗判定"),
        ("nstrpg.end_turn_of", "手番を終える"),
    ]
    hit = c.Attack(attacker=bob, target=boss)
    assert await t.rejected(t.pl, hit) == "rule/nstrpg/cannot_act"
    look = c.Check(character_id=bob, stat="neuron", difficulty="NORMAL")
    assert await t.rejected(t.pl, look) == "rule/nstrpg/cannot_act"
    await t.do(c.EndTurnOf(character_id=bob))
    assert actor(t) == boss
    t.assert_dice_used()


async def test_a_fallen_mob_leaves_the_order_a_fainted_boss_keeps_its_slot(ns: Make) -> None:
    """2-12: a mob at 【体力】0 is removed from the map (NS-81); a boss at 0 faints and stays
    (NS-82). One ●連続攻撃2 split 1+1 (faces 4, 4 at NORMAL) hits both, neither can dodge."""
    t = await ns()
    bob = await t.pc("ボブ", **sheet(5, karate=2, renzoku=2))
    boss = await t.npc("ヤクザ", **sheet(4, "boss", tairyoku=1, seishin=0))
    (mob,) = await t.mobs("クローンヤクザ", 1, **sheet(1, "mob", tairyoku=1))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=bob))
    t.roll(4, 4)
    split = [c.Split(target=boss, dice=1), c.Split(target=mob, dice=1)]
    await t.do(c.Attack(attacker=bob, splits=split))
    (pending,) = t.pending.values()  # the boss may dodge (0 dice: he takes it)
    await t.gm_do(c.Evade(defender=boss, hits=[pending.id], dice=0))
    assert (t.f(mob).status, t.f(boss).status) == ("removed", "fainted")
    assert names(t) == [("ボブ", 5), ("ヤクザ（気絶）", 4)]
    await t.do(c.EndTurnOf(character_id=bob))
    assert actor(t) == boss  # the 気絶 boss's 手番 still comes (NS-82)
    t.assert_dice_used()


async def test_an_initiative_change_reorders_from_the_next_turn(ns: Make) -> None:
    """2-3: 「【ニューロン】値が減少した場合は、直ちにそのキャラのイニシアチブ値も減少する。これらの
    変化による行動順変更は、次のターンから起こる」. ボブ's 強攻撃 with 【6,6】 (サツバツ!) and row 2
    deals the boss ニューロンダメージ2 (4 → 2) in ボブ's 手番: this turn the boss still acts
    second, before ケビン (3); from turn 2 after him."""
    t = await ns()
    bob = await t.pc("ボブ", **sheet(5, weapons=["katana"], equipped="katana"))
    kevin = await t.pc("ケビン", **sheet(3))
    boss = await t.npc("敵ニンジャ", **sheet(4, "boss", tairyoku=6, seishin=3))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    assert names(t) == [("ボブ", 5), ("敵ニンジャ", 4), ("ケビン", 3)]
    await t.do(c.BeginTurnOf(character_id=bob))
    t.roll(6, 6, 2)
    out = await t.do(c.Attack(attacker=bob, target=boss, style="kyougeki"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    t.roll(2)  # サツバツ・クリティカル表 2: 痛打+1, ニューロン2, ワザマエ1
    out = await t.gm_do(c.Evade(defender=boss, hits=[a.hits[0].id], dice=0))
    (d,) = [e for e in out if isinstance(e, ev.DamageResolved)]
    assert (d.amount, d.ability_damage) == (2, {"neuron": 2, "wazamae": 1})
    assert names(t) == [("ボブ", 5), ("敵ニンジャ", 4), ("ケビン", 3)]  # fixed for this turn
    await t.do(c.EndTurnOf(character_id=bob))
    assert actor(t) == boss  # before the fix: ケビン at once
    await t.pass_turns()
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    assert names(t) == [("ボブ", 5), ("ケビン", 3), ("敵ニンジャ", 2)]
    (started,) = [e for e in await t.h.events() if isinstance(e, ev.TurnStarted) and e.turn == 2]
    assert started.initiative == {bob: 5, kevin: 3, boss: 2}  # what the order is built from
    t.assert_dice_used()


async def test_a_sudden_combat_starts_turn_1_only_once_everyone_is_placed(ns: Make) -> None:
    """NS-33 (2-3 配置時は逆イニシアチブ, 2-4): 「イニシアチブ値の逆順で…配置してから1ターン目を
    開始する」: with nobody on the map when the combat begins, ``start_turn`` is refused
    (``placement_due``, naming who is next) until the last one is placed."""
    t = await ns()
    fast = await t.pc("エミリー", **sheet(6))
    slow = await t.pc("ボブ", **sheet(1))
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(c.StartCombat())
    err = await t.h.rejected(t.gm, c.StartTurn())
    assert err.code == "rule/nstrpg/placement_due" and "ボブ" in err.message
    await t.do(mp.Place(character_id=slow, at=(1, 1)))
    assert await t.rejected(t.gm, c.StartTurn()) == "rule/nstrpg/placement_due"
    await t.do(mp.Place(character_id=fast, at=(2, 1)))
    await t.gm_do(c.StartTurn())
    assert actor(t) == fast


async def test_a_map_laid_out_after_the_combat_began_makes_it_sudden(ns: Make) -> None:
    t = await ns()
    await t.pc("エミリー", **sheet(6))
    await t.gm_do(c.StartCombat())
    await t.gm_do(mp.SetMap(sample="dojo"))
    assert await t.rejected(t.gm, c.StartTurn()) == "rule/nstrpg/placement_due"


async def test_ikkiuchi_counts_only_the_ninjas_present(ns: Make) -> None:
    """NS-34 「周囲に他の敵味方が存在せず」: a third ninja off the map is not present, so the two
    on it duel (【ニューロン】7 and 4: 7, 4, 3, 2); once it is placed (next turn) it is a 3-way
    fight again, one 手番 each."""
    t = await ns({"ikkiuchi": True})
    me = await t.pc("エミリー", **sheet(7))
    foe = await t.npc("ブラックマンバ", **sheet(4, "boss"))
    away = await t.npc("ソニックブーム", **sheet(5, "boss"))
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    await t.gm_do(mp.Place(character_id=foe, at=(3, 1)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    tn = turn(t.h.table.state, t.h.table.ruleset)
    duel = [(s.id, s.value) for s in tn.order if s.id != away]
    assert duel == [(me, 7), (foe, 4), (me, 3), (foe, 2)]  # before the fix: 7, 4, one each
    assert [s.label for s in tn.order if s.id == away] == ["ソニックブーム（マップ外）"]
    await t.pass_turns()
    await t.gm_do(c.EndTurn())
    await t.gm_do(mp.Place(character_id=away, at=(5, 1), reason="乱入"))
    await t.gm_do(c.StartTurn())
    assert names(t) == [("エミリー", 7), ("ソニックブーム", 5), ("ブラックマンバ", 4)]


async def test_ikkiuchi_holds_for_the_turn_a_reinforcement_arrives(ns: Make) -> None:
    """NS-34 with 2-2: a mob created mid-turn (増援) acts from the next turn, so it is not
    present yet: the duel's two 手番 each stay this turn; from the next turn one each."""
    t = await ns({"ikkiuchi": True})
    me = await t.pc("エミリー", **sheet(7))
    foe = await t.npc("ブラックマンバ", **sheet(4, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    (mob,) = await t.mobs("クローンヤクザ", 1, **sheet(1, "mob"))
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert [(s.id, s.value) for s in tn.order if s.id != mob] == [
        (me, 7),
        (foe, 4),
        (me, 3),
        (foe, 2),
    ]
    await t.do(c.EndTurnOf(character_id=me))
    await t.pass_turns()
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    assert names(t) == [("エミリー", 7), ("ブラックマンバ", 4), ("クローンヤクザ1", 1)]


async def test_an_agreed_pc_order_is_kept_to_the_combat_end(ns: Make) -> None:
    """NS-31 (2-3): 「戦闘中にイニシアチブ値の変化が起こり、仲間同士でイニシアチブ同値となった場合、
    最初に1回だけ順番を決め、それを戦闘終了まで維持する」: in a combat the GM may add a PC
    newly tied to the agreed order but not reorder it (``pc_order_kept``); after the combat
    the order may be agreed anew."""
    t = await ns()
    kevin = await t.pc("ケビン", **sheet(4))
    emily = await t.pc("エミリー", **sheet(4))
    bob = await t.pc("ボブ", **sheet(4))
    await t.gm_do(mp.SetPcOrder(order=[emily, kevin]))
    await t.gm_do(c.StartCombat())
    for bad in ([kevin, emily], [emily], [bob, kevin, emily]):
        code = await t.rejected(t.gm, mp.SetPcOrder(order=bad))
        assert code == "rule/nstrpg/pc_order_kept"
    await t.gm_do(mp.SetPcOrder(order=[emily, bob, kevin]))  # ボブ's place settled, once
    assert [label for label, _ in names(t)] == ["エミリー", "ボブ", "ケビン"]
    await t.gm_do(c.EndCombat())
    await t.gm_do(mp.SetPcOrder(order=[kevin, emily, bob]))
    assert t.h.game.pc_rank == (kevin, emily, bob)


async def test_ikkiuchi_begins_with_the_next_turn_when_the_third_falls(ns: Make) -> None:
    """NS-34 with 2-3 (the order of a turn is fixed at its start): エミリー (7) fells the only
    other fighter, a mob, in turn 1 (one die, face 4, at NORMAL; a mob cannot dodge): the
    duel's second 手番 come from turn 2 (7, 4, 3, 2), not at once in turn 1."""
    t = await ns({"ikkiuchi": True})
    me = await t.pc("エミリー", **sheet(7, karate=1))
    foe = await t.npc("ブラックマンバ", **sheet(4, "boss"))
    (mob,) = await t.mobs("クローンヤクザ", 1, **sheet(1, "mob", tairyoku=1))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    t.roll(4)
    await t.do(c.Attack(attacker=me, target=mob))
    assert t.f(mob).status == "removed"
    assert names(t) == [("エミリー", 7), ("ブラックマンバ", 4)]  # before the fix: 7, 4, 3, 2
    await t.do(c.EndTurnOf(character_id=me))
    await t.pass_turns()
    assert turn(t.h.table.state, t.h.table.ruleset).phase == "turn_end"  # no second 手番
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert [(s.id, s.value) for s in tn.order] == [(me, 7), (foe, 4), (me, 3), (foe, 2)]
    t.assert_dice_used()
