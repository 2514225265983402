"""Replay, rendering, round trips, purity, and hypothesis properties of the 秘伝の声 ruleset."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from taku.core import table as core_table
from taku.core.commands import Command, CreateCharacter
from taku.core.dice import Roll, ScriptedDice
from taku.core.events import Event
from taku.core.render import render
from taku.core.ruleset import Context
from taku.errors import TakuError
from taku_hiden import COMMANDS, EVENTS, RULESET
from taku_hiden._checks import opposed_outcome, single_success
from taku_hiden.commands import (
    AwardZabuton,
    Check,
    CheckSpec,
    ConvertZabuton,
    Fatigue,
    Jump,
    KanCheck,
    Lift,
    Oppose,
    OpposedCheck,
    Reroll,
    Seizure,
    SeizureCheck,
    SetConditions,
    TraitUse,
    Visibility,
)
from taku_hiden.events import CheckRerolled, Side, Target
from taku_hiden.options import HidenOptions
from taku_hiden.tables import (
    fatigue_modifier,
    jump_difficulty,
    lift_difficulty,
    visibility_modifier,
)

from .conftest import KOU, OTSU, MakeTable

# --------------------------------------------------------------------------- a session, replayed


async def test_replay_reproduces_characters_and_results(make_table: MakeTable) -> None:
    """Folding the stored log from scratch gives the same characters, 座布団, conditions and checks, at every seq."""
    t = await make_table()
    h = t.h
    h.roll(3, 4, 2, 4)
    await h.send(t.pl, Check(character_id=t.kou, skill="料理", ability="器用", difficulty=2))
    await h.send(h.gm, AwardZabuton(character_id=t.otsu, count=2, reason="名演技"))
    h.roll(4, 3, 4, 2, 5, 5)
    await h.send(
        h.gm,
        OpposedCheck(
            first=CheckSpec(character_id=t.kou, skill="姿隠し"),
            second=CheckSpec(character_id=t.otsu, skill="探索"),
        ),
    )
    await h.send(h.gm, Reroll(character_id=t.otsu))
    await h.send(h.gm, SetConditions(character_id=t.kou, conditions=["徹夜"]))
    mid_seq = h.state.seq
    mid = msgspec.to_builtins(h.state)
    h.roll(1, 1, 6, 6, 2, 2)
    await h.send(h.gm, SeizureCheck(character_id=t.kou, situation="雑魚戦闘", turn=1))
    await h.send(h.gm, ConvertZabuton())
    await h.assert_replay_matches()
    assert msgspec.to_builtins(await h.replay(to_seq=mid_seq)) == mid
    replayed = await h.replay()
    assert (
        replayed.game.characters[t.otsu].zabuton == 0
        and replayed.game.characters[t.otsu].cp_from_zabuton == 1
    )
    assert replayed.game.characters[t.kou].conditions == ("徹夜",)
    assert [c.kind for c in replayed.game.checks.values()] == ["check", "opposed", "seizure"]
    assert replayed.characters[t.kou].sheet["tokugi"]["姿隠し"] == {"level": 2, "ability": "器用"}


async def test_every_event_renders_as_japanese(make_table: MakeTable) -> None:
    """Each ruleset event has its own readable line (no bare tag)."""
    t = await make_table()
    h = t.h
    h.roll(3, 4, 6, 6, 2, 3, 1, 1, 1, 1, 4, 4, 3, 3)
    cmds: list[tuple[str, Command]] = [
        (
            h.gm,
            Check(
                character_id=t.kou,
                skill="姿隠し",
                difficulty=2,
                traits=[TraitUse(name="容貌")],
                label="塀を越える",
            ),
        ),
        (
            h.gm,
            OpposedCheck(
                first=CheckSpec(character_id=t.kou, skill="姿隠し"),
                second=CheckSpec(character_id=t.otsu, skill="探索"),
            ),
        ),
        (t.pl, Reroll(character_id=t.kou)),
        (h.gm, AwardZabuton(character_id=t.kou, reason="名台詞")),
        (h.gm, SetConditions(character_id=t.kou, conditions=["晩酌程度"])),
        (t.pl, Jump(kind="long", run_up=True, ken=3)),
        (h.gm, ConvertZabuton(character_id=t.kou)),
    ]
    lines = []
    check_ids = set()
    for member, cmd in cmds:
        for ev in await h.send(member, cmd):
            lines.append(render(ev, h.state, h.table.ruleset, member))
            if isinstance(getattr(ev, "check_id", None), str):
                check_ids.add(ev.check_id)
    expected = [
        "行動判定「塀を越える」",
        "6ゾロ!",
        "対抗判定",
        "1ゾロ",
        "座布団で振り直し",
        "座布団一枚！",
        "晩酌程度",
        "難易度6",
        "CP",
    ]
    text = "\n".join(lines)
    for fragment in expected:
        assert fragment in text, (fragment, text)
    assert "hiden." not in text
    # the checks' internal ids (k1, k2 …) are for commands, not for people reading the log
    assert check_ids and all(f"({cid})" not in text for cid in check_ids), text


# --------------------------------------------------------------------------- round trips and purity


async def test_every_struct_round_trips(make_table: MakeTable) -> None:
    """Every command and event survives JSON through the table's decoders."""
    t = await make_table()
    commands: list[Command] = [
        Check(
            character_id=t.kou,
            skill="姿隠し",
            traits=[TraitUse(name="容貌", value=1)],
            difficulty=1,
            simple=True,
        ),
        OpposedCheck(first=CheckSpec(level=1), second=CheckSpec(character_id=t.otsu, skill="探索")),
        Reroll(check_id="k1", character_id=t.kou),
        Oppose(against="k1", second=CheckSpec(name="乙", level=2, ability_value=1)),
        AwardZabuton(character_id=t.kou, count=2, reason="r"),
        ConvertZabuton(),
        KanCheck(character_id=t.kou, target=8),
        SeizureCheck(character_id=t.kou, situation="雑魚戦闘", turn=3),
        Seizure(situation="雑魚戦闘", trait="発作"),
        SetConditions(character_id=t.kou, conditions=["徹夜"]),
        Jump(kind="high", jo=1.5),
        Lift(kg=70.5, sword_grip=True),
        Visibility(conditions=["闇夜"], anshi_level=2, base=1),
        Fatigue(conditions=["晩酌程度"], sake_tolerance=1),
    ]
    assert {type(c) for c in commands} == set(COMMANDS)
    dec = core_table.command_decoder(RULESET)
    for c in commands:
        assert dec.decode(msgspec.json.encode(c)) == c
    # events: one of each from a short session
    h = t.h
    h.roll(2, 2, 3, 3, 4, 4, 5, 5, 1, 2, 2, 5, 3, 3)
    for member, cmd in [
        (h.gm, Check(character_id=t.kou, skill="姿隠し", difficulty=0)),
        (t.pl, Check(character_id=t.kou, skill="姿隠し")),
        (
            h.gm,
            Oppose(
                against=f"k{h.state.seq + 2}", second=CheckSpec(character_id=t.otsu, skill="探索")
            ),
        ),
        (
            h.gm,
            OpposedCheck(
                first=CheckSpec(level=1), second=CheckSpec(character_id=t.otsu, skill="探索")
            ),
        ),
        (t.pl, Reroll(character_id=t.kou)),
        (h.gm, AwardZabuton(character_id=t.kou)),
        (h.gm, ConvertZabuton()),
        (h.gm, SetConditions(character_id=t.kou, conditions=["徹夜"])),
        (t.pl, Lift(kg=70)),
    ]:
        await h.send(member, cmd)
    events = await h.events()
    seen = {type(e) for e in events} & set(EVENTS)
    assert seen == set(EVENTS)
    ev_dec = core_table.event_decoder(RULESET)
    for e in events:
        assert ev_dec.decode(msgspec.json.encode(e)) == e


