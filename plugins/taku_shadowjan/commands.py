"""Commands of シャドー・ジャン2 (tags ``shadowjan.<verb>``).

Every move names the character that acts; only its owner or a GM may send it
(``permit = owner_of("character_id")``, enforced by the core). The server accepts
it only when that character is the one whose move it is and the move is legal now
(the ruleset's ``affordances`` list those moves). There is no GM: the table runs itself.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from taku.core.commands import PLAYER, Command, field, owner_of

__all__ = [
    "COMMANDS",
    "Attack",
    "Betaori",
    "Declare",
    "Evade",
    "Goumoupai",
    "Ikasama",
    "Neuron",
    "Sit",
    "Split",
    "Start",
    "Tenho",
    "Tsumo",
]

Actor = Annotated[
    str, field("キャラクター", "行動するキャラクター（自分のキャラクター。GMは誰でも）")
]
Target = Annotated[str, field("対象", "攻撃するキャラクター")]


class Sit(Command, frozen=True, kw_only=True, tag="shadowjan.sit"):
    """Take a seat with one's NSTRPG character (SJ-02, SJ-03: two to four players).

    The equipment restrictions of 基本ルール are checked here.
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="着席する",
        description="ニンジャスレイヤーTRPGのキャラクターで卓につく（2〜4人、基本ルールの装備制限）",
    )

    character_id: Actor


class Start(Command, frozen=True, kw_only=True, tag="shadowjan.start"):
    """Roll the seat order (1d100 each, SJ-04) and deal the first hand. Any seated player."""

    permit = PLAYER
    meta = msgspec.Meta(
        title="対局開始",
        description="1d100で席順（イニシアチブ）を決め、最初の配牌を行う（着席したプレイヤー）",
    )


class Tenho(Command, frozen=True, kw_only=True, tag="shadowjan.tenho"):
    """Declare テンホー・チーホー on one's first turn after a deal of 5 メンツ (SJ-08, SJ-09)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="テンホー・チーホー",
        description="配牌で5メンツの者が最初の手番に宣言する。テンホー・チーホー戦が始まる",
    )

    character_id: Actor


class Goumoupai(Command, frozen=True, kw_only=True, tag="shadowjan.karate"):
    """カラテ判定 ゴーモーパイ (SJ-11): the pool split into 2 (3 from the 2nd use) NORMAL checks.

    ``split`` gives the dice of each check (default: as even as possible).
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="カラテ判定（ゴーモーパイ）",
        description="【カラテ】のダイスを2回（この局2回目からは3回）のNORMAL判定に分け、成功ごとにメンツ+1",
    )

    character_id: Actor
    split: Annotated[
        list[Annotated[int, msgspec.Meta(ge=1)]] | None,
        field("ダイスの分け方", "判定ごとのダイス数（空ならなるべく均等）"),
    ] = None


class Ikasama(Command, frozen=True, kw_only=True, tag="shadowjan.wazamae"):
    """ワザマエ判定 イカサマ (SJ-12, SJ-13): HARD +1 per earlier イカサマ this hand;
    ``enhance`` more (強化イカサマ) for as many more メンツ, up to UH3."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="ワザマエ判定（イカサマ）",
        description="【ワザマエ】判定HARD（この局で使うたび難易度+1）。成功でメンツ+1、失敗でチョンボ",
    )

    character_id: Actor
    enhance: Annotated[
        int,
        field(
            "強化イカサマ",
            "自主的に上げる難易度（上げた数だけメンツがさらに増える。上限UH3）",
            ge=0,
            le=10,
        ),
    ] = 0


class Neuron(Command, frozen=True, kw_only=True, tag="shadowjan.neuron"):
    """ニューロン判定 U-HARD (SJ-15): +1 メンツ, +1 more with two or more 6s."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="ニューロン判定",
        description="【ニューロン】判定U-HARD。成功でメンツ+1、出目6が2つ以上ならさらに+1",
    )

    character_id: Actor


