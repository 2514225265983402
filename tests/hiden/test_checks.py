"""行動判定 (五ノ一 … 五ノ四, 五ノ七 勘働き・発作) over the command path (HD-01 … HD-10, HD-21, HD-22)."""

from __future__ import annotations

import pytest

from taku.errors import Forbidden, InvalidCommand, Rejected
from taku_hiden.commands import Check, KanCheck, SeizureCheck, SetConditions, TraitUse
from taku_hiden.events import CheckRolled, ConditionsSet

from .conftest import MakeTable


def _check(events: list[object]) -> CheckRolled:
    (ev,) = events
    assert isinstance(ev, CheckRolled)
    return ev


async def test_skill_check_against_difficulty_plus_gm_2d(make_table: MakeTable) -> None:
    """HD-02, HD-03, HD-06: 《料理》3 + 〈器用〉1 + 2D[2,4] = 10 against 難易度2 + 2D[3,4] = 9 succeeds."""
    t = await make_table()
    t.h.roll(3, 4, 2, 4)  # the GM's target 2D first, then the check
    ev = _check(
        await t.h.send(t.pl, Check(character_id=t.kou, skill="料理", ability="器用", difficulty=2))
    )
    assert ev.target is not None and ev.target.mode == "rolled"
    assert ev.target.roll is not None and ev.target.roll.faces == (3, 4) and ev.target.value == 9
    assert t.h.dice.sizes == [6] * 4  # 2D6 for the GM, 2D6 for the check
    assert (ev.side.skill_kind, ev.side.level, ev.side.ability_used, ev.side.value) == (
        "skill",
        3,
        1,
        10,
    )
    assert ev.success is True


async def test_skill_pairs_with_any_ability_and_a_tie_succeeds(make_table: MakeTable) -> None:
    """HD-04, HD-06: 《料理》 with 〈知識〉0: 3 + 0 + 2D[2,4] = 9 reaches the target 9 and succeeds."""
    t = await make_table()
    t.h.roll(3, 4, 2, 4)
    ev = _check(
        await t.h.send(
            t.pl, Check(character_id=t.kou, skill="料理", ability="〈知識〉", difficulty=2)
        )
    )
    assert (
        ev.side.ability == "知識"
        and ev.side.value == 9
        and ev.target is not None
        and ev.target.value == 9
    )
    assert ev.success is True
    t.h.roll(3, 5, 2, 4)  # target 10, value 9
    ev = _check(
        await t.h.send(t.pl, Check(character_id=t.kou, skill="料理", ability="知識", difficulty=2))
    )
    assert ev.success is False


async def test_negative_ability_counts_as_zero_with_a_skill(make_table: MakeTable) -> None:
    """HD-03: with a skill, 〈器用〉-2 counts as 0: 《剣術》2 + 0 + 2D[3,3] = 8."""
    t = await make_table(kou={"abilities": {"器用": -2}, "skills": {"剣術": 2}})
    t.h.roll(3, 3)
    ev = _check(
        await t.h.send(t.pl, Check(character_id=t.kou, skill="剣術", ability="器用", target=8))
    )
    assert (ev.side.ability_value, ev.side.ability_used, ev.side.value) == (-2, 0, 8)
    assert ev.success is True


@pytest.mark.parametrize(("clamp", "value"), [(False, 4), (True, 6)])
async def test_ability_only_check(make_table: MakeTable, clamp: bool, value: int) -> None:
    """HD-05, G-HD-02: 〈器用〉-2 + 2D[3,3]; unclamped by default (4), clamped by option (6)."""
    t = await make_table(options={"clamp_ability_only": clamp}, kou={"abilities": {"器用": -2}})
    t.h.roll(3, 3)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, ability="器用", target=5)))
    assert ev.side.skill is None and ev.side.skill_kind is None
    assert ev.side.value == value and ev.success is (value >= 5)


