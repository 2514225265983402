"""Who may act, beyond each command's declared permit: commands whose acting character
follows from another field (a check id, an attack id) or from none at all.

The declared permits themselves (GM only, the owner of the named character, any
player) are checked for every command by the conformance kit and the core's
authorization matrix; these are the checks 澱み流れ's decide keeps.
"""

from __future__ import annotations

from typing import Any

from taku_yodomi import commands as C


async def test_流れ_on_anothers_check_is_forbidden(new_table: Any, order: Any) -> None:
    """``play_cards`` names a check: only its character's player (or a GM) may add 流れ to it."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=1))
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=3))
    err = await yd.h.rejected(yd.pb, C.PlayCards(check_id=rolled.check.check_id, cards=["♦10"]))
    assert err.code == "command/forbidden" and "アキラ" in err.details["reason"]


async def test_only_the_targets_controller_defends(yd: Any) -> None:
    """``defend`` names an attack: the defender's player (or a GM) answers it, nobody else."""
    yd.h.roll(5, 5)
    (*_, declared) = await yd.h.send(yd.h.gm, C.Attack(attacker=yd.e, target=yd.a, power=3))
    aid = declared.attack.attack_id
    err = await yd.h.rejected(yd.pb, C.Defend(attack_id=aid, mode="none"))
    assert err.code == "command/forbidden"
    await yd.h.send(yd.pa, C.Defend(attack_id=aid, mode="none"))


async def test_a_contest_is_called_by_the_action_sides_player(yd: Any) -> None:
    yd.h.roll(2, 3, 4, 5)
    (ka,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=3))
    (kb,) = await yd.h.send(yd.pb, C.RollCheck(character_id=yd.b, value=3))
    err = await yd.h.rejected(
        yd.pb, C.Contest(action_check=ka.check.check_id, reaction_check=kb.check.check_id)
    )
    assert err.code == "command/forbidden"
    (res,) = await yd.h.send(
        yd.pa, C.Contest(action_check=ka.check.check_id, reaction_check=kb.check.check_id)
    )
    assert res.winner == "reaction"


async def test_an_anonymous_check_is_the_gms(yd: Any) -> None:
    """``roll_check`` without a character: the GM's alone (a player names their character)."""
    err = await yd.h.rejected(yd.pa, C.RollCheck(value=3))
    assert err.code == "command/forbidden"
    yd.h.roll(1, 1)
    (ev,) = await yd.h.send(yd.h.gm, C.RollCheck(value=3))
    assert ev.check.character_id is None and ev.check.critical
