"""Chat commands of 秘伝の声 (docs/rulesets/hiden.md), through the core's chat path."""

from __future__ import annotations

import pytest

from taku.core.commands import Chat
from taku.core.events import ChatPosted, DiceRolled
from taku_hiden.commands import Check
from taku_hiden.events import CheckRerolled, CheckRolled, OpposedRolled

from .conftest import MakeTable


async def test_check_against_a_difficulty(make_table: MakeTable) -> None:
    """``HD3@2``: 2D[5,5] + 3 = 13 against 難易度2 + 2D[2,2] = 6."""
    t = await make_table()
    t.h.roll(2, 2, 5, 5)
    (ev,) = await t.h.chat(t.pl, "HD3@2 忍び込む")
    assert isinstance(ev, CheckRolled)
    assert ev.side.value == 13 and ev.target is not None and ev.target.value == 6 and ev.success is True
    assert ev.label == "HD3@2 忍び込む" and ev.side.name == "たろう"


async def test_check_against_a_difficulty_with_simple_target(make_table: MakeTable) -> None:
    """``HD2+1@4`` with the simple-target option: 2D[2,3] + 3 = 8 against 4 + 7 = 11."""
    t = await make_table(options={"simple_target": True})
    t.h.roll(2, 3)
    (ev,) = await t.h.chat(t.pl, "ＨＤ２＋１＠４")
    assert isinstance(ev, CheckRolled) and ev.side.value == 8 and ev.target is not None
    assert ev.target.value == 11 and ev.success is False


@pytest.mark.parametrize(
    ("text", "faces", "success"),
    [
        ("HD5>=10", (2, 3), True),
        ("hd5>=11", (2, 3), False),
        ("HD-1>=3", (6, 6, 1, 1), True),  # 6ゾロ: +2D, succeeds (G-HD-01)
        ("HD20>=3", (1, 1), False),  # 1ゾロ fails whatever the sum
    ],
)
async def test_check_against_a_fixed_target(
    make_table: MakeTable, text: str, faces: tuple[int, ...], success: bool
) -> None:
    """``HD5>=10``: a fixed 目標値; 6ゾロ and 1ゾロ apply."""
    t = await make_table()
    t.h.roll(*faces)
    (ev,) = await t.h.chat(t.pl, text)
    assert isinstance(ev, CheckRolled) and ev.success is success


async def test_value_only(make_table: MakeTable) -> None:
    """``HD4``: the 判定値 alone."""
    t = await make_table()
    t.h.roll(3, 4)
    (ev,) = await t.h.chat(t.pl, "HD4")
    assert isinstance(ev, CheckRolled) and ev.side.value == 11 and ev.target is None and ev.success is None


@pytest.mark.parametrize(
    ("text", "faces", "winner", "compared"),
    [
        ("HD3VS3", (4, 3, 4, 3), 1, (10, 10)),
        ("HD3VS3", (4, 3, 4, 2), 0, (10, 9)),
        ("HD3VS1", (1, 1, 1, 1), 0, (5, 3)),  # both 1ゾロ: 2D counts as 2
    ],
)
async def test_opposed(
    make_table: MakeTable, text: str, faces: tuple[int, ...], winner: int, compared: tuple[int, int]
) -> None:
    """``HD3VS3``: the first value is the second's target; a tie goes to the second by default."""
    t = await make_table()
    t.h.roll(*faces)
    (ev,) = await t.h.chat(t.pl, text)
    assert isinstance(ev, OpposedRolled) and ev.winner == winner and ev.compared == compared


async def test_cushion_reroll_by_chat(make_table: MakeTable) -> None:
    """``ZR`` / ``座布団``: spend a 座布団 on the latest check of your character."""
    t = await make_table()
    t.h.roll(1, 2)
    (check,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", target=9))
    assert isinstance(check, CheckRolled)
    t.h.roll(3, 3)
    (ev,) = await t.h.chat(t.pl, "ZR")
    assert isinstance(ev, CheckRerolled) and ev.side.value == 9 and ev.success is True and ev.zabuton_left == 1
    t.h.roll(1, 1)
    (ev,) = await t.h.chat(t.pl, f"座布団 {check.check_id}")
    assert isinstance(ev, CheckRerolled) and ev.success is False and ev.zabuton_left == 0
    assert (await t.h.rejected(t.pl, Chat(text="ZR"))).code == "rule/hiden/no_zabuton"


async def test_plain_bcdice_and_chat_still_work(make_table: MakeTable) -> None:
    """``2D6+3>=9`` goes to the generic dice; other text is chat; the difficulty table can be posted."""
    t = await make_table()
    t.h.roll(3, 3)
    (ev,) = await t.h.chat(t.pl, "2D6+3>=9")
    assert isinstance(ev, DiceRolled) and ev.total == 9 and ev.success is True
    (ev,) = await t.h.chat(t.pl, "HDDVDを観た")
    assert isinstance(ev, ChatPosted)
    (ev,) = await t.h.chat(t.pl, "難易度表")
    assert isinstance(ev, ChatPosted) and "名人の域。" in ev.text and "簡易目標値17" in ev.text
