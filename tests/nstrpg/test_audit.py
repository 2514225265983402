"""Regressions from the rules audit against the rulebook text (000, sections 2-1 … 2-17).

Each test cites the CHECKLIST id it holds the code to, with numbers other than the book's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku_nstrpg import events as ev
from taku_nstrpg.checks import HARD, NORMAL, UH
from taku_nstrpg.commands import (
    Attack,
    BeginTurnOf,
    Check,
    CreateNinjaSlayer,
    EndCombat,
    EndTurn,
    EndTurnOf,
    Evade,
    Inflict,
    Kaishaku,
    OpposedCheck,
    OpposedSide,
    Split,
    StartCombat,
    StartTurn,
    Wasshoi,
)

Make = Callable[..., Awaitable[Any]]


def one(events: list[Any], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


async def test_adrenaline_is_for_ninjas_only(ns: Make) -> None:
    """NS-96: 「あらゆるニンジャは…『●アドレナリン・ブースト』のルールを使用できる」; a human boss cannot."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=5)
    boss = await t.npc(
        "人間ボス", kind="boss", ninja=False, karate=2, wazamae=3, tairyoku=5, seishin=3
    )
    t.roll(5, 1, 1)
    a = one(await t.do(Attack(attacker=me, target=boss)), ev.AttackRolled)
    code = await t.rejected(
        t.gm, Evade(defender=boss, hits=[a.hits[0].id], dice=2, adrenaline=True)
    )
    assert code == "rule/nstrpg/ninja_only"
    assert (
        await t.rejected(t.gm, Attack(attacker=boss, target=me, adrenaline=True))
        == "rule/nstrpg/ninja_only"
    )


async def test_seimitsu_rensha_stands_for_renzoku_without_plus(ns: Make) -> None:
    """NS-67: with 精密攻撃 the ●連射 value may replace ●連続攻撃, but no +X raises it.

    カラテ 7 (●連続攻撃2) with 連続攻撃+1 gives 3; ワザマエ 13 (●連射3) gives 3; never 4.
    """
    t = await ns()
    me = await t.pc(
        "ニンジャ",
        karate=7,
        wazamae=13,
        tairyoku=5,
        weapons=["katana"],
        equipped="katana",
        renzoku_plus=1,
    )
    ys = await t.mobs("ヤクザ", 4, karate=1, tairyoku=1, ninja=False)
    four = [Split(target=y, dice=3) for y in ys]
    assert (
        await t.rejected(t.pl, Attack(attacker=me, style="seimitsu", splits=four))
        == "rule/nstrpg/too_many_attacks"
    )
    t.roll(*[1] * 12)
    a = one(
        await t.do(
            Attack(attacker=me, style="seimitsu", splits=[Split(target=y, dice=4) for y in ys[:3]])
        ),
        ev.AttackRolled,
    )
    assert len(a.rolls) == 3


async def test_knockback_collision_counts_as_melee_for_atmosphere(ns: Make) -> None:
    """NS-109: a 弾き飛ばし collision is melee for the atmosphere: HARD in ハードモード (UH in ultra-hard)."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, tairyoku=5)
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    await t.pass_turns()
    await t.gm_do(EndTurn(atmosphere="hard"))
    await t.gm_do(StartTurn())
    i = one(await t.gm_do(Inflict(target=me, kind="knockback", damage=1)), ev.HitInflicted)
    t.roll(1)
    assert (
        one(await t.do(Evade(defender=me, hits=[i.hit.id], dice=1)), ev.EvasionRolled).difficulty
        == HARD
    )
    await t.pass_turns()
    await t.gm_do(EndTurn(atmosphere="ultra_hard"))
    await t.gm_do(StartTurn())
    i = one(await t.gm_do(Inflict(target=me, kind="knockback", damage=1)), ev.HitInflicted)
    t.roll(1)
    assert (
        one(await t.do(Evade(defender=me, hits=[i.hit.id], dice=1)), ev.EvasionRolled).difficulty
        == UH
    )


async def test_no_sokuten_in_shuchu(ns: Make) -> None:
    """NS-56: 集中状態 skips the whole move phase, so no 連続側転判定 after declaring it."""
    t = await ns()
    me = await t.pc("ニンジャ", wazamae=3, tairyoku=5)
    await t.do(BeginTurnOf(character_id=me, shuchu=True))
    code = await t.rejected(t.pl, Check(character_id=me, stat="wazamae", purpose="sokuten"))
    assert code == "rule/nstrpg/shuchu_no_move"


async def test_adrenaline_evasion_only_in_someone_elses_turn(ns: Make) -> None:
    """NS-96 / G-NS-21: the evasion −1 is for another's 手番; in one's own 手番 (a counter against
    one's own attack) the boost gives only 集中, which never helps an evasion."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, wazamae=5, tairyoku=6, seishin=3)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=2, wazamae=6, tairyoku=9, seishin=2)
    await t.do(BeginTurnOf(character_id=me))
    t.roll(4, 1, 1)
    a = one(await t.do(Attack(attacker=me, target=foe)), ev.AttackRolled)
    t.roll(6, 6, 1, 1, 1, 1)
    c = one(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id], dice=6)), ev.CounterKarate)
    code = await t.rejected(t.pl, Evade(defender=me, hits=[c.hit.id], dice=2, adrenaline=True))
    assert code == "rule/nstrpg/adrenaline_timing"
    await t.do(EndTurnOf(character_id=me))
    await t.gm_do(BeginTurnOf(character_id=foe))
    assert (
        await t.rejected(t.pl, Check(character_id=me, purpose="attack_phase", adrenaline=True))
        == "rule/nstrpg/adrenaline_timing"
    )
    t.roll(3, 1)
    e = one(
        await t.do(Evade(defender=me, hits=[c.hit.id], dice=2, adrenaline=True)), ev.EvasionRolled
    )
    assert e.success and t.f(me).seishin == 2


