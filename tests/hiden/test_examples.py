"""The chapter's worked examples (CHECKLIST HD-EX-01 … HD-EX-08), over the server's command path."""

from __future__ import annotations

import pytest

from taku_hiden.commands import Check, CheckSpec, Fatigue, Jump, Lift, OpposedCheck, Visibility
from taku_hiden.events import CheckRolled, DifficultyComputed, OpposedRolled

from .conftest import MakeTable


@pytest.mark.parametrize(
    ("otsu_faces", "tie", "winner"),
    [
        ((4, 2), "second", 0),  # 乙 9 < 10: not found
        ((4, 2), "first", 0),
        ((5, 3), "second", 1),  # 乙 11 > 10: found
        ((5, 3), "first", 1),
        (
            (4, 3),
            "second",
            1,
        ),  # 乙 10 = 10: the rule (reaching the target succeeds) → found (G-HD-03)
        (
            (4, 3),
            "first",
            0,
        ),  # the example's reading ("以下なら見つけることはできません") → not found
    ],
)
async def test_hd_ex_01_hide_and_seek(
    make_table: MakeTable, otsu_faces: tuple[int, int], tie: str, winner: int
) -> None:
    """HD-EX-01 五ノ六: 甲 hides with 《姿隠し》2 + 〈器用〉1 + 2D; 乙 seeks with 《探索》3 + 〈知覚〉0 + 2D."""
    t = await make_table(options={"opposed_tie": tie})
    # 甲 rolls [4,3] first (value 10), then 乙
    t.h.roll(4, 3, *otsu_faces)
    (ev,) = await t.h.send(
        t.h.gm,
        OpposedCheck(
            first=CheckSpec(character_id=t.kou, skill="姿隠し"),
            second=CheckSpec(character_id=t.otsu, skill="《探索》"),
            label="かくれんぼ",
        ),
    )
    assert isinstance(ev, OpposedRolled)
    assert (ev.first.level, ev.first.ability, ev.first.ability_used, ev.first.value) == (
        2,
        "器用",
        1,
        10,
    )
    assert (ev.second.level, ev.second.ability, ev.second.ability_used) == (3, "知覚", 0)
    assert ev.second.value == 3 + sum(otsu_faces)
    assert ev.compared == (10, 3 + sum(otsu_faces))
    assert ev.winner == winner and ev.tie == tie
    await t.h.assert_replay_matches()


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        # HD-EX-02: 助走をつけて3間 (18尺): the table gives (18-6)/2 = 6; the text's 5 is a slip (G-HD-04)
        (Jump(kind="long", run_up=True, ken=3), 6),
        # HD-EX-03: 助走なしで高さ1丈 (10尺) の塀: (10-2)/1 = 8
        (Jump(kind="high", run_up=False, jo=1), 8),
        # HD-EX-04: 17貫 → 17-15 = 2
        (Lift(kan=17), 2),
        # HD-EX-05: 70キロ = 18.67貫 → 端数切り捨て → 3
        (Lift(kg=70), 3),
        # HD-EX-06: 淡い霧 4 with 〈暗視〉10 cancels only 4 → 0
        (Visibility(conditions=["淡い霧"], anshi_level=10), 0),
        # HD-EX-07: 酒の耐性5 after 晩酌程度: 1-5 → 0, not -4
        (Fatigue(conditions=["晩酌程度"], sake_tolerance=5), 0),
    ],
)
async def test_hd_ex_helpers(make_table: MakeTable, command: object, difficulty: int) -> None:
    """HD-EX-02 … HD-EX-07 五ノ七: each helper gives the book's difficulty (the table's, for the jump)."""
    t = await make_table()
    (ev,) = await t.h.send(t.pl, command)  # type: ignore[arg-type]
    assert isinstance(ev, DifficultyComputed)
    assert ev.difficulty == difficulty
    assert ev.simple_target == difficulty + 7


async def test_hd_ex_02_note_names_the_books_slip(make_table: MakeTable) -> None:
    """HD-EX-02: the 3 間 run-up jump says why it is 6 and not the text's 5."""
    t = await make_table()
    (ev,) = await t.h.send(t.pl, Jump(kind="long", run_up=True, shaku=18))
    assert isinstance(ev, DifficultyComputed)
    assert ev.difficulty == 6 and "G-HD-04" in ev.note and ev.detail["shaku"] == 18


async def test_hd_ex_05_records_the_kan(make_table: MakeTable) -> None:
    """HD-EX-05: 70 kg is recorded as 18.67 貫."""
    t = await make_table()
    (ev,) = await t.h.send(t.pl, Lift(kg=70))
    assert isinstance(ev, DifficultyComputed)
    assert ev.detail["kan"] == 18.67


async def test_hd_ex_06_anshi_from_the_sheet(make_table: MakeTable) -> None:
    """HD-EX-06 with the character's own 〈暗視〉10 (a 《特技》 on the sheet)."""
    sheet = {"abilities": {"知覚": 1}, "tokugi": {"暗視": {"level": 10, "ability": "知覚"}}}
    t = await make_table(kou=sheet)
    (ev,) = await t.h.send(t.pl, Visibility(conditions=["淡い霧が出ている"], character_id=t.kou))
    assert isinstance(ev, DifficultyComputed)
    assert ev.difficulty == 0 and ev.detail["cancelled"] == 4 and ev.detail["anshi_level"] == 10


async def test_hd_ex_07_tolerance_from_the_sheet(make_table: MakeTable) -> None:
    """HD-EX-07 with 甲's own 酒の耐性 (CP 5) from the sheet."""
    t = await make_table()
    (ev,) = await t.h.send(t.pl, Fatigue(conditions=["晩酌程度"], character_id=t.kou))
    assert isinstance(ev, DifficultyComputed)
    assert ev.difficulty == 0 and ev.detail["sake_tolerance"] == 5


@pytest.mark.parametrize(("difficulty", "simple"), [(-3, 4), (0, 7), (10, 17), (4, 11)])
async def test_hd_ex_08_simple_target(make_table: MakeTable, difficulty: int, simple: int) -> None:
    """HD-EX-08 五ノ二: with the simple-target option the 目標値 is difficulty + 7 and no 2D is rolled."""
    t = await make_table(options={"simple_target": True})
    t.h.roll(3, 3)  # only the check's 2D
    (ev,) = await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", difficulty=difficulty))
    assert isinstance(ev, CheckRolled) and ev.target is not None
    assert ev.target.mode == "simple" and ev.target.roll is None and ev.target.value == simple
    assert ev.success is (9 >= simple)
    assert t.h.dice.remaining == []
