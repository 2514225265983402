"""The helpers of 五ノ七 (HD-15 … HD-21) with numbers other than the book's, and their errors."""

from __future__ import annotations

import pytest

from taku_hiden.commands import Fatigue, Jump, Lift, Seizure, Visibility
from taku_hiden.events import DifficultyComputed

from .conftest import MakeTable


async def _difficulty(
    make_table: MakeTable, command: object, options: dict[str, object] | None = None
) -> DifficultyComputed:
    t = await make_table(options=options)
    (ev,) = await t.h.send(t.pl, command)  # type: ignore[arg-type]
    assert isinstance(ev, DifficultyComputed)
    return ev


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        (Jump(kind="high", shaku=2), 0),  # the table's difficulty 0
        (Jump(kind="high", run_up=True, shaku=5), 2),  # (5-3)/1
        (Jump(kind="high", run_up=True, jo=1, shaku=2), 9),  # 12尺: (12-3)/1
        (Jump(kind="long", run_up=True, ken=2), 3),  # 12尺: (12-6)/2
        (Jump(kind="long", ken=1, shaku=5), 3),  # 11尺: (11-5)/2
        (
            Jump(kind="long", jo=1, risky=2),
            5,
        ),  # 10尺: (10-5)/2 = 2.5 → 3, +2 for a jump that must not fail
        (Jump(kind="high", shaku=1), -1),  # below the difficulty-0 height
    ],
)
async def test_jump(make_table: MakeTable, command: Jump, difficulty: int) -> None:
    """HD-15: 0 at 2/3 尺 (high) and 5/6 尺 (long); +1 per 1 尺 (high) or 2 尺 (long); 間 = 6 尺, 丈 = 10 尺."""
    assert (await _difficulty(make_table, command)).difficulty == difficulty


@pytest.mark.parametrize(("rounding", "difficulty"), [("up", 1), ("down", 0)])
async def test_jump_part_units(make_table: MakeTable, rounding: str, difficulty: int) -> None:
    """G-HD-05: a 6 尺 standing long jump is half a unit past 5 尺: rounded up by default, down by option."""
    ev = await _difficulty(make_table, Jump(kind="long", shaku=6), {"jump_rounding": rounding})
    assert ev.difficulty == difficulty and ev.note


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        (Lift(kan=15), 0),
        (Lift(kan=16.9), 1),  # the fraction is dropped
        (Lift(kg=56.25), 0),  # 15貫 exactly
        (Lift(kg=100), 11),  # 26.67貫 → 26 - 15
        (Lift(kan=10), -5),
        (Lift(kan=17, sword_grip=True), 5),  # + about 3 for a pole held like a sword
    ],
)
async def test_lift(make_table: MakeTable, command: Lift, difficulty: int) -> None:
    """HD-16: 15 貫 is 0, +1 per whole 貫; 1 貫 = 3.75 kg."""
    assert (await _difficulty(make_table, command)).difficulty == difficulty


async def test_lift_sword_grip_is_an_option(make_table: MakeTable) -> None:
    """HD-16: the sword-grip modifier ("3程度") is a table option."""
    ev = await _difficulty(make_table, Lift(kan=17, sword_grip=True), {"sword_grip_modifier": 2})
    assert ev.difficulty == 4


@pytest.mark.parametrize(
    ("command", "difficulty", "cancelled"),
    [
        (Visibility(conditions=["闇夜"], anshi_level=3), 5, 3),
        (Visibility(conditions=["雨が降っている夜"]), 10, 0),
        (
            Visibility(conditions=["濃い霧", "闇夜"], anshi_level=10),
            4,
            10,
        ),  # 14, at most the level cancelled
        (
            Visibility(conditions=["月夜 (満月)"], anshi_level=5, base=3),
            3,
            2,
        ),  # never more than the modifier
        (
            Visibility(conditions=["霧雨", "どしゃ降り", "半月", "星夜"], base=1),
            1 + 3 + 7 + 4 + 6,
            0,
        ),
    ],
)
async def test_visibility(
    make_table: MakeTable, command: Visibility, difficulty: int, cancelled: int
) -> None:
    """HD-17: weather and night add; 〈暗視〉 cancels at most its level and never more than the modifiers."""
    ev = await _difficulty(make_table, command)
    assert ev.difficulty == difficulty and ev.detail["cancelled"] == cancelled


