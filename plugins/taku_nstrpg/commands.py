"""The commands of nstrpg (tags ``nstrpg.<verb>``); clients send them, so unknown fields are errors.

Players act for their own characters; commands marked GM are the GM's.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core.commands import GM, Command, field, owner_of
from taku_nstrpg._labels import (
    ATMOSPHERE_DESC,
    ATTACK_KINDS,
    DAMAGE_KIND_DESC,
    FIGHTER_FIELD_DESC,
    HIT_KIND_DESC,
    PURPOSE_DESC,
    STYLE_DESC,
    Atmosphere,
    AttackKind,
    CharacterId,
    DamageKind,
    Difficulty,
    FighterField,
    HitId,
    Purpose,
    Reason,
    RollStat,
    StatName,
    StyleId,
)
from taku_nstrpg.mapping import MAP_COMMANDS
from taku_nstrpg.turn_end import ResolveEffects

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

Bonus = Annotated[int, field("追加ダイス", "能力や装備による追加ダイス", ge=0, le=100)]
Quick = Annotated[
    int, field("即応ダイス", "判定の前に宣言して使う即応ダイス（NS-12）", ge=0, le=100)
]
Modifiers = Annotated[
    int, field("難易度修正", "難易度の修正の合計（+1で1段階難しく、NS-03）", ge=-10, le=10)
]
Label = Annotated[str, field("判定の名前", "何のための判定か（例: 交渉判定）", max_length=200)]
Adrenaline = Annotated[
    bool,
    field("アドレナリン・ブースト", "【精神力】1を消費して使う（戦闘中1回、ニンジャのみ、NS-96）"),
]
GuideId = Literal["kill", "kill_satsubatsu", "vip_torture", "vip_kill", "vip_instant_death"]
GUIDE_DESC = (
    "kill（【カルマ:善】のNPCを殺害/拷問/金品強奪: 1）/ kill_satsubatsu（サツバツ!で殺害: D3）/ vip_torture（重要NPCを拷問/部位損傷: D3）/ "
    "vip_kill（重要NPCを殺害/気絶: 2D3）/ vip_instant_death（重要NPCを即死: 2D6）"
)


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
    meta = msgspec.Meta(
        title="判定",
        description="キャラクターの能力値で判定する（2-1）。難易度・追加ダイス・即応ダイスを指定できる",
    )

    character_id: Annotated[str, field("判定するキャラクター", "判定するキャラクターのID")]
    stat: RollStat = "karate"
    difficulty: Difficulty = "NORMAL"
    modifiers: Modifiers = 0
    bonus_dice: Bonus = 0
    quick_dice: Quick = 0
    purpose: Annotated[Purpose, field("判定の種類", PURPOSE_DESC)] = "check"
    patterns: Annotated[
        list[str], field("【】出目指定", "成立を調べる出目の組（例: 6,6 や 6,5+）")
    ] = []
    adrenaline: Adrenaline = False
    label: Label = ""


class OpposedSide(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One side of an opposed check."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="対抗判定の一方", description="対抗判定で振るキャラクターと能力値"
    )

    character_id: CharacterId
    stat: Annotated[
        StatName,
        field(
            "能力値",
            "判定する能力値: karate（【カラテ】）/ neuron（【ニューロン】）/ wazamae（【ワザマエ】）/ jitsu（ジツ）/ kyakuryoku（【脚力】）/ tairyoku（【体力】）/ seishin（【精神力】）",
        ),
    ] = "karate"
    bonus_dice: Bonus = 0
    quick_dice: Quick = 0


class OpposedCheck(Command, frozen=True, kw_only=True, tag="nstrpg.opposed_check"):
    """GM: an opposed check [対抗判定] (NS-11): the most successes wins; with
    ``damage_difference`` the loser takes the difference as damage (no evasion)."""

    permit = GM
    meta = msgspec.Meta(
        title="対抗判定",
        description="成功数の多い側が勝つ（同数は勝者なし）。差分ダメージも選べる（NS-11）",
    )

    sides: Annotated[list[OpposedSide], field("判定する側", "2人以上")]
    difficulty: Difficulty = "NORMAL"
    damage_difference: Annotated[
        bool, field("差分ダメージ", "敗者が成功数の差をダメージとして受ける（回避不可）")
    ] = False
    label: Label = ""


class Split(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One attack of a 連続攻撃 / 連射 split: ``dice`` dice at ``target`` (NS-64, NS-66).

    ``adjacent``: whether the target is adjacent (melee needs it; shooting forbids it).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃の割り振り", description="●連続攻撃／●連射の1回分: ターゲットとダイス数"
    )

    target: Annotated[str, field("ターゲット", "攻撃するキャラクターのID")]
    dice: Annotated[int, field("ダイス数", "この攻撃に割り振る判定ダイス", ge=1, le=100)]
    adjacent: Annotated[
        bool | None,
        field("隣接", "ターゲットが隣接しているか（空なら近接攻撃は隣接、射撃は非隣接）"),
    ] = None


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
    meta = msgspec.Meta(
        title="攻撃",
        description="近接攻撃または射撃（2-6）。●連続攻撃／●連射で複数のターゲットに割り振れる（2-16）",
    )

    attacker: Annotated[str, field("攻撃するキャラクター", "攻撃するキャラクターのID")]
    kind: Annotated[AttackKind, field("攻撃の種類", ATTACK_KINDS)] = "melee"
    splits: Annotated[
        list[Split], field("割り振り", "攻撃ごとのターゲットとダイス（空ならtargetに全ダイス）")
    ] = []
    target: Annotated[str | None, field("ターゲット", "判定ダイスすべてで攻撃するキャラクター")] = (
        None
    )
    weapon: Annotated[
        str | None, field("武器", "武器のID（空なら装備中の武器。shurikenでスリケン投擲）")
    ] = None
    style: Annotated[StyleId | None, field("スタイル", STYLE_DESC)] = None
    snap_shuriken: Annotated[
        bool,
        field(
            "咄嗟のスリケン投擲", "他の武器を持ったままスリケンを投げる（難易度+1、スタイル不可）"
        ),
    ] = False
    bonus_dice: Bonus = 0
    quick_dice: Quick = 0
    modifiers: Modifiers = 0
    adrenaline: Adrenaline = False
    pool_with: Annotated[
        list[str], field("まとめて振るモブ", "同種のモブ敵がまとめて1回の攻撃を振る（NS-80）")
    ] = []
    plus: Annotated[
        list[int], field("連続攻撃+X／連射+X", "いま効いている+Xの効果（最大のものだけが適用）")
    ] = []
    area: Annotated[bool, field("範囲攻撃", "カウンターカラテを受けない")] = False
    moving: Annotated[bool, field("移動攻撃", "カウンターカラテを受けない")] = False
    difficulty: Annotated[
        Difficulty | None, field("攻撃の難易度（GM）", "計算された難易度の代わり（GMのみ）")
    ] = None


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
    meta = msgspec.Meta(
        title="回避判定",
        description="回避待ちの攻撃に回避ダイスを使って回避する。0個ならダメージを受ける（2-11）",
    )

    defender: Annotated[str, field("回避するキャラクター", "攻撃を受けたキャラクターのID")]
    hits: Annotated[
        list[str], field("回避する攻撃", "回避待ちの攻撃のID（複数ならまとめて全弾回避）")
    ]
    dice: Annotated[
        int, field("回避ダイス", "使う回避ダイスの数（0でダメージを受ける）", ge=0, le=100)
    ] = 0
    emergency_dice: Annotated[
        int, field("緊急回避ダイス", "使う緊急回避ダイスの数（NS-14）", ge=0, le=100)
    ] = 0
    adrenaline: Annotated[
        bool, field("アドレナリン・ブースト", "自分以外の手番: このフェイズの回避難易度−1（NS-96）")
    ] = False
    counter: Annotated[
        bool, field("カウンターカラテ", "条件を満たせばカウンターカラテを行う（NS-77）")
    ] = True
    counter_target: Annotated[
        str | None, field("カウンターの対象", "まとめて攻撃してきたモブのうち誰に返すか")
    ] = None
    modifiers: Modifiers = 0
    difficulty: Annotated[
        Difficulty | None, field("回避の難易度（GM）", "計算された難易度の代わり（GMのみ）")
    ] = None
    sixth_sense: Annotated[
        bool, field("●ニンジャ第六感", "失敗したらすぐ同じダイスで振り直す（シナリオ中1回、NS-70）")
    ] = False


class DeclareBarrage(Command, frozen=True, kw_only=True, tag="nstrpg.barrage"):
    """GM: 弾幕発生 on pending mob shooting hits, before the evasion choice (NS-76)."""

    permit = GM
    meta = msgspec.Meta(
        title="弾幕発生",
        description="モブ敵の射撃をまとめて1つの攻撃にする（÷3／÷6／÷12、オプションルール NS-76）",
    )

    hits: Annotated[list[str], field("攻撃", "まとめる回避待ちの射撃のID")]
    divisor: Annotated[
        Literal[3, 6, 12],
        field("割る数", "3（難易度+1）/ 6（+2）/ 12（+3）: ダメージ合計を割って切り捨て"),
    ]


class Inflict(Command, frozen=True, kw_only=True, tag="nstrpg.inflict"):
    """GM: damage from anything else (a wall after 弾き飛ばし, a ジツ, the environment).

    ``evadable`` makes it a pending hit at ``evasion`` difficulty; otherwise it lands.
    """

    permit = GM
    meta = msgspec.Meta(
        title="ダメージを与える",
        description="攻撃以外のダメージ（弾き飛ばしの衝突、ジツ、環境）。回避可能なら回避待ちになる",
    )

    target: Annotated[str, field("対象", "ダメージを受けるキャラクターのID")]
    damage: Annotated[int, field("ダメージ", ge=0, le=99)] = 1
    kind: Annotated[
        Literal["melee", "shoot", "counter", "knockback", "other"], field("種類", HIT_KIND_DESC)
    ] = "other"
    damage_kind: Annotated[DamageKind, field("ダメージの区分", DAMAGE_KIND_DESC)] = "environment"
    source: Annotated[
        str | None, field("与えた者", "ダメージを与えたキャラクターのID（空なら環境）")
    ] = None
    evadable: Annotated[bool, field("回避可能", "回避判定ができる（できなければすぐ適用）")] = True
    evasion: Annotated[
        Difficulty, field("回避の難易度", "KIDS / EASY / NORMAL / HARD / ULTRA-HARD / UH2…UH6")
    ] = "NORMAL"
    reason: Reason = ""


class OverrideHit(Command, frozen=True, kw_only=True, tag="nstrpg.override_hit"):
    """GM: cancel a pending hit, or change its damage or evasion difficulty, with a reason."""

    permit = GM
    meta = msgspec.Meta(
        title="回避待ちの攻撃を変更する",
        description="回避待ちの攻撃を取り消すか、ダメージや回避難易度を変える（理由つき）",
    )

    hit: HitId
    cancel: Annotated[bool, field("取り消す")] = False
    damage: Annotated[int | None, field("ダメージ", "新しいダメージ")] = None
    evasion: Annotated[Difficulty | None, field("回避の難易度", "新しい回避難易度")] = None
    reason: Reason = ""


class Kaishaku(Command, frozen=True, kw_only=True, tag="nstrpg.kaishaku"):
    """カイシャク: a ninja gives a 気絶 enemy the サツバツ! row 6 (NS-87).

    ``adjacent``: whether the target is adjacent (カイシャク needs it, as a melee attack does).
    """

    permit = owner_of("attacker")
    meta = msgspec.Meta(
        title="カイシャク",
        description="隣接する気絶状態の敵にサツバツ・クリティカル表の6を適用する（ニンジャのみ、NS-87）",
    )

    attacker: Annotated[str, field("カイシャクするニンジャ", "キャラクターのID")]
    target: Annotated[str, field("気絶状態の敵", "キャラクターのID")]
    adjacent: Annotated[bool, field("隣接", "対象が隣接している（必須）")] = True


class Reroll(Command, frozen=True, kw_only=True, tag="nstrpg.reroll"):
    """●ニンジャ第六感: reroll one's latest check, or one shot of the latest attack (NS-70)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="●ニンジャ第六感で振り直す",
        description="直前の判定か、直前の攻撃の1回を振り直す（シナリオ中1回、NS-70）",
    )

    character_id: Annotated[str, field("振り直すキャラクター", "キャラクターのID")]
    index: Annotated[int, field("何回目の攻撃", "直前の攻撃のうち振り直すもの（0から）", ge=0)] = 0


