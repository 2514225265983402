"""BCDice NinjaSlayer2-compatible chat commands: for the same faces, the same results as BCDice.

The vectors are ours; the ones marked (BCDice test) repeat the faces and output
lines of BCDice's own NinjaSlayer2 test data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.events import DiceRolled, Redacted
from taku_nstrpg import events as ev

Make = Callable[..., Awaitable[Any]]


async def roll(ns: Make, text: str, *faces: int) -> DiceRolled:
    t = await ns()
    t.roll(*faces)
    (e,) = await t.h.chat(t.pl, text)
    assert isinstance(e, DiceRolled)
    t.assert_dice_used()
    return e


@pytest.mark.parametrize(
    ("text", "faces", "line", "successes"),
    [
        ("K5", (4, 6, 3, 1, 5), "(5B6>=2) ＞ 4,6,3,1,5 ＞ 成功数:4", 4),  # (BCDice test)
        ("E5", (4, 6, 3, 1, 5), "(5B6>=3) ＞ 4,6,3,1,5 ＞ 成功数:4", 4),  # (BCDice test)
        ("N5", (4, 6, 3, 1, 5), "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3", 3),  # (BCDice test)
        ("H5", (4, 6, 3, 1, 5), "(5B6>=5) ＞ 4,6,3,1,5 ＞ 成功数:2", 2),  # (BCDice test)
        ("U5", (4, 2, 3, 1, 5), "(5B6>=6) ＞ 4,2,3,1,5 ＞ 成功数:0", 0),  # (BCDice test)
        ("UH4", (6, 2, 6, 1), "(4B6>=6) ＞ 6,2,6,1 ＞ 成功数:2", 2),
        ("n3", (4, 4, 1), "(3B6>=4) ＞ 4,4,1 ＞ 成功数:2", 2),
        ("Ｎ３", (4, 4, 1), "(3B6>=4) ＞ 4,4,1 ＞ 成功数:2", 2),
    ],
)
async def test_single_pools(ns: Make, text: str, faces: tuple[int, ...], line: str, successes: int) -> None:
    """A letter and a pool: BCDice's line and success count."""
    e = await roll(ns, text, *faces)
    assert (e.result, e.successes, e.success) == (line, successes, successes > 0)


async def test_several_pools_and_counts(ns: Make) -> None:
    """(BCDice test) ``N5,3,4[!=1]``: three NORMAL pools, each with its 追加判定 count."""
    e = await roll(ns, "N5,3,4[!=1]", 4, 6, 3, 1, 5, 1, 1, 2, 6, 6, 1, 2)
    assert e.result.split("\n") == [
        "(5B6>=4) ＞ 4,6,3,1,5 ＞ 成功数:3, 追加判定:4[6,5,4,3]",
        "(3B6>=4) ＞ 1,1,2 ＞ 成功数:0, 追加判定:1[2]",
        "(4B6>=4) ＞ 6,6,1,2 ＞ 成功数:2, 追加判定:3[6,6,2]",
    ]
    assert e.successes == 5


async def test_letter_inheritance(ns: Make) -> None:
    """``E1,N2,H3`` one letter each; ``H2,3`` the second pool inherits HARD."""
    e = await roll(ns, "E1,N2,H3", 3, 4, 3, 5, 4, 4)
    assert [x.split(" ")[0] for x in e.result.split("\n")] == ["(1B6>=3)", "(2B6>=4)", "(3B6>=5)"]
    assert e.successes == 1 + 1 + 1
    e = await roll(ns, "H2,3", 5, 1, 5, 5, 1)
    assert [x.split(" ")[0] for x in e.result.split("\n")] == ["(2B6>=5)", "(3B6>=5)"]


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [("N3[>=5]", (5, 6, 1), ", 追加判定:2[6,5]"), ("N3[<3]", (5, 2, 1), ", 追加判定:2[2,1]"), ("N3[=6]", (5, 2, 1), ", 追加判定:0"),
     ("N3[>4]", (5, 4, 6), ", 追加判定:2[6,5]"), ("N3[<=4]", (5, 4, 6), ", 追加判定:1[4]")],
)
async def test_comparison_appendices(ns: Make, text: str, faces: tuple[int, ...], expected: str) -> None:
    """``[>=y]`` and the other operators count the dice that meet them."""
    assert (await roll(ns, text, *faces)).result.endswith(expected)


