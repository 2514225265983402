"""NRS判定 and the NRS発狂表 in BCDice's NinjaSlayer2 syntax, over the chat command path.

The vectors are written from BCDice's ``proc_nrs`` (``lib/bcdice/game_system/NinjaSlayer2.rb``):
the check is ``nB6>=target`` (E 3, N 4, H 5, U/UH 6), one success overcomes it, and on failure
the 発狂表 is rolled with 1D3 (E), 1D6 (N) or 1D6+1 (H, U) unless ``@row`` names the row.
Each vector gives the scripted faces, the text and BCDice's success flag.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from taku.core.commands import Chat
from taku.core.events import DiceRolled
from taku.testing.harness import TableHarness
from taku_nstrpg.nrs import NRS_TABLE

Make = Callable[..., Awaitable[Any]]

_SCREAM = NRS_TABLE[0]
_PANIC = NRS_TABLE[2]
_FAINT = NRS_TABLE[5]
_HEART = NRS_TABLE[6]

# (input, d6 faces of the check, (sides, face) of the table die or None, text, flag, row)
VECTORS: list[tuple[str, tuple[int, ...], tuple[int, int] | None, str, bool, int | None]] = [
    ("NRS_E4", (1, 2, 3, 4), None, "NRS判定(4B6>=3) ＞ 1,2,3,4 ＞ 成功数:2 NRS克服!!", True, None),
    ("NRS_N3", (3, 3, 4), None, "NRS判定(3B6>=4) ＞ 3,3,4 ＞ 成功数:1 NRS克服!!", True, None),
    ("NRS_H2", (6, 5), None, "NRS判定(2B6>=5) ＞ 6,5 ＞ 成功数:2 NRS克服!!", True, None),
    ("NRS_U1", (6,), None, "NRS判定(1B6>=6) ＞ 6 ＞ 成功数:1 NRS克服!!", True, None),
    (
        "NRS_E4",
        (1, 1, 1, 1),
        (3, 3),
        f"NRS判定(4B6>=3) ＞ 1,1,1,1 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D3) ＞ (3) ＞ {_PANIC}",
        False,
        3,
    ),
    (
        "NRS_E2",
        (2, 2),
        (3, 1),
        f"NRS判定(2B6>=3) ＞ 2,2 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D3) ＞ (1) ＞ {_SCREAM}",
        False,
        1,
    ),
    (
        "NRS_N4",
        (3, 2, 1, 3),
        (6, 6),
        f"NRS判定(4B6>=4) ＞ 3,2,1,3 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D6) ＞ (6) ＞ {_FAINT}",
        False,
        6,
    ),
    (
        "NRS_H4",
        (1, 4, 1, 4),
        (6, 5),
        f"NRS判定(4B6>=5) ＞ 1,4,1,4 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D6+1) ＞ (6) ＞ {_FAINT}",
        False,
        6,
    ),
    (
        "NRS_U4",
        (5, 5, 1, 1),
        (6, 6),
        f"NRS判定(4B6>=6) ＞ 5,5,1,1 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D6+1) ＞ (7) ＞ {_HEART}",
        False,
        7,
    ),
    (
        "NRS_H1",
        (4,),
        (6, 1),
        "NRS判定(1B6>=5) ＞ 4 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D6+1) ＞ (2) ＞ " + NRS_TABLE[1],
        False,
        2,
    ),
    (
        "NRS_E4@7",
        (1, 1, 1, 1),
        None,
        f"NRS判定(4B6>=3) ＞ 1,1,1,1 ＞ 成功数:0 NRS発症!! \nNRS発狂(7) ＞ {_HEART}",
        False,
        7,
    ),
    ("NRS_N2@1", (4, 1), None, "NRS判定(2B6>=4) ＞ 4,1 ＞ 成功数:1 NRS克服!!", True, None),
    (
        "NRS_E0",
        (),
        (3, 2),
        "NRS判定(0B6>=3) ＞  ＞ 成功数:0 NRS発症!! \nNRS発狂(1D3) ＞ (2) ＞ " + NRS_TABLE[1],
        False,
        2,
    ),
    ("NRS@7", (), None, f"NRS発狂(7) ＞ {_HEART}", False, 7),
    ("NRS@4", (), None, "NRS発狂(4) ＞ " + NRS_TABLE[3], False, 4),
    # departure: BCDice reads no die for UH (row "(0)", row 7's text); taku rolls U's 1D6+1
    (
        "NRS_UH2",
        (5, 1),
        (6, 3),
        "NRS判定(2B6>=6) ＞ 5,1 ＞ 成功数:0 NRS発症!! \nNRS発狂(1D6+1) ＞ (4) ＞ " + NRS_TABLE[3],
        False,
        4,
    ),
]


@pytest.mark.parametrize(("text", "faces", "table_die", "output", "flag", "row"), VECTORS)
@pytest.mark.parametrize("form", ["plain", "secret_lower_comment"])
async def test_nrs_vector(
    ns: Make,
    form: str,
    text: str,
    faces: tuple[int, ...],
    table_die: tuple[int, int] | None,
    output: str,
    flag: bool,
    row: int | None,
) -> None:
    """Same faces, BCDice's text and flag; every face is in the event, the table die's size too.

    The secret form (``S`` prefix, lower case, a comment) changes neither the text nor the flag.
    """
    t = await ns()
    t.roll(*faces, *([table_die[1]] if table_die else []))
    line = text if form == "plain" else f"S{text.lower()} 地下駐車場にて"
    (e,) = await t.h.chat(t.pl, line)
    assert isinstance(e, DiceRolled)
    assert (e.result, e.success, e.total) == (output, flag, row)
    assert e.secret == (form != "plain")
    assert e.comment == ("" if form == "plain" else "地下駐車場にて")
    recorded = [(r.sides, f) for r in e.rolls for f in r.faces]
    expected = [(6, f) for f in faces] + ([table_die] if table_die else [])
    assert recorded == expected
    target = {"E": 3, "N": 4, "H": 5, "U": 6}.get(text[4:5])
    assert e.successes == (None if target is None else sum(f >= target for f in faces))
    t.assert_dice_used()


@pytest.mark.parametrize(
    ("text", "successes"), [("NRS_E4", 3), ("NRS_N4", 2), ("NRS_H4", 1), ("NRS_U4", 0)]
)
async def test_nrs_successes_follow_the_difficulty(ns: Make, text: str, successes: int) -> None:
    """The same faces 1,3,4,5 count 3 / 2 / 1 / 0 successes at E / N / H / U (3+ / 4+ / 5+ / 6)."""
    t = await ns()
    t.roll(1, 3, 4, 5, *([2] if successes == 0 else []))
    (e,) = await t.h.chat(t.pl, text)
    assert isinstance(e, DiceRolled) and e.successes == successes
    assert e.success is (successes > 0)
    t.assert_dice_used()


@pytest.mark.parametrize("row", range(1, 8))
async def test_every_row_of_the_table(ns: Make, row: int) -> None:
    """``NRS@n`` names row n and rolls nothing; the row's title heads its text."""
    t = await ns()
    (e,) = await t.h.chat(t.pl, f"NRS@{row}")
    assert isinstance(e, DiceRolled) and e.rolls == () and e.total == row
    assert e.result == f"NRS発狂({row}) ＞ {NRS_TABLE[row - 1]}"
    titles = [
        "絶叫",
        "失禁",
        "パニック逃走や異常行動",
        "ドゲザ",
        "激しい嘔吐や鼻血",
        "気絶",
        "心臓発作や狂死",
    ]
    assert NRS_TABLE[row - 1].startswith(titles[row - 1] + " \n")