async def test_value_only_and_fixed_target(make_table: MakeTable) -> None:
    """五ノ六: a 判定値 alone (no target) rolls only the check; a fixed target rolls no GM dice."""
    t = await make_table()
    t.h.roll(5, 1)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し")))
    assert ev.target is None and ev.success is None and ev.side.value == 2 + 1 + 6
    t.h.roll(5, 1)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", target=10)))
    assert ev.target is not None and ev.target.mode == "fixed" and ev.target.roll is None
    assert ev.success is False
    assert t.h.dice.remaining == []


@pytest.mark.parametrize(("auto", "success"), [(True, True), (False, False)])
async def test_six_zoro_adds_2d_and_its_doubles_mean_nothing(
    make_table: MakeTable, auto: bool, success: bool
) -> None:
    """HD-08, G-HD-01: 6ゾロ adds another 2D ([1,1] here, which is no 1ゾロ); by default 6ゾロ succeeds.

    《姿隠し》2 + 〈器用〉1 + 12 + 2 = 17 against 難易度10 + 2D[5,6] = 21.
    """
    t = await make_table(options={"critical_auto_success": auto})
    t.h.roll(5, 6, 6, 6, 1, 1)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", difficulty=10)))
    assert ev.side.effect == "critical"
    assert ev.side.bonus is not None and ev.side.bonus.faces == (1, 1)
    assert ev.side.value == 17 and ev.target is not None and ev.target.value == 21
    assert ev.success is success


async def test_six_zoro_bonus_can_reach_the_target(make_table: MakeTable) -> None:
    """HD-08: without auto success, the bonus 2D still counts: 3 + 12 + [6,6] = 27 >= 10 + 2D[6,6] = 22."""
    t = await make_table(options={"critical_auto_success": False})
    t.h.roll(
        6, 6, 6, 6, 6, 6
    )  # the GM's 6ゾロ means nothing (G-HD-06); the bonus's 6ゾロ adds no more dice
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", difficulty=10)))
    assert (
        ev.side.value == 27
        and ev.target is not None
        and ev.target.value == 22
        and ev.success is True
    )
    assert t.h.dice.remaining == []


async def test_one_zoro_fails_whatever_the_sum(make_table: MakeTable) -> None:
    """HD-09: 1ゾロ fails even when 判定値 (2 + 1 + 20 + 2 = 25) is far above the target (-3 + 2D[1,1] = -1)."""
    t = await make_table()
    t.h.roll(1, 1, 1, 1)
    ev = _check(
        await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", modifier=20, difficulty=-3))
    )
    assert (
        ev.side.effect == "fumble"
        and ev.side.value == 25
        and ev.target is not None
        and ev.target.value == -1
    )
    assert ev.success is False
    assert ev.side.bonus is None


async def test_gm_applies_traits_and_the_event_records_them(make_table: MakeTable) -> None:
    """HD-10 五ノ四: the GM applies 容貌 (CP 2) and a trait with a stated modifier; both are recorded."""
    sheet = {
        "abilities": {"知恵": 1},
        "skills": {"いいくるめ": 2},
        "traits": {"容貌": {"cp": 2}, "片手": {"cp": -4, "modifier": -3}, "声": {"cp": 3}},
    }
    t = await make_table(kou=sheet)
    t.h.roll(2, 3)
    cmd = Check(
        character_id=t.kou,
        skill="いいくるめ",
        ability="知恵",
        traits=[TraitUse(name="容貌"), TraitUse(name="「片手」"), TraitUse(name="声", value=1)],
        target=8,
    )
    ev = _check(await t.h.send(t.h.gm, cmd))
    assert [(x.name, x.value, x.cp) for x in ev.side.traits] == [
        ("容貌", 2, 2),
        ("片手", -3, -4),
        ("声", 1, 3),
    ]
    assert ev.side.base == 2 + 1 + 2 - 3 + 1 and ev.side.value == 3 + 5 and ev.success is True


