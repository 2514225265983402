"""The events of nstrpg (tags ``nstrpg.<fact>``): facts with every face rolled.

``evolve`` copies their values; it never rolls and never recomputes a rule.
A shipped event only gains fields with defaults.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll
from taku.core.events import Event
from taku_nstrpg._labels import (
    ATMOSPHERE_DESC,
    ATTACK_KINDS,
    CRITICAL_DESC,
    FIGHTER_FIELD_DESC,
    FIGHTER_FIELDS,
    PURPOSE_DESC,
    STYLE_DESC,
    Atmosphere,
    AttackKind,
    CharacterId,
    DifficultyLevel,
    Purpose,
    RollStat,
    StatName,
    Status,
    StyleId,
    open_set,
)
from taku_nstrpg.mapping import MAP_EVENTS
from taku_nstrpg.state import Hit
from taku_nstrpg.turn_end import EffectsResolved

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


Pool = Annotated[int, field("ダイス数", "振ったダイスの数")]
Successes = Annotated[int, field("成功数")]
Success = Annotated[bool, field("成功")]
Faces = Annotated[Roll, field("出目", "振ったダイスの出目")]
MaybeRoll = Annotated[Roll | None, field("出目", "振ったダイスの出目（振らなければ空）")]
Note = Annotated[str, field("理由", "GMの記録した理由")]
QuickSpent = Annotated[int, field("即応ダイス", "使った即応ダイス")]
AdrenalineUsed = Annotated[bool, field("アドレナリン・ブースト", "使った（【精神力】−1）")]
Critical = Annotated[
    str, open_set("クリティカル", CRITICAL_DESC, ("", "satsubatsu", "namuamidabutsu"))
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

    meta = msgspec.Meta(title="判定した", description="能力値の判定とその結果（2-1）")

    check_id: Annotated[str, field("判定ID", "●ニンジャ第六感で振り直すときのID")]
    character_id: CharacterId
    stat: RollStat
    pool: Pool
    roll: Faces
    difficulty: DifficultyLevel
    successes: Successes
    success: Success
    label: Annotated[str, field("判定の名前")] = ""
    purpose: Annotated[Purpose, field("判定の種類", PURPOSE_DESC)] = "check"
    patterns: Annotated[dict[str, bool], field("【】出目指定", "出目の組 → 成立したか")] = {}
    quick_dice: QuickSpent = 0
    adrenaline: AdrenalineUsed = False
    reroll_of: Annotated[
        str | None, field("振り直した判定", "●ニンジャ第六感で振り直した元の判定ID")
    ] = None
    evasion_gained: Annotated[
        int, field("得た回避ダイス", "連続側転の成功で+2（振り直しで取り消されると−2）")
    ] = 0
    kuzure: Annotated[
        bool | None, field("崩れ状態", "連続側転判定で崩れ状態になった（true）／解けた（false）")
    ] = None
    secret_to: Annotated[
        tuple[str, ...],
        field("見られる者", "シークレットの判定を見られるメンバー（@gm はGM全員）。空なら公開"),
    ] = ()
    channel: Annotated[
        str,
        msgspec.Meta(
            title="チャンネル", description="チャットで振った行のチャンネル（空はメイン）"
        ),
    ] = ""
    """The chat channel the line was typed in (``""``: メイン, and for a form's roll)."""


class OpposedRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One side's roll of an opposed check."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="対抗判定の一方の出目")

    character_id: CharacterId
    stat: Annotated[
        StatName,
        field(
            "能力値",
            "karate（【カラテ】）/ neuron（【ニューロン】）/ wazamae（【ワザマエ】）/ jitsu（ジツ）/ kyakuryoku（【脚力】）/ tairyoku（【体力】）/ seishin（【精神力】）",
        ),
    ]
    pool: Pool
    roll: Faces
    successes: Successes
    quick_dice: QuickSpent = 0


class OpposedRolled(Event, frozen=True, kw_only=True, tag="nstrpg.opposed_rolled"):
    """An opposed check (NS-11); ``winner`` is ``None`` on a tie (G-NS-03)."""

    meta = msgspec.Meta(
        title="対抗判定した", description="対抗判定の各側の出目と勝者（同数なら勝者なし）"
    )

    sides: Annotated[tuple[OpposedRoll, ...], field("各側の出目")]
    difficulty: DifficultyLevel
    winner: Annotated[str | None, field("勝者", "勝ったキャラクターのID（同数なら空）")] = None
    margin: Annotated[int, field("差", "成功数の差")] = 0
    label: Annotated[str, field("判定の名前")] = ""


class AttackRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One attack or shot of an attack action.

    ``roll`` is ``None`` when it hit automatically (a 気絶 target, NS-86).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃1回の判定", description="攻撃または射撃1回分の出目と結果"
    )

    index: Annotated[int, field("何回目", "攻撃の順番（0から）")]
    target: Annotated[str, field("ターゲット", "キャラクターのID")]
    dice: Annotated[int, field("ダイス数")]
    difficulty: DifficultyLevel
    successes: Successes
    success: Annotated[bool, field("命中")]
    roll: MaybeRoll = None
    critical: Critical = ""
    auto: Annotated[bool, field("自動成功", "気絶状態のターゲットへの攻撃（判定なし、NS-86）")] = (
        False
    )


