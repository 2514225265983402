"""The events of nstrpg (tags ``nstrpg.<fact>``): facts with every face rolled.

``evolve`` copies their values; it never rolls and never recomputes a rule.
A shipped event only gains fields with defaults.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.dice import Roll
from taku.core.events import Event
from taku_nstrpg.state import Hit

__all__ = [
    "EVENTS",
    "AttackRoll",
    "AttackRolled",
    "AttackRerolled",
    "BarrageDeclared",
    "CheckRolled",
    "CombatEnded",
    "CombatStarted",
    "CounterKarate",
    "DamageResolved",
    "DkkGained",
    "EntryRerolled",
    "EvasionRolled",
    "HitInflicted",
    "HitOverridden",
    "OpposedRoll",
    "OpposedRolled",
    "PhaseEnded",
    "ScenarioEnded",
    "ScenarioStarted",
    "TurnBegan",
    "TurnEnded",
    "TurnEndedFor",
    "TurnStarted",
    "ValueAdjusted",
    "WasshoiRolled",
]


class CheckRolled(Event, frozen=True, kw_only=True, tag="nstrpg.check_rolled"):
    """A check [判定] (NSTRPG 2-1).

    Attributes:
        check_id: its id (for ●ニンジャ第六感).
        character_id, stat, label, purpose: who rolled what, and why.
        pool: dice rolled; ``roll`` the faces.
        difficulty: the final difficulty level (KIDS 2 … UH 6, UH2 7 …).
        successes, success: the result.
        patterns: 【】 pattern -> met.
        quick_dice: 即応ダイス spent.
        adrenaline: アドレナリン・ブースト used (精神力 −1).
        reroll_of: the check this one rerolls.
        evasion_gained: 回避ダイス gained (連続側転 success: 2, NS-49; a reroll may take them back).
        kuzure: 崩れ状態 set (``True``) or lifted (``False``) by a 連続側転判定 (NS-50).
    """

    check_id: str
    character_id: str
    stat: str
    pool: int
    roll: Roll
    difficulty: int
    successes: int
    success: bool
    label: str = ""
    purpose: str = "check"
    patterns: dict[str, bool] = {}
    quick_dice: int = 0
    adrenaline: bool = False
    reroll_of: str | None = None
    evasion_gained: int = 0
    kuzure: bool | None = None


class OpposedRoll(msgspec.Struct, frozen=True, kw_only=True):
    character_id: str
    stat: str
    pool: int
    roll: Roll
    successes: int
    quick_dice: int = 0


class OpposedRolled(Event, frozen=True, kw_only=True, tag="nstrpg.opposed_rolled"):
    """An opposed check (NS-11); ``winner`` is ``None`` on a tie (G-NS-03)."""

    sides: tuple[OpposedRoll, ...]
    difficulty: int
    winner: str | None = None
    margin: int = 0
    label: str = ""


class AttackRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One attack or shot of an attack action.

    ``roll`` is ``None`` when it hit automatically (a 気絶 target, NS-86).
    """

    index: int
    target: str
    dice: int
    difficulty: int
    successes: int
    success: bool
    roll: Roll | None = None
    critical: str = ""
    auto: bool = False


class AttackRolled(Event, frozen=True, kw_only=True, tag="nstrpg.attack_rolled"):
    """An attack action's rolls and the hits they make (NSTRPG 2-6, 2-16).

    ``hits`` are the hits that wait for their target's evasion; hits on targets
    that cannot evade are followed by ``nstrpg.damage_resolved`` at once.
    ``misses`` are what the missed attacks would have been (for ●ニンジャ第六感).
    """

    attack_id: str
    attacker: str
    kind: str
    weapon: str
    stat: str
    pool: int
    rolls: tuple[AttackRoll, ...]
    hits: tuple[Hit, ...] = ()
    misses: tuple[Hit, ...] = ()
    style: str | None = None
    quick_dice: int = 0
    adrenaline: bool = False
    pool_with: tuple[str, ...] = ()


class AttackRerolled(Event, frozen=True, kw_only=True, tag="nstrpg.attack_rerolled"):
    """●ニンジャ第六感 rerolled one attack of an action (NS-70): its new roll and hit."""

    attack_id: str
    attacker: str
    index: int
    roll: AttackRoll
    removed: str | None = None
    hit: Hit | None = None


class EvasionRolled(Event, frozen=True, kw_only=True, tag="nstrpg.evasion_rolled"):
    """An evasion [回避判定] against ``hits`` (NSTRPG 2-11), or taking them (no roll).

    A success makes every hit 0 with no added effect; a failure is followed by
    ``nstrpg.damage_resolved`` per hit. ``first`` is the failed roll that
    ●ニンジャ第六感 rerolled (NS-70, NS-15); ``roll`` is then the reroll, which stands.
    """

    defender: str
    hits: tuple[str, ...]
    dice: int = 0
    emergency_dice: int = 0
    difficulty: int = 4
    roll: Roll | None = None
    successes: int = 0
    success: bool = False
    adrenaline: bool = False
    first: Roll | None = None


class CounterKarate(Event, frozen=True, kw_only=True, tag="nstrpg.counter_karate"):
    """カウンターカラテ: 1 damage at the attacker, evadable at NORMAL (NS-77, NS-78)."""

    defender: str
    target: str
    hit: Hit