class BeginTurnOf(Command, frozen=True, kw_only=True, tag="nstrpg.begin_turn_of"):
    """A character's 手番開始 (2-4): 崩れ ends; ``shuchu`` declares 集中状態 (skipping movement)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="手番開始",
        description="キャラクターの手番を始める。崩れ状態が終わる。集中状態に入れる（2-4）",
    )

    character_id: Annotated[str, field("手番のキャラクター", "キャラクターのID")]
    shuchu: Annotated[bool, field("集中状態", "集中状態に入る（移動フェイズを飛ばす、NS-56）")] = (
        False
    )
    equip: Annotated[str | None, field("持ち替える武器", "武器のID（2-4 武器を切り替える）")] = None


class EndTurnOf(Command, frozen=True, kw_only=True, tag="nstrpg.end_turn_of"):
    """A character's 手番終了 (2-7): 集中 and 連続側転's penalty end."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="手番終了",
        description="キャラクターの手番を終える。集中状態と連続側転の修正が終わる（2-7）",
    )

    character_id: Annotated[str, field("手番のキャラクター", "キャラクターのID")]


class EndPhase(Command, frozen=True, kw_only=True, tag="nstrpg.end_phase"):
    """GM: a phase ends (アドレナリン・ブースト's evasion −1 ends)."""

    permit = GM
    meta = msgspec.Meta(
        title="フェイズ終了",
        description="フェイズの終わり（アドレナリン・ブーストの回避修正が終わる）",
    )


