"""Events of 秘伝の声 (tags ``hiden.<fact>``).

Every face rolled is a :class:`~taku.core.dice.Roll` field of an event: the
check's 2D, the 2D added after a 6ゾロ (成功効果), the GM's target 2D and a
座布団 reroll's new 2D, so a fold never rolls and ``taku verify`` can check
every face. Once shipped, an event only gains fields with defaults.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from taku.core.dice import Roll
from taku.core.events import Event

__all__ = [
    "EVENTS",
    "CheckRerolled",
    "CheckRolled",
    "ConditionsSet",
    "DifficultyComputed",
    "Effect",
    "Modifier",
    "OpposedResolved",
    "OpposedRolled",
    "Side",
    "Target",
    "TraitApplied",
    "ZabutonAwarded",
    "ZabutonConverted",
]

Effect = Literal["", "critical", "fumble"]
"""五ノ三 効果的行動: ``critical`` = 6ゾロ (成功効果), ``fumble`` = 1ゾロ (失敗効果)."""


class Modifier(msgspec.Struct, frozen=True, kw_only=True):
    """One named number that went into a sum (a difficulty modifier, a helper's part)."""

    label: str
    value: int


class TraitApplied(msgspec.Struct, frozen=True, kw_only=True):
    """A 特徴 the GM applied to a check (五ノ四; HD-10): its CP and the modifier used."""

    name: str
    value: int
    cp: int | None = None


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """One actor's 判定値 (五ノ一, 五ノ三).

    ``base`` = ``level`` + ``ability_used`` + the traits + ``modifier``;
    ``value`` = ``base`` + ``roll`` + ``bonus`` (the 2D added after a 6ゾロ).

    Attributes:
        character_id: the acting character (``None`` for a bare number check).
        name: who acts, for people.
        skill: the 《技能》 or 《特技》 used (``None``: an ability-only check, HD-05).
        skill_kind: ``skill`` (《技能》) or ``tokugi`` (《特技》).
        level: its level.
        ability: the 〈能力値〉 used.
        ability_value: its value on the sheet.
        ability_used: what counts (0 for a negative ability with a skill, HD-03).
        traits: the traits the GM applied (HD-10).
        modifier: any further modifier.
        base: the fixed part of the 判定値.
        roll: the check's 2D.
        bonus: the 2D added after a 6ゾロ (HD-08); its doubles mean nothing.
        value: the 判定値.
        effect: 6ゾロ ``critical`` / 1ゾロ ``fumble`` of ``roll``.
        rerolls: 座布団 spent on this side so far (五ノ五).
        missing_skill: the 《技能》 / 《特技》 asked for that the character lacks; the
            check fell back to the ability alone (五ノ一; HD-05).
    """

    character_id: str | None = None
    name: str = ""
    skill: str | None = None
    skill_kind: Literal["skill", "tokugi"] | None = None
    level: int = 0
    ability: str | None = None
    ability_value: int = 0
    ability_used: int = 0
    traits: tuple[TraitApplied, ...] = ()
    modifier: int = 0
    base: int = 0
    roll: Roll
    bonus: Roll | None = None
    value: int
    effect: Effect = ""
    rerolls: int = 0
    missing_skill: str | None = None


class Target(msgspec.Struct, frozen=True, kw_only=True):
    """The 目標値 of a single check (五ノ一, 五ノ二).

    Attributes:
        mode: ``rolled`` (difficulty + 2D for the GM), ``simple`` (difficulty + 7)
            or ``fixed`` (a number the GM gave).
        difficulty: the 難易度 asked for (``None`` for a fixed target).
        modifiers: difficulty modifiers added (fatigue, drink … HD-18).
        roll: the GM's 2D (mode ``rolled``); 6ゾロ / 1ゾロ mean nothing here (G-HD-06).
        value: the 目標値.
    """

    mode: Literal["rolled", "simple", "fixed"]
    difficulty: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    roll: Roll | None = None
    value: int


class CheckRolled(Event, frozen=True, kw_only=True, tag="hiden.check_rolled"):
    """A 行動判定 was rolled (五ノ一 … 五ノ三).

    Attributes:
        check_id: the check's id (a 座布団 reroll names it).
        kind: ``check``, ``kan`` (勘働き, 五ノ七) or ``seizure`` (発作 / 不治の病, 五ノ七).
        side: the 判定値.
        target: the 目標値; ``None`` when only the 判定値 was asked for.
        success: 判定値 >= 目標値, 1ゾロ always fails, 6ゾロ succeeds by default
            (``None`` without a target).
        label: what the check was for (free text or the chat command).
        situation: for ``seizure``: the situation of the difficulty table.
        trait: for ``seizure``: 発作 or 不治の病.
        turn: for ``seizure`` in combat: the turn (checked every turn).
        incapacitated: for ``seizure``: the character is now 行動不能.
    """

    check_id: str
    kind: str = "check"
    side: Side
    target: Target | None = None
    success: bool | None = None
    label: str = ""
    situation: str | None = None
    trait: str | None = None
    turn: int | None = None
    incapacitated: bool | None = None


class OpposedRolled(Event, frozen=True, kw_only=True, tag="hiden.opposed_rolled"):
    """An 対抗判定 (五ノ六): the first actor's 判定値 is the second's 目標値.

    Attributes:
        check_id: the check's id.
        first: the first actor (rolled first).
        second: the second actor.
        compared: the two values compared (both 1ゾロ: each side's 2D counts as 2).
        both_fumble: both rolled 1ゾロ (HD-14).
        tie: who a tie goes to under the table's option (G-HD-03).
        winner: 0 the first actor, 1 the second.
        label: what the check was for.
    """

    check_id: str
    first: Side
    second: Side
    compared: tuple[int, int]
    both_fumble: bool = False
    tie: str = "second"
    winner: int
    label: str = ""


class OpposedResolved(Event, frozen=True, kw_only=True, tag="hiden.opposed_resolved"):
    """A two-step 対抗判定 (五ノ六): ``second`` checked against the 判定値 of the
    earlier check ``against`` (its dice are in that check's event, not here).

    The earlier check closes; the pair stays open to 座布団 rerolls as ``check_id``.

    Attributes:
        check_id: the opposed check's id.
        against: the first actor's check.
        first_name: the first actor, for people.
        first_value: the first actor's 判定値.
        first_effect: the first actor's 6ゾロ / 1ゾロ.
        second: the second actor.
        compared, both_fumble, tie, winner, label: as in :class:`OpposedRolled`.
    """

    check_id: str
    against: str
    first_name: str = ""
    first_value: int
    first_effect: Effect = ""
    second: Side
    compared: tuple[int, int]
    both_fumble: bool = False
    tie: str = "second"
    winner: int
    label: str = ""


class CheckRerolled(Event, frozen=True, kw_only=True, tag="hiden.check_rerolled"):
    """A 座布団 was spent to reroll both dice of a check (五ノ五); the new roll stands.

    Attributes:
        check_id: the check rerolled.
        side_index: 0, or 1 for the second actor of an opposed check.
        character_id: whose 座布団 was spent.
        previous: the faces replaced.
        side: the side with the new 2D (and a new 6ゾロ bonus, if any).
        success: a single check's outcome now.
        winner: an opposed check's winner now.
        compared: an opposed check's compared values now.
        zabuton_left: 座布団 the character holds after this one.
        incapacitated: for a 発作 check, 行動不能 now.
    """

    check_id: str
    side_index: int = 0
    character_id: str
    previous: tuple[int, ...]
    side: Side
    success: bool | None = None
    winner: int | None = None
    compared: tuple[int, int] | None = None
    zabuton_left: int
    incapacitated: bool | None = None


class ZabutonAwarded(Event, frozen=True, kw_only=True, tag="hiden.zabuton_awarded"):
    """「座布団一枚!」: the GM gave ``count`` 座布団 (五ノ五); ``zabuton`` is the new count."""

    character_id: str
    count: int
    reason: str = ""
    zabuton: int


class ZabutonConverted(Event, frozen=True, kw_only=True, tag="hiden.zabuton_converted"):
    """At the session's end ``zabuton`` 座布団 became ``cp`` CP (五ノ五); the count is now 0."""

    character_id: str
    zabuton: int
    cp: int
    cp_total: int


class ConditionsSet(Event, frozen=True, kw_only=True, tag="hiden.conditions_set"):
    """The GM set a character's fatigue / hunger / drink conditions (五ノ七; HD-18).

    ``modifier`` is what they add to the difficulty of every check of the
    character now (酒の耐性 applied).
    """

    character_id: str
    conditions: tuple[str, ...]
    modifier: int = 0


class DifficultyComputed(Event, frozen=True, kw_only=True, tag="hiden.difficulty_computed"):
    """A helper of 五ノ七 computed a difficulty the GM may accept or change.

    Attributes:
        helper: ``jump``, ``lift``, ``visibility``, ``fatigue`` or ``seizure``.
        character_id: the character it was computed for, if any.
        parts: the numbers that make the difficulty, each named.
        difficulty: the result.
        simple_target: difficulty + 7.
        detail: the inputs (distance in 尺, weight in 貫 …) as JSON data.
        note: a remark (the book's own discrepancy, a rounding).
    """

    helper: str
    character_id: str | None = None
    parts: tuple[Modifier, ...] = ()
    difficulty: int
    simple_target: int
    detail: dict[str, Any] = {}
    note: str = ""


EVENTS: tuple[type[Event], ...] = (
    CheckRolled,
    OpposedRolled,
    OpposedResolved,
    CheckRerolled,
    ZabutonAwarded,
    ZabutonConverted,
    ConditionsSet,
    DifficultyComputed,
)
