"""The チャブＲＰＧ dice arithmetic: 1d100 from two d10, 判定, 対抗判定, damage.

Pure functions over faces; the decider rolls (``ctx.dice``) and these read.
"""

from __future__ import annotations

from dataclasses import dataclass

from taku.core.dice import DiceSource, Roll

__all__ = [
    "TATSUJIN_MAX",
    "UKATSU_MIN",
    "CheckResult",
    "d10_value",
    "d100_value",
    "judge",
    "opposed_winner",
    "roll_d100",
]

TATSUJIN_MAX = 5
"""タツジン! is a roll of 1 to 5 (CH-07)."""

UKATSU_MIN = 95
"""ウカツ! is a roll of 95 to 100 (CH-08)."""


def d10_value(face: int) -> int:
    """A d10 face read 1–10 (G-CH-04: the face marked 0 is 10). Faces are stored 1–10."""
    assert 1 <= face <= 10, "a d10 face is 1..10"
    return face


def d100_value(tens: int, units: int) -> int:
    """1d100 from two d10 (チャブ ■ルール上の処理, CH-01).

    One die is the tens, the other the units; a die showing 0 (stored as face
    10) reads 0 in its place, and 0 and 0 is 100. So the result is 1–100.
    """
    value = (tens % 10) * 10 + units % 10
    return 100 if value == 0 else value


def roll_d100(dice: DiceSource) -> tuple[Roll, int]:
    """Roll 1d100 as two d10 (tens first); returns the roll and the value."""
    roll = dice.roll(2, 10)
    return roll, d100_value(*roll.faces)


@dataclass(frozen=True)
class CheckResult:
    """The reading of one 判定 (CH-06…CH-08)."""

    value: int
    target: int
    success: bool
    tatsujin: bool
    ukatsu: bool


def judge(value: int, target: int) -> CheckResult:
    """A 1d100 ``value`` against the 【判定値】 ``target``.

    チャブ ■■基本判定ルール■■: success at or under the 【判定値】 (CH-06);
    ▼タツジン！、ウカツ！▼: 1–5 succeeds whatever the 【判定値】 (CH-07),
    95–100 fails whatever the 【判定値】 (CH-08).
    """
    tatsujin = value <= TATSUJIN_MAX
    ukatsu = value >= UKATSU_MIN
    success = tatsujin or (not ukatsu and value <= target)
    return CheckResult(
        value=value, target=target, success=success, tatsujin=tatsujin, ukatsu=ukatsu
    )


def opposed_winner(a: CheckResult, b: CheckResult) -> str | None:
    """The winner of one 対抗判定 roll (チャブ ■対抗判定, CH-09), or ``None`` to roll again.

    A success beats a failure; when both succeed the lower roll wins; equal
    rolls roll again. Both failing returns ``"fail"`` (the caller applies the
    option ``opposed_both_fail``, G-CH-06).
    """
    if a.success and not b.success:
        return "a"
    if b.success and not a.success:
        return "b"
    if not a.success:
        return "fail"
    if a.value == b.value:
        return None
    return "a" if a.value < b.value else "b"
