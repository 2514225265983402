"""The attack phase on the map (2-6, 2-13): adjacency from positions, line of sight, range,
カイシャク, and 弾き飛ばし into a wall, over the command path with scripted dice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku.core.table import affordances, turn
from taku_nstrpg import commands as c
from taku_nstrpg import events as ev
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]

ROOM = "\n".join(
    (
        "##########",
        "#........#",
        "#...#....#",
        "#........#",
        "##########",
    )
)
PC = {"karate": 5, "neuron": 4, "wazamae": 4, "kyakuryoku": 4, "tairyoku": 8, "seishin": 3}
BOSS = {"kind": "boss", "karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 20, "seishin": 5}


async def board(ns: Make, **where: tuple[int, int]) -> tuple[Any, dict[str, str]]:
    t = await ns()
    ids: dict[str, str] = {}
    for name in where:
        if name.startswith("pc"):
            ids[name] = await t.pc(name, **PC)
        else:
            ids[name] = await t.npc(name, **BOSS)
    await t.gm_do(mp.SetMap(text=ROOM))
    for name, at in where.items():
        await t.gm_do(mp.Place(character_id=ids[name], at=at))
    return t, ids


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def targets(t: Any, attacker: str, kind: str) -> list[str]:
    state = t.h.table.state
    for a in affordances(state, state.viewer(t.pl), t.h.table.ruleset):
        if a.command == "nstrpg.attack" and a.args == {"attacker": attacker, "kind": kind}:
            return [ch.value for ch in a.choices["target"]]
    return []


async def test_melee_needs_adjacency_from_the_squares_diagonals_included(ns: Make) -> None:
    t, ids = await board(ns, pc1=(1, 1), boss=(3, 3), boss2=(2, 2))
    me, far, near = ids["pc1"], ids["boss"], ids["boss2"]
    flagged = c.Attack(attacker=me, splits=[c.Split(target=far, dice=5, adjacent=True)])
    assert await t.rejected(t.pl, flagged) == "rule/nstrpg/not_adjacent"  # the map decides
    assert targets(t, me, "melee") == [near]
    t.roll(4, 1, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, target=near)), ev.AttackRolled)
    assert a.hits and a.hits[0].adjacent  # (2,2) is diagonal to (1,1)


async def test_no_shot_at_an_adjacent_enemy_nor_through_a_wall_or_an_enemy(ns: Make) -> None:
    t, ids = await board(ns, pc1=(1, 2), boss=(2, 2), boss2=(6, 2), pc2=(8, 1))
    me = ids["pc1"]
    assert await t.rejected(t.pl, c.Attack(attacker=me, kind="shoot", target=ids["boss"])) == (
        "rule/nstrpg/adjacent_target"
    )
    await t.gm_do(mp.Place(character_id=ids["boss"], at=(1, 3)))
    # (4,2) is a wall between (1,2) and (6,2)
    assert await t.rejected(t.pl, c.Attack(attacker=me, kind="shoot", target=ids["boss2"])) == (
        "rule/nstrpg/no_sight"
    )
    assert targets(t, me, "shoot") == []
    # an enemy on the line blocks: from (8,1) to (3,1) past (5,1)
    you = ids["pc2"]
    await t.gm_do(mp.Place(character_id=ids["boss"], at=(3, 1)))
    await t.gm_do(mp.Place(character_id=ids["boss2"], at=(5, 1)))
    assert await t.rejected(t.pl, c.Attack(attacker=you, kind="shoot", target=ids["boss"])) == (
        "rule/nstrpg/no_sight"
    )
    assert targets(t, you, "shoot") == [ids["boss2"]]
    # an ally on the line does not block (NS-60)
    await t.gm_do(mp.Place(character_id=ids["boss2"], at=(8, 3)))
    await t.gm_do(mp.Place(character_id=me, at=(7, 1)))
    t.roll(4, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=you, kind="shoot", target=ids["boss"])), ev.AttackRolled)
    assert a.hits


async def test_a_weapon_range_counts_diagonals(ns: Make) -> None:
    t = await ns()
    bow = {"id": "yumi", "name": "短弓", "kind": "shuriken", "range": 3}
    me = await t.pc("射手", **PC, weapons=[bow], equipped="yumi")
    foe = await t.npc("ボス", **BOSS)
    await t.gm_do(mp.SetMap(text=ROOM))
    await t.gm_do(mp.Place(character_id=me, at=(5, 1)))
    await t.gm_do(mp.Place(character_id=foe, at=(8, 3)))  # 3 across, 2 down: 3 squares
    t.roll(4, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, kind="shoot", target=foe)), ev.AttackRolled)
    await t.gm_do(mp.Place(character_id=me, at=(1, 3)))
    await t.gm_do(mp.Place(character_id=foe, at=(5, 3)))  # 4 squares
    shot = c.Attack(attacker=me, kind="shoot", target=foe)
    assert await t.rejected(t.pl, shot) == "rule/nstrpg/out_of_range"


async def test_kaishaku_needs_the_fainted_enemy_adjacent_on_the_map(ns: Make) -> None:
    t, ids = await board(ns, pc1=(1, 1), boss=(3, 1))
    me, foe = ids["pc1"], ids["boss"]
    await t.gm_do(c.AdjustValue(character_id=foe, field="status", value="fainted"))
    assert await t.rejected(t.pl, c.Kaishaku(attacker=me, target=foe)) == (
        "rule/nstrpg/not_adjacent"
    )
    await t.gm_do(mp.Place(character_id=me, at=(2, 2)))
    t.roll(1)
    await t.do(c.Kaishaku(attacker=me, target=foe))
    assert t.f(foe).status in ("dead", "exploded")


async def test_knockback_flies_straight_back_and_hits_the_wall_for_1_damage(ns: Make) -> None:
    """NS-93: サツバツ! row 1 after a カラテ check: 【カラテ】5 squares away from the attacker;
    the wall 2 squares behind stops it, and the collision is 1 damage, 回避:NORMAL."""
    t, ids = await board(ns, pc1=(5, 2), boss=(6, 2))
    me, foe = ids["pc1"], ids["boss"]
    t.roll(6, 6, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, target=foe)), ev.AttackRolled)
    t.roll(1)  # the サツバツ! table: row 1
    out = await t.gm_do(c.Evade(defender=foe, hits=[a.hits[0].id]))
    (d,) = of(out, ev.DamageResolved)
    assert (d.row, d.knockback) == (1, 5)
    (kb,) = of(out, mp.KnockedBack)
    assert (kb.start, kb.path, kb.end, kb.wall) == ((6, 2), ((7, 2), (8, 2)), (8, 2), True)
    assert t.h.game.board.positions[foe] == (8, 2)
    (crash,) = of(out, ev.HitInflicted)
    assert (crash.hit.kind, crash.hit.damage, crash.hit.evasion_base) == ("knockback", 1, 4)
    assert crash.hit.id in t.pending and not crash.hit.from_mob


async def test_knockback_ignores_characters_and_resolves_an_overlap_along_the_wall(
    ns: Make,
) -> None:
    t, ids = await board(ns, pc1=(1, 1), boss=(2, 1), pc2=(4, 1), boss2=(6, 1))
    me, foe = ids["pc1"], ids["boss"]
    t.roll(6, 6, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, target=foe)), ev.AttackRolled)
    t.roll(1)
    out = await t.gm_do(c.Evade(defender=foe, hits=[a.hits[0].id]))
    (kb,) = of(out, mp.KnockedBack)
    # 5 squares: (3,1) … (7,1), past the ally at (4,1) and the boss at (6,1); free: ends at (7,1)
    assert kb.path[-1] == (7, 1) and kb.end == (7, 1) and not kb.wall
    # again, now from (6,1) against the boss at (7,1): the wall at (9,1) stops it at (8,1)
    await t.gm_do(mp.Place(character_id=me, at=(6, 2)))
    await t.gm_do(mp.Place(character_id=ids["boss2"], at=(8, 3)))
    await t.gm_do(mp.Place(character_id=foe, at=(7, 2)))
    t.roll(6, 6, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, target=foe)), ev.AttackRolled)
    t.roll(1)
    out = await t.gm_do(c.Evade(defender=foe, hits=[a.hits[0].id]))
    (kb,) = of(out, mp.KnockedBack)
    assert kb.wall and kb.path == ((8, 2),) and kb.end == (8, 2)


async def test_without_a_map_the_adjacent_flag_still_decides(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ニンジャ", **PC)
    foe = await t.npc("ボス", **BOSS)
    far = c.Attack(attacker=me, splits=[c.Split(target=foe, dice=5, adjacent=False)])
    assert await t.rejected(t.pl, far) == "rule/nstrpg/not_adjacent"
    t.roll(4, 1, 1, 1, 1)
    (a,) = of(await t.do(c.Attack(attacker=me, target=foe)), ev.AttackRolled)
    assert a.hits and "board" not in t.h.view(t.gm)["game"]


async def test_off_the_map_no_te_ban_and_no_flagged_adjacency(ns: Make) -> None:
    """On a table with a map, adjacency comes from the squares only (2-6): a character off
    the map is nobody's melee target and attacks nobody, whatever ``adjacent`` says; and it
    has no 手番 until placed (2-3)."""
    t, ids = await board(ns, pc1=(1, 1), boss=(2, 1))
    me = ids["pc1"]
    away = await t.npc("外の敵", **{**BOSS, "neuron": 9})
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    tr = turn(t.h.table.state, t.h.table.ruleset)
    assert tr is not None and tr.actor == me  # not 外の敵 (【ニューロン】9, off the map)
    (slot,) = [s for s in tr.order if s.id == away]
    assert slot.done and slot.label == "外の敵（マップ外）"
    assert await t.rejected(t.gm, c.BeginTurnOf(character_id=away)) == "rule/nstrpg/not_placed"
    await t.do(c.BeginTurnOf(character_id=me))
    assert away not in targets(t, me, "melee") and away not in targets(t, me, "shoot")
    at_away = c.Attack(attacker=me, splits=[c.Split(target=away, dice=5, adjacent=True)])
    assert await t.rejected(t.pl, at_away) == "rule/nstrpg/not_placed"
    from_away = c.Attack(attacker=away, splits=[c.Split(target=me, dice=1, adjacent=True)])
    assert await t.rejected(t.gm, from_away) == "rule/nstrpg/not_placed"
    await t.gm_do(mp.Place(character_id=away, at=(1, 2), reason="乱入"))
    t.roll(1, 1, 1, 1, 1)  # placed and adjacent: the same melee now goes ahead (and misses)
    out = await t.do(at_away)
    assert of(out, ev.AttackRolled)
    t.assert_dice_used()


async def test_allies_are_not_among_the_quick_targets(ns: Make) -> None:
    """An adjacent ally may still be attacked, but only through its own affordance
    (「味方に近接攻撃する」, never primary): the attack offered first names enemies only."""
    t, ids = await board(ns, pc1=(1, 1), pc2=(2, 1), boss=(1, 2))
    me, friend, boss = ids["pc1"], ids["pc2"], ids["boss"]
    assert targets(t, me, "melee") == [boss]
    state = t.h.table.state
    offers = [
        a
        for a in affordances(state, state.viewer(t.pl), t.h.table.ruleset)
        if a.command == "nstrpg.attack" and a.args.get("attacker") == me
    ]
    (mate,) = [a for a in offers if a.label.startswith("味方に")]
    assert mate.label == "味方に近接攻撃する" and not mate.primary
    # a client asks before it sends it; the attacks on enemies go at once
    assert mate.confirm == "pc1で味方を攻撃しますか？"
    assert [a.confirm for a in offers if a is not mate] == [None] * (len(offers) - 1)
    assert [ch.value for ch in mate.choices["target"]] == [friend]
    assert all(friend not in [ch.value for ch in a.choices["target"]] for a in offers if a != mate)


async def test_no_attack_is_offered_once_the_attack_phase_action_is_used(ns: Make) -> None:
    """One attack-phase action a 手番 (NS-53, 2-6): after an attack the same character is
    offered no other attack or カイシャク (the server would refuse it as ``no_action_left``),
    only its 手番終了."""
    t, ids = await board(ns, pc1=(1, 1), boss=(2, 1), boss2=(1, 3))
    me, near = ids["pc1"], ids["boss"]
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    assert targets(t, me, "melee") == [near]
    t.roll(4, 1, 1, 1, 1)
    await t.do(c.Attack(attacker=me, target=near))
    await t.gm_do(c.Evade(defender=near, hits=[*t.h.table.state.game.pending], dice=0))
    assert await t.rejected(t.pl, c.Attack(attacker=me, target=near)) == (
        "rule/nstrpg/no_action_left"
    )
    state = t.h.table.state
    offered = [
        a
        for a in affordances(state, state.viewer(t.pl), t.h.table.ruleset)
        if a.command in ("nstrpg.attack", "nstrpg.kaishaku") and a.args.get("attacker") == me
    ]
    assert offered == []  # neither the melee nor a shot at boss2 (a refused second action)
