"""Checks: dice pools, the difficulty ladder, success counting and 【】 patterns.

NSTRPG 2-1 判定とダイス. Pure functions that other rulesets import (Shadow-Jan
uses them for its mahjong checks); nothing here rolls dice except
:func:`roll_check`, which takes the dice source as an argument.

Difficulties are integers on one ladder (G-NS-01)::

    KIDS 2   EASY 3   NORMAL 4   HARD 5   UH 6   UH2 7   UH3 8   UH4 9 …

A difficulty up to UH is "a die showing at least that face"; UHn (n ≥ 2) is
"n dice showing 6". Modifiers add up and move one rung per point (NS-03);
below KIDS clamps at KIDS. 【】 patterns are independent of difficulty (NS-04).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

import msgspec

from taku.core.dice import DiceSource, Roll

__all__ = [
    "EASY",
    "HARD",
    "KIDS",
    "NAMU_DEFAULT",
    "NORMAL",
    "SATSUBATSU_DEFAULT",
    "UH",
    "UH2",
    "UH3",
    "CheckResult",
    "OpposedResult",
    "Pattern",
    "count_successes",
    "difficulty_name",
    "evaluate",
    "opposed",
    "parse_difficulty",
    "roll_check",
    "shift",
    "sixes_needed",
    "target_face",
]

KIDS = 2
EASY = 3
NORMAL = 4
HARD = 5
UH = 6
UH2 = 7
UH3 = 8

_NAMES = {KIDS: "KIDS", EASY: "EASY", NORMAL: "NORMAL", HARD: "HARD", UH: "ULTRA-HARD"}
_ALIASES = {
    "K": KIDS,
    "KIDS": KIDS,
    "E": EASY,
    "EASY": EASY,
    "N": NORMAL,
    "NORMAL": NORMAL,
    "H": HARD,
    "HARD": HARD,
    "U": UH,
    "UH": UH,
    "UHARD": UH,
    "ULTRAHARD": UH,
}


def difficulty_name(level: int) -> str:
    """``4`` -> ``"NORMAL"``, ``7`` -> ``"UH2"`` (NSTRPG 2-1 判定難易度の早見表, G-NS-01)."""
    if level >= UH2:
        return f"UH{level - UH + 1}"
    return _NAMES[max(level, KIDS)]


def parse_difficulty(text: str) -> int:
    """Read a difficulty as the rulebook and BCDice write it.

    ``"NORMAL"``, ``"N"``, ``"U-HARD2"``, ``"ULTRA-HARD"``, ``"UH3"``, ``"4"``
    (a bare number 2–6 is the target face, BCDice's ``NJ4@4``).

    Raises:
        ValueError: not a difficulty.
    """
    t = (
        unicodedata.normalize("NFKC", text)
        .strip()
        .upper()
        .replace("-", "")
        .replace("_", "")
        .replace(" ", "")
    )
    t = t.replace("ウルトラハード", "UH").replace("ULTRAHARD", "UH").replace("UHARD", "UH")
    if t.isdigit() and KIDS <= int(t) <= UH:
        return int(t)
    if t in _ALIASES:
        return _ALIASES[t]
    m = re.fullmatch(r"UH(\d{1,2})", t)
    if m and int(m[1]) >= 1:
        return UH + int(m[1]) - 1
    raise ValueError(f"not a difficulty: {text!r}")


def shift(level: int, modifier: int, *, cap: int | None = None) -> int:
    """``level`` moved ``modifier`` rungs (NS-03), clamped at KIDS below and ``cap`` above.

    >>> difficulty_name(shift(NORMAL, 1))
    'HARD'
    """
    out = max(KIDS, level + modifier)
    if cap is not None:
        out = min(out, cap)
    return out


def target_face(level: int) -> int:
    """The face a die needs to count: 2..6 (UH and above need a 6)."""
    return min(max(level, KIDS), 6)


def sixes_needed(level: int) -> int:
    """How many 6s make one success: 1 up to UH, n at UHn."""
    return max(1, level - UH + 1)


def count_successes(faces: Iterable[int], level: int) -> int:
    """The success count [成功数] of ``faces`` at ``level`` (NS-06, NS-07, G-NS-02).

    Up to UH: the dice meeting the target. At UHn (n ≥ 2): the first n sixes
    are one success and every further 6 adds one, so six 6s give UH3 → 4,
    UH2 → 5, UH → 6. Never more than the number of dice.
    """
    faces = list(faces)
    if level <= UH:
        t = target_face(level)
        return sum(1 for f in faces if f >= t)
    need = sixes_needed(level)
    sixes = sum(1 for f in faces if f == 6)
    return sixes - need + 1 if sixes >= need else 0


class Pattern(msgspec.Struct, frozen=True):
    """A 【】 face pattern, matched as a multiset: each element needs its own die (NS-05).

    ``elements`` are ``(face, or_more)``: ``(6, False)`` is a 6, ``(5, True)`` is
    5 or more, ``(4, False)`` exactly a 4. 【6,6】 is also met by three 6s.
    """

    elements: tuple[tuple[int, bool], ...]

    @classmethod
    def parse(cls, text: str) -> Pattern:
        """``"【6,5+】"``, ``"6,5+"``, ``"6,6"`` or BCDice's compact ``"65+"`` / ``"66"``.

        In the compact form a trailing ``+`` makes every element "or more"
        (``"665+"`` is 【6,6,5+】; a 6 or more is a 6).

        Raises:
            ValueError: not a pattern.
        """
        t = unicodedata.normalize("NFKC", text).strip().strip("【】[]").replace(" ", "")
        if not t:
            raise ValueError("empty pattern")
        if "," in t:
            elems = []
            for part in t.split(","):
                m = re.fullmatch(r"([1-6])(\+?)", part)
                if not m:
                    raise ValueError(f"not a pattern: {text!r}")
                elems.append((int(m[1]), bool(m[2]) and m[1] != "6"))
            return cls(tuple(elems))
        m = re.fullmatch(r"([1-6]+)(\+?)", t)
        if not m:
            raise ValueError(f"not a pattern: {text!r}")
        plus = bool(m[2])
        return cls(tuple((int(c), plus and c != "6") for c in m[1]))

    def matches(self, faces: Iterable[int]) -> bool:
        """Whether distinct dice among ``faces`` meet every element.

        Exact elements take dice of their face first (any such die is as good
        as another); then "or more" elements, highest first, take the highest
        dice left, which is optimal for threshold matching.
        """
        pool = sorted(faces, reverse=True)
        for face, more in self.elements:
            if not more:
                if face not in pool:
                    return False
                pool.remove(face)
        for need in sorted((f for f, more in self.elements if more), reverse=True):
            if not pool or pool[0] < need:
                return False
            pool.pop(0)
        return True

    def __str__(self) -> str:
        return "【" + ",".join(f"{f}{'+' if m else ''}" for f, m in self.elements) + "】"


SATSUBATSU_DEFAULT = Pattern(((6, False), (6, False)))
"""【6,6】: サツバツ! on a melee attack (NSTRPG 2-6, 2-13)."""
NAMU_DEFAULT = Pattern(((6, False), (6, False), (6, False)))
"""【6,6,6】: ナムアミダブツ! (NSTRPG 2-13)."""


class CheckResult(msgspec.Struct, frozen=True, kw_only=True):
    """One evaluated check: the faces, the difficulty and what they give.

    Attributes:
        faces: the dice in the order rolled.
        difficulty: the final difficulty level (after modifiers).
        successes: the success count (:func:`count_successes`).
        success: at least one success.
    """

    faces: tuple[int, ...]
    difficulty: int
    successes: int
    success: bool

    @property
    def difficulty_name(self) -> str:
        return difficulty_name(self.difficulty)


def evaluate(faces: Sequence[int], difficulty: int) -> CheckResult:
    """A check's result from its faces (no dice rolled)."""
    n = count_successes(faces, difficulty)
    return CheckResult(faces=tuple(faces), difficulty=difficulty, successes=n, success=n > 0)


def roll_check(dice: DiceSource, pool: int, difficulty: int) -> tuple[Roll, CheckResult]:
    """Roll ``pool`` d6 and evaluate them; a pool of 0 or less rolls nothing and fails.

    The caller must store the returned :class:`Roll` in its event.
    """
    roll = dice.roll(max(pool, 0), 6)
    return roll, evaluate(roll.faces, difficulty)


class OpposedResult(msgspec.Struct, frozen=True, kw_only=True):
    """An opposed check [対抗判定] (NS-11): the winner by success count, ``None`` on a tie (G-NS-03)."""

    successes: tuple[int, ...]
    winner: int | None
    margin: int


def opposed(successes: Sequence[int]) -> OpposedResult:
    """Compare success counts; ``winner`` is the index of the unique best, ``margin`` its lead."""
    best = max(successes)
    leaders = [i for i, s in enumerate(successes) if s == best]
    rest = sorted(successes, reverse=True)
    margin = best - rest[1] if len(rest) > 1 else best
    if len(leaders) != 1:
        return OpposedResult(successes=tuple(successes), winner=None, margin=0)
    return OpposedResult(successes=tuple(successes), winner=leaders[0], margin=margin)
