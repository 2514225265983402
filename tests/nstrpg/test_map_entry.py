"""死神のエントリー on the map (NS-99, NS-100): 【殺】 placed by the table's row, a reroll only
when the row is impossible here, then the GM's choice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.table import affordances
from taku_nstrpg import board as bd
from taku_nstrpg import commands as c
from taku_nstrpg import mapping as mp

Make = Callable[..., Awaitable[Any]]

# the target's room is x 1..6, y 1..4: a door (7,2) to the east room, a window (0,3) west,
# a treasure box (3,4); the east room holds an NPC
MAP = "\n".join(
    (
        "##############",
        "#......#.....#",
        "#......D.....#",
        "W......#.....#",
        "#..T...#.....#",
        "##############",
    )
)
NOWINDOW = MAP.replace("W", "#")
TARGET = (2, 2)


async def entered(ns: Make, row: int, text: str = MAP) -> tuple[Any, str, str, str]:
    t = await ns()
    me = await t.pc("ボブ", karate=4, neuron=4, wazamae=4, dkk=10, tairyoku=8, seishin=3)
    npc = await t.npc("ヨタモノ", kind="mob", karate=1, neuron=1, wazamae=1, tairyoku=1)
    await t.gm_do(mp.SetMap(text=text))
    await t.gm_do(mp.Place(character_id=me, at=TARGET))
    await t.gm_do(mp.Place(character_id=npc, at=(10, 2)))
    (slayer_event,) = await t.gm_do(c.CreateNinjaSlayer())
    slayer = slayer_event.character_id
    t.roll(1, 2, row)  # 2D6 = 3 ≤ 【DKK】10: he enters; the d6 is the row
    await t.gm_do(c.Wasshoi())
    assert t.h.game.board.entry_row == row
    return t, me, npc, slayer


@pytest.mark.parametrize(
    ("row", "ok"),
    [
        (1, lambda p: bd.distance(p, TARGET) in (3, 4)),
        (2, lambda p: p == (6, 1) or p == (6, 2) or p == (6, 3)),
        (3, lambda p: p in ((1, 2), (1, 3), (1, 4))),
        (4, lambda p: bd.distance(p, TARGET) == 2),
        (5, lambda p: bd.distance(p, (3, 4)) == 1),
    ],
)
async def test_the_slayer_enters_where_the_row_says(ns: Make, row: int, ok: Any) -> None:
    t, _, _, slayer = await entered(ns, row)
    (e,) = await t.gm_do(mp.PlaceEntry(character_id=slayer))
    assert e.entry and ok(e.at), (row, e.at)
    assert t.h.game.board.positions[slayer] == e.at and t.h.game.board.entry_row == 0


async def test_row_1_refuses_a_square_the_row_does_not_allow(ns: Make) -> None:
    t, _, _, slayer = await entered(ns, 1)
    wrong = mp.PlaceEntry(character_id=slayer, at=(3, 2))
    assert await t.rejected(t.gm, wrong) == "rule/nstrpg/entry_impossible"
    (e,) = await t.gm_do(mp.PlaceEntry(character_id=slayer, at=(5, 4)))
    assert e.at == (5, 4)


async def test_row_6_the_nearest_npc_was_the_slayer(ns: Make) -> None:
    t, _, npc, slayer = await entered(ns, 6)
    out = await t.gm_do(mp.PlaceEntry(character_id=slayer))
    assert [(e.character_id, e.at) for e in out] == [(npc, None), (slayer, (10, 2))]


async def test_an_impossible_row_is_rerolled_once_then_the_gm_chooses(ns: Make) -> None:
    """NS-100: row 3 without a window in the target's room: reroll; a possible row is not rerolled."""
    t, _, _, slayer = await entered(ns, 3, NOWINDOW)
    assert await t.rejected(t.gm, mp.PlaceEntry(character_id=slayer)) == (
        "rule/nstrpg/entry_impossible"
    )
    t.roll(3)  # impossible again
    await t.gm_do(c.RerollEntry())
    assert await t.rejected(t.gm, c.RerollEntry()) == "rule/nstrpg/reroll_once"
    await t.gm_do(c.RerollEntry(choose=4))
    (e,) = await t.gm_do(mp.PlaceEntry(character_id=slayer))
    assert bd.distance(e.at, TARGET) == 2


