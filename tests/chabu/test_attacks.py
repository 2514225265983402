"""命中判定, 回避判定 and damage (CH-08, CH-18…CH-22, G-CH-03, G-CH-08, G-CH-10)."""

from __future__ import annotations

from typing import Any

import pytest

from taku_chabu.commands import Attack, Decline, Evade, SetRange
from taku_chabu.events import AttackDeclared, CheckRolled, DamageRolled, DeclarationClosed


async def test_hit_then_failed_evasion_deals_power_plus_dl_d10(t: Any) -> None:
    """CH-19, CH-21, CH-22: the equipment's 【判定値】 hits; 反応 evades; damage = 威力 + DL d10."""
    a = await t.pc(t.pl1, "A", dl=3)  # カタナ: 肉体40+カラテ15 = 55, 威力5
    b = await t.npc("B", hp=30)  # 反応30
    t.roll(55, 31)
    t.d10(7, 1, 10)
    events = await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    decl, hit = events
    assert isinstance(decl, AttackDeclared) and decl.check == 55 and decl.power == 5
    assert isinstance(hit, CheckRolled) and hit.purpose == "hit" and hit.success
    assert t.h.game.pending.awaiting == [b]
    events = await t.h.send(t.gm, Evade(character_id=b))
    ev, dmg, closed = events
    assert ev.purpose == "evasion" and ev.target == 30 and not ev.success
    assert isinstance(dmg, DamageRolled)
    assert dmg.roll.faces == (7, 1, 10) and dmg.dl == 3 and dmg.total == 5 + 18
    assert (dmg.hp_before, dmg.hp_after) == (30, 7) and t.char(b).hp == 7
    assert isinstance(closed, DeclarationClosed) and closed.outcome == "hit"
    await t.h.assert_replay_matches()


async def test_successful_evasion_takes_no_damage(t: Any) -> None:
    """CH-21: a successful 回避判定 avoids the damage."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B", hp=30)
    t.roll(20, 30)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    events = await t.h.send(t.gm, Evade(character_id=b))
    assert not any(isinstance(e, DamageRolled) for e in events)
    assert events[-1].outcome == "evaded" and t.char(b).hp == 30


async def test_missed_hit_check_ends_the_attack(t: Any) -> None:
    """CH-19: a failed 命中判定 is a miss; no 回避判定, no damage."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(56)
    events = await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    assert events[-1].outcome == "missed" and t.h.game.pending is None
    err = await t.h.rejected(t.gm, Evade(character_id=b))
    assert err.code == "rule/chabu/not_targeted"


async def test_ukatsu_on_the_hit_check_hits_the_attacker(t: Any) -> None:
    """CH-08, G-CH-10: ウカツ! on a 命中判定 (even under the 【判定値】) hits the attacker, who cannot evade."""
    a = await t.pc(
        t.pl1, "A", dl=2, hp=30, abilities={"肉体": 90, "反応": 30}, skills={"カラテ": 9}
    )
    b = await t.npc("B", hp=30)
    t.roll(96)
    t.d10(4, 6)
    events = await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    _, hit, dmg, closed = events
    assert hit.value == 96 < hit.target == 99 and hit.ukatsu and not hit.success
    assert (
        isinstance(dmg, DamageRolled) and dmg.self_hit and dmg.target == a and dmg.total == 5 + 10
    )
    assert t.char(a).hp == 15 and t.char(b).hp == 30
    assert closed.outcome == "self_hit" and t.h.game.pending is None


async def test_ukatsu_on_the_evasion_doubles_the_damage(t: Any) -> None:
    """CH-08: ウカツ! on a 回避判定 (under 反応) fails and doubles the final damage."""
    a = await t.pc(t.pl1, "A", dl=2)
    b = await t.npc("B", hp=60, abilities={"肉体": 40, "反応": 99})
    t.roll(10, 95)
    t.d10(3, 8)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    _, dmg, _ = await t.h.send(t.gm, Evade(character_id=b))
    assert dmg.doubled and dmg.total == (5 + 11) * 2 == 32
    assert t.char(b).hp == 28


