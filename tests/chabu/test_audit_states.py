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


async def test_effect_after_cost_death_lets_an_attacking_tokugi_resolve(kit: Any) -> None:
    """CH-30, CH-EX-02 edge (option effect_after_cost_death = true): the deadly cost is paid, and the attack still resolves."""
    from taku_chabu.commands import Evade, UseTokugi
    from taku_chabu.events import DamageRolled, DeclarationClosed, Died

    tsuki = {
        "name": "ツキ",
        "range": "short",
        "targets": 1,
        "check": {"ability": "精神"},
        "power": 7,
        "cost": {"ingaoho": 4},
    }
    t = await kit.make_table({"effect_after_cost_death": True, "always_hold": True})
    a = await t.pc(t.pl1, "A", ingaoho=97, dl=1, tokugi=[tsuki])
    b = await t.npc("B", hp=25)
    t.roll(20, 90)
    t.d10(3)
    events = await t.h.send(t.pl1, UseTokugi(character_id=a, tokugi="ツキ", targets=[b]))
    assert any(isinstance(e, Died) for e in events) and t.char(a).dead
    assert events[-1].purpose == "hit" and events[-1].success
    events = await t.h.send(t.gm, Evade(character_id=b))
    dmg = next(e for e in events if isinstance(e, DamageRolled))
    assert dmg.total == 7 + 3 and t.char(b).hp == 15
    assert isinstance(events[-1], DeclarationClosed) and events[-1].outcome == "hit"
    await t.h.assert_replay_matches()


async def test_a_target_that_dies_before_evading_is_out_of_the_attack(t: Any) -> None:
    """CH-25 with CH-21/CH-27: a 死亡 target "二度とゲームに使用することは出来無い": it is not
    awaited for a 回避判定 and takes no damage; when the last awaited target dies the attack closes."""
    from taku_chabu.commands import Adjust, Attack, Evade, Proceed, UseTokugi
    from taku_chabu.events import DamageRolled, DeclarationClosed

    kiai = {"name": "キアイ", "timing": "setsuna", "cost": {"ingaoho": 3}}
    gun = {
        "name": "ガン",
        "category": "銃",
        "check": {"ability": "肉体"},
        "power": 4,
        "range": "long",
        "targets": 3,
    }
    a = await t.pc(t.pl1, "A", dl=1, equipment=[gun])
    b = await t.npc("B", ingaoho=98, tokugi=[kiai])
    c = await t.npc("C", hp=20)
    d = await t.npc("D", hp=20)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="ガン", targets=[b, c, d], hold=True))
    await t.h.send(t.gm, UseTokugi(character_id=b, tokugi="キアイ"))  # 98 + 3 = 101: 死亡
    assert t.char(b).dead
    t.roll(12)
    await t.h.send(t.pl1, Proceed())
    assert t.h.game.pending.awaiting == [c, d]
    err = await t.h.rejected(t.gm, Evade(character_id=b))
    assert err.code == "rule/chabu/not_targeted"
    t.roll(80)
    await t.h.send(t.gm, Evade(character_id=c))  # fails: C is hit
    t.d10(6)  # the damage roll for C
    events = await t.h.send(
        t.gm, Adjust(character_id=d, key="ingaoho", value=100)
    )  # D dies while awaited
    dmg = [e for e in events if isinstance(e, DamageRolled)]
    closed = [e for e in events if isinstance(e, DeclarationClosed)]
    assert [e.target for e in dmg] == [c] and t.char(c).hp == 20 - (4 + 6) and t.char(d).hp == 20
    assert closed and closed[0].outcome == "hit" and t.h.game.pending is None
    await t.h.assert_replay_matches()