def test_exports_are_unique_and_complete() -> None:
    """The package's __all__ names exist and repeat nothing."""
    import taku_hiden

    assert len(set(taku_hiden.__all__)) == len(taku_hiden.__all__)
    for name in taku_hiden.__all__:
        assert hasattr(taku_hiden, name)


# --------------------------------------------------------------------------- pure properties

faces = st.tuples(st.integers(1, 6), st.integers(1, 6))


def _side(roll: tuple[int, int], base: int, bonus: tuple[int, int] | None = None) -> Side:
    effect = "critical" if roll == (6, 6) else "fumble" if roll == (1, 1) else ""
    b = Roll(sides=6, faces=bonus) if effect == "critical" and bonus else None
    value = base + sum(roll) + (sum(bonus) if b and bonus else 0)
    return Side(base=base, roll=Roll(sides=6, faces=roll), bonus=b, value=value, effect=effect)  # type: ignore[arg-type]


@given(
    faces,
    faces,
    faces,
    faces,
    st.integers(-5, 15),
    st.integers(-5, 15),
    st.sampled_from(["second", "first"]),
)
def test_opposed_outcome_invariants(
    r1: tuple[int, int],
    r2: tuple[int, int],
    b1: tuple[int, int],
    b2: tuple[int, int],
    base1: int,
    base2: int,
    tie: str,
) -> None:
    """HD-13/14: a lone 1ゾロ loses; both 1ゾロ compare base + 2; otherwise the second wins by reaching the first."""
    first, second = _side(r1, base1, b1), _side(r2, base2, b2)
    winner, compared, both = opposed_outcome(first, second, tie)
    if first.effect == "fumble" and second.effect == "fumble":
        assert both and compared == (base1 + 2, base2 + 2)
    else:
        assert not both and compared == (first.value, second.value)
        if first.effect == "fumble":
            assert winner == 1
            return
        if second.effect == "fumble":
            assert winner == 0
            return
    a, b = compared
    assert winner == (1 if (b > a or (b == a and tie == "second")) else 0)


