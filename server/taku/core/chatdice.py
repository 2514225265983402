"""Generic chat dice in BCDice notation, shared by every ruleset.

Forms (case-insensitive; full-width characters are folded, so ``２Ｄ６`` works):

- sums: ``2D6``, ``D6``, ``3D6+2``, ``2D6+1D4-1``; with a target ``3D6+2>=10``,
  ``1D100<=50`` (operators ``>= <= > < = <> !=``): the total against the target,
  ``成功`` or ``失敗``.
- ``D66`` (two d6 read as tens and units, in the order rolled), ``D66S`` (sorted
  ascending), ``D66N`` (not sorted).
- barabara ``4B6`` (list the faces) and ``4B6>=4`` (count the dice meeting the
  target, ``成功数``); several pools ``2B6+3B10>=5``.
- a leading ``S`` makes the roll secret (``S2D6``): the roller and the GMs see it.
- text after the first space is a comment.

At most 200 dice in one command and 1000 faces a die (``dice/too_many_dice``,
``dice/too_many_faces``); anything else that is not a dice command is ``None``
from :func:`parse` (it is chat) or ``dice/invalid`` from :func:`parse_strict`.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from taku.core.dice import MAX_SIDES, DiceSource, Roll
from taku.core.events import DiceRolled
from taku.errors import DiceError

__all__ = [
    "COMPARATORS",
    "MAX_DICE",
    "ParsedRoll",
    "compare",
    "normalize",
    "parse",
    "parse_strict",
    "split_comment",
]

MAX_DICE = 200
"""The most dice one command may roll."""

COMPARATORS: dict[str, Callable[[int, int], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "=": operator.eq,
    "==": operator.eq,
    "<>": operator.ne,
    "!=": operator.ne,
}

_CMP = r"(?P<op>>=|<=|<>|!=|==|=|>|<)(?P<target>-?\d+)"
_SUM_TERM = re.compile(r"([+-]?)(?:(\d*)D(\d+)|(\d+))")
_SUM = re.compile(rf"^(?P<body>[+-]?(?:\d*D\d+|\d+)(?:[+-](?:\d*D\d+|\d+))*)(?:{_CMP})?$")
_B = re.compile(rf"^(?P<body>\d+B\d+(?:\+\d+B\d+)*)(?:{_CMP})?$")
_D66 = re.compile(r"^D66(?P<sort>[SN]?)$")


def normalize(text: str) -> str:
    """Fold full-width forms (NFKC), strip, and upper-case the command part."""
    return unicodedata.normalize("NFKC", text).strip()


def split_comment(text: str) -> tuple[str, str]:
    """``"2D6 attack"`` -> ``("2D6", "attack")``."""
    text = normalize(text)
    head, _, rest = text.partition(" ")
    return head, rest.strip()


def compare(value: int, op: str, target: int) -> bool:
    return COMPARATORS[op](value, target)


@dataclass(frozen=True)
class ParsedRoll:
    """A parsed generic dice command, ready to roll with :meth:`roll`."""

    expression: str
    kind: str  # "sum" | "d66" | "b"
    terms: tuple[tuple[int, int, int], ...]  # (sign, count, sides); sides 0 = constant `count`
    op: str | None
    target: int | None
    secret: bool
    comment: str
    sort: str = ""

    def roll(self, dice: DiceSource, *, character_id: str | None = None) -> DiceRolled:
        """Roll it and build the ``dice_rolled`` event with every face recorded.

        ``character_id`` is the character the line was said as (every kind of roll
        keeps it, so the line renders with the character's name).
        """
        if self.kind == "d66":
            r = dice.roll(2, 6)
            a, b = r.faces
            if self.sort == "S":
                a, b = min(a, b), max(a, b)
            value = a * 10 + b
            return self._event(
                (r,), total=value, line=f"({self.expression}) ＞ {value}", character_id=character_id
            )
        if self.kind == "b":
            rolls = tuple(dice.roll(count, sides) for _, count, sides in self.terms)
            faces = [f for r in rolls for f in r.faces]
            shown = ",".join(map(str, faces))
            if self.op is None:
                return self._event(
                    rolls,
                    total=sum(faces),
                    line=f"({self.expression}) ＞ {shown}",
                    character_id=character_id,
                )
            assert self.target is not None
            n = sum(1 for f in faces if compare(f, self.op, self.target))
            return self._event(
                rolls,
                successes=n,
                line=f"({self.expression}) ＞ {shown} ＞ 成功数{n}",
                character_id=character_id,
            )
        rolls_list: list[Roll] = []
        parts: list[str] = []
        total = 0
        for sign, count, sides in self.terms:
            s = "-" if sign < 0 else "+"
            if sides == 0:
                total += sign * count
                parts.append(f"{s}{count}")
                continue
            r = dice.roll(count, sides)
            rolls_list.append(r)
            total += sign * r.total
            parts.append(f"{s}{r.total}[{','.join(map(str, r.faces))}]")
        shown = "".join(parts).lstrip("+")
        simple = len(self.terms) == 1 and self.terms[0][1] == 1 and self.terms[0][2] > 0
        line = (
            f"({self.expression}) ＞ {total}"
            if simple
            else f"({self.expression}) ＞ {shown} ＞ {total}"
        )
        success = None
        if self.op is not None:
            assert self.target is not None
            success = compare(total, self.op, self.target)
            line += " ＞ 成功" if success else " ＞ 失敗"
        return self._event(
            tuple(rolls_list), total=total, success=success, line=line, character_id=character_id
        )

    def _event(
        self,
        rolls: tuple[Roll, ...],
        *,
        line: str,
        total: int | None = None,
        successes: int | None = None,
        success: bool | None = None,
        character_id: str | None = None,
    ) -> DiceRolled:
        return DiceRolled(
            expression=self.expression,
            rolls=rolls,
            total=total,
            successes=successes,
            success=success,
            result=line,
            secret=self.secret,
            comment=self.comment,
            character_id=character_id,
        )


MAX_NUMBER = 1_000_000
"""The largest modifier or target a generic roll takes."""


def _limits(terms: tuple[tuple[int, int, int], ...], target: int | None = None) -> None:
    if any(sides and count == 0 for _, count, sides in terms):
        raise DiceError(
            "roll at least one die", code="dice/invalid", reason="ダイスは1個以上振ってください"
        )
    if any(not sides and count > MAX_NUMBER for _, count, sides in terms) or (
        target is not None and abs(target) > MAX_NUMBER
    ):
        raise DiceError(
            f"numbers in a roll are at most {MAX_NUMBER}",
            code="dice/invalid",
            reason=f"数は{MAX_NUMBER}以下にしてください",
        )
    if sum(count for _, count, sides in terms if sides) > MAX_DICE:
        raise DiceError(f"at most {MAX_DICE} dice in one roll", code="dice/too_many_dice")
    for _, _count, sides in terms:
        if sides > MAX_SIDES:
            raise DiceError(f"a die may have at most {MAX_SIDES} faces", code="dice/too_many_faces")


def parse(text: str) -> ParsedRoll | None:
    """Read a generic dice command from a chat line, or ``None`` when it is plain chat.

    Raises:
        DiceError: the line is a dice command past the limits
            (``dice/too_many_dice``, ``dice/too_many_faces``) or with a zero-sided die.
    """
    head, comment = split_comment(text)
    expr = head.upper()
    secret = False
    if expr.startswith("S") and len(expr) > 1:
        secret, expr = True, expr[1:]
    if m := _D66.match(expr):
        return ParsedRoll(expr, "d66", ((1, 2, 6),), None, None, secret, comment, m["sort"])
    if m := _B.match(expr):
        terms = tuple((1, int(c), int(s)) for c, s in re.findall(r"(\d+)B(\d+)", m["body"]))
        if any(s == 0 for _, _, s in terms):
            raise DiceError("a die needs at least one face", code="dice/invalid", reason=NO_FACES)
        target = int(m["target"]) if m["target"] is not None else None
        _limits(terms, target)
        return ParsedRoll(expr, "b", terms, m["op"], target, secret, comment)
    if m := _SUM.match(expr):
        terms_l: list[tuple[int, int, int]] = []
        has_dice = False
        for sign, count, sides, const in _SUM_TERM.findall(m["body"]):
            sg = -1 if sign == "-" else 1
            if sides:
                if int(sides) == 0:
                    raise DiceError(
                        "a die needs at least one face", code="dice/invalid", reason=NO_FACES
                    )
                terms_l.append((sg, int(count) if count else 1, int(sides)))
                has_dice = True
            else:
                terms_l.append((sg, int(const), 0))
        if not has_dice:
            return None
        terms = tuple(terms_l)
        target = int(m["target"]) if m["target"] is not None else None
        _limits(terms, target)
        return ParsedRoll(expr, "sum", terms, m["op"], target, secret, comment)
    return None


def parse_strict(text: str) -> ParsedRoll:
    """Like :func:`parse`, but a line that is no dice command raises ``dice/invalid``."""
    parsed = parse(text)
    if parsed is None:
        raise DiceError(
            f"not a dice expression: {text!r}", code="dice/invalid", reason=why_not_dice(text)
        )
    return parsed


NO_FACES = "ダイスの面の数は1以上にしてください"

_NO_TARGET = re.compile(r"(<=|>=|<>|=|<|>)\s*$")


def why_not_dice(text: str) -> str:
    """Why ``text`` is no dice expression, in Japanese, for the ``dice/invalid`` error's
    ``params.reason`` (``"2D6>="`` → the comparison lacks its target)."""
    head = split_comment(text)[0].strip()
    if not head:
        return "ダイス式が空です（例: 2D6+1>=7）"
    if _NO_TARGET.search(head):
        return f"「{head}」の比較の右に目標値がありません（例: 2D6>=7）"
    if re.search(r"(^|[+\-])S?0[DB]\d", head, re.IGNORECASE):
        return "ダイスは1個以上振ってください"
    return f"「{head}」はダイス式として読めません（例: 2D6+1>=7、3B6>=4、D66）"
