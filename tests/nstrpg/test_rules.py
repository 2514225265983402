"""The pure rule functions of nstrpg: checks, patterns, criticals, damage, combat helpers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taku_nstrpg import checks, combat, damage, dkk, satsubatsu
from taku_nstrpg.checks import EASY, HARD, KIDS, NORMAL, UH, UH2, UH3, Pattern

faces_st = st.lists(st.integers(1, 6), max_size=30)


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("カラテ判定:U-HARD2".split(":")[1], UH2),
        ("UH2", UH2),
        ("NORMAL", NORMAL),
        ("N", NORMAL),
        ("K", KIDS),
        ("ULTRA-HARD", UH),
        ("UH3", UH3),
        ("E", EASY),
        ("H", HARD),
        ("UH", UH),
        ("U", UH),
        ("5", HARD),
    ],
)
def test_parse_difficulty(text: str, level: int) -> None:
    """NS-EX-02 / NS-08: the rulebook's and BCDice's ways of writing a difficulty."""
    assert checks.parse_difficulty(text) == level


def test_difficulty_modifiers_move_one_rung() -> None:
    """NS-EX-07, NS-03: NORMAL+1 is HARD; below KIDS clamps at KIDS; UH+1 is UH2."""
    assert checks.shift(NORMAL, 1) == HARD
    assert checks.shift(NORMAL, -1) == EASY
    assert checks.shift(NORMAL, -5) == KIDS
    assert checks.difficulty_name(checks.shift(UH, 1)) == "UH2"
    assert checks.difficulty_name(checks.shift(NORMAL, 6, cap=UH3)) == "UH3"


def test_uh_success_counting() -> None:
    """NS-EX-05: six 6s give UH3 4 successes, UH2 5, UH 6."""
    six = [6] * 6
    assert [checks.count_successes(six, d) for d in (UH3, UH2, UH)] == [4, 5, 6]
    assert checks.count_successes([6, 6, 5], UH3) == 0
    assert checks.count_successes([6, 6, 5], UH2) == 1


@pytest.mark.parametrize(
    ("spec", "faces", "ok"),
    [
        ("【6,6】", [6, 6, 6], True),
        ("【6,5+】", [6, 6, 1], True),
        ("【4】", [6, 5], False),
        ("【4】", [4, 1], True),
        ("【6,6】", [6, 5, 5], False),
        ("【5+,5+】", [5, 6], True),
        ("【6,5+】", [6, 4], False),
        ("665+", [6, 5, 6], True),
        ("665+", [6, 6, 4], False),
        ("【6,6,6】", [6, 6, 4, 3, 1, 1], False),
    ],
)
def test_patterns(spec: str, faces: list[int], ok: bool) -> None:
    """NS-EX-06, NS-05: 【】 patterns match as multisets, each element its own die."""
    assert Pattern.parse(spec).matches(faces) is ok


@given(faces_st, st.integers(KIDS, 12))
def test_successes_never_exceed_the_pool(faces: list[int], level: int) -> None:
    """Property: the success count is between 0 and the number of dice."""
    n = checks.count_successes(faces, level)
    assert 0 <= n <= len(faces)
    assert (n > 0) == checks.evaluate(faces, level).success


@given(faces_st, st.integers(-3, 3))
def test_patterns_ignore_difficulty(faces: list[int], mod: int) -> None:
    """NS-04: a 【】 pattern does not depend on any difficulty modifier; more dice never unmatch it."""
    p = Pattern.parse("6,5+")
    assert p.matches(faces) == p.matches(list(faces))
    if p.matches(faces):
        assert p.matches([*faces, 1])


def test_opposed_sonic_boom() -> None:
    """NS-EX-04 / NS-11: 8 successes against 1: the first wins by 7; a tie has no winner (G-NS-03)."""
    r = checks.opposed([8, 1])
    assert (r.winner, r.margin) == (0, 7)
    assert checks.opposed([2, 2]).winner is None


def test_criticals() -> None:
    """NS-88, NS-89, G-NS-04: 【6,6】 サツバツ, 【6,6,6】 ナムアミダブツ, none on a failed check."""
    assert satsubatsu.critical_of([6, 6, 4, 1], success=True) == satsubatsu.SATSUBATSU
    assert satsubatsu.critical_of([6, 6, 6, 2, 1], success=True) == satsubatsu.NAMU
    assert satsubatsu.critical_of([6, 6], success=False) == satsubatsu.NONE
    seimitsu = combat.STYLES["seimitsu"]
    assert (
        satsubatsu.critical_of(
            [6, 6, 4, 3, 1, 1],
            success=True,
            satsubatsu=Pattern.parse(seimitsu.satsubatsu),
            namu=Pattern.parse(seimitsu.namu),
        )
        == satsubatsu.NONE
    )


@given(st.lists(st.integers(0, 12), max_size=5))
def test_tsuda_never_stacks(sources: list[int]) -> None:
    """Property (NS-92): only one 痛打 applies to a base damage, never their sum."""
    t = satsubatsu.tsuda(sources)
    assert t == max([s for s in sources if s > 0], default=0)
    assert damage.final_damage(1, t, 0) <= 1 + max(sources, default=0)


def test_endurance_example() -> None:
    """NS-EX-24: 体力 -4 with 精神力 5 spends 4 and faints at 体力 0, 精神力 1."""
    out = damage.resolve_damage(
        kind="pc", ninja=True, tairyoku=0, seishin=5, status="active", amount=4
    )
    assert (out.tairyoku, out.seishin, out.seishin_spent, out.status) == (0, 1, 4, damage.FAINTED)
    out = damage.resolve_damage(
        kind="pc", ninja=True, tairyoku=1, seishin=2, status="active", amount=5
    )
    assert out.status == damage.EXPLODED  # G-NS-07


def test_seishin_minus() -> None:
    """NS-84: 精神力 below 0 faints a ninja at 体力 0 and removes a non-ninja boss."""
    row3 = satsubatsu.row(3)
    out = damage.resolve_damage(
        kind="pc",
        ninja=True,
        tairyoku=5,
        seishin=1,
        status="active",
        amount=2,
        ability_damage=row3.ability_damage,
        injury=row3.injury,
    )
    assert (out.tairyoku, out.seishin, out.status, out.injury) == (0, -1, damage.FAINTED, "胴体")
    out = damage.resolve_damage(
        kind="boss",
        ninja=False,
        tairyoku=5,
        seishin=1,
        status="active",
        amount=2,
        ability_damage=row3.ability_damage,
    )
    assert out.status == damage.REMOVED


def test_added_effects_need_hp_loss() -> None:
    """NS-90: a row's added effects apply only when 体力 went down."""
    out = damage.resolve_damage(
        kind="pc",
        ninja=True,
        tairyoku=5,
        seishin=3,
        status="active",
        amount=0,
        ability_damage={"karate": 2},
        injury="腕部",
    )
    assert out.ability_damage == {} and out.injury == ""


