"""BCDice NinjaSlayer2-compatible chat commands: for the same faces, the same results as BCDice.

BCDice's own test vectors are replayed in ``test_bcdice_vectors.py``; these rows are ours:
the other appendices, BCDice's all-of (``+``) forms, and where taku goes further.
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
        ("UH4", (6, 2, 6, 1), "(4B6>=6) ＞ 6,2,6,1 ＞ 成功数:2 \n", 2),
        ("n3", (4, 4, 1), "(3B6>=4) ＞ 4,4,1 ＞ 成功数:2 \n", 2),
        ("Ｎ３", (4, 4, 1), "(3B6>=4) ＞ 4,4,1 ＞ 成功数:2 \n", 2),
        ("k1", (1,), "(1B6>=2) ＞ 1 ＞ 成功数:0 \n", 0),
    ],
)
async def test_single_pools(
    ns: Make, text: str, faces: tuple[int, ...], line: str, successes: int
) -> None:
    """A letter and a pool: BCDice's line (`` \\n`` ended) and success count."""
    e = await roll(ns, text, *faces)
    assert (e.result, e.successes, e.success) == (line, successes, successes > 0)


async def test_counting_appendices_decide_the_flag(ns: Make) -> None:
    """As in BCDice, the counts of ``[>=y]`` / ``[S]`` / ``[C]`` join 成功数 in deciding success
    (the event's ``successes`` stays the 成功数)."""
    e = await roll(ns, "U2[<=2]", 1, 2)
    assert (e.result, e.successes, e.success) == (
        "(2B6>=6) ＞ 1,2 ＞ 成功数:0, 追加判定:2[2,1] \n",
        0,
        True,
    )
    e = await roll(ns, "U2[S5]", 5, 1)
    assert (e.result, e.successes, e.success) == (
        "(2B6>=6) ＞ 5,1 ＞ 成功数:0, サツバツ！:1[5] \n",
        0,
        True,
    )
    e = await roll(ns, "U2[=3]", 5, 1)
    assert (e.result, e.success) == ("(2B6>=6) ＞ 5,1 ＞ 成功数:0, 追加判定:0 \n", False)


async def test_letter_inheritance(ns: Make) -> None:
    """``E1,N2,H3`` one letter each; ``H2,3`` the second pool inherits HARD."""
    e = await roll(ns, "E1,N2,H3", 3, 4, 3, 5, 4, 4)
    assert [x.split(" ")[0] for x in e.result.splitlines()] == ["(1B6>=3)", "(2B6>=4)", "(3B6>=5)"]
    assert e.successes == 1 + 1 + 1
    e = await roll(ns, "H2,3", 5, 1, 5, 5, 1)
    assert e.result == "(2B6>=5) ＞ 5,1 ＞ 成功数:1 \n(3B6>=5) ＞ 5,5,1 ＞ 成功数:2 \n"


@pytest.mark.parametrize(
    ("text", "faces", "expected"),
    [
        ("N3[>=5]", (5, 6, 1), ", 追加判定:2[6,5]"),
        ("N3[<3]", (5, 2, 1), ", 追加判定:2[2,1]"),
        ("N3[=6]", (5, 2, 1), ", 追加判定:0"),
        ("N3[>4]", (5, 4, 6), ", 追加判定:2[6,5]"),
        ("N3[<=4]", (5, 4, 6), ", 追加判定:1[4]"),
        ("N3[!=4]", (5, 4, 6), ", 追加判定:2[6,5]"),
        ("N3[=5][=6]", (5, 4, 6), ", 追加判定:1[5], 追加判定:1[6]"),
    ],
)
async def test_comparison_appendices(
    ns: Make, text: str, faces: tuple[int, ...], expected: str
) -> None:
    """``[>=y]`` and the other operators count the dice that meet them (BCDice 追加判定)."""
    assert (await roll(ns, text, *faces)).result.endswith(expected + " \n")


@pytest.mark.parametrize(
    ("text", "faces", "appended"),
    [
        ("N4[S]", (2, 2, 6, 6), ", サツバツ！:2[6,6]"),
        ("N4[S5]", (2, 5, 6, 1), ", サツバツ！:2[6,5]"),
        ("N3[C]", (6, 6, 1), ", クリティカル！:2[6,6]"),
        ("N3[C4]", (1, 2, 3), ", クリティカル！:0"),
        ("N4[S66+]", (6, 6, 1, 1), ", サツバツ！[S66+]"),
        ("N4[S66+]", (6, 5, 1, 1), ""),
        ("n5[s65/665+]", (1, 4, 4, 5, 6), ", サツバツ！[S65/665+]"),
        ("N5[S65/665+]", (6, 6, 5, 1, 1), ", ナムアミダブツ！[S65/665+]"),
        ("N5[S65/665+]", (6, 4, 4, 1, 1), ""),
        ("U2[S5+]", (5, 5), ", サツバツ！[S5+]"),
        ("N3[C66+]", (6, 6, 1), ", クリティカル！[C66+]"),
        ("N3[C5+]", (5, 1, 1), ", クリティカル！[C5+]"),
        ("N3[C66+]", (6, 5, 1), ""),
        ("N3[>=55+]", (5, 6, 1), ", 追加判定成功！[>=55+]"),
        ("N3[>=55+]", (5, 4, 1), ""),
        ("N3[<=12+]", (1, 2, 6), ", 追加判定成功！[<=12+]"),
        ("N4[S66/666+]", (2, 2, 6, 6), ", サツバツ！[S66/666+]"),
        ("N5[S66/666+]", (6, 6, 6, 2, 1), ", ナムアミダブツ！[S66/666+]"),
        ("N4[S66/666+]", (2, 2, 6, 5), ""),
        ("N6[S666/6666]", (6, 6, 4, 3, 1, 1), ""),
        ("N6[S666/6666]", (6, 6, 6, 3, 1, 1), ", サツバツ！[S666/6666]"),
        ("N6[S666/6666]", (6, 6, 6, 6, 1, 1), ", ナムアミダブツ！[S666/6666]"),
    ],
)
async def test_satsubatsu_and_critical_appendices(
    ns: Make, text: str, faces: tuple[int, ...], appended: str
) -> None:
    """``[S]`` / ``[S5]`` / ``[C]`` count (BCDice), the ``+`` forms report サツバツ！ / ナムアミダブツ！ /
    クリティカル! / 追加判定成功! when every digit has its own die, and nothing otherwise — on a
    failed check too (``U2[S5+]``), as BCDice does."""
    e = await roll(ns, text, *faces)
    assert e.result.endswith(f"成功数:{e.successes}{appended} \n")