class DamageResolved(Event, frozen=True, kw_only=True, tag="nstrpg.damage_resolved"):
    """Damage landed and what it did (NSTRPG 2-12, 2-13).

    Attributes:
        target, source, hit_id: who took it, from whom, which hit.
        base, tsuda, reduction, amount: base damage, the one 痛打, ダメージ軽減, final damage.
        critical: the critical of the hit; ``table`` the サツバツ! d6 and ``row`` its row.
        death_roll: 2D6 of 痛打+2D6 against 即死耐性.
        instant_death: 即死! applied.
        knockback: 弾き飛ばし distance in squares (0: none).
        tairyoku, seishin, seishin_spent, status: the values after.
        ability_damage, injury: the added effects applied.
        crit_removed: a mob removed by サツバツ! (G-NS-29).
        note: why (対抗判定 difference, GM damage …).
    """

    target: str
    amount: int
    tairyoku: int
    seishin: int
    status: str
    source: str | None = None
    hit_id: str | None = None
    base: int = 0
    tsuda: int = 0
    reduction: int = 0
    critical: str = ""
    table: Roll | None = None
    row: int = 0
    death_roll: Roll | None = None
    instant_death: bool = False
    knockback: int = 0
    seishin_spent: int = 0
    ability_damage: dict[str, int] = {}
    injury: str = ""
    crit_removed: bool = False
    note: str = ""


class BarrageDeclared(Event, frozen=True, kw_only=True, tag="nstrpg.barrage_declared"):
    """弾幕発生 (NS-76): ``replaced`` hits become the one ``hit``."""

    replaced: tuple[str, ...]
    divisor: int
    total: int
    hit: Hit


class HitInflicted(Event, frozen=True, kw_only=True, tag="nstrpg.hit_inflicted"):
    """GM damage waiting for the target's evasion."""

    hit: Hit
    reason: str = ""


class HitOverridden(Event, frozen=True, kw_only=True, tag="nstrpg.hit_overridden"):
    """GM: a pending hit cancelled (``hit`` is ``None``) or changed."""

    hit_id: str
    hit: Hit | None = None
    reason: str = ""


class TurnBegan(Event, frozen=True, kw_only=True, tag="nstrpg.turn_began"):
    """A character's 手番開始 (2-4)."""

    character_id: str
    shuchu: bool = False
    equip: str | None = None


class TurnEndedFor(Event, frozen=True, kw_only=True, tag="nstrpg.turn_ended_for"):
    """A character's 手番終了 (2-7)."""

    character_id: str


class PhaseEnded(Event, frozen=True, kw_only=True, tag="nstrpg.phase_ended"):
    """A phase ended: phase-long effects (アドレナリン・ブースト's evasion −1) end."""


class CombatStarted(Event, frozen=True, kw_only=True, tag="nstrpg.combat_started"):
    """A combat sequence started."""


class TurnStarted(Event, frozen=True, kw_only=True, tag="nstrpg.turn_started"):
    """ターン開始フェイズ: ``evasion`` is each fighter's 回避ダイス for the turn (NS-18, NS-41)."""

    turn: int
    evasion: dict[str, int] = {}


class TurnEnded(Event, frozen=True, kw_only=True, tag="nstrpg.turn_ended"):
    """ターン終了フェイズ; ``atmosphere`` is the level from the next turn (2-17)."""

    turn: int
    atmosphere: str = "normal"
    wasshoi_due: bool = False


class CombatEnded(Event, frozen=True, kw_only=True, tag="nstrpg.combat_ended"):
    """The combat ended (2-10): ``revived`` woke at 体力 1 / 精神力 0; ``money`` went into the pool."""

    revived: tuple[str, ...] = ()
    money: int = 0


class ScenarioStarted(Event, frozen=True, kw_only=True, tag="nstrpg.scenario_started"):
    """A scenario started: 即応ダイス, 緊急回避ダイス and ●部位損傷 penalties per fighter."""

    scenario: int
    quick_dice: dict[str, int] = {}
    emergency_dice: dict[str, int] = {}
    injury_penalty: dict[str, int] = {}


class ScenarioEnded(Event, frozen=True, kw_only=True, tag="nstrpg.scenario_ended"):
    """The scenario ended (NS-111): ability damage healed, ×N collapsed, the pool split."""

    scenario: int
    money_pool: int = 0
    shares: dict[str, int] = {}


class DkkGained(Event, frozen=True, kw_only=True, tag="nstrpg.dkk_gained"):
    """【DKK】 gained (NS-25); ``after`` is capped at 12."""

    character_id: str
    amount: int
    before: int
    after: int
    roll: Roll | None = None
    guide: str | None = None
    turn_total: int = 0
    wasshoi_due: bool = False
    reason: str = ""


class WasshoiRolled(Event, frozen=True, kw_only=True, tag="nstrpg.wasshoi_rolled"):
    """The Wasshoi! check (NS-98) and, on success, the entry table's d6 (NS-99)."""

    roll: Roll
    total: int
    target: int
    success: bool
    target_ninja: str | None = None
    entry: Roll | None = None
    entry_row: int = 0


class EntryRerolled(Event, frozen=True, kw_only=True, tag="nstrpg.entry_rerolled"):
    """The entry table again (NS-100): a reroll, or the GM's choice after it."""

    row: int
    roll: Roll | None = None
    chosen: bool = False


class ValueAdjusted(Event, frozen=True, kw_only=True, tag="nstrpg.value_adjusted"):
    """GM: a fighter's value set by hand, with the reason."""

    character_id: str
    field: str
    value: Any = None
    previous: Any = None
    reason: str = ""


EVENTS: tuple[type[Event], ...] = (
    CheckRolled,
    OpposedRolled,
    AttackRolled,
    AttackRerolled,
    EvasionRolled,
    CounterKarate,
    DamageResolved,
    BarrageDeclared,
    HitInflicted,
    HitOverridden,
    TurnBegan,
    TurnEndedFor,
    PhaseEnded,
    CombatStarted,
    TurnStarted,
    TurnEnded,
    CombatEnded,
    ScenarioStarted,
    ScenarioEnded,
    DkkGained,
    WasshoiRolled,
    EntryRerolled,
    ValueAdjusted,
)
