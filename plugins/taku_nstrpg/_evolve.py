"""``evolve`` of nstrpg: apply one stored event to the ``game`` state (pure, never rejects)."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.events import CharacterCreated, CharacterRemoved, CharacterUpdated, Event
from taku_nstrpg import events as ev
from taku_nstrpg import mapping as mp
from taku_nstrpg import turn_end as te
from taku_nstrpg.damage import ACTIVE, DEAD, EXPLODED, REMOVED
from taku_nstrpg.dkk import ENTRY_TABLE
from taku_nstrpg.options import NsOptions
from taku_nstrpg.state import (
    AttackMemo,
    Fighter,
    Hit,
    LastRoll,
    MemoRoll,
    NsGame,
    NsSheet,
    fighter_from_sheet,
)

__all__ = ["evolve", "sheet_of"]

_replace = msgspec.structs.replace
GONE = (REMOVED, EXPLODED, DEAD)


def sheet_of(raw: dict[str, Any]) -> NsSheet:
    """The sheet as the ruleset reads it; a stored sheet that no longer fits gives the defaults."""
    try:
        return msgspec.convert(raw, NsSheet)
    except msgspec.ValidationError:
        return NsSheet()


def _f(game: NsGame, cid: str, **changes: Any) -> NsGame:
    f = game.fighters.get(cid)
    if f is None:
        return game
    return _replace(game, fighters={**game.fighters, cid: _replace(f, **changes)})


def _all(game: NsGame, **changes: Any) -> NsGame:
    return _replace(game, fighters={k: _replace(f, **changes) for k, f in game.fighters.items()})


def evolve(
    game: NsGame | None, event: Event, table: Any, options: NsOptions | None = None
) -> NsGame:
    """The state after ``event`` (core events included); ``options`` the table's (defaults if ``None``)."""
    if isinstance(event, mp.PcOrderSet):
        return _replace(game or NsGame(), pc_rank=tuple(event.order))
    if isinstance(event, mp.MAP_EVENTS):
        game = game or NsGame()
        game = _replace(game, board=mp.evolve_board(game.board, event, game.phase))
        b = game.board
        if isinstance(event, mp.MapSet) and b is not None and game.combat and game.turn == 0:
            # a map laid out after the combat began, with nobody on it: sudden (NS-33)
            game = _replace(game, board=_replace(b, sudden=not b.positions))
        if isinstance(event, mp.FullMoveRolled):
            return _did_act(game, event.character_id, True)  # 全力移動 is the action (NS-52)
        if isinstance(event, mp.AbilityUsed) and event.seishin:
            f = game.fighters.get(event.character_id)
            if f is not None:
                game = _f(game, event.character_id, seishin=f.seishin - event.seishin)
        return game
    after = _core(game, event, table, options)
    if after.board is None:
        return after  # no map: exactly the state of earlier versions
    return _replace(after, board=_board_after(after.board, event, after))


def _board_after(b: mp.Board, event: Event, game: NsGame) -> mp.Board:
    """The per-手番 movement bookkeeping of the board after a non-map event."""
    match event:
        case ev.CheckRolled(purpose="sokuten", character_id=cid, success=ok, roll=roll):
            if ok:  # a 連続側転移動 allowed; its 6s open blocked doors and windows (NS-51)
                return _replace(b, sokuten={**b.sokuten, cid: roll.faces.count(6)})
        case ev.TurnBegan(character_id=cid):
            return _replace(
                b,
                moved=tuple(k for k in b.moved if k != cid),
                sokuten=mp._drop(b.sokuten, cid),
                full_move=mp._drop(b.full_move, cid),
                turns_taken={**b.turns_taken, cid: b.turns_taken.get(cid, 0) + 1},
            )
        case ev.TurnEndedFor(character_id=cid):
            return _replace(b, full_move=mp._drop(b.full_move, cid))
        case ev.CombatStarted() | ev.CombatEnded():
            return _replace(
                b,
                moved=(),
                sokuten={},
                full_move={},
                turns_taken={},
                used={},
                instant={},
                # nobody on the map when it begins: a sudden combat (NS-33)
                sudden=isinstance(event, ev.CombatStarted)
                and b.map is not None
                and not b.positions,
            )
        case CharacterRemoved(character_id=cid):
            return _replace(b, positions=mp._drop(b.positions, cid))
        case ev.WasshoiRolled(success=True, entry_row=row, target_ninja=who):
            return _replace(b, entry_row=row, entry_target=who)
        case ev.EntryRerolled(row=row):
            return _replace(b, entry_row=row)
    return b