@pytest.mark.parametrize(
    ("text", "faces", "tail"),
    [
        ("N4[S]", (2, 2, 6, 6), " ＞ サツバツ!!"),
        ("N5[S]", (6, 6, 6, 2, 1), " ＞ ナムアミダブツ!!"),
        ("N4[S]", (2, 2, 6, 5), ""),
        ("N4[S66+]", (6, 6, 1, 1), " ＞ サツバツ!!"),
        ("N5[S65/665+]", (1, 4, 4, 5, 6), " ＞ サツバツ!!"),
        ("N5[S65/665+]", (6, 6, 5, 1, 1), " ＞ ナムアミダブツ!!"),
        ("N6[S666/6666]", (6, 6, 4, 3, 1, 1), ""),
        ("N6[S666/6666]", (6, 6, 6, 3, 1, 1), " ＞ サツバツ!!"),
        ("N3[C]", (6, 6, 1), " ＞ クリティカル!!"),
        ("N3[C5+]", (5, 1, 1), " ＞ クリティカル!!"),
        ("UH3:3[S]", (6, 6, 1), ""),  # 【6,6】 on a failed check: no サツバツ! (G-NS-04)
    ],
)
async def test_criticals(ns: Make, text: str, faces: tuple[int, ...], tail: str) -> None:
    """``[S]``, ``[S66+]``, ``[S65/665+]`` and ``[C…]``: サツバツ!/ナムアミダブツ!/クリティカル! by pattern."""
    e = await roll(ns, text, *faces)
    if tail:
        assert e.result.endswith(tail)
    else:
        assert "!!" not in e.result


async def test_pattern_appendix(ns: Make) -> None:
    """``[665+]``: an all-of pattern, each element its own die."""
    assert (await roll(ns, "N3[665+]", 6, 5, 6)).result.endswith(", 【6,6,5+】:成立")
    assert (await roll(ns, "N3[665+]", 6, 6, 4)).result.endswith(", 【6,6,5+】:不成立")


@pytest.mark.parametrize(("text", "expected"), [("UH3:6", 4), ("UH2:6", 5), ("UH6", 6)])
async def test_beyond_bcdice_uh2(ns: Make, text: str, expected: int) -> None:
    """NS-EX-05: ``UH3:6`` etc. count successes as the rulebook does."""
    e = await roll(ns, text, 6, 6, 6, 6, 6, 6)
    assert e.successes == expected


async def test_satsubatsu_table(ns: Make) -> None:
    """(BCDice test) ``SB`` rolls the table; ``SB@6`` names the row."""
    e = await roll(ns, "SB", 3)
    assert e.result == (
        "サツバツ!!(D6) ＞ (3) ＞ 「苦しみ抜いて死ぬがいい!」急所や内臓を情け容赦なく破壊! \n"
        "『痛打+1』。敵の【体力】を減らした場合、付属効果として『ニューロンダメージ1』と『精神力ダメージ2』と『●部位損傷:胴体』を与える。"
    )
    e = await roll(ns, "SB@6")
    assert e.rolls == () and e.result.startswith("サツバツ!!(6) ＞ 「さらばだ!") and "即死耐性" in e.result