class AttackRolled(Event, frozen=True, kw_only=True, tag="nstrpg.attack_rolled"):
    """An attack action's rolls and the hits they make (NSTRPG 2-6, 2-16).

    ``hits`` are the hits that wait for their target's evasion; hits on targets
    that cannot evade are followed by ``nstrpg.damage_resolved`` at once.
    ``misses`` are what the missed attacks would have been (for ●ニンジャ第六感).
    ``area`` (an area attack, ◉ヘルタツマキ 2-15) is everyone in the area, hit or not, so that
    a failed roll reads as an area attack too (empty in logs written before it and for any
    other attack).
    """

    meta = msgspec.Meta(
        title="攻撃した", description="攻撃の判定と命中した攻撃（回避待ち）（2-6、2-16）"
    )

    attack_id: Annotated[str, field("攻撃ID")]
    attacker: Annotated[str, field("攻撃した者", "キャラクターのID")]
    kind: Annotated[AttackKind, field("攻撃の種類", ATTACK_KINDS)]
    weapon: Annotated[str, field("武器", "武器のID")]
    stat: Annotated[
        StatName, field("判定の能力値", "karate（【カラテ】）/ wazamae（【ワザマエ】）など")
    ]
    pool: Pool
    rolls: Annotated[tuple[AttackRoll, ...], field("判定", "攻撃ごとの出目")]
    hits: Annotated[tuple[Hit, ...], field("命中", "回避待ちになった攻撃")] = ()
    misses: Annotated[
        tuple[Hit, ...], field("外れ", "外れた攻撃（●ニンジャ第六感での振り直し用）")
    ] = ()
    style: Annotated[StyleId | None, field("スタイル", STYLE_DESC)] = None
    quick_dice: QuickSpent = 0
    adrenaline: AdrenalineUsed = False
    pool_with: Annotated[tuple[str, ...], field("まとめて振ったモブ", "キャラクターのID")] = ()
    area: Annotated[
        tuple[str, ...],
        field("範囲内", "範囲攻撃（◉ヘルタツマキ）の範囲内にいたキャラクターのID（失敗しても）"),
    ] = ()


class AttackRerolled(Event, frozen=True, kw_only=True, tag="nstrpg.attack_rerolled"):
    """●ニンジャ第六感 rerolled one attack of an action (NS-70): its new roll and hit."""

    meta = msgspec.Meta(
        title="攻撃を振り直した", description="●ニンジャ第六感で攻撃1回を振り直した（NS-70）"
    )

    attack_id: Annotated[str, field("攻撃ID")]
    attacker: Annotated[str, field("攻撃した者", "キャラクターのID")]
    index: Annotated[int, field("何回目", "振り直した攻撃（0から）")]
    roll: Annotated[AttackRoll, field("新しい判定")]
    removed: Annotated[str | None, field("取り消した攻撃", "回避待ちから外れた攻撃のID")] = None
    hit: Annotated[Hit | None, field("新しい命中", "振り直しで命中した攻撃")] = None


class EvasionRolled(Event, frozen=True, kw_only=True, tag="nstrpg.evasion_rolled"):
    """An evasion [回避判定] against ``hits`` (NSTRPG 2-11), or taking them (no roll).

    A success makes every hit 0 with no added effect; a failure is followed by
    ``nstrpg.damage_resolved`` per hit. ``first`` is the failed roll that
    ●ニンジャ第六感 rerolled (NS-70, NS-15); ``roll`` is then the reroll, which stands.
    """

    meta = msgspec.Meta(
        title="回避判定した", description="回避判定（または回避せずに受けた）とその結果（2-11）"
    )

    defender: Annotated[str, field("回避した者", "キャラクターのID")]
    hits: Annotated[tuple[str, ...], field("攻撃", "回避した攻撃のID")]
    dice: Annotated[int, field("回避ダイス", "使った回避ダイス")] = 0
    emergency_dice: Annotated[int, field("緊急回避ダイス", "使った緊急回避ダイス")] = 0
    difficulty: DifficultyLevel = 4
    roll: MaybeRoll = None
    successes: Successes = 0
    success: Success = False
    adrenaline: AdrenalineUsed = False
    first: Annotated[
        Roll | None, field("最初の出目", "●ニンジャ第六感で振り直す前の失敗した出目")
    ] = None


