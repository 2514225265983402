"""Generic chat dice in BCDice notation: parsing, results and limits (scripted faces)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taku.core import chatdice
from taku.core.dice import ScriptedDice
from taku.errors import DiceError


def roll(text: str, *faces: int):  # type: ignore[no-untyped-def]
    parsed = chatdice.parse(text)
    assert parsed is not None, text
    dice = ScriptedDice(faces)
    event = parsed.roll(dice)
    assert dice.remaining == [], "the expression rolled fewer dice than scripted"
    return event


@pytest.mark.parametrize(
    ("text", "faces", "result", "total", "success"),
    [
        ("2D6", (3, 4), "(2D6) ＞ 7[3,4] ＞ 7", 7, None),
        ("1D6", (5,), "(1D6) ＞ 5", 5, None),
        ("D6", (2,), "(D6) ＞ 2", 2, None),
        ("3D6+2>=10", (1, 3, 4), "(3D6+2>=10) ＞ 8[1,3,4]+2 ＞ 10 ＞ 成功", 10, True),
        ("3D6+2>=10", (1, 3, 3), "(3D6+2>=10) ＞ 7[1,3,3]+2 ＞ 9 ＞ 失敗", 9, False),
        ("1D100<=50", (50,), "(1D100<=50) ＞ 50 ＞ 成功", 50, True),
        ("1D100<=50", (51,), "(1D100<=50) ＞ 51 ＞ 失敗", 51, False),
        ("2D6+1D4-1", (6, 6, 4), "(2D6+1D4-1) ＞ 12[6,6]+4[4]-1 ＞ 15", 15, None),
        ("2D6>7", (3, 4), "(2D6>7) ＞ 7[3,4] ＞ 7 ＞ 失敗", 7, False),
        ("2D6<>7", (3, 4), "(2D6<>7) ＞ 7[3,4] ＞ 7 ＞ 失敗", 7, False),
        ("2D6=7", (3, 4), "(2D6=7) ＞ 7[3,4] ＞ 7 ＞ 成功", 7, True),
        ("２ｄ６＋１", (1, 1), "(2D6+1) ＞ 2[1,1]+1 ＞ 3", 3, None),
    ],
)
def test_sums_match_bcdice(text: str, faces: tuple[int, ...], result: str, total: int, success: bool | None) -> None:
    """Sums with and without a target read like BCDice's output for the same faces."""
    event = roll(text, *faces)
    assert event.result == result
    assert event.total == total and event.success is success


def test_d66_reads_tens_then_units() -> None:
    """D66 keeps the order rolled; D66S sorts ascending."""
    assert roll("D66", 5, 2).total == 52
    assert roll("D66N", 5, 2).total == 52
    assert roll("D66S", 5, 2).total == 25


def test_barabara_counts_dice_meeting_the_target() -> None:
    """4B6>=4 counts successes; 4B6 lists the faces."""
    event = roll("4B6>=4", 2, 5, 4, 6)
    assert event.successes == 3 and event.result == "(4B6>=4) ＞ 2,5,4,6 ＞ 成功数3"
    assert roll("3B6", 1, 2, 3).result == "(3B6) ＞ 1,2,3"
    assert roll("2B6+2B10>=5", 5, 1, 10, 4).successes == 2


def test_secret_prefix_and_comment() -> None:
    """A leading S makes the roll secret; text after a space is a comment."""
    event = roll("S2D6>=8 見張りに気づくか", 4, 4)
    assert event.secret and event.comment == "見張りに気づくか" and event.success is True


@pytest.mark.parametrize("text", ["hello", "2D", "D", "こんにちは 2D6", "S", "2D6>=", "+", ""])
def test_plain_chat_is_not_dice(text: str) -> None:
    assert chatdice.parse(text) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("201D6", "dice/too_many_dice"),
        ("100D6+101D6", "dice/too_many_dice"),
        ("1D1001", "dice/too_many_faces"),
        ("2D0", "dice/invalid"),
        ("0D6", "dice/invalid"),
        ("0B6>=3", "dice/invalid"),
        ("2D6+99999999999999999999", "dice/invalid"),
        ("1D100<=10000000", "dice/invalid"),
    ],
)
def test_limits(text: str, code: str) -> None:
    """More than 200 dice or more than 1000 faces is an error with its own code."""
    with pytest.raises(DiceError) as e:
        chatdice.parse(text)
    assert e.value.code == code


@given(n=st.integers(1, 200), sides=st.integers(1, 1000), mod=st.integers(-50, 50), target=st.integers(-10, 300))
def test_sum_total_is_faces_plus_modifier(n: int, sides: int, mod: int, target: int) -> None:
    """For any NdM+k>=t, the total is the faces' sum plus k and success is total >= t."""
    from taku.core.dice import SeededDice

    expr = f"{n}D{sides}{mod:+d}>={target}"
    event = chatdice.parse_strict(expr).roll(SeededDice(b"k" * 32))
    (r,) = event.rolls
    assert len(r.faces) == n and all(1 <= f <= sides for f in r.faces)
    assert event.total == sum(r.faces) + mod
    assert event.success == (event.total >= target)
