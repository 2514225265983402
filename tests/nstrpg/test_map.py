"""The map over the command path (NSTRPG 2-3, 2-5): setting and editing it, placement,
movement validated square by square, and the NS-EX-14 example on a rebuilt map."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.table import affordances, turn
from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]

# The scenario-1 map of 2-5's example is an image the text lacks (G-NS-17); this map is
# rebuilt so that every figure of the example holds (NS-EX-14):
#   N1 (1,1) → N2 (4,2): 通常移動 4, 連続側転 3.  N2 → N3 (8,2): only through Y1's square
#   (7,2) behind the door (6,2).  N3 → N4 (5,3): back through Y1 and the same door.
#   N4 and Y2 (6,4) touch diagonally at the corner of the wall (6,3) and the door (5,4).
EX14 = "\n".join(
    (
        "############",
        "#.....######",
        "#.....D..###",
        "#.....######",
        "#####D.....#",
        "#..........#",
        "############",
    )
)
N1, N2, N3, N4 = (1, 1), (4, 2), (8, 2), (5, 3)
Y1, Y2 = (7, 2), (6, 4)

NINJA = {"karate": 3, "neuron": 4, "wazamae": 4, "kyakuryoku": 4, "tairyoku": 8, "seishin": 3}
YAKUZA = {"karate": 2, "neuron": 1, "wazamae": 2, "tairyoku": 1}


def offered(t: Any, member: str | None, command: str, **args: Any) -> list[Any]:
    state = t.h.table.state
    return [
        a
        for a in affordances(state, state.viewer(member), t.h.table.ruleset)
        if a.command == f"nstrpg.{command}" and all(a.args.get(k) == v for k, v in args.items())
    ]


async def ex14(ns: Make) -> tuple[Any, str, str, str]:
    t = await ns()
    me = await t.pc("エミリー", **NINJA)
    y1, y2 = await t.mobs("クローンヤクザ", 2, **YAKUZA)
    await t.gm_do(mp.SetMap(text=EX14, name="シナリオ1（再構成）"))
    for cid, at in ((me, N1), (y1, Y1), (y2, Y2)):
        await t.gm_do(mp.Place(character_id=cid, at=at, reason="初期配置"))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    return t, me, y1, y2


async def my_turn(t: Any, me: str, *, sokuten: bool) -> None:
    await t.do(c.BeginTurnOf(character_id=me))
    if sokuten:
        t.roll(5, 4, 1, 1)  # ワザマエ4: 2 successes at NORMAL
        await t.do(c.Check(character_id=me, stat="wazamae", purpose="sokuten"))


def pos(t: Any, cid: str) -> tuple[int, int]:
    return tuple(t.h.game.board.positions[cid])  # type: ignore[no-any-return]


async def moved(t: Any, me: str, to: tuple[int, int]) -> int:
    (e,) = await t.do(mp.Move(character_id=me, to=to))
    assert isinstance(e, mp.Moved) and pos(t, me) == to
    return len(e.path)


async def new_turn(t: Any, me: str) -> None:
    await t.do(c.EndTurnOf(character_id=me))
    await t.pass_turns()
    await t.gm_do(c.EndTurn())
    await t.gm_do(c.StartTurn())


async def teleport(t: Any, me: str, at: tuple[int, int]) -> None:
    await t.gm_do(mp.Place(character_id=me, at=at, reason="例の位置へ"))


async def test_ns_ex_14_n1_to_n2_is_4_squares_normally_and_3_by_sokuten(ns: Make) -> None:
    t, me, _, _ = await ex14(ns)
    await my_turn(t, me, sokuten=False)
    assert await moved(t, me, N2) == 4
    await new_turn(t, me)
    await teleport(t, me, N1)
    await my_turn(t, me, sokuten=True)
    assert await moved(t, me, N2) == 3


async def test_ns_ex_14_n2_to_n3_only_by_sokuten_in_4_and_n3_is_adjacent_to_y1(ns: Make) -> None:
    t, me, y1, _ = await ex14(ns)
    await teleport(t, me, N2)
    await my_turn(t, me, sokuten=False)
    assert await t.rejected(t.pl, mp.Move(character_id=me, to=N3)) == "rule/nstrpg/unreachable"
    path = [(5, 2), (6, 2), Y1, N3]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=path)) == "rule/nstrpg/enemy"
    (a,) = offered(t, t.pl, "move", character_id=me)
    assert list(N3) not in [ch.value for ch in a.choices["to"]]
    await new_turn(t, me)
    await my_turn(t, me, sokuten=True)
    assert await moved(t, me, N3) == 4
    from taku_nstrpg.board import adjacent

    assert adjacent(t.h.game.board.map, pos(t, me), pos(t, y1))


async def test_ns_ex_14_n3_to_n4_by_sokuten_in_3_and_y2_adjacent_only_with_the_door_open(
    ns: Make,
) -> None:
    from taku_nstrpg.board import adjacent

    t, me, _, y2 = await ex14(ns)
    await teleport(t, me, N3)
    await my_turn(t, me, sokuten=False)
    assert await t.rejected(t.pl, mp.Move(character_id=me, to=N4)) == "rule/nstrpg/unreachable"
    await new_turn(t, me)
    await my_turn(t, me, sokuten=True)
    assert await moved(t, me, N4) == 3
    board = t.h.game.board
    assert not adjacent(board.map, N4, pos(t, y2))  # the door (5,4) is closed
    await t.gm_do(mp.EditMap(cells=[mp.CellEdit(x=5, y=4, cell="d")], reason="ドアを開けた"))
    assert adjacent(t.h.game.board.map, N4, pos(t, y2))


async def test_ns_ex_14_n2_via_n3_to_n4_in_one_move_passes_the_same_door_twice(ns: Make) -> None:
    t, me, _, _ = await ex14(ns)
    await teleport(t, me, N2)
    await my_turn(t, me, sokuten=True)  # 2 × 【脚力】4 = 8 squares: 7 would be enough
    path = [(5, 2), (6, 2), Y1, N3, Y1, (6, 2), N4]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=path)) == "rule/nstrpg/door_twice"
    assert pos(t, me) == N2


async def test_a_failed_sokuten_allows_no_move_and_leaves_kuzure(ns: Make) -> None:
    t, me, _, _ = await ex14(ns)
    await t.do(c.BeginTurnOf(character_id=me))
    t.roll(3, 2, 1, 1)
    await t.do(c.Check(character_id=me, stat="wazamae", purpose="sokuten"))
    assert t.f(me).kuzure
    code = await t.rejected(t.pl, mp.Move(character_id=me, to=(2, 1)))
    assert code == "rule/nstrpg/sokuten_failed"
    assert offered(t, t.pl, "move", character_id=me) == []


async def test_a_normal_move_is_one_action_and_only_in_ones_own_move_phase(ns: Make) -> None:
    t, me, _, _ = await ex14(ns)
    code = await t.rejected(t.pl, mp.Move(character_id=me, to=(2, 1)))
    assert code == "rule/nstrpg/not_your_turn"
    await t.do(c.BeginTurnOf(character_id=me))
    assert await moved(t, me, (2, 1)) == 1
    assert (
        await t.rejected(t.pl, mp.Move(character_id=me, to=(3, 1))) == "rule/nstrpg/already_moved"
    )
    diag = await t.rejected(t.gm, mp.Move(character_id=me, path=[(3, 2)]))
    assert diag == "rule/nstrpg/already_moved"


async def test_normal_move_rules_diagonal_legs_and_allies(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ボブ", **NINJA)
    ally = await t.pc("ケビン", **NINJA)
    await t.gm_do(mp.SetMap(text="\n".join(["#" * 9] + ["#.......#"] * 3 + ["#" * 9])))
    await t.gm_do(mp.Place(character_id=me, at=(1, 2)))
    await t.gm_do(mp.Place(character_id=ally, at=(2, 2)))
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=[(2, 3)])) == "rule/nstrpg/diagonal"
    stop_on_ally = mp.Move(character_id=me, path=[(2, 2)])
    assert await t.rejected(t.pl, stop_on_ally) == "rule/nstrpg/occupied"
    five = [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2)]
    assert await t.rejected(t.pl, mp.Move(character_id=me, path=five)) == "rule/nstrpg/too_far"
    (e,) = await t.do(mp.Move(character_id=me, path=five[:4]))  # through the ally: 4 = 【脚力】
    assert e.path[-1] == (5, 2)


async def test_placement_of_a_sudden_combat_goes_in_reverse_initiative_order(ns: Make) -> None:
    """NS-33: with a map and nobody placed, turn() shows the placement phase, lowest first."""
    t = await ns()
    fast = await t.pc("エミリー", **{**NINJA, "neuron": 6})
    slow = await t.pc("ボブ", **{**NINJA, "neuron": 1})
    await t.gm_do(mp.SetMap(sample="dojo"))
    await t.gm_do(c.StartCombat())
    state = t.h.table.state
    tn = turn(state, t.h.table.ruleset)
    assert tn.phase == "placement" and tn.actor == slow
    assert await t.rejected(t.pl, mp.Place(character_id=fast, at=(1, 1))) == (
        "rule/nstrpg/not_your_placement"
    )
    (a,) = offered(t, t.pl, "place", character_id=slow)
    await t.do(mp.Place(character_id=slow, at=tuple(a.choices["at"][0].value)))
    assert turn(t.h.table.state, t.h.table.ruleset).actor == fast
    await t.do(mp.Place(character_id=fast, at=(2, 1)))
    tn = turn(t.h.table.state, t.h.table.ruleset)
    assert tn.phase == "combat_start"
    # once placed, a player moves nothing by hand: the GM does, with a reason
    assert await t.rejected(t.pl, mp.Place(character_id=fast, at=(3, 1))) == "command/forbidden"


async def test_the_map_text_form_and_its_errors(ns: Make) -> None:
    t = await ns()
    code = await t.rejected(t.gm, mp.SetMap(text="#?#"))
    assert code == "rule/nstrpg/bad_map"
    await t.gm_do(mp.SetMap(text="###\n#.D\n#T"))
    m = t.h.game.board.map
    assert (m.width, m.height) == (3, 3) and m.rows[2] == "#T."
    await t.gm_do(mp.SetMap())
    assert t.h.game.board is None


@pytest.mark.parametrize("sample", ["dojo", "office", "alley"])
async def test_sample_maps_load(ns: Make, sample: str) -> None:
    t = await ns()
    await t.gm_do(mp.SetMap(sample=sample))
    assert t.h.game.board.map.name


async def test_the_log_and_the_choices_name_squares_1_based_as_the_map_does(ns: Make) -> None:
    """The map labels its squares 1-based (列 from the left, 行 from the top); the log lines
    and the offered squares say the same: (0-based) [1, 1] is 2列2行 (the data stays 0-based)."""
    from taku_nstrpg._render import render

    t, me, _, _ = await ex14(ns)
    (placed,) = [e for e in await t.h.events() if isinstance(e, mp.Placed) and e.character_id == me]
    assert render(placed, t.h.table.state) == "エミリーを2列2行に配置した（理由: 初期配置）"
    await my_turn(t, me, sokuten=False)
    (a,) = offered(t, t.pl, "move", character_id=me)
    assert {ch.label for ch in a.choices["to"]} >= {"5列3行 4マス"}  # N2 = [4, 2]
    (e,) = await t.do(mp.Move(character_id=me, to=N2))
    assert render(e, t.h.table.state) == "エミリー 通常移動: 2列2行 → 5列3行（4マス）"


async def test_a_wall_is_not_painted_under_a_character(ns: Make) -> None:
    """edit_map never leaves a character inside a wall or an obstacle (set_map drops such a
    position; a painted one is refused as ``occupied``, nothing of the edit applied); a door
    may be closed under one (G-MAP-02: characters stand on doors)."""
    t = await ns()
    me = await t.pc("ボブ", karate=3, neuron=3, wazamae=3, tairyoku=5, seishin=2)
    await t.gm_do(mp.SetMap(text="#####\n#...#\n#####"))
    await t.gm_do(mp.Place(character_id=me, at=(2, 1)))
    for cell in "#O":
        edit = mp.EditMap(
            cells=[mp.CellEdit(x=1, y=1, cell=cell), mp.CellEdit(x=2, y=1, cell=cell)]
        )
        assert await t.rejected(t.gm, edit) == "rule/nstrpg/occupied"
    assert t.h.game.board.map.rows[1] == "#...#"
    await t.gm_do(mp.EditMap(cells=[mp.CellEdit(x=2, y=1, cell="D")]))
    assert t.h.game.board.map.rows[1] == "#.D.#" and t.h.game.board.positions[me] == (2, 1)


async def test_place_tells_a_wall_from_another_character(ns: Make) -> None:
    """``place`` on a wall or an obstacle is ``blocked_square`` (listed in the ruleset's
    errors); on another character's square ``occupied``: two reasons, two messages."""
    from taku_nstrpg.errors import ERRORS

    t = await ns()
    me = await t.pc("ボブ", karate=3, neuron=3, wazamae=3, tairyoku=5, seishin=2)
    other = await t.pc("エミリー", karate=3, neuron=3, wazamae=3, tairyoku=5, seishin=2)
    await t.gm_do(mp.SetMap(text="#####\n#..O#\n#####"))
    await t.gm_do(mp.Place(character_id=other, at=(1, 1)))
    for at in ((0, 1), (3, 1)):  # a wall, an obstacle
        err = await t.h.rejected(t.gm, mp.Place(character_id=me, at=at))
        assert (err.code, err.message) == (
            "rule/nstrpg/blocked_square",
            "壁や障害物の上には置けない",
        )
    err = await t.h.rejected(t.gm, mp.Place(character_id=me, at=(1, 1)))
    assert (err.code, err.message) == ("rule/nstrpg/occupied", "そのマスには他のキャラクターがいる")
    assert "blocked_square" in ERRORS and me not in t.h.game.board.positions