class CounterKarate(Event, frozen=True, kw_only=True, tag="nstrpg.counter_karate"):
    """カウンターカラテ: 1 damage at the attacker, evadable at NORMAL (NS-77, NS-78)."""

    meta = msgspec.Meta(
        title="カウンターカラテ",
        description="回避に成功したニンジャが攻撃者に1ダメージを返す（回避可能、NS-77）",
    )

    defender: Annotated[str, field("カウンターした者", "キャラクターのID")]
    target: Annotated[str, field("対象", "キャラクターのID")]
    hit: Annotated[Hit, field("攻撃", "回避待ちになったカウンター")]


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

    meta = msgspec.Meta(
        title="ダメージを受けた", description="ダメージの適用とその結果（2-12、2-13）"
    )

    target: Annotated[str, field("受けた者", "キャラクターのID")]
    amount: Annotated[int, field("ダメージ", "最終的なダメージ")]
    tairyoku: Annotated[int, field("【体力】", "適用後の【体力】")]
    seishin: Annotated[int, field("【精神力】", "適用後の【精神力】")]
    status: Status
    source: Annotated[str | None, field("与えた者", "キャラクターのID（空なら環境）")] = None
    hit_id: Annotated[str | None, field("攻撃", "攻撃のID")] = None
    base: Annotated[int, field("基本ダメージ")] = 0
    tsuda: Annotated[int, field("痛打", "加わった痛打（最大のもの1つ）")] = 0
    reduction: Annotated[int, field("ダメージ軽減")] = 0
    critical: Critical = ""
    table: Annotated[Roll | None, field("サツバツ・クリティカル表", "表のD6の出目")] = None
    row: Annotated[
        int, field("表の結果", "サツバツ・クリティカル表の行（0: なし）", ge=0, le=6)
    ] = 0
    death_roll: Annotated[Roll | None, field("即死耐性の2D6", "痛打+2D6の出目")] = None
    instant_death: Annotated[bool, field("即死!")] = False
    knockback: Annotated[int, field("弾き飛ばし", "弾き飛ばされたマス数（0: なし）")] = 0
    seishin_spent: Annotated[int, field("ニンジャ耐久力", "【体力】の代わりに減った【精神力】")] = 0
    ability_damage: Annotated[dict[str, int], field("能力値ダメージ", "能力値 → 点数")] = {}
    injury: Annotated[str, field("●部位損傷", "損傷した部位")] = ""
    crit_removed: Annotated[
        bool, field("サツバツ!で除去", "サツバツ!を受けたモブ敵が取り除かれた（G-NS-29）")
    ] = False
    note: Annotated[str, field("理由", "対抗判定の差分ダメージ、カイシャクなど")] = ""


class BarrageDeclared(Event, frozen=True, kw_only=True, tag="nstrpg.barrage_declared"):
    """弾幕発生 (NS-76): ``replaced`` hits become the one ``hit``."""

    meta = msgspec.Meta(
        title="弾幕発生", description="モブ敵の射撃がまとめて1つの攻撃になった（NS-76）"
    )

    replaced: Annotated[tuple[str, ...], field("まとめた攻撃", "攻撃のID")]
    divisor: Annotated[int, field("割る数", "3 / 6 / 12")]
    total: Annotated[int, field("ダメージ合計", "割る前の合計")]
    hit: Annotated[Hit, field("弾幕", "新しい回避待ちの攻撃")]


class HitInflicted(Event, frozen=True, kw_only=True, tag="nstrpg.hit_inflicted"):
    """GM damage waiting for the target's evasion."""

    meta = msgspec.Meta(
        title="GMがダメージを与えた", description="攻撃以外のダメージ（回避待ち、または即適用）"
    )

    hit: Annotated[Hit, field("攻撃", "回避待ちの攻撃")]
    reason: Note = ""


class HitOverridden(Event, frozen=True, kw_only=True, tag="nstrpg.hit_overridden"):
    """GM: a pending hit cancelled (``hit`` is ``None``) or changed."""

    meta = msgspec.Meta(
        title="回避待ちの攻撃を変更した", description="GMが回避待ちの攻撃を取り消した（空）か変えた"
    )

    hit_id: Annotated[str, field("攻撃", "攻撃のID")]
    hit: Annotated[Hit | None, field("新しい攻撃", "空なら取り消し")] = None
    reason: Note = ""