class StartCombat(Command, frozen=True, kw_only=True, tag="nstrpg.start_combat"):
    """GM: a combat sequence starts (turn 0, atmosphere normal)."""

    permit = GM
    meta = msgspec.Meta(title="戦闘開始", description="戦闘シーケンスを始める（2-2）")


class StartTurn(Command, frozen=True, kw_only=True, tag="nstrpg.start_turn"):
    """GM: ターン開始フェイズ: everyone's 回避ダイス reset first (NS-41)."""

    permit = GM
    meta = msgspec.Meta(
        title="ターン開始", description="ターン開始フェイズ: 全員の回避ダイスが回復する（NS-41）"
    )


class EndTurn(Command, frozen=True, kw_only=True, tag="nstrpg.end_turn"):
    """GM: ターン終了フェイズ; ``atmosphere`` raises it from the next turn (NS-42, 2-17)."""

    permit = GM
    meta = msgspec.Meta(
        title="ターン終了",
        description="ターン終了フェイズ。次のターンからのアトモスフィアを上げられる（2-17）",
    )

    atmosphere: Annotated[
        Atmosphere | None,
        field("アトモスフィア", ATMOSPHERE_DESC + "（下げられない。空なら今のまま）"),
    ] = None


class EndCombat(Command, frozen=True, kw_only=True, tag="nstrpg.end_combat"):
    """GM: the combat ends (2-10): revivals, 万札プール."""

    permit = GM
    meta = msgspec.Meta(
        title="戦闘終了", description="戦闘を終える: 気絶からの回復、万札プール（2-10）"
    )


