"""Events of シャドー・ジャン2 (tags ``shadowjan.<fact>``).

Every die rolled is a :class:`~taku.core.dice.Roll` field of an event, so a replay
never rolls. Events carry the values after the fact where a rule computed them
(scores, メンツ, 体力), and ``evolve`` copies them.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core.commands import field
from taku.core.dice import Roll
from taku.core.events import Event
from taku_shadowjan.state import (
    BATTLE_JP,
    CRITICAL_JP,
    END_JP,
    SCORE_JP,
    STATUS_JP,
    Battle,
    BattleKind,
    Critical,
    EndReason,
    ScoreReason,
    SjHit,
    Status,
    Step,
)

__all__ = [
    "EVENTS",
    "ActionRolled",
    "AttackRoll",
    "AttackRolled",
    "BattleEnded",
    "BattleStarted",
    "Betaoried",
    "CounterKarate",
    "DamageResolved",
    "Declared",
    "DkkGained",
    "EvasionDiceTaken",
    "EvasionRolled",
    "FurikomiRolled",
    "GameEnded",
    "GameStarted",
    "HandStarted",
    "KnockedOut",
    "MentsuDealt",
    "Move",
    "NinjaSlayerChecked",
    "NinjaSlayerRose",
    "Ryukyoku",
    "Scored",
    "SeatRoll",
    "Seated",
    "StickThrown",
    "TenhoDeclared",
    "ToMove",
    "TsumoRolled",
    "TurnEnded",
    "TurnStarted",
]


class Seated(Event, frozen=True, kw_only=True, tag="shadowjan.seated"):
    """A player sat down with a character (its fight values as they start)."""

    meta = msgspec.Meta(
        title="着席", description="キャラクターが卓についた（戦闘の値はこの時点のもの）"
    )

    character_id: Annotated[str, field("キャラクター", "着席したキャラクター")]
    tairyoku: Annotated[int, field("【体力】", "開始時の【体力】")]
    seishin: Annotated[int, field("【精神力】", "開始時の【精神力】")]
    dkk: Annotated[int, field("ダークカラテ・カルマ", "開始時の【DKK】", ge=0, le=12)] = 0


class SeatRoll(msgspec.Struct, frozen=True, kw_only=True):
    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="席順の1d100", description="席順を決めるダイス"
    )

    character_id: Annotated[str, field("キャラクター", "振ったキャラクター")]
    roll: Annotated[Roll, field("席順のダイス", "席順の1d100の出目")]


class GameStarted(Event, frozen=True, kw_only=True, tag="shadowjan.game_started"):
    """The seat order by 1d100, ties rerolled among the tied (SJ-04, G-SJ-01); 25000 each (SJ-05)."""

    meta = msgspec.Meta(title="対局開始", description="1d100の席順（同値は振り直し）、持ち点")

    rolls: Annotated[tuple[SeatRoll, ...], field("席順のダイス", "振り直しを含む1d100")]
    seats: Annotated[tuple[str, ...], field("席順", "最初が起家")]
    score: Annotated[int, field("持ち点", "各自の開始時の持ち点")]


class HandStarted(Event, frozen=True, kw_only=True, tag="shadowjan.hand_started"):
    """A hand [局] begins (SJ-06); ``replay`` after a 流局 (SJ-27)."""

    meta = msgspec.Meta(title="局の開始", description="局が始まる（流局の後はやり直し）")

    hand: Annotated[int, field("局", "何局目か", ge=1)]
    dealer: Annotated[str, field("親", "この局の親")]
    draws: Annotated[int, field("流局", "連続した流局の回数", ge=0)] = 0
    replay: Annotated[bool, field("やり直し", "流局の後のやり直し")] = False


class EvasionDiceTaken(Event, frozen=True, kw_only=True, tag="shadowjan.evasion_dice_taken"):
    """回避ダイス taken: at the deal, after it (SJ-07, SJ-10), at the dealer's turn (SJ-25)."""

    meta = msgspec.Meta(
        title="回避ダイスを握る", description="配牌時・配牌後・親の手番・イクサの回避ダイス"
    )

    dice: Annotated[dict[str, int], field("回避ダイス", "キャラクターごとの回避ダイス")]
    reason: Annotated[
        Literal["deal", "after_deal", "dealer_turn", "ikusa"],
        field(
            "理由",
            "deal（配牌時）/ after_deal（配牌後）/ dealer_turn（親の手番）/ ikusa（イクサのラウンド）",
        ),
    ]


