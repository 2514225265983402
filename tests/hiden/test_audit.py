"""Regressions from the second rules audit of 秘伝の声 chapter 5 (五ノ一 … 五ノ七)."""

from __future__ import annotations

import pytest

from taku.core.render import render
from taku_hiden.commands import Check, Fatigue, Lift, SeizureCheck, Visibility
from taku_hiden.events import CheckRolled, DifficultyComputed

from .conftest import MakeTable


async def test_a_sheetless_ability_shows_in_the_line(make_table: MakeTable) -> None:
    """HD-05, G-HD-02: a bare NPC check with 能力値 -3 + 2D[4,4] = 5 reads as such, not as "0+2D = 5"."""
    t = await make_table()
    t.h.roll(4, 4)
    (ev,) = await t.h.send(t.h.gm, Check(name="番頭", ability_value=-3, target=6))
    assert isinstance(ev, CheckRolled) and ev.side.value == 5 and ev.success is False
    line = render(ev, t.h.state, t.h.table.ruleset, t.h.gm)
    assert line is not None and "能力値-3+2D[4,4] = 5" in line
    t.h.roll(
        4, 4
    )  # with a skill level the negative ability counts as 0 (HD-03), and the line says so
    (ev,) = await t.h.send(t.h.gm, Check(name="番頭", level=2, ability_value=-3, target=6))
    line = render(ev, t.h.state, t.h.table.ruleset, t.h.gm)
    assert isinstance(ev, CheckRolled) and ev.side.value == 10
    assert line is not None and "技能2+能力値-3(→0)+2D[4,4] = 10" in line


@pytest.mark.parametrize(
    ("command", "difficulty"),
    [
        (Fatigue(conditions=["徹夜", "前の晩徹夜した"]), 6),  # one all-nighter, named twice
        (Fatigue(conditions=["晩酌程度", "晩酌程度", "働きづめ"], sake_tolerance=0), 1 + 3),
        (Visibility(conditions=["闇夜", "闇夜"], anshi_level=2), 8 - 2),
    ],
)
async def test_a_condition_named_twice_counts_once(
    make_table: MakeTable, command: object, difficulty: int
) -> None:
    """HD-17, HD-18, G-HD-08: different conditions add up, but one condition is one modifier (as set_conditions)."""
    t = await make_table()
    (ev,) = await t.h.send(t.pl, command)  # type: ignore[arg-type]
    assert isinstance(ev, DifficultyComputed) and ev.difficulty == difficulty


@pytest.mark.parametrize("command", [Lift(kan=0), Lift(kg=0)])
async def test_lifting_nothing_is_refused(make_table: MakeTable, command: Lift) -> None:
    """HD-16: a weight of 0 is refused like a jump of 0 尺 (rule/hiden/no_weight), nothing written."""
    t = await make_table()
    seq = t.h.state.seq
    assert (await t.h.rejected(t.pl, command)).code == "rule/hiden/no_weight"
    assert t.h.state.seq == seq


@pytest.mark.parametrize("where", ["abilities", "skills"])
async def test_anshi_kept_as_an_ability_or_skill_cancels(make_table: MakeTable, where: str) -> None:
    """HD-17, G-HD-09: 〈暗視〉3 written in the ability brackets on the sheet still cancels: 星夜 6 → 3."""
    sheet = {"abilities": {"知覚": 1}, where: {"〈暗視〉": 3}}
    t = await make_table(kou=sheet)
    (ev,) = await t.h.send(t.pl, Visibility(conditions=["星が出ている夜"], character_id=t.kou))
    assert isinstance(ev, DifficultyComputed) and ev.difficulty == 3 and ev.detail["cancelled"] == 3


async def test_seizure_line_names_trait_and_situation(make_table: MakeTable) -> None:
    """HD-21: the 〈気合い〉 check's line names the trait and the situation once, readably."""
    t = await make_table()
    t.h.roll(3, 3, 2, 2)
    (ev,) = await t.h.send(t.pl, SeizureCheck(character_id=t.kou, situation="普通の緊張"))
    assert isinstance(ev, CheckRolled) and ev.label == "発作・普通の緊張"
    line = render(ev, t.h.state, t.h.table.ruleset, t.pl)
    assert line is not None and "〈気合い〉判定「発作・普通の緊張」" in line and "「「" not in line
