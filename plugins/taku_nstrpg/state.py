"""The nstrpg character sheet and the ruleset's runtime state (``game``).

The core keeps each character's sheet (:class:`NsSheet`, validated on create and
update); the ruleset keeps what changes in play in :class:`NsGame`: current
【体力】/【精神力】, ability damage, ●部位損傷, 即応ダイス, 回避ダイス, states,
hits waiting for an evasion decision, the turn and the atmosphere. Everything
round-trips through ``msgspec.to_builtins`` / ``convert``, so the GM can
override any value with the core ``override`` command (path ``["game", …]``).

The turn-by-turn combat sequence (initiative order, phases, movement) comes
later; it will add fields with defaults and new event types, never change these.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from taku_nstrpg.checks import NORMAL
from taku_nstrpg.combat import BUILTIN_WEAPONS, AutoSkills, Weapon, auto_skills
from taku_nstrpg.damage import ACTIVE, effective

__all__ = [
    "STATS",
    "AttackMemo",
    "MemoRoll",
    "STAT_NAMES",
    "Fighter",
    "Hit",
    "LastRoll",
    "NsGame",
    "NsSheet",
    "fighter_from_sheet",
]

STATS = ("karate", "neuron", "wazamae", "jitsu", "tairyoku", "seishin", "kyakuryoku", "manken", "dkk")
STAT_NAMES = {
    "karate": "カラテ",
    "neuron": "ニューロン",
    "wazamae": "ワザマエ",
    "jitsu": "ジツ",
    "tairyoku": "体力",
    "seishin": "精神力",
    "kyakuryoku": "脚力",
    "manken": "万札",
    "dkk": "DKK",
}

Stat = Annotated[int, msgspec.Meta(ge=0, le=99)]


class NsSheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character sheet (NSTRPG 2-1 … 2-16; NS-16).

    Attributes:
        kind: ``pc``, ``boss`` (ボス級の敵) or ``mob`` (モブ敵).
        ninja: a ninja (サツバツ!, 爆発四散, ニンジャ耐久力, まとめて全弾回避, カウンター);
            unsaid, PCs and bosses are ninjas and mobs are not (G-NS-09).
        karate … dkk: the base attributes (【DKK】 0–12).
        quick_dice: 即応ダイス at scenario start; ``None`` = 5 − weapon slots (NS-13).
        emergency_dice: 緊急回避ダイス from equipment (NS-14).
        initiative_bonus: modifiers of イニシアチブ値 (生体LAN …, NS-17).
        evasion: a printed 【回避】 that replaces max(カラテ, ニューロン, ワザマエ) (G-NS-19).
        instant_death_resistance: 即死耐性 (NS-94).
        damage_reduction: ダメージ軽減 (NS-95).
        weapons: weapons carried besides 素手&スリケン (data, see :class:`Weapon`).
        equipped: the weapon id wielded (``unarmed`` by default, NS-27).
        karate_attack_bonus: attack dice only when rolling 【カラテ】 (テッコ).
        attack_bonus, shoot_bonus: attack / shooting dice from equipment.
        evasion_modifiers: evasion difficulty by damage kind (Ninja Slayer: melee −1).
        renzoku, rensha: ● values from data (a mob's 『連続攻撃2』), 0 = from attributes.
        renzoku_plus, rensha_plus: 連続攻撃+X / 連射+X in effect.
        sixth_sense: ●ニンジャ第六感 granted otherwise than by 【ニューロン】 13.
        mob_type: which mobs are "the same kind" for まとめて全弾回避 (default: the name).
        skills, notes: free text.
    """

    kind: str = "pc"
    ninja: bool | None = None
    karate: Stat = 1
    neuron: Stat = 1
    wazamae: Stat = 1
    jitsu: Stat = 0
    tairyoku: Stat = 1
    seishin: Stat = 0
    kyakuryoku: Stat = 1
    manken: Stat = 0
    dkk: Annotated[int, msgspec.Meta(ge=0, le=12)] = 0
    quick_dice: Annotated[int, msgspec.Meta(ge=0)] | None = None
    emergency_dice: Annotated[int, msgspec.Meta(ge=0)] = 0
    initiative_bonus: int = 0
    evasion: Annotated[int, msgspec.Meta(ge=0)] | None = None
    instant_death_resistance: bool = False
    damage_reduction: Annotated[int, msgspec.Meta(ge=0)] = 0
    weapons: list[str | Weapon] = []
    equipped: str = "unarmed"
    karate_attack_bonus: int = 0
    attack_bonus: int = 0
    shoot_bonus: int = 0
    evasion_modifiers: dict[str, int] = {}
    renzoku: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    rensha: Annotated[int, msgspec.Meta(ge=0, le=20)] = 0
    renzoku_plus: int = 0
    rensha_plus: int = 0
    sixth_sense: bool = False
    mob_type: str = ""
    skills: list[str] = []
    notes: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("pc", "boss", "mob"):
            raise ValueError("kind is pc, boss or mob")
        if self.ninja is None:
            # unsaid: PCs and bosses are ninjas, a mob is not (G-NS-09)
            msgspec.structs.force_setattr(self, "ninja", self.kind != "mob")
        for w in self.weapons:
            if isinstance(w, str) and w not in BUILTIN_WEAPONS:
                raise ValueError(f"unknown weapon {w!r}; give its data")
        ids = {w.id for w in self.carried()} | set(BUILTIN_WEAPONS)
        if self.equipped not in ids:
            raise ValueError(f"equipped weapon {self.equipped!r} is not carried")

    def carried(self) -> list[Weapon]:
        """The weapons carried, built-in ids resolved."""
        return [BUILTIN_WEAPONS[w] if isinstance(w, str) else w for w in self.weapons]

    def weapon(self, weapon_id: str | None = None) -> Weapon | None:
        """The weapon ``weapon_id`` (default: the one equipped), carried or built in."""
        wid = weapon_id or self.equipped
        for w in self.carried():
            if w.id == wid:
                return w
        return BUILTIN_WEAPONS.get(wid)

    def weapon_slots(self) -> int:
        """Weapon slots carried (素手&スリケン take none, NS-13)."""
        return sum(w.slots for w in self.carried())

    def auto(self) -> AutoSkills:
        """● skills from the base attributes, and the ones the data grants (NS-23, NS-24)."""
        a = auto_skills(karate=self.karate, neuron=self.neuron, wazamae=self.wazamae)
        return AutoSkills(
            renzoku=max(a.renzoku, self.renzoku),
            rensha=max(a.rensha, self.rensha),
            multi_target=a.multi_target or "●マルチターゲット" in self.skills,
            jisa=a.jisa or "●時間差" in self.skills,
            sixth_sense=a.sixth_sense or self.sixth_sense or "●ニンジャ第六感" in self.skills,
        )


