"""The worked examples (プレイ例) of NSTRPG 2-1 and 2-6 … 2-17 over the server's command path.

Each test names its CHECKLIST case (NS-EX-…) and uses the book's numbers; faces
marked "fixture" in the CHECKLIST are chosen to give the book's counts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from taku.core.events import Event
from taku_nstrpg import events as ev
from taku_nstrpg.checks import EASY, HARD, NORMAL, UH, UH2
from taku_nstrpg.commands import (
    Attack,
    Check,
    CreateNinjaSlayer,
    DeclareBarrage,
    EndCombat,
    EndScenario,
    EndTurn,
    Evade,
    Inflict,
    OpposedCheck,
    OpposedSide,
    Split,
    StartCombat,
    StartScenario,
    StartTurn,
)

E = TypeVar("E", bound=Event)
Make = Callable[..., Awaitable[Any]]


def one(events: list[Event], kind: type[E]) -> E:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def every(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


async def test_ex01_karate_punch(ns: Make) -> None:
    """NS-EX-01: カラテ 4, faces 1,1,4,6 at NORMAL: 2 successes, 1 damage, the clone yakuza falls."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, tairyoku=5)
    (y,) = await t.mobs("クローンヤクザ", 1, karate=1, tairyoku=1, ninja=False)
    t.roll(1, 1, 4, 6)
    out = await t.do(Attack(attacker=me, target=y))
    a = one(out, ev.AttackRolled)
    assert (a.pool, a.rolls[0].difficulty, a.rolls[0].successes, a.rolls[0].critical) == (
        4,
        NORMAL,
        2,
        "",
    )
    d = one(out, ev.DamageResolved)
    assert (d.amount, d.tairyoku, d.status) == (1, 0, "removed")
    await t.h.assert_replay_matches()


@pytest.mark.parametrize("line", ["カラテ判定:U-HARD2", "カラテ:UH2"])
async def test_ex02_improvised_check_notation(ns: Make, line: str) -> None:
    """NS-EX-02: 『カラテ判定:U-HARD2』 and 『カラテ:UH2』 both need two 6s, pool from the sheet."""
    t = await ns()
    await t.pc("ボブ", karate=4)
    t.roll(6, 5, 1, 6)
    c = one(await t.h.chat(t.pl, line), ev.CheckRolled)
    assert (c.stat, c.pool, c.difficulty, c.successes, c.success) == ("karate", 4, UH2, 1, True)
    t.roll(6, 5, 5, 1)
    assert one(await t.h.chat(t.pl, line), ev.CheckRolled).success is False


async def test_ex03_wazamae_hard_alarm(ns: Make) -> None:
    """NS-EX-03: ワザマエ 3 at HARD, faces 3,1,4: no success, the alarm goes off."""
    t = await ns()
    bob = await t.pc("ボブ", wazamae=3)
    t.roll(3, 1, 4)
    c = one(await t.do(Check(character_id=bob, stat="wazamae", difficulty="HARD")), ev.CheckRolled)
    assert (c.pool, c.successes, c.success) == (3, 0, False)


async def test_ex04_sonic_boom_opposed(ns: Make) -> None:
    """NS-EX-04: Sonic Boom (カラテ 12) 8 successes against Bob's 1: Bob takes 7 and faints."""
    t = await ns()
    sb = await t.npc("ソニックブーム", kind="boss", karate=12, tairyoku=20)
    bob = await t.pc("ボブ", karate=4, tairyoku=7, seishin=2)
    t.roll(6, 5, 5, 4, 4, 4, 6, 5, 3, 2, 1, 1, 4, 3, 2, 1)
    out = await t.gm_do(
        OpposedCheck(
            sides=[OpposedSide(character_id=sb), OpposedSide(character_id=bob)],
            damage_difference=True,
        )
    )
    o = one(out, ev.OpposedRolled)
    assert [s.successes for s in o.sides] == [8, 1] and (o.winner, o.margin) == (sb, 7)
    d = one(out, ev.DamageResolved)
    assert (d.target, d.amount, d.tairyoku, d.status) == (bob, 7, 0, "fainted")


