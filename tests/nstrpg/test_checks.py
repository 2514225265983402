"""NSTRPG 2-1 判定とダイス: the difficulty ladder, success counting, 【】 patterns and opposed checks."""

from __future__ import annotations

import pytest

from taku.core.dice import Roll, ScriptedDice
from taku_nstrpg import checks
from taku_nstrpg.checks import EASY, HARD, KIDS, NORMAL, UH, UH2, UH3, Pattern


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("ウルトラハード", UH),
        ("ウルトラハード2", UH2),
        ("ＵＨ３", UH3),
        ("u-hard", UH),
        ("U_HARD2", UH2),
        ("ULTRA HARD 3", UH3),
        ("Ultra-Hard", UH),
        ("UH1", UH),
        ("UH10", UH + 9),
        (" kids ", KIDS),
        ("EASY", EASY),
        ("HARD", HARD),
        ("2", KIDS),
        ("6", UH),
        ("４", NORMAL),
    ],
)
def test_parse_difficulty_every_spelling(text: str, level: int) -> None:
    """G-NS-01: the rulebook's Japanese and English names, BCDice's short forms and target faces 2-6."""
    assert checks.parse_difficulty(text) == level


@pytest.mark.parametrize("text", ["1", "7", "UH0", "UH100", "ULTRA", "", "ハード"])
def test_parse_difficulty_refuses_what_is_no_difficulty(text: str) -> None:
    with pytest.raises(ValueError, match=r"^not a difficulty: "):
        checks.parse_difficulty(text)


def test_difficulty_names() -> None:
    """G-NS-01 早見表: KIDS … ULTRA-HARD, then UH2, UH3 …; below KIDS reads KIDS."""
    assert [checks.difficulty_name(lv) for lv in range(1, 10)] == [
        "KIDS", "KIDS", "EASY", "NORMAL", "HARD", "ULTRA-HARD", "UH2", "UH3", "UH4"
    ]  # fmt: skip
    assert checks.evaluate([6], UH2).difficulty_name == "UH2"


def test_target_face_and_sixes_needed() -> None:
    """A die counts from the difficulty's face (2..6); UHn needs n sixes for one success."""
    assert [checks.target_face(lv) for lv in (0, KIDS, EASY, NORMAL, HARD, UH, UH2, UH3)] == [
        2,
        2,
        3,
        4,
        5,
        6,
        6,
        6,
    ]
    assert [checks.sixes_needed(lv) for lv in (KIDS, NORMAL, UH, UH2, UH3, UH + 4)] == [
        1,
        1,
        1,
        2,
        3,
        5,
    ]


def test_counting_at_each_rung() -> None:
    """NS-06: each die meeting the target face counts; NS-07: at UHn the first n sixes are one."""
    faces = [1, 2, 3, 4, 5, 6]
    assert [checks.count_successes(faces, lv) for lv in (KIDS, EASY, NORMAL, HARD, UH)] == [
        5,
        4,
        3,
        2,
        1,
    ]
    assert checks.count_successes([6, 6, 6], UH2) == 2
    assert checks.count_successes([6], UH2) == 0
    assert checks.count_successes([], NORMAL) == 0


def test_evaluate_keeps_the_faces_and_the_difficulty() -> None:
    r = checks.evaluate([4, 1, 5], NORMAL)
    assert (r.faces, r.difficulty, r.successes, r.success) == ((4, 1, 5), NORMAL, 2, True)
    assert checks.evaluate([1, 3], NORMAL).success is False


@pytest.mark.parametrize(("pool", "rolled"), [(3, 3), (0, 0), (-2, 0)])
def test_roll_check_rolls_the_pool_in_d6(pool: int, rolled: int) -> None:
    """A pool of n rolls n d6; 0 or less rolls none and fails (the empty roll is still recorded)."""
    dice = ScriptedDice([4, 1, 6][:rolled])
    roll, result = checks.roll_check(dice, pool, NORMAL)
    assert dice.sizes == [6] * rolled and roll == Roll(sides=6, faces=(4, 1, 6)[:rolled], at=0)
    assert result.successes == (2 if rolled else 0) and result.faces == roll.faces


@pytest.mark.parametrize(
    ("spec", "faces", "ok"),
    [
        ("【5+,3+】", [6, 4], True),  # the 5+ takes the 6, the 3+ the 4 (highest need first)
        ("【3+,5+】", [4, 6], True),
        ("【5+,5+,2+】", [5, 2, 6], True),
        ("【4+,4+】", [6, 3], False),
        ("6,5", [6, 6], False),  # the comma form's 5 is exactly 5
        ("6,5", [5, 6], True),
        ("6,5+", [6, 6], True),
        ("65", [6, 6], False),
        ("65+", [6, 6], True),
        ("[6, 6]", [6, 6], True),
        ("【 6 , 6 】", [6, 5], False),
        ("【1】", [1], True),
        ("【2+】", [1], False),
        ("5+", [], False),
    ],
)
def test_pattern_matching(spec: str, faces: list[int], ok: bool) -> None:
    """NS-05: each element of a 【】 pattern takes its own die; "or more" needs take the highest dice."""
    assert Pattern.parse(spec).matches(faces) is ok


def test_pattern_forms_and_text() -> None:
    """ "6+" is a 6; the compact form's + applies to every element; str() writes the rulebook's form."""
    assert Pattern.parse("【6,5+,5】").elements == ((6, False), (5, True), (5, False))
    assert Pattern.parse("6+,4").elements == ((6, False), (4, False))
    assert Pattern.parse("654+").elements == ((6, False), (5, True), (4, True))
    assert str(Pattern.parse("65+")) == "【6,5+】" and str(checks.NAMU_DEFAULT) == "【6,6,6】"
    assert str(checks.SATSUBATSU_DEFAULT) == "【6,6】"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "^empty pattern$"),
        ("【】", "^empty pattern$"),
        ("6,7", "^not a pattern: "),
        ("6,,5", "^not a pattern: "),
        ("70", "^not a pattern: "),
        ("6+5", "^not a pattern: "),
        ("X6", "^not a pattern: "),
        ("【6】X", "^not a pattern: "),
    ],
)
def test_pattern_parse_refuses_what_is_no_pattern(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Pattern.parse(spec)


def test_opposed_checks() -> None:
    """NS-11: the most successes wins by its lead over the next; a tie has no winner and no margin (G-NS-03)."""
    r = checks.opposed([1, 4, 2])
    assert (r.successes, r.winner, r.margin) == ((1, 4, 2), 1, 2)
    tie = checks.opposed([3, 3, 1])
    assert (tie.successes, tie.winner, tie.margin) == ((3, 3, 1), None, 0)
    assert (checks.opposed([0, 0]).winner, checks.opposed([0, 0]).margin) == (None, 0)
    alone = checks.opposed([5])
    assert (alone.winner, alone.margin) == (0, 5)