@pytest.mark.parametrize(
    ("value", "ok"), [(2, True), (1, True), (0, True), (3, False), (-1, False)]
)
async def test_social_trait_effect_is_at_most_its_cp(
    make_table: MakeTable, value: int, ok: bool
) -> None:
    """HD-20: the GM sets 容貌's effect by the situation, at most its CP (2) and of its sign."""
    t = await make_table()
    t.h.roll(3, 3)
    cmd = Check(
        character_id=t.kou,
        skill="料理",
        ability="知恵",
        traits=[TraitUse(name="容貌", value=value)],
        target=9,
    )
    if ok:
        ev = _check(await t.h.send(t.h.gm, cmd))
        assert ev.side.value == 3 + 1 + value + 6
    else:
        assert (await t.h.rejected(t.h.gm, cmd)).code == "rule/hiden/trait_over_cp"


async def test_only_the_gm_chooses_traits(make_table: MakeTable) -> None:
    """HD-10: a player naming traits is rejected with rule/hiden/gm_chooses_traits, nothing written."""
    t = await make_table()
    err = await t.h.rejected(
        t.pl, Check(character_id=t.kou, skill="姿隠し", traits=[TraitUse(name="容貌")])
    )
    assert err.code == "rule/hiden/gm_chooses_traits"
    assert isinstance(err, Rejected) and "五ノ四" in err.section


@pytest.mark.parametrize(
    ("cmd", "code"),
    [
        (Check(skill="姿隠し", ability="知識"), "rule/hiden/tokugi_fixed_ability"),
        (Check(skill="料理"), "rule/hiden/ability_required"),
        (Check(), "rule/hiden/ability_required"),
        (Check(skill="剣術"), "rule/hiden/ability_required"),
        (Check(skill="料理", ability="腕力"), "rule/hiden/unknown_ability"),
        (Check(ability="器用", traits=[TraitUse(name="美声")]), "rule/hiden/unknown_trait"),
        (Check(ability="器用", difficulty=1, target=5), "command/invalid"),
        (Check(ability="器用", level=3), "command/invalid"),
    ],
)
async def test_bad_checks_are_rejected(make_table: MakeTable, cmd: Check, code: str) -> None:
    """Bad input gets a stable code and nothing is written."""
    t = await make_table()
    import msgspec

    cmd = msgspec.structs.replace(cmd, character_id=t.kou)
    err = await t.h.rejected(t.h.gm, cmd)
    assert err.code == code


async def test_a_player_checks_only_their_own_character(make_table: MakeTable) -> None:
    """Ownership: a player cannot roll for the GM's 乙."""
    t = await make_table()
    err = await t.h.rejected(t.pl, Check(character_id=t.otsu, skill="探索"))
    assert isinstance(err, Forbidden)


async def test_npc_check_without_a_sheet(make_table: MakeTable) -> None:
    """The GM rolls a bare NPC check: level 4 + ability 2 + 2D[3,1] = 10 against a fixed 10."""
    t = await make_table()
    t.h.roll(3, 1)
    ev = _check(await t.h.send(t.h.gm, Check(name="番頭", level=4, ability_value=2, target=10)))
    assert (
        ev.side.character_id is None
        and ev.side.name == "番頭"
        and ev.side.value == 10
        and ev.success is True
    )
    err = await t.h.rejected(t.h.gm, Check(level=1, traits=[TraitUse(name="容貌")]))
    assert err.code == "rule/hiden/trait_value_required"


async def test_kan_check(make_table: MakeTable) -> None:
    """HD-22 勘働き: 〈勘働き〉3 + 2D[2,2] = 7 against 難易度1 + 2D[3,3] = 7 succeeds; 1ゾロ fails."""
    t = await make_table()
    t.h.roll(3, 3, 2, 2)
    ev = _check(await t.h.send(t.h.gm, KanCheck(character_id=t.kou, difficulty=1)))
    assert (
        ev.kind == "kan"
        and ev.side.ability == "勘働き"
        and ev.side.value == 7
        and ev.success is True
    )
    t.h.roll(1, 1)
    ev = _check(await t.h.send(t.pl, KanCheck(character_id=t.kou, target=2)))
    assert ev.side.effect == "fumble" and ev.success is False