async def test_anshi_as_a_level_rated_trait(make_table: MakeTable) -> None:
    """G-HD-09: 〈暗視〉 kept as a trait with a level also cancels."""
    t = await make_table(
        kou={"abilities": {"知覚": 1}, "traits": {"〈暗視〉": {"cp": 4, "level": 2}}}
    )
    (ev,) = await t.h.send(t.pl, Visibility(conditions=["星夜"], character_id=t.kou))
    assert isinstance(ev, DifficultyComputed) and ev.difficulty == 4


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        (
            Fatigue(
                conditions=["徹夜", "丸一日なにも食べていない", "浴びるほど飲んだ"],
                sake_tolerance=3,
            ),
            6 + 5 + 7,
        ),
        (Fatigue(conditions=["ゆっくり飲んだ"]), 5),
        (Fatigue(conditions=["ゆっくり飲んだ"], sake_tolerance=9), 0),
        (
            Fatigue(
                conditions=["前のご飯をぬいた", "一日働きづめに働いた"], base=2, sake_tolerance=9
            ),
            2 + 2 + 3,
        ),
    ],
)
async def test_fatigue(make_table: MakeTable, command: Fatigue, difficulty: int) -> None:
    """HD-18, HD-19, G-HD-08: modifiers add up; 酒の耐性 lowers only the drink ones, never below 0."""
    assert (await _difficulty(make_table, command)).difficulty == difficulty


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        (Seizure(situation="強い緊張", trait="不治の病"), 4),
        (Seizure(situation="絶対に失敗は許されない", trait="発作"), 5),
        (Seizure(situation="雑魚戦闘", trait="不治の病"), -4),
        (Seizure(situation="軽い緊張", trait="発作"), -4),
        (Seizure(situation="普通の緊張", trait="不治の病"), 2),
    ],
)
async def test_seizure_table(make_table: MakeTable, command: Seizure, difficulty: int) -> None:
    """HD-21: the 発作 / 不治の病 difficulty by situation."""
    assert (await _difficulty(make_table, command)).difficulty == difficulty


async def test_seizure_with_both_traits_takes_the_harder(make_table: MakeTable) -> None:
    """HD-21: a character with 発作 and 不治の病 uses the harder difficulty; combat says 'every turn'."""
    t = await make_table(
        kou={"abilities": {"気合い": 1}, "traits": {"発作": {"cp": -2}, "不治の病": {"cp": -5}}}
    )
    (ev,) = await t.h.send(t.pl, Seizure(situation="親玉戦闘", character_id=t.kou))
    assert isinstance(ev, DifficultyComputed)
    assert (
        ev.difficulty == 0
        and ev.detail["trait"] == "不治の病"
        and ev.detail["combat"] is True
        and ev.note
    )


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (Jump(kind="high"), "rule/hiden/no_distance"),
        (Lift(), "rule/hiden/kan_or_kg"),
        (Lift(kan=10, kg=10), "rule/hiden/kan_or_kg"),
        (Visibility(conditions=["霞"]), "rule/hiden/unknown_visibility"),
        (Fatigue(conditions=["二日酔い"]), "rule/hiden/unknown_condition"),
        (Seizure(situation="普通の緊張", trait="癪"), "rule/hiden/unknown_seizure_trait"),
        (Seizure(situation="普通の緊張"), "rule/hiden/no_seizure_trait"),
        (Fatigue(conditions=[], character_id="c999"), "command/unknown_character"),
    ],
)
async def test_bad_helper_input(make_table: MakeTable, command: object, code: str) -> None:
    """Bad input gets a stable code and nothing is written."""
    t = await make_table()
    assert (await t.h.rejected(t.pl, command)).code == code  # type: ignore[arg-type]