async def test_wasshoi(ns: Make) -> None:
    """(BCDice test) ``WS8``: 4+5 fails, 3+1 succeeds."""
    assert (await roll(ns, "WS8", 4, 5)).result == "Wasshoi!判定(2D6) ＞ (4+5) ＞ 9(>8) 判定失敗"
    e = await roll(ns, "WS8", 3, 1)
    assert e.result == "Wasshoi!判定(2D6) ＞ (3+1) ＞ 4(<=8) 判定成功!! \nニンジャスレイヤー=サンのエントリーだ!!"
    assert e.success is True


async def test_wasshoi_entry(ns: Make) -> None:
    """(BCDice test) ``WSE`` rolls the entry table; ``WSE@6`` names it (連続側転 +2)."""
    e = await roll(ns, "WSE", 4)
    assert e.result.startswith("ニンジャスレイヤー=サンのエントリー!!(D6) ＞ (4) ＞ 天井破壊や床破砕") and "+1される" in e.result
    e = await roll(ns, "WSE@6")
    assert e.result.startswith("ニンジャスレイヤー=サンのエントリー!!(6) ＞ 「行き先はジゴクですよ」") and "+2される" in e.result


async def test_secret_and_comment(ns: Make) -> None:
    """A leading ``S`` hides the roll from the others; text after a space is a comment."""
    t = await ns()
    t.roll(4, 4)
    (e,) = await t.h.chat(t.pl, "SN2 こっそり")
    assert isinstance(e, DiceRolled) and e.secret and e.comment == "こっそり"
    frames = await t.h.frames(None)
    assert frames[-1]["event"]["type"] == Redacted.__struct_config__.tag
    t.roll(2)
    (e,) = await t.h.chat(t.pl, "SSB")
    assert isinstance(e, DiceRolled) and e.secret and e.result.startswith("サツバツ!!(D6) ＞ (2)")


async def test_plain_chat_and_generic_dice_still_work(ns: Make) -> None:
    """Lines that are not ours fall through: plain chat, and the core's 2D6."""
    t = await ns()
    (e,) = await t.h.chat(t.pl, "ドーモ")
    assert type(e).__name__ == "ChatPosted"
    t.roll(3, 4)
    (e,) = await t.h.chat(t.pl, "2D6")
    assert isinstance(e, DiceRolled) and e.total == 7


async def test_character_check_command(ns: Make) -> None:
    """``ワザマエ判定:HARD``: the pool from the speaker's character (modifiers applied), a check event."""
    t = await ns()
    me = await t.pc("ボブ", wazamae=3)
    t.roll(5, 1, 1)
    (c,) = await t.h.chat(t.pl, "ワザマエ判定:HARD 警報装置")
    assert isinstance(c, ev.CheckRolled)
    assert (c.character_id, c.pool, c.difficulty, c.successes, c.label) == (me, 3, 5, 1, "警報装置")
    t.roll(5, 1, 1, 1, 1)
    (c,) = await t.h.chat(t.pl, "ワザマエ+2:UH")
    assert isinstance(c, ev.CheckRolled) and c.pool == 5 and c.successes == 0


async def test_dice_limit(ns: Make) -> None:
    """Too many dice is an error with a code, nothing written."""
    t = await ns()
    from taku.core.commands import Chat

    err = await t.h.rejected(t.pl, Chat(text="N300"))
    assert err.code == "dice/too_many_dice"


async def test_character_check_spoken_as_a_character(ns: Make) -> None:
    """With two characters, a check spoken as one of them (chat as that character) uses its sheet."""
    t = await ns()
    await t.pc("ボブ", wazamae=3)
    kevin = await t.pc("ケヴィン", wazamae=5)
    from taku.core.commands import Chat

    err = await t.h.rejected(t.pl, Chat(text="ワザマエ判定"))
    assert err.code == "command/which_character"
    t.roll(4, 1, 1, 1, 6)
    (c,) = await t.h.chat(t.pl, "ワザマエ判定", character_id=kevin)
    assert isinstance(c, ev.CheckRolled) and (c.character_id, c.pool, c.successes) == (kevin, 5, 2)
