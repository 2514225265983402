"""Chat commands of 秘伝の声 (docs/rulesets/hiden.md), through the core's chat path."""

from __future__ import annotations

import pytest

from taku.core.commands import Chat
from taku.core.events import ChatPosted, DiceRolled
from taku.core.ruleset import Context
from taku_hiden.commands import Check
from taku_hiden.events import CheckRerolled, CheckRolled, OpposedRolled

from .conftest import MakeTable


async def test_check_against_a_difficulty(make_table: MakeTable) -> None:
    """``HD3@2``: 2D[5,5] + 3 = 13 against 難易度2 + 2D[2,2] = 6."""
    t = await make_table()
    t.h.roll(2, 2, 5, 5)
    (ev,) = await t.h.chat(t.pl, "HD3@2 忍び込む")
    assert isinstance(ev, CheckRolled)
    assert (
        ev.side.value == 13
        and ev.target is not None
        and ev.target.value == 6
        and ev.success is True
    )
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
    assert (
        isinstance(ev, CheckRolled)
        and ev.side.value == 11
        and ev.target is None
        and ev.success is None
    )


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
    assert (
        isinstance(ev, CheckRerolled)
        and ev.side.value == 9
        and ev.success is True
        and ev.zabuton_left == 1
    )
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


async def test_named_character_check(make_table: MakeTable) -> None:
    """``HD:甲:姿隠し@2``: 甲's 《姿隠し》2 + 〈器用〉1 + 2D[4,4] = 11 against 2 + 2D[3,3] = 8; then a 座布団 reroll."""
    t = await make_table()
    t.h.roll(3, 3, 4, 4)
    (ev,) = await t.h.chat(t.pl, "HD:甲:姿隠し@2 塀の陰へ")
    assert isinstance(ev, CheckRolled) and ev.side.character_id == t.kou and ev.side.value == 11
    assert ev.target is not None and ev.target.value == 8 and ev.success is True
    t.h.roll(1, 2)
    (rr,) = await t.h.chat(t.pl, "ZR")
    assert isinstance(rr, CheckRerolled) and rr.check_id == ev.check_id and rr.success is False


@pytest.mark.parametrize(
    ("text", "faces", "value", "success"),
    [
        ("HD:甲:料理/知識+1>=9", (2, 3), 3 + 0 + 1 + 5, True),
        ("HD:甲:/器用", (2, 3), 1 + 5, None),
        ("ＨＤ:甲:《料理》/〈器用〉-2>=8", (3, 3), 3 + 1 - 2 + 6, True),
    ],
)
async def test_named_character_check_forms(
    make_table: MakeTable, text: str, faces: tuple[int, ...], value: int, success: bool | None
) -> None:
    """Skill with an ability, ability-only, brackets and modifiers."""
    t = await make_table()
    t.h.roll(*faces)
    (ev,) = await t.h.chat(t.pl, text)
    assert isinstance(ev, CheckRolled) and ev.side.value == value and ev.success is success


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("HD:乙:探索@1", "command/forbidden"),
        ("HD:丁:探索@1", "command/unknown_character"),
        ("HD:甲:剣術", "rule/hiden/ability_required"),  # lacking 《剣術》: HD-05 needs an ability
        ("HD:甲:姿隠し@", "command/invalid"),
    ],
)
async def test_named_character_check_errors(make_table: MakeTable, text: str, code: str) -> None:
    """A player may not roll the GM's 乙; unknown names and skills get stable codes."""
    t = await make_table()
    assert (await t.h.rejected(t.pl, Chat(text=text))).code == code


SPEAKS_AS = "character_id" in Context.__dataclass_fields__
"""Whether the core tells a ruleset which character a chat line is spoken as."""


@pytest.mark.skipif(
    not SPEAKS_AS, reason="the core does not pass the speaking character to chat yet"
)
async def test_chat_spoken_as_a_character(make_table: MakeTable) -> None:
    """Spoken as 甲: ``HD:姿隠し@2`` is 甲's check, and ``HD3>=9`` is 甲's too, so ``ZR`` spends 甲's 座布団."""
    t = await make_table()
    t.h.roll(3, 3, 2, 2)
    (ev,) = await t.h.chat(t.pl, "HD:姿隠し@2", character_id=t.kou)
    assert isinstance(ev, CheckRolled) and ev.side.character_id == t.kou and ev.side.value == 7
    assert ev.label == "HD:姿隠し@2" and ev.success is False
    t.h.roll(2, 3)
    (ev,) = await t.h.chat(t.pl, "HD3>=9", character_id=t.kou)
    assert isinstance(ev, CheckRolled) and ev.side.character_id == t.kou and ev.side.name == "甲"
    assert ev.side.value == 8 and ev.success is False
    t.h.roll(4, 4)
    (rr,) = await t.h.chat(t.pl, "ZR")
    assert isinstance(rr, CheckRerolled) and rr.check_id == ev.check_id and rr.success is True
    assert t.h.game.characters[t.kou].zabuton == 1
