"""Chat commands of 秘伝の声, BCDice style (documented in docs/rulesets/hiden.md).

Forms (full-width folded, case-insensitive; text after a space is a comment):

- ``HD`` + modifiers: a 行動判定 of 2D + the modifiers, the 判定値 alone
  (``HD5`` = 2D+5, ``HD2+1`` = 2D+3).
- ``HD5>=10``: against a fixed 目標値 10.
- ``HD5@2``: against difficulty 2 (目標値 = 2 + 2D for the GM, or 9 with the
  table's ``simple_target`` option).
- ``HD3VS3``: an 対抗判定, the first actor 2D+3, the second 2D+3 against it.
- ``HD:甲:姿隠し@2``, ``HD:甲:料理/知識+1>=9``, ``HD:甲:/器用``: a check of a
  character by name, with a 《技能》 or 《特技》 (``/ability`` for a 《技能》 or an
  ability-only check), modifiers and a difficulty or fixed target, exactly as
  the ``hiden.check`` command (ownership checked; 座布団 rerolls work).
  Spoken as a character (chat with ``character_id``), ``HD:姿隠し@2`` names
  that character, and a bare ``HD3@2`` is that character's check.
- ``ZR`` / ``座布団`` [check id]: spend a 座布団 to reroll the latest check of
  a character you control (or the named check).
- ``HDT`` / ``難易度表``: post the difficulty table.

The secret prefix is the core's (``SHD2+1>=10``): the core strips the ``S``,
asks here with ``ctx.secret`` set and makes the answer secret; a secret
check's events carry ``secret_to`` so that the view hides the open check, and
its rerolls stay secret.

6ゾロ adds 2D, 1ゾロ fails, as for every check (五ノ三). Anything else is
``None``, so the core's generic dice (``2D6+3>=9``) and plain chat go on.
"""

from __future__ import annotations

import re
from typing import Any

from taku.core import kit
from taku.core.chatdice import split_comment
from taku.core.commands import Command
from taku.core.events import ChatPosted
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState, check_permit
from taku.errors import InvalidCommand
from taku_hiden._checks import make_target, opposed_outcome, roll_side, single_success
from taku_hiden.commands import Check, Reroll
from taku_hiden.decider import _condition_modifiers, _secret_to, decide
from taku_hiden.events import CheckRolled, OpposedRolled
from taku_hiden.options import HidenOptions
from taku_hiden.tables import DIFFICULTY_TABLE, simple_target

__all__ = ["chat", "parse_mods"]

_MODS = r"[+-]?\d{1,3}(?:[+-]\d{1,3})*"
_CHECK = re.compile(
    rf"^HD(?P<a>{_MODS})?(?:VS(?P<b>{_MODS})?|>=(?P<t>[+-]?\d{{1,3}})|@(?P<d>[+-]?\d{{1,3}}))?$"
)
_REROLL_HEADS = ("ZR", "座布団", "ZABUTON")
_TABLE_HEADS = ("HDT", "難易度表")
_CHECK_ID = re.compile(r"^k\d+(?:-\d+)?$")
_NAMED = re.compile(
    r"^(?P<who>[^:]+):(?P<skill>[^/@>+\-]*)(?:/(?P<ability>[^@>+\-]+))?"
    r"(?P<mods>(?:[+-]\d{1,3})*)(?:>=(?P<t>[+-]?\d{1,3})|@(?P<d>[+-]?\d{1,3}))?$"
)


def parse_mods(text: str | None) -> int:
    """``"2+1-1"`` -> 2: the sum of signed integers."""
    if not text:
        return 0
    return sum(int(n) for n in re.findall(r"[+-]?\d+", text))


def _as_command(table: TableState, command: Command, ctx: Context[HidenOptions]) -> list[Emitted]:
    """A chat command that is exactly a ruleset command: its permit, then its decision."""
    check_permit(table, command, ctx)
    return decide(table, command, ctx)