@pytest.mark.parametrize(("diff", "expected"), [("UH3", 4), ("UH2", 5), ("UH", 6)])
async def test_ex05_uh_success_counting(ns: Make, diff: str, expected: int) -> None:
    """NS-EX-05: six 6s: UH3 4 successes, UH2 5, UH 6 (a check tied to a character)."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=6)
    t.roll(6, 6, 6, 6, 6, 6)
    c = one(await t.do(Check(character_id=me, difficulty=diff)), ev.CheckRolled)
    assert c.successes == expected


async def test_ex08_quick_dice(ns: Make) -> None:
    """NS-EX-08: 2 即応ダイス declared before the 交渉判定: 2 more dice, 3 left, not refunded."""
    t = await ns()
    emily = await t.pc("エミリー", neuron=3)
    t.roll(1, 2, 3, 1, 2)
    c = one(
        await t.do(Check(character_id=emily, stat="neuron", quick_dice=2, label="交渉判定")),
        ev.CheckRolled,
    )
    assert c.pool == 5 and t.f(emily).quick_dice == 3
    assert (
        await t.rejected(t.pl, Check(character_id=emily, quick_dice=4))
        == "rule/nstrpg/no_quick_dice"
    )
    assert "quick_dice" not in Evade.__struct_fields__  # never on an evasion (NS-12)


async def test_ex09_quick_dice_allotment(ns: Make) -> None:
    """NS-EX-09: 5 即応ダイス without weapons, 4 with a カタナ."""
    t = await ns()
    a = await t.pc("素手", karate=3)
    b = await t.pc("カタナ持ち", karate=3, weapons=["katana"], equipped="katana")
    assert (t.f(a).quick_dice, t.f(b).quick_dice) == (5, 4)


async def test_ex10_emergency_dice(ns: Make) -> None:
    """NS-EX-10: no 回避ダイス left, 2 緊急回避ダイス against the volley: dodged, 0 left, 2 next scenario."""
    t = await ns()
    bob = await t.pc("ボブ", wazamae=3, tairyoku=5, emergency_dice=2)
    ys = await t.mobs(
        "クローンヤクザ", 3, wazamae=1, ninja=False, weapons=["chakagun"], equipped="chakagun"
    )
    t.roll(4, 5, 6)
    await t.gm_do(Attack(attacker=ys[0], kind="shoot", target=bob, pool_with=ys[1:]))
    (hit,) = t.pending
    assert (
        await t.rejected(t.pl, Evade(defender=bob, hits=[hit], dice=4))
        == "rule/nstrpg/no_evasion_dice"
    )
    # spend the evasion dice elsewhere: 0 left
    t.roll(1, 1, 1)
    await t.gm_do(Inflict(target=bob, damage=0))
    (other,) = [k for k in t.pending if k != hit]
    await t.do(Evade(defender=bob, hits=[other], dice=3))
    assert t.f(bob).evasion_dice == 0
    t.roll(4, 2)
    e = one(await t.do(Evade(defender=bob, hits=[hit], emergency_dice=2)), ev.EvasionRolled)
    assert (e.difficulty, e.success) == (NORMAL, True)
    assert t.f(bob).tairyoku == 5 and t.f(bob).emergency_dice == 0
    await t.gm_do(EndScenario())
    await t.gm_do(StartScenario())
    assert t.f(bob).emergency_dice == 2


async def test_ex13_failed_sokuten_and_snap_shuriken(ns: Make) -> None:
    """NS-EX-13: a failed 連続側転 leaves 崩れ; the snap shuriken is at NORMAL+2 = U-HARD, no style."""
    t = await ns()
    emily = await t.pc("エミリー", wazamae=3, karate=2, weapons=["katana"], equipped="katana")
    (y,) = await t.mobs("クローンヤクザ", 1, ninja=False)
    t.roll(3, 2, 1)
    c = one(
        await t.do(
            Check(character_id=emily, stat="wazamae", purpose="sokuten", label="連続側転判定")
        ),
        ev.CheckRolled,
    )
    assert c.success is False and t.f(emily).kuzure and t.f(emily).sokuten
    code = await t.rejected(t.pl, Attack(attacker=emily, kind="shoot", target=y, style="kyougeki"))
    assert code == "rule/nstrpg/no_style_on_snap"
    t.roll(6, 5, 1)
    a = one(await t.do(Attack(attacker=emily, kind="shoot", target=y)), ev.AttackRolled)
    assert (a.weapon, a.rolls[0].difficulty, a.rolls[0].successes) == ("shuriken", UH, 1)
    assert t.h.state.characters[emily].sheet["equipped"] == "katana"


async def test_ex15_shuchu_and_sokuten_difficulty(ns: Make) -> None:
    """NS-EX-15: a melee attack in 集中 is EASY; after 連続側転 it is HARD."""
    from taku_nstrpg.commands import BeginTurnOf, EndTurnOf

    t = await ns()
    me = await t.pc("ニンジャ", karate=2, wazamae=5)
    (y,) = await t.mobs("ヤクザ", 1, ninja=False, tairyoku=5)
    await t.do(BeginTurnOf(character_id=me, shuchu=True))
    t.roll(1, 1)
    assert (
        one(await t.do(Attack(attacker=me, target=y)), ev.AttackRolled).rolls[0].difficulty == EASY
    )
    await t.do(EndTurnOf(character_id=me))
    await t.do(BeginTurnOf(character_id=me))
    t.roll(5, 1, 1, 1, 1)
    await t.do(Check(character_id=me, stat="wazamae", purpose="sokuten"))
    assert t.f(me).evasion_dice == 5 + 2  # 2 回避ダイス at once (NS-49)
    t.roll(1, 1)
    assert (
        one(await t.do(Attack(attacker=me, target=y)), ev.AttackRolled).rolls[0].difficulty == HARD
    )


@pytest.mark.parametrize(
    ("style", "pool", "difficulty"),
    [(None, 2, NORMAL), ("kyougeki", 2, HARD), ("seimitsu", 6, NORMAL)],
)
async def test_ex16_katana_styles(ns: Make, style: str | None, pool: int, difficulty: int) -> None:
    """NS-EX-16: カラテ 1 + テッコ: 2 dice NORMAL; 強攻撃 2 dice HARD; 精密攻撃 ワザマエ 6 dice, no テッコ."""
    t = await ns()
    emily = await t.pc(
        "エミリー",
        karate=1,
        wazamae=6,
        weapons=["katana"],
        equipped="katana",
        karate_attack_bonus=1,
    )
    (y,) = await t.mobs("ヤクザ", 1, ninja=False, tairyoku=9)
    t.roll(*([1] * pool))
    a = one(await t.do(Attack(attacker=emily, target=y, style=style)), ev.AttackRolled)
    assert (a.pool, a.rolls[0].difficulty) == (pool, difficulty)


async def test_ex17_seimitsu_needs_three_sixes(ns: Make) -> None:
    """NS-EX-17: 精密攻撃 6,6,4,3,1,1: 3 successes, a hit, but no サツバツ! (needs 【6,6,6】)."""
    t = await ns()
    emily = await t.pc("エミリー", karate=1, wazamae=6, weapons=["katana"], equipped="katana")
    (y,) = await t.mobs("クローンヤクザ", 1, ninja=False, tairyoku=1)
    t.roll(6, 6, 4, 3, 1, 1)
    out = await t.do(Attack(attacker=emily, target=y, style="seimitsu"))
    r = one(out, ev.AttackRolled).rolls[0]
    assert (r.successes, r.success, r.critical) == (3, True, "")
    d = one(out, ev.DamageResolved)
    assert (d.amount, d.table, d.status) == (1, None, "removed")
    t.assert_dice_used()


async def test_ex18_shuriken(ns: Make) -> None:
    """NS-EX-18: ワザマエ 3 shuriken, 3,4,6: 2 successes, the clone dies; adjacent targets are refused."""
    t = await ns()
    bob = await t.pc("ボブ", wazamae=3)
    (y,) = await t.mobs("クローンヤクザ", 1, ninja=False, tairyoku=1)
    code = await t.rejected(
        t.pl, Attack(attacker=bob, kind="shoot", splits=[Split(target=y, dice=3, adjacent=True)])
    )
    assert code == "rule/nstrpg/adjacent_target"
    t.roll(3, 4, 6)
    out = await t.do(Attack(attacker=bob, kind="shoot", target=y))
    assert one(out, ev.AttackRolled).rolls[0].successes == 2
    assert one(out, ev.DamageResolved).status == "removed"


async def test_ex19_damage_reduction(ns: Make) -> None:
    """NS-EX-19: シデムシ (ダメージ軽減1): a plain punch does 0; サツバツ! (痛打+1) does 1; the wrench's
    強攻撃 is U-HARD and its サツバツ! still does only 1 (痛打 does not stack)."""
    t = await ns()
    emily = await t.pc(
        "エミリー",
        karate=3,
        weapons=[
            {"id": "wrench", "name": "重レンチ", "attack_modifier": 1, "styles": ["kyougeki"]}
        ],
    )
    tank = await t.npc(
        "シデムシ", kind="boss", ninja=False, tairyoku=10, damage_reduction=1, karate=1
    )
    t.roll(4, 1, 1)
    await t.do(Attack(attacker=emily, target=tank))
    (hit,) = t.pending
    d = one(await t.gm_do(Evade(defender=tank, hits=[hit])), ev.DamageResolved)
    assert (d.base, d.tsuda, d.reduction, d.amount, d.tairyoku) == (1, 0, 1, 0, 10)
    t.roll(6, 6, 1, 5)  # サツバツ!, table 5
    await t.do(Attack(attacker=emily, target=tank))
    (hit,) = t.pending
    d = one(await t.gm_do(Evade(defender=tank, hits=[hit])), ev.DamageResolved)
    assert (d.tsuda, d.amount, d.row) == (1, 1, 5)
    t.roll(6, 6, 6, 2)  # 強攻撃 with the wrench: U-HARD; ナムアミダブツ!, table 2
    out = await t.do(Attack(attacker=emily, target=tank, weapon="wrench", style="kyougeki"))
    assert one(out, ev.AttackRolled).rolls[0].difficulty == UH
    (hit,) = t.pending
    d = one(await t.gm_do(Evade(defender=tank, hits=[hit])), ev.DamageResolved)
    assert (d.tsuda, d.amount, d.injury) == (1, 1, "頭部")


async def test_ex20_eight_yakuza_group_evasion(ns: Make) -> None:
    """NS-EX-20: 8 clones pool 8 dice, 5 successes = 5 damage; Bob's 3,3,4 evades it all at once."""
    t = await ns()
    bob = await t.pc("ボブ", wazamae=3, tairyoku=5)
    ys = await t.mobs("クローンヤクザ", 8, karate=1, ninja=False)
    t.roll(4, 5, 6, 4, 4, 1, 2, 3)
    out = await t.gm_do(Attack(attacker=ys[0], target=bob, pool_with=ys[1:]))
    a = one(out, ev.AttackRolled)
    assert a.pool == 8 and a.hits[0].damage == 5
    t.roll(3, 3, 4)
    out = await t.do(Evade(defender=bob, hits=[a.hits[0].id], dice=3))
    e = one(out, ev.EvasionRolled)
    assert (e.successes, e.success) == (1, True)
    assert every(out, ev.DamageResolved) == [] and every(out, ev.CounterKarate) == []
    assert t.f(bob).tairyoku == 5 and t.f(bob).evasion_dice == 0


