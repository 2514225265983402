"""The combat sequence over the command path (2-2, 2-3, オプションルール 一騎打ち): 手番 in
initiative order with its tie rules (NS-30 … NS-32, NS-EX-11), 一騎打ち (NS-34), one
instant action a phase (NS-35) and 『2ターン連続使用不可』 per ability (NS-71)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku.core.table import affordances, turn
from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]


def sheet(neuron: int, kind: str = "pc", **more: Any) -> dict[str, Any]:
    return {"kind": kind, "karate": 3, "neuron": neuron, "wazamae": 3, "tairyoku": 9, **more}


def order(t: Any) -> list[str]:
    tn = turn(t.h.table.state, t.h.table.ruleset)
    return [t.h.table.state.characters[s.id].name for s in tn.order]


def actor(t: Any) -> str | None:
    return turn(t.h.table.state, t.h.table.ruleset).actor  # type: ignore[no-any-return]


async def test_ns_ex_11_ties_pcs_by_their_agreement_and_pcs_before_enemies(ns: Make) -> None:
    t = await ns()
    bob = await t.pc("ボブ", **sheet(1))
    kevin = await t.pc("ケビン", **sheet(4))
    emily = await t.pc("エミリー", **sheet(4))
    await t.gm_do(mp.SetPcOrder(order=[emily, kevin]))  # ジャンケン: エミリーの勝ち
    await t.gm_do(c.StartCombat())
    assert order(t) == ["エミリー", "ケビン", "ボブ"]
    await t.npc("モーターヤブ", **sheet(2, "boss"))
    assert order(t) == ["エミリー", "ケビン", "モーターヤブ", "ボブ"]
    await t.mobs("クローンヤクザ", 6, **sheet(1, "mob"))
    assert order(t) == ["エミリー", "ケビン", "モーターヤブ", "ボブ"] + [
        f"クローンヤクザ{i}" for i in range(1, 7)
    ]
    assert bob and kevin


async def test_each_turn_goes_in_order_and_the_gm_orders_tied_enemies(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ボブ", **sheet(3))
    a = await t.npc("ヤクザA", **sheet(2, "boss"))
    b = await t.npc("ヤクザB", **sheet(2, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    assert actor(t) == me
    code = await t.rejected(t.gm, c.BeginTurnOf(character_id=a))
    assert code == "rule/nstrpg/not_your_turn"
    await t.do(c.BeginTurnOf(character_id=me))
    code = await t.rejected(t.gm, c.BeginTurnOf(character_id=a))
    assert code == "rule/nstrpg/not_your_turn"  # nobody while another's 手番 runs
    await t.do(c.EndTurnOf(character_id=me))
    assert actor(t) == a
    await t.gm_do(c.BeginTurnOf(character_id=b))  # a tie among enemies: the GM picks B first
    await t.gm_do(c.EndTurnOf(character_id=b))
    assert actor(t) == a


async def test_no_second_te_ban_once_everyone_has_acted(ns: Make) -> None:
    """NS-30: each character's 手番 comes once a turn (in its slot); once every slot has
    acted the turn is in its ターン終了フェイズ and nobody begins again, the GM neither."""
    t = await ns()
    me = await t.pc("ボブ", **sheet(3))
    boss = await t.npc("ヤクザ", **sheet(2, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    await t.do(c.EndTurnOf(character_id=me))
    await t.gm_do(c.BeginTurnOf(character_id=boss))
    await t.gm_do(c.EndTurnOf(character_id=boss))
    assert actor(t) is None
    assert await t.rejected(t.pl, c.BeginTurnOf(character_id=me)) == "rule/nstrpg/not_your_turn"
    assert await t.rejected(t.gm, c.BeginTurnOf(character_id=boss)) == "rule/nstrpg/not_your_turn"


async def test_initiative_below_one_acts_as_one_but_shows_its_value(ns: Make) -> None:
    """NS-32: a PC at イニシアチブ −1 acts with the 1s, before an enemy at 1."""
    t = await ns()
    await t.npc("ヤクザ", **sheet(1, "boss"))
    await t.pc("ボブ", **sheet(1, initiative_bonus=-2))
    await t.gm_do(c.StartCombat())
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert [(t.h.table.state.characters[s.id].name, s.value) for s in tn.order] == [
        ("ボブ", -1),
        ("ヤクザ", 1),
    ]


async def test_ikkiuchi_two_te_ban_a_turn_the_second_at_half_initiative(ns: Make) -> None:
    """NS-34, G-NS-15: 【ニューロン】7 and 4: 7, 4, 3 (7/2), 2; abilities count per 手番."""
    t = await ns({"ikkiuchi": True})
    me = await t.pc("エミリー", **sheet(7, skills=["◉カトン・ジツ:2ターン連続使用不可"]))
    foe = await t.npc("ブラックマンバ", **sheet(4, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert [(s.id, s.value) for s in tn.order] == [(me, 7), (foe, 4), (me, 3), (foe, 2)]
    assert tn.order[2].label == "エミリー（2回目の手番）"
    katon = mp.UseAbility(character_id=me, ability="◉カトン・ジツ")
    await t.do(c.BeginTurnOf(character_id=me))
    await t.do(katon)
    await t.do(c.EndTurnOf(character_id=me))
    await t.gm_do(c.BeginTurnOf(character_id=foe))
    await t.gm_do(c.EndTurnOf(character_id=foe))
    assert actor(t) == me
    await t.do(c.BeginTurnOf(character_id=me))
    assert await t.rejected(t.pl, katon) == "rule/nstrpg/cooldown"  # 2手番連続使用不可
    await t.do(c.EndTurnOf(character_id=me))
    await t.gm_do(c.BeginTurnOf(character_id=foe))
    await t.gm_do(c.EndTurnOf(character_id=foe))
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert tn.phase == "turn_end" and all(s.done for s in tn.order)
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    await t.do(katon)  # 手番 3: usable again


async def test_ikkiuchi_only_between_two_lone_ninjas(ns: Make) -> None:
    t = await ns({"ikkiuchi": True})
    await t.pc("エミリー", **sheet(7))
    await t.npc("ブラックマンバ", **sheet(4, "boss"))
    await t.mobs("クローンヤクザ", 1, **sheet(1, "mob"))
    await t.gm_do(c.StartCombat())
    assert len(turn(t.h.table.state, t.h.table.ruleset).order) == 3


async def test_two_turns_in_a_row_are_refused_per_ability(ns: Make) -> None:
    """NS-71: used in turn 1, refused in turn 2, usable in turn 3; another ability is free."""
    t = await ns()
    skills = ["◉カトン・ジツ:2ターン連続使用不可", "◉ヘンゲヨーカイ・ジツ:2ターン連続使用不可"]
    slayer = await t.npc("ニンジャ", **sheet(7, "boss", skills=skills))
    await t.gm_do(c.StartCombat())

    async def turn_of(*uses: str) -> list[str]:
        await t.gm_do(c.StartTurn())
        await t.gm_do(c.BeginTurnOf(character_id=slayer))
        codes = []
        for u in uses:
            try:
                await t.gm_do(mp.UseAbility(character_id=slayer, ability=u))
                codes.append("ok")
            except Exception as e:  # noqa: BLE001
                codes.append(getattr(e, "code", str(e)))
        await t.gm_do(c.EndTurnOf(character_id=slayer))
        await t.gm_do(c.EndTurn())
        return codes

    assert await turn_of("◉カトン・ジツ") == ["ok"]
    assert await turn_of("◉カトン・ジツ", "◉ヘンゲヨーカイ・ジツ") == ["rule/nstrpg/cooldown", "ok"]
    assert await turn_of("◉カトン・ジツ", "◉ヘンゲヨーカイ・ジツ") == ["ok", "rule/nstrpg/cooldown"]


async def test_tsuyoi_shuriken_only_without_a_move(ns: Make) -> None:
    t = await ns()
    slayer = await t.npc(
        "ニンジャスレイヤー", **sheet(7, "boss", kyakuryoku=4, skills=["◉ツヨイ・スリケン"])
    )
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(mp.Place(character_id=slayer, at=(1, 1)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.gm_do(c.BeginTurnOf(character_id=slayer))
    await t.gm_do(mp.Move(character_id=slayer, to=(2, 1)))
    use = mp.UseAbility(character_id=slayer, ability="◉ツヨイ・スリケン")
    assert await t.rejected(t.gm, use) == "rule/nstrpg/moved"


async def test_only_an_ability_on_the_sheet_is_used(ns: Make) -> None:
    """Ninja Slayer's ◉ abilities with rules (2-15) only for who has them: a PC without
    ◉ヘルタツマキ / ◉ツヨイ・スリケン on its sheet cannot throw them (it spent 【精神力】 and
    rolled an area attack); its own ability, or an item used as a 瞬時行動, is recorded."""
    t = await ns()
    me = await t.pc("エミリー", **sheet(5, skills=["◉カトン・ジツ:2ターン連続使用不可"]))
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    seishin = t.f(me).seishin
    for name in ("◉ヘルタツマキ", "ツヨイ・スリケン"):
        use = mp.UseAbility(character_id=me, ability=name)
        assert await t.rejected(t.pl, use) == "rule/nstrpg/no_ability"
        assert await t.rejected(t.gm, use) == "rule/nstrpg/no_ability"
    assert t.f(me).seishin == seishin
    for name in ("◉カトン・ジツ", "ZBRアドレナリン"):
        (used,) = await t.do(mp.UseAbility(character_id=me, ability=name))
        assert used.ability == name


async def test_one_instant_action_a_phase(ns: Make) -> None:
    """NS-35: a second 瞬時行動 in the same phase is refused; the next phase allows one again."""
    t = await ns()
    me = await t.pc("エミリー", **sheet(5))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    await t.do(mp.UseAbility(character_id=me, ability="ZBRアドレナリン", instant=True))
    second = mp.UseAbility(character_id=me, ability="電脳ドラッグ", instant=True)
    assert await t.rejected(t.pl, second) == "rule/nstrpg/one_instant"
    await t.gm_do(c.EndPhase())
    await t.do(second)


async def test_a_weapon_is_switched_at_te_ban_start_only(ns: Make) -> None:
    """NS-39: in one's 手番 the attack uses the wielded weapon; the switch is declared by
    手番開始 and holds until the next 手番 (shuriken may still be thrown, NS-59)."""
    t = await ns()
    me = await t.pc("エミリー", **sheet(4, weapons=["katana"]))
    foe = await t.npc("ヤクザ", **sheet(1, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))  # no switch: 素手&スリケン (NS-27)
    katana = c.Attack(attacker=me, target=foe, weapon="katana")
    assert await t.rejected(t.pl, katana) == "rule/nstrpg/weapon_not_equipped"
    await t.do(c.EndTurnOf(character_id=me))
    await t.gm_do(c.BeginTurnOf(character_id=foe))
    await t.gm_do(c.EndTurnOf(character_id=foe))
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me, equip="katana"))
    t.roll(4, 1, 1)
    (a,) = [e for e in await t.do(katana) if type(e).__name__ == "AttackRolled"]
    assert a.weapon == "katana"


async def test_ns_ex_12_sudden_combat_places_in_reverse_order(ns: Make) -> None:
    """NS-EX-12: order PC1, ブラックマンバ, PC2, PC3, クローンヤクザ; placement the reverse."""
    t = await ns()
    pc1 = await t.pc("PC1", **sheet(6))
    bm = await t.npc("ブラックマンバ", **sheet(5, "boss"))
    pc2 = await t.pc("PC2", **sheet(4))
    pc3 = await t.pc("PC3", **sheet(3))
    (clone,) = await t.mobs("クローンヤクザ", 1, **sheet(1, "mob"))
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(c.StartCombat())
    placed = []
    for x in range(1, 6):
        who = actor(t)
        assert turn(t.h.table.state, t.h.table.ruleset).phase == "placement"
        placed.append(who)
        await t.gm_do(mp.Place(character_id=who, at=(x, 1)))
    assert placed == [clone, pc3, pc2, bm, pc1]
    await t.gm_do(c.StartTurn())
    assert [s.id for s in turn(t.h.table.state, t.h.table.ruleset).order] == [
        pc1,
        bm,
        pc2,
        pc3,
        clone,
    ]


async def test_turn_start_resets_dodge_dice_to_the_maximum_first(ns: Make) -> None:
    """NS-41, 2-8: no carry-over: the dice spent in turn 1 are back at turn 2's start, and the
    start of a turn is the only place they return (a 手番 does not refill them)."""
    t = await ns()
    me = await t.pc("ボブ", **sheet(4, wazamae=5))
    foe = await t.npc("ヤクザ", **sheet(1, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    assert t.f(me).evasion_dice == 5
    t.roll(4, 1, 1)
    (a,) = [e for e in await t.gm_do(c.Attack(attacker=foe, target=me)) if hasattr(e, "hits")]
    t.roll(4, 4, 1)
    await t.do(c.Evade(defender=me, hits=[a.hits[0].id], dice=3, counter=False))
    assert t.f(me).evasion_dice == 2
    await t.do(c.BeginTurnOf(character_id=me))
    await t.do(c.EndTurnOf(character_id=me))
    assert t.f(me).evasion_dice == 2
    await t.pass_turns()
    await t.gm_do(c.EndTurn())
    (started,) = await t.gm_do(c.StartTurn())
    assert started.evasion == {me: 5, foe: 3} and t.f(me).evasion_dice == 5


async def test_the_atmosphere_rise_takes_effect_from_the_next_turn(ns: Make) -> None:
    """NS-42, NS-107: declared at turn 3's end, hard mode applies from turn 4 (the state
    keeps the level; NS-EX-37 checks the evasion it changes)."""
    t = await ns()
    await t.pc("ボブ", **sheet(4))
    await t.gm_do(c.StartCombat())
    for _ in range(2):
        await t.gm_do(c.StartTurn())
        await t.pass_turns()
        await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    assert (t.h.game.turn, t.h.game.atmosphere) == (3, "normal")
    await t.pass_turns()
    await t.gm_do(c.EndTurn(atmosphere="hard"))  # declared in turn 3's end phase
    await t.gm_do(c.StartTurn())
    assert (t.h.game.turn, t.h.game.atmosphere) == (4, "hard")


def gm_offers(t: Any) -> set[str]:
    state = t.h.table.state
    return {a.command for a in affordances(state, state.viewer(t.gm), t.h.table.ruleset)}


async def test_a_turn_starts_and_ends_only_between_turns(ns: Make) -> None:
    """2-2, 2-9: ターン開始 → every 手番 → ターン終了フェイズ. ``start_turn`` and ``end_turn``
    are refused while a 手番 runs or is still due; ``start_turn`` also until ``end_turn``
    has run the turn-end steps (effects_resolved, turn_ended); ``end_turn`` once a turn."""
    from taku_nstrpg import turn_end as te
    from taku_nstrpg.events import TurnEnded

    t = await ns()
    me = await t.pc("ボブ", **sheet(3))
    boss = await t.npc("ヤクザ", **sheet(2, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    for cmd in (c.StartTurn(), c.EndTurn()):  # ボブ's 手番 runs
        assert await t.rejected(t.gm, cmd) == "rule/nstrpg/turn_open"
    await t.do(c.EndTurnOf(character_id=me))
    assert "nstrpg.end_turn" not in gm_offers(t) and "nstrpg.start_turn" not in gm_offers(t)
    for cmd in (c.StartTurn(), c.EndTurn()):  # ヤクザ's 手番 is still due
        assert await t.rejected(t.gm, cmd) == "rule/nstrpg/turn_open"
    await t.gm_do(c.BeginTurnOf(character_id=boss))
    await t.gm_do(c.EndTurnOf(character_id=boss))
    # the ターン終了フェイズ: the turn's end must be declared before the next turn
    assert await t.rejected(t.gm, c.StartTurn()) == "rule/nstrpg/turn_open"
    assert "nstrpg.end_turn" in gm_offers(t)
    out = await t.gm_do(c.EndTurn())
    assert [type(e) for e in out] == [te.EffectsResolved, TurnEnded]
    assert await t.rejected(t.gm, c.EndTurn()) == "rule/nstrpg/turn_end_order"
    (started,) = await t.gm_do(c.StartTurn())
    assert started.turn == 2  # type: ignore[attr-defined]


async def test_a_pending_hit_is_resolved_before_the_phase_moves_on(ns: Make) -> None:
    """2-11: damage is dodged once or taken at once, a カウンターカラテ "即座に": a pending
    hit (the counter too) does not outlive its phase: ending the 手番, the turn or the
    combat waits until it is evaded or taken."""
    t = await ns()
    me = await t.pc("ボブ", **sheet(2, wazamae=5))
    boss = await t.npc("ヤクザ", **sheet(3, "boss"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.gm_do(c.BeginTurnOf(character_id=boss))
    t.roll(4, 1, 1)  # カラテ3: 1 success, a hit on ボブ
    (a,) = [e for e in await t.gm_do(c.Attack(attacker=boss, target=me)) if hasattr(e, "hits")]
    assert await t.rejected(t.gm, c.EndTurnOf(character_id=boss)) == "rule/nstrpg/hits_pending"
    t.roll(4, 4, 1)  # 2 successes > 1: evaded, and a カウンターカラテ on ヤクザ
    await t.do(c.Evade(defender=me, hits=[a.hits[0].id], dice=3))
    (counter,) = t.pending.values()
    assert counter.kind == "counter" and counter.target == boss
    for cmd in (c.EndTurnOf(character_id=boss), c.EndPhase(), c.EndTurn(), c.EndCombat()):
        assert await t.rejected(t.gm, cmd) == "rule/nstrpg/hits_pending"
    err = await t.h.rejected(t.gm, c.EndTurnOf(character_id=boss))
    assert "ヤクザへのボブの攻撃" in str(err)
    await t.gm_do(c.Evade(defender=boss, hits=[counter.id], dice=0))  # taken: 体力 9 → 8
    assert not t.pending and t.f(boss).tairyoku == 8
    await t.gm_do(c.EndTurnOf(character_id=boss))
    t.assert_dice_used()