class TurnBegan(Event, frozen=True, kw_only=True, tag="nstrpg.turn_began"):
    """A character's 手番開始 (2-4)."""

    meta = msgspec.Meta(title="手番開始", description="キャラクターの手番が始まった（2-4）")

    character_id: CharacterId
    shuchu: Annotated[bool, field("集中状態", "集中状態に入った")] = False
    equip: Annotated[str | None, field("持ち替えた武器", "武器のID")] = None


class TurnEndedFor(Event, frozen=True, kw_only=True, tag="nstrpg.turn_ended_for"):
    """A character's 手番終了 (2-7)."""

    meta = msgspec.Meta(title="手番終了", description="キャラクターの手番が終わった（2-7）")

    character_id: CharacterId


class PhaseEnded(Event, frozen=True, kw_only=True, tag="nstrpg.phase_ended"):
    """A phase ended: phase-long effects (アドレナリン・ブースト's evasion −1) end."""

    meta = msgspec.Meta(
        title="フェイズ終了",
        description="フェイズが終わった（アドレナリン・ブーストの回避修正が終わる）",
    )


class CombatStarted(Event, frozen=True, kw_only=True, tag="nstrpg.combat_started"):
    """A combat sequence started."""

    meta = msgspec.Meta(title="戦闘開始", description="戦闘シーケンスが始まった（2-2）")


class TurnStarted(Event, frozen=True, kw_only=True, tag="nstrpg.turn_started"):
    """ターン開始フェイズ: ``evasion`` is each fighter's 回避ダイス for the turn (NS-18, NS-41);
    ``initiative`` each fighter's イニシアチブ値 then, which fixes the turn's 手番 order (2-3:
    a change takes effect from the next turn; empty in logs before it was recorded); ``duel``
    whether the turn is a 一騎打ち (NS-34), fixed for the turn too (``None`` in older logs)."""

    meta = msgspec.Meta(
        title="ターン開始", description="ターン開始フェイズ: 全員の回避ダイスが回復した（NS-41）"
    )

    turn: Annotated[int, field("ターン", "何ターン目か", ge=1)]
    evasion: Annotated[
        dict[str, int], field("回避ダイス", "キャラクターID → このターンの回避ダイス")
    ] = {}
    initiative: Annotated[
        dict[str, int],
        field(
            "イニシアチブ値",
            "キャラクターID → ターン開始時のイニシアチブ値（このターンの手番順、2-3）",
        ),
    ] = {}
    duel: Annotated[
        bool | None,
        field("一騎打ち", "このターンは一騎打ち（各ニンジャ2手番、NS-34）か。空なら記録なし"),
    ] = None


class TurnEnded(Event, frozen=True, kw_only=True, tag="nstrpg.turn_ended"):
    """ターン終了フェイズ; ``atmosphere`` is the level from the next turn (2-17)."""

    meta = msgspec.Meta(
        title="ターン終了", description="ターン終了フェイズ。次のターンからのアトモスフィア（2-17）"
    )

    turn: Annotated[int, field("ターン", "終わったターン")]
    atmosphere: Annotated[Atmosphere, field("アトモスフィア", ATMOSPHERE_DESC)] = "normal"
    wasshoi_due: Annotated[
        bool, field("Wasshoi!判定", "このターンに【DKK】を3以上得たのでWasshoi!判定を行う")
    ] = False


class CombatEnded(Event, frozen=True, kw_only=True, tag="nstrpg.combat_ended"):
    """The combat ended (2-10): ``revived`` woke at 体力 1 / 精神力 0; ``money`` went into the pool."""

    meta = msgspec.Meta(
        title="戦闘終了",
        description="戦闘が終わった: 気絶から回復した者、万札プールに入った【万札】（2-10）",
    )

    revived: Annotated[
        tuple[str, ...], field("回復した者", "【体力】1・【精神力】0で目覚めたキャラクターのID")
    ] = ()
    money: Annotated[int, field("万札", "万札プールに入った【万札】")] = 0