class Betaori(Command, frozen=True, kw_only=True, tag="shadowjan.betaori"):
    """ベタオリ (SJ-16): メンツ −2, +2 dice on this turn's 振り込み判定."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(title="ベタオリ", description="メンツ−2、この手番の振り込み判定にダイス+2")

    character_id: Actor


class Declare(Command, frozen=True, kw_only=True, tag="shadowjan.declare"):
    """リーチ or ダマテン on reaching 4 メンツ (SJ-18); a リーチ may throw the stick (SJ-19)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="リーチ/ダマテン宣言",
        description="4メンツに達したら宣言する。リーチならリーチ棒を投げてもよい",
    )

    character_id: Actor
    kind: Annotated[Literal["riichi", "dama"], field("宣言", "riichi（リーチ）/ dama（ダマテン）")]
    stick_target: Annotated[
        str | None,
        field("リーチ棒の的", "リーチ棒を投げつけるキャラクター（リーチのみ。空なら投げない）"),
    ] = None


class Tsumo(Command, frozen=True, kw_only=True, tag="shadowjan.tsumo"):
    """ツモ判定 (SJ-21): 【カラテ】, 【ワザマエ】 or 【ニューロン】 at U-HARD."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="ツモ判定",
        description="【カラテ】【ワザマエ】【ニューロン】のいずれかでU-HARD。出目6が累計3つでアガリ",
    )

    character_id: Actor
    stat: Annotated[
        Literal["karate", "wazamae", "neuron"],
        field("能力値", "karate（【カラテ】）/ wazamae（【ワザマエ】）/ neuron（【ニューロン】）"),
    ] = "karate"


class Split(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Dice of one attack going to one target."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="攻撃の割り振り", description="1つの対象へ振るダイス"
    )

    target: Target
    dice: Annotated[int, field("ダイス数", "この対象への攻撃ダイス", ge=1)]


class Attack(Command, frozen=True, kw_only=True, tag="shadowjan.attack"):
    """An attack in a テンホー・チーホー戦, an イカサマ punishment, a ロン回避判定 or an イクサ.

    ``kind``: ``melee`` (近接攻撃, 素手 or a bio-cyber), ``shuriken`` (遠隔攻撃 as スリケン),
    ``jitsu`` (ジツ: 【ニューロン】+【ジツ】 NORMAL, damage 1) or ``gun`` (ロン回避判定 only).
    Either ``target`` (every die on one target) or ``splits`` (連続攻撃 / 連射 / マルチ);
    ``area``: a ジツ that hits every target with one roll (SJ-23).
    """

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="攻撃",
        description="テンホー・チーホー戦、イカサマの制裁、ロン回避判定、イクサでの攻撃",
    )

    character_id: Actor
    kind: Annotated[
        Literal["melee", "shuriken", "jitsu", "gun"],
        field(
            "攻撃の種類",
            "melee（近接攻撃）/ shuriken（スリケン・遠隔攻撃）/ jitsu（ジツ）/ gun（銃撃。ロン回避判定のみ）",
        ),
    ] = "melee"
    target: Annotated[
        str | None, field("対象", "全ダイスで攻撃するキャラクター（splits を使わないとき）")
    ] = None
    splits: Annotated[list[Split], field("割り振り", "連続攻撃・連射: 対象ごとのダイス数")] = []
    area: Annotated[bool, field("範囲攻撃", "ジツで全対象に1回の判定（ジツのみ）")] = False
    weapon: Annotated[
        str | None, field("武器", "使う武器のID（近接はバイオサイバネのみ、銃撃は持っている銃）")
    ] = None


class Evade(Command, frozen=True, kw_only=True, tag="shadowjan.evade"):
    """回避判定 against the first hit waiting for this character, with ``dice`` 回避ダイス (0: take it)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="回避判定", description="最初に待っている命中に対して回避ダイスを使う（0なら受ける）"
    )

    character_id: Actor
    dice: Annotated[int, field("回避ダイス", "使う回避ダイスの数（0: 回避しない）", ge=0)] = 0


COMMANDS = (Sit, Start, Tenho, Goumoupai, Ikasama, Neuron, Betaori, Declare, Tsumo, Attack, Evade)
