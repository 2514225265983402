"""The state of a シャドー・ジャン2 table (``game``): seats, scores, メンツ, declarations,
the fight values of every player, hits waiting for an evasion, and whose move it is.

Everything round-trips through ``msgspec.to_builtins`` / ``convert`` so the GM
(when a table has one) can override any value with the core ``override`` command.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Final, Literal

import msgspec

from taku.core.commands import field
from taku_nstrpg.checks import NORMAL
from taku_nstrpg.state import NsSheet

__all__ = [
    "BATTLE",
    "DECLARE",
    "ENDED",
    "LOBBY",
    "TURN",
    "Battle",
    "Player",
    "ScoreLine",
    "SjGame",
    "SjHit",
    "SjSheet",
    "STATUS_JP",
]

LOBBY: Final = "lobby"
"""Players take seats (``shadowjan.sit``) until one starts the game."""
TURN: Final = "turn"
"""The player ``turn`` takes their one action (or ツモ判定)."""
DECLARE: Final = "declare"
"""``declaring[0]`` must declare リーチ or ダマテン (SJ-18, G-SJ-05)."""
BATTLE: Final = "battle"
"""Attacks and evasions of a テンホー・チーホー戦, イカサマ punishment, ロン回避判定, リーチ棒 or イクサ."""
ENDED: Final = "ended"
"""The game is over; ``ranking`` holds the result."""

SjSheet = NsSheet
"""A player's character is an NSTRPG character sheet (SJ-01)."""

CharId = Annotated[str, field("キャラクター", "キャラクターのID")]
Difficulty = Annotated[
    int, field("難易度", "判定難易度（4: NORMAL、5: HARD、6: U-HARD、7: UH2、8: UH3）", ge=1)
]
Phase = Literal["lobby", "turn", "declare", "battle", "ended"]
Declaration = Literal["", "riichi", "dama"]
Status = Literal["active", "fainted", "exploded", "dead", "removed"]
HitKind = Literal["melee", "shuriken", "jitsu", "gun", "stick", "counter"]
Critical = Literal["", "satsubatsu", "namuamidabutsu"]
Step = Literal["action", "tsumo", "declare", "attack", "evade"]
"""A move the table waits for (``to_move.step``)."""
BattleKind = Literal["tenho", "ikasama", "ron", "stick", "ikusa"]
ScoreReason = Literal["tenho", "tsumo_riichi", "tsumo_dama", "ron_riichi", "ron_dama", "chombo"]
EndReason = Literal["", "hands", "one_left", "negative", "ninja_slayer", "tiebreak"]
STATUS_JP = (
    "active（戦闘可能）/ fainted（気絶）/ exploded（爆発四散）/ dead（死亡）/ removed（退場）"
)
HIT_KIND_JP = "melee（近接攻撃）/ shuriken（スリケン）/ jitsu（ジツ）/ gun（銃撃）/ stick（リーチ棒）/ counter（カウンターカラテ）"
CRITICAL_JP = "空（なし）/ satsubatsu（サツバツ!）/ namuamidabutsu（ナムアミダブツ!）"
BATTLE_JP = "tenho（テンホー・チーホー戦）/ ikasama（イカサマの制裁）/ ron（ロン回避判定）/ stick（リーチ棒）/ ikusa（イクサ）"
SCORE_JP = "tenho（ヤクマン）/ tsumo_riichi（ツモ ハネマン）/ tsumo_dama（ツモ マンガン）/ ron_riichi（ロン ハネマン）/ ron_dama（ロン マンガン）/ chombo（チョンボ）"
END_JP = "空（対局中）/ hands（4局終了）/ one_left（残り1人）/ negative（点数マイナス）/ ninja_slayer（ニンジャ殺すべし）/ tiebreak（同着1位のイクサ）"