class ScenarioStarted(Event, frozen=True, kw_only=True, tag="nstrpg.scenario_started"):
    """A scenario started: 即応ダイス, 緊急回避ダイス and ●部位損傷 penalties per fighter."""

    meta = msgspec.Meta(
        title="シナリオ開始", description="即応ダイス・緊急回避ダイス・●部位損傷の修正が決まった"
    )

    scenario: Annotated[int, field("シナリオ", "何本目のシナリオか")]
    quick_dice: Annotated[dict[str, int], field("即応ダイス", "キャラクターID → 即応ダイス")] = {}
    emergency_dice: Annotated[
        dict[str, int], field("緊急回避ダイス", "キャラクターID → 緊急回避ダイス")
    ] = {}
    injury_penalty: Annotated[
        dict[str, int], field("部位損傷の修正", "キャラクターID → 難易度修正")
    ] = {}


class ScenarioEnded(Event, frozen=True, kw_only=True, tag="nstrpg.scenario_ended"):
    """The scenario ended (NS-111): ability damage healed, ×N collapsed, the pool split."""

    meta = msgspec.Meta(
        title="シナリオ終了", description="能力値ダメージが回復し、万札プールが分けられた（NS-111）"
    )

    scenario: Annotated[int, field("シナリオ", "終わったシナリオ")]
    money_pool: Annotated[int, field("万札プール", "分けた後の残り")] = 0
    shares: Annotated[dict[str, int], field("分配", "キャラクターID → 受け取った【万札】")] = {}


class DkkGained(Event, frozen=True, kw_only=True, tag="nstrpg.dkk_gained"):
    """【DKK】 gained (NS-25); ``after`` is capped at 12."""

    meta = msgspec.Meta(title="【DKK】獲得", description="【DKK】を得た（最大12、NS-25）")

    character_id: CharacterId
    amount: Annotated[int, field("点数", "得た【DKK】")]
    before: Annotated[int, field("前の【DKK】")]
    after: Annotated[int, field("後の【DKK】", "最大12")]
    roll: MaybeRoll = None
    guide: Annotated[
        str | None,
        open_set(
            "目安",
            "DKK獲得の目安のID（gain_dkkの目安）",
            ("kill", "kill_satsubatsu", "vip_torture", "vip_kill", "vip_instant_death"),
        ),
    ] = None
    turn_total: Annotated[int, field("このターンの合計", "このターンに得た【DKK】")] = 0
    wasshoi_due: Annotated[bool, field("Wasshoi!判定", "このターンに3以上得た")] = False
    reason: Note = ""


class WasshoiRolled(Event, frozen=True, kw_only=True, tag="nstrpg.wasshoi_rolled"):
    """The Wasshoi! check (NS-98) and, on success, the entry table's d6 (NS-99)."""

    meta = msgspec.Meta(
        title="Wasshoi!判定した",
        description="2D6が目標値以下ならニンジャスレイヤーのエントリー（NS-98、NS-99）",
    )

    roll: Faces
    total: Annotated[int, field("合計", "2D6の合計")]
    target: Annotated[int, field("目標値", "その場のニンジャの最大【DKK】")]
    success: Annotated[bool, field("エントリー", "ニンジャスレイヤーがエントリーする")]
    target_ninja: Annotated[str | None, field("標的ニンジャ", "最大【DKK】のキャラクターのID")] = (
        None
    )
    entry: Annotated[Roll | None, field("死神のエントリー決定表", "D6の出目")] = None
    entry_row: Annotated[
        int, field("エントリーの行", "死神のエントリー決定表の行（0: なし）", ge=0, le=6)
    ] = 0


class EntryRerolled(Event, frozen=True, kw_only=True, tag="nstrpg.entry_rerolled"):
    """The entry table again (NS-100): a reroll, or the GM's choice after it."""

    meta = msgspec.Meta(
        title="エントリー決定表を振り直した",
        description="振り直し、またはその後のGMの選択（NS-100）",
    )

    row: Annotated[int, field("行", "死神のエントリー決定表の行", ge=1, le=6)]
    roll: MaybeRoll = None
    chosen: Annotated[bool, field("GMが選んだ")] = False


class ValueAdjusted(Event, frozen=True, kw_only=True, tag="nstrpg.value_adjusted"):
    """GM: a fighter's value set by hand, with the reason."""

    meta = msgspec.Meta(
        title="値を変更した", description="GMがキャラクターの現在の値を理由つきで変えた"
    )

    character_id: CharacterId
    field: Annotated[str, open_set("項目", FIGHTER_FIELD_DESC, FIGHTER_FIELDS)]
    value: Annotated[Any, field("値", "新しい値")] = None
    previous: Annotated[Any, field("前の値")] = None
    reason: Note = ""


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
    *MAP_EVENTS,  # the map (taku_nstrpg.mapping)
    EffectsResolved,  # the ターン終了フェイズ's first step (taku_nstrpg.turn_end)
)