class StartScenario(Command, frozen=True, kw_only=True, tag="nstrpg.start_scenario"):
    """GM: a scenario starts: 即応ダイス and 緊急回避ダイス set, ●部位損傷 penalties (NS-13, NS-21)."""

    permit = GM
    meta = msgspec.Meta(
        title="シナリオ開始",
        description="即応ダイスと緊急回避ダイスを設定し、●部位損傷の修正を決める（NS-13、NS-21）",
    )


class EndScenario(Command, frozen=True, kw_only=True, tag="nstrpg.end_scenario"):
    """GM: the scenario ends (NS-111)."""

    permit = GM
    meta = msgspec.Meta(
        title="シナリオ終了", description="能力値ダメージが回復し、万札プールをPCで分ける（NS-111）"
    )


class GainDkk(Command, frozen=True, kw_only=True, tag="nstrpg.gain_dkk"):
    """GM: 【DKK】 gained (NS-25): a fixed ``amount`` or a guideline id (``vip_kill`` rolls 2D3)."""

    permit = GM
    meta = msgspec.Meta(
        title="【DKK】獲得", description="【DKK】を与える: 点数か目安（NS-25）。最大12"
    )

    character_id: Annotated[str, field("ニンジャ", "【DKK】を得るキャラクターのID")]
    amount: Annotated[
        Annotated[int, msgspec.Meta(ge=-12, le=12)] | None, field("点数", "得る【DKK】（-12〜12）")
    ] = None
    guide: Annotated[GuideId | None, field("目安", GUIDE_DESC)] = None
    reason: Reason = ""


