"""Regressions from the second rules audit (evasion, 弾幕, counters, damage, scenario flow).

Each test cites the CHECKLIST id it holds the code to, with numbers other than the book's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku_nstrpg import events as ev
from taku_nstrpg.checks import UH, UH3
from taku_nstrpg.commands import Attack, DeclareBarrage, Evade, Inflict, Kaishaku, OverrideHit

Make = Callable[..., Awaitable[Any]]


def one(events: list[Any], kind: type) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


async def test_barrage_over_mixed_difficulties_takes_the_highest(ns: Make) -> None:
    """NS-75 + NS-76: a shotgun squad (回避:NORMAL) and a sniper squad (回避:HARD) fire in one
    phase; 弾幕発生 ÷3 turns the 4 damage into 1 at the highest difficulty +1 (HARD+1 = UH),
    whichever hit is named first."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, wazamae=3, tairyoku=9)
    sniper = {"id": "sniper", "name": "スナイパーライフル", "kind": "gun", "evasion": 5}
    shotgun = {"id": "sg", "name": "ショットガン", "kind": "gun"}
    snipers = await t.mobs(
        "狙撃ヤクザ", 2, wazamae=1, tairyoku=1, weapons=[sniper], equipped="sniper"
    )
    shooters = await t.mobs(
        "散弾ヤクザ", 2, wazamae=1, tairyoku=1, weapons=[shotgun], equipped="sg"
    )
    t.roll(5, 6)
    near = one(
        await t.gm_do(
            Attack(attacker=shooters[0], kind="shoot", target=me, pool_with=shooters[1:])
        ),
        ev.AttackRolled,
    ).hits[0]
    t.roll(4, 5)
    far = one(
        await t.gm_do(Attack(attacker=snipers[0], kind="shoot", target=me, pool_with=snipers[1:])),
        ev.AttackRolled,
    ).hits[0]
    b = one(await t.gm_do(DeclareBarrage(hits=[near.id, far.id], divisor=3)), ev.BarrageDeclared)
    assert b.total == 4 and b.hit.damage == 1
    t.roll(5, 5, 1)
    out = await t.do(Evade(defender=me, hits=[b.hit.id], dice=3))
    assert one(out, ev.EvasionRolled).difficulty == UH
    assert one(out, ev.DamageResolved).amount == 1


async def test_barrage_over_several_hits_needs_a_ninja_target(ns: Make) -> None:
    """NS-74 + NS-76: 弾幕発生 converts damage that could be まとめて全弾回避'd; a human boss
    cannot group-dodge two volleys, so they cannot become one 弾幕 (a single volley still can)."""
    t = await ns()
    boss = await t.npc(
        "人間ボス", kind="boss", ninja=False, karate=2, wazamae=3, tairyoku=9, seishin=2
    )
    ys = await t.mobs("ヤクザ", 4, wazamae=1, tairyoku=1)
    t.roll(5, 5)
    first = one(
        await t.gm_do(Attack(attacker=ys[0], kind="shoot", target=boss, pool_with=ys[1:2])),
        ev.AttackRolled,
    ).hits[0]
    t.roll(6, 4)
    second = one(
        await t.gm_do(Attack(attacker=ys[2], kind="shoot", target=boss, pool_with=ys[3:])),
        ev.AttackRolled,
    ).hits[0]
    assert (
        await t.rejected(t.gm, DeclareBarrage(hits=[first.id, second.id], divisor=3))
        == "rule/nstrpg/not_a_barrage"
    )
    b = one(await t.gm_do(DeclareBarrage(hits=[second.id], divisor=3)), ev.BarrageDeclared)
    assert b.hit.damage == 0