def _core(
    game: NsGame | None, event: Event, table: Any, options: NsOptions | None = None
) -> NsGame:
    if game is None:
        game = NsGame()
    opts = options if isinstance(options, NsOptions) else NsOptions()
    match event:
        case CharacterCreated(character_id=cid, sheet=sheet):
            f: Fighter | None = fighter_from_sheet(sheet_of(sheet), opts.quick_dice_base)
            game = _replace(game, fighters={**game.fighters, cid: f})
            if game.combat and game.turn > 0:  # a 増援 acts from the next turn (2-2)
                game = _replace(game, joined=(*game.joined, cid))
            return game
        case CharacterUpdated(character_id=cid, sheet=sheet):
            if "dkk" in sheet and isinstance(sheet["dkk"], int):
                return _f(game, cid, dkk=sheet["dkk"])
            return game
        case CharacterRemoved(character_id=cid):
            fighters = dict(game.fighters)
            fighters.pop(cid, None)
            pending = {k: h for k, h in game.pending.items() if h.target != cid}
            return _replace(game, fighters=fighters, pending=pending)
        case ev.CheckRolled():
            return _did_act(
                _check(game, event), event.character_id, event.purpose == "attack_phase"
            )
        case ev.OpposedRolled(sides=sides):
            for s in sides:
                f = game.fighters.get(s.character_id)
                if f is not None and s.quick_dice:
                    game = _f(game, s.character_id, quick_dice=f.quick_dice - s.quick_dice)
            return game
        case ev.AttackRolled():
            return _did_act(_attack(game, event), event.attacker, True)
        case ev.AttackRerolled():
            memo = game.attacks.get(event.attack_id)
            pending = dict(game.pending)
            if event.removed:
                pending.pop(event.removed, None)
            if event.hit is not None:
                pending[event.hit.id] = event.hit
            game = _replace(game, pending=pending)
            game = _f(game, event.attacker, sixth_sense_used=True)
            last = game.last_roll.get(event.attacker)
            if last is not None:
                game = _replace(
                    game,
                    last_roll={**game.last_roll, event.attacker: _replace(last, rerolled=True)},
                )
            if memo is not None and event.hit is not None:
                rolls = list(memo.rolls)
                if 0 <= event.index < len(rolls):
                    rolls[event.index] = _replace(
                        rolls[event.index], template=event.hit, success=True
                    )
                game = _replace(
                    game,
                    attacks={**game.attacks, event.attack_id: _replace(memo, rolls=tuple(rolls))},
                )
            return game
        case ev.EvasionRolled():
            f = game.fighters.get(event.defender)
            if f is not None:
                changes: dict[str, Any] = {
                    "evasion_dice": f.evasion_dice - event.dice,
                    "emergency_dice": f.emergency_dice - event.emergency_dice,
                }
                if event.adrenaline:
                    changes.update(
                        seishin=f.seishin - 1, adrenaline_used=True, adrenaline_evasion=True
                    )
                if event.first is not None:
                    changes["sixth_sense_used"] = True
                game = _f(game, event.defender, **changes)
            attack_ids = {game.pending[h].attack_id for h in event.hits if h in game.pending}
            if event.success:
                game = _replace(
                    game, pending={k: h for k, h in game.pending.items() if k not in event.hits}
                )
            if event.roll is not None:
                attacks = dict(game.attacks)
                lasts = dict(game.last_roll)
                for aid in attack_ids:
                    if aid in attacks:
                        attacks[aid] = _replace(attacks[aid], evaded=True)
                        who = attacks[aid].attacker
                        if who in lasts and lasts[who].ref == aid:
                            lasts[who] = _replace(lasts[who], evaded=True)
                game = _replace(game, attacks=attacks, last_roll=lasts)
            return game
        case ev.CounterKarate(hit=hit) | ev.HitInflicted(hit=hit):
            return _replace(game, pending={**game.pending, hit.id: hit})
        case ev.DamageResolved():
            return _did_act(_damage(game, event), event.source, event.note == "カイシャク")
        case ev.BarrageDeclared(replaced=replaced, hit=hit):
            pending = {k: h for k, h in game.pending.items() if k not in replaced}
            pending[hit.id] = hit
            return _replace(game, pending=pending)
        case ev.HitOverridden(hit_id=hid, hit=hit):
            pending = dict(game.pending)
            pending.pop(hid, None)
            if hit is not None:
                pending[hit.id] = hit
            return _replace(game, pending=pending)
        case ev.TurnBegan(character_id=cid, shuchu=shuchu, equip=equip):
            # a new 手番 ends the phase an アドレナリン・ブースト's evasion −1 was for
            changes = {"kuzure": False, "shuchu": shuchu, "sokuten": False}
            if equip is not None:
                changes["equipped"] = equip
            game = _replace(
                game, phase=game.phase + 1, acting=cid, step="attack" if shuchu else "move"
            )
            return _f(_all(game, adrenaline_evasion=False), cid, **changes)
        case ev.TurnEndedFor(character_id=cid):
            ending = game.acting == cid
            game = _replace(
                game,
                phase=game.phase + 1,
                acting=None if ending else game.acting,
                step="" if ending else game.step,
                acted=(*game.acted, cid),  # counted: 一騎打ち has two 手番 (NS-34)
            )
            return _f(_all(game, adrenaline_evasion=False), cid, shuchu=False, sokuten=False)
        case ev.PhaseEnded():
            return _all(_replace(game, phase=game.phase + 1), adrenaline_evasion=False)
        case ev.CombatStarted():
            return _replace(
                game, combat=True, turn=0, atmosphere="normal", acted=(), step="", turn_over=False
            )
        case ev.TurnStarted(turn=turn, evasion=evasion, initiative=values, duel=duel):
            fighters = {
                k: _replace(
                    f, evasion_dice=evasion.get(k, f.evasion_dice), adrenaline_evasion=False
                )
                for k, f in game.fighters.items()
            }
            return _replace(
                game,
                turn=turn,
                fighters=fighters,
                dkk_this_turn=0,
                wasshoi_due=False,
                phase=game.phase + 1,
                acting=None,
                acted=(),
                step="",
                turn_over=False,
                effects_done=False,
                joined=(),
                turn_initiative=dict(values),
                turn_duel=duel,
            )
        case te.EffectsResolved():
            return te.evolve_effects(game, event)
        case ev.TurnEnded(turn=turn, atmosphere=atmosphere, wasshoi_due=due):
            if game.entry_sokuten and turn >= game.entry_until:
                game = _replace(game, entry_sokuten=0)  # "次のターンの終了時まで" (NS-99)
            return _replace(
                game, atmosphere=atmosphere, wasshoi_due=due, acting=None, step="", turn_over=True
            )
        case ev.CombatEnded(revived=revived, money=money):
            fighters = {}
            for k, f in game.fighters.items():
                # the next combat starts with the declared weapon, else 素手&スリケン (NS-27)
                changes = {
                    "adrenaline_used": False,
                    "adrenaline_evasion": False,
                    "kuzure": False,
                    "shuchu": False,
                    "sokuten": False,
                    "equipped": None,
                }
                if k in revived:
                    changes.update(tairyoku=1, seishin=0, status=ACTIVE)
                fighters[k] = _replace(f, **changes)
            looted = {k for k, f in fighters.items() if f.status != ACTIVE}
            fighters = {
                k: _replace(f, looted=True) if k in looted and _is_enemy(table, k) else f
                for k, f in fighters.items()
            }
            return _replace(
                game,
                fighters=fighters,
                combat=False,
                turn=0,
                atmosphere="normal",
                pending={},
                money_pool=game.money_pool + money,
                acting=None,
                entry_sokuten=0,
                acted=(),
                step="",
                turn_over=False,
                joined=(),
                turn_initiative={},
                turn_duel=None,
            )
        case ev.ScenarioStarted():
            fighters = {}
            for k, f in game.fighters.items():
                fighters[k] = _replace(
                    f,
                    quick_dice=event.quick_dice.get(k, f.quick_dice),
                    emergency_dice=event.emergency_dice.get(k, f.emergency_dice),
                    injury_penalty=event.injury_penalty.get(k, 0),
                )
            return _replace(game, fighters=fighters)
        case ev.ScenarioEnded(money_pool=left):
            fighters = {}
            for k, f in game.fighters.items():
                ns = (
                    sheet_of(table.characters[k].sheet)
                    if k in getattr(table, "characters", {})
                    else NsSheet()
                )
                fresh = fighter_from_sheet(ns, opts.quick_dice_base)
                fighters[k] = _replace(
                    f,
                    ability_damage={},
                    injuries={p: 1 for p, n in f.injuries.items() if n > 0},
                    quick_dice=fresh.quick_dice,
                    emergency_dice=fresh.emergency_dice,
                    sixth_sense_used=False,
                    injury_penalty=0,
                )
            return _replace(
                game,
                fighters=fighters,
                money_pool=left,
                scenario=game.scenario + 1,
                last_roll={},
                attacks={},
                secret_rolls={},
            )
        case ev.DkkGained(character_id=cid, after=after, turn_total=total, wasshoi_due=due):
            game = _f(game, cid, dkk=after)
            return _replace(game, dkk_this_turn=total, wasshoi_due=game.wasshoi_due or due)
        case ev.WasshoiRolled(success=success, entry_row=row):
            game = _replace(game, entry_rerolls=0 if success else -1, wasshoi_due=False)
            return _entry(game, row) if success else game
        case ev.EntryRerolled(chosen=chosen, row=row):
            game = _replace(game, entry_rerolls=-1 if chosen else game.entry_rerolls + 1)
            return _entry(game, row)
        case ev.ValueAdjusted(character_id=cid, field=field, value=value):
            f = game.fighters.get(cid)
            if f is None:
                return game
            try:
                nf = msgspec.convert({**msgspec.to_builtins(f), field: value}, Fighter)
            except msgspec.ValidationError:
                return game
            return _replace(game, fighters={**game.fighters, cid: nf})
        case _:
            return game


