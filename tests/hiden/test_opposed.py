"""対抗判定 (五ノ六; HD-13, HD-14, G-HD-03, G-HD-07) over the command path."""

from __future__ import annotations

import pytest

from taku.core.render import render
from taku.errors import Forbidden
from taku_hiden.commands import Check, CheckSpec, Oppose, OpposedCheck, Reroll
from taku_hiden.events import CheckRerolled, CheckRolled, OpposedResolved, OpposedRolled

from .conftest import MakeTable, Table


async def _opposed(t: Table, *faces: int, first_mod: int = 0, second_mod: int = 0) -> OpposedRolled:
    """甲 (《姿隠し》2 + 〈器用〉1) first, 乙 (《探索》3 + 〈知覚〉0) second; base 3 each before modifiers."""
    t.h.roll(*faces)
    (ev,) = await t.h.send(
        t.h.gm,
        OpposedCheck(
            first=CheckSpec(character_id=t.kou, skill="姿隠し", modifier=first_mod),
            second=CheckSpec(character_id=t.otsu, skill="探索", modifier=second_mod),
        ),
    )
    assert isinstance(ev, OpposedRolled)
    assert t.h.dice.remaining == [], "the check rolled fewer dice than scripted"
    return ev


async def test_first_six_zoro_raises_the_target(make_table: MakeTable) -> None:
    """HD-14: 甲's 6ゾロ adds 2D[2,3] to the value the second must reach: 20 against 乙's 14."""
    t = await make_table()
    ev = await _opposed(t, 6, 6, 2, 3, 6, 5)
    assert ev.first.effect == "critical" and ev.first.value == 20 and ev.second.value == 14
    assert ev.winner == 0


async def test_second_six_zoro_adds_2d_and_its_doubles_mean_nothing(make_table: MakeTable) -> None:
    """HD-14: 乙's 6ゾロ adds 2D[1,1] (no 1ゾロ): 3 + 12 + 2 = 17 beats 甲's 13."""
    t = await make_table()
    ev = await _opposed(t, 5, 5, 6, 6, 1, 1)
    assert ev.second.effect == "critical" and ev.second.value == 17 and ev.compared == (13, 17)
    assert ev.winner == 1


async def test_both_six_zoro_compare_the_totals(make_table: MakeTable) -> None:
    """HD-14: both 6ゾロ: 3 + 12 + [6,6] = 27 against 3 + 12 + [4,4] = 23; the first keeps the win."""
    t = await make_table()
    ev = await _opposed(t, 6, 6, 6, 6, 6, 6, 4, 4)
    assert ev.compared == (27, 23) and ev.winner == 0


async def test_first_one_zoro_loses_whatever_the_sum(make_table: MakeTable) -> None:
    """G-HD-07: 甲's 1ゾロ fails its action even at 3 + 10 + 2 = 15 against 乙's 6: the seeker wins."""
    t = await make_table()
    ev = await _opposed(t, 1, 1, 1, 2, first_mod=10)
    assert ev.first.effect == "fumble" and ev.compared == (15, 6) and not ev.both_fumble
    assert ev.winner == 1


async def test_second_one_zoro_fails(make_table: MakeTable) -> None:
    """HD-14: 乙's 1ゾロ fails even at 3 + 10 + 2 = 15 against 甲's 6."""
    t = await make_table()
    ev = await _opposed(t, 1, 2, 1, 1, second_mod=10)
    assert ev.second.effect == "fumble" and ev.winner == 0


@pytest.mark.parametrize(("tie", "winner"), [("second", 1), ("first", 0)])
async def test_both_one_zoro_count_2d_as_2(make_table: MakeTable, tie: str, winner: int) -> None:
    """HD-14: both 1ゾロ: each side's 2D counts as 2: 3 + 2 against 3 + 2, a tie settled by the option."""
    t = await make_table(options={"opposed_tie": tie})
    ev = await _opposed(t, 1, 1, 1, 1)
    assert ev.both_fumble and ev.compared == (5, 5) and ev.winner == winner


async def test_both_one_zoro_higher_base_wins(make_table: MakeTable) -> None:
    """HD-14: both 1ゾロ with bases 3 + 4 and 3 + 1: 7 + 2 against 4 + 2, the first wins."""
    t = await make_table()
    ev = await _opposed(t, 1, 1, 1, 1, first_mod=4, second_mod=1)
    assert ev.compared == (9, 6) and ev.winner == 0


