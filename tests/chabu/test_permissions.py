"""The two checks the declared permits cannot express, kept in the rules (the rest is the
core's authorization matrix, tests/core/test_authorization.py)."""

from __future__ import annotations

from typing import Any

from taku_chabu.commands import Check, OpposedCheck, OpposedSide, Proceed
from taku_chabu.events import CheckRolled, DeclarationClosed


async def test_only_the_declarers_owner_or_the_gm_proceeds(t: Any) -> None:
    """``chabu.proceed`` resolves the open declaration: its declarer's owner or a GM, no other player."""
    a = await t.pc(t.pl1, "ナンシー")
    await t.pc(t.pl2, "ヤモト")
    await t.h.send(t.pl1, Check(character_id=a, ability="精神", hold=True))
    err = await t.h.rejected(t.pl2, Proceed())
    assert (
        err.code == "command/forbidden"
        and err.details["reason"] == "ナンシーはあなたのキャラクターではありません"
    )
    assert err.details["command"] == "chabu.proceed"
    t.roll(40)
    events = await t.h.send(t.gm, Proceed())
    assert isinstance(events[0], CheckRolled) and isinstance(events[-1], DeclarationClosed)


async def test_side_a_of_an_opposed_check_is_the_senders(t: Any) -> None:
    """A player opposes with their own character; someone else's, or a bare value, is refused; a GM may."""
    a = await t.pc(t.pl1, "ナンシー")
    b = await t.pc(t.pl2, "ヤモト")
    theirs = OpposedCheck(
        a=OpposedSide(character_id=b, ability="肉体"), b=OpposedSide(character_id=a, ability="肉体")
    )
    err = await t.h.rejected(t.pl1, theirs)
    assert err.code == "command/forbidden" and err.details["command"] == "chabu.opposed_check"
    bare = OpposedCheck(a=OpposedSide(value=90), b=OpposedSide(character_id=b, ability="肉体"))
    err = await t.h.rejected(t.pl1, bare)
    assert err.code == "command/invalid" and "自分のキャラクター" in err.details["detail"]
    t.roll(10, 50)
    (ev,) = await t.h.send(t.gm, bare)
    assert ev.winner == "a"  # type: ignore[attr-defined]