async def test_seizure_check_every_turn_sets_and_clears_incapacitation(
    make_table: MakeTable,
) -> None:
    """HD-21: 「発作」 in 親玉戦闘の対峙 is difficulty -2; 〈気合い〉2 + 2D; failure = 行動不能, checked each turn."""
    t = await make_table()
    t.h.roll(6, 5, 1, 2)  # target -2 + 11 = 9; value 2 + 3 = 5: fails
    ev = _check(
        await t.h.send(t.h.gm, SeizureCheck(character_id=t.kou, situation="親玉戦闘", turn=1))
    )
    assert ev.kind == "seizure" and ev.trait == "発作" and ev.situation == "親玉戦闘"
    assert ev.target is not None and ev.target.difficulty == -2 and ev.target.value == 9
    assert ev.success is False and ev.incapacitated is True
    assert t.h.game.characters[t.kou].incapacitated is True
    t.h.roll(2, 2, 3, 3)  # turn 2: target 2, value 8
    ev = _check(
        await t.h.send(t.h.gm, SeizureCheck(character_id=t.kou, situation="親玉戦闘の対峙", turn=2))
    )
    assert ev.success is True and ev.incapacitated is False and ev.turn == 2
    assert t.h.game.characters[t.kou].incapacitated is False
    await t.h.assert_replay_matches()


async def test_seizure_needs_the_trait(make_table: MakeTable) -> None:
    """HD-21: a character with neither 発作 nor 不治の病 gets rule/hiden/no_seizure_trait; bad situations too."""
    t = await make_table()
    err = await t.h.rejected(t.h.gm, SeizureCheck(character_id=t.otsu, situation="雑魚戦闘"))
    assert err.code == "rule/hiden/no_seizure_trait"
    err = await t.h.rejected(t.h.gm, SeizureCheck(character_id=t.kou, situation="宴会"))
    assert err.code == "rule/hiden/unknown_situation"


async def test_standing_conditions_add_to_every_difficulty(make_table: MakeTable) -> None:
    """HD-18, HD-19: 徹夜 (6) and 晩酌程度 (1 - 酒の耐性5 → 0) add 6 to the difficulty of 甲's checks."""
    t = await make_table()
    (ev,) = await t.h.send(
        t.h.gm, SetConditions(character_id=t.kou, conditions=["前の晩徹夜した", "晩酌程度"])
    )
    assert (
        isinstance(ev, ConditionsSet) and ev.conditions == ("徹夜", "晩酌程度") and ev.modifier == 6
    )
    t.h.roll(2, 2, 4, 4)
    ev2 = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", difficulty=1)))
    assert ev2.target is not None
    assert [(m.label, m.value) for m in ev2.target.modifiers] == [
        ("前の晩徹夜した", 6),
        ("晩酌程度", 0),
    ]
    assert ev2.target.value == 1 + 6 + 4 and ev2.side.value == 11 and ev2.success is True
    err = await t.h.rejected(t.pl, SetConditions(character_id=t.kou, conditions=[]))
    assert isinstance(err, Forbidden)
    err = await t.h.rejected(t.h.gm, SetConditions(character_id=t.kou, conditions=["二日酔い"]))
    assert err.code == "rule/hiden/unknown_condition"


async def test_difficulty_table_is_in_the_state(make_table: MakeTable) -> None:
    """HD-07: clients read the difficulty table -3 … 10 with its descriptions from the state."""
    t = await make_table()
    rows = t.h.view(t.pl)["game"]["tables"]["difficulty"]
    assert [r["difficulty"] for r in rows] == list(range(-3, 11))
    assert rows[3] == {"difficulty": 0, "simple_target": 7, "description": "一般人には五分五分。"}
    assert rows[-1]["description"] == "名人の域。"


@pytest.mark.parametrize(
    "options",
    [
        {"opposed_ties": "first"},
        {"opposed_tie": "hider"},
        {"cp_per_zabuton": -1},
        {"simple_target": "yes"},
    ],
)
async def test_bad_options_are_refused(options: dict[str, object]) -> None:
    """A misspelt or out-of-range table option is an error at table creation."""
    from taku.testing.harness import TableHarness

    with pytest.raises(InvalidCommand) as e:
        await TableHarness.create("hiden", options=options)
    assert e.value.code == "command/invalid_options"


