"""``initial_state`` and ``evolve`` of the ``chabu`` ruleset: apply one stored event.

``evolve`` sees every event of the table, core ones included: it starts a
character's current values at ``character_created``, resets them when the
sheet's starting values are edited outside a combat, and settles 死亡 after a
GM ``override`` of HP or インガオホー値. It never rejects and never rolls.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.events import (
    CharacterCreated,
    CharacterRemoved,
    CharacterUpdated,
    Event,
    GMOverridden,
)
from taku_chabu._rules import sheet_of, should_die
from taku_chabu.events import (
    ActionPassed,
    AttackDeclared,
    CheckDeclared,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    CounterSpent,
    DamageRolled,
    DeclarationClosed,
    Died,
    EvasionDeclined,
    Moved,
    OpposedRolled,
    OrderAgreed,
    RangeSet,
    RoundEnded,
    RoundStarted,
    TokugiUsed,
    ValueAdjusted,
    Waited,
)
from taku_chabu.options import ChabuOptions
from taku_chabu.state import ChabuState, CharState, Combat, Pending, RoundState

__all__ = ["evolve", "initial_state"]

replace = msgspec.structs.replace

_VALUE_KEYS = ("hp", "ingaoho", "tatsujin", "wazamae")


def initial_state(options: ChabuOptions | None) -> ChabuState:
    """An empty table: no characters, no combat."""
    return ChabuState()


def _char(game: ChabuState, cid: str | None, **changes: Any) -> ChabuState:
    if cid is None or cid not in game.chars:
        return game
    return replace(game, chars={**game.chars, cid: replace(game.chars[cid], **changes)})


def _round(game: ChabuState, **changes: Any) -> ChabuState:
    if game.combat is None or game.combat.round is None:
        return game
    return replace(game, combat=replace(game.combat, round=replace(game.combat.round, **changes)))


def _done(game: ChabuState, cid: str) -> ChabuState:
    rnd = game.combat.round if game.combat is not None else None
    if rnd is None or cid in rnd.done:
        return game
    return _round(game, done=[*rnd.done, cid])


def _pending(game: ChabuState, declaration: str | None, **changes: Any) -> ChabuState:
    p = game.pending
    if p is None or p.id != declaration:
        return game
    return replace(game, pending=replace(p, **changes))


def evolve(game: ChabuState, event: Event, table: Any, options: ChabuOptions | None) -> ChabuState:
    """``game`` after ``event``. ``table`` is the core state with the event's core part applied.

    ``options`` are the table's (no event's meaning depends on them: each event
    records what the options decided).
    """
    if game is None:  # a table created before the ruleset had state
        game = ChabuState()
    cs: CharState | None  # each case's character (absent when the event names none known)
    match event:
        # ------------------------------------------------------------ core events
        case CharacterCreated(character_id=cid):
            s = sheet_of(table, cid)
            cs = CharState(hp=s.hp, ingaoho=s.ingaoho, tatsujin=s.tatsujin, wazamae=s.wazamae)
            # a starting インガオホー値 of 100 or more is 死亡 (CH-25); a sheet-less
            # DL 0 HP 0 character is only 戦闘不能 until its sheet is filled in
            cs = replace(cs, dead=should_die(s.dl, cs, hp=False) is not None)
            return replace(game, chars={**game.chars, cid: cs})
        case CharacterUpdated(character_id=cid, sheet=sheet):
            keys = [k for k in _VALUE_KEYS if k in sheet]
            if cid not in game.chars or not keys or game.combat is not None:
                return game  # in a combat a sheet edit leaves the current values alone
            s = sheet_of(table, cid)
            before = game.chars[cid]
            game = _char(game, cid, **{k: getattr(s, k) for k in keys})
            cs = game.chars[cid]
            # the new values have their consequences, as after an override (CH-25):
            # インガオホー値 100 or more, or a DL 0 character's HP becoming 0, is 死亡
            if not cs.dead and should_die(s.dl, cs, hp="hp" in keys and before.hp > 0) is not None:
                game = _char(game, cid, dead=True)
            return game
        case CharacterRemoved(character_id=cid):
            chars = {k: v for k, v in game.chars.items() if k != cid}
            ranges = {
                a: {b: r for b, r in row.items() if b != cid}
                for a, row in game.ranges.items()
                if a != cid
            }
            return replace(game, chars=chars, ranges=ranges)
        case GMOverridden(path=path):
            if (
                len(path) >= 4
                and path[0] == "game"
                and path[1] == "chars"
                and path[3] in ("hp", "ingaoho")
            ):
                cid = str(path[2])
                cs = game.chars.get(cid)
                if (
                    cs is not None
                    and not cs.dead
                    and should_die(sheet_of(table, cid).dl, cs, hp=path[3] == "hp")
                ):
                    return _char(game, cid, dead=True)
            return game
        # ------------------------------------------------------------ checks and damage
        case CheckRolled(character_id=cid, tatsujin=tatsujin, declaration=decl, purpose=purpose):
            if tatsujin and cid in game.chars:
                game = _char(game, cid, tatsujin=game.chars[cid].tatsujin + 1)
            p = game.pending
            if p is None or p.id != decl:
                return game
            if purpose == "hit" and event.success and not event.ukatsu:
                # a 死亡 target is out of the game (CH-25): nothing to evade, nothing to hit
                alive = [t for t in p.targets if t in game.chars and not game.chars[t].dead]
                return _pending(game, decl, stage="evasion", awaiting=alive)
            if purpose == "evasion" and cid is not None:
                awaiting = [t for t in p.awaiting if t != cid]
                if event.success:
                    return _pending(game, decl, awaiting=awaiting)
                doubled = [*p.doubled, cid] if event.ukatsu else p.doubled
                return _pending(game, decl, awaiting=awaiting, hit=[*p.hit, cid], doubled=doubled)
            return game
        case OpposedRolled(a=a, b=b, rounds=rounds):
            for r in rounds:
                if r.a_value <= 5 and a in game.chars:
                    game = _char(game, a, tatsujin=game.chars[a].tatsujin + 1)
                if r.b_value <= 5 and b in game.chars:
                    game = _char(game, b, tatsujin=game.chars[b].tatsujin + 1)
            return game
        case DamageRolled(target=target, hp_after=hp_after):
            return _char(game, target, hp=hp_after)
        case Died(character_id=cid):
            p = game.pending
            if p is not None and cid in p.awaiting:  # a 死亡 target evades no more (CH-25)
                game = replace(
                    game, pending=replace(p, awaiting=[t for t in p.awaiting if t != cid])
                )
            return _char(game, cid, dead=True)
        case ValueAdjusted(character_id=cid, key=key, after=after):
            return _char(game, cid, **{key: after}) if key in _VALUE_KEYS else game
        case CounterSpent(character_id=cid, counter=counter, ingaoho_after=after):
            cs = game.chars.get(cid)
            if cs is None:
                return game
            changes: dict[str, Any] = {counter: max(getattr(cs, counter) - 1, 0), "ingaoho": after}
            if event.descension:
                changes["dead"] = False  # ディセンション lifts 死亡 (CH-25)
            return _char(game, cid, **changes)
        # ------------------------------------------------------------ declarations
        case AttackDeclared():
            p = Pending(
                id=event.declaration,
                kind="attack",
                actor=event.attacker,
                is_action=event.is_action,
                label=event.tokugi or event.equipment or "",
                equipment=event.equipment,
                tokugi=event.tokugi,
                targets=list(event.targets),
                check=event.check,
                power=event.power,
                modifier=event.modifier,
            )
            return replace(game, pending=p)
        case CheckDeclared():
            p = Pending(
                id=event.declaration,
                kind="check",
                actor=event.character_id,
                label=event.label,
                check=event.check,
                modifier=event.modifier,
            )
            return replace(game, pending=p)
        case TokugiUsed(character_id=cid):
            cs = game.chars.get(cid)
            if cs is not None:
                game = _char(
                    game,
                    cid,
                    hp=event.hp_after,
                    ingaoho=event.ingaoho_after,
                    wazamae=max(cs.wazamae - (event.cost.wazamae - event.tatsujin_for_wazamae), 0),
                    tatsujin=max(cs.tatsujin - event.cost.tatsujin - event.tatsujin_for_wazamae, 0),
                )
            if (
                event.answers is not None
                and game.pending is not None
                and game.pending.id == event.answers
            ):
                game = _pending(
                    game, event.answers, setsuna=[*game.pending.setsuna, (cid, event.tokugi)]
                )
            if event.declaration is not None and not event.attack:
                game = replace(
                    game,
                    pending=Pending(
                        id=event.declaration,
                        kind="action",
                        actor=cid,
                        is_action=event.is_action,
                        label=event.tokugi,
                        tokugi=event.tokugi,
                        targets=list(event.targets),
                    ),
                )
            if (
                event.resolved
                and event.until_end_phase
                and game.combat is not None
                and event.declaration is None
            ):
                game = replace(
                    game,
                    combat=replace(
                        game.combat, effects=[*game.combat.effects, (cid, event.tokugi)]
                    ),
                )
            if event.is_action and event.declaration is None:
                game = _done(game, cid)
            return game
        case EvasionDeclined(declaration=decl, character_id=cid):
            p = game.pending
            if p is None or p.id != decl:
                return game
            return _pending(
                game, decl, awaiting=[t for t in p.awaiting if t != cid], hit=[*p.hit, cid]
            )
        case DeclarationClosed(declaration=decl, character_id=cid, is_action=is_action):
            p = game.pending
            if p is not None and p.id == decl:
                if event.lasting and game.combat is not None and p.tokugi is not None:
                    game = replace(
                        game,
                        combat=replace(
                            game.combat, effects=[*game.combat.effects, (cid, p.tokugi)]
                        ),
                    )
                game = replace(game, pending=None)
            return _done(game, cid) if is_action else game
        # ------------------------------------------------------------ ranges and rounds
        case RangeSet(a=a, b=b, range=rng, both=both):
            ranges = {k: dict(v) for k, v in game.ranges.items()}
            ranges.setdefault(a, {})[b] = rng
            if both:
                ranges.setdefault(b, {})[a] = rng
            return replace(game, ranges=ranges)
        case CombatStarted():
            combat = Combat(
                victory=event.victory,
                defeat=event.defeat,
                participants=list(event.participants),
                agreed_order=list(event.agreed_order),
            )
            return replace(game, combat=combat, outcome=None, pending=None)
        case OrderAgreed(agreed_order=order):
            if game.combat is None:
                return game
            return replace(game, combat=replace(game.combat, agreed_order=list(order)))
        case RoundStarted(number=n, order=order):
            if game.combat is None:
                return game
            return replace(
                game, combat=replace(game.combat, round=RoundState(number=n, order=list(order)))
            )
        case Waited(character_id=cid):
            rnd = game.combat.round if game.combat is not None else None
            if rnd is None or cid in rnd.waiting:
                return game
            return _round(game, waiting=[*rnd.waiting, cid])
        case Moved(character_id=cid) | ActionPassed(character_id=cid):
            return _done(game, cid)
        case RoundEnded():
            if game.combat is None:
                return game
            return replace(game, combat=replace(game.combat, effects=[]))
        case CombatEnded(outcome=outcome, reason=reason):
            return replace(
                game,
                combat=None,
                pending=None,
                outcome=f"{outcome}: {reason}" if reason else outcome,
            )
        case _:
            return game