class MentsuDealt(Event, frozen=True, kw_only=True, tag="shadowjan.mentsu_dealt"):
    """6 − 1d6 initial メンツ (SJ-07); 5 allows テンホー・チーホー (SJ-08)."""

    meta = msgspec.Meta(title="配牌", description="6−1d6の初期メンツ")

    character_id: Annotated[str, field("キャラクター", "配牌を受けたキャラクター")]
    roll: Annotated[Roll, field("配牌のダイス", "配牌の1d6の出目")]
    mentsu: Annotated[int, field("メンツ", "6−1d6の初期メンツ", ge=0, le=5)]


class TurnStarted(Event, frozen=True, kw_only=True, tag="shadowjan.turn_started"):
    meta = msgspec.Meta(title="手番の開始", description="キャラクターの手番が始まる")

    character_id: Annotated[str, field("キャラクター", "手番のキャラクター")]
    turn: Annotated[int, field("手番の通し番号", "この局で何番目の手番か", ge=1)]


class TenhoDeclared(Event, frozen=True, kw_only=True, tag="shadowjan.tenho_declared"):
    """テンホー・チーホー declared (SJ-09), or declined: メンツ becomes 2 (SJ-08, G-SJ-06)."""

    meta = msgspec.Meta(
        title="テンホー・チーホー",
        description="テンホー・チーホーの宣言、またはしなかった（メンツ2）",
    )

    character_id: Annotated[str, field("キャラクター", "配牌で5メンツのキャラクター")]
    declared: Annotated[
        bool, field("宣言した", "テンホー・チーホーを宣言した（偽: 宣言せずメンツ2）")
    ] = True
    mentsu: Annotated[int, field("メンツ", "この後のメンツ", ge=0)] = 5


class ActionRolled(Event, frozen=True, kw_only=True, tag="shadowjan.action_rolled"):
    """A turn action's checks (SJ-11 カラテ, SJ-12/13 ワザマエ, SJ-15 ニューロン).

    ``rolls[i]`` at ``difficulties[i]``; ``gained`` メンツ; ``chombo`` on a failed イカサマ.
    """

    meta = msgspec.Meta(
        title="手番の行動の判定",
        description="カラテ判定（ゴーモーパイ）・ワザマエ判定（イカサマ）・ニューロン判定",
    )

    character_id: Annotated[str, field("キャラクター", "行動したキャラクター")]
    action: Annotated[
        Literal["karate", "wazamae", "neuron"],
        field(
            "行動",
            "karate（カラテ判定・ゴーモーパイ）/ wazamae（ワザマエ判定・イカサマ）/ neuron（ニューロン判定）",
        ),
    ]
    rolls: Annotated[tuple[Roll, ...], field("出目", "判定ごとの出目")]
    difficulties: Annotated[
        tuple[int, ...], field("難易度", "判定ごとの難易度（4: NORMAL … 8: UH3）")
    ]
    successes: Annotated[tuple[int, ...], field("成功数", "判定ごとの成功数")]
    gained: Annotated[int, field("得たメンツ", "増えたメンツ", ge=0)]
    mentsu: Annotated[int, field("メンツ", "判定後のメンツ", ge=0)]
    enhance: Annotated[int, field("強化イカサマ", "自主的に上げた難易度", ge=0)] = 0
    chombo: Annotated[bool, field("チョンボ", "イカサマに失敗した")] = False


class Betaoried(Event, frozen=True, kw_only=True, tag="shadowjan.betaori_taken"):
    """ベタオリ (SJ-16)."""

    meta = msgspec.Meta(title="ベタオリ", description="メンツ−2、振り込み判定+2ダイス")

    character_id: Annotated[str, field("キャラクター", "ベタオリしたキャラクター")]
    mentsu: Annotated[int, field("メンツ", "ベタオリ後のメンツ", ge=0)]