async def test_a_possible_row_is_not_rerolled(ns: Make) -> None:
    t, _, _, _ = await entered(ns, 1)
    assert await t.rejected(t.gm, c.RerollEntry()) == "rule/nstrpg/entry_possible"


def entry_offers(t: Any) -> list[Any]:
    state = t.h.table.state
    return [
        a.label
        for a in affordances(state, state.viewer(t.gm), t.h.table.ruleset)
        if a.command == "nstrpg.reroll_entry"
    ]


async def test_a_reroll_is_offered_only_for_an_impossible_row(ns: Make) -> None:
    """NS-100: the GM is offered the reroll only when the row cannot be carried out here
    (a possible row's reroll is refused as ``entry_possible``), then the choice of the row."""
    t, _, _, _ = await entered(ns, 1)
    assert entry_offers(t) == []
    t, _, _, _ = await entered(ns, 3, NOWINDOW)
    assert entry_offers(t) == ["エントリー決定表を振り直す"]
    t.roll(3)
    await t.gm_do(c.RerollEntry())
    assert entry_offers(t) == ["エントリーの出目を決める"]


async def test_no_reroll_nor_choice_once_the_slayer_is_placed(ns: Make) -> None:
    """Once 【殺】 entered by the row (place_entry), the entry is over: neither a reroll nor a
    chosen row (a second entry) is accepted or offered."""
    t, _, _, slayer = await entered(ns, 1)
    await t.gm_do(mp.PlaceEntry(character_id=slayer))
    assert await t.rejected(t.gm, c.RerollEntry()) == "rule/nstrpg/no_entry"
    assert entry_offers(t) == []
    t, _, _, slayer = await entered(ns, 3, NOWINDOW)
    t.roll(3)
    await t.gm_do(c.RerollEntry())
    await t.gm_do(c.RerollEntry(choose=4))
    await t.gm_do(mp.PlaceEntry(character_id=slayer))
    assert await t.rejected(t.gm, c.RerollEntry(choose=2)) == "rule/nstrpg/no_entry"
    assert entry_offers(t) == []


async def test_row_3_the_window_cannot_be_used_to_escape_while_the_slayer_is_next_to_it(
    ns: Make,
) -> None:
    """2-15 row 3: "【殺】コマが隣接している間、その窓は脱出用として使用できなくなる": taking a
    character off the map from that window is refused while he stands next to it."""
    t, me, _, slayer = await entered(ns, 3)
    (e,) = await t.gm_do(mp.PlaceEntry(character_id=slayer, at=(1, 2)))
    assert t.h.game.board.sealed_windows == ((0, 3),) and t.h.game.board.slayer == slayer
    await t.gm_do(mp.Place(character_id=me, at=(0, 3), reason="窓へ"))
    escape = mp.Place(character_id=me, at=None, reason="窓から脱出")
    assert await t.rejected(t.gm, escape) == "rule/nstrpg/window_sealed"
    # once he is no longer next to it, the window is an exit again
    await t.gm_do(mp.Place(character_id=slayer, at=(4, 2), reason="移動"))
    (out,) = await t.gm_do(escape)
    assert out.at is None and me not in t.h.game.board.positions


async def test_another_rows_slayer_next_to_a_window_does_not_close_it(ns: Make) -> None:
    """Only row 3's window is closed (the one he broke through)."""
    t, me, _, slayer = await entered(ns, 1)
    await t.gm_do(mp.PlaceEntry(character_id=slayer, at=(5, 4)))
    await t.gm_do(mp.Place(character_id=slayer, at=(1, 3), reason="移動"))
    await t.gm_do(mp.Place(character_id=me, at=(0, 3), reason="窓へ"))
    (out,) = await t.gm_do(mp.Place(character_id=me, at=None, reason="窓から脱出"))
    assert out.at is None
