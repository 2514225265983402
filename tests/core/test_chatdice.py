"""Generic chat dice in BCDice notation: parsing, results and limits (scripted faces)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taku.core import chatdice
from taku.core.dice import Roll, ScriptedDice, SeededDice
from taku.errors import DiceError


def roll(text: str, *faces: int):  # type: ignore[no-untyped-def]
    parsed = chatdice.parse(text)
    assert parsed is not None, text
    dice = ScriptedDice(faces)
    event = parsed.roll(dice)
    assert dice.remaining == [], "the expression rolled fewer dice than scripted"
    return event


@pytest.mark.parametrize(
    ("text", "faces", "result", "total", "success"),
    [
        ("2D6", (3, 4), "(2D6) ＞ 7[3,4] ＞ 7", 7, None),
        ("1D6", (5,), "(1D6) ＞ 5", 5, None),
        ("1D1", (1,), "(1D1) ＞ 1", 1, None),
        ("1D6+0", (5,), "(1D6+0) ＞ 5[5]+0 ＞ 5", 5, None),
        ("D6", (2,), "(D6) ＞ 2", 2, None),
        ("3D6+2>=10", (1, 3, 4), "(3D6+2>=10) ＞ 8[1,3,4]+2 ＞ 10 ＞ 成功", 10, True),
        ("3D6+2>=10", (1, 3, 3), "(3D6+2>=10) ＞ 7[1,3,3]+2 ＞ 9 ＞ 失敗", 9, False),
        ("1D100<=50", (50,), "(1D100<=50) ＞ 50 ＞ 成功", 50, True),
        ("1D100<=50", (51,), "(1D100<=50) ＞ 51 ＞ 失敗", 51, False),
        ("2D6+1D4-1", (6, 6, 4), "(2D6+1D4-1) ＞ 12[6,6]+4[4]-1 ＞ 15", 15, None),
        ("2D6>7", (3, 4), "(2D6>7) ＞ 7[3,4] ＞ 7 ＞ 失敗", 7, False),
        ("2D6<>7", (3, 4), "(2D6<>7) ＞ 7[3,4] ＞ 7 ＞ 失敗", 7, False),
        ("2D6=7", (3, 4), "(2D6=7) ＞ 7[3,4] ＞ 7 ＞ 成功", 7, True),
        ("２ｄ６＋１", (1, 1), "(2D6+1) ＞ 2[1,1]+1 ＞ 3", 3, None),
    ],
)
def test_sums_match_bcdice(
    text: str, faces: tuple[int, ...], result: str, total: int, success: bool | None
) -> None:
    """Sums with and without a target read like BCDice's output for the same faces."""
    event = roll(text, *faces)
    assert event.result == result
    assert event.total == total and event.success is success


def test_d66_reads_tens_then_units() -> None:
    """D66 keeps the order rolled; D66S sorts ascending."""
    assert roll("D66", 5, 2).total == 52
    assert roll("D66N", 5, 2).total == 52
    assert roll("D66S", 5, 2).total == 25


def test_barabara_counts_dice_meeting_the_target() -> None:
    """4B6>=4 counts successes; 4B6 lists the faces."""
    event = roll("4B6>=4", 2, 5, 4, 6)
    assert event.successes == 3 and event.result == "(4B6>=4) ＞ 2,5,4,6 ＞ 成功数3"
    assert roll("3B6", 1, 2, 3).result == "(3B6) ＞ 1,2,3"
    assert roll("2B6+2B10>=5", 5, 1, 10, 4).successes == 2


def test_secret_prefix_and_comment() -> None:
    """A leading S makes the roll secret; text after a space is a comment."""
    event = roll("S2D6>=8 見張りに気づくか", 4, 4)
    assert event.secret and event.comment == "見張りに気づくか" and event.success is True