class Declared(Event, frozen=True, kw_only=True, tag="shadowjan.declared"):
    """リーチ or ダマテン (SJ-18)."""

    meta = msgspec.Meta(title="リーチ/ダマテン", description="リーチまたはダマテンの宣言")

    character_id: Annotated[str, field("キャラクター", "宣言したキャラクター")]
    kind: Annotated[Literal["riichi", "dama"], field("宣言", "riichi（リーチ）/ dama（ダマテン）")]


class StickThrown(Event, frozen=True, kw_only=True, tag="shadowjan.stick_thrown"):
    """The リーチ棒: an automatic hit, 1d6 damage (2d3 with ユミドー), evasion U-HARD (UH2) (SJ-19, SJ-36)."""

    meta = msgspec.Meta(
        title="リーチ棒", description="リーチ棒の投擲: 自動命中、1d6ダメージ（ユミドー2d3）"
    )

    character_id: Annotated[str, field("キャラクター", "リーチ棒を投げたキャラクター")]
    target: Annotated[str, field("的", "リーチ棒を受けるキャラクター")]
    roll: Annotated[Roll, field("ダメージの出目", "1d6（ユミドー: 2d3）")]
    hit: Annotated[SjHit, field("命中", "回避判定を待つ命中")]


class TsumoRolled(Event, frozen=True, kw_only=True, tag="shadowjan.tsumo_rolled"):
    """ツモ判定 at U-HARD; 6s accumulate (SJ-21)."""

    meta = msgspec.Meta(title="ツモ判定", description="U-HARDのツモ判定。出目6が累計される")

    character_id: Annotated[str, field("キャラクター", "ツモ判定をしたキャラクター")]
    stat: Annotated[
        Literal["karate", "wazamae", "neuron"],
        field("能力値", "karate（【カラテ】）/ wazamae（【ワザマエ】）/ neuron（【ニューロン】）"),
    ]
    roll: Annotated[Roll, field("出目", "ツモ判定の出目")]
    sixes: Annotated[int, field("出目6", "この判定の6の数", ge=0)]
    total: Annotated[int, field("6の累計", "この局の6の累計", ge=0)]
    needed: Annotated[int, field("必要な6", "アガリに要る6の累計", ge=1)]
    win: Annotated[bool, field("アガリ", "ツモでアガった")]


class FurikomiRolled(Event, frozen=True, kw_only=True, tag="shadowjan.furikomi_rolled"):
    """振り込み判定 at the end of the turn (SJ-20); failure is ロン by every other declarer (SJ-23, SJ-24)."""

    meta = msgspec.Meta(
        title="振り込み判定", description="手番の終わりの振り込み判定。失敗で宣言者全員のロン"
    )

    character_id: Annotated[str, field("キャラクター", "判定したキャラクター")]
    roll: Annotated[Roll, field("出目", "【ニューロン】判定の出目")]
    difficulty: Annotated[int, field("難易度", "HARD（リーチ後はU-HARD）")]
    bonus: Annotated[int, field("ベタオリのダイス", "ベタオリで増えたダイス", ge=0)]
    success: Annotated[bool, field("成功", "振り込まなかった")]
    ron_by: Annotated[tuple[str, ...], field("ロンした者", "失敗時にロンした宣言者")] = ()


class TurnEnded(Event, frozen=True, kw_only=True, tag="shadowjan.turn_ended"):
    meta = msgspec.Meta(title="手番の終了", description="キャラクターの手番が終わる")

    character_id: Annotated[str, field("キャラクター", "手番を終えたキャラクター")]


class TurnPassed(Event, frozen=True, kw_only=True, tag="shadowjan.turn_passed"):
    """The GM's timer ran out on a turn and the table's ``timeout_pass`` option passes it:
    the turn ends with no action (as a failed カラテ or ニューロン would, SJ-17; for a
    declared player, no ツモ判定), then its 手番終了 as usual (振り込み判定, 流局)."""

    meta = msgspec.Meta(
        title="時間切れで手番を飛ばした", description="タイマーが切れ、行動なしで手番を終えた"
    )

    character_id: Annotated[str, field("キャラクター", "手番を飛ばされたキャラクター")]
    step: Annotated[
        Literal["action", "tsumo"],
        field("手順", "action（手番の行動）/ tsumo（ツモ判定）: 飛ばされたもの"),
    ]


