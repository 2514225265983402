"""Events of シャドー・ジャン2 (tags ``shadowjan.<fact>``).

Every die rolled is a :class:`~taku.core.dice.Roll` field of an event, so a replay
never rolls. Events carry the values after the fact where a rule computed them
(scores, メンツ, 体力), and ``evolve`` copies them.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.dice import Roll
from taku.core.events import Event
from taku_shadowjan.state import Battle, SjHit

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

    character_id: str
    tairyoku: int
    seishin: int
    dkk: int = 0


class SeatRoll(msgspec.Struct, frozen=True, kw_only=True):
    character_id: str
    roll: Roll


class GameStarted(Event, frozen=True, kw_only=True, tag="shadowjan.game_started"):
    """The seat order by 1d100, ties rerolled among the tied (SJ-04, G-SJ-01); 25000 each (SJ-05)."""

    rolls: tuple[SeatRoll, ...]
    seats: tuple[str, ...]
    score: int


class HandStarted(Event, frozen=True, kw_only=True, tag="shadowjan.hand_started"):
    """A hand [局] begins (SJ-06); ``replay`` after a 流局 (SJ-27)."""

    hand: int
    dealer: str
    draws: int = 0
    replay: bool = False


class EvasionDiceTaken(Event, frozen=True, kw_only=True, tag="shadowjan.evasion_dice_taken"):
    """回避ダイス taken: at the deal, after it (SJ-07, SJ-10), at the dealer's turn (SJ-25)."""

    dice: dict[str, int]
    reason: str


class MentsuDealt(Event, frozen=True, kw_only=True, tag="shadowjan.mentsu_dealt"):
    """6 − 1d6 initial メンツ (SJ-07); 5 allows テンホー・チーホー (SJ-08)."""

    character_id: str
    roll: Roll
    mentsu: int


class TurnStarted(Event, frozen=True, kw_only=True, tag="shadowjan.turn_started"):
    character_id: str
    turn: int


class TenhoDeclared(Event, frozen=True, kw_only=True, tag="shadowjan.tenho_declared"):
    """テンホー・チーホー declared (SJ-09), or declined: メンツ becomes 2 (SJ-08, G-SJ-06)."""

    character_id: str
    declared: bool = True
    mentsu: int = 5


class ActionRolled(Event, frozen=True, kw_only=True, tag="shadowjan.action_rolled"):
    """A turn action's checks (SJ-11 カラテ, SJ-12/13 ワザマエ, SJ-15 ニューロン).

    ``rolls[i]`` at ``difficulties[i]``; ``gained`` メンツ; ``chombo`` on a failed イカサマ.
    """

    character_id: str
    action: str
    rolls: tuple[Roll, ...]
    difficulties: tuple[int, ...]
    successes: tuple[int, ...]
    gained: int
    mentsu: int
    enhance: int = 0
    chombo: bool = False


class Betaoried(Event, frozen=True, kw_only=True, tag="shadowjan.betaori_taken"):
    """ベタオリ (SJ-16)."""

    character_id: str
    mentsu: int


class Declared(Event, frozen=True, kw_only=True, tag="shadowjan.declared"):
    """リーチ or ダマテン (SJ-18)."""

    character_id: str
    kind: str


class StickThrown(Event, frozen=True, kw_only=True, tag="shadowjan.stick_thrown"):
    """The リーチ棒: an automatic hit, 1d6 damage (2d3 with ユミドー), evasion U-HARD (UH2) (SJ-19, SJ-36)."""

    character_id: str
    target: str
    roll: Roll
    hit: SjHit


class TsumoRolled(Event, frozen=True, kw_only=True, tag="shadowjan.tsumo_rolled"):
    """ツモ判定 at U-HARD; 6s accumulate (SJ-21)."""

    character_id: str
    stat: str
    roll: Roll
    sixes: int
    total: int
    needed: int
    win: bool


class FurikomiRolled(Event, frozen=True, kw_only=True, tag="shadowjan.furikomi_rolled"):
    """振り込み判定 at the end of the turn (SJ-20); failure is ロン by every other declarer (SJ-23, SJ-24)."""

    character_id: str
    roll: Roll
    difficulty: int
    bonus: int
    success: bool
    ron_by: tuple[str, ...] = ()


class TurnEnded(Event, frozen=True, kw_only=True, tag="shadowjan.turn_ended"):
    character_id: str


class BattleStarted(Event, frozen=True, kw_only=True, tag="shadowjan.battle_started"):
    """A fight begins (SJ-09, SJ-14, SJ-22, SJ-33, SJ-29)."""

    battle: Battle