class Wasshoi(Command, frozen=True, kw_only=True, tag="nstrpg.wasshoi"):
    """GM: the Wasshoi! check, 2D6 at or below the highest 【DKK】 present (NS-97 … NS-99).

    ``present``: the ninjas present (default: every fighter able to act); ``target`` replaces the target value.
    """

    permit = GM
    meta = msgspec.Meta(
        title="Wasshoi!判定",
        description="2D6がその場のニンジャの最大【DKK】以下ならニンジャスレイヤーがエントリー（NS-97〜NS-99）",
    )

    present: Annotated[
        list[str] | None, field("その場のニンジャ", "キャラクターのID（空なら行動できる全員）")
    ] = None
    target: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=12)] | None,
        field("目標値", "最大【DKK】の代わりの目標値（0〜12）"),
    ] = None


class RerollEntry(Command, frozen=True, kw_only=True, tag="nstrpg.reroll_entry"):
    """GM: the entry is impossible on this map: reroll once, then choose (NS-100)."""

    permit = GM
    meta = msgspec.Meta(
        title="エントリー決定表の振り直し",
        description="どう考えても出現不能: 1回だけ振り直し、その後はGMが出目を決める（NS-100）",
    )

    choose: Annotated[
        Annotated[int, msgspec.Meta(ge=1, le=6)] | None,
        field("出目", "GMが決める出目1〜6（振り直しの後）"),
    ] = None


class CreateMobs(Command, frozen=True, kw_only=True, tag="nstrpg.create_mobs"):
    """GM: a group of ``count`` mobs with one sheet, named ``name1`` … (2-1 モブ敵)."""

    permit = GM
    meta = msgspec.Meta(
        title="モブ敵を作る", description="同じシートのモブ敵を何人か作る（名前1、名前2…）"
    )

    name: Annotated[str, field("名前", "モブ敵の名前（番号がつく）", min_length=1, max_length=60)]
    count: Annotated[int, field("人数", ge=1, le=50)]
    sheet: Annotated[dict[str, Any], field("シート", "モブ敵のキャラクターシート")] = {}


class CreateNinjaSlayer(Command, frozen=True, kw_only=True, tag="nstrpg.create_ninja_slayer"):
    """GM: Ninja Slayer from his stat block (NS-102)."""

    permit = GM
    meta = msgspec.Meta(
        title="ニンジャスレイヤーを出す",
        description="ニンジャスレイヤーのデータでキャラクターを作る（NS-102）",
    )

    name: Annotated[str, field("名前", max_length=64)] = "ニンジャスレイヤー"


class AdjustValue(Command, frozen=True, kw_only=True, tag="nstrpg.adjust"):
    """GM: set a fighter's value (``tairyoku``, ``seishin``, ``dkk``, ``status``, ``quick_dice`` …) with a reason."""

    permit = GM
    meta = msgspec.Meta(
        title="値を変更する",
        description="キャラクターの現在の値（【体力】、【精神力】、【DKK】、状態…）を理由つきで変える",
    )

    character_id: CharacterId
    field: Annotated[FighterField, field("項目", FIGHTER_FIELD_DESC)]
    value: Annotated[Any, field("値", "新しい値")]
    reason: Reason = ""


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
    *MAP_COMMANDS,  # the map (taku_nstrpg.mapping)
    ResolveEffects,  # the ターン終了フェイズ's first step (taku_nstrpg.turn_end)
)
