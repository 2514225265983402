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

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku_nstrpg._labels import (
    ATMOSPHERE_DESC,
    CRITICAL_DESC,
    DAMAGE_KIND_DESC,
    DAMAGE_KINDS,
    HIT_KIND_DESC,
    HIT_KINDS,
    PURPOSE_DESC,
    STATUS_DESC,
    STATUSES,
    Atmosphere,
    open_set,
)
from taku_nstrpg.checks import NORMAL
from taku_nstrpg.combat import BUILTIN_WEAPONS, AutoSkills, Weapon, auto_skills
from taku_nstrpg.damage import ACTIVE, effective
from taku_nstrpg.mapping import Board

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

STATS = (
    "karate",
    "neuron",
    "wazamae",
    "jitsu",
    "tairyoku",
    "seishin",
    "kyakuryoku",
    "manken",
    "dkk",
)
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


def _stat(title: str, description: str = "") -> msgspec.Meta:
    return field(title, description or "能力値（0〜99）", ge=0, le=99)


Count = Annotated[int, field("数")]


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

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ニンジャスレイヤーTRPGのキャラクターシート",
        description="能力値・装備・スキル（2-1〜2-16）",
    )

    kind: Annotated[
        Literal["pc", "boss", "mob"], field("種別", "pc（PC）/ boss（ボス級の敵）/ mob（モブ敵）")
    ] = "pc"
    ninja: Annotated[
        bool | None, field("ニンジャ", "空ならPCとボスはニンジャ、モブはニンジャでない（G-NS-09）")
    ] = None
    karate: Annotated[int, _stat("【カラテ】")] = 1
    neuron: Annotated[int, _stat("【ニューロン】")] = 1
    wazamae: Annotated[int, _stat("【ワザマエ】")] = 1
    jitsu: Annotated[int, _stat("【ジツ】")] = 0
    tairyoku: Annotated[int, _stat("【体力】")] = 1
    seishin: Annotated[int, _stat("【精神力】")] = 0
    kyakuryoku: Annotated[int, _stat("【脚力】")] = 1
    manken: Annotated[int, _stat("【万札】")] = 0
    dkk: Annotated[int, field("【DKK】ポイント", "0〜12", ge=0, le=12)] = 0
    quick_dice: Annotated[
        Annotated[int, msgspec.Meta(ge=0)] | None,
        field("即応ダイス", "シナリオ開始時の即応ダイス（空なら5−武器スロット、NS-13）"),
    ] = None
    emergency_dice: Annotated[
        int, field("緊急回避ダイス", "装備による緊急回避ダイス（NS-14）", ge=0)
    ] = 0
    initiative_bonus: Annotated[
        int, field("イニシアチブ修正", "生体LANなどによるイニシアチブ値の修正（NS-17）")
    ] = 0
    evasion: Annotated[
        Annotated[int, msgspec.Meta(ge=0)] | None,
        field("【回避】", "記載された【回避】（空なら最大のカラテ／ニューロン／ワザマエ）"),
    ] = None
    instant_death_resistance: Annotated[bool, field("即死耐性", "NS-94")] = False
    damage_reduction: Annotated[int, field("ダメージ軽減", "NS-95", ge=0)] = 0
    weapons: Annotated[
        list[str | Weapon],
        field(
            "武器", "素手とスリケン以外に持つ武器: 組み込みのID（katana、chainsaw…）か武器データ"
        ),
    ] = []
    equipped: Annotated[
        str, field("装備中の武器", "戦闘開始時に手にしている武器のID（既定は素手、NS-27）")
    ] = "unarmed"
    karate_attack_bonus: Annotated[
        int, field("カラテ攻撃ダイス", "【カラテ】で攻撃するときだけの追加ダイス（テッコ）")
    ] = 0
    attack_bonus: Annotated[int, field("近接攻撃ダイス", "装備による近接攻撃の追加ダイス")] = 0
    shoot_bonus: Annotated[int, field("射撃ダイス", "装備による射撃の追加ダイス")] = 0
    evasion_modifiers: Annotated[
        dict[str, int],
        field("回避難易度修正", "ダメージの区分 → 回避難易度の修正（ニンジャスレイヤー: 近接−1）"),
    ] = {}
    renzoku: Annotated[
        int, field("●連続攻撃", "データによる●連続攻撃の値（0なら能力値から）", ge=0, le=20)
    ] = 0
    rensha: Annotated[
        int, field("●連射", "データによる●連射の値（0なら能力値から）", ge=0, le=20)
    ] = 0
    renzoku_plus: Annotated[int, field("連続攻撃+X", "効果中の連続攻撃+X")] = 0
    rensha_plus: Annotated[int, field("連射+X", "効果中の連射+X")] = 0
    sixth_sense: Annotated[
        bool, field("●ニンジャ第六感", "【ニューロン】13以外で得た●ニンジャ第六感")
    ] = False
    mob_type: Annotated[str, field("モブの種類", "同種のモブ敵の区別（空なら名前）")] = ""
    skills: Annotated[
        list[str], field("スキル", "スキル名（●マルチターゲット、◉ナラク・ウィズインなど）")
    ] = []
    notes: Annotated[str, field("メモ")] = ""

    @property
    def is_ninja(self) -> bool:
        """Whether the character is a ninja (``ninja``, filled in from ``kind`` when unsaid)."""
        return bool(self.ninja)

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

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="回避待ちの攻撃", description="ターゲットの回避判定を待つダメージ（2-11）"
    )

    id: Annotated[str, field("攻撃ID", "回避待ちの攻撃のID")]
    attack_id: Annotated[str, field("攻撃ID", "元の攻撃（カウンター、GMのダメージ）のID")]
    attacker: Annotated[str | None, field("攻撃した者", "キャラクターのID（空なら環境・GM）")]
    target: Annotated[str, field("ターゲット", "キャラクターのID")]
    # open in stored logs: inflict.kind was a free string before
    kind: Annotated[str, open_set("種類", HIT_KIND_DESC, HIT_KINDS)] = "melee"
    damage_kind: Annotated[str, open_set("ダメージの区分", DAMAGE_KIND_DESC, DAMAGE_KINDS)] = (
        "melee"
    )
    damage: Annotated[int, field("ダメージ", "基本ダメージ（まとめて振ったモブは成功数）")] = 1
    tsuda: Annotated[int, field("痛打", "スタイルによる痛打")] = 0
    tsuda_on_six: Annotated[int, field("6の痛打", "出目に6があるときの武器の痛打")] = 0
    no_tsuda: Annotated[bool, field("痛打なし", "精密攻撃: 痛打を受けない")] = False
    critical: Annotated[
        str, open_set("クリティカル", CRITICAL_DESC, ("", "satsubatsu", "namuamidabutsu"))
    ] = ""
    successes: Annotated[int, field("成功数", "攻撃の成功数（カウンターカラテで比べる）")] = 0
    evasion_base: Annotated[int, field("回避難易度", "この攻撃の回避難易度（4=NORMAL）")] = NORMAL
    evasion_plus: Annotated[int, field("弾幕の修正", "弾幕発生による回避難易度の上昇")] = 0
    jisa: Annotated[
        bool, field("時間差", "このターゲットへの時間差攻撃の一部（まとめて回避できない）")
    ] = False
    adjacent: Annotated[bool, field("隣接", "攻撃者が隣接している")] = True
    area: Annotated[bool, field("範囲攻撃")] = False
    moving: Annotated[bool, field("移動攻撃")] = False
    from_mob: Annotated[bool, field("モブ敵の攻撃", "アトモスフィアの影響を受けない")] = False
    mob_type: Annotated[str, field("モブの種類")] = ""
    group: Annotated[tuple[str, ...], field("まとめて振ったモブ", "キャラクターのID")] = ()
    stat: Annotated[
        str,
        open_set(
            "判定の能力値",
            "karate（【カラテ】）/ wazamae（【ワザマエ】）など",
            ("karate", "neuron", "wazamae", "jitsu", "kyakuryoku", "tairyoku", "seishin"),
        ),
    ] = "karate"
    attacker_karate: Annotated[int, field("攻撃者の【カラテ】", "弾き飛ばしの距離")] = 0
    evadable: Annotated[bool, field("回避可能", "falseなら回避不能")] = True
    faces: Annotated[tuple[int, ...], field("出目", "攻撃判定の出目")] = ()
    satsubatsu: Annotated[str, field("サツバツ!の出目", "使った出目の組（空なら【6,6】）")] = ""
    namu: Annotated[str, field("ナムアミダブツ!の出目", "使った出目の組")] = ""
    phase: Annotated[
        int, field("フェイズ", "与えられたフェイズの番号（まとめて全弾回避は同じフェイズのみ）")
    ] = 0


class LastRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A character's latest check or attack roll, for ●ニンジャ第六感 (NS-70, NS-15).

    Attributes:
        ref: the check id or attack id.
        kind: ``check`` or ``attack``.
        rerolled: already a reroll (no reroll of a reroll).
        evaded: the opponent already rolled an evasion against it.
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="直前の判定", description="●ニンジャ第六感で振り直せる直前の判定か攻撃"
    )

    ref: Annotated[str, field("判定ID", "判定か攻撃のID")]
    kind: Annotated[Literal["check", "attack"], field("種類", "check（判定）/ attack（攻撃）")]
    rerolled: Annotated[bool, field("振り直し済み")] = False
    evaded: Annotated[bool, field("回避された", "相手が既に回避判定をした")] = False
    stat: Annotated[
        str,
        open_set(
            "能力値",
            "判定した能力値（攻撃なら空）",
            (
                "",
                "karate",
                "neuron",
                "wazamae",
                "jitsu",
                "kyakuryoku",
                "tairyoku",
                "seishin",
                "dice",
            ),
        ),
    ] = ""
    pool: Annotated[int, field("ダイス数")] = 0
    difficulty: Annotated[int, field("難易度", "難易度の段階（4=NORMAL）")] = NORMAL
    purpose: Annotated[
        Literal["check", "resistance", "sokuten", "attack_phase"], field("判定の種類", PURPOSE_DESC)
    ] = "check"
    patterns: Annotated[tuple[str, ...], field("【】出目指定")] = ()
    label: Annotated[str, field("判定の名前")] = ""
    success: Annotated[bool, field("成功")] = False


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

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="キャラクターの現在値", description="プレイ中に変わる値（シートは基本値）"
    )

    tairyoku: Annotated[int, field("【体力】", "現在の【体力】")]
    seishin: Annotated[int, field("【精神力】", "現在の【精神力】")]
    status: Annotated[str, open_set("状態", STATUS_DESC, STATUSES)] = ACTIVE
    ability_damage: Annotated[
        dict[str, int], field("能力値ダメージ", "能力値 → 点数（読むときは最低1）")
    ] = {}
    injuries: Annotated[dict[str, int], field("●部位損傷", "部位 → 回数（×N）")] = {}
    injury_penalty: Annotated[
        int, field("部位損傷の修正", "このシナリオのすべての判定の難易度修正（NS-21）")
    ] = 0
    quick_dice: Annotated[int, field("即応ダイス", "残りの即応ダイス")] = 0
    emergency_dice: Annotated[int, field("緊急回避ダイス", "残りの緊急回避ダイス")] = 0
    evasion_dice: Annotated[int, field("回避ダイス", "このターンの残りの回避ダイス")] = 0
    dkk: Annotated[int, field("【DKK】ポイント", "現在の【DKK】（0〜12）")] = 0
    kuzure: Annotated[bool, field("崩れ状態", "この者への攻撃の難易度−1（NS-50）")] = False
    shuchu: Annotated[bool, field("集中状態", "攻撃フェイズの行動の難易度−1（NS-56）")] = False
    sokuten: Annotated[
        bool, field("連続側転済み", "この手番に連続側転した（攻撃フェイズの行動+1）")
    ] = False
    adrenaline_used: Annotated[
        bool, field("アドレナリン・ブースト使用済み", "この戦闘で使った（NS-96）")
    ] = False
    adrenaline_evasion: Annotated[
        bool, field("アドレナリンの回避修正", "このフェイズの回避難易度−1が効いている")
    ] = False
    sixth_sense_used: Annotated[bool, field("●ニンジャ第六感使用済み", "このシナリオで使った")] = (
        False
    )
    equipped: Annotated[
        str | None, field("装備中の武器", "手番開始で持ち替えた武器のID（空ならシートの武器）")
    ] = None
    looted: Annotated[bool, field("万札回収済み", "【万札】が万札プールに入った")] = False
    boosts: Annotated[
        dict[str, int],
        field(
            "一時的な能力値修正", "能力値 → 修正（☆ヘンゲヨーカイ・ジツなど。●スキルは変わらない）"
        ),
    ] = {}


class MemoRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One attack of an action as ●ニンジャ第六感 needs it: its dice, difficulty and hit template."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃1回の記録", description="●ニンジャ第六感で振り直すための攻撃1回分"
    )

    dice: Annotated[int, field("ダイス数")]
    difficulty: Annotated[int, field("難易度", "難易度の段階（4=NORMAL）")]
    auto: Annotated[bool, field("自動成功")] = False
    success: Annotated[bool, field("命中")] = False
    template: Annotated[Hit, field("攻撃", "命中したとき（した）の攻撃")]


class AttackMemo(msgspec.Struct, frozen=True, kw_only=True):
    """The latest attack action of an attacker, kept for ●ニンジャ第六感 (NS-70)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="直前の攻撃の記録", description="攻撃者の直前の攻撃（●ニンジャ第六感用）"
    )

    attacker: Annotated[str, field("攻撃した者", "キャラクターのID")]
    rolls: Annotated[tuple[MemoRoll, ...], field("攻撃", "攻撃ごとの記録")] = ()
    evaded: Annotated[bool, field("回避された", "相手が回避判定をした")] = False


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
        effects_done: the ターン終了フェイズ's continuing effects are resolved this turn
            (``resolve_effects``, or first in ``end_turn``; NS-42, :mod:`taku_nstrpg.turn_end`).
        pc_rank: the agreed order of PCs with the same イニシアチブ値 (NS-31, ``set_pc_order``).
        joined: characters created during this combat turn (増援): they have no 手番 until
            the next ``start_turn`` (2-2: placed in the ターン終了フェイズ, act from the next turn).
        turn_initiative: each fighter's イニシアチブ値 at this turn's ``start_turn``: the
            turn's 手番 order is built from it, so a change mid-turn (ニューロン damage …)
            reorders from the next turn (2-3); empty before a turn and in old logs (then the
            current values).
        turn_duel: whether this turn began as a 一騎打ち (NS-34): kept for the turn, as the
            order is; ``None`` before a turn and in old logs (then decided from the state now).
        board: the map, positions and per-手番 movement (:class:`~taku_nstrpg.mapping.Board`);
            ``None`` without a map (the view leaves it out then).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="ニンジャスレイヤーTRPGの卓の状態",
        description="戦闘・ターン・回避待ちの攻撃・万札プール・DKK",
    )

    fighters: Annotated[
        dict[str, Fighter], field("キャラクターの現在値", "キャラクターID → 現在値")
    ] = {}
    combat: Annotated[bool, field("戦闘中")] = False
    turn: Annotated[int, field("ターン", "戦闘の何ターン目か（開始前は0）", ge=0)] = 0
    atmosphere: Annotated[Atmosphere, field("アトモスフィア", ATMOSPHERE_DESC)] = "normal"
    pending: Annotated[dict[str, Hit], field("回避待ちの攻撃", "攻撃ID → 攻撃")] = {}
    last_roll: Annotated[
        dict[str, LastRoll], field("直前の判定", "キャラクターID → 直前の判定（●ニンジャ第六感用）")
    ] = {}
    attacks: Annotated[
        dict[str, AttackMemo], field("攻撃の記録", "攻撃ID → 攻撃（●ニンジャ第六感と時間差用）")
    ] = {}
    money_pool: Annotated[int, field("万札プール", "2-10")] = 0
    dkk_this_turn: Annotated[int, field("このターンの【DKK】", "このターンに得た【DKK】の合計")] = 0
    wasshoi_due: Annotated[bool, field("Wasshoi!判定待ち", "このターンに【DKK】を3以上得た")] = (
        False
    )
    entry_rerolls: Annotated[
        int,
        field("エントリーの振り直し", "直前のエントリー決定表の振り直し回数（−1: 振っていない）"),
    ] = -1
    scenario: Annotated[int, field("シナリオ", "何本目のシナリオか")] = 1
    phase: Annotated[
        int, field("フェイズ番号", "手番の開始・終了、フェイズ終了、ターン開始で増える")
    ] = 0
    acting: Annotated[
        str | None, field("手番のキャラクター", "手番開始から手番終了までのキャラクターID")
    ] = None
    entry_sokuten: Annotated[
        int,
        field(
            "エントリーによる連続側転の修正",
            "死神のエントリー4〜6による連続側転判定の難易度修正（NS-99）",
        ),
    ] = 0
    entry_until: Annotated[int, field("修正の終わるターン", "このターンの終了まで")] = 0
    acted: Annotated[
        tuple[str, ...], field("手番を終えた者", "このターンに手番を終えたキャラクターID（順に）")
    ] = ()
    step: Annotated[
        Literal["", "move", "attack", "attacked"],
        field(
            "手番の段階",
            "move（移動フェイズ）/ attack（攻撃フェイズ）/ attacked（攻撃フェイズの行動済み）/ 空（手番の間）",
        ),
    ] = ""
    turn_over: Annotated[
        bool, field("ターン終了済み", "ターン終了フェイズが済み、次のターン開始を待つ")
    ] = False
    effects_done: Annotated[
        bool,
        field("継続系の効果を処理済み", "このターン終了フェイズの継続系の効果を処理した（2-9）"),
    ] = False
    pc_rank: Annotated[
        tuple[str, ...],
        field("同値のPCの順番", "イニシアチブ値が同じPCの行動順（キャラクターID、NS-31）"),
    ] = ()
    joined: Annotated[
        tuple[str, ...],
        field("次のターンから行動する者", "このターン中に加わったキャラクターID（増援、2-2）"),
    ] = ()
    turn_initiative: Annotated[
        dict[str, int],
        field(
            "このターンのイニシアチブ値",
            "キャラクターID → ターン開始時のイニシアチブ値（このターンの手番順はこれで決まる、2-3）",
        ),
    ] = {}
    turn_duel: Annotated[
        bool | None,
        field("このターンの一騎打ち", "ターン開始時に一騎打ち（NS-34）だったか（空なら記録なし）"),
    ] = None
    board: Annotated[
        Board | None,
        field(
            "マップ", "マップ・位置・移動と能力の記録（空ならマップなし: 隣接と視線はGMが決める）"
        ),
    ] = None
    secret_rolls: Annotated[
        dict[str, tuple[str, ...]],
        field(
            "シークレットの判定",
            "キャラクターID → 直前の判定を見られるメンバー（シークレットの判定のとき）",
        ),
    ] = {}


def current(sheet: NsSheet, fighter: Fighter | None, stat: str) -> int:
    """An attribute now: the base minus ability damage (floor 1, NS-19), plus temporary boosts."""
    base = getattr(sheet, stat)
    if fighter is None:
        return base
    return max(
        1, effective(base, fighter.ability_damage.get(stat, 0)) + fighter.boosts.get(stat, 0)
    )


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
    quick = (
        sheet.quick_dice
        if sheet.quick_dice is not None
        else max(0, quick_dice_base - sheet.weapon_slots())
    )
    return Fighter(
        tairyoku=sheet.tairyoku,
        seishin=sheet.seishin,
        quick_dice=quick if sheet.kind != "mob" else 0,
        emergency_dice=sheet.emergency_dice,
        evasion_dice=evasion_per_turn(sheet, None),
        dkk=sheet.dkk,
    )


__all__ += ["current", "evasion_per_turn", "initiative"]