class Hit(msgspec.Struct, frozen=True, kw_only=True):
    """Damage on its way to a target, waiting for the target's evasion decision (2-11).

    Attributes:
        id: table-unique id.
        attack_id: the attack (or counter / GM damage) it came from.
        attacker: the character who dealt it (``None``: environment, GM).
        target: the character it hits.
        kind: ``melee``, ``shoot``, ``counter``, ``knockback`` or ``other``.
        damage_kind: for the atmosphere: ``melee``, ``shuriken``, ``gun``, ``jitsu``, ``hacking``, ``environment``.
        damage: base damage (a pooled mob attack: its successes).
        tsuda: 痛打 from the style; ``tsuda_on_six`` from the weapon when a 6 is among the faces.
        no_tsuda: 精密攻撃: no 痛打 at all.
        critical: ``""``, ``satsubatsu`` or ``namuamidabutsu``.
        successes: the attack's success count (カウンターカラテ compares with it).
        evasion_base: the hit's own evasion difficulty (NORMAL).
        evasion_plus: 弾幕発生's added difficulty.
        jisa: part of a 時間差 sequence on this target (no group evasion with its siblings).
        adjacent, area, moving: for カウンターカラテ.
        from_mob: dealt by a mob (no atmosphere; same-kind mobs group-dodge).
        mob_type: the attacker's mob kind.
        group: a pooled mob attack's members (the defender picks the counter's target).
        stat: the attribute of the attack check (弾き飛ばし distance).
        attacker_karate: the attacker's 【カラテ】 (弾き飛ばし distance).
        evadable: ``False`` for 回避不能 damage.
        faces: the attack roll's faces (Ninja Slayer's 【6】 痛打).
        satsubatsu, namu: the critical patterns the attack used (for a reroll), ``""`` = none.
        phase: the phase it was dealt in (まとめて全弾回避 groups one phase's damage).
    """

    id: str
    attack_id: str
    attacker: str | None
    target: str
    kind: str = "melee"
    damage_kind: str = "melee"
    damage: int = 1
    tsuda: int = 0
    tsuda_on_six: int = 0
    no_tsuda: bool = False
    critical: str = ""
    successes: int = 0
    evasion_base: int = NORMAL
    evasion_plus: int = 0
    jisa: bool = False
    adjacent: bool = True
    area: bool = False
    moving: bool = False
    from_mob: bool = False
    mob_type: str = ""
    group: tuple[str, ...] = ()
    stat: str = "karate"
    attacker_karate: int = 0
    evadable: bool = True
    faces: tuple[int, ...] = ()
    satsubatsu: str = ""
    namu: str = ""
    phase: int = 0


class LastRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A character's latest check or attack roll, for ●ニンジャ第六感 (NS-70, NS-15).

    Attributes:
        ref: the check id or attack id.
        kind: ``check`` or ``attack``.
        rerolled: already a reroll (no reroll of a reroll).
        evaded: the opponent already rolled an evasion against it.
    """

    ref: str
    kind: str
    rerolled: bool = False
    evaded: bool = False
    stat: str = ""
    pool: int = 0
    difficulty: int = NORMAL
    purpose: str = "check"
    patterns: tuple[str, ...] = ()
    label: str = ""
    success: bool = False


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A character's runtime values (the sheet holds the base values).

    Attributes:
        tairyoku, seishin: current 【体力】 and 【精神力】.
        status: ``active``, ``fainted`` (気絶), ``exploded`` (爆発四散), ``removed``, ``dead``.
        ability_damage: points of 能力値ダメージ by attribute (floor 1 when read).
        injuries: ●部位損傷 part -> count (×N).
        injury_penalty: difficulty added to every check this scenario (NS-21).
        quick_dice, emergency_dice: what is left of 即応ダイス and 緊急回避ダイス.
        evasion_dice: 回避ダイス left this turn.
        dkk: current 【DKK】 (0–12).
        kuzure: 崩れ状態 (attacks against it −1, NS-50).
        shuchu: 集中状態 (attack-phase actions −1, NS-56).
        sokuten: did 連続側転 this 手番 (attack-phase actions +1).
        adrenaline_used: アドレナリン・ブースト used this combat (NS-96).
        adrenaline_evasion: its evasion −1 is in effect for this phase.
        sixth_sense_used: ●ニンジャ第六感 used this scenario.
        equipped: the weapon switched to at 手番開始 (``None``: the sheet's).
        looted: its 【万札】 already went into the 万札プール.
        boosts: temporary attribute changes (☆ヘンゲヨーカイ・ジツ …): they change the
            current values, never the ● skills (NS-23).
    """

    tairyoku: int
    seishin: int
    status: str = ACTIVE
    ability_damage: dict[str, int] = {}
    injuries: dict[str, int] = {}
    injury_penalty: int = 0
    quick_dice: int = 0
    emergency_dice: int = 0
    evasion_dice: int = 0
    dkk: int = 0
    kuzure: bool = False
    shuchu: bool = False
    sokuten: bool = False
    adrenaline_used: bool = False
    adrenaline_evasion: bool = False
    sixth_sense_used: bool = False
    equipped: str | None = None
    looted: bool = False
    boosts: dict[str, int] = {}


class MemoRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One attack of an action as ●ニンジャ第六感 needs it: its dice, difficulty and hit template."""

    dice: int
    difficulty: int
    auto: bool = False
    success: bool = False
    template: Hit


class AttackMemo(msgspec.Struct, frozen=True, kw_only=True):
    """The latest attack action of an attacker, kept for ●ニンジャ第六感 (NS-70)."""

    attacker: str
    rolls: tuple[MemoRoll, ...] = ()
    evaded: bool = False


class NsGame(msgspec.Struct, frozen=True, kw_only=True):
    """The ruleset's state.

    Attributes:
        fighters: character id -> :class:`Fighter`.
        combat: a combat sequence is running.
        turn: the combat's turn (0 before the first).
        atmosphere: ``normal``, ``hard`` or ``ultra_hard`` (2-17).
        pending: hit id -> :class:`Hit` waiting for its target's evasion.
        last_roll: character id -> :class:`LastRoll`.
        attacks: attack id -> the hits it made (for 第六感 and 時間差).
        money_pool: 万札プール (2-10).
        dkk_this_turn: 【DKK】 gained this turn (Wasshoi! trigger).
        wasshoi_due: 3 or more 【DKK】 this turn: the GM should call Wasshoi!.
        entry_rerolls: rerolls of the last entry table roll (one allowed, NS-100).
        scenario: the scenario count.
        phase: counts phases (手番 starts and ends, ``end_phase``, turn starts).
        acting: whose 手番 it is (from ``begin_turn_of`` to ``end_turn_of``), ``None`` between 手番.
        entry_sokuten: 連続側転判定 difficulty added to every ninja with 【DKK】 1+ by the
            死神のエントリー (rows 4, 5: +1; row 6: +2) until the end of the turn ``entry_until`` (NS-99).
        acted: who ended their 手番 this turn (``end_turn_of``), in that order (2-3).
        step: where the acting character's 手番 is: ``move`` (移動フェイズ, after 手番開始),
            ``attack`` (攻撃フェイズ: 集中状態 skips the move), ``attacked`` (an attack-phase
            action done), ``""`` between 手番 (2-4 … 2-7).
        turn_over: the turn's ターン終了フェイズ is done (``end_turn``); the next ``start_turn`` clears it.
    """

    fighters: dict[str, Fighter] = {}
    combat: bool = False
    turn: int = 0
    atmosphere: str = "normal"
    pending: dict[str, Hit] = {}
    last_roll: dict[str, LastRoll] = {}
    attacks: dict[str, AttackMemo] = {}
    money_pool: int = 0
    dkk_this_turn: int = 0
    wasshoi_due: bool = False
    entry_rerolls: int = -1
    scenario: int = 1
    phase: int = 0
    acting: str | None = None
    entry_sokuten: int = 0
    entry_until: int = 0
    acted: tuple[str, ...] = ()
    step: str = ""
    turn_over: bool = False


def current(sheet: NsSheet, fighter: Fighter | None, stat: str) -> int:
    """An attribute now: the base minus ability damage (floor 1, NS-19), plus temporary boosts."""
    base = getattr(sheet, stat)
    if fighter is None:
        return base
    return max(1, effective(base, fighter.ability_damage.get(stat, 0)) + fighter.boosts.get(stat, 0))


def evasion_per_turn(sheet: NsSheet, fighter: Fighter | None) -> int:
    """回避ダイス a turn: the highest current カラテ/ニューロン/ワザマエ, or the printed 【回避】; mobs 0 (NS-18)."""
    if sheet.kind == "mob":
        return 0
    if sheet.evasion is not None:
        return sheet.evasion
    return max(current(sheet, fighter, s) for s in ("karate", "neuron", "wazamae"))


def initiative(sheet: NsSheet, fighter: Fighter | None) -> int:
    """イニシアチブ値 = current 【ニューロン】 + modifiers; may be 0 or less (NS-17, NS-32)."""
    return current(sheet, fighter, "neuron") + sheet.initiative_bonus


def fighter_from_sheet(sheet: NsSheet, quick_dice_base: int = 5) -> Fighter:
    """A fresh fighter for a new character: full values, full evasion dice."""
    quick = sheet.quick_dice if sheet.quick_dice is not None else max(0, quick_dice_base - sheet.weapon_slots())
    return Fighter(
        tairyoku=sheet.tairyoku,
        seishin=sheet.seishin,
        quick_dice=quick if sheet.kind != "mob" else 0,
        emergency_dice=sheet.emergency_dice,
        evasion_dice=evasion_per_turn(sheet, None),
        dkk=sheet.dkk,
    )


__all__ += ["current", "evasion_per_turn", "initiative"]