async def test_ex21_lions_renzoku(ns: Make) -> None:
    """NS-EX-21: two lions with 連続攻撃2: 4 hits, two group evasions of 2 each; one fails: 2 damage."""
    t = await ns()
    emily = await t.pc("エミリー", wazamae=4, tairyoku=8)
    l1, l2 = await t.mobs("メキシコライオン", 2, karate=2, renzoku=2, ninja=False)
    t.roll(4, 5)
    a1 = one(
        await t.gm_do(
            Attack(attacker=l1, splits=[Split(target=emily, dice=1), Split(target=emily, dice=1)])
        ),
        ev.AttackRolled,
    )
    t.roll(6, 4)
    a2 = one(
        await t.gm_do(
            Attack(attacker=l2, splits=[Split(target=emily, dice=1), Split(target=emily, dice=1)])
        ),
        ev.AttackRolled,
    )
    assert all(h.jisa and h.critical == "" for h in (*a1.hits, *a2.hits)) and len(t.pending) == 4
    # one lion's two attacks are 時間差: never together
    code = await t.rejected(
        t.pl, Evade(defender=emily, hits=[a1.hits[0].id, a1.hits[1].id], dice=2)
    )
    assert code == "rule/nstrpg/jisa_no_group"
    t.roll(5, 2)
    e1 = one(
        await t.do(Evade(defender=emily, hits=[a1.hits[0].id, a2.hits[0].id], dice=2)),
        ev.EvasionRolled,
    )
    t.roll(3, 1)
    out = await t.do(Evade(defender=emily, hits=[a1.hits[1].id, a2.hits[1].id], dice=2))
    assert e1.success and not one(out, ev.EvasionRolled).success
    assert sum(d.amount for d in every(out, ev.DamageResolved)) == 2
    assert (t.f(emily).tairyoku, t.f(emily).evasion_dice) == (6, 0)