@pytest.mark.parametrize("bad", ["NRS@8", "NRS@0", "NRS_K3", "NRS_E", "NRS_X2@3", "NRS@"])
async def test_a_bad_nrs_line_is_refused(ns: Make, bad: str) -> None:
    """A malformed NRS line is an error with a code, nothing written, no die rolled."""
    t = await ns()
    assert (await t.h.rejected(t.pl, Chat(text=bad))).code == "dice/invalid"


async def test_too_many_nrs_dice(ns: Make) -> None:
    t = await ns()
    assert (await t.h.rejected(t.pl, Chat(text="NRS_N201"))).code == "dice/too_many_dice"


async def test_bare_nrs_is_plain_chat(ns: Make) -> None:
    """``NRS`` alone (or as the first word of a sentence) is plain chat, as in BCDice."""
    t = await ns()
    (e,) = await t.h.chat(t.pl, "NRS こわい")
    assert type(e).__name__ == "ChatPosted"


async def test_secret_nrs_is_hidden_from_the_others(ns: Make) -> None:
    """``SNRS_E2``: the GM and the roller see it; another player receives a redacted frame."""
    t = await ns()
    t.roll(1, 1, 2)
    (e,) = await t.h.chat(t.pl, "SNRS_E2")
    assert isinstance(e, DiceRolled) and e.secret
    frames = await t.h.frames(None)
    assert frames[-1]["event"]["type"] == "redacted"


async def test_shadowjan_tables_roll_nrs_too() -> None:
    """シャドー・ジャン2 reads nstrpg's ``dice_chat``: NRS works there with the same text."""
    h = await TableHarness.create("shadowjan")
    pl = await h.join("プレイヤー")
    h.roll(2, 2, 1)
    (e,) = await h.chat(pl, "NRS_N2")
    assert isinstance(e, DiceRolled) and e.total == 1 and e.result.endswith(_SCREAM)
    assert h.dice.remaining == []