def _did_act(game: NsGame, cid: str | None, attack_phase: bool) -> NsGame:
    """An attack-phase action (攻撃, カイシャク, an attack-phase check) of the acting character (2-6)."""
    if attack_phase and cid is not None and cid == game.acting and game.step in ("move", "attack"):
        return _replace(game, step="attacked")
    return game


def _entry(game: NsGame, row: int) -> NsGame:
    """死神のエントリー rows 4–6: 連続側転判定 +1/+1/+2 for DKK 1+ ninjas until the next turn ends (NS-99)."""
    penalty = ENTRY_TABLE[row - 1].sokuten_penalty if 1 <= row <= 6 else 0
    return _replace(game, entry_sokuten=penalty, entry_until=game.turn + 1)


def _is_enemy(table: Any, cid: str) -> bool:
    ch = getattr(table, "characters", {}).get(cid)
    return ch is not None and sheet_of(ch.sheet).kind != "pc"


def _check(game: NsGame, e: ev.CheckRolled) -> NsGame:
    f = game.fighters.get(e.character_id)
    if f is None:
        return game
    changes: dict[str, Any] = {"quick_dice": f.quick_dice - e.quick_dice}
    if e.adrenaline:
        changes.update(seishin=f.seishin - 1, adrenaline_used=True, shuchu=True)
    if e.purpose == "sokuten":
        changes.update(sokuten=True, evasion_dice=f.evasion_dice + e.evasion_gained)
        if e.kuzure is not None:
            changes["kuzure"] = e.kuzure
    if e.reroll_of is not None:
        changes["sixth_sense_used"] = True
    game = _f(game, e.character_id, **changes)
    last = LastRoll(
        ref=e.check_id,
        kind="check",
        rerolled=e.reroll_of is not None,
        stat=e.stat,
        pool=e.pool,
        difficulty=e.difficulty,
        purpose=e.purpose,
        patterns=tuple(e.patterns),
        label=e.label,
        success=e.success,
    )
    secret = dict(game.secret_rolls)
    if e.secret_to:
        secret[e.character_id] = tuple(e.secret_to)
    else:
        secret.pop(e.character_id, None)
    return _replace(game, last_roll={**game.last_roll, e.character_id: last}, secret_rolls=secret)