@pytest.mark.parametrize(
    ("divisor", "damage", "difficulty"), [(6, 2, UH), (12, 1, UH2), (3, 5, HARD)]
)
async def test_ex22_barrage(ns: Make, divisor: int, damage: int, difficulty: int) -> None:
    """NS-EX-22: 15 damage from a clone volley: ÷6 is 2 at UH, ÷12 is 1 at UH2, ÷3 is 5 at HARD."""
    t = await ns()
    gen = await t.pc("ジェノサイド", karate=6, tairyoku=10)
    ys = await t.mobs(
        "クローンヤクザ", 15, wazamae=1, ninja=False, weapons=["chakagun"], equipped="chakagun"
    )
    t.roll(*([5] * 15))
    a = one(
        await t.gm_do(Attack(attacker=ys[0], kind="shoot", target=gen, pool_with=ys[1:])),
        ev.AttackRolled,
    )
    assert a.hits[0].damage == 15
    assert (
        await t.rejected(t.pl, DeclareBarrage(hits=[a.hits[0].id], divisor=6))
        == "command/forbidden"
    )
    b = one(await t.gm_do(DeclareBarrage(hits=[a.hits[0].id], divisor=divisor)), ev.BarrageDeclared)
    assert b.hit.damage == damage
    t.roll(*([1] * 6))
    out = await t.do(Evade(defender=gen, hits=[b.hit.id], dice=6))
    assert one(out, ev.EvasionRolled).difficulty == difficulty
    assert one(out, ev.DamageResolved).amount == damage


async def test_ex23_counter_on_the_yakuza_of_choice(ns: Make) -> None:
    """NS-EX-23: 3 successes from 8 clones; Emily's 6,6,6,3,3,4 makes 4: カウンターカラテ on the clone she picks."""
    t = await ns()
    emily = await t.pc("エミリー", wazamae=6, karate=2, tairyoku=5)
    ys = await t.mobs("クローンヤクザ", 8, karate=1, tairyoku=1, ninja=False)
    t.roll(4, 4, 5, 1, 2, 3, 3, 1)
    a = one(await t.gm_do(Attack(attacker=ys[0], target=emily, pool_with=ys[1:])), ev.AttackRolled)
    assert a.hits[0].successes == 3
    t.roll(6, 6, 6, 3, 3, 4)
    out = await t.do(Evade(defender=emily, hits=[a.hits[0].id], dice=6, counter_target=ys[5]))
    assert one(out, ev.EvasionRolled).successes == 4
    assert one(out, ev.CounterKarate).target == ys[5]
    d = one(out, ev.DamageResolved)
    assert (d.target, d.amount, d.status) == (ys[5], 1, "removed")
    assert t.f(emily).evasion_dice == 0 and t.f(emily).tairyoku == 5