class AttackRoll(msgspec.Struct, frozen=True, kw_only=True):
    target: str
    dice: int
    difficulty: int
    roll: Roll
    successes: int
    success: bool
    critical: str = ""


class AttackRolled(Event, frozen=True, kw_only=True, tag="shadowjan.attack_rolled"):
    """An attack: 近接攻撃, スリケン, ジツ or a gun (NSTRPG 2-6 via taku_nstrpg)."""

    character_id: str
    kind: str
    pool: int
    rolls: tuple[AttackRoll, ...]
    hits: tuple[SjHit, ...]
    area: bool = False


class EvasionRolled(Event, frozen=True, kw_only=True, tag="shadowjan.evasion_rolled"):
    """回避判定 against one hit (NSTRPG 2-11)."""

    character_id: str
    hit_id: str
    dice: int
    difficulty: int
    roll: Roll | None = None
    successes: int = 0
    success: bool = False


class CounterKarate(Event, frozen=True, kw_only=True, tag="shadowjan.counter_karate"):
    """カウンターカラテ (NS-77): a 1-damage hit back on the attacker."""

    character_id: str
    hit: SjHit


class DamageResolved(Event, frozen=True, kw_only=True, tag="shadowjan.damage_resolved"):
    """A hit landed: 痛打, the サツバツ! row, and the values after (NSTRPG 2-12, 2-13)."""

    target: str
    hit_id: str
    amount: int
    tsuda: int = 0
    critical: str = ""
    table: Roll | None = None
    row: int = 0
    death_roll: Roll | None = None
    tairyoku: int
    seishin: int
    status: str
    ability_damage: dict[str, int] = {}


class KnockedOut(Event, frozen=True, kw_only=True, tag="shadowjan.knocked_out"):
    """Out of the fight: lost at once, points split among the survivors (SJ-34, G-SJ-12)."""

    character_id: str
    points: int
    shares: dict[str, int]


class BattleEnded(Event, frozen=True, kw_only=True, tag="shadowjan.battle_ended"):
    kind: str
    damaged: tuple[str, ...] = ()
    winner: str = ""


class Scored(Event, frozen=True, kw_only=True, tag="shadowjan.scored"):
    """A payment by the tables (SJ-30 ツモ, SJ-31 ロン, SJ-32 チョンボ) × the 流局 factor.

    ``reason``: ``tenho`` (ヤクマン), ``tsumo_riichi`` (ハネマン), ``tsumo_dama`` (マンガン),
    ``ron_riichi``, ``ron_dama`` or ``chombo``; ``deltas`` by character.
    """

    reason: str
    who: str
    deltas: dict[str, int]
    multiplier: int = 1
    remaining: int = 4


class Ryukyoku(Event, frozen=True, kw_only=True, tag="shadowjan.ryukyoku"):
    """流局 (SJ-27): the first declarer ended two turns without winning."""

    draws: int


class NinjaSlayerChecked(Event, frozen=True, kw_only=True, tag="shadowjan.ninja_slayer_checked"):
    """ニンジャ殺すべし (SJ-28): 1d6 above score / 1000, automatic below 0."""

    character_id: str
    declarer: str
    roll: Roll | None = None
    score: int
    triggered: bool


class NinjaSlayerRose(Event, frozen=True, kw_only=True, tag="shadowjan.ninja_slayer_rose"):
    """The player becomes Ninja Slayer (SJ-29); ``fight``: the イクサ begins with his stat block."""

    character_id: str
    target: str
    fight: bool
    tairyoku: int = 0
    seishin: int = 0


class DkkGained(Event, frozen=True, kw_only=True, tag="shadowjan.dkk_gained"):
    """1d3 DKK each for the other PCs after the shortcut (SJ-29)."""

    character_id: str
    roll: Roll
    gained: int
    dkk: int


class Move(msgspec.Struct, frozen=True, kw_only=True):
    """A legal move: a button's label, the character, the command to send."""

    label: str
    character_id: str = ""
    command: dict[str, Any] = {}


class ToMove(Event, frozen=True, kw_only=True, tag="shadowjan.to_move"):
    """After every command: whose move it is now, at which step, and the legal moves
    (◆手番の処理; the clients show them as buttons, and anything else is rejected)."""

    character_id: str
    step: str
    moves: tuple[Move, ...] = ()


class GameEnded(Event, frozen=True, kw_only=True, tag="shadowjan.game_ended"):
    """The end (SJ-33): the ranking, the scores, why."""

    reason: str
    ranking: tuple[str, ...]
    scores: dict[str, int]


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
