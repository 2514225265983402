"""The state of a シャドー・ジャン2 table (``game``): seats, scores, メンツ, declarations,
the fight values of every player, hits waiting for an evasion, and whose move it is.

Everything round-trips through ``msgspec.to_builtins`` / ``convert`` so the GM
(when a table has one) can override any value with the core ``override`` command.
"""

from __future__ import annotations

import msgspec

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
]

LOBBY = "lobby"
"""Players take seats (``shadowjan.sit``) until one starts the game."""
TURN = "turn"
"""The player ``turn`` takes their one action (or ツモ判定)."""
DECLARE = "declare"
"""``declaring[0]`` must declare リーチ or ダマテン (SJ-18, G-SJ-05)."""
BATTLE = "battle"
"""Attacks and evasions of a テンホー・チーホー戦, イカサマ punishment, ロン回避判定, リーチ棒 or イクサ."""
ENDED = "ended"
"""The game is over; ``ranking`` holds the result."""

SjSheet = NsSheet
"""A player's character is an NSTRPG character sheet (SJ-01)."""


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

    character_id: str
    score: int = 25000
    seat_roll: int = 0
    mentsu: int = 0
    declaration: str = ""
    declared_turns: int = 0
    declared_at: int = 0
    sixes: int = 0
    karate_uses: int = 0
    ikasama_uses: int = 0
    tenho_ok: bool = False
    turns: int = 0
    betaori: bool = False
    tairyoku: int = 1
    seishin: int = 0
    status: str = "active"
    ability_damage: dict[str, int] = {}
    evasion_dice: int = 0
    dkk: int = 0
    out: bool = False
    slayer: bool = False


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

    id: str
    attacker: str
    target: str
    kind: str = "melee"
    damage: int = 1
    damage_roll: tuple[int, ...] = ()
    successes: int = 0
    critical: str = ""
    evasion: int = NORMAL
    faces: tuple[int, ...] = ()
    area: bool = False


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

    kind: str
    defenders: tuple[str, ...] = ()
    attackers: tuple[str, ...] = ()
    uncovered: tuple[str, ...] = ()
    damaged: tuple[str, ...] = ()
    ron_by: str = ""
    fighters: tuple[str, ...] = ()


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the scoreboard: a payment and why (SJ-30 … SJ-32, SJ-34)."""

    hand: int
    reason: str
    who: str
    deltas: dict[str, int]
    multiplier: int = 1


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
        hits: a counter for hit ids.
    """

    phase: str = LOBBY
    players: dict[str, Player] = {}
    seats: tuple[str, ...] = ()
    hand: int = 0
    dealer: str = ""
    turn: str = ""
    turn_count: int = 0
    draws: int = 0
    first_declarer: str = ""
    declaring: tuple[str, ...] = ()
    in_deal: bool = False
    pending: tuple[SjHit, ...] = ()
    battle: Battle | None = None
    after_battle: str = ""
    scoreboard: tuple[ScoreLine, ...] = ()
    ranking: tuple[str, ...] = ()
    end_reason: str = ""