@pytest.mark.parametrize(
    "text",
    [
        "hello",
        "2D",
        "D",
        "こんにちは 2D6",
        "S",
        "2D6>=",
        "+",
        "",
        "5",
        "1+2",
        "-3",
        "1+2>=3",
        "S5",
        "4B",
        "B6",
        "D66X",
    ],
)
def test_plain_chat_is_not_dice(text: str) -> None:
    """A line without a die is chat, even a bare number or a sum of numbers."""
    assert chatdice.parse(text) is None


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        ("201D6", "dice/too_many_dice", "at most 200 dice in one roll"),
        ("100D6+101D6", "dice/too_many_dice", "at most 200 dice in one roll"),
        ("201B6", "dice/too_many_dice", "at most 200 dice in one roll"),
        ("1D1001", "dice/too_many_faces", "a die may have at most 1000 faces"),
        ("2B1001>=3", "dice/too_many_faces", "a die may have at most 1000 faces"),
        ("2D0", "dice/invalid", "a die needs at least one face"),
        ("1D6+2D0", "dice/invalid", "a die needs at least one face"),
        ("2B0", "dice/invalid", "a die needs at least one face"),
        ("0D6", "dice/invalid", "roll at least one die"),
        ("0B6>=3", "dice/invalid", "roll at least one die"),
        ("2D6+99999999999999999999", "dice/invalid", "numbers in a roll are at most 1000000"),
        ("1D6+1000001", "dice/invalid", "numbers in a roll are at most 1000000"),
        ("1D100<=10000000", "dice/invalid", "numbers in a roll are at most 1000000"),
        ("1D100>=-1000001", "dice/invalid", "numbers in a roll are at most 1000000"),
        ("4B6>=1000001", "dice/invalid", "numbers in a roll are at most 1000000"),
    ],
)
def test_limits(text: str, code: str, message: str) -> None:
    """More than 200 dice or more than 1000 faces is an error with its own code."""
    with pytest.raises(DiceError, match=f"^{message}$") as e:
        chatdice.parse(text)
    assert e.value.code == code


@pytest.mark.parametrize(
    "text",
    [
        "200D6",
        "100D6+100D6",
        "1D1000",
        "200B1000>=1000",
        "1D6+1000000",
        "1D100<=1000000",
        "1D6>=-1000000",
    ],
)
def test_the_limits_themselves_are_rollable(text: str) -> None:
    """200 dice, a d1000 and numbers up to 1,000,000 (either sign) are still a roll."""
    event = chatdice.parse_strict(text).roll(SeededDice(b"k" * 32))
    assert sum(len(r.faces) for r in event.rolls) == sum(
        int(c) for c in re.findall(r"(\d+)[DB]", text)
    )


def test_parse_strict_refuses_plain_chat_with_its_code() -> None:
    with pytest.raises(DiceError, match=r"^not a dice expression: 'こんにちは'$") as e:
        chatdice.parse_strict("こんにちは")
    assert e.value.code == "dice/invalid"


@given(
    n=st.integers(1, 200),
    sides=st.integers(1, 1000),
    mod=st.integers(-50, 50),
    target=st.integers(-10, 300),
)
def test_sum_total_is_faces_plus_modifier(n: int, sides: int, mod: int, target: int) -> None:
    """For any NdM+k>=t, the total is the faces' sum plus k and success is total >= t."""
    expr = f"{n}D{sides}{mod:+d}>={target}"
    event = chatdice.parse_strict(expr).roll(SeededDice(b"k" * 32))
    (r,) = event.rolls
    assert len(r.faces) == n and all(1 <= f <= sides for f in r.faces)
    assert event.total == sum(r.faces) + mod
    assert event.success == (event.total >= target)


def test_d66_rolls_two_d6() -> None:
    """D66 is two six-sided dice, recorded as one roll of two d6 (not a d66, not two d7)."""
    parsed = chatdice.parse_strict("D66")
    assert (parsed.kind, parsed.terms, parsed.op, parsed.target, parsed.sort) == (
        "d66",
        ((1, 2, 6),),
        None,
        None,
        "",
    )
    dice = ScriptedDice([6, 1])
    event = parsed.roll(dice)
    assert dice.sizes == [6, 6]
    assert event.rolls == (Roll(sides=6, faces=(6, 1), at=0),)
    assert (event.total, event.result, event.successes, event.success) == (
        61,
        "(D66) ＞ 61",
        None,
        None,
    )
    assert roll("D66S", 6, 1).result == "(D66S) ＞ 16"
    assert roll("D66S", 1, 6).total == 16 and roll("D66", 1, 6).total == 16
    assert chatdice.parse_strict("d66s").sort == "S" and chatdice.parse_strict("D66N").sort == "N"


def test_barabara_without_a_target_records_its_dice() -> None:
    """4B6 lists the faces and still records both pools' dice in the event."""
    dice = ScriptedDice([2, 5, 4, 6, 10])
    parsed = chatdice.parse_strict("4B6+1B10")
    assert (parsed.kind, parsed.terms, parsed.op, parsed.target) == (
        "b",
        ((1, 4, 6), (1, 1, 10)),
        None,
        None,
    )
    event = parsed.roll(dice)
    assert event.rolls == (
        Roll(sides=6, faces=(2, 5, 4, 6), at=0),
        Roll(sides=10, faces=(10,), at=4),
    )
    assert dice.sizes == [6, 6, 6, 6, 10]
    assert (event.total, event.successes, event.success) == (27, None, None)
    assert event.result == "(4B6+1B10) ＞ 2,5,4,6,10"


