"""Movement rules over the command path (2-5, 2-6): 連続側転 (NS-49, NS-50), blocked doors
and windows (NS-51), 全力移動 (NS-52), the 20-square cap (NS-46), one action a phase (NS-53)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]

# a door (4,2) and a window (4,4) in the wall x = 4
GATES = "\n".join(
    (
        "#########",
        "#...#...#",
        "#...D...#",
        "#...#...#",
        "#...W...#",
        "#########",
    )
)
PC = {"karate": 3, "neuron": 4, "wazamae": 4, "kyakuryoku": 4, "tairyoku": 8, "seishin": 3}
BOSS = {"kind": "boss", "karate": 3, "neuron": 1, "wazamae": 3, "tairyoku": 9, "seishin": 3}
MOB = {"kind": "mob", "karate": 1, "neuron": 1, "wazamae": 1, "tairyoku": 1}


async def scene(
    ns: Make, text: str, me_at: tuple[int, int], **others: Any
) -> tuple[Any, str, dict[str, str]]:
    t = await ns()
    me = await t.pc("エミリー", **PC)
    ids = {}
    for name, (sheet, _at) in others.items():
        ids[name] = await t.npc(name, **sheet)
    await t.gm_do(mp.SetMap(text=text))
    await t.gm_do(mp.Place(character_id=me, at=me_at))
    for name, (_, at) in others.items():
        await t.gm_do(mp.Place(character_id=ids[name], at=at))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    return t, me, ids


async def sokuten(t: Any, me: str, *faces: int) -> Any:
    t.roll(*faces)
    (e,) = await t.do(c.Check(character_id=me, stat="wazamae", purpose="sokuten"))
    return e


THROUGH_DOOR = [(3, 2), (4, 2), (5, 1)]
THROUGH_WINDOW = [(3, 4), (4, 4), (5, 3)]


async def test_a_boss_in_front_of_a_door_blocks_it_unless_sokuten_rolled_6_6(ns: Make) -> None:
    t, me, _ = await scene(ns, GATES, (2, 2), ボス=(BOSS, (5, 2)))
    e = await sokuten(t, me, 5, 4, 1, 1)
    assert e.success and t.f(me).evasion_dice == 4 + 2  # +2 回避ダイス at once (NS-49)
    move = mp.Move(character_id=me, path=THROUGH_DOOR)
    assert await t.rejected(t.pl, move) == "rule/nstrpg/blocked"
    t2, me2, _ = await scene(ns, GATES, (2, 2), ボス=(BOSS, (5, 2)))
    await sokuten(t2, me2, 6, 6, 1, 1)
    (m,) = await t2.do(mp.Move(character_id=me2, path=THROUGH_DOOR))
    assert m.style == "sokuten" and m.path[-1] == (5, 1)


async def test_a_blocked_window_needs_6_6_6(ns: Make) -> None:
    t, me, _ = await scene(ns, GATES, (2, 4), ボス=(BOSS, (5, 4)))
    await sokuten(t, me, 6, 6, 1, 1)
    move = mp.Move(character_id=me, path=THROUGH_WINDOW)
    assert await t.rejected(t.pl, move) == "rule/nstrpg/blocked"
    t2, me2, _ = await scene(ns, GATES, (2, 4), ボス=(BOSS, (5, 4)))
    await sokuten(t2, me2, 6, 6, 6, 1)
    (m,) = await t2.do(mp.Move(character_id=me2, path=THROUGH_WINDOW))
    assert m.path[-1] == (5, 3)


async def test_a_diagonal_boss_a_mob_and_a_fainted_boss_do_not_block(ns: Make) -> None:
    t, me, ids = await scene(ns, GATES, (2, 2), ボス=(BOSS, (5, 3)), モブ=(MOB, (5, 2)))
    await sokuten(t, me, 5, 4, 1, 1)  # no 6s at all
    (m,) = await t.do(mp.Move(character_id=me, path=THROUGH_DOOR))  # through the mob's square
    assert m.path[-1] == (5, 1)
    t2, me2, ids2 = await scene(ns, GATES, (2, 2), ボス=(BOSS, (5, 2)))
    await t2.gm_do(c.AdjustValue(character_id=ids2["ボス"], field="status", value="fainted"))
    await sokuten(t2, me2, 5, 4, 1, 1)
    (m,) = await t2.do(mp.Move(character_id=me2, path=THROUGH_DOOR))
    assert m.path[-1] == (5, 1)


async def test_sokuten_moves_twice_the_legs_diagonally_but_not_back_to_the_start(ns: Make) -> None:
    open_room = "\n".join(["#" * 12] + ["#" + "." * 10 + "#"] * 9 + ["#" * 12])
    t, me, _ = await scene(ns, open_room, (1, 1), 岩=(MOB, (2, 2)))
    await sokuten(t, me, 5, 4, 1, 1)
    back = mp.Move(character_id=me, path=[(2, 1), (1, 1)])
    assert await t.rejected(t.pl, back) == "rule/nstrpg/same_square"
    nine = [(1 + i, 1 + i) for i in range(1, 10)]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=nine)) == "rule/nstrpg/too_far"
    (m,) = await t.do(mp.Move(character_id=me, path=nine[:8]))  # 8 = 2 × 【脚力】4
    assert m.path[-1] == (9, 9)


async def test_no_move_after_the_attack_phase_began_and_none_in_shuchu(ns: Make) -> None:
    t, me, ids = await scene(ns, GATES, (2, 2), モブ=(MOB, (3, 2)))
    t.roll(4, 1, 1)
    await t.do(c.Attack(attacker=me, target=ids["モブ"]))
    code = await t.rejected(t.pl, mp.Move(character_id=me, to=(2, 1)))
    assert code == "rule/nstrpg/not_move_phase"
    again = c.Attack(attacker=me, target=ids["モブ"])
    assert await t.rejected(t.pl, again) == "rule/nstrpg/no_action_left"  # one action (NS-53)
    await t.do(c.EndTurnOf(character_id=me))
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me, shuchu=True))
    code = await t.rejected(t.pl, mp.Move(character_id=me, to=(2, 1)))
    assert code == "rule/nstrpg/not_move_phase"  # 集中 skips the move phase (NS-56)


async def test_full_move_is_the_attack_action_and_gives_d3_squares_of_normal_move(
    ns: Make,
) -> None:
    t, me, _ = await scene(ns, GATES, (1, 1))
    (m,) = await t.do(mp.Move(character_id=me, to=(1, 3)))
    assert len(m.path) == 2
    t.roll(5)
    (r,) = await t.do(mp.FullMove(character_id=me))
    assert r.squares == 3  # D3 from a 5 (G-NS-16)
    four = mp.Move(character_id=me, path=[(2, 3), (3, 3), (3, 2), (3, 1)])
    assert await t.rejected(t.pl, four) == "rule/nstrpg/too_far"
    (m,) = await t.do(mp.Move(character_id=me, path=[(2, 3), (3, 3), (3, 2)]))
    assert m.style == "full"
    code = await t.rejected(t.pl, mp.Move(character_id=me, to=(3, 1)))
    assert code == "rule/nstrpg/not_move_phase"
    assert await t.rejected(t.pl, mp.FullMove(character_id=me)) == "rule/nstrpg/no_action_left"


async def test_never_more_than_20_squares_even_with_great_legs(ns: Make) -> None:
    long_hall = "\n".join(("#" * 26, "#" + "." * 24 + "#", "#" * 26))
    t = await ns()
    me = await t.pc("韋駄天", **{**PC, "kyakuryoku": 30})
    await t.gm_do(mp.SetMap(text=long_hall))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    path = [(1 + i, 1) for i in range(1, 22)]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=path)) == "rule/nstrpg/too_far"
    (m,) = await t.do(mp.Move(character_id=me, path=path[:20]))
    assert m.path[-1] == (21, 1)


async def test_one_movement_style_a_move_phase_and_none_after_moving(ns: Make) -> None:
    """NS-45: one 移動スタイル a phase; 連続側転 is declared at the start of the move phase."""
    t, me, _ = await scene(ns, GATES, (1, 1))
    await sokuten(t, me, 5, 4, 1, 1)
    again = c.Check(character_id=me, stat="wazamae", purpose="sokuten")
    assert await t.rejected(t.pl, again) == "rule/nstrpg/one_style"
    t2, me2, _ = await scene(ns, GATES, (1, 1))
    await t2.do(mp.Move(character_id=me2, to=(2, 1)))
    late = c.Check(character_id=me2, stat="wazamae", purpose="sokuten")
    assert await t2.rejected(t2.pl, late) == "rule/nstrpg/already_moved"


async def test_exploration_ignores_the_legs(ns: Make) -> None:
    """NS-48: outside a combat a character moves freely (【脚力】4, 7 squares)."""
    t = await ns()
    me = await t.pc("エミリー", **PC)
    await t.gm_do(mp.SetMap(text=GATES))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    (m,) = await t.do(mp.Move(character_id=me, to=(7, 1)))
    assert len(m.path) >= 7 and m.style == "normal"


async def test_nobody_moves_between_the_combat_start_and_its_first_turn(ns: Make) -> None:
    """NS-48's free movement is for the exploration sequence only: once the combat has begun
    (戦闘開始, before ターン1) a move or 全力移動 waits for one's 手番 (``not_your_turn``;
    the GM still places anyone, NS-33). It was a free move of up to 20 squares."""
    t = await ns()
    me = await t.pc("エミリー", **PC)
    await t.gm_do(mp.SetMap(text=GATES))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    await t.gm_do(c.StartCombat())
    assert await t.rejected(t.pl, mp.Move(character_id=me, to=(7, 1))) == (
        "rule/nstrpg/not_your_turn"
    )
    assert await t.rejected(t.pl, mp.FullMove(character_id=me)) == "rule/nstrpg/not_your_turn"
    (p,) = await t.gm_do(mp.Place(character_id=me, at=(2, 1), reason="位置の調整"))
    assert p.at == (2, 1)


async def test_sokuten_keeps_the_20_square_cap(ns: Make) -> None:
    """NS-47: 連続側転 doubles 【脚力】15 to 30, but the 20-square limit of a move phase stays."""
    long_hall = "\n".join(("#" * 26, "#" + "." * 24 + "#", "#" * 26))
    t = await ns()
    me = await t.pc("韋駄天", **{**PC, "kyakuryoku": 15})
    await t.gm_do(mp.SetMap(text=long_hall))
    await t.gm_do(mp.Place(character_id=me, at=(1, 1)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    await sokuten(t, me, 5, 4, 1, 1)
    path = [(1 + i, 1) for i in range(1, 22)]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=path)) == "rule/nstrpg/too_far"
    (m,) = await t.do(mp.Move(character_id=me, path=path[:20]))
    assert m.style == "sokuten" and m.path[-1] == (21, 1)
