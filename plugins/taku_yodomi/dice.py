"""Chat dice of 澱み流れ (BCDice style), read from chat lines.

Forms (case-insensitive, full-width folded; text after a space is a comment):

- ``2D9``, ``2D9+5``, ``2D9+5-2>=12``: a 2D9 check; 判定値 and modifiers after
  the dice, the difficulty after ``>=``. Doubles are criticals (+10), 0-0 a fumble.
- ``D99<50``, ``D99<50+10``: a D99 check, success below the target (未満).
- ``@K`` at the end (``2D9+5>=12@7``, ``D99<50@3``): the key number K; a die
  showing it is rerolled once (both dice, unless already a double), and a
  double of K counts as a roll of 30 on 2D9.

The result is a ``yodomi.check_rolled`` event (no character: chat rolls carry
no 流れ; play cards with ``yodomi.roll_check``). The secret prefix ``S``
(``S2D9+3>=10``) is the core's: it strips it, asks :func:`chat` about the rest
and makes the answer secret (the roller and the GM).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from taku.core.chatdice import split_comment
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku_yodomi import _checks
from taku_yodomi._common import reject
from taku_yodomi.events import CheckRolled
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import CheckKind

__all__ = ["chat", "parse"]

_2D9 = re.compile(r"^2D9(?P<mods>(?:[+-]\d{1,4})*)(?:>=(?P<diff>-?\d{1,4}))?(?:@(?P<key>\d))?$")
_D99 = re.compile(r"^D99<(?P<target>\d{1,4})(?P<mods>(?:[+-]\d{1,4})*)(?:@(?P<key>\d))?$")
_MOD = re.compile(r"[+-]\d+")


def parse(text: str) -> dict[str, object] | None:
    """The parts of a 澱み流れ chat roll, or ``None`` when the line is not one."""
    head, comment = split_comment(text)
    expr = head.upper()
    if m := _2D9.match(expr):
        mods = sum(int(x) for x in _MOD.findall(m["mods"] or ""))
        return {
            "kind": "2d9",
            "base": mods,
            "difficulty": int(m["diff"]) if m["diff"] else None,
            "key": int(m["key"]) if m["key"] else None,
            "comment": comment,
            "expr": expr,
        }
    if m := _D99.match(expr):
        mods = sum(int(x) for x in _MOD.findall(m["mods"] or ""))
        return {
            "kind": "d99",
            "base": int(m["target"]) + mods,
            "difficulty": None,
            "key": int(m["key"]) if m["key"] else None,
            "comment": comment,
            "expr": expr,
        }
    return None


def chat(text: str, table: TableState, ctx: Context[YodomiOptions]) -> Sequence[Emitted] | None:
    """A 2D9 or D99 check from a chat line; ``None`` for anything else.

    Raises:
        Rejected: ``rule/yodomi/bad_key_number`` for ``@0``.
    """
    p = parse(text)
    if p is None:
        return None
    key = p["key"]
    assert key is None or isinstance(key, int)
    if key is not None and not 1 <= key <= 9:
        reject("bad_key_number", "キーナンバーは1〜9です", "澱み流れ ▼キーナンバー")
    opts = ctx.options
    base = p["base"]
    diff = p["difficulty"]
    assert isinstance(base, int) and (diff is None or isinstance(diff, int))
    k = _checks.make_check(
        ctx.dice,
        check_id=ctx.new_id("k"),
        character_id=None,
        kind=cast(CheckKind, p["kind"]),  # the pattern matched 2d9 or d99
        base=base,
        difficulty=diff,
        key_number=key,
        key_reroll=key is not None,
        key_mode=opts.key_critical,
        key_bonus=opts.key_critical_bonus,
        label=f"{p['expr']} {p['comment']}".strip(),
        purpose="chat",
    )
    return [CheckRolled(check=k)]