class BattleStarted(Event, frozen=True, kw_only=True, tag="shadowjan.battle_started"):
    """A fight begins (SJ-09, SJ-14, SJ-22, SJ-33, SJ-29)."""

    meta = msgspec.Meta(
        title="戦闘の開始",
        description="テンホー・チーホー戦、イカサマの制裁、ロン回避判定、リーチ棒、イクサ",
    )

    battle: Annotated[Battle, field("戦闘", "始まった戦闘")]


class AttackRoll(msgspec.Struct, frozen=True, kw_only=True):
    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃判定", description="1つの対象への攻撃判定"
    )

    target: Annotated[str, field("対象", "攻撃したキャラクター")]
    dice: Annotated[int, field("ダイス数", "この対象へのダイス", ge=1)]
    difficulty: Annotated[int, field("難易度", "攻撃判定の難易度")]
    roll: Annotated[Roll, field("出目", "攻撃判定の出目")]
    successes: Annotated[int, field("成功数", "攻撃判定の成功数", ge=0)]
    success: Annotated[bool, field("命中", "攻撃が命中した")]
    critical: Annotated[Critical, field("クリティカル", CRITICAL_JP)] = ""


class AttackRolled(Event, frozen=True, kw_only=True, tag="shadowjan.attack_rolled"):
    """An attack: 近接攻撃, スリケン, ジツ or a gun (NSTRPG 2-6 via taku_nstrpg)."""

    meta = msgspec.Meta(title="攻撃", description="近接攻撃・スリケン・ジツ・銃撃")

    character_id: Annotated[str, field("攻撃者", "攻撃したキャラクター")]
    kind: Annotated[
        Literal["melee", "shuriken", "jitsu", "gun"],
        field("攻撃の種類", "melee（近接攻撃）/ shuriken（スリケン）/ jitsu（ジツ）/ gun（銃撃）"),
    ]
    pool: Annotated[int, field("判定ダイス", "攻撃のダイス数", ge=0)]
    rolls: Annotated[tuple[AttackRoll, ...], field("攻撃判定", "対象ごとの判定")]
    hits: Annotated[tuple[SjHit, ...], field("命中", "回避判定を待つ命中")]
    area: Annotated[bool, field("範囲攻撃", "ジツの範囲攻撃")] = False


class EvasionRolled(Event, frozen=True, kw_only=True, tag="shadowjan.evasion_rolled"):
    """回避判定 against one hit (NSTRPG 2-11)."""

    meta = msgspec.Meta(title="回避判定", description="1つの命中への回避判定")

    character_id: Annotated[str, field("キャラクター", "回避したキャラクター")]
    hit_id: Annotated[str, field("命中", "回避する命中のID")]
    dice: Annotated[int, field("回避ダイス", "使った回避ダイス（0: 回避しない）", ge=0)]
    difficulty: Annotated[int, field("難易度", "回避判定の難易度")]
    roll: Annotated[Roll | None, field("出目", "回避判定の出目（回避しないときは空）")] = None
    successes: Annotated[int, field("成功数", "回避判定の成功数", ge=0)] = 0
    success: Annotated[bool, field("回避", "回避した")] = False


class CounterKarate(Event, frozen=True, kw_only=True, tag="shadowjan.counter_karate"):
    """カウンターカラテ (NS-77): a 1-damage hit back on the attacker."""

    meta = msgspec.Meta(title="カウンターカラテ", description="攻撃者へ1ダメージの反撃")

    character_id: Annotated[str, field("キャラクター", "カウンターカラテをしたキャラクター")]
    hit: Annotated[SjHit, field("命中", "攻撃者への1ダメージの命中")]