async def test_a_player_cannot_roll_an_opposed_check_for_the_gms_npc(make_table: MakeTable) -> None:
    """Ownership: the GM, or the controller of both characters, rolls an opposed check."""
    t = await make_table()
    cmd = OpposedCheck(
        first=CheckSpec(character_id=t.kou, skill="姿隠し"),
        second=CheckSpec(character_id=t.otsu, skill="探索"),
    )
    assert isinstance(await t.h.rejected(t.pl, cmd), Forbidden)
    bare = OpposedCheck(
        first=CheckSpec(character_id=t.kou, skill="姿隠し"), second=CheckSpec(level=3)
    )
    assert isinstance(await t.h.rejected(t.pl, bare), Forbidden)
    other = await t.character(t.pl, "丙", {"abilities": {"知覚": 2}, "skills": {"探索": 1}})
    t.h.roll(3, 3, 4, 4)
    (ev,) = await t.h.send(
        t.pl,
        OpposedCheck(
            first=CheckSpec(character_id=t.kou, skill="姿隠し"),
            second=CheckSpec(character_id=other, skill="探索", ability="知覚"),
        ),
    )
    assert isinstance(ev, OpposedRolled) and ev.compared == (9, 11) and ev.winner == 1


async def test_two_step_opposed_check(make_table: MakeTable) -> None:
    """HD-13 in two steps: 甲's player rolls 10 alone; the GM's 乙 reaches it (tie → seeker); 甲 rerolls to 14."""
    t = await make_table()
    t.h.roll(4, 3)
    (first,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し"))
    assert isinstance(first, CheckRolled) and first.side.value == 10 and first.target is None
    t.h.roll(4, 3)
    (ev,) = await t.h.send(
        t.h.gm, Oppose(against=first.check_id, second=CheckSpec(character_id=t.otsu, skill="探索"))
    )
    assert isinstance(ev, OpposedResolved)
    assert (
        ev.against == first.check_id
        and ev.first_value == 10
        and ev.compared == (10, 10)
        and ev.winner == 1
    )
    assert first.check_id not in t.h.game.checks  # the pair is what stays open
    line = render(ev, t.h.state, t.h.table.ruleset, t.h.gm)
    assert "甲の判定値10" in line and "乙の勝ち" in line
    t.h.roll(6, 5)
    (rr,) = await t.h.send(t.pl, Reroll())
    assert isinstance(rr, CheckRerolled) and rr.check_id == ev.check_id and rr.side_index == 0
    assert rr.compared == (14, 10) and rr.winner == 0
    assert (
        await t.h.rejected(t.pl, Reroll(check_id=first.check_id))
    ).code == "rule/hiden/unknown_check"
    await t.h.assert_replay_matches()


async def test_two_step_both_one_zoro(make_table: MakeTable) -> None:
    """HD-14 in two steps: both 1ゾロ count 2D as 2: 3 + 2 against 3 + 1 + 2."""
    t = await make_table()
    t.h.roll(1, 1)
    (first,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し"))
    assert isinstance(first, CheckRolled)
    t.h.roll(1, 1)
    (ev,) = await t.h.send(
        t.h.gm,
        Oppose(
            against=first.check_id, second=CheckSpec(character_id=t.otsu, skill="探索", modifier=1)
        ),
    )
    assert (
        isinstance(ev, OpposedResolved)
        and ev.both_fumble
        and ev.compared == (5, 6)
        and ev.winner == 1
    )


async def test_two_step_errors(make_table: MakeTable) -> None:
    """Only a bare 判定値 can be opposed; a player cannot roll the GM's 乙; unknown checks are refused."""
    t = await make_table()
    t.h.roll(4, 3)
    (aimed,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", target=9))
    assert isinstance(aimed, CheckRolled)
    second = CheckSpec(character_id=t.otsu, skill="探索")
    assert (
        await t.h.rejected(t.h.gm, Oppose(against=aimed.check_id, second=second))
    ).code == "rule/hiden/not_opposable"
    assert (
        await t.h.rejected(t.h.gm, Oppose(against="k999", second=second))
    ).code == "rule/hiden/unknown_check"
    t.h.roll(4, 3)
    (bare,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し"))
    assert isinstance(bare, CheckRolled)
    assert isinstance(
        await t.h.rejected(t.pl, Oppose(against=bare.check_id, second=second)), Forbidden
    )
    assert isinstance(
        await t.h.rejected(t.pl, Oppose(against=bare.check_id, second=CheckSpec(level=3))),
        Forbidden,
    )
