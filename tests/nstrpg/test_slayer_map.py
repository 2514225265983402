"""Ninja Slayer's ◉ abilities with map effects (2-15): ◉ヘルタツマキ hits everyone in the 5×5
around him; ◉ツヨイ・スリケン only when he has not moved, at one enemy in sight."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku_nstrpg import commands as c
from taku_nstrpg import events as ev
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]

ROOM = "\n".join(["#" * 11] + ["#" + "." * 9 + "#"] * 7 + ["#" * 11])
PC = {"karate": 3, "neuron": 3, "wazamae": 3, "tairyoku": 9, "seishin": 3}
MOB = {"kind": "mob", "karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1}


async def setup(ns: Make) -> tuple[Any, str, dict[str, str]]:
    t = await ns()
    (e,) = await t.gm_do(c.CreateNinjaSlayer())
    slayer = e.character_id
    ids = {
        "near_pc": await t.pc("ボブ", **PC),
        "corner_pc": await t.pc("ケビン", **PC),
        "far_pc": await t.pc("エミリー", **PC),
    }
    (mob,) = await t.mobs("クローンヤクザ", 1, **MOB)
    ids["mob"] = mob
    await t.gm_do(mp.SetMap(text=ROOM))
    for cid, at in (
        (slayer, (5, 4)),
        (ids["near_pc"], (6, 4)),
        (ids["corner_pc"], (7, 6)),  # 2 across, 2 down: inside the 5×5
        (ids["far_pc"], (8, 4)),  # 3 squares: outside
        (mob, (3, 2)),
    ):
        await t.gm_do(mp.Place(character_id=cid, at=at))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.gm_do(c.BeginTurnOf(character_id=slayer))
    return t, slayer, ids


async def test_hell_tatsumaki_hits_friend_and_foe_in_the_5x5_around_him(ns: Make) -> None:
    t, slayer, ids = await setup(ns)
    seishin = t.f(slayer).seishin
    t.roll(5, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # ワザマエ10 at HARD: one success, no 【6,6】
    out = await t.gm_do(mp.UseAbility(character_id=slayer, ability="◉ヘルタツマキ"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    hit = {h.target: h for h in a.hits}
    assert set(hit) == {ids["near_pc"], ids["corner_pc"], ids["mob"]}
    assert all((h.damage, h.evasion_base, h.area) == (1, 4, True) for h in hit.values())
    assert t.f(slayer).seishin == seishin - 1
    assert t.f(ids["mob"]).status != "active"  # a mob cannot evade: it lands at once
    punch = c.Attack(attacker=slayer, target=ids["near_pc"])
    assert await t.rejected(t.gm, punch) == "rule/nstrpg/no_action_left"  # his one action


async def test_hell_tatsumaki_with_6_6_deals_2_at_hard(ns: Make) -> None:
    t, slayer, ids = await setup(ns)
    t.roll(6, 6, 1, 1, 1, 1, 1, 1, 1, 1)
    out = await t.gm_do(mp.UseAbility(character_id=slayer, ability="◉ヘルタツマキ"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    assert {(h.damage, h.evasion_base) for h in a.hits} == {(2, 5)}


async def test_tsuyoi_shuriken_d6_damage_at_u_hard_never_adjacent(ns: Make) -> None:
    t, slayer, ids = await setup(ns)
    adjacent = mp.UseAbility(
        character_id=slayer, ability="◉ツヨイ・スリケン", target=ids["near_pc"]
    )
    assert await t.rejected(t.gm, adjacent) == "rule/nstrpg/adjacent_target"
    await t.gm_do(mp.Place(character_id=ids["near_pc"], at=(1, 1), reason="離れた"))
    t.roll(6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # U-HARD: one 6; then D6 = 4
    shot = mp.UseAbility(character_id=slayer, ability="◉ツヨイ・スリケン", target=ids["far_pc"])
    out = await t.gm_do(shot)
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    (h,) = a.hits
    assert (h.target, h.damage, h.evasion_base) == (ids["far_pc"], 4, 6)


async def test_hell_tatsumaki_reads_as_an_area_attack_never_as_a_shot_at_himself(
    ns: Make,
) -> None:
    """The log line names everyone in the 5×5 (not only the first), and with nobody there it
    says so: never 「→ニンジャスレイヤー … 命中」, a shot at himself."""
    t, slayer, ids = await setup(ns)
    t.roll(5, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    out = await t.gm_do(mp.UseAbility(character_id=slayer, ability="◉ヘルタツマキ"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    line = t.h.table.ruleset.render(a, t.h.state, t.h.state.rules)
    assert line.startswith("ニンジャスレイヤー の射撃: →範囲内（"), line
    assert all(name in line for name in ("ボブ", "ケビン", "クローンヤクザ")), line
    t, slayer, ids = await setup(ns)
    for cid in ids.values():
        await t.gm_do(mp.Place(character_id=cid, at=None))
    t.roll(5, 5, 1, 1, 1, 1, 1, 1, 1, 1)
    out = await t.gm_do(mp.UseAbility(character_id=slayer, ability="◉ヘルタツマキ"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    line = t.h.table.ruleset.render(a, t.h.state, t.h.state.rules)
    assert a.hits == () and "→範囲内（対象なし）" in line and "命中" not in line, line


async def test_a_failed_hell_tatsumaki_still_reads_as_an_area_attack(ns: Make) -> None:
    """A failed roll hits nobody, yet the line names everyone in the 5×5 (範囲内（…）), as a
    successful one does, not only the first of them as a single shot; a log written before
    the event carried ``area`` still loads and renders (the old line)."""
    import msgspec

    t, slayer, ids = await setup(ns)
    t.roll(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # no success at HARD
    out = await t.gm_do(mp.UseAbility(character_id=slayer, ability="◉ヘルタツマキ"))
    (a,) = [e for e in out if isinstance(e, ev.AttackRolled)]
    line = t.h.table.ruleset.render(a, t.h.state, t.h.state.rules)
    assert a.hits == () and set(a.area) == {ids["near_pc"], ids["corner_pc"], ids["mob"]}
    assert line.startswith("ニンジャスレイヤー の射撃: →範囲内（"), line
    assert all(name in line for name in ("ボブ", "ケビン", "クローンヤクザ")), line
    assert line.endswith("成功数0 失敗") and "エミリー" not in line, line
    old = msgspec.json.decode(msgspec.json.encode(a))
    del old["area"]
    legacy = msgspec.json.decode(msgspec.json.encode(old), type=ev.AttackRolled)
    assert legacy.area == ()
    assert t.h.table.ruleset.render(legacy, t.h.state, t.h.state.rules).startswith(
        "ニンジャスレイヤー の射撃: →"
    )