class DamageResolved(Event, frozen=True, kw_only=True, tag="shadowjan.damage_resolved"):
    """A hit landed: 痛打, the サツバツ! row, and the values after (NSTRPG 2-12, 2-13)."""

    meta = msgspec.Meta(title="ダメージ", description="痛打、サツバツ!、ダメージ後の値")

    target: Annotated[str, field("対象", "ダメージを受けたキャラクター")]
    hit_id: Annotated[str, field("命中", "命中のID（空: ニンジャスレイヤーの省略）")]
    amount: Annotated[int, field("ダメージ", "最終ダメージ", ge=0)]
    tsuda: Annotated[int, field("痛打", "痛打の値", ge=0)] = 0
    critical: Annotated[Critical, field("クリティカル", CRITICAL_JP)] = ""
    table: Annotated[Roll | None, field("サツバツ!の出目", "サツバツ!表の1d6")] = None
    row: Annotated[int, field("サツバツ!の行", "サツバツ!表の行（0: なし）", ge=0, le=6)] = 0
    death_roll: Annotated[Roll | None, field("即死判定", "即死耐性の2d6")] = None
    tairyoku: Annotated[int, field("【体力】", "ダメージ後の【体力】")]
    seishin: Annotated[int, field("【精神力】", "ダメージ後の【精神力】")]
    status: Annotated[Status, field("状態", STATUS_JP)]
    ability_damage: Annotated[dict[str, int], field("能力値ダメージ", "増えた能力値ダメージ")] = {}


class KnockedOut(Event, frozen=True, kw_only=True, tag="shadowjan.knocked_out"):
    """Out of the fight: lost at once, points split among the survivors (SJ-34, G-SJ-12)."""

    meta = msgspec.Meta(title="戦闘不能", description="戦闘不能で敗北、持ち点は生き残りで分配")

    character_id: Annotated[str, field("キャラクター", "戦闘不能になったキャラクター")]
    points: Annotated[int, field("持ち点", "分配された持ち点")]
    shares: Annotated[dict[str, int], field("分配", "生き残りごとの取り分（1000点未満切り捨て）")]


class BattleEnded(Event, frozen=True, kw_only=True, tag="shadowjan.battle_ended"):
    meta = msgspec.Meta(title="戦闘の終了", description="戦闘の結果")

    kind: Annotated[BattleKind, field("戦闘の種類", BATTLE_JP)]
    damaged: Annotated[
        tuple[str, ...], field("ダメージを受けた者", "【体力】を1以上失った防御側")
    ] = ()
    winner: Annotated[str, field("勝者", "イクサの勝者")] = ""


class Scored(Event, frozen=True, kw_only=True, tag="shadowjan.scored"):
    """A payment by the tables (SJ-30 ツモ, SJ-31 ロン, SJ-32 チョンボ) × the 流局 factor.

    ``reason``: ``tenho`` (ヤクマン), ``tsumo_riichi`` (ハネマン), ``tsumo_dama`` (マンガン),
    ``ron_riichi``, ``ron_dama`` or ``chombo``; ``deltas`` by character.
    """

    meta = msgspec.Meta(
        title="点数の支払い", description="ツモ・ロン・チョンボの支払い（流局の倍率つき）"
    )

    reason: Annotated[ScoreReason, field("理由", SCORE_JP)]
    who: Annotated[str, field("アガリ・チョンボの者", "アガった（チョンボした）キャラクター")]
    deltas: Annotated[dict[str, int], field("点数の増減", "キャラクターごとの増減")]
    multiplier: Annotated[int, field("倍率", "流局による倍率", ge=1)] = 1
    remaining: Annotated[int, field("残り人数", "点数表を引く残り人数", ge=1, le=4)] = 4


class Ryukyoku(Event, frozen=True, kw_only=True, tag="shadowjan.ryukyoku"):
    """流局 (SJ-27): the first declarer ended two turns without winning."""

    meta = msgspec.Meta(title="流局", description="最初の宣言者がアガれず2回手番を終えた")

    draws: Annotated[int, field("流局", "連続した流局の回数", ge=1)]


class NinjaSlayerChecked(Event, frozen=True, kw_only=True, tag="shadowjan.ninja_slayer_checked"):
    """ニンジャ殺すべし (SJ-28): 1d6 above score / 1000, automatic below 0."""

    meta = msgspec.Meta(
        title="ニンジャ殺すべし判定", description="1d6が点数/1000を上回るか（マイナスなら自動成功）"
    )

    character_id: Annotated[str, field("最下位", "判定する最下位のキャラクター")]
    declarer: Annotated[str, field("宣言者", "ツモ判定でアガれなかった宣言者")]
    roll: Annotated[
        Roll | None, field("判定のダイス", "1d6の出目（点数マイナスなら空: 自動成功）")
    ] = None
    score: Annotated[int, field("点数", "最下位の点数")]
    triggered: Annotated[bool, field("成立", "ニンジャ殺すべしが成立した")]


