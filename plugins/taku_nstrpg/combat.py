"""Attacks, evasion, counters, 弾幕 and atmosphere as pure rule functions.

NSTRPG 2-6 攻撃フェイズ, 2-11 ダメージの発生と回避, 2-16 自動獲得スキル,
2-17 アトモスフィア. The decider builds its events from these; Shadow-Jan and
any later ruleset can import them. Nothing here rolls dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, ClassVar

import msgspec

from taku.core.commands import field
from taku.core.dice import DiceSource, Roll
from taku_nstrpg._labels import StatName, open_set
from taku_nstrpg.checks import HARD, NORMAL, UH3, Pattern, count_successes, shift
from taku_nstrpg.satsubatsu import critical_of

__all__ = [
    "ATMOSPHERE_LEVELS",
    "ATMOSPHERE_TABLE",
    "BARRAGE",
    "BUILTIN_WEAPONS",
    "DAMAGE_KINDS",
    "STYLES",
    "AttackProfile",
    "AttackResult",
    "AutoSkills",
    "EvasionResult",
    "Style",
    "Weapon",
    "atmosphere_modifier",
    "attack_profile",
    "auto_skills",
    "barrage",
    "can_counter",
    "evasion_difficulty",
    "initiative_order",
    "max_attacks",
    "placement_order",
    "resolve_attack",
    "resolve_evasion",
    "roll_attack",
    "roll_evasion",
    "validate_split",
]

# --------------------------------------------------------------------------- weapons and styles


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon as data (G-NS-18: the equipment chapter is not in the rulebook).

    Attributes:
        id: a short id (``"katana"``).
        name: its name (``"カタナ"``).
        kind: ``melee``, ``shuriken`` (shuriken / ナガユミ: the character's ●連射) or ``gun``.
        damage: base damage of a hit.
        attack_difficulty: the base difficulty of its 攻撃判定 / 射撃判定 (チェーンソー: HARD).
        attack_modifier: added to that difficulty (an improvised weapon: +1).
        bonus_dice: added to the pool.
        styles: combat / shooting styles it allows (``kyougeki``, ``seimitsu``, ``setsudan``).
        rensha: a gun's own 連射, which replaces the character's (0 on a gun: 連射1, a single shot).
        multi: 『マルチ可』 (or built-in マルチターゲット for shuriken).
        multi_builtin: マルチターゲット without ●マルチターゲット (shuriken, NS-68).
        jisa: ``""``, ``"capable"`` (時間差可: needs ●時間差) or ``"builtin"``.
        renzoku_cap: 連続攻撃上限 (0 = none).
        slots: weapon slots (each costs one 即応ダイス at scenario start, NS-13).
        satsubatsu: a weapon's own サツバツ! pattern (``""`` = 【6,6】).
        tsuda_on_six: 痛打 for a successful melee hit with a 【6】 (Ninja Slayer's fists).
        evasion: the evasion difficulty of its hits (a sniper rifle: HARD; NS-75).
        range: 射程 in squares, diagonals counted (NS-61); ``None``: no range printed.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="武器",
        description="武器のデータ（装備の章は基本ルールブックにないのでデータで与える、G-NS-18）",
    )

    id: Annotated[str, field("武器ID", "短いID（例: katana）")]
    name: Annotated[str, field("名前", "例: カタナ")]
    # open in stored sheets: earlier versions did not check it
    kind: Annotated[
        str,
        open_set(
            "種類",
            "melee（近接武器）/ shuriken（スリケン・ナガユミ）/ gun（銃）",
            ("melee", "shuriken", "gun"),
        ),
    ] = "melee"
    damage: Annotated[int, field("ダメージ", "命中1回のダメージ")] = 1
    attack_difficulty: Annotated[
        int, field("攻撃難易度", "攻撃判定／射撃判定の基本難易度の段階（4=NORMAL、5=HARD）")
    ] = NORMAL
    attack_modifier: Annotated[int, field("難易度修正", "攻撃難易度への修正（即席の武器: +1）")] = 0
    bonus_dice: Annotated[int, field("追加ダイス")] = 0
    styles: Annotated[
        list[str],
        field(
            "スタイル",
            "使える戦闘スタイル: kyougeki（強攻撃）/ seimitsu（精密攻撃）/ setsudan（切断攻撃）",
        ),
    ] = []
    rensha: Annotated[int, field("連射", "銃自身の連射（0なら連射1）")] = 0
    multi: Annotated[bool, field("マルチ可")] = False
    multi_builtin: Annotated[
        bool,
        field(
            "マルチターゲット内蔵",
            "●マルチターゲットなしで複数のターゲットに割り振れる（スリケン）",
        ),
    ] = False
    jisa: Annotated[
        str,
        open_set(
            "時間差",
            '""（なし）/ capable（時間差可: ●時間差が必要）/ builtin（内蔵）',
            ("", "capable", "builtin"),
        ),
    ] = ""
    renzoku_cap: Annotated[int, field("連続攻撃上限", "0なら上限なし")] = 0
    slots: Annotated[int, field("武器スロット", "シナリオ開始時に即応ダイス1つ分（NS-13）")] = 1
    satsubatsu: Annotated[str, field("サツバツ!の出目", "武器自身の出目の組（空なら【6,6】）")] = ""
    tsuda_on_six: Annotated[
        int, field("6の痛打", "出目に6がある命中の痛打（ニンジャスレイヤーの拳）")
    ] = 0
    evasion: Annotated[
        int, field("回避難易度", "この武器の攻撃の回避難易度の段階（狙撃銃: 5=HARD）")
    ] = NORMAL
    range: Annotated[
        Annotated[int, msgspec.Meta(ge=1)] | None,
        field("射程", "マス数（ナナメも数える、NS-61）。空なら射程の記載なし"),
    ] = None


BUILTIN_WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        Weapon(id="unarmed", name="素手", kind="melee", slots=0),
        Weapon(
            id="shuriken",
            name="スリケン",
            kind="shuriken",
            multi=True,
            multi_builtin=True,
            jisa="capable",
            slots=0,
        ),
        Weapon(id="katana", name="カタナ", kind="melee", styles=["kyougeki", "seimitsu"]),
        Weapon(
            id="chainsaw",
            name="チェーンソー",
            kind="melee",
            damage=2,
            attack_difficulty=HARD,
            styles=["setsudan"],
        ),
        Weapon(id="machinegun", name="マシンガン", kind="gun", rensha=3),
        Weapon(id="shotgun", name="ショットガン", kind="gun"),
        Weapon(id="chakagun", name="チャカガン", kind="gun"),
    )
}
"""Weapons every character can name (素手&スリケン are always at hand, NS-27)."""


class Style(msgspec.Struct, frozen=True, kw_only=True):
    """A combat style [戦闘スタイル] (NSTRPG 2-6).

    Attributes:
        id, name: ``kyougeki`` / 強攻撃 …
        stat: the attribute of the 攻撃判定 (精密攻撃: ``wazamae``).
        difficulty: added to the attack difficulty.
        tsuda: 『痛打+N』 on every hit.
        no_tsuda: no 痛打 at all (精密攻撃).
        renzoku_cap: 連続攻撃上限 (0 = none).
        satsubatsu, namu: the critical patterns while using it.
        needs_shuchu: usable only in 集中状態 (切断攻撃).
        rensha_as_renzoku: may use ●連射 as ●連続攻撃 (NS-67).
    """

    id: str
    name: str
    stat: StatName = "karate"
    difficulty: int = 0
    tsuda: int = 0
    no_tsuda: bool = False
    renzoku_cap: int = 0
    satsubatsu: str = "6,6"
    namu: str = "6,6,6"
    needs_shuchu: bool = False
    rensha_as_renzoku: bool = False


STYLES: dict[str, Style] = {
    s.id: s
    for s in (
        Style(id="kyougeki", name="強攻撃", difficulty=1, tsuda=1, renzoku_cap=3),
        Style(
            id="seimitsu",
            name="精密攻撃",
            stat="wazamae",
            no_tsuda=True,
            satsubatsu="6,6,6",
            namu="6,6,6,6",
            rensha_as_renzoku=True,
        ),
        Style(id="setsudan", name="切断攻撃", needs_shuchu=True, satsubatsu="6,5+"),
    )
}
"""The katana's two styles (NS-57) and the chainsaw's 切断攻撃 (NS-EX-30, G-NS-18)."""

# --------------------------------------------------------------------------- auto skills


class AutoSkills(msgspec.Struct, frozen=True, kw_only=True):
    """●自動獲得スキル from BASE attributes only (NSTRPG 2-16, NS-23)."""

    renzoku: int = 1
    rensha: int = 1
    multi_target: bool = False
    jisa: bool = False
    sixth_sense: bool = False

    def names(self) -> list[str]:
        out = []
        if self.renzoku > 1:
            out.append(f"●連続攻撃{self.renzoku}")
        if self.rensha > 1:
            out.append(f"●連射{self.rensha}")
        if self.multi_target:
            out.append("●マルチターゲット")
        if self.jisa:
            out.append("●時間差")
        if self.sixth_sense:
            out.append("●ニンジャ第六感")
        return out


def auto_skills(*, karate: int, neuron: int, wazamae: int) -> AutoSkills:
    """The ● skills the base values give: 連続攻撃2/3 at カラテ 7/13, 連射2/3 at ワザマエ 7/13,
    マルチターゲット and 時間差 at ニューロン 7, ニンジャ第六感 at ニューロン 13.

    Pass the sheet's base values: temporary boosts and ability damage change
    nothing (NS-23, NS-EX-33).
    """
    return AutoSkills(
        renzoku=3 if karate >= 13 else 2 if karate >= 7 else 1,
        rensha=3 if wazamae >= 13 else 2 if wazamae >= 7 else 1,
        multi_target=neuron >= 7,
        jisa=neuron >= 7,
        sixth_sense=neuron >= 13,
    )


# --------------------------------------------------------------------------- attacks


class AttackProfile(msgspec.Struct, frozen=True, kw_only=True):
    """How one attack action rolls: which attribute, the difficulty, criticals, limits.

    Attributes:
        kind: ``melee`` or ``shoot``.
        damage_kind: ``melee``, ``shuriken`` or ``gun`` (atmosphere, NS-108).
        stat: the attribute rolled.
        difficulty: the final difficulty before per-target modifiers (崩れ).
        damage: base damage of a hit.
        tsuda: 痛打 from the style (0 or 1).
        no_tsuda: 精密攻撃: no 痛打 at all.
        satsubatsu, namu: the critical patterns, ``None`` when no critical can happen.
        max_attacks: how many attacks / shots the pool may be split into.
        multi: whether the split may go to several targets.
        jisa: whether two or more hits on one target are 時間差.
    """

    kind: str
    damage_kind: str
    stat: StatName
    difficulty: int
    damage: int
    tsuda: int = 0
    no_tsuda: bool = False
    satsubatsu: Pattern | None = None
    namu: Pattern | None = None
    max_attacks: int = 1
    multi: bool = False
    jisa: bool = False
    tsuda_on_six: int = 0


def max_attacks(base: int, plus: Sequence[int] = (), cap: int = 0, fixed: int = 0) -> int:
    """連続攻撃 / 連射 count: base (1 when absent) + the highest +X only, capped (NS-64 … NS-66)."""
    if fixed:
        return fixed
    n = max(base, 1) + max((p for p in plus if p > 0), default=0)
    return min(n, cap) if cap else n


def attack_profile(
    *,
    kind: str,
    weapon: Weapon,
    style: Style | None,
    skills: AutoSkills,
    ninja: bool,
    shuchu: bool = False,
    sokuten: bool = False,
    snap_shuriken: bool = False,
    renzoku_plus: Sequence[int] = (),
    rensha_plus: Sequence[int] = (),
    modifiers: int = 0,
) -> AttackProfile:
    """The profile of a melee attack or a shot (NSTRPG 2-4, 2-5, 2-6, 2-16).

    Args:
        kind: ``melee`` (with a melee weapon) or ``shoot``.
        weapon: the weapon used (for a snap throw, スリケン).
        style: the declared combat style, if any.
        skills: the attacker's ● skills.
        ninja: only ninjas cause サツバツ! (NS-88, G-NS-09).
        shuchu: 集中状態: every attack-phase action −1 (NS-56).
        sokuten: after 連続側転 this turn: +1 (NS-49, NS-50).
        snap_shuriken: 咄嗟のスリケン投擲: +1 (NS-59).
        renzoku_plus, rensha_plus: active 連続攻撃+X / 連射+X effects.
        modifiers: any other difficulty modifiers, summed (NS-03).
    """
    diff = weapon.attack_difficulty + weapon.attack_modifier + modifiers
    diff += -1 if shuchu else 0
    diff += 1 if sokuten else 0
    if kind == "melee":
        stat = style.stat if style else "karate"
        tsuda = style.tsuda if style else 0
        no_tsuda = bool(style and style.no_tsuda)
        diff += style.difficulty if style else 0
        sat_text = weapon.satsubatsu or (style.satsubatsu if style else "6,6")
        namu_text = style.namu if style else "6,6,6"
        cap = min(c for c in (weapon.renzoku_cap or 99, (style.renzoku_cap if style else 0) or 99))
        if style and style.rensha_as_renzoku:
            # NS-67: ●連射 may stand for ●連続攻撃, but no +X applies to it (連射+X is excluded,
            # 連続攻撃+X raises ●連続攻撃 only); the better of the two
            n = max(
                max_attacks(skills.renzoku, renzoku_plus, cap if cap != 99 else 0),
                max_attacks(skills.rensha, (), cap if cap != 99 else 0),
            )
        else:
            n = max_attacks(skills.renzoku, renzoku_plus, cap if cap != 99 else 0)
        return AttackProfile(
            kind="melee",
            damage_kind="melee",
            stat=stat,
            difficulty=shift(diff, 0),
            damage=weapon.damage,
            tsuda=tsuda,
            no_tsuda=no_tsuda,
            satsubatsu=Pattern.parse(sat_text) if ninja else None,
            namu=Pattern.parse(namu_text) if ninja else None,
            max_attacks=n,
            multi=True,  # 連続攻撃: up to X targets (NS-64)
            jisa=True,  # two or more melee attacks on one target are 時間差 (NS-64)
            tsuda_on_six=weapon.tsuda_on_six,
        )
    diff += 1 if snap_shuriken else 0
    base = (
        weapon.rensha
        if weapon.kind == "gun" and weapon.rensha
        else (1 if weapon.kind == "gun" else skills.rensha)
    )
    n = max_attacks(base, rensha_plus)
    multi = weapon.multi_builtin or (weapon.multi and skills.multi_target)
    jisa = weapon.jisa == "builtin" or (weapon.jisa == "capable" and skills.jisa)
    return AttackProfile(
        kind="shoot",
        damage_kind="shuriken" if weapon.kind == "shuriken" else "gun",
        stat="wazamae",
        difficulty=shift(diff, 0),
        damage=weapon.damage,
        satsubatsu=None,  # no critical when shooting (NS-58)
        namu=None,
        max_attacks=n,
        multi=multi,
        jisa=jisa,
    )


def validate_split(
    pool: int, dice: Sequence[int], targets: Sequence[str], profile: AttackProfile
) -> str | None:
    """Why a declared split is illegal, or ``None`` (NS-64, NS-66, NS-68).

    ``dice[i]`` dice go to ``targets[i]``; all declared before the roll.
    """
    if not dice:
        return "no_attack"
    if any(d < 1 for d in dice):
        return "empty_attack"
    if sum(dice) > pool:
        return "too_many_dice"
    if len(dice) > profile.max_attacks:
        return "too_many_attacks"
    if len(set(targets)) > 1 and not profile.multi:
        return "single_target"
    return None


# --------------------------------------------------------------------------- evasion

DAMAGE_KINDS = ("melee", "shuriken", "jitsu", "hacking", "gun", "mob", "environment")
ATMOSPHERE_LEVELS = ("normal", "hard", "ultra_hard")
ATMOSPHERE_TABLE: dict[str, tuple[int, int, int]] = {
    "melee": (0, 1, 2),
    "shuriken": (0, 0, 1),
    "jitsu": (0, 0, 1),
    "hacking": (0, 0, 1),
    "gun": (0, 0, 0),
    "mob": (0, 0, 0),
    "environment": (0, 0, 0),
}
"""アトモスフィア上昇の影響 (NSTRPG 2-17, NS-107 … NS-109)."""


def atmosphere_modifier(level: str, damage_kind: str, *, from_mob: bool) -> int:
    """The evasion difficulty added by the atmosphere: none for a mob's or the environment's damage.

    Counters, knockback collisions and moving attacks are passed as ``melee`` (NS-109).
    """
    if from_mob:
        return 0
    i = ATMOSPHERE_LEVELS.index(level) if level in ATMOSPHERE_LEVELS else 0
    return ATMOSPHERE_TABLE.get(damage_kind, (0, 0, 0))[i]


def evasion_difficulty(
    *,
    base: int = NORMAL,
    namu: bool = False,
    atmosphere: int = 0,
    defender: int = 0,
    adrenaline: bool = False,
    barrage: int = 0,
    modifiers: int = 0,
) -> int:
    """The difficulty of an 回避判定 (NSTRPG 2-11): NORMAL + every modifier, summed.

    Args:
        base: the hit's own evasion difficulty (NORMAL unless the attack says otherwise).
        namu: ナムアミダブツ!: +1 (NS-88).
        atmosphere: from :func:`atmosphere_modifier`.
        defender: the defender's own modifiers (Ninja Slayer: −1 against melee).
        adrenaline: アドレナリン・ブースト off-turn: −1 (NS-96).
        barrage: 弾幕発生: +1/+2/+3, the base capped at UH3 (NS-76).
        modifiers: anything else.
    """
    start = base + barrage
    if barrage:
        start = max(base, min(start, UH3))  # the raise stops at UH3; a higher base stays
    return shift(
        start, (1 if namu else 0) + atmosphere + defender - (1 if adrenaline else 0) + modifiers
    )


BARRAGE: dict[int, int] = {3: 1, 6: 2, 12: 3}
"""弾幕発生: divisor -> evasion difficulty added (NS-76)."""


def barrage(damage: int, divisor: int) -> tuple[int, int]:
    """弾幕発生 (NS-76): ``(damage // divisor, difficulty added)``, one hit.

    Raises:
        ValueError: a divisor other than 3, 6 or 12.
    """
    if divisor not in BARRAGE:
        raise ValueError("弾幕発生 divides by 3, 6 or 12")
    return damage // divisor, BARRAGE[divisor]


def can_counter(
    *,
    kinds: Sequence[str],
    evasion_successes: int,
    attack_successes: int,
    adjacent: bool,
    area: bool = False,
    moving: bool = False,
    counter: bool = False,
) -> str | None:
    """Why カウンターカラテ is not allowed, or ``None`` when it is (NS-77).

    Only after a successful evasion of melee attacks, with more evasion successes
    than the attack had, against an adjacent attacker; never against area or
    moving attacks, and never against a counter.
    """
    if counter:
        return "counter_of_counter"
    if any(k != "melee" for k in kinds):
        return "not_melee"
    if area or moving:
        return "area_or_moving"
    if not adjacent:
        return "not_adjacent"
    if evasion_successes <= attack_successes:
        return "not_enough_successes"
    return None


# --------------------------------------------------------------------------- initiative


def initiative_order(
    entries: Sequence[tuple[str, int, bool]], pc_rank: Sequence[str] = ()
) -> list[str]:
    """The 手番 order (NSTRPG 2-3, NS-31, NS-32).

    Args:
        entries: ``(id, initiative, is_pc)``; an initiative of 0 or less acts as 1.
        pc_rank: the order agreed for PCs with the same value (talk, dice, janken);
            PCs not in it keep their given order.

    Highest first; on a tie a PC acts before an enemy; enemies keep their given
    order (the GM decides each time).
    """
    rank = {pid: i for i, pid in enumerate(pc_rank)}
    pos = {e[0]: i for i, e in enumerate(entries)}

    def key(e: tuple[str, int, bool]) -> tuple[int, int, int, int]:
        cid, init, pc = e
        return (-max(init, 1), 0 if pc else 1, rank.get(cid, len(rank)) if pc else 0, pos[cid])

    return [e[0] for e in sorted(entries, key=key)]


def placement_order(
    entries: Sequence[tuple[str, int, bool]], pc_rank: Sequence[str] = ()
) -> list[str]:
    """Sudden combat: place in reverse 手番 order, lowest first (NS-33, G-NS-25)."""
    return list(reversed(initiative_order(entries, pc_rank)))


# --------------------------------------------------------------------------- one attack, one evasion


class AttackResult(msgspec.Struct, frozen=True, kw_only=True):
    """One attack check: faces, difficulty, success count, hit, critical (``""``, ``satsubatsu``, ``namuamidabutsu``)."""

    faces: tuple[int, ...]
    difficulty: int
    successes: int
    hit: bool
    critical: str = ""


def resolve_attack(faces: Sequence[int], difficulty: int, profile: AttackProfile) -> AttackResult:
    """An attack check's result from its faces (NSTRPG 2-6, 2-13): criticals only on a hit."""
    n = count_successes(faces, difficulty)
    crit = critical_of(faces, success=n > 0, satsubatsu=profile.satsubatsu, namu=profile.namu)
    return AttackResult(
        faces=tuple(faces), difficulty=difficulty, successes=n, hit=n > 0, critical=crit
    )


def roll_attack(
    dice: DiceSource, n: int, difficulty: int, profile: AttackProfile
) -> tuple[Roll, AttackResult]:
    """Roll one attack of ``n`` dice; store the :class:`Roll` in your event."""
    roll = dice.roll(max(n, 0), 6)
    return roll, resolve_attack(roll.faces, difficulty, profile)


class EvasionResult(msgspec.Struct, frozen=True, kw_only=True):
    """One evasion check; ``counter`` is whether カウンターカラテ is allowed (NS-77)."""

    faces: tuple[int, ...]
    difficulty: int
    successes: int
    success: bool
    counter: bool = False


def resolve_evasion(
    faces: Sequence[int],
    difficulty: int,
    *,
    attack_successes: int,
    kind: str = "melee",
    adjacent: bool = True,
    area: bool = False,
    moving: bool = False,
    counter_of_counter: bool = False,
) -> EvasionResult:
    """An evasion's result (NSTRPG 2-11): success cancels the damage and every effect;
    カウンターカラテ when :func:`can_counter` allows it."""
    n = count_successes(faces, difficulty)
    ok = n > 0
    counter = (
        ok
        and can_counter(
            kinds=[kind],
            evasion_successes=n,
            attack_successes=attack_successes,
            adjacent=adjacent,
            area=area,
            moving=moving,
            counter=counter_of_counter,
        )
        is None
    )
    return EvasionResult(
        faces=tuple(faces), difficulty=difficulty, successes=n, success=ok, counter=counter
    )


def roll_evasion(
    dice: DiceSource, n: int, difficulty: int, **kw: object
) -> tuple[Roll, EvasionResult]:
    """Roll an evasion of ``n`` dice (回避ダイス + 緊急回避ダイス); see :func:`resolve_evasion`."""
    roll = dice.roll(max(n, 0), 6)
    return roll, resolve_evasion(roll.faces, difficulty, **kw)  # type: ignore[arg-type]