async def test_ex24_ninja_endurance_and_revival(ns: Make) -> None:
    """NS-EX-24: 体力 -4 with 精神力 5: 4 spent, 体力 0, 精神力 1, 気絶; revived at 1/0 after combat."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=3, seishin=5)
    await t.gm_do(StartCombat())
    d = one(await t.gm_do(Inflict(target=me, damage=7, evadable=False)), ev.DamageResolved)
    assert (d.tairyoku, d.seishin, d.seishin_spent, d.status) == (0, 1, 4, "fainted")
    c = one(await t.gm_do(EndCombat()), ev.CombatEnded)
    assert c.revived == (me,)
    assert (t.f(me).tairyoku, t.f(me).seishin, t.f(me).status) == (1, 0, "active")


@pytest.mark.parametrize(
    ("autoremove", "hp", "status"), [(True, 1, "removed"), (False, 1, "active")]
)
async def test_ex25_chainsaw_satsubatsu(ns: Make, autoremove: bool, hp: int, status: str) -> None:
    """NS-EX-25: チェーンソー (2, HARD) 6,6,4,1: サツバツ!, table 5: 3 damage, arms broken, the sumo yakuza removed."""
    t = await ns({"mob_crit_autoremove": autoremove})
    emily = await t.pc("エミリー", karate=4, weapons=["chainsaw"], equipped="chainsaw")
    (sumo,) = await t.mobs("スモトリヤクザ", 1, karate=3, wazamae=3, tairyoku=4, ninja=False)
    t.roll(6, 6, 4, 1, 5)
    out = await t.do(Attack(attacker=emily, target=sumo))
    r = one(out, ev.AttackRolled).rolls[0]
    assert (r.difficulty, r.successes, r.critical) == (HARD, 2, "satsubatsu")
    d = one(out, ev.DamageResolved)
    assert (d.row, d.base, d.tsuda, d.amount) == (5, 2, 1, 3)
    assert d.ability_damage == {"karate": 2, "wazamae": 2} and d.injury == "腕部"
    assert (d.tairyoku, d.status) == (hp, status)


async def test_ex27_tsuda_does_not_stack(ns: Make) -> None:
    """NS-EX-27: 強攻撃 (痛打+1) and サツバツ! row 2 (痛打+1): 2 damage, not 3, ニューロン 2, ワザマエ 1, 頭部."""
    t = await ns()
    bob = await t.pc("ボブ", karate=3, weapons=["katana"], equipped="katana")
    foe = await t.npc(
        "敵ニンジャ", kind="boss", karate=3, neuron=5, wazamae=5, tairyoku=6, seishin=3
    )
    t.roll(6, 6, 2)
    a = one(await t.do(Attack(attacker=bob, target=foe, style="kyougeki")), ev.AttackRolled)
    assert (a.rolls[0].difficulty, a.rolls[0].critical) == (HARD, "satsubatsu")
    t.roll(2)
    d = one(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id])), ev.DamageResolved)
    assert (d.amount, d.ability_damage, d.injury, d.tairyoku) == (
        2,
        {"neuron": 2, "wazamae": 1},
        "頭部",
        4,
    )


async def test_ex28_arms_broken_twice(ns: Make) -> None:
    """NS-EX-28: 両腕破壊 twice: カラテ and ワザマエ −4, 腕部×2; healed at scenario end, the mark stays (+1 next)."""
    from taku_nstrpg.view import derived

    t = await ns()
    bob = await t.pc("ボブ", karate=6, wazamae=6, neuron=3, tairyoku=10, seishin=5)
    ns_ = await t.npc("ニンジャスレイヤー", kind="boss", karate=4)
    for _ in range(2):
        t.roll(6, 6, 1, 1, 5)
        a = one(await t.gm_do(Attack(attacker=ns_, target=bob)), ev.AttackRolled)
        await t.do(Evade(defender=bob, hits=[a.hits[0].id]))
    f = t.f(bob)
    assert f.ability_damage == {"karate": 4, "wazamae": 4} and f.injuries == {"腕部": 2}
    d = derived(t.h.state, bob)
    assert (
        d["current"]["karate"] == 2 and d["current"]["wazamae"] == 2 and d["evasion_per_turn"] == 3
    )
    await t.gm_do(EndScenario())
    assert t.f(bob).ability_damage == {} and t.f(bob).injuries == {"腕部": 1}
    await t.gm_do(StartScenario())
    assert t.f(bob).injury_penalty == 1
    t.roll(4, 1, 1, 1, 1, 1)
    c = one(await t.do(Check(character_id=bob)), ev.CheckRolled)
    assert (c.pool, c.difficulty, c.success) == (6, HARD, False)


@pytest.mark.parametrize("boost", [True, False])
async def test_ex29_adrenaline_evasion(ns: Make, boost: bool) -> None:
    """NS-EX-29: サツバツ! with 3 successes; with アドレナリン・ブースト the evasion is EASY, 4 successes
    and a counter; without it NORMAL, 3 successes, no counter."""
    t = await ns()
    emily = await t.pc("エミリー", wazamae=6, tairyoku=6, seishin=3)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=4, tairyoku=5, neuron=2)
    t.roll(1, 4, 6, 6)
    a = one(await t.gm_do(Attack(attacker=foe, target=emily)), ev.AttackRolled)
    assert (a.rolls[0].successes, a.rolls[0].critical) == (3, "satsubatsu")
    t.roll(1, 2, 3, 6, 6, 6)
    out = await t.do(Evade(defender=emily, hits=[a.hits[0].id], dice=6, adrenaline=boost))
    e = one(out, ev.EvasionRolled)
    assert (e.difficulty, e.successes, e.success) == (
        (EASY, 4, True) if boost else (NORMAL, 3, True)
    )
    assert every(out, ev.DamageResolved) == []  # no サツバツ table (NS-72)
    assert len(every(out, ev.CounterKarate)) == (1 if boost else 0)
    assert t.f(emily).seishin == (2 if boost else 3)
    if boost:
        t.roll(1, 1, 1, 1)
        a2 = one(await t.gm_do(Attack(attacker=foe, target=emily)), ev.AttackRolled)
        assert a2.hits == ()
        t.roll(2, 1, 1, 1)
        await t.gm_do(Attack(attacker=foe, target=emily, difficulty="KIDS"))
        (hit,) = [k for k, h in t.pending.items() if h.target == emily]
        code = await t.rejected(t.pl, Evade(defender=emily, hits=[hit], dice=0, adrenaline=True))
        assert code == "rule/nstrpg/adrenaline_timing"
        # once per combat (NS-96)
        code = await t.rejected(
            t.pl, Check(character_id=emily, purpose="attack_phase", adrenaline=True)
        )
        assert code == "rule/nstrpg/adrenaline_used"


async def test_ex30_adrenaline_attack_setsudan(ns: Make) -> None:
    """NS-EX-30: チェーンソー (HARD) with アドレナリン・ブースト → 集中: NORMAL; 1,4,4,5,6: 4 successes,
    切断攻撃's サツバツ! 【6,5+】."""
    t = await ns()
    kevin = await t.pc("ケビン", karate=5, seishin=2, weapons=["chainsaw"], equipped="chainsaw")
    foe = await t.npc("敵ニンジャ", kind="boss", karate=4, tairyoku=9)
    assert (
        await t.rejected(t.pl, Attack(attacker=kevin, target=foe, style="setsudan"))
        == "rule/nstrpg/needs_shuchu"
    )
    t.roll(1, 4, 4, 5, 6)
    a = one(
        await t.do(Attack(attacker=kevin, target=foe, style="setsudan", adrenaline=True)),
        ev.AttackRolled,
    )
    r = a.rolls[0]
    assert (r.difficulty, r.successes, r.critical) == (NORMAL, 4, "satsubatsu")
    assert t.f(kevin).seishin == 1 and t.f(kevin).adrenaline_used