@pytest.mark.parametrize(
    ("target_faces", "target", "success"), [((1, 1), 2, True), ((6, 6), 12, False)]
)
async def test_gm_target_doubles_mean_nothing(
    make_table: MakeTable, target_faces: tuple[int, int], target: int, success: bool
) -> None:
    """G-HD-06: the GM's 2D is only added: [1,1] and [6,6] on the target side are plain numbers."""
    t = await make_table()
    t.h.roll(*target_faces, 3, 3)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, skill="姿隠し", difficulty=0)))
    assert (
        ev.target is not None
        and ev.target.value == target
        and ev.side.value == 9
        and ev.success is success
    )
    assert t.h.dice.remaining == []


async def test_a_lacking_skill_falls_back_to_the_ability_alone(make_table: MakeTable) -> None:
    """HD-05 (五ノ一 "ゲームマスターが要求した技能も特技がない場合 … 判定値 = 能力値 + 2D").

    甲 lacks 《剣術》: the check is 〈器用〉1 + 2D[4,2] = 7, not a rejection; an ability
    of -2 is not clamped there (G-HD-02), and without an ability nothing is written.
    """
    t = await make_table()
    t.h.roll(4, 2)
    ev = _check(
        await t.h.send(t.pl, Check(character_id=t.kou, skill="剣術", ability="器用", target=7))
    )
    assert ev.side.skill is None and ev.side.skill_kind is None and ev.side.level == 0
    assert ev.side.missing_skill == "剣術" and ev.side.value == 7 and ev.success is True
    from taku.core.render import render

    assert "《剣術》なし" in render(ev, t.h.state, t.h.table.ruleset, t.h.gm)
    t2 = await make_table(kou={"abilities": {"器用": -2}})
    t2.h.roll(5, 5)
    ev = _check(
        await t2.h.send(
            t2.pl, Check(character_id=t2.kou, skill="《剣術》", ability="器用", target=8)
        )
    )
    assert ev.side.ability_used == -2 and ev.side.value == 8 and ev.success is True
    before = len(await t2.h.events())
    err = await t2.h.rejected(t2.pl, Check(character_id=t2.kou, skill="剣術", target=8))
    assert err.code == "rule/hiden/ability_required" and len(await t2.h.events()) == before


async def test_kan_six_zoro_is_unconditional_even_with_the_option_off(
    make_table: MakeTable,
) -> None:
    """HD-22 (五ノ七 勘働き "もちろん無条件成功、失敗もあります"): 〈勘働き〉3 + 12 + 2D[1,2] = 18
    against 難易度10 + 2D[6,5] = 21 succeeds even when ``critical_auto_success`` is off;
    an ordinary check with the same numbers fails, and a 座布団 reroll keeps the rule."""
    t = await make_table(options={"critical_auto_success": False})
    t.h.roll(6, 5, 6, 6, 1, 2)
    ev = _check(await t.h.send(t.h.gm, KanCheck(character_id=t.kou, difficulty=10)))
    assert (
        ev.side.value == 18
        and ev.target is not None
        and ev.target.value == 21
        and ev.success is True
    )
    t.h.roll(6, 5, 6, 6, 1, 2)
    ev = _check(await t.h.send(t.pl, Check(character_id=t.kou, ability="勘働き", difficulty=10)))
    assert ev.side.value == 18 and ev.success is False
    t.h.roll(4, 4)
    (kan,) = await t.h.send(t.h.gm, KanCheck(character_id=t.kou, target=30))
    assert isinstance(kan, CheckRolled) and kan.success is False
    from taku_hiden.commands import Reroll

    t.h.roll(6, 6, 1, 1)
    (rr,) = await t.h.send(t.pl, Reroll(check_id=kan.check_id))
    assert rr.side.value == 3 + 12 + 2 and rr.success is True