@given(faces, faces, st.integers(-10, 20), st.integers(-10, 30), st.booleans())
def test_single_success_invariants(
    roll: tuple[int, int], bonus: tuple[int, int], base: int, target: int, auto: bool
) -> None:
    """HD-06/08/09: 1ゾロ never succeeds; 6ゾロ succeeds by default; otherwise 判定値 >= 目標値."""
    side = _side(roll, base, bonus)
    ok = single_success(
        side, Target(mode="fixed", value=target), HidenOptions(critical_auto_success=auto)
    )
    if roll == (1, 1):
        assert ok is False
    elif roll == (6, 6) and auto:
        assert ok is True
    else:
        assert ok is (side.value >= target)


@given(st.sampled_from(["high", "long"]), st.booleans(), st.integers(0, 200), st.integers(0, 200))
def test_jump_is_monotone_and_linear(kind: str, run_up: bool, a: int, b: int) -> None:
    """HD-15: a longer jump is never easier; one unit more distance is exactly +1."""
    lo, hi = sorted((a, b))
    d = jump_difficulty  # type: ignore[assignment]
    assert d(kind, run_up, Fraction(lo)) <= d(kind, run_up, Fraction(hi))  # type: ignore[arg-type]
    unit = 1 if kind == "high" else 2
    assert d(kind, run_up, Fraction(lo + unit)) == d(kind, run_up, Fraction(lo)) + 1  # type: ignore[arg-type]


@given(st.integers(0, 400_00))
def test_lift_from_kg(centigrams: int) -> None:
    """HD-16: kg / 3.75 = 貫, fraction dropped, minus 15."""
    kg = Fraction(centigrams, 100)
    assert lift_difficulty(kg / Fraction(15, 4)) == math.floor(kg * 4 / 15) - 15


@given(st.lists(st.sampled_from([2, 3, 4, 6, 7, 8, 10]), max_size=4), st.integers(0, 30))
def test_anshi_cancels_within_bounds(mods: list[int], level: int) -> None:
    """HD-17: 〈暗視〉 cancels min(level, the modifiers), each modifier at most itself."""
    cancelled, remaining = visibility_modifier(mods, level)
    assert sum(cancelled) == min(level, sum(mods))
    assert all(0 <= c <= m for c, m in zip(cancelled, mods, strict=True))
    assert remaining == sum(mods) - sum(cancelled) >= 0