class Player(msgspec.Struct, frozen=True, kw_only=True):
    """One seated player.

    Attributes:
        character_id: the NSTRPG character.
        score: points (SJ-05: 25000 at the start).
        seat_roll: the 1d100 of the seat order (SJ-04).
        mentsu: メンツ this hand (SJ-07).
        declaration: ``""``, ``riichi`` or ``dama`` (SJ-18).
        declared_turns: own turns ended since the declaring turn (流局, G-SJ-09).
        declared_at: the turn count of the declaration (-1: at the deal, G-SJ-05).
        sixes: 6s accumulated by ツモ判定 this hand (SJ-21).
        karate_uses, ikasama_uses: this hand's カラテ / ワザマエ actions (G-SJ-03).
        tenho_ok: may declare テンホー・チーホー on the first turn (SJ-08).
        turns: own turns started this hand.
        betaori: ベタオリ this turn (+2 dice on the 振り込み判定, SJ-16).
        tairyoku, seishin: current 【体力】 and 【精神力】.
        status: ``active``, ``fainted``, ``exploded`` or ``dead`` (NSTRPG 2-12).
        ability_damage: 能力値ダメージ by attribute (floor 1 when read).
        evasion_dice: 回避ダイス left.
        dkk: 【DKK】.
        out: knocked out [戦闘不能]: lost, points split (SJ-34).
        slayer: became Ninja Slayer (SJ-29).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="プレイヤー", description="卓についたキャラクターの点数・メンツ・宣言・戦闘の値"
    )

    character_id: CharId
    score: Annotated[int, field("点数", "持ち点（開始時25000点）")] = 25000
    seat_roll: Annotated[
        int, field("席順の出目", "席順を決めた1d100（イニシアチブ）", ge=0, le=100)
    ] = 0
    mentsu: Annotated[int, field("メンツ", "この局のメンツ（5つでアガリ）")] = 0
    declaration: Annotated[
        Declaration, field("宣言", "空（なし）/ riichi（リーチ）/ dama（ダマテン）")
    ] = ""
    declared_turns: Annotated[
        int, field("宣言後の手番", "宣言してから終えた自分の手番の数（流局の判定）", ge=0)
    ] = 0
    declared_at: Annotated[
        int, field("宣言した手番", "宣言した手番の通し番号（-1: 配牌時）", ge=-1)
    ] = 0
    sixes: Annotated[int, field("ツモの6", "この局のツモ判定で出た6の累計", ge=0)] = 0
    karate_uses: Annotated[int, field("カラテ判定の回数", "この局のゴーモーパイの回数", ge=0)] = 0
    ikasama_uses: Annotated[
        int, field("イカサマの回数", "この局のイカサマの回数（難易度が上がる）", ge=0)
    ] = 0
    tenho_ok: Annotated[
        bool, field("テンホー・チーホー可能", "配牌で5メンツ: 最初の手番に宣言できる")
    ] = False
    turns: Annotated[int, field("手番数", "この局で始めた自分の手番の数", ge=0)] = 0
    betaori: Annotated[
        bool, field("ベタオリ", "この手番にベタオリした（振り込み判定+2ダイス）")
    ] = False
    tairyoku: Annotated[int, field("【体力】", "現在の【体力】")] = 1
    seishin: Annotated[int, field("【精神力】", "現在の【精神力】")] = 0
    status: Annotated[Status, field("状態", STATUS_JP)] = "active"
    ability_damage: Annotated[
        dict[str, int], field("能力値ダメージ", "能力値ごとのダメージ（karate/neuron/wazamae…）")
    ] = {}
    evasion_dice: Annotated[int, field("回避ダイス", "残りの回避ダイス", ge=0)] = 0
    dkk: Annotated[int, field("ダークカラテ・カルマ", "【DKK】", ge=0, le=12)] = 0
    out: Annotated[bool, field("戦闘不能", "戦闘不能で敗北した（持ち点は分配済み）")] = False
    slayer: Annotated[bool, field("ニンジャスレイヤー", "ニンジャスレイヤーとなった")] = False


class SjHit(msgspec.Struct, frozen=True, kw_only=True):
    """A hit waiting for its target's 回避判定 (NSTRPG 2-11).

    Attributes:
        id: table-unique id.
        attacker: who dealt it.
        target: who must evade.
        kind: ``melee``, ``shuriken``, ``jitsu``, ``gun``, ``stick`` (リーチ棒) or ``counter``.
        damage: base damage (the stick's: its rolled dice).
        damage_roll: the stick's damage dice.
        successes: the attack's success count (カウンターカラテ compares, NS-77).
        critical: ``""``, ``satsubatsu`` or ``namuamidabutsu``.
        evasion: the hit's base evasion difficulty (the stick: U-HARD, UH2 with ユミドー).
        faces: the attack's faces.
        area: an area attack (no counter).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="命中", description="回避判定を待っている命中"
    )

    id: Annotated[str, field("命中のID", "卓で一意のID")]
    attacker: Annotated[str, field("攻撃者", "攻撃したキャラクター")]
    target: Annotated[str, field("対象", "回避判定をするキャラクター")]
    kind: Annotated[HitKind, field("攻撃の種類", HIT_KIND_JP)] = "melee"
    damage: Annotated[int, field("ダメージ", "基本ダメージ（リーチ棒はその出目の合計）", ge=0)] = 1
    damage_roll: Annotated[
        tuple[int, ...], field("ダメージの出目", "リーチ棒のダメージダイスの出目")
    ] = ()
    successes: Annotated[int, field("成功数", "攻撃の成功数（カウンターカラテの比較）", ge=0)] = 0
    critical: Annotated[Critical, field("クリティカル", CRITICAL_JP)] = ""
    evasion: Annotated[
        int, field("回避難易度", "回避判定の基本難易度（4: NORMAL … 8: UH3）", ge=1)
    ] = NORMAL
    faces: Annotated[tuple[int, ...], field("出目", "攻撃の出目")] = ()
    area: Annotated[bool, field("範囲攻撃", "範囲攻撃（カウンターカラテなし）")] = False


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """A fight inside the game: who must still attack, who defends, who took damage.

    Attributes:
        kind: ``tenho`` (SJ-09), ``ikasama`` (SJ-14), ``ron`` (SJ-22, SJ-23), ``stick`` (SJ-19)
            or ``ikusa`` (a tie for first, SJ-33; Ninja Slayer, SJ-29).
        defenders: the declarer(s) / the offender; their damage decides the result.
        attackers: who still has to attack, in order.
        uncovered: ロン回避判定: declarers not yet attacked (all must be, SJ-23).
        damaged: defenders who lost ≥1 体力 (G-SJ-08).
        ron_by: the ron'd player (``ron``).
        fighters: ``ikusa``: who is in the fight (turns rotate until one stands).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="戦闘",
        description="対局中の戦闘（テンホー・チーホー戦、イカサマの制裁、ロン回避判定、リーチ棒、イクサ）",
    )

    kind: Annotated[BattleKind, field("戦闘の種類", BATTLE_JP)]
    defenders: Annotated[
        tuple[str, ...], field("防御側", "宣言者・チョンボした者（ダメージで結果が決まる）")
    ] = ()
    attackers: Annotated[
        tuple[str, ...], field("攻撃側", "まだ攻撃するキャラクター（順番どおり）")
    ] = ()
    uncovered: Annotated[
        tuple[str, ...], field("未攻撃の宣言者", "ロン回避判定でまだ攻撃されていない宣言者")
    ] = ()
    damaged: Annotated[
        tuple[str, ...], field("ダメージを受けた者", "【体力】を1以上失った防御側")
    ] = ()
    ron_by: Annotated[str, field("放銃者", "ロンされたキャラクター")] = ""
    fighters: Annotated[tuple[str, ...], field("イクサの参加者", "イクサで戦うキャラクター")] = ()


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the scoreboard: a payment and why (SJ-30 … SJ-32, SJ-34)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="点数の移動", description="得点表の1行: 支払いとその理由"
    )

    hand: Annotated[int, field("局", "何局目か", ge=1)]
    reason: Annotated[ScoreReason, field("理由", SCORE_JP)]
    who: Annotated[str, field("アガリ・チョンボの者", "アガった（チョンボした）キャラクター")]
    deltas: Annotated[dict[str, int], field("点数の増減", "キャラクターごとの増減")]
    multiplier: Annotated[int, field("倍率", "流局による倍率（×2ずつ）", ge=1)] = 1


class SjGame(msgspec.Struct, frozen=True, kw_only=True):
    """The ruleset's state.

    Attributes:
        phase: ``lobby``, ``turn``, ``declare``, ``battle`` or ``ended``.
        players: character id -> :class:`Player`.
        seats: the seat order (descending 1d100); the first is the first dealer (SJ-04).
        hand: the hand [局] number, 1… (a 流局 replays it, G-SJ-10).
        dealer: the dealer [親].
        turn: whose turn it is.
        turn_count: turns started this hand.
        draws: consecutive 流局; wins score ×2^draws (SJ-27, G-SJ-11).
        first_declarer: the first declarer of this hand (流局, SJ-27).
        declaring: who must declare now (the deal may leave several, G-SJ-05).
        in_deal: the declarations are those of the deal.
        pending: hits waiting for evasion, in order.
        battle: the fight in progress.
        after_battle: what follows a ``stick`` battle: ``deal`` or ``turn_end``.
        scoreboard: every payment of the game.
        ranking: the final order (when ended).
        end_reason: why the game ended.
        idle_passes: turns passed by a timer in a row, nobody moving (``turn_seconds``
            stops setting timers after a whole round of them).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="シャドー・ジャン2の卓", description="席順・点数・メンツ・宣言・戦闘・得点表"
    )

    phase: Annotated[
        Phase,
        field(
            "段階", "lobby（対局前）/ turn（手番）/ declare（宣言）/ battle（戦闘）/ ended（終局）"
        ),
    ] = LOBBY
    players: Annotated[
        dict[str, Player], field("プレイヤー", "キャラクターIDごとのプレイヤー")
    ] = {}
    seats: Annotated[tuple[str, ...], field("席順", "1d100の高い順。最初が起家")] = ()
    hand: Annotated[int, field("局", "何局目か（流局では同じ局をやり直す）", ge=0)] = 0
    dealer: Annotated[str, field("親", "この局の親")] = ""
    turn: Annotated[str, field("手番", "手番のキャラクター")] = ""
    turn_count: Annotated[int, field("手番の通し番号", "この局で始まった手番の数", ge=0)] = 0
    draws: Annotated[int, field("流局", "連続した流局の回数（アガリの点数×2ずつ）", ge=0)] = 0
    first_declarer: Annotated[
        str, field("最初の宣言者", "この局で最初にリーチ・ダマテンした者（流局の判定）")
    ] = ""
    declaring: Annotated[
        tuple[str, ...], field("宣言待ち", "いまリーチかダマテンを宣言する者")
    ] = ()
    in_deal: Annotated[bool, field("配牌中", "配牌時の宣言")] = False
    pending: Annotated[
        tuple[SjHit, ...], field("回避待ちの命中", "回避判定を待っている命中（順番どおり）")
    ] = ()
    battle: Annotated[Battle | None, field("戦闘", "進行中の戦闘")] = None
    after_battle: Annotated[
        Literal["", "deal", "turn_end"],
        field("リーチ棒の後", "空 / deal（配牌の続き）/ turn_end（手番の終わり）"),
    ] = ""
    scoreboard: Annotated[tuple[ScoreLine, ...], field("得点表", "対局中のすべての支払い")] = ()
    ranking: Annotated[tuple[str, ...], field("順位", "最終順位（終局時）")] = ()
    end_reason: Annotated[EndReason, field("終局の理由", END_JP)] = ""
    idle_passes: Annotated[
        int,
        field(
            "時間切れの連続",
            "だれも操作しないまま時間切れで飛ばされた手番の数（1巡すると持ち時間のタイマーを止める）",
            ge=0,
        ),
    ] = 0