@pytest.mark.parametrize("bad", ["N3[S7]", "N3[S6,6]", "N3[X]", "N3[C/66+]", "N3[>=7]"])
async def test_bad_appendix(ns: Make, bad: str) -> None:
    """A pool command with an appendix that is no appendix is refused, nothing rolled."""
    t = await ns()
    from taku.core.commands import Chat

    assert (await t.h.rejected(t.pl, Chat(text=bad))).code == "dice/invalid"


async def test_pattern_appendix(ns: Make) -> None:
    """Beyond BCDice: ``[665+]``, a 【】 pattern, each element its own die, 成立 / 不成立."""
    assert (await roll(ns, "N3[665+]", 6, 5, 6)).result.endswith(", 【6,6,5+】:成立 \n")
    assert (await roll(ns, "N3[6,5+]", 6, 4, 1)).result.endswith(", 【6,5+】:不成立 \n")


@pytest.mark.parametrize(("text", "expected"), [("UH3:6", 4), ("UH2:6", 5), ("UH6", 6)])
async def test_beyond_bcdice_uh2(ns: Make, text: str, expected: int) -> None:
    """NS-EX-05: ``UH3:6`` etc. count successes as the rulebook does."""
    e = await roll(ns, text, 6, 6, 6, 6, 6, 6)
    assert e.successes == expected
    if text.startswith("UH3"):
        assert e.result == "(6B6 UH3) ＞ 6,6,6,6,6,6 ＞ 成功数:4 \n"


@pytest.mark.parametrize("n", range(1, 7))
async def test_tables_every_row(ns: Make, n: int) -> None:
    """``SB@n`` / ``WSE@n`` roll nothing; ``SB`` / ``WSE`` roll a d6; the row text is BCDice's
    (full-width marks, `` \\n`` between the parts)."""
    t = await ns()
    (named,) = await t.h.chat(t.pl, f"SB@{n}")
    t.roll(n)
    (rolled,) = await t.h.chat(t.pl, "SB")
    assert named.rolls == () and named.result.startswith(f"サツバツ!!({n}) ＞ 「")
    assert rolled.result == named.result.replace(f"サツバツ!!({n})", f"サツバツ!!(D6) ＞ ({n})")
    assert " \n『" in named.result and "!" not in named.result.split(" ＞ ", 1)[1]
    (named,) = await t.h.chat(t.pl, f"WSE@{n}")
    t.roll(n)
    (rolled,) = await t.h.chat(t.pl, "WSE")
    head = "ニンジャスレイヤー=サンのエントリー!!"
    assert rolled.result == named.result.replace(f"{head}({n})", f"{head}(D6) ＞ ({n})")
    assert ("『連続側転判定』の難易度が+" in named.result) == (n >= 4)
    t.assert_dice_used()


async def test_wasshoi_flags_and_range(ns: Make) -> None:
    """BCDice flags Wasshoi! from the ninjas' side: Ninja Slayer entering is the failure.
    ``WS1`` … ``WS12`` only; ``WS13`` / ``WS0`` are plain chat, as in BCDice."""
    e = await roll(ns, "WS12", 6, 6)
    assert (e.result, e.success, e.total) == (
        "Wasshoi!判定(2D6) ＞ (6+6) ＞ 12(<=12) 判定成功!! \nニンジャスレイヤー=サンのエントリーだ!!",
        False,
        12,
    )
    e = await roll(ns, "WS1", 1, 1)
    assert (e.result, e.success) == ("Wasshoi!判定(2D6) ＞ (1+1) ＞ 2(>1) 判定失敗", True)
    t = await ns()
    for text in ("WS13", "WS0"):
        (e,) = await t.h.chat(t.pl, text)
        assert type(e).__name__ == "ChatPosted"


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


async def test_a_pool_of_no_dice_is_refused(ns: Make) -> None:
    """``N0`` rolls nothing: refused like the generic ``0D6``, nothing written."""
    t = await ns()
    from taku.core.commands import Chat

    for text in ("N0", "K0", "N2,0", "UH0"):
        assert (await t.h.rejected(t.pl, Chat(text=text))).code == "dice/invalid"
