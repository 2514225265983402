"""Chat dice commands of the ``chabu`` ruleset (BCDice style; full-width folded).

- ``CH<=50`` or ``CH50``: a 1d100 判定 against 50 (``CH<=40+10`` adds up):
  success at or under it, タツジン! on 1–5, ウカツ! on 95–100 (CH-06…CH-08).
  A chat check names no character, so it gives no タツジンカウンター; a
  character's 判定 is the ``chabu.check`` command.
- ``CH<=50VS40`` (or ``CH50VS40``): a 対抗判定, 50 against 40 (CH-09).
- ``CHD3+5``: damage, 3 d10 (the DL) + 5 (威力) (CH-22); ``CHD3+5*2`` doubles it
  (an ウカツ! on the 回避判定, CH-08).

Text after the first space is a comment (the label). Anything else is not
ours (``None``): the core's generic BCDice dice (``1D100<=50``, ``2D10``) and
plain chat take over. The secret prefix ``S`` (``SCH<=50``) is the core's: it
strips it, asks :func:`chat` about the rest and shows the result only to the
roller and the GM.
"""

from __future__ import annotations

import re
from typing import Any

from taku.core.chatdice import MAX_DICE, split_comment
from taku.core.ruleset import Context, Emitted
from taku.errors import DiceError
from taku_chabu._d100 import judge, roll_d100
from taku_chabu.decider import _Out, opposed
from taku_chabu.events import CheckRolled, DamageRolled
from taku_chabu.options import ChabuOptions

__all__ = ["chat", "parse"]

_NUM = r"\d+(?:[+-]\d+)*"
_CHECK = re.compile(rf"^CH(?:<=)?(?P<a>{_NUM})(?:VS(?P<b>{_NUM}))?$")
_DAMAGE = re.compile(r"^CHD(?P<dl>\d+)(?P<power>[+-]\d+)?(?:\*(?P<mult>2))?$")


def _sum(expr: str) -> int:
    return sum(int(t) for t in re.findall(r"[+-]?\d+", expr))


def parse(text: str) -> dict[str, Any] | None:
    """The chat command in ``text`` as a dict (``kind`` check / opposed / damage), or ``None``."""
    head, comment = split_comment(text)
    expr = head.upper()
    if m := _CHECK.match(expr):
        if m["b"] is not None:
            return {"kind": "opposed", "a": _sum(m["a"]), "b": _sum(m["b"]), "label": comment}
        return {"kind": "check", "target": _sum(m["a"]), "label": comment}
    if m := _DAMAGE.match(expr):
        dl = int(m["dl"])
        if dl > MAX_DICE:
            raise DiceError(f"at most {MAX_DICE} dice in one roll", code="dice/too_many_dice")
        return {
            "kind": "damage",
            "dl": dl,
            "power": int(m["power"] or 0),
            "doubled": bool(m["mult"]),
            "label": comment,
        }
    return None


def chat(text: str, table: Any, ctx: Context[ChabuOptions]) -> list[Emitted] | None:
    """The events of a ``chabu`` chat command, or ``None`` when ``text`` is not one.

    A chat check names no character (even spoken as one), so it gives no
    タツジンカウンター: a character's 判定 is the ``chabu.check`` command.

    Raises:
        DiceError: ``dice/too_many_dice`` for ``CHD`` with more than 200 dice.
    """
    parsed = parse(text)
    if parsed is None:
        return None
    out = _Out(table, ctx)
    match parsed["kind"]:
        case "check":
            roll, value = roll_d100(ctx.dice)
            r = judge(value, parsed["target"])
            out.add(
                CheckRolled(
                    label=parsed["label"],
                    target=parsed["target"],
                    roll=roll,
                    value=value,
                    success=r.success,
                    tatsujin=r.tatsujin,
                    ukatsu=r.ukatsu,
                )
            )
        case "opposed":
            out.add(opposed(out, None, parsed["a"], None, parsed["b"], parsed["label"]))
        case _:
            roll = ctx.dice.roll(parsed["dl"], 10)
            total = parsed["power"] + roll.total
            if parsed["doubled"]:
                total *= 2
            out.add(
                DamageRolled(
                    power=parsed["power"],
                    dl=parsed["dl"],
                    roll=roll,
                    doubled=parsed["doubled"],
                    total=total,
                )
            )
    return out.out
