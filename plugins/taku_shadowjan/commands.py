"""Commands of シャドー・ジャン2 (tags ``shadowjan.<verb>``).

Every command names the character that acts; the server accepts it only when
that character is the one whose move it is and the move is legal now (the view
lists those moves as ``legal_moves``). There is no GM: the table runs itself.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from taku.core.commands import Command

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


class Sit(Command, frozen=True, kw_only=True, tag="shadowjan.sit"):
    """Take a seat with one's NSTRPG character (SJ-02, SJ-03: two to four players).

    The equipment restrictions of 基本ルール are checked here.
    """

    character_id: str


class Start(Command, frozen=True, kw_only=True, tag="shadowjan.start"):
    """Roll the seat order (1d100 each, SJ-04) and deal the first hand. Any seated player."""


class Tenho(Command, frozen=True, kw_only=True, tag="shadowjan.tenho"):
    """Declare テンホー・チーホー on one's first turn after a deal of 5 メンツ (SJ-08, SJ-09)."""

    character_id: str


class Goumoupai(Command, frozen=True, kw_only=True, tag="shadowjan.karate"):
    """カラテ判定 ゴーモーパイ (SJ-11): the pool split into 2 (3 from the 2nd use) NORMAL checks.

    ``split`` gives the dice of each check (default: as even as possible).
    """

    character_id: str
    split: list[Annotated[int, msgspec.Meta(ge=1)]] | None = None


class Ikasama(Command, frozen=True, kw_only=True, tag="shadowjan.wazamae"):
    """ワザマエ判定 イカサマ (SJ-12, SJ-13): HARD +1 per earlier イカサマ this hand;
    ``enhance`` more (強化イカサマ) for as many more メンツ, up to UH3."""

    character_id: str
    enhance: Annotated[int, msgspec.Meta(ge=0, le=10)] = 0


class Neuron(Command, frozen=True, kw_only=True, tag="shadowjan.neuron"):
    """ニューロン判定 U-HARD (SJ-15): +1 メンツ, +1 more with two or more 6s."""

    character_id: str


class Betaori(Command, frozen=True, kw_only=True, tag="shadowjan.betaori"):
    """ベタオリ (SJ-16): メンツ −2, +2 dice on this turn's 振り込み判定."""

    character_id: str


class Declare(Command, frozen=True, kw_only=True, tag="shadowjan.declare"):
    """リーチ or ダマテン on reaching 4 メンツ (SJ-18); a リーチ may throw the stick (SJ-19)."""

    character_id: str
    kind: str
    """``riichi`` or ``dama``."""
    stick_target: str | None = None
    """リーチ only: the character hit by the リーチ棒 (none: not thrown)."""


class Tsumo(Command, frozen=True, kw_only=True, tag="shadowjan.tsumo"):
    """ツモ判定 (SJ-21): 【カラテ】, 【ワザマエ】 or 【ニューロン】 at U-HARD."""

    character_id: str
    stat: str = "karate"
    """``karate``, ``wazamae`` or ``neuron``."""


class Split(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Dice of one attack going to one target."""

    target: str
    dice: Annotated[int, msgspec.Meta(ge=1)]


class Attack(Command, frozen=True, kw_only=True, tag="shadowjan.attack"):
    """An attack in a テンホー・チーホー戦, an イカサマ punishment, a ロン回避判定 or an イクサ.

    ``kind``: ``melee`` (近接攻撃, 素手 or a bio-cyber), ``shuriken`` (遠隔攻撃 as スリケン),
    ``jitsu`` (ジツ: 【ニューロン】+【ジツ】 NORMAL, damage 1) or ``gun`` (ロン回避判定 only).
    Either ``target`` (every die on one target) or ``splits`` (連続攻撃 / 連射 / マルチ);
    ``area``: a ジツ that hits every target with one roll (SJ-23).
    """

    character_id: str
    kind: str = "melee"
    target: str | None = None
    splits: list[Split] = []
    area: bool = False
    weapon: str | None = None


class Evade(Command, frozen=True, kw_only=True, tag="shadowjan.evade"):
    """回避判定 against the first hit waiting for this character, with ``dice`` 回避ダイス (0: take it)."""

    character_id: str
    dice: Annotated[int, msgspec.Meta(ge=0)] = 0


COMMANDS = (Sit, Start, Tenho, Goumoupai, Ikasama, Neuron, Betaori, Declare, Tsumo, Attack, Evade)