async def _ninja_slayer_volley(t: Any) -> tuple[str, str, str, ev.AttackRolled]:
    emily = await t.pc("エミリー", wazamae=4, tairyoku=6, seishin=2)
    bob = await t.pc("ボブ", wazamae=6, karate=3, tairyoku=6, seishin=2)
    (created,) = await t.gm_do(CreateNinjaSlayer())
    nsl = created.character_id
    t.roll(6, 4, 1, 1, 5, 3, 1, 1, 6, 6, 6, 2, 1)
    a = one(
        await t.gm_do(
            Attack(
                attacker=nsl,
                splits=[
                    Split(target=emily, dice=4),
                    Split(target=bob, dice=4),
                    Split(target=bob, dice=5),
                ],
            )
        ),
        ev.AttackRolled,
    )
    return emily, bob, nsl, a


async def test_ex32_ninja_slayer_three_attacks(ns: Make) -> None:
    """NS-EX-32: 4/4/5 dice: Emily's hit is 2 damage (【6】 痛打), evaded with 2 successes (no counter);
    Bob takes the 1 and answers the ナムアミダブツ! alone at HARD."""
    t = await ns()
    emily, bob, nsl, a = await _ninja_slayer_volley(t)
    assert [r.successes for r in a.rolls] == [2, 1, 3]
    assert [r.critical for r in a.rolls] == ["", "", "namuamidabutsu"]
    h1, h2, h3 = a.hits
    t.roll(5, 4, 2, 1)
    out = await t.do(Evade(defender=emily, hits=[h1.id], dice=4))
    assert one(out, ev.EvasionRolled).successes == 2 and every(out, ev.CounterKarate) == []
    assert (
        await t.rejected(t.pl, Evade(defender=bob, hits=[h2.id, h3.id], dice=6))
        == "rule/nstrpg/jisa_no_group"
    )
    d = one(await t.do(Evade(defender=bob, hits=[h2.id])), ev.DamageResolved)
    assert (d.amount, t.f(bob).tairyoku, t.f(bob).evasion_dice) == (1, 5, 6)
    t.roll(5, 5, 5, 1, 1, 1)
    e = one(await t.do(Evade(defender=bob, hits=[h3.id], dice=6)), ev.EvasionRolled)
    assert (e.difficulty, e.successes, e.success) == (HARD, 3, True)
    await t.h.assert_replay_matches()


