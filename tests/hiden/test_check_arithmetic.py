"""The arithmetic of a check (五ノ一 … 五ノ六) on scripted dice: which dice are rolled, and what they give."""

from __future__ import annotations

import pytest

from taku.core.dice import Roll, ScriptedDice
from taku_hiden import _checks
from taku_hiden.events import Modifier, Side, Target
from taku_hiden.options import HidenOptions


def _side(faces: tuple[int, int], base: int = 0, bonus: tuple[int, int] | None = None) -> Side:
    roll = Roll(sides=6, faces=faces)
    b = Roll(sides=6, faces=bonus) if bonus else None
    value = base + roll.total + (b.total if b else 0)
    return Side(base=base, roll=roll, bonus=b, value=value, effect=_checks.effect_of(roll))


@pytest.mark.parametrize(
    ("faces", "effect"),
    [((6, 6), "critical"), ((1, 1), "fumble"), ((6, 1), ""), ((1, 6), ""), ((5, 5), "")],
)
def test_effect_of_the_two_dice(faces: tuple[int, int], effect: str) -> None:
    """五ノ三: 6ゾロ is 成功効果, 1ゾロ 失敗効果; any other pair (doubles included) is neither."""
    assert _checks.effect_of(Roll(sides=6, faces=faces)) == effect


def test_a_side_rolls_2d6() -> None:
    """A side's 判定値 is its base plus two d6 (HD-02)."""
    dice = ScriptedDice([3, 5])
    side = _checks.roll_side({"base": 4, "name": "甲"}, dice)
    assert dice.sizes == [6, 6]
    assert (side.roll, side.bonus, side.value, side.effect) == (
        Roll(sides=6, faces=(3, 5)),
        None,
        12,
        "",
    )
    assert side.name == "甲"


def test_a_six_zoro_side_rolls_2d6_more_once() -> None:
    """HD-08: after 6ゾロ two more d6 are added; that roll's own 6ゾロ adds nothing more."""
    dice = ScriptedDice([6, 6, 6, 6])
    side = _checks.roll_side({"base": 1}, dice)
    assert dice.sizes == [6, 6, 6, 6] and dice.remaining == []
    assert side.bonus == Roll(sides=6, faces=(6, 6), at=2)
    assert (side.value, side.effect) == (1 + 12 + 12, "critical")


def test_a_reroll_replaces_both_dice_and_counts_the_zabuton() -> None:
    """五ノ五 (HD-12): the new 2D stands even when worse; the fixed fields stay."""
    first = _checks.roll_side({"base": 2, "name": "乙", "modifier": 1}, ScriptedDice([6, 6, 3, 3]))
    dice = ScriptedDice([1, 2])
    again = _checks.reroll_side(first, dice)
    assert dice.sizes == [6, 6]
    assert (again.roll.faces, again.bonus, again.value, again.effect) == ((1, 2), None, 5, "")
    assert (again.rerolls, again.name, again.modifier, again.base) == (1, "乙", 1, 2)
    assert _checks.reroll_side(again, ScriptedDice([4, 4])).rerolls == 2


def test_targets() -> None:
    """五ノ一, 五ノ二: fixed numbers stand alone; 簡易 is difficulty + modifiers + 7; else + the GM's 2D."""
    mods = (Modifier(label="疲労", value=2), Modifier(label="酒", value=1))
    dice = ScriptedDice([6, 6])
    assert _checks.make_target(3, 9, False, mods, dice) == Target(mode="fixed", value=9)
    assert _checks.make_target(None, None, False, mods, dice) is None
    simple = _checks.make_target(3, None, True, mods, dice)
    assert simple == Target(mode="simple", difficulty=3, modifiers=mods, value=13)
    assert dice.rolled == []
    rolled = _checks.make_target(3, None, False, mods, dice)
    assert dice.sizes == [6, 6]
    assert rolled == Target(
        mode="rolled", difficulty=3, modifiers=mods, roll=Roll(sides=6, faces=(6, 6)), value=18
    )


def test_single_success() -> None:
    """判定値 >= 目標値 succeeds; 1ゾロ always fails; 6ゾロ succeeds (an option, but always for 勘働き, HD-22)."""
    on, off = HidenOptions(), HidenOptions(critical_auto_success=False)
    t10 = Target(mode="fixed", value=10)
    assert _checks.single_success(_side((4, 6)), t10, on) is True
    assert _checks.single_success(_side((4, 5)), t10, on) is False
    assert _checks.single_success(_side((4, 5)), None, on) is None
    assert _checks.single_success(_side((1, 1), base=20), t10, on) is False
    critical = _side((6, 6), base=-10, bonus=(1, 2))
    assert _checks.single_success(critical, t10, on) is True
    assert _checks.single_success(critical, t10, off) is False
    assert _checks.single_success(critical, t10, off, kind="kan") is True


def test_opposed_outcomes() -> None:
    """五ノ六 (HD-13, HD-14, G-HD-03, G-HD-07): the higher 判定値 wins, a tie goes to the second (or the
    first by option), a lone 1ゾロ loses, and two 1ゾロ compare base + 2 each."""
    a, b = _side((3, 4), base=2), _side((2, 5), base=1)  # 9 and 8
    assert _checks.opposed_outcome(a, b, "second") == (0, (9, 8), False)
    assert _checks.opposed_outcome(b, a, "second") == (1, (8, 9), False)
    tie = _side((4, 4), base=1)  # 9
    assert _checks.opposed_outcome(a, tie, "second") == (1, (9, 9), False)
    assert _checks.opposed_outcome(a, tie, "first") == (0, (9, 9), False)
    fumble = _side((1, 1), base=10)  # 12, but 1ゾロ
    assert _checks.opposed_outcome(fumble, a, "second") == (1, (12, 9), False)
    assert _checks.opposed_outcome(a, fumble, "second") == (0, (9, 12), False)
    assert _checks.opposed_outcome(fumble, _side((1, 1), base=3), "second") == (0, (12, 5), True)
    assert _checks.opposed_outcome(_side((1, 1), base=3), fumble, "first") == (1, (5, 12), True)
    assert _checks.opposed_outcome(_side((1, 1), base=3), _side((1, 1), base=3), "first") == (
        0,
        (5, 5),
        True,
    )
    assert _checks.FUMBLE_AS == 2


def test_replace_side() -> None:
    a, b, c = _side((1, 2)), _side((3, 4)), _side((5, 6))
    assert _checks.replace_side((a, b), 1, c) == (a, c)
    assert _checks.replace_side((a, b), 0, c) == (c, b)
