"""Regression tests from the third rules audit (CHECKLIST ids in each docstring)."""

from __future__ import annotations

from typing import Any

from taku.core.commands import UpdateCharacter


async def test_a_starting_ingaoho_of_100_is_death(t: Any) -> None:
    """CH-25, G-CH-09: a character whose インガオホー値 is 100 or more is 死亡, also when the sheet starts it there."""
    at_99 = await t.pc(t.pl1, "九十九", ingaoho=99)
    at_100 = await t.pc(t.pl1, "百", ingaoho=100)
    at_130 = await t.npc("百三十", ingaoho=130)
    assert not t.char(at_99).dead
    assert t.char(at_100).dead and t.char(at_130).dead
    status = t.h.view(t.gm)["game"]["status"]
    assert (status[at_99], status[at_100], status[at_130]) == ("mikoudou", "shibou", "shibou")
    await t.h.assert_replay_matches()


async def test_a_sheet_edit_to_ingaoho_100_or_dl0_hp0_is_death(t: Any, kit: Any) -> None:
    """CH-25: the GM editing the sheet's インガオホー値 to 100, or a DL 0 character's HP to 0, outside a combat."""
    a = await t.pc(t.pl1, "A", ingaoho=40)
    b = await t.npc("B", dl=0, hp=12)
    c = await t.npc("C", dl=1, hp=12)
    await t.h.send(t.gm, UpdateCharacter(character_id=a, sheet=kit.sheet(ingaoho=99)))
    assert t.char(a).ingaoho == 99 and not t.char(a).dead
    await t.h.send(t.gm, UpdateCharacter(character_id=a, sheet=kit.sheet(ingaoho=100)))
    assert t.char(a).dead
    await t.h.send(t.gm, UpdateCharacter(character_id=b, sheet=kit.sheet(dl=0, hp=0)))
    assert t.char(b).hp == 0 and t.char(b).dead
    await t.h.send(t.gm, UpdateCharacter(character_id=c, sheet=kit.sheet(dl=1, hp=0)))
    assert t.char(c).hp == 0 and not t.char(c).dead  # DL 1: 戦闘不能, not 死亡
    await t.h.assert_replay_matches()