async def test_ex32_namuamidabutsu_not_evaded(ns: Make) -> None:
    """NS-EX-32 (if not dodged): ナムアミダブツ! lands as 2 (1 + one 痛打) and the table row."""
    t = await ns()
    _, bob, _, a = await _ninja_slayer_volley(t)
    t.roll(2)
    d = one(await t.do(Evade(defender=bob, hits=[a.hits[2].id])), ev.DamageResolved)
    assert (d.row, d.tsuda, d.amount, d.injury) == (2, 1, 2, "頭部")


async def test_ex32_counter_on_ninja_slayer(ns: Make) -> None:
    """NS-102: Ninja Slayer evades melee (a counter counts as melee) at −1."""
    t = await ns()
    emily, _, nsl, a = await _ninja_slayer_volley(t)
    t.roll(6, 6, 6, 1)
    out = await t.do(Evade(defender=emily, hits=[a.hits[0].id], dice=4))
    ctr = one(out, ev.CounterKarate)
    t.roll(1)
    e = one(await t.gm_do(Evade(defender=nsl, hits=[ctr.hit.id], dice=1)), ev.EvasionRolled)
    assert e.difficulty == EASY


async def test_ex33_auto_skills_from_base_values(ns: Make) -> None:
    """NS-EX-33: カラテ 10 gives ●連続攻撃2; ヘンゲヨーカイ to 13 does not give 3; ability damage to 6 keeps 2."""
    from taku_nstrpg.commands import AdjustValue
    from taku_nstrpg.view import derived

    t = await ns()
    emily = await t.pc("エミリー", karate=10, tairyoku=9)
    ys = await t.mobs("ヤクザ", 3, ninja=False, tairyoku=9)
    await t.gm_do(
        AdjustValue(
            character_id=emily,
            field="boosts",
            value={"karate": 3},
            reason="☆ヘンゲヨーカイ・ジツLV3",
        )
    )
    d = derived(t.h.state, emily)
    assert d["current"]["karate"] == 13 and d["auto_skills"] == ["●連続攻撃2"]
    three = Attack(attacker=emily, splits=[Split(target=y, dice=4) for y in ys])
    assert await t.rejected(t.pl, three) == "rule/nstrpg/too_many_attacks"
    await t.gm_do(AdjustValue(character_id=emily, field="boosts", value={}, reason="ジツが切れた"))
    await t.gm_do(
        AdjustValue(
            character_id=emily,
            field="ability_damage",
            value={"karate": 4},
            reason="サツバツ!で腕を",
        )
    )
    t.roll(*([1] * 6))
    a = one(
        await t.do(
            Attack(
                attacker=emily, splits=[Split(target=ys[0], dice=3), Split(target=ys[1], dice=3)]
            )
        ),
        ev.AttackRolled,
    )
    assert a.pool == 6 and len(a.rolls) == 2


async def test_ex34_kevin_renzoku3_split(ns: Make) -> None:
    """NS-EX-34: カラテ 13 + 1 die: 14 dice split 4 / 5+5: the clone takes 1, the sumo 2 (時間差)."""
    t = await ns()
    kevin = await t.pc("ケビン", karate=13, tairyoku=9)
    (clone,) = await t.mobs("クローンヤクザ", 1, ninja=False, tairyoku=1)
    (sumo,) = await t.mobs("スモトリヤクザ", 1, ninja=False, tairyoku=2)
    t.roll(4, 1, 1, 1, 5, 2, 2, 1, 1, 4, 3, 3, 2, 1)
    out = await t.do(
        Attack(
            attacker=kevin,
            bonus_dice=1,
            splits=[
                Split(target=clone, dice=4),
                Split(target=sumo, dice=5),
                Split(target=sumo, dice=5),
            ],
        )
    )
    a = one(out, ev.AttackRolled)
    assert a.pool == 14 and [h.jisa for h in a.hits] == [False, True, True]
    ds = every(out, ev.DamageResolved)
    assert [(d.target, d.status) for d in ds] == [
        (clone, "removed"),
        (sumo, "active"),
        (sumo, "removed"),
    ]


async def test_ex35_machinegun_rensha3(ns: Make) -> None:
    """NS-EX-35: マシンガン (連射3), 2+2+2 dice at the sumo yakuza (体力 3): 3 damage; shuriken allow 1 shot."""
    t = await ns()
    kevin = await t.pc("ケビン", wazamae=6, weapons=["machinegun"], equipped="machinegun")
    (sumo,) = await t.mobs("スモトリヤクザ", 1, ninja=False, tairyoku=3)
    t.roll(4, 2, 5, 1, 6, 3)
    out = await t.do(Attack(attacker=kevin, kind="shoot", splits=[Split(target=sumo, dice=2)] * 3))
    assert [d.tairyoku for d in every(out, ev.DamageResolved)] == [2, 1, 0]
    (sumo2,) = await t.mobs("スモトリヤクザ", 1, ninja=False, tairyoku=3)
    code = await t.rejected(
        t.pl,
        Attack(
            attacker=kevin,
            kind="shoot",
            weapon="shuriken",
            splits=[Split(target=sumo2, dice=2)] * 3,
        ),
    )
    assert code == "rule/nstrpg/too_many_attacks"