def _attack(game: NsGame, e: ev.AttackRolled) -> NsGame:
    f = game.fighters.get(e.attacker)
    if f is not None:
        changes: dict[str, Any] = {"quick_dice": f.quick_dice - e.quick_dice}
        if e.adrenaline:
            changes.update(seishin=f.seishin - 1, adrenaline_used=True, shuchu=True)
        game = _f(game, e.attacker, **changes)
    pending = {**game.pending, **{h.id: h for h in e.hits}}
    by_index = {h.id: h for h in (*e.hits, *e.misses)}
    rolls = []
    for r in e.rolls:
        hid = f"{e.attack_id}.{r.index}"
        template = by_index.get(hid)
        if template is None:
            template = Hit(id=hid, attack_id=e.attack_id, attacker=e.attacker, target=r.target)
        rolls.append(
            MemoRoll(
                dice=r.dice,
                difficulty=r.difficulty,
                auto=r.auto,
                success=r.success,
                template=template,
            )
        )
    attacks = {k: m for k, m in game.attacks.items() if m.attacker != e.attacker}
    attacks[e.attack_id] = AttackMemo(attacker=e.attacker, rolls=tuple(rolls))
    last = LastRoll(ref=e.attack_id, kind="attack")
    secret = {k: v for k, v in game.secret_rolls.items() if k != e.attacker}  # an attack is public
    return _replace(
        game,
        pending=pending,
        attacks=attacks,
        last_roll={**game.last_roll, e.attacker: last},
        secret_rolls=secret,
    )


def _damage(game: NsGame, e: ev.DamageResolved) -> NsGame:
    f = game.fighters.get(e.target)
    pending = dict(game.pending)
    if e.hit_id is not None:
        pending.pop(e.hit_id, None)
    if f is not None:
        dmg = dict(f.ability_damage)
        for k, v in e.ability_damage.items():
            if k != "seishin":
                dmg[k] = dmg.get(k, 0) + v
        injuries = dict(f.injuries)
        if e.injury:
            injuries[e.injury] = injuries.get(e.injury, 0) + 1
        game = _f(
            game,
            e.target,
            tairyoku=e.tairyoku,
            seishin=e.seishin,
            status=e.status,
            ability_damage=dmg,
            injuries=injuries,
        )
        if e.status in GONE:
            pending = {k: h for k, h in pending.items() if h.target != e.target}
    return _replace(game, pending=pending)