def chat(text: str, table: TableState, ctx: Context[HidenOptions]) -> list[Emitted] | None:
    """The events of a 秘伝の声 chat command, or ``None`` when the line is not one.

    Returns ``hiden.check_rolled``, ``hiden.opposed_rolled``, ``hiden.check_rerolled``
    or a ``chat_posted`` table, as docs/rulesets/hiden.md lists them.

    Raises:
        Rejected: ``rule/hiden/<reason>`` as the command would (``HD:…``, ``ZR``).
        Forbidden: ``command/forbidden``: another member's character.
        InvalidCommand: ``command/unknown_character``; ``command/invalid`` for a
            malformed ``HD:…`` line.
    """
    head, comment = split_comment(text)
    upper = head.upper()
    if upper in _REROLL_HEADS:
        check_id = comment.split()[0] if comment and _CHECK_ID.match(comment.split()[0]) else None
        return _as_command(table, Reroll(check_id=check_id), ctx)
    if upper in _TABLE_HEADS:
        lines = [f"{d:+d}（簡易目標値{simple_target(d)}）{t}" for d, t in DIFFICULTY_TABLE]
        return [ChatPosted(text="難易度の程度（五ノ二）\n" + "\n".join(lines))]
    if upper.startswith("HD:"):
        return _named_check(head[3:], comment, table, ctx)
    m = _CHECK.match(upper)
    if m is None:
        return None
    options = ctx.options
    speaker = _speaker(table, ctx)
    who = kit.speaker(table, ctx.actor, speaker)
    label = head + (f" {comment}" if comment else "")

    def fields(mods: int, name: str, character_id: str | None = None) -> dict[str, Any]:
        return {"character_id": character_id, "name": name, "modifier": mods, "base": mods}

    if upper.count("VS"):
        first = roll_side(fields(parse_mods(m["a"]), "先手"), ctx.dice)
        second = roll_side(fields(parse_mods(m["b"]), "後手"), ctx.dice)
        winner, compared, both = opposed_outcome(first, second, options.opposed_tie)
        return [
            OpposedRolled(
                check_id=ctx.new_id("k"),
                first=first,
                second=second,
                compared=compared,
                both_fumble=both,
                tie=options.opposed_tie,
                winner=winner,
                label=label,
                secret_to=_secret_to(ctx),
            )
        ]
    fixed = int(m["t"]) if m["t"] is not None else None
    difficulty = int(m["d"]) if m["d"] is not None else None
    # spoken as a character: the check is that character's (its conditions apply, 座布団 may reroll it)
    target = make_target(
        difficulty, fixed, options.simple_target, _condition_modifiers(table, speaker), ctx.dice
    )
    side = roll_side(fields(parse_mods(m["a"]), who, speaker), ctx.dice)
    return [
        CheckRolled(
            check_id=ctx.new_id("k"),
            side=side,
            target=target,
            success=single_success(side, target, options),
            label=label,
            secret_to=_secret_to(ctx),
        )
    ]


def _speaker(table: TableState, ctx: Context[HidenOptions]) -> str | None:
    """The character the chat line is spoken as (checked by the core to be the sender's), if any."""
    cid = ctx.character_id
    return cid if cid is not None and cid in table.characters else None


def _character(name: str, table: TableState, ctx: Context[HidenOptions]) -> str:
    """The character called ``name`` (or with that id); the sender's own first."""
    if name in table.characters:
        return name
    found = [c for c in table.characters.values() if c.name == name]
    if not found:
        raise InvalidCommand(
            f"no character named {name!r}", code="command/unknown_character", character_id=name
        )
    own = [c for c in found if c.owner == ctx.actor]
    return (own or found)[0].id


def _named_check(
    body: str, comment: str, table: TableState, ctx: Context[HidenOptions]
) -> list[Emitted]:
    """``HD:甲:姿隠し@2``: a ``hiden.check`` of a named character."""
    label = f"HD:{body}" + (f" {comment}" if comment else "")
    speaker = _speaker(table, ctx)
    if ":" not in body and speaker is not None:
        body = f"{speaker}:{body}"  # HD:姿隠し@2 spoken as 甲 = HD:甲:姿隠し@2
    m = _NAMED.match(body)
    if m is None:
        raise InvalidCommand(
            "write a character check as HD:名前:技能[/能力値][+修正][@難易度|>=目標値]",
            code="command/invalid",
            detail="キャラクターの判定は HD:名前:技能[/能力値][+修正][@難易度|>=目標値] と書きます",
        )
    cid = _character(m["who"].strip(), table, ctx)
    check = Check(
        character_id=cid,
        skill=m["skill"].strip() or None,
        ability=(m["ability"] or "").strip() or None,
        modifier=parse_mods(m["mods"]),
        difficulty=int(m["d"]) if m["d"] is not None else None,
        target=int(m["t"]) if m["t"] is not None else None,
        label=label,
    )
    return _as_command(table, check, ctx)
