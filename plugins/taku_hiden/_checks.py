"""The arithmetic of a check (秘伝の声 五ノ一 … 五ノ六), pure and shared by decider and chat.

Rolling order inside one command (tests script dice in this order): the GM's
target 2D first (目標値 is set before the actor rolls), then each side's 2D,
each followed at once by its 6ゾロ bonus 2D when it rolled 6ゾロ.
"""

from __future__ import annotations

from typing import Any

from taku.core.dice import DiceSource, Roll
from taku_hiden.events import Effect, Modifier, Side, Target
from taku_hiden.options import HidenOptions
from taku_hiden.tables import simple_target

__all__ = [
    "FUMBLE_AS",
    "effect_of",
    "make_target",
    "opposed_outcome",
    "replace_side",
    "reroll_side",
    "roll_side",
    "single_success",
]

FUMBLE_AS = 2
"""五ノ六: when both sides roll 1ゾロ, each side's 2D counts as 2."""


def effect_of(roll: Roll) -> Effect:
    """五ノ三 効果的行動: both dice 6 = 成功効果, both 1 = 失敗効果 (HD-08, HD-09)."""
    if roll.faces == (6, 6):
        return "critical"
    if roll.faces == (1, 1):
        return "fumble"
    return ""


def _with_roll(fields: dict[str, Any], dice: DiceSource) -> dict[str, Any]:
    roll = dice.roll(2, 6)
    effect = effect_of(roll)
    # 五ノ三: after a 6ゾロ roll 2D once more and add it; that roll's doubles mean nothing (HD-08)
    bonus = dice.roll(2, 6) if effect == "critical" else None
    value = fields["base"] + roll.total + (bonus.total if bonus is not None else 0)
    return {**fields, "roll": roll, "bonus": bonus, "value": value, "effect": effect}


def roll_side(fields: dict[str, Any], dice: DiceSource) -> Side:
    """A side from its fixed fields (``base`` included) and a fresh 2D (plus bonus on 6ゾロ)."""
    return Side(**_with_roll(fields, dice))


def reroll_side(side: Side, dice: DiceSource) -> Side:
    """五ノ五: both dice rolled again; the new roll stands even when worse (HD-12)."""
    fields = {
        f: getattr(side, f)
        for f in side.__struct_fields__
        if f not in ("roll", "bonus", "value", "effect")
    }
    fields["rerolls"] = side.rerolls + 1
    return Side(**_with_roll(fields, dice))


def make_target(
    difficulty: int | None,
    fixed: int | None,
    simple: bool,
    modifiers: tuple[Modifier, ...],
    dice: DiceSource,
) -> Target | None:
    """The 目標値 (五ノ一, 五ノ二): difficulty + 2D for the GM, difficulty + 7, or a fixed number.

    Difficulty modifiers (fatigue …) add to the difficulty, not to a fixed target.
    The GM's 2D has no 6ゾロ / 1ゾロ effect outside opposed checks (G-HD-06).
    """
    if fixed is not None:
        return Target(mode="fixed", value=fixed)
    if difficulty is None:
        return None
    total = difficulty + sum(m.value for m in modifiers)
    if simple:
        return Target(
            mode="simple", difficulty=difficulty, modifiers=modifiers, value=simple_target(total)
        )
    roll = dice.roll(2, 6)
    return Target(
        mode="rolled",
        difficulty=difficulty,
        modifiers=modifiers,
        roll=roll,
        value=total + roll.total,
    )


def single_success(
    side: Side, target: Target | None, options: HidenOptions, *, kind: str = "check"
) -> bool | None:
    """Success of a single check (五ノ一, 五ノ三): 判定値 >= 目標値; 1ゾロ fails; 6ゾロ succeeds by default.

    A 勘働き check (``kind="kan"``) succeeds on 6ゾロ whatever the option: 五ノ七 says
    of it "もちろん無条件成功、失敗もあります" (HD-22).
    """
    if target is None:
        return None
    if side.effect == "fumble":
        return False  # 五ノ三 失敗効果: "すべての行動は失敗" (HD-09)
    if side.effect == "critical" and (options.critical_auto_success or kind == "kan"):
        return True  # G-HD-01; 勘働き: 無条件成功 (HD-22)
    return side.value >= target.value


def opposed_outcome(first: Side, second: Side, tie: str) -> tuple[int, tuple[int, int], bool]:
    """The winner of an 対抗判定 (五ノ六; HD-13, HD-14): ``(winner, compared, both_fumble)``.

    The second actor wins by reaching the first's 判定値 (a tie goes to the
    second, or to the first under ``tie="first"``, G-HD-03). 6ゾロ adds its 2D on
    either side; a 1ゾロ side fails (G-HD-07); when both roll 1ゾロ, each side's
    2D counts as 2 and the values are compared.
    """
    f1, f2 = first.effect == "fumble", second.effect == "fumble"
    if f1 and f2:
        compared = (first.base + FUMBLE_AS, second.base + FUMBLE_AS)
    else:
        compared = (first.value, second.value)
        if f1:
            return 1, compared, False
        if f2:
            return 0, compared, False
    a, b = compared
    second_wins = b > a or (b == a and tie == "second")
    return (1 if second_wins else 0), compared, f1 and f2


def replace_side(sides: tuple[Side, ...], index: int, side: Side) -> tuple[Side, ...]:
    return tuple(side if i == index else s for i, s in enumerate(sides))