async def test_damage_floors_hp_at_zero(t: Any) -> None:
    """G-CH-08: HP never goes below 0; HP 0 is 戦闘不能."""
    a = await t.pc(t.pl1, "A", dl=1)
    b = await t.npc("B", hp=3, dl=1)
    t.roll(10)
    t.d10(9)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    _, dmg, _ = await t.h.send(t.gm, Decline(character_id=b))
    assert dmg.total == 14 and dmg.hp_after == 0 and t.char(b).hp == 0
    assert t.h.view(t.gm)["game"]["status"][b] == "sentoufunou"


async def test_auto_evade_option_resolves_in_one_command(kit: Any) -> None:
    """Option ``auto_evade``: the targets' 回避判定 are rolled with the hit."""
    t = await kit.make_table({"auto_evade": True})
    a = await t.pc(t.pl1, "A", dl=1)
    b = await t.npc("B", hp=30)
    t.roll(10, 80)
    t.d10(2)
    events = await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    assert [type(e).__name__ for e in events] == [
        "AttackDeclared",
        "CheckRolled",
        "CheckRolled",
        "DamageRolled",
        "DeclarationClosed",
    ]
    assert t.char(b).hp == 23


@pytest.mark.parametrize(
    ("equipment", "distance", "allowed"),
    [
        ("カタナ", "short", True),
        ("カタナ", "long", False),
        ("スリケン", "short", True),  # ロング may also target ショート
        ("スリケン", "long", True),
        ("スリケン", "over", False),
        ("ハッキング", "over", True),
        ("ハッキング", "short", False),  # オーバー may not target ショート or ロング
        ("ハッキング", "long", False),
    ],
)
async def test_ranges(t: Any, kit: Any, equipment: str, distance: str, allowed: bool) -> None:
    """CH-18: the three ranges, and what each may target, from the GM's range table."""
    hack = {"name": "ハッキング", "check": {"ability": "精神"}, "power": 2, "range": "over"}
    a = await t.pc(t.pl1, "A", equipment=[kit.katana(), kit.shuriken(), hack])
    b = await t.npc("B")
    await t.h.send(t.gm, SetRange(a=a, b=b, range=distance))
    assert t.h.game.ranges[b][a] == distance  # set both ways
    cmd = Attack(character_id=a, equipment=equipment, targets=[b])
    if allowed:
        t.roll(90)  # above every 【判定値】 here, below ウカツ!
        events = await t.h.send(t.pl1, cmd)
        assert events[-1].outcome == "missed"
    else:
        err = await t.h.rejected(t.pl1, cmd)
        assert err.code == "rule/chabu/out_of_range"


async def test_unset_range_is_rejected_when_the_option_says_so(kit: Any) -> None:
    """Option ``default_range = null``: an attack needs the GM to have set the range."""
    t = await kit.make_table({"default_range": None})
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    err = await t.h.rejected(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    assert err.code == "rule/chabu/range_unknown"


async def test_equipment_target_count(t: Any) -> None:
    """An attack takes as many targets as the equipment allows (1 by default)."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    c = await t.npc("C")
    err = await t.h.rejected(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b, c]))
    assert err.code == "rule/chabu/target_count"
    err = await t.h.rejected(t.pl1, Attack(character_id=a, equipment="ミサイル", targets=[b]))
    assert err.code == "rule/chabu/unknown_equipment"


async def test_no_new_declaration_while_one_is_pending(t: Any) -> None:
    """Nothing half-applied: an attack waits for its 回避判定 before another starts."""
    a = await t.pc(t.pl1, "A")
    b = await t.npc("B")
    t.roll(10)
    await t.h.send(t.pl1, Attack(character_id=a, equipment="カタナ", targets=[b]))
    err = await t.h.rejected(t.gm, Attack(character_id=b, equipment="カタナ", targets=[a]))
    assert err.code == "rule/chabu/declaration_pending"
    err = await t.h.rejected(t.pl2, Decline(character_id=b))
    assert err.code == "command/forbidden"
