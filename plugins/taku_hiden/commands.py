"""Commands of 秘伝の声 (tags ``hiden.<verb>``).

Clients send these; unknown fields are errors. Checks name a character and
the 《技能》 / 《特技》 and 〈能力値〉 on its sheet, or give bare numbers (an NPC
the GM runs without a sheet).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from taku.core.commands import Command

__all__ = [
    "COMMANDS",
    "AwardZabuton",
    "Check",
    "CheckSpec",
    "ConvertZabuton",
    "Fatigue",
    "Jump",
    "KanCheck",
    "Lift",
    "Oppose",
    "OpposedCheck",
    "Reroll",
    "Seizure",
    "SeizureCheck",
    "SetConditions",
    "TraitUse",
    "Visibility",
]

Small = Annotated[int, msgspec.Meta(ge=-999, le=999)]
Distance = Annotated[float, msgspec.Meta(ge=0, le=100000)]


class TraitUse(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A 特徴 the GM applies to a check (五ノ四).

    ``value`` overrides the modifier; otherwise the trait's own stated
    modifier, else its CP, is added (HD-10). A check without a character must
    give ``value``.
    """

    name: str
    value: Small | None = None


class CheckSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One actor's part of a check (五ノ一).

    Attributes:
        character_id: the acting character; its sheet gives the numbers.
        skill: a 《技能》 or 《特技》 on the sheet (a 《特技》 brings its fixed ability);
            none for an ability-only check (HD-05).
        ability: the 〈能力値〉 (needed with a 《技能》 or without any skill).
        level: without a character: the skill's level.
        ability_value: without a character: the ability's value.
        traits: traits that bear on the check; only the GM chooses them (五ノ四).
        modifier: any further modifier to the 判定値.
        name: who acts, for a check without a character.
    """

    character_id: str | None = None
    skill: str | None = None
    ability: str | None = None
    level: Small | None = None
    ability_value: Small | None = None
    traits: list[TraitUse] = []
    modifier: Small = 0
    name: str = ""


class Check(Command, frozen=True, kw_only=True, tag="hiden.check"):
    """Roll a 行動判定 (五ノ一 … 五ノ三).

    Give ``difficulty`` (目標値 = difficulty + 2D, or + 7 when ``simple`` or the
    table's ``simple_target`` option), or a fixed ``target``, or neither to get
    the 判定値 alone. The character's standing conditions add to the difficulty.
    """

    character_id: str | None = None
    skill: str | None = None
    ability: str | None = None
    level: Small | None = None
    ability_value: Small | None = None
    traits: list[TraitUse] = []
    modifier: Small = 0
    name: str = ""
    difficulty: Small | None = None
    target: Small | None = None
    simple: bool | None = None
    label: str = ""

    def spec(self) -> CheckSpec:
        return CheckSpec(
            character_id=self.character_id,
            skill=self.skill,
            ability=self.ability,
            level=self.level,
            ability_value=self.ability_value,
            traits=self.traits,
            modifier=self.modifier,
            name=self.name,
        )


class OpposedCheck(Command, frozen=True, kw_only=True, tag="hiden.opposed_check"):
    """Roll an 対抗判定 (五ノ六): ``first`` acts first, ``second`` checks against its 判定値.

    The GM, or a member who controls both characters, sends it.
    """

    first: CheckSpec
    second: CheckSpec
    label: str = ""


class Oppose(Command, frozen=True, kw_only=True, tag="hiden.oppose"):
    """The second half of a two-step 対抗判定 (五ノ六): ``second`` checks against the
    判定値 of ``against``, an open ``hiden.check`` rolled without a target.

    The controller of the second character (or the GM) sends it.
    """

    against: str
    second: CheckSpec
    label: str = ""


class Reroll(Command, frozen=True, kw_only=True, tag="hiden.reroll"):
    """Spend one 座布団 to reroll both dice of a check (五ノ五).

    ``check_id`` defaults to the latest open check of a character the sender
    controls; ``character_id`` picks the side of an opposed check.
    """

    check_id: str | None = None
    character_id: str | None = None


class AwardZabuton(Command, frozen=True, kw_only=True, tag="hiden.award_zabuton"):
    """GM: 「座布団一枚!」 (五ノ五)."""

    gm_only = True

    character_id: str
    count: Annotated[int, msgspec.Meta(ge=1, le=99)] = 1
    reason: str = ""


class ConvertZabuton(Command, frozen=True, kw_only=True, tag="hiden.convert_zabuton"):
    """GM, at the session's end: turn 座布団 into CP (五ノ五); every character, or one."""

    gm_only = True

    character_id: str | None = None


class KanCheck(Command, frozen=True, kw_only=True, tag="hiden.kan_check"):
    """The GM calls for a 勘働き check: 〈勘働き〉 + 2D (五ノ七; HD-22)."""

    character_id: str
    difficulty: Small | None = None
    target: Small | None = None
    simple: bool | None = None
    modifier: Small = 0
    label: str = ""


class SeizureCheck(Command, frozen=True, kw_only=True, tag="hiden.seizure_check"):
    """A 〈気合い〉 check for 発作 / 不治の病 under tension (五ノ七; HD-21).

    The difficulty comes from the situation table (``trait`` defaults to the
    one on the sheet; with both, the harder) unless the GM gives ``difficulty``.
    Failure: 行動不能. In combat it is made every turn (``turn``).
    """

    character_id: str
    situation: str
    trait: str | None = None
    turn: Annotated[int, msgspec.Meta(ge=1)] | None = None
    difficulty: Small | None = None
    simple: bool | None = None


class Seizure(Command, frozen=True, kw_only=True, tag="hiden.seizure"):
    """The 発作 / 不治の病 difficulty of a situation (五ノ七; HD-21), without rolling.

    ``trait`` defaults to the character's (with both, the harder).
    """

    situation: str
    trait: str | None = None
    character_id: str | None = None


class SetConditions(Command, frozen=True, kw_only=True, tag="hiden.set_conditions"):
    """GM: a character's standing fatigue / hunger / drink conditions (五ノ七; HD-18).

    They add to the difficulty of every check of the character until the GM
    clears them (hunger and fatigue: until recovered; drink: until asleep).
    """

    gm_only = True

    character_id: str
    conditions: list[str] = []


class Jump(Command, frozen=True, kw_only=True, tag="hiden.jump"):
    """《跳躍》 difficulty (五ノ七): a ``high`` or ``long`` jump, with or without a run-up.

    The distance is ``ken`` 間 + ``jo`` 丈 + ``shaku`` 尺 (1 間 = 6 尺, 1 丈 = 10 尺).
    ``risky`` adds to it when failure is not an option.
    """

    kind: Literal["high", "long"]
    run_up: bool = False
    ken: Distance = 0
    jo: Distance = 0
    shaku: Distance = 0
    risky: Small = 0
    character_id: str | None = None


class Lift(Command, frozen=True, kw_only=True, tag="hiden.lift"):
    """《持ち上げ》 difficulty (五ノ七): ``kan`` 貫 or ``kg`` kilograms (1 貫 = 3.75 kg)."""

    kan: Distance | None = None
    kg: Distance | None = None
    sword_grip: bool = False
    character_id: str | None = None


class Visibility(Command, frozen=True, kw_only=True, tag="hiden.visibility"):
    """視界の修正 (五ノ七): a base difficulty for distance and size, plus weather / night.

    ``anshi_level`` (〈暗視〉) defaults to the character's; it cancels at most
    its level and never more than the modifiers.
    """

    conditions: list[str]
    base: Small = 0
    anshi_level: Annotated[int, msgspec.Meta(ge=0, le=99)] | None = None
    character_id: str | None = None


class Fatigue(Command, frozen=True, kw_only=True, tag="hiden.fatigue"):
    """疲労などによる修正 (五ノ七): hunger, fatigue and drink add to a difficulty.

    ``sake_tolerance`` (the CP of 酒の耐性) defaults to the character's trait.
    """

    conditions: list[str]
    base: Small = 0
    sake_tolerance: Annotated[int, msgspec.Meta(ge=0, le=99)] | None = None
    character_id: str | None = None


COMMANDS: tuple[type[Command], ...] = (
    Check,
    OpposedCheck,
    Oppose,
    Reroll,
    AwardZabuton,
    ConvertZabuton,
    KanCheck,
    SeizureCheck,
    Seizure,
    SetConditions,
    Jump,
    Lift,
    Visibility,
    Fatigue,
)
