"""2D9 and D99 checks, the key number, 対決 and the chat dice (CHECKLIST YD-01 … YD-15).

Dice are d10s read 0-9: a scripted face 10 is a 0 (G-YD-01).
"""

from __future__ import annotations

from typing import Any

import pytest

from taku.core.commands import Override
from taku.errors import Rejected
from taku_yodomi import commands as C
from taku_yodomi.events import CheckRolled, ContestResolved


def _check(events: list[Any]) -> Any:
    return next(e.check for e in events if isinstance(e, CheckRolled))


async def _key(yd: Any, cid: str, key: int) -> None:
    await yd.h.send(yd.h.gm, Override(path=["game", "chars", cid, "key_number"], value=key))


async def test_2d9_success_at_difficulty(yd: Any) -> None:
    """YD-03: 達成値 = 判定値 + dice + modifiers; reaching the difficulty succeeds."""
    yd.h.roll(3, 4)
    k = _check(
        await yd.h.send(
            yd.pa, C.RollCheck(character_id=yd.a, value=2, ability="体", modifier=1, difficulty=15)
        )
    )
    assert k.value == 2 + 5 + 3 + 4 + 1 and k.success is True
    assert yd.h.dice.sizes == [10, 10]  # 2D9: two d10 read 0-9 (G-YD-01)
    yd.h.roll(3, 3 + 1)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=1, difficulty=10)))
    assert k.value == 8 and k.success is False


@pytest.mark.parametrize("face", [1, 5, 9])
async def test_2d9_double_is_critical_plus_10(yd: Any, face: int) -> None:
    """YD-06: any double but 0-0 is an automatic success with +10."""
    yd.h.roll(face, face)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=3, difficulty=99)))
    assert k.critical and not k.key_critical and k.success is True
    assert k.value == 3 + 2 * face + 10


async def test_key_number_double_counts_as_30(yd: Any) -> None:
    """YD-07, G-YD-04: a double of the key number counts as dice 30 (no +10 on top)."""
    await _key(yd, yd.a, 7)
    yd.h.roll(7, 7)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=4, modifier=2)))
    assert k.key_critical and k.critical and k.value == 4 + 30 + 2


async def test_key_critical_modes_from_options(new_table: Any) -> None:
    """G-YD-04 options: ``rerolled`` makes any double after a key-number reroll count 30, with the bonus option +10."""
    yd = await new_table(options={"key_critical": "rerolled", "key_critical_bonus": True})
    await _key(yd, yd.a, 3)
    yd.h.roll(3, 5, 6, 6)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=1, key_reroll=True)))
    assert k.rerolled and k.key_critical and k.value == 1 + 30 + 10


async def test_2d9_fumble_is_zero_and_refuses_flow(new_table: Any, order: Any) -> None:
    """YD-08: 0-0 is an automatic failure, 達成値 0, and no 流れ may be added."""
    yd = await new_table(shuffles=[order("♦10")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a))
    yd.h.roll(10, 10)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=12, difficulty=3)))
    assert k.fumble and k.value == 0 and k.success is False
    err = await yd.h.rejected(yd.pa, C.PlayCards(check_id=k.check_id, cards=["♦10"]))
    assert err.code == "rule/yodomi/fumble_no_flow"
    yd.h.roll(10, 10)
    ev, kept = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=12, cards=["♦10"]))
    assert ev.check.fumble and ev.check.value == 0 and ev.check.cards == ()  # the card is not spent
    assert kept.cards == ("♦10",)  # yodomi.cards_kept, hidden like the hand
    assert yd.game.hands[yd.a] == ["♦10"]


async def test_key_number_reroll_once(yd: Any) -> None:
    """YD-09, G-YD-03: a die showing the key number rerolls both dice, once per check."""
    await _key(yd, yd.a, 4)
    yd.h.roll(4, 1, 4, 2)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=0, key_reroll=True)))
    assert k.rerolled and k.faces == (4, 2) and k.value == 6 and len(k.rolls) == 2
    assert yd.h.dice.sizes == [10] * 4
    yd.h.roll(4, 1)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=0)))
    assert not k.rerolled and k.value == 5


async def test_d99_success_strictly_below_target(yd: Any) -> None:
    """YD-11: D99 succeeds only below the target (未満); tens then units."""
    yd.h.roll(4, 10)  # 40
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=40)))
    assert k.value == 40 and k.target == 40 and k.success is False
    assert yd.h.dice.sizes == [10, 10]  # D99: two d10, tens then units
    yd.h.roll(3, 9)  # 39
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=40)))
    assert k.value == 39 and k.success is True


async def test_d99_critical_and_fumble(yd: Any) -> None:
    """YD-12: 11 … 99 succeed even over the target; 00 fails even under it."""
    yd.h.roll(8, 8)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=10)))
    assert k.value == 88 and k.critical and k.success is True
    yd.h.roll(10, 10)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=99)))
    assert k.value == 0 and k.fumble and k.success is False


