"""The commands of nstrpg (tags ``nstrpg.<verb>``); clients send them, so unknown fields are errors.

Players act for their own characters; commands marked GM are the GM's.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from taku.core.commands import GM, Command, owner_of

__all__ = [
    "COMMANDS",
    "AdjustValue",
    "Attack",
    "BeginTurnOf",
    "Check",
    "CreateMobs",
    "CreateNinjaSlayer",
    "DeclareBarrage",
    "EndCombat",
    "EndPhase",
    "EndScenario",
    "EndTurn",
    "EndTurnOf",
    "Evade",
    "GainDkk",
    "Inflict",
    "Kaishaku",
    "OpposedCheck",
    "OpposedSide",
    "OverrideHit",
    "Reroll",
    "RerollEntry",
    "Split",
    "StartCombat",
    "StartScenario",
    "StartTurn",
    "Wasshoi",
]

Dice = Annotated[int, msgspec.Meta(ge=0, le=100)]


class Check(Command, frozen=True, kw_only=True, tag="nstrpg.check"):
    """A check [判定] with a character's attribute (NSTRPG 2-1).

    Attributes:
        character_id: who rolls.
        stat: ``karate``, ``neuron``, ``wazamae``, ``jitsu`` (ジツ発動 = ニューロン+ジツ),
            ``kyakuryoku``, ``tairyoku`` / ``seishin`` (their current values, e.g. a 抵抗判定),
            or ``dice`` for a fixed pool (``bonus_dice`` dice, no 即応ダイス).
        difficulty: ``"NORMAL"``, ``"HARD"``, ``"UH2"`` … (the text's default is NORMAL).
        modifiers: difficulty modifiers, summed (NS-03).
        bonus_dice: dice from abilities and equipment.
        quick_dice: 即応ダイス spent, declared before the roll (NS-12).
        purpose: ``check``, ``resistance`` (rolled even when the character cannot act,
            NS-10), ``sokuten`` (連続側転判定, NS-49) or ``attack_phase`` (集中 applies).
        patterns: 【】 patterns to report (``"6,6"``, ``"6,5+"``).
        adrenaline: アドレナリン・ブースト in one's own attack phase: 集中 at once (NS-96).
        label: what the check is for (``"交渉判定"``).
    """

    permit = owner_of("character_id")

    character_id: str
    stat: str = "karate"
    difficulty: str = "NORMAL"
    modifiers: int = 0
    bonus_dice: Dice = 0
    quick_dice: Dice = 0
    purpose: str = "check"
    patterns: list[str] = []
    adrenaline: bool = False
    label: str = ""


class OpposedSide(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    character_id: str
    stat: str = "karate"
    bonus_dice: Dice = 0
    quick_dice: Dice = 0


class OpposedCheck(Command, frozen=True, kw_only=True, tag="nstrpg.opposed_check"):
    """GM: an opposed check [対抗判定] (NS-11): the most successes wins; with
    ``damage_difference`` the loser takes the difference as damage (no evasion)."""

    permit = GM

    sides: list[OpposedSide]
    difficulty: str = "NORMAL"
    damage_difference: bool = False
    label: str = ""


class Split(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One attack of a 連続攻撃 / 連射 split: ``dice`` dice at ``target`` (NS-64, NS-66).

    ``adjacent``: whether the target is adjacent (melee needs it; shooting forbids it).
    """

    target: str
    dice: Annotated[int, msgspec.Meta(ge=1, le=100)]
    adjacent: bool | None = None


class Attack(Command, frozen=True, kw_only=True, tag="nstrpg.attack"):
    """A melee attack or a shot, split over up to X attacks and targets (NSTRPG 2-6, 2-16).

    Attributes:
        attacker: the acting character.
        kind: ``melee`` or ``shoot``.
        splits: the attacks, declared before rolling; empty = the whole pool at ``target``.
        target: shorthand for one attack with the whole pool.
        weapon: the weapon id (default: the one equipped; ``shuriken`` to throw).
        style: ``kyougeki`` (強攻撃), ``seimitsu`` (精密攻撃), ``setsudan`` …
        snap_shuriken: 咄嗟のスリケン投擲 while wielding another weapon (+1, no style).
        bonus_dice, quick_dice: extra dice; 即応ダイス spent (NS-12).
        modifiers: other difficulty modifiers.
        adrenaline: アドレナリン・ブースト: 集中 for this attack phase (NS-96).
        pool_with: other mobs of the same kind rolling one pooled attack (NS-80).
        plus: 連続攻撃+X / 連射+X effects in play now; only the highest applies (NS-65, NS-66).
        area, moving: an area or moving attack (no カウンターカラテ against it).
        difficulty: GM: the attack difficulty, replacing the computed one.
    """

    permit = owner_of("attacker")

    attacker: str
    kind: str = "melee"
    splits: list[Split] = []
    target: str | None = None
    weapon: str | None = None
    style: str | None = None
    snap_shuriken: bool = False
    bonus_dice: Dice = 0
    quick_dice: Dice = 0
    modifiers: int = 0
    adrenaline: bool = False
    pool_with: list[str] = []
    plus: list[int] = []
    area: bool = False
    moving: bool = False
    difficulty: str | None = None


class Evade(Command, frozen=True, kw_only=True, tag="nstrpg.evade"):
    """The target's answer to pending hits: an evasion [回避判定] or taking the damage (2-11).

    Attributes:
        defender: the character hit.
        hits: the pending hits answered together (まとめて全弾回避 when more than one).
        dice: 回避ダイス spent (0 with no 緊急回避ダイス = take the damage).
        emergency_dice: 緊急回避ダイス spent (NS-14).
        adrenaline: アドレナリン・ブースト off-turn: evasion −1 for the phase (NS-96).
        counter: deal カウンターカラテ if allowed; ``counter_target`` picks the mob of a pooled attack.
        sixth_sense: ●ニンジャ第六感: if this evasion fails, reroll it at once (same dice, same
            difficulty; the reroll stands, NS-70, NS-15).
        modifiers: other difficulty modifiers.
        difficulty: GM: the evasion difficulty, replacing the computed one.
    """

    permit = owner_of("defender")

    defender: str
    hits: list[str]
    dice: Dice = 0
    emergency_dice: Dice = 0
    adrenaline: bool = False
    counter: bool = True
    counter_target: str | None = None
    modifiers: int = 0
    difficulty: str | None = None
    sixth_sense: bool = False


class DeclareBarrage(Command, frozen=True, kw_only=True, tag="nstrpg.barrage"):
    """GM: 弾幕発生 on pending mob shooting hits, before the evasion choice (NS-76)."""

    permit = GM

    hits: list[str]
    divisor: int


class Inflict(Command, frozen=True, kw_only=True, tag="nstrpg.inflict"):
    """GM: damage from anything else (a wall after 弾き飛ばし, a ジツ, the environment).

    ``evadable`` makes it a pending hit at ``evasion`` difficulty; otherwise it lands.
    """

    permit = GM

    target: str
    damage: Annotated[int, msgspec.Meta(ge=0)] = 1
    kind: str = "other"
    damage_kind: str = "environment"
    source: str | None = None
    evadable: bool = True
    evasion: str = "NORMAL"
    reason: str = ""


class OverrideHit(Command, frozen=True, kw_only=True, tag="nstrpg.override_hit"):
    """GM: cancel a pending hit, or change its damage or evasion difficulty, with a reason."""

    permit = GM

    hit: str
    cancel: bool = False
    damage: int | None = None
    evasion: str | None = None
    reason: str = ""


class Kaishaku(Command, frozen=True, kw_only=True, tag="nstrpg.kaishaku"):
    """カイシャク: a ninja gives a 気絶 enemy the サツバツ! row 6 (NS-87).

    ``adjacent``: whether the target is adjacent (カイシャク needs it, as a melee attack does).
    """

    permit = owner_of("attacker")

    attacker: str
    target: str
    adjacent: bool = True


class Reroll(Command, frozen=True, kw_only=True, tag="nstrpg.reroll"):
    """●ニンジャ第六感: reroll one's latest check, or one shot of the latest attack (NS-70)."""

    permit = owner_of("character_id")

    character_id: str
    index: int = 0


class BeginTurnOf(Command, frozen=True, kw_only=True, tag="nstrpg.begin_turn_of"):
    """A character's 手番開始 (2-4): 崩れ ends; ``shuchu`` declares 集中状態 (skipping movement)."""

    permit = owner_of("character_id")

    character_id: str
    shuchu: bool = False
    equip: str | None = None


class EndTurnOf(Command, frozen=True, kw_only=True, tag="nstrpg.end_turn_of"):
    """A character's 手番終了 (2-7): 集中 and 連続側転's penalty end."""

    permit = owner_of("character_id")

    character_id: str


class EndPhase(Command, frozen=True, kw_only=True, tag="nstrpg.end_phase"):
    """GM: a phase ends (アドレナリン・ブースト's evasion −1 ends)."""

    permit = GM


class StartCombat(Command, frozen=True, kw_only=True, tag="nstrpg.start_combat"):
    """GM: a combat sequence starts (turn 0, atmosphere normal)."""

    permit = GM


class StartTurn(Command, frozen=True, kw_only=True, tag="nstrpg.start_turn"):
    """GM: ターン開始フェイズ: everyone's 回避ダイス reset first (NS-41)."""

    permit = GM


class EndTurn(Command, frozen=True, kw_only=True, tag="nstrpg.end_turn"):
    """GM: ターン終了フェイズ; ``atmosphere`` raises it from the next turn (NS-42, 2-17)."""

    permit = GM

    atmosphere: str | None = None


class EndCombat(Command, frozen=True, kw_only=True, tag="nstrpg.end_combat"):
    """GM: the combat ends (2-10): revivals, 万札プール."""

    permit = GM


class StartScenario(Command, frozen=True, kw_only=True, tag="nstrpg.start_scenario"):
    """GM: a scenario starts: 即応ダイス and 緊急回避ダイス set, ●部位損傷 penalties (NS-13, NS-21)."""

    permit = GM


class EndScenario(Command, frozen=True, kw_only=True, tag="nstrpg.end_scenario"):
    """GM: the scenario ends (NS-111)."""

    permit = GM


class GainDkk(Command, frozen=True, kw_only=True, tag="nstrpg.gain_dkk"):
    """GM: 【DKK】 gained (NS-25): a fixed ``amount`` or a guideline id (``vip_kill`` rolls 2D3)."""

    permit = GM

    character_id: str
    amount: int | None = None
    guide: str | None = None
    reason: str = ""


class Wasshoi(Command, frozen=True, kw_only=True, tag="nstrpg.wasshoi"):
    """GM: the Wasshoi! check, 2D6 at or below the highest 【DKK】 present (NS-97 … NS-99).

    ``present``: the ninjas present (default: every fighter able to act); ``target`` replaces the target value.
    """

    permit = GM

    present: list[str] | None = None
    target: int | None = None


class RerollEntry(Command, frozen=True, kw_only=True, tag="nstrpg.reroll_entry"):
    """GM: the entry is impossible on this map: reroll once, then choose (NS-100)."""

    permit = GM

    choose: int | None = None


class CreateMobs(Command, frozen=True, kw_only=True, tag="nstrpg.create_mobs"):
    """GM: a group of ``count`` mobs with one sheet, named ``name1`` … (2-1 モブ敵)."""

    permit = GM

    name: str
    count: Annotated[int, msgspec.Meta(ge=1, le=50)]
    sheet: dict[str, Any] = {}


class CreateNinjaSlayer(Command, frozen=True, kw_only=True, tag="nstrpg.create_ninja_slayer"):
    """GM: Ninja Slayer from his stat block (NS-102)."""

    permit = GM

    name: str = "ニンジャスレイヤー"


class AdjustValue(Command, frozen=True, kw_only=True, tag="nstrpg.adjust"):
    """GM: set a fighter's value (``tairyoku``, ``seishin``, ``dkk``, ``status``, ``quick_dice`` …) with a reason."""

    permit = GM

    character_id: str
    field: str
    value: Any
    reason: str = ""


COMMANDS: tuple[type[Command], ...] = (
    Check,
    OpposedCheck,
    Attack,
    Evade,
    DeclareBarrage,
    Inflict,
    OverrideHit,
    Kaishaku,
    Reroll,
    BeginTurnOf,
    EndTurnOf,
    EndPhase,
    StartCombat,
    StartTurn,
    EndTurn,
    EndCombat,
    StartScenario,
    EndScenario,
    GainDkk,
    Wasshoi,
    RerollEntry,
    CreateMobs,
    CreateNinjaSlayer,
    AdjustValue,
)
