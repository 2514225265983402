"""``evolve`` of シャドー・ジャン2: apply one stored event to :class:`SjGame`.

Never rejects, never rolls: every value computed by a rule is in the event.
Core events (``character_created`` …) leave the game as it is; a character joins
the game only when its player sits down (``shadowjan.seated``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.events import Event
from taku_shadowjan import events as ev
from taku_shadowjan.state import BATTLE, DECLARE, ENDED, TURN, Battle, Player, ScoreLine, SjGame

__all__ = ["evolve"]

_r = msgspec.structs.replace


def _p(game: SjGame, cid: str, **changes: Any) -> SjGame:
    players = dict(game.players)
    players[cid] = _r(players[cid], **changes)
    return _r(game, players=players)


def _battle(game: SjGame, **changes: Any) -> SjGame:
    assert game.battle is not None, "battle events come only inside a battle"
    return _r(game, battle=_r(game.battle, **changes))


def evolve(game: SjGame | None, event: Event, table: Any = None, options: Any = None) -> SjGame:
    """Apply ``event`` (any stored event) to ``game``; ``table`` and ``options`` are unused
    (every value a rule computed is in the event). ``idle_passes`` counts the turns passed
    by a timer in a row: a ``turn_passed`` adds one, a player's own move (see
    :data:`_ACTED`) sets it back to 0."""
    g = _evolve(game, event)
    if isinstance(event, ev.TurnPassed):
        return msgspec.structs.replace(g, idle_passes=g.idle_passes + 1)
    if g.idle_passes and (
        isinstance(event, _ACTED)
        or (isinstance(event, ev.TenhoDeclared) and event.declared)
        or (isinstance(event, ev.EvasionRolled) and event.dice > 0)
    ):
        return msgspec.structs.replace(g, idle_passes=0)
    return g


_ACTED = (
    ev.Seated,
    ev.GameStarted,
    ev.ActionRolled,
    ev.Betaoried,
    ev.Declared,
    ev.StickThrown,
    ev.TsumoRolled,
    ev.AttackRolled,
)
"""The events only a member's command makes. A pass by the timer also makes an undeclared
テンホー's ``tenho_declared`` and a fight's 0-dice ``evasion_rolled`` (no 回避ダイス left):
only a declared テンホー and an evasion with dice count as a move."""


def _evolve(game: SjGame | None, event: Event) -> SjGame:
    g = game if game is not None else SjGame()
    match event:
        case ev.Seated():
            players = dict(g.players)
            players[event.character_id] = Player(
                character_id=event.character_id,
                tairyoku=event.tairyoku,
                seishin=event.seishin,
                dkk=event.dkk,
            )
            return _r(g, players=players)
        case ev.GameStarted():
            rolls = {r.character_id: r.roll.faces[0] for r in event.rolls}
            players = {
                cid: _r(p, score=event.score, seat_roll=rolls.get(cid, 0))
                for cid, p in g.players.items()
            }
            return _r(g, players=players, seats=event.seats)
        case ev.HandStarted():
            players = {
                cid: _r(
                    p,
                    mentsu=0,
                    declaration="",
                    declared_turns=0,
                    declared_at=0,
                    sixes=0,
                    karate_uses=0,
                    ikasama_uses=0,
                    tenho_ok=False,
                    turns=0,
                    betaori=False,
                )
                for cid, p in g.players.items()
            }
            return _r(
                g,
                players=players,
                hand=event.hand,
                dealer=event.dealer,
                draws=event.draws,
                phase=TURN,
                turn="",
                turn_count=0,
                first_declarer="",
                declaring=(),
                in_deal=True,
                pending=(),
                battle=None,
                after_battle="",
            )
        case ev.EvasionDiceTaken():
            for cid, n in event.dice.items():
                if cid in g.players:
                    g = _p(g, cid, evasion_dice=n)
            return g
        case ev.MentsuDealt():
            g = _p(g, event.character_id, mentsu=event.mentsu, tenho_ok=event.mentsu == 5)
            if event.mentsu == 4:
                # G-SJ-05: a deal of 4 declares at once
                g = _r(g, declaring=(*g.declaring, event.character_id), phase=DECLARE)
            return g
        case ev.TurnStarted():
            p = g.players[event.character_id]
            g = _p(g, event.character_id, turns=p.turns + 1, betaori=False)
            return _r(g, turn=event.character_id, turn_count=event.turn, phase=TURN, in_deal=False)
        case ev.TenhoDeclared():
            return _p(g, event.character_id, tenho_ok=False, mentsu=event.mentsu)
        case ev.ActionRolled():
            p = g.players[event.character_id]
            g = _p(
                g,
                event.character_id,
                mentsu=event.mentsu,
                tenho_ok=False,
                karate_uses=p.karate_uses + (event.action == "karate"),
                ikasama_uses=p.ikasama_uses + (event.action == "wazamae"),
            )
            if event.mentsu >= 4 and not p.declaration and not event.chombo:
                g = _r(g, declaring=(event.character_id,), phase=DECLARE)  # SJ-18
            return g
        case ev.Betaoried():
            return _p(g, event.character_id, mentsu=event.mentsu, betaori=True, tenho_ok=False)
        case ev.Declared():
            g = _p(
                g,
                event.character_id,
                declaration=event.kind,
                declared_at=-1 if g.in_deal else g.turn_count,
            )
            rest = tuple(c for c in g.declaring if c != event.character_id)
            return _r(
                g,
                declaring=rest,
                first_declarer=g.first_declarer or event.character_id,
                phase=DECLARE if rest else TURN,
            )
        case ev.StickThrown():
            return _r(
                g,
                pending=(*g.pending, event.hit),
                battle=Battle(kind="stick", defenders=(event.target,)),
                after_battle="deal" if g.in_deal else "turn_end",
                phase=BATTLE,
            )
        case ev.TsumoRolled():
            return _p(g, event.character_id, sixes=event.total)
        case ev.TurnEnded():
            p = g.players[event.character_id]
            if p.declaration and p.declared_at != g.turn_count:
                g = _p(g, event.character_id, declared_turns=p.declared_turns + 1)  # G-SJ-09
            return _p(g, event.character_id, betaori=False)
        case ev.BattleStarted():
            return _r(g, battle=event.battle, phase=BATTLE)
        case ev.AttackRolled():
            b = g.battle
            g = _r(g, pending=(*g.pending, *event.hits))
            if b is None:
                return g
            targets = {r.target for r in event.rolls}
            uncovered = tuple(c for c in b.uncovered if c not in targets)
            attackers = b.attackers
            if b.kind == "ikusa":
                attackers = (*attackers[1:], *attackers[:1])
            elif not uncovered:
                attackers = tuple(a for a in attackers if a != event.character_id)
            return _battle(g, uncovered=uncovered, attackers=attackers)
        case ev.EvasionRolled():
            p = g.players[event.character_id]
            g = _p(g, event.character_id, evasion_dice=max(0, p.evasion_dice - event.dice))
            if event.success:
                g = _r(g, pending=tuple(h for h in g.pending if h.id != event.hit_id))
            return g
        case ev.CounterKarate():
            return _r(g, pending=(event.hit, *g.pending))
        case ev.DamageResolved():
            p = g.players[event.target]
            abil = dict(p.ability_damage)
            for k, v in event.ability_damage.items():
                abil[k] = abil.get(k, 0) + v
            g = _p(
                g,
                event.target,
                tairyoku=event.tairyoku,
                seishin=event.seishin,
                status=event.status,
                ability_damage=abil,
            )
            g = _r(g, pending=tuple(h for h in g.pending if h.id != event.hit_id))
            b = g.battle
            if (
                b is not None
                and event.amount >= 1
                and event.target in b.defenders
                and event.target not in b.damaged
            ):
                g = _battle(g, damaged=(*b.damaged, event.target))  # G-SJ-08
            return g
        case ev.KnockedOut():
            players = dict(g.players)
            for cid, share in event.shares.items():
                players[cid] = _r(players[cid], score=players[cid].score + share)
            # the points went to the survivors; a negative score is not shared and stays (G-SJ-12)
            players[event.character_id] = _r(
                players[event.character_id], out=True, score=min(event.points, 0)
            )
            g = _r(
                g,
                players=players,
                pending=tuple(h for h in g.pending if h.target != event.character_id),
            )
            b = g.battle
            if b is not None:
                g = _battle(
                    g,
                    attackers=tuple(a for a in b.attackers if a != event.character_id),
                    uncovered=tuple(a for a in b.uncovered if a != event.character_id),
                )
            return g
        case ev.BattleEnded():
            # a stick thrown in the deal may leave another deal declaration waiting (G-SJ-05)
            return _r(
                g, battle=None, pending=(), phase=DECLARE if g.declaring else TURN, after_battle=""
            )
        case ev.Scored():
            players = dict(g.players)
            for cid, d in event.deltas.items():
                players[cid] = _r(players[cid], score=players[cid].score + d)
            line = ScoreLine(
                hand=g.hand,
                reason=event.reason,
                who=event.who,
                deltas=event.deltas,
                multiplier=event.multiplier,
            )
            draws = (
                g.draws if event.reason == "chombo" else 0
            )  # SJ-27: back to ×1 once someone wins
            return _r(g, players=players, scoreboard=(*g.scoreboard, line), draws=draws)
        case ev.Ryukyoku():
            return _r(g, draws=event.draws)
        case ev.NinjaSlayerRose():
            g = _p(g, event.character_id, slayer=True)
            if event.fight:
                g = _p(
                    g,
                    event.character_id,
                    tairyoku=event.tairyoku,
                    seishin=event.seishin,
                    status="active",
                    ability_damage={},
                )
            return g
        case ev.DkkGained():
            return _p(g, event.character_id, dkk=event.dkk)
        case ev.GameEnded():
            return _r(
                g,
                phase=ENDED,
                ranking=event.ranking,
                end_reason=event.reason,
                battle=None,
                pending=(),
                turn="",
            )
        case _:
            return g
