"""判定 and 対抗判定 over the command path (CH-01, CH-05…CH-09; CH-EX-01)."""

from __future__ import annotations

from typing import Any

import pytest

from taku_chabu.commands import Check, OpposedCheck, OpposedSide
from taku_chabu.events import CheckRolled, OpposedRolled


async def test_ch_ex_01_drive_check_is_50_percent(t: Any) -> None:
    """CH-EX-01: 肉体40 + 運転10 = 【判定値】50; 50 succeeds, 51 fails."""
    c = await t.pc(t.pl1, "ドライバー", abilities={"肉体": 40}, skills={"運転": 10})
    t.roll(50, 51)
    (ok,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体", skill="運転"))
    (ng,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体", skill="運転"))
    assert isinstance(ok, CheckRolled) and isinstance(ng, CheckRolled)
    assert (ok.target, ok.value, ok.success, ok.tatsujin, ok.ukatsu) == (50, 50, True, False, False)
    assert (ng.target, ng.value, ng.success) == (50, 51, False)
    assert ok.roll.faces == (5, 10) and ng.roll.faces == (
        5,
        1,
    )  # tens die, units die (0 is the face 10)
    await t.h.assert_replay_matches()


async def test_without_the_skill_the_ability_alone_is_the_target(t: Any) -> None:
    """CH-05: a character without the named 技能 rolls against the 能力値 alone."""
    c = await t.pc(t.pl1, "素人", abilities={"肉体": 40}, skills={})
    t.roll(41)
    (ev,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体", skill="運転"))
    assert ev.target == 40 and ev.success is False


async def test_tatsujin_above_the_target_still_succeeds_and_gives_a_counter(t: Any) -> None:
    """CH-07: a roll of 1–5 succeeds even over the 【判定値】 and gives a タツジンカウンター."""
    c = await t.pc(t.pl1, "ヘタ", abilities={"肉体": 2}, skills={})
    before = t.char(c).tatsujin
    t.roll(4)
    (ev,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体"))
    assert ev.value == 4 > ev.target == 2
    assert ev.success and ev.tatsujin and not ev.ukatsu
    assert t.char(c).tatsujin == before + 1
    t.roll(6)
    (ev,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体"))
    assert not ev.success and not ev.tatsujin and t.char(c).tatsujin == before + 1
    await t.h.assert_replay_matches()


@pytest.mark.parametrize("roll", [95, 99, 100])
async def test_ukatsu_below_the_target_still_fails(t: Any, roll: int) -> None:
    """CH-08: 95–100 fails whatever the 【判定値】; 0 and 0 reads 100 (CH-01)."""
    c = await t.pc(t.pl1, "タツジン", abilities={"肉体": 120}, skills={})
    t.roll(roll)
    (ev,) = await t.h.send(t.pl1, Check(character_id=c, ability="肉体"))
    assert ev.value == roll < ev.target == 120
    assert ev.ukatsu and not ev.success


async def test_zero_zero_reads_100(t: Any, kit: Any) -> None:
    """CH-01: the tens die and the units die both showing 0 is 100, not 0."""
    c = await t.pc(t.pl1, "A")
    t.d10(10, 10)
    (ev,) = await t.h.send(t.pl1, Check(character_id=c, value=100))
    assert ev.value == 100 and ev.ukatsu and not ev.success


async def test_unknown_ability_is_rejected_and_nothing_written(t: Any) -> None:
    """A check names an ability the sheet has; otherwise rule/chabu/unknown_ability."""
    c = await t.pc(t.pl1, "A")
    err = await t.h.rejected(t.pl1, Check(character_id=c, ability="魔力"))
    assert err.code == "rule/chabu/unknown_ability"


async def test_a_player_cannot_roll_for_anothers_character(t: Any) -> None:
    """Ownership: only the owner or the GM rolls a character's check."""
    c = await t.pc(t.pl1, "A")
    err = await t.h.rejected(t.pl2, Check(character_id=c, ability="肉体"))
    assert err.code == "command/forbidden"


def _side(cid: str, value: int | None = None) -> OpposedSide:
    return (
        OpposedSide(character_id=cid, ability="肉体", skill="カラテ")
        if value is None
        else OpposedSide(character_id=cid, value=value)
    )


async def test_opposed_success_beats_failure(t: Any) -> None:
    """CH-09: the side that succeeds wins, even with the higher roll."""
    a = await t.pc(t.pl1, "A")  # 肉体40+カラテ15 = 55
    b = await t.npc("B", abilities={"肉体": 20}, skills={})
    t.roll(50, 30)  # a: 50 <= 55 succeeds; b: 30 > 20 fails although it is lower
    (ev,) = await t.h.send(
        t.pl1, OpposedCheck(a=_side(a), b=OpposedSide(character_id=b, ability="肉体"))
    )
    assert isinstance(ev, OpposedRolled)
    assert (ev.a_target, ev.b_target) == (55, 20)
    assert len(ev.rounds) == 1 and ev.winner == "a"


async def test_opposed_both_succeed_lower_roll_wins(t: Any) -> None:
    """CH-09: both succeed, the lower roll wins."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(30, 12)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert ev.winner == "b" and len(ev.rounds) == 1


async def test_opposed_equal_rolls_roll_again(t: Any) -> None:
    """CH-09: equal rolls both succeeding roll again with the same values."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(20, 20, 33, 44)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert [(r.a_value, r.b_value) for r in ev.rounds] == [(20, 20), (33, 44)]
    assert ev.winner == "a"


async def test_opposed_both_fail_rerolls_by_default(t: Any) -> None:
    """G-CH-06 default: both failing rolls again, like a tie."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(80, 90, 60, 40)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert [(r.a_success, r.b_success) for r in ev.rounds] == [(False, False), (False, True)]
    assert ev.winner == "b"


async def test_opposed_both_fail_draw_option(kit: Any) -> None:
    """G-CH-06 as a house rule: ``opposed_both_fail = draw`` ends it undecided."""
    t = await kit.make_table({"opposed_both_fail": "draw"})
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(80, 90)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert ev.winner == "draw" and len(ev.rounds) == 1


async def test_opposed_uses_each_sides_own_value(t: Any) -> None:
    """G-CH-05: each side rolls against its own 【判定値】 for the same ability+skill."""
    a = await t.pc(t.pl1, "A", abilities={"肉体": 10}, skills={"カラテ": 5})
    b = await t.npc("B", abilities={"肉体": 60}, skills={"カラテ": 20})
    t.roll(50, 70)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert (ev.a_target, ev.b_target) == (15, 80) and ev.winner == "b"


async def test_tatsujin_in_an_opposed_check_gives_a_counter(t: Any) -> None:
    """CH-07 applies to every roll of a 対抗判定."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(3, 30)
    (ev,) = await t.h.send(t.pl1, OpposedCheck(a=_side(a), b=_side(b)))
    assert ev.winner == "a" and t.char(a).tatsujin == 1 and t.char(b).tatsujin == 0
    await t.h.assert_replay_matches()