@given(
    st.sampled_from(["晩酌程度", "ゆっくり飲んだ", "浴びるほど飲んだ", "徹夜", "絶食"]),
    st.integers(0, 20),
)
def test_sake_tolerance_never_below_zero(key: str, tolerance: int) -> None:
    """HD-19: 酒の耐性 lowers drink modifiers, never below 0, and leaves hunger and fatigue alone."""
    value = fatigue_modifier(key, tolerance)
    assert value >= 0
    if key in ("徹夜", "絶食"):
        assert value == fatigue_modifier(key, 0)


# --------------------------------------------------------------------------- fold = step by step, pure


def _new_table(options: dict[str, Any]) -> tuple[core_table.TableState, list[Event]]:
    evs = core_table.creation_events(
        name="卓", ruleset=RULESET, options=options, seed_hash="", gm_id="m1", gm_name="GM"
    ) + [core_table.join_event("m2", "PL", "player")]
    state = core_table.TableState(table_id="t")
    for e in evs:
        state = core_table.evolve(state, e, RULESET)
    return state, evs


def _run(
    state: core_table.TableState, actor: str, cmd: Command, dice: ScriptedDice, log: list[Event]
) -> core_table.TableState:
    ctx = Context(
        actor=actor,
        role=state.role_of(actor),
        dice=dice,
        options=RULESET.make_options(state.options),
        next_seq=len(log) + 1,
    )
    emitted = core_table.decide(state, cmd, ctx, RULESET)
    for e in emitted:
        log.append(e)  # type: ignore[arg-type]
        state = core_table.evolve(state, e, RULESET)  # type: ignore[arg-type]
    return state


_actions = st.lists(
    st.one_of(
        st.tuples(st.just("check"), st.integers(-3, 10)),
        st.tuples(st.just("opposed"), st.integers(-3, 3)),
        st.tuples(st.just("reroll"), st.just(0)),
        st.tuples(st.just("award"), st.integers(1, 3)),
        st.tuples(st.just("seizure"), st.integers(1, 5)),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(
    _actions,
    st.lists(st.integers(1, 6), min_size=80, max_size=80),
    st.sampled_from(["second", "first"]),
)
def test_fold_equals_step_by_step_and_cushions_fall_by_one(
    actions: list[tuple[str, int]], script: list[int], tie: str
) -> None:
    """Folding the JSON log from scratch equals the state built step by step; each reroll costs one 座布団."""
    state, log = _new_table({"opposed_tie": tie})
    dice = ScriptedDice(script * 3)
    state = _run(state, "m2", CreateCharacter(name="甲", sheet=KOU), dice, log)
    state = _run(state, "m1", CreateCharacter(name="乙", sheet=OTSU), dice, log)
    kou, otsu = list(state.characters)
    for kind, n in actions:
        cmd: Command
        actor = "m1"
        if kind == "check":
            cmd, actor = Check(character_id=kou, skill="姿隠し", difficulty=n), "m2"
        elif kind == "opposed":
            cmd = OpposedCheck(
                first=CheckSpec(character_id=kou, skill="姿隠し", modifier=n),
                second=CheckSpec(character_id=otsu, skill="探索"),
            )
        elif kind == "reroll":
            cmd, actor = Reroll(character_id=kou), "m2"
        elif kind == "award":
            cmd = AwardZabuton(character_id=kou, count=n)
        else:
            cmd = SeizureCheck(character_id=kou, situation="普通の緊張", turn=n)
        before = state.game.characters[kou].zabuton
        try:
            state = _run(state, actor, cmd, dice, log)
        except TakuError as e:
            assert kind == "reroll" and e.code in (
                "rule/hiden/no_zabuton",
                "rule/hiden/no_open_check",
            )
            continue
        if kind == "reroll":
            assert isinstance(log[-1], CheckRerolled)
            assert state.game.characters[kou].zabuton == before - 1 >= 0
    decoder = core_table.event_decoder(RULESET)
    replayed = core_table.TableState(table_id="t")
    for e in log:
        replayed = core_table.evolve(replayed, decoder.decode(msgspec.json.encode(e)), RULESET)
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(state)