async def test_naraku_within_no_explosion_no_kaishaku(ns: Make) -> None:
    """NS-106: Ninja Slayer at 体力 below 0 (精神力 spent) does not explode and cannot be カイシャク'd."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=5, tairyoku=6)
    (ns_evt,) = await t.gm_do(CreateNinjaSlayer())
    slayer = ns_evt.character_id
    d = one(
        await t.gm_do(Inflict(target=slayer, damage=13 + 9 + 2, evadable=False)), ev.DamageResolved
    )
    assert (d.seishin, d.status) == (0, "fainted")
    assert await t.rejected(t.pl, Kaishaku(attacker=me, target=slayer)) == "rule/nstrpg/naraku"


async def test_wasshoi_counts_fainted_ninjas_and_entry_fear(ns: Make) -> None:
    """NS-98, NS-99: a 気絶 ninja is still on the map, so its 【DKK】 is the target; entry row 6 puts
    『連続側転判定』 +2 on every DKK 1+ ninja until the end of the next turn, then it is gone."""
    t = await ns()
    evil = await t.pc("悪ニンジャ", wazamae=3, tairyoku=4, seishin=1, dkk=7)
    mild = await t.pc("ニンジャ", wazamae=3, tairyoku=4, dkk=2)
    clean = await t.pc("善ニンジャ", wazamae=3, tairyoku=4, dkk=0)
    await t.gm_do(Inflict(target=evil, damage=4, evadable=False))
    assert t.f(evil).status == "fainted"
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    t.roll(3, 4, 6)
    w = one(await t.gm_do(Wasshoi()), ev.WasshoiRolled)
    assert (w.target, w.total, w.success, w.target_ninja, w.entry_row) == (7, 7, True, evil, 6)
    t.roll(6, 6, 1)
    assert (
        one(
            await t.do(Check(character_id=mild, stat="wazamae", purpose="sokuten")), ev.CheckRolled
        ).difficulty
        == UH
    )
    t.roll(4, 1, 1)
    assert (
        one(
            await t.do(Check(character_id=clean, stat="wazamae", purpose="sokuten")), ev.CheckRolled
        ).difficulty
        == NORMAL
    )
    t.roll(4, 1, 1)
    assert (
        one(await t.do(Check(character_id=mild, stat="wazamae")), ev.CheckRolled).difficulty
        == NORMAL
    )  # 側転 only
    await t.pass_turns()
    await t.gm_do(EndTurn())
    await t.gm_do(StartTurn())
    t.roll(6, 6, 1)
    assert (
        one(
            await t.do(Check(character_id=mild, stat="wazamae", purpose="sokuten")), ev.CheckRolled
        ).difficulty
        == UH
    )
    await t.pass_turns()
    await t.gm_do(EndTurn())
    await t.gm_do(StartTurn())
    t.roll(4, 1, 1)
    assert (
        one(
            await t.do(Check(character_id=mild, stat="wazamae", purpose="sokuten")), ev.CheckRolled
        ).difficulty
        == NORMAL
    )


async def test_fainted_cannot_take_part_in_an_opposed_check(ns: Make) -> None:
    """NS-11 with NS-82: a 気絶 character can take only trivial actions, not an 対抗判定."""
    t = await ns()
    a = await t.pc("ニンジャA", karate=3, tairyoku=2)
    b = await t.pc("ニンジャB", karate=3, tairyoku=2)
    await t.gm_do(Inflict(target=b, damage=2, evadable=False))
    code = await t.rejected(
        t.gm, OpposedCheck(sides=[OpposedSide(character_id=a), OpposedSide(character_id=b)])
    )
    assert code == "rule/nstrpg/cannot_act"


async def test_mobs_are_not_ninjas_by_default(ns: Make) -> None:
    """G-NS-09 / NS-88: only ninjas cause サツバツ!; a mob is no ninja unless its sheet says so."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=2, wazamae=2, tairyoku=9, seishin=1)
    (y,) = await t.mobs("スモトリヤクザ", 1, karate=3, tairyoku=2)
    t.roll(6, 6, 6)
    a = one(await t.gm_do(Attack(attacker=y, target=me)), ev.AttackRolled)
    assert a.rolls[0].critical == "" and a.hits[0].critical == ""
    y2 = await t.npc(
        "ヤクザ", kind="mob", karate=3, tairyoku=2
    )  # through the core's create_character
    t.roll(6, 6, 1)
    assert (
        one(await t.gm_do(Attack(attacker=y2, target=me)), ev.AttackRolled).rolls[0].critical == ""
    )
    (z,) = await t.mobs("ニンジャモブ", 1, karate=3, tairyoku=2, ninja=True)
    t.roll(6, 6, 1)
    assert (
        one(await t.gm_do(Attack(attacker=z, target=me)), ev.AttackRolled).rolls[0].critical
        == "satsubatsu"
    )