def test_barabara_with_a_target_records_its_dice() -> None:
    event = roll("2B6+1B10<=4", 4, 5, 1)
    assert [r.sides for r in event.rolls] == [6, 10]
    assert (event.successes, event.total, event.success) == (2, None, None)
    assert roll("3B1>=1", 1, 1, 1).successes == 3


def test_numbers_before_the_dice_keep_the_dice() -> None:
    """1+2D6 is 1 plus two d6: the dice are rolled, recorded and added."""
    parsed = chatdice.parse_strict("1+2D6")
    assert (parsed.kind, parsed.terms) == ("sum", ((1, 1, 0), (1, 2, 6)))
    dice = ScriptedDice([3, 4])
    event = parsed.roll(dice)
    assert dice.sizes == [6, 6] and event.rolls == (Roll(sides=6, faces=(3, 4), at=0),)
    assert (event.total, event.result) == (8, "(1+2D6) ＞ 1+7[3,4] ＞ 8")
    assert roll("-1+D6", 5).result == "(-1+D6) ＞ -1+5[5] ＞ 4"
    assert chatdice.parse_strict("1D6-2").terms == ((1, 1, 6), (-1, 2, 0))


@pytest.mark.parametrize(
    ("op", "at_7", "at_8"),
    [
        (">=", True, False),
        ("<=", True, True),
        (">", False, False),
        ("<", False, True),
        ("=", True, False),
        ("==", True, False),
        ("<>", False, True),
        ("!=", False, True),
    ],
)
def test_every_comparison(op: str, at_7: bool, at_8: bool) -> None:
    """2D6 showing 7 against the targets 7 and 8, for each operator."""
    assert roll(f"2D6{op}7", 3, 4).success is at_7
    assert roll(f"2D6{op}8", 3, 4).success is at_8
    assert roll(f"2D6{op}8", 3, 4).result.endswith(" ＞ 成功" if at_8 else " ＞ 失敗")


def test_a_negative_target() -> None:
    parsed = chatdice.parse_strict("1D6-10>=-5")
    assert (parsed.op, parsed.target) == (">=", -5)
    assert roll("1D6-10>=-5", 5).success is True


def test_only_a_leading_s_makes_a_roll_secret() -> None:
    assert roll("2D6", 1, 2).secret is False
    assert roll("s2d6", 1, 2).secret is True and roll("S2D6", 1, 2).expression == "2D6"
    assert roll("SD66", 1, 2).secret is True and roll("S4B6", 1, 2, 3, 4).secret is True


@pytest.mark.parametrize(
    ("text", "faces"), [("2D6", (1, 2)), ("D66", (1, 2)), ("2B6", (1, 2)), ("2B6>=2", (1, 2))]
)
def test_every_kind_of_roll_keeps_the_character(text: str, faces: tuple[int, ...]) -> None:
    """A roll said as a character is that character's, whatever its kind."""
    event = chatdice.parse_strict(text).roll(ScriptedDice(faces), character_id="c1")
    assert event.character_id == "c1"
    assert chatdice.parse_strict(text).roll(ScriptedDice(faces)).character_id is None


def test_a_comment_after_a_space() -> None:
    event = roll("２Ｄ６＞＝７　攻撃 です", 3, 4)
    assert event.comment == "攻撃 です" and event.success is True
    assert chatdice.split_comment("  2D6  ") == ("2D6", "")


async def test_a_characters_d66_and_barabara_show_the_characters_name() -> None:
    """Said as a character, every kind of roll renders under the character's name, not the player's."""
    from taku.core.commands import CreateCharacter
    from taku.testing.harness import TableHarness

    h = await TableHarness.create("generic", faces=[5, 2, 3, 4])
    pl = await h.join("たろう")
    (ev,) = await h.send(pl, CreateCharacter(name="忍者"))
    await h.chat(pl, "D66", character_id=ev.character_id)
    await h.chat(pl, "2B6", character_id=ev.character_id)
    assert [f["text"] for f in await h.frames(pl)][-2:] == [
        "忍者: (D66) ＞ 52",
        "忍者: (2B6) ＞ 3,4",
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2D6>=", "「2D6>=」の比較の右に目標値がありません（例: 2D6>=7）"),
        ("0D6", "ダイスは1個以上振ってください"),
        ("2D0", "ダイスの面の数は1以上にしてください"),
        ("こんにちは", "「こんにちは」はダイス式として読めません（例: 2D6+1>=7、3B6>=4、D66）"),
    ],
)
def test_a_bad_expression_s_message_says_why_in_japanese(text: str, reason: str) -> None:
    """The GM's dice box shows the error frame's message: the catalogue's text and the reason."""
    from taku import codes

    with pytest.raises(DiceError) as e:
        chatdice.parse_strict(text)
    assert codes.message(e.value.code, e.value.details) == f"ダイス式が正しくありません: {reason}"