class NinjaSlayerRose(Event, frozen=True, kw_only=True, tag="shadowjan.ninja_slayer_rose"):
    """The player becomes Ninja Slayer (SJ-29); ``fight``: the イクサ begins with his stat block."""

    meta = msgspec.Meta(
        title="ニンジャスレイヤー", description="プレイヤーがニンジャスレイヤーとなった"
    )

    character_id: Annotated[str, field("キャラクター", "ニンジャスレイヤーとなったキャラクター")]
    target: Annotated[str, field("標的", "ニンジャスレイヤーの標的")]
    fight: Annotated[bool, field("イクサ", "イクサを行う（偽: 省略）")]
    tairyoku: Annotated[int, field("【体力】", "ニンジャスレイヤーの【体力】")] = 0
    seishin: Annotated[int, field("【精神力】", "ニンジャスレイヤーの【精神力】")] = 0


class DkkGained(Event, frozen=True, kw_only=True, tag="shadowjan.dkk_gained"):
    """1d3 DKK each for the other PCs after the shortcut (SJ-29)."""

    meta = msgspec.Meta(title="DKKの獲得", description="他のPCがDKK+1d3")

    character_id: Annotated[str, field("キャラクター", "DKKを得たキャラクター")]
    roll: Annotated[Roll, field("出目", "1d3として読む1d6")]
    gained: Annotated[int, field("獲得", "得たDKK", ge=0, le=3)]
    dkk: Annotated[int, field("ダークカラテ・カルマ", "獲得後の【DKK】", ge=0, le=12)]


class Move(msgspec.Struct, frozen=True, kw_only=True):
    """A legal move: a button's label, the character, the command to send."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="合法手", description="ボタンの表示名とキャラクターと送るコマンド"
    )

    label: Annotated[str, field("表示名", "ボタンの表示名")]
    character_id: Annotated[str, field("キャラクター", "動くキャラクター（空: 対局開始など）")] = ""
    command: Annotated[dict[str, Any], field("コマンド", "送るコマンド")] = {}


class ToMove(Event, frozen=True, kw_only=True, tag="shadowjan.to_move"):
    """After every command: whose move it is now, at which step, and the legal moves
    (◆手番の処理; the clients show them as buttons, and anything else is rejected)."""

    meta = msgspec.Meta(title="手番の案内", description="いま誰が何をする番か、合法手")

    character_id: Annotated[str, field("キャラクター", "いま動くキャラクター")]
    step: Annotated[
        Step,
        field(
            "手順",
            "action（手番の行動）/ tsumo（ツモ判定）/ declare（リーチ/ダマテン宣言）/ attack（攻撃）/ evade（回避判定）",
        ),
    ]
    moves: Annotated[tuple[Move, ...], field("合法手", "いまできる手")] = ()


class GameEnded(Event, frozen=True, kw_only=True, tag="shadowjan.game_ended"):
    """The end (SJ-33): the ranking, the scores, why."""

    meta = msgspec.Meta(title="対局終了", description="順位・点数・終局の理由")

    reason: Annotated[EndReason, field("理由", END_JP)]
    ranking: Annotated[tuple[str, ...], field("順位", "1位から")]
    scores: Annotated[dict[str, int], field("点数", "最終の点数")]


EVENTS = (
    Seated,
    GameStarted,
    HandStarted,
    EvasionDiceTaken,
    MentsuDealt,
    TurnStarted,
    TenhoDeclared,
    ActionRolled,
    Betaoried,
    Declared,
    StickThrown,
    TsumoRolled,
    FurikomiRolled,
    TurnEnded,
    TurnPassed,
    BattleStarted,
    AttackRolled,
    EvasionRolled,
    CounterKarate,
    DamageResolved,
    KnockedOut,
    BattleEnded,
    Scored,
    Ryukyoku,
    NinjaSlayerChecked,
    NinjaSlayerRose,
    DkkGained,
    ToMove,
    GameEnded,
)
