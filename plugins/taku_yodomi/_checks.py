"""2D9 and D99 checks: rolling, the key-number reroll, criticals and fumbles, 流れ.

澱み流れ 行為判定ルール (CHECKLIST YD-01 … YD-15, G-YD-01, G-YD-03, G-YD-04, G-YD-06).

A D9 is a ten-sided die read 0-9: the dice source rolls d10s (1..10) and a face
of 10 reads 0, so the faces recorded in the event are the server's faces.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from taku.core.dice import DiceSource, Roll
from taku_yodomi._cards import flow_bonus
from taku_yodomi.state import Check, CheckKind, CheckPurpose

__all__ = ["boost", "d9", "make_check", "roll_pair"]


def d9(face: int) -> int:
    """A d10 face (1..10) read as a D9 (0..9): 10 is 0 (G-YD-01)."""
    return face % 10


def roll_pair(dice: DiceSource) -> Roll:
    return dice.roll(2, 10)


def make_check(
    dice: DiceSource,
    *,
    check_id: str,
    character_id: str | None,
    kind: CheckKind,
    base: int,
    modifier: int = 0,
    penalty: int = 0,
    difficulty: int | None = None,
    key_number: int | None = None,
    key_reroll: bool = False,
    key_mode: str = "key_double",
    key_bonus: bool = False,
    no_roll: bool = False,
    purpose: CheckPurpose = "check",
    label: str = "",
    cards_allowed: bool = True,
) -> Check:
    """Roll and resolve one check (without 流れ; add them with :func:`boost`).

    2D9 (YD-03): 達成値 = ``base`` + dice + ``modifier`` - ``penalty``; a double is
    a critical (automatic success, +10, YD-06), a double that comes through the
    key number counts as a dice roll of 30 (YD-07, G-YD-04, ``key_mode``), 0-0 is a
    fumble (達成値 0, no 流れ; YD-08).
    D99 (YD-11, YD-12): the pair read as tens and units; success when below the
    target ``base`` + ``modifier`` - ``penalty``; 11 … 99 critical, 00 fumble.
    The key-number reroll (YD-09, G-YD-03) rerolls both dice once when a die shows
    the key number and the roll is not already a double.
    """
    rolls: list[Roll] = []
    faces: tuple[int, ...] = ()
    rerolled = False
    if not no_roll:
        first = roll_pair(dice)
        rolls.append(first)
        faces = tuple(d9(f) for f in first.faces)
        if key_reroll and key_number is not None and key_number in faces and faces[0] != faces[1]:
            second = roll_pair(dice)
            rolls.append(second)
            faces = tuple(d9(f) for f in second.faces)
            rerolled = True
    check = Check(
        check_id=check_id,
        character_id=character_id,
        kind=kind,
        purpose=purpose,
        label=label,
        base=base,
        modifier=modifier,
        penalty=penalty,
        rolls=tuple(rolls),
        faces=faces,
        rerolled=rerolled,
        no_roll=no_roll,
        difficulty=difficulty if kind == "2d9" else None,
        cards_allowed=cards_allowed,
    )
    return resolve(check, key_number=key_number, key_mode=key_mode, key_bonus=key_bonus)


def resolve(check: Check, *, key_number: int | None, key_mode: str, key_bonus: bool) -> Check:
    """Fill in critical / fumble / value / target / success from the faces and numbers."""
    replace = msgspec.structs.replace
    if check.kind == "2d9":
        if check.no_roll:
            # YD-15: a side that cannot roll: 判定値 + modifiers is its 達成値
            total = check.base + check.modifier - check.penalty + check.card_bonus
            return replace(check, value=total, success=_meets(total, check.difficulty))
        a, b = check.faces
        fumble = a == 0 and b == 0
        critical = a == b and not fumble
        key_critical = critical and (
            (key_mode == "key_double" and key_number is not None and a == key_number)
            or (key_mode == "rerolled" and check.rerolled)
        )
        if fumble:
            # YD-08: 達成値 0, automatic failure
            return replace(check, fumble=True, value=0, success=False, cards_allowed=False)
        dice_value = 30 if key_critical else a + b
        bonus = 10 if critical and (not key_critical or key_bonus) else 0
        total = check.base + dice_value + bonus + check.modifier - check.penalty + check.card_bonus
        success = True if critical else _meets(total, check.difficulty)
        return replace(
            check, critical=critical, key_critical=key_critical, value=total, success=success
        )
    # D99
    target = check.base + check.modifier - check.penalty + check.card_bonus
    if check.no_roll:
        return replace(check, target=target, success=None)
    a, b = check.faces
    value = a * 10 + b
    fumble = value == 0
    critical = a == b and not fumble
    success = False if fumble else (True if critical else value < target)
    return replace(
        check,
        value=value,
        target=target,
        fumble=fumble,
        critical=critical,
        success=success,
        cards_allowed=check.cards_allowed and not fumble,
    )


def _meets(total: int, difficulty: int | None) -> bool | None:
    return None if difficulty is None else total >= difficulty


def boost(
    check: Check,
    cards: Sequence[str],
    *,
    suit: str | None,
    key_number: int | None,
    own_suit_barred: bool,
    key_mode: str,
    key_bonus: bool,
) -> tuple[Check, int, str | None]:
    """The check with 流れ added (YD-25, YD-26). Raises ValueError when the cards may not be played."""
    if not check.cards_allowed:
        raise ValueError("この判定には「流れ」を使えません")
    # the whole set played on this check obeys "one own-suit card" (YD-25)
    total, counted = flow_bonus(
        tuple(check.cards) + tuple(cards), suit, key_number, own_suit_barred=own_suit_barred
    )
    if check.cards:
        _, before = flow_bonus(
            tuple(check.cards), suit, key_number, own_suit_barred=own_suit_barred
        )
        if before is not None and counted != before:
            # a joker already played as the own-suit card (G-YD-07) stays that card
            raise ValueError(
                "自分のスートの「流れ」は一枚だけ出せます（ジョーカーをその一枚として出しています）"
            )
    bonus = total - check.card_bonus
    new = msgspec.structs.replace(check, card_bonus=total, cards=check.cards + tuple(cards))
    return (
        resolve(new, key_number=key_number, key_mode=key_mode, key_bonus=key_bonus),
        bonus,
        counted,
    )