def test_barrage() -> None:
    """NS-EX-22: 15 damage ÷6 is 2 at UH, ÷12 is 1 at UH2, ÷3 is 5 at HARD; capped at UH3."""
    for div, dmg, diff in ((6, 2, UH), (12, 1, UH2), (3, 5, HARD)):
        d, plus = combat.barrage(15, div)
        assert d == dmg and combat.evasion_difficulty(barrage=plus) == diff
    assert combat.evasion_difficulty(base=UH2, barrage=3) == UH3


def test_auto_skills() -> None:
    """NS-EX-33, NS-23: thresholds on base values."""
    s = combat.auto_skills(karate=10, neuron=13, wazamae=7)
    assert (s.renzoku, s.rensha, s.multi_target, s.jisa, s.sixth_sense) == (2, 2, True, True, True)
    assert combat.auto_skills(karate=13, neuron=6, wazamae=13).renzoku == 3
    assert combat.auto_skills(karate=6, neuron=6, wazamae=6) == combat.AutoSkills()


def test_atmosphere_table() -> None:
    """NS-107, NS-108: hard +1 on melee; ultra-hard +2 melee, +1 shuriken/jitsu/hacking, guns and mobs +0."""
    assert combat.atmosphere_modifier("hard", "melee", from_mob=False) == 1
    assert combat.atmosphere_modifier("hard", "shuriken", from_mob=False) == 0
    assert combat.atmosphere_modifier("ultra_hard", "melee", from_mob=False) == 2
    assert combat.atmosphere_modifier("ultra_hard", "jitsu", from_mob=False) == 1
    assert combat.atmosphere_modifier("ultra_hard", "gun", from_mob=False) == 0
    assert combat.atmosphere_modifier("ultra_hard", "melee", from_mob=True) == 0


def test_counter_conditions() -> None:
    """NS-77: melee only, more successes, adjacent, not area/moving, never a counter of a counter."""
    ok = dict(kinds=["melee"], evasion_successes=4, attack_successes=3, adjacent=True)
    assert combat.can_counter(**ok) is None
    assert combat.can_counter(**{**ok, "evasion_successes": 3}) == "not_enough_successes"
    assert combat.can_counter(**{**ok, "kinds": ["gun"]}) == "not_melee"
    assert combat.can_counter(**{**ok, "adjacent": False}) == "not_adjacent"
    assert combat.can_counter(**ok, area=True) == "area_or_moving"
    assert combat.can_counter(**ok, counter=True) == "counter_of_counter"


@given(st.integers(-30, 30), st.integers(-30, 30))
def test_dkk_never_exceeds_12(start: int, gain: int) -> None:
    """Property (NS-25): 【DKK】 stays within 0..12."""
    assert 0 <= dkk.clamp_dkk(dkk.clamp_dkk(start) + gain) <= dkk.DKK_MAX


def test_wasshoi() -> None:
    """NS-98: 2D6 at or below the highest DKK succeeds."""
    assert dkk.wasshoi(4, dkk.wasshoi_target([3, 8])) is True
    assert dkk.wasshoi(9, 8) is False


def test_ex31_hate_bonus() -> None:
    """NS-EX-31: ◉ニンジャソウルの闇 ×3 and ◉ダークカラテ・エンハンスメント: 8 bonus dice."""
    assert dkk.hate_bonus(3 + 1) == 8


def test_importable_attack_and_evasion() -> None:
    """The one-attack / one-evasion functions other rulesets import (NS-EX-29 numbers)."""
    from taku.core.dice import ScriptedDice

    prof = combat.attack_profile(
        kind="melee",
        weapon=combat.BUILTIN_WEAPONS["unarmed"],
        style=None,
        skills=combat.AutoSkills(),
        ninja=True,
    )
    roll, a = combat.roll_attack(ScriptedDice([1, 4, 6, 6]), 4, prof.difficulty, prof)
    assert (a.successes, a.hit, a.critical) == (3, True, satsubatsu.SATSUBATSU)
    e = combat.resolve_evasion([1, 2, 3, 6, 6, 6], EASY, attack_successes=3)
    assert (e.successes, e.success, e.counter) == (4, True, True)
    assert combat.resolve_evasion([1, 2, 3, 6, 6, 6], NORMAL, attack_successes=3).counter is False
    eff = satsubatsu.apply_row(2, other_tsuda=[1])
    assert (eff.tsuda, eff.injury) == (1, "頭部")
    eff = satsubatsu.apply_row(6, resistance=True, death_roll=9)
    assert (eff.tsuda, eff.instant_death) == (9, False)