async def test_ex36_shuriken_multi_target(ns: Make) -> None:
    """NS-EX-36: ワザマエ 7 (●連射2), no ●マルチターゲット: shuriken still split 4/3 over two yakuza."""
    t = await ns()
    bob = await t.pc(
        "ボブ",
        wazamae=7,
        neuron=5,
        weapons=[{"id": "pistols", "name": "二挺拳銃", "kind": "gun", "rensha": 2, "multi": True}],
    )
    sg, cg = await t.mobs("ヤクザ", 2, ninja=False, tairyoku=1)
    t.roll(4, 4, 2, 1, 6, 3, 1)
    out = await t.do(
        Attack(
            attacker=bob, kind="shoot", splits=[Split(target=sg, dice=4), Split(target=cg, dice=3)]
        )
    )
    assert [r.successes for r in one(out, ev.AttackRolled).rolls] == [2, 1]
    assert [d.status for d in every(out, ev.DamageResolved)] == ["removed", "removed"]
    (a, b) = await t.mobs("ヤクザ", 2, ninja=False, tairyoku=1)
    code = await t.rejected(
        t.pl,
        Attack(
            attacker=bob,
            kind="shoot",
            weapon="pistols",
            splits=[Split(target=a, dice=4), Split(target=b, dice=3)],
        ),
    )
    assert code == "rule/nstrpg/single_target"


async def test_ex37_hard_mode(ns: Make) -> None:
    """NS-EX-37: in hard mode a PC's or boss's melee is evaded at HARD; a mob's stays NORMAL; it never drops."""
    t = await ns()
    me = await t.pc("ニンジャ", wazamae=4, tairyoku=9)
    boss = await t.npc("ボス", kind="boss", karate=4)
    (mob,) = await t.mobs("ヤクザ", 1, karate=1, ninja=False)
    await t.gm_do(StartCombat())
    await t.gm_do(StartTurn())
    await t.pass_turns()
    await t.gm_do(EndTurn(atmosphere="hard"))
    await t.gm_do(StartTurn())
    await t.pass_turns()
    assert await t.rejected(t.gm, EndTurn(atmosphere="normal")) == "rule/nstrpg/atmosphere_drop"
    t.roll(4, 1, 1, 1)
    a = one(await t.gm_do(Attack(attacker=boss, target=me)), ev.AttackRolled)
    t.roll(4)
    b = one(await t.gm_do(Attack(attacker=mob, target=me)), ev.AttackRolled)
    t.roll(4)
    e1 = one(await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=1)), ev.EvasionRolled)
    t.roll(4)
    e2 = one(await t.do(Evade(defender=me, hits=[b.hits[0].id], dice=1)), ev.EvasionRolled)
    assert (e1.difficulty, e1.success, e2.difficulty, e2.success) == (HARD, False, NORMAL, True)


async def test_ex26_base_damage_two_with_tsuda(ns: Make) -> None:
    """NS-EX-26: 戦闘用バイオサイバネ (base damage 2) with 『痛打+1』 deals 3."""
    t = await ns()
    me = await t.pc(
        "ニンジャ",
        karate=3,
        weapons=[
            {"id": "bio", "name": "戦闘用バイオサイバネ", "damage": 2, "styles": ["kyougeki"]}
        ],
        equipped="bio",
    )
    foe = await t.npc("敵", kind="boss", karate=1, tairyoku=9)
    t.roll(5, 1, 1)
    a = one(await t.do(Attack(attacker=me, target=foe, style="kyougeki")), ev.AttackRolled)
    d = one(await t.gm_do(Evade(defender=foe, hits=[a.hits[0].id])), ev.DamageResolved)
    assert (d.base, d.tsuda, d.amount, d.tairyoku) == (2, 1, 3, 6)


async def test_mixed_difficulties_use_the_highest(ns: Make) -> None:
    """NS-75: a sniper (回避:HARD) and a shotgun (NORMAL) at once: one group evasion at HARD, or apart."""
    t = await ns()
    me = await t.pc("ニンジャ", wazamae=6, tairyoku=9)
    sniper = await t.npc(
        "スナイパーヤクザ",
        kind="mob",
        ninja=False,
        wazamae=1,
        weapons=[{"id": "rifle", "name": "スナイパーライフル", "kind": "gun", "evasion": HARD}],
        equipped="rifle",
    )
    shot = await t.npc(
        "ショットガンヤクザ",
        kind="mob",
        ninja=False,
        wazamae=1,
        weapons=["shotgun"],
        equipped="shotgun",
    )
    t.roll(4)
    a = one(await t.gm_do(Attack(attacker=sniper, kind="shoot", target=me)), ev.AttackRolled)
    t.roll(4)
    b = one(await t.gm_do(Attack(attacker=shot, kind="shoot", target=me)), ev.AttackRolled)
    t.roll(4, 4)
    e = one(
        await t.do(Evade(defender=me, hits=[a.hits[0].id, b.hits[0].id], dice=2)), ev.EvasionRolled
    )
    assert (e.difficulty, e.success) == (HARD, False)
    assert t.f(me).tairyoku == 7