async def test_d99_pp_target_with_modifier(yd: Any) -> None:
    """YD-11: the target is usually 【PP】, raised by an ability as the GM says."""
    yd.h.roll(4, 4 + 1)
    k = _check(
        await yd.h.send(
            yd.pa,
            C.RollCheck(character_id=yd.a, kind="d99", add_pp=True, ability="知", modifier=-10),
        )
    )
    assert k.target == 40 + 3 - 10 and k.value == 45 and k.success is False


async def test_reaction_wins_ties(yd: Any) -> None:
    """YD-14: the higher 達成値 wins; equal 達成値 go to the reaction side."""
    yd.h.roll(3, 4, 2, 5)
    act = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=5)))
    rea = _check(await yd.h.send(yd.pb, C.RollCheck(character_id=yd.b, value=5)))
    assert act.value == rea.value == 12
    (res,) = await yd.h.send(
        yd.h.gm, C.Contest(action_check=act.check_id, reaction_check=rea.check_id)
    )
    assert isinstance(res, ContestResolved) and res.winner == "reaction"
    yd.h.roll(3, 5, 2, 5)
    act = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=5)))
    rea = _check(await yd.h.send(yd.pb, C.RollCheck(character_id=yd.b, value=5)))
    (res,) = await yd.h.send(
        yd.pa, C.Contest(action_check=act.check_id, reaction_check=rea.check_id)
    )
    assert res.winner == "action"


async def test_side_that_cannot_roll_uses_its_value(yd: Any) -> None:
    """YD-15: a reaction side that cannot roll has 判定値 + modifiers as its 達成値."""
    k = _check(
        await yd.h.send(yd.pb, C.RollCheck(character_id=yd.b, value=9, modifier=2, no_roll=True))
    )
    assert k.rolls == () and k.value == 11


async def test_no_contest_on_d99(yd: Any) -> None:
    """YD-14: D99 checks are never opposed."""
    yd.h.roll(1, 2, 3, 4)
    a = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=50)))
    b = _check(await yd.h.send(yd.pb, C.RollCheck(character_id=yd.b, kind="d99", value=50)))
    err = await yd.h.rejected(
        yd.h.gm, C.Contest(action_check=a.check_id, reaction_check=b.check_id)
    )
    assert err.code == "rule/yodomi/no_d99_contest"


@pytest.mark.parametrize("status", ["転倒", "放心", "極技"])
async def test_status_penalties_add_up(yd: Any, status: str) -> None:
    """YD-55, YD-58, YD-61, G-YD-17: -10 to every 達成値 each, and they stack."""
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status=status, by=yd.e))
    yd.h.roll(5, 6)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=20)))
    assert k.penalty == 10 and k.value == 20 + 11 - 10
    other = "放心" if status != "放心" else "重圧"
    await yd.h.send(yd.h.gm, C.AddStatus(character_id=yd.a, status=other))
    yd.h.roll(5, 6)
    k = _check(await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=20)))
    assert k.penalty == (20 if other == "放心" else 10)


async def test_players_roll_only_their_own_characters(yd: Any) -> None:
    """A player cannot roll for another player's character."""
    err = await yd.h.rejected(yd.pb, C.RollCheck(character_id=yd.a, value=1))
    assert err.code == "command/forbidden"


# --------------------------------------------------------------------------- chat


async def test_chat_2d9_with_difficulty(yd: Any) -> None:
    """Chat ``2D9+5>=12``: 判定値 5 against difficulty 12."""
    yd.h.roll(3, 4)
    (ev,) = await yd.h.chat(yd.pa, "2D9+5>=12 斬りかかる")
    assert isinstance(ev, CheckRolled) and ev.check.value == 12 and ev.check.success is True
    assert ev.check.label.endswith("斬りかかる")


async def test_chat_key_number_reroll_and_30(yd: Any) -> None:
    """Chat ``@K``: the key number rerolls once and a K-double counts 30."""
    yd.h.roll(7, 2, 7, 7)
    (ev,) = await yd.h.chat(yd.pa, "２Ｄ９＋３@7")
    assert ev.check.rerolled and ev.check.key_critical and ev.check.value == 33


async def test_chat_d99_below_target(yd: Any) -> None:
    """Chat ``D99<50+10``: success below 60; 00 is a fumble."""
    yd.h.roll(5, 9)
    (ev,) = await yd.h.chat(yd.pb, "D99<50+10")
    assert ev.check.value == 59 and ev.check.target == 60 and ev.check.success is True
    yd.h.roll(10, 10)
    (ev,) = await yd.h.chat(yd.pb, "d99<99")
    assert ev.check.fumble and ev.check.success is False


async def test_chat_other_lines_stay_chat(yd: Any) -> None:
    """Plain words and generic dice fall through to the core."""
    (ev,) = await yd.h.chat(yd.pa, "こんにちは")
    assert type(ev).__name__ == "ChatPosted"
    yd.h.roll(3)
    (ev,) = await yd.h.chat(yd.pa, "1D6")
    assert type(ev).__name__ == "DiceRolled"


def test_rejections_carry_sections() -> None:
    """A rejection names its rule code and rulebook section."""
    from taku_yodomi._common import reject

    with pytest.raises(Rejected) as info:
        reject("x", "msg", "澱み流れ ▼ファンブル")
    assert info.value.code == "rule/yodomi/x" and info.value.section.startswith("澱み流れ")