async def test_each_combat_starts_with_the_declared_weapon(ns: Make) -> None:
    """NS-27 / 2-4: a weapon switched to in one combat is not still in hand at the next one's start."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=5, weapons=["katana"])
    (y,) = await t.mobs("ヤクザ", 1, karate=1, tairyoku=5)
    await t.gm_do(StartCombat())
    await t.do(BeginTurnOf(character_id=me, equip="katana"))
    t.roll(1, 1, 1)
    assert one(await t.do(Attack(attacker=me, target=y)), ev.AttackRolled).weapon == "katana"
    await t.gm_do(EndCombat())
    await t.gm_do(StartCombat())
    t.roll(1, 1, 1)
    assert one(await t.do(Attack(attacker=me, target=y)), ev.AttackRolled).weapon == "unarmed"


async def test_resistance_check_with_seishin(ns: Make) -> None:
    """NS-10: a 抵抗判定 uses the named attribute, 【精神力】 or 【体力】 included (their current values)."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=6, seishin=4)
    await t.gm_do(Inflict(target=me, damage=2, evadable=False))
    t.roll(1, 2, 3, 4)
    c = one(
        await t.do(Check(character_id=me, stat="tairyoku", purpose="resistance")), ev.CheckRolled
    )
    assert (c.pool, c.successes) == (4, 1)
    t.roll(5, 1, 1, 1)
    c = one(await t.h.chat(t.pl, "精神力判定:HARD"), ev.CheckRolled)
    assert (c.stat, c.pool, c.difficulty, c.success) == ("seishin", 4, HARD, True)


async def test_sixth_sense_on_a_failed_evasion(ns: Make) -> None:
    """NS-70: ●ニンジャ第六感 rerolls any check of one's own, an 回避判定 included; the same dice and
    difficulty, once a scenario, and a success needs no reroll (NS-15)."""
    t = await ns()
    me = await t.pc("ニンジャ", neuron=13, karate=2, tairyoku=9)
    boss = await t.npc("ボス", kind="boss", karate=7, tairyoku=9)
    t.roll(4, 1, 1, 4, 1, 1)
    a = one(
        await t.gm_do(
            Attack(attacker=boss, splits=[Split(target=me, dice=3), Split(target=me, dice=3)])
        ),
        ev.AttackRolled,
    )
    t.roll(5, 1)
    e = one(
        await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=2, sixth_sense=True)),
        ev.EvasionRolled,
    )
    assert e.success and e.first is None and not t.f(me).sixth_sense_used
    t.roll(3, 2, 1, 4)
    out = await t.do(Evade(defender=me, hits=[a.hits[1].id], dice=2, sixth_sense=True))
    e = one(out, ev.EvasionRolled)
    assert (e.first.faces, e.roll.faces, e.success, e.dice) == ((3, 2), (1, 4), True, 2)
    assert not [x for x in out if isinstance(x, ev.DamageResolved)] and t.f(me).sixth_sense_used
    t.roll(4, 1, 1, 1, 1, 1, 1)
    a = one(await t.gm_do(Attack(attacker=boss, target=me)), ev.AttackRolled)
    code = await t.rejected(t.pl, Evade(defender=me, hits=[a.hits[0].id], dice=2, sixth_sense=True))
    assert code == "rule/nstrpg/sixth_sense_used"


async def test_counter_is_melee_for_ninja_slayer_a_wall_is_not(ns: Make) -> None:
    """NS-78 / NS-102 / NS-109: a counter is melee damage (his −1 applies); a 弾き飛ばし collision
    is melee only for the atmosphere, so his anti-melee −1 does not apply to it."""
    t = await ns()
    (e,) = await t.gm_do(CreateNinjaSlayer())
    slayer = e.character_id
    i = one(await t.gm_do(Inflict(target=slayer, kind="counter", damage=1)), ev.HitInflicted)
    t.roll(3)
    assert (
        one(
            await t.gm_do(Evade(defender=slayer, hits=[i.hit.id], dice=1)), ev.EvasionRolled
        ).difficulty
        == 3
    )
    i = one(await t.gm_do(Inflict(target=slayer, kind="knockback", damage=1)), ev.HitInflicted)
    t.roll(4)
    assert (
        one(
            await t.gm_do(Evade(defender=slayer, hits=[i.hit.id], dice=1)), ev.EvasionRolled
        ).difficulty
        == NORMAL
    )