async def test_kaishaku_needs_adjacency(ns: Make) -> None:
    """NS-87: カイシャク is declared by a ninja adjacent to the 気絶 enemy; from afar it is refused."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, tairyoku=6)
    foe = await t.npc("敵ニンジャ", kind="boss", karate=2, tairyoku=3, seishin=0)
    await t.gm_do(Inflict(target=foe, damage=3, evadable=False))
    assert t.f(foe).status == "fainted"
    assert (
        await t.rejected(t.pl, Kaishaku(attacker=me, target=foe, adjacent=False))
        == "rule/nstrpg/not_adjacent"
    )
    d = one(await t.do(Kaishaku(attacker=me, target=foe)), ev.DamageResolved)
    assert d.status == "dead" and d.row == 6


async def test_barrage_cap_stops_the_raise_and_never_lowers(ns: Make) -> None:
    """NS-76: 「これによる基本の回避難易度上限はUH3まで」: ÷12 on a UH hit stops at UH3;
    on a hit the GM already set at UH4 the 弾幕 leaves UH4 (the cap limits the raise only)."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, wazamae=8, tairyoku=9)
    ys = await t.mobs("ヤクザ", 3, wazamae=4, tairyoku=1)
    t.roll(*[5] * 12)
    a = one(
        await t.gm_do(Attack(attacker=ys[0], kind="shoot", target=me, pool_with=ys[1:])),
        ev.AttackRolled,
    )
    await t.gm_do(OverrideHit(hit=a.hits[0].id, evasion="UH"))
    hid = next(iter(t.pending))
    b = one(await t.gm_do(DeclareBarrage(hits=[hid], divisor=12)), ev.BarrageDeclared)
    assert b.hit.damage == 1
    t.roll(6, 6, 6, 5)
    out = await t.do(Evade(defender=me, hits=[b.hit.id], dice=4))
    assert one(out, ev.EvasionRolled).difficulty == UH3
    assert one(out, ev.EvasionRolled).success
    t.roll(*[6] * 12)
    a = one(
        await t.gm_do(Attack(attacker=ys[0], kind="shoot", target=me, pool_with=ys[1:])),
        ev.AttackRolled,
    )
    await t.gm_do(OverrideHit(hit=a.hits[0].id, evasion="UH4"))
    hid = next(iter(t.pending))
    b = one(await t.gm_do(DeclareBarrage(hits=[hid], divisor=3)), ev.BarrageDeclared)
    assert b.hit.damage == 4
    t.roll(6, 6, 6, 1)
    out = await t.do(Evade(defender=me, hits=[b.hit.id], dice=4))
    assert one(out, ev.EvasionRolled).difficulty == UH3 + 1
    assert not one(out, ev.EvasionRolled).success


async def test_counter_needs_more_successes_and_dice_stay_spent(ns: Make) -> None:
    """NS-73, NS-77: 3 evasion successes against 3 attack successes: evaded, no カウンターカラテ;
    the 4 回避ダイス are gone, so the next evasion may roll only the 2 left."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=3, wazamae=6, tairyoku=9)
    boss = await t.npc("ボス", kind="boss", karate=7, tairyoku=12, seishin=3)
    t.roll(5, 5, 5, 1, 1, 1, 1)
    a = one(await t.gm_do(Attack(attacker=boss, target=me)), ev.AttackRolled)
    t.roll(4, 4, 4, 1)
    out = await t.do(Evade(defender=me, hits=[a.hits[0].id], dice=4))
    assert one(out, ev.EvasionRolled).success
    assert not [e for e in out if isinstance(e, ev.CounterKarate)]
    assert t.f(me).evasion_dice == 2
    t.roll(5, 5, 5, 1, 1, 1, 1)
    a = one(await t.gm_do(Attack(attacker=boss, target=me)), ev.AttackRolled)
    assert (
        await t.rejected(t.pl, Evade(defender=me, hits=[a.hits[0].id], dice=3))
        == "rule/nstrpg/no_evasion_dice"
    )


async def test_mob_removed_when_seishin_goes_below_zero(ns: Make) -> None:
    """NS-81, NS-90 row 3: with mob_crit_autoremove off, a 体力5 精神力1 mob takes 2 (1+痛打1)
    and 精神力ダメージ2: 体力3 but 精神力−1, so it is removed."""
    t = await ns({"mob_crit_autoremove": False})
    me = await t.pc("ニンジャ", karate=4, tairyoku=9)
    (y,) = await t.mobs("ヤクザ", 1, karate=1, tairyoku=5, seishin=1)
    t.roll(6, 6, 1, 1, 3)
    d = one(await t.do(Attack(attacker=me, target=y)), ev.DamageResolved)
    assert (d.tairyoku, d.seishin, d.status) == (3, -1, "removed")


async def test_instant_death_resistance_then_reduction(ns: Make) -> None:
    """NS-94: 即死! on 即死耐性 becomes 痛打+2D6 (3+4); ダメージ軽減2 comes off the final damage: 1+7−2 = 6."""
    t = await ns()
    me = await t.pc("ニンジャ", karate=4, tairyoku=9)
    boss = await t.npc(
        "ボス",
        kind="boss",
        karate=2,
        tairyoku=12,
        seishin=3,
        instant_death_resistance=True,
        damage_reduction=2,
    )
    t.roll(6, 6, 1, 1)
    a = one(await t.do(Attack(attacker=me, target=boss)), ev.AttackRolled)
    t.roll(6, 3, 4)
    d = one(await t.gm_do(Evade(defender=boss, hits=[a.hits[0].id])), ev.DamageResolved)
    assert (d.tsuda, d.reduction, d.amount, d.tairyoku, d.status) == (7, 2, 6, 6, "active")
