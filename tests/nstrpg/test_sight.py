"""The view's line of sight (``board.sight``) that the browser map draws (NS-60): from the
character whose 手番 it is to each enemy on the map, blocked by walls, obstacles, closed
doors and other enemies, not by allies or open doors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp
from taku_nstrpg.view import view

Make = Callable[..., Awaitable[Any]]

# the ninja at (1, 1) and its ally at (2, 1); enemies: B (3, 1) in the open, A (5, 1)
# behind B on the same row, C (3, 3) behind the obstacle (2, 2) on the diagonal, E (1, 4)
# behind the closed door (1, 3) in the column below
ROOM = "\n".join(("########", "#......#", "#.O....#", "#D.....#", "#......#", "########"))
NINJA = {"karate": 3, "neuron": 6, "wazamae": 3, "kyakuryoku": 3, "tairyoku": 8}
FOE = {"kind": "mob", "karate": 1, "neuron": 1, "tairyoku": 1}


def sight(t: Any) -> dict[str, dict[str, bool]]:
    state = t.h.table.state
    return view(state, state.viewer(t.gm))["board"]["sight"]  # type: ignore[no-any-return]


async def test_sight_of_the_acting_character(ns: Make) -> None:
    t = await ns()
    me = await t.pc("ニンジャスレイヤー", **NINJA)
    ally = await t.pc("ナンシー", **NINJA)
    a, b, cc, e = await t.mobs("クローンヤクザ", 4, **FOE)
    await t.gm_do(mp.SetMap(text=ROOM))
    spots = {me: (1, 1), ally: (2, 1), a: (5, 1), b: (3, 1), cc: (3, 3), e: (1, 4)}
    for cid, at in spots.items():
        await t.gm_do(mp.Place(character_id=cid, at=at))
    assert sight(t) == {}  # no 手番 yet
    await t.gm_do(c.StartCombat())
    await t.gm_do(c.StartTurn())
    await t.do(c.BeginTurnOf(character_id=me))
    seen = sight(t)[me]
    # B blocks A (an enemy between); the ally in front of B does not block B
    assert seen == {a: False, b: True, cc: False, e: False}
    # the door opened: E is seen through it
    await t.gm_do(mp.EditMap(cells=[mp.CellEdit(x=1, y=3, cell="d")]))
    assert sight(t)[me][e] is True
    # B taken off the map: A is seen; only the actor's sight is given
    await t.gm_do(mp.Place(character_id=b, at=None))
    assert sight(t) == {me: {a: True, cc: False, e: True}}
