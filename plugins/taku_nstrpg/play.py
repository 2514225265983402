"""What a viewer may do now in nstrpg, and whose 手番 it is (the play surface, taku.core.play).

``turn(table, options)``: during a combat (2-2 シーケンスとターン) the turn number, the
手番 order by イニシアチブ値 (2-3, NS-31, NS-32: highest first, ≤ 0 acts as 1, a PC
before an enemy on a tie) with the values it was built from, whose 手番 it is, and
the phase: ``combat_start`` (戦闘開始, before the first ``start_turn``),
``turn_begin`` (手番開始 of the next in order), ``move`` (移動フェイズ), ``attack``
(攻撃フェイズ), ``turn_end`` (ターン終了フェイズ: everyone has acted, or the turn
ended). ``None`` outside a combat.

``affordances(table, viewer, options)``: for the characters the viewer controls
(a player's own, every one for a GM) checks, attacks (melee / shoot, weapon and
target as choices), evasion of pending hits (回避ダイス counts as choices),
カイシャク, ●ニンジャ第六感 and 手番開始 / 手番終了; for a GM also the sequence
(start/end of combat, turn and scenario), 弾幕発生, damage, DKK and Wasshoi!.
The rules hide nothing in nstrpg, so no choice leaks anything.
"""

from __future__ import annotations

from taku.core.play import Affordance, Choice, Turn, TurnSlot
from taku.core.ruleset import Viewer
from taku.core.table import Character, TableState
from taku_nstrpg import combat as cb
from taku_nstrpg import dkk as dk
from taku_nstrpg import turn_end as te
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg._resolve import NARAKU
from taku_nstrpg.damage import ACTIVE, FAINTED
from taku_nstrpg.decider import _group_ok, _usable_weapons
from taku_nstrpg.map_play import gm_map_affordances, map_affordances
from taku_nstrpg.moves import (
    can_move_now,
    entry_done,
    entry_possible,
    map_adjacent,
    may_target,
    off_map,
    placement_due,
)
from taku_nstrpg.options import NsOptions
from taku_nstrpg.state import STAT_NAMES, Fighter, Hit, NsGame, NsSheet, initiative

__all__ = ["PHASES", "SITS_OUT", "affordances", "duel_now", "order", "sits_out", "turn"]

PHASES: dict[str, str] = {
    "combat_start": "戦闘開始（ターン開始前）",
    "placement": "配置（イニシアチブの低い順）",
    "turn_begin": "手番開始",
    "move": "移動フェイズ",
    "attack": "攻撃フェイズ",
    "turn_end": "ターン終了フェイズ",
}
"""Phase id -> its name (NSTRPG 2-2 … 2-9)."""

_STATS = ("karate", "neuron", "wazamae", "jitsu", "kyakuryoku", "tairyoku", "seishin")
_DIFFICULTIES = ("KIDS", "EASY", "NORMAL", "HARD", "ULTRA-HARD")
_PURPOSES = {
    "check": "判定",
    "sokuten": "連続側転判定",
    "attack_phase": "攻撃フェイズの判定",
    "resistance": "抵抗判定",
}
_ATM = {"normal": "通常", "hard": "ハードモード", "ultra_hard": "ウルトラハードモード"}


def _fighters(table: TableState) -> list[tuple[Character, NsSheet, Fighter]]:
    game: NsGame = table.game or NsGame()
    return [
        (table.characters[k], sheet_of(table.characters[k].sheet), f)
        for k, f in game.fighters.items()
        if k in table.characters
    ]


Fighters = list[tuple[Character, NsSheet, Fighter]]


def duel_now(table: TableState, game: NsGame, options: NsOptions | None) -> bool:
    """一騎打ち (NS-34) is in effect: the table option is on and exactly two ninjas of
    opposite sides are present and able to act in the combat, nobody else. Present: on
    the map when the table has one, and not a 増援 who joined this turn (:func:`sits_out`).
    Within a turn, what its ``start_turn`` decided (``game.turn_duel``): a fighter falling
    or arriving mid-turn changes the 手番 from the next turn, as the order does."""
    if options is None or not options.ikkiuchi or not game.combat:
        return False
    if game.turn > 0 and not game.turn_over and game.turn_duel is not None:
        return game.turn_duel  # decided at the turn's start, kept for the turn (2-3)
    able = [
        (sheet, f)
        for ch, sheet, f in _fighters(table)
        if f.status == ACTIVE and sits_out(game, ch.id) is None
    ]
    return (
        len(able) == 2
        and all(sheet.ninja for sheet, _ in able)
        and (able[0][0].kind == "pc") != (able[1][0].kind == "pc")
    )


def order(
    table: TableState, fighters: Fighters | None = None, options: NsOptions | None = None
) -> list[tuple[str, int]]:
    """The 手番 order of the fighters still on the map (active or 気絶), with each イニシアチブ値 (2-3).

    During a turn the values are those of its ``start_turn`` (``game.turn_initiative``):
    "これらの変化による行動順変更は、次のターンから起こる" (2-3); between turns the current ones.

    In 一騎打ち (NS-34, ``options.ikkiuchi``) each ninja is listed twice: the second
    手番 at half its イニシアチブ値, rounded down (G-NS-15)."""
    fs = _fighters(table) if fighters is None else fighters
    game: NsGame = table.game or NsGame()
    # within a turn, the values of its start: a change reorders from the next turn (2-3)
    fixed = game.turn_initiative if game.turn > 0 and not game.turn_over else {}
    entries = [
        (ch.id, fixed.get(ch.id, initiative(sheet, f)), sheet.kind == "pc")
        for ch, sheet, f in fs
        if f.status in (ACTIVE, FAINTED)
    ]
    rank = game.pc_rank
    if duel_now(table, game, options):
        twice = entries + [  # the second 手番 of the two present (NS-34)
            (f"{cid}#2", v // 2, pc) for cid, v, pc in entries if sits_out(game, cid) is None
        ]
        values = {cid: v for cid, v, _ in twice}
        return [(cid.split("#")[0], values[cid]) for cid in cb.initiative_order(twice, rank)]
    values = {cid: v for cid, v, _ in entries}
    return [(cid, values[cid]) for cid in cb.initiative_order(entries, rank)]


def _slots_done(game: NsGame, slots: list[tuple[str, int]]) -> list[bool]:
    """Per slot of the order: its 手番 is over this turn (a character's n-th slot is done
    after its n-th ``end_turn_of``)."""
    seen: dict[str, int] = {}
    out = []
    for cid, _ in slots:
        seen[cid] = seen.get(cid, 0) + 1
        out.append(game.acted.count(cid) >= seen[cid])
    return out


SITS_OUT: dict[str, str] = {
    "joined": "次のターンから",
    "not_placed": "マップ外",
}
"""Why a fighter has no 手番 this turn -> the note shown in the order."""


def sits_out(game: NsGame, cid: str) -> str | None:
    """Why ``cid`` has no 手番 now (an id of :data:`SITS_OUT`), ``None`` when it has one.

    ``joined``: created during this combat turn, a 増援 acts from the next turn (2-2);
    ``not_placed``: the table has a map and ``cid`` is not on it (no 手番 until placed).
    """
    if cid in game.joined:
        return "joined"
    b = game.board
    if b is not None and b.map is not None and cid not in b.positions:
        return "not_placed"
    return None


def _next(
    table: TableState,
    game: NsGame,
    fighters: Fighters | None = None,
    options: NsOptions | None = None,
) -> str | None:
    """The first in order who is on the map (active or 気絶: a 気絶 character still gets its
    手番, NS-82), has a 手番 this turn (:func:`sits_out`) and has not ended that 手番 this turn."""
    slots = order(table, fighters, options)
    for (cid, _), done in zip(slots, _slots_done(game, slots), strict=True):
        if (
            game.fighters[cid].status in (ACTIVE, FAINTED)
            and not done
            and sits_out(game, cid) is None
        ):
            return cid
    return None


def _phase(
    table: TableState,
    game: NsGame,
    fighters: Fighters | None = None,
    options: NsOptions | None = None,
) -> tuple[str, str | None]:
    if game.turn == 0:
        due = placement_due(table, game)
        return ("placement", due) if due is not None else ("combat_start", None)
    if game.acting is not None:
        return ("move" if game.step == "move" else "attack"), game.acting
    nxt = None if game.turn_over else _next(table, game, fighters, options)
    return ("turn_begin", nxt) if nxt is not None else ("turn_end", None)


def turn(table: TableState, options: NsOptions | None = None) -> Turn | None:
    """Whose 手番 it is during a combat (``None`` outside one); see the module docstring."""
    game: NsGame = table.game or NsGame()
    if not game.combat:
        return None
    fighters = _fighters(table)
    phase, actor = _phase(table, game, fighters, options)
    label = PHASES[phase]
    end_step = te.step(table, game)
    if end_step == "placement":
        label = "ターン終了（次のターン開始待ち）"
    elif end_step is not None:  # the step of the ターン終了フェイズ due (NS-42)
        label = f"{label}（{te.STEPS[end_step]}）"
    entries = order(table, fighters, options)
    seen: set[str] = set()
    slots = []
    for (cid, value), done in zip(entries, _slots_done(game, entries), strict=True):
        out = sits_out(game, cid) if game.turn > 0 else None
        slots.append(
            TurnSlot(
                id=cid,
                label=table.characters[cid].name
                + ("（2回目の手番）" if cid in seen else "")
                + (f"（{SITS_OUT[out]}）" if out else "")
                + ("（気絶）" if game.fighters[cid].status == FAINTED else ""),
                value=value,
                done=done
                or out is not None
                or game.fighters[cid].status not in (ACTIVE, FAINTED)
                or (game.turn_over and game.turn > 0),
            )
        )
        seen.add(cid)
    return Turn(
        actor=actor,
        actor_label=table.characters[actor].name if actor is not None else "",
        phase=phase,
        phase_label=label,
        round=game.turn or None,
        round_label=f"ターン{game.turn}" if game.turn else "",
        order=slots,
    )


def _controls(table: TableState, viewer: Viewer, ch: Character) -> bool:
    return viewer.is_gm or (ch.owner is not None and ch.owner == viewer.member_id)


def _side(sheet: NsSheet) -> int:
    return 0 if sheet.kind == "pc" else 1


def _targets(
    fighters: Fighters, me: Character, mine: NsSheet, *, fainted: bool
) -> list[tuple[Character, NsSheet, Fighter]]:
    """Fighters who can be attacked (``fainted=False``: only the 気絶): the other side first (the likely targets)."""
    out = [
        (ch, sheet, f)
        for ch, sheet, f in fighters
        if ch.id != me.id and f.status in ((ACTIVE, FAINTED) if fainted else (FAINTED,))
    ]
    out.sort(key=lambda t: _side(t[1]) == _side(mine))
    return out


def _choices(targets: Fighters) -> list[Choice]:
    return [
        Choice(value=ch.id, label=("気絶した" if f.status == FAINTED else "") + ch.name)
        for ch, _, f in targets
    ]


def _weapons(sheet: NsSheet, kind: str) -> list[Choice]:
    ids = sorted(_usable_weapons(sheet), key=lambda w: (w != sheet.equipped, w))
    out = []
    for wid in ids:
        w = sheet.weapon(wid)
        if w is not None and (w.kind == "melee") == (kind == "melee"):
            out.append(Choice(value=wid, label=w.name))
    return out


def _styles(sheet: NsSheet, f: Fighter, weapon_id: str, kind: str) -> list[Choice]:
    """The styles of a weapon usable now (2-6): 切断攻撃 only in 集中状態; none on a 咄嗟のスリケン投擲."""
    w = sheet.weapon(weapon_id)
    equipped = f.equipped or sheet.equipped
    if w is None or (w.id == "shuriken" and equipped not in ("unarmed", "shuriken")):
        return []
    out = []
    for sid in w.styles:
        st = cb.STYLES.get(sid)
        if st is not None and (f.shuchu or not st.needs_shuchu):
            out.append(Choice(value=sid, label=st.name))
    return out


def _hit_label(table: TableState, h: Hit) -> str:
    who = table.characters[h.attacker].name if h.attacker in table.characters else "環境"
    return f"{who}の攻撃（ダメージ{h.damage}）"


def _evasions(
    table: TableState, game: NsGame, ch: Character, sheet: NsSheet, f: Fighter
) -> list[Affordance]:
    """Evasion of the hits pending against ``ch`` (2-11): one hit, or まとめて全弾回避 for a ninja."""
    hits = [h for h in game.pending.values() if h.target == ch.id]
    if not hits:
        return []
    can_roll = sheet.kind != "mob" and f.status == ACTIVE
    top = max(f.evasion_dice, 0) if can_roll else 0
    dice = [
        Choice(value=n, label=f"回避ダイス{n}個" if n else "回避せずに受ける")
        for n in range(top, -1, -1)
    ]
    out = []
    for h in hits:
        choices = dice if h.evadable else dice[-1:]
        out.append(
            Affordance(
                command="nstrpg.evade",
                label=f"{_hit_label(table, h)}を回避する",
                args={"defender": ch.id, "hits": [h.id]},
                choices={"dice": choices},
                group=ch.name,
                primary=True,
            )
        )
    if can_roll and f.emergency_dice > 0:
        for h in hits:
            if h.evadable:
                out.append(
                    Affordance(
                        command="nstrpg.evade",
                        label=f"{_hit_label(table, h)}を緊急回避ダイスも使って回避する",
                        args={"defender": ch.id, "hits": [h.id]},
                        choices={
                            "dice": dice,
                            "emergency_dice": [
                                Choice(value=n, label=f"緊急回避ダイス{n}個")
                                for n in range(1, f.emergency_dice + 1)
                            ],
                        },
                        group=ch.name,
                    )
                )
    if (
        len(hits) > 1
        and sheet.ninja
        and can_roll
        and all(h.evadable for h in hits)
        and _group_ok(hits) is None
    ):
        out.append(
            Affordance(
                command="nstrpg.evade",
                label=f"まとめて全弾回避する（{len(hits)}発）",
                args={"defender": ch.id, "hits": [h.id for h in hits]},
                choices={"dice": dice},
                group=ch.name,
            )
        )
    return out


def _character(
    table: TableState,
    game: NsGame,
    fighters: Fighters,
    nxt: str | None,
    ch: Character,
    sheet: NsSheet,
    f: Fighter,
) -> list[Affordance]:
    """What the controller of ``ch`` may do with it now (``nxt``: whose 手番 is due)."""
    out = _evasions(table, game, ch, sheet, f)
    if f.status != ACTIVE:
        if f.status == FAINTED:
            out.append(
                Affordance(
                    command="nstrpg.check",
                    label="抵抗判定",
                    args={"character_id": ch.id, "purpose": "resistance"},
                    choices={"stat": [Choice(value=s, label=STAT_NAMES[s]) for s in _STATS]},
                    group=ch.name,
                )
            )
            # its 手番 still comes, with only 些細な行動: begin it and end it (NS-82)
            if game.combat and game.turn > 0 and not game.turn_over:
                if game.acting is None and nxt == ch.id:
                    out.append(
                        Affordance(
                            command="nstrpg.begin_turn_of",
                            label="手番を始める（気絶状態: 些細な行動のみ）",
                            args={"character_id": ch.id},
                            group=ch.name,
                            primary=True,
                        )
                    )
                if game.acting == ch.id:
                    out.append(
                        Affordance(
                            command="nstrpg.end_turn_of",
                            label="手番を終える",
                            args={"character_id": ch.id},
                            group=ch.name,
                            primary=not game.pending,
                        )
                    )
        return out
    out.append(
        Affordance(
            command="nstrpg.check",
            label="判定する",
            args={"character_id": ch.id},
            choices={
                "stat": [Choice(value=s, label=f"【{STAT_NAMES[s]}】") for s in _STATS],
                "difficulty": [Choice(value=d, label=d) for d in _DIFFICULTIES],
                "purpose": [Choice(value=p, label=label) for p, label in _PURPOSES.items()],
            },
            group=ch.name,
        )
    )
    acting = game.acting == ch.id
    # in a combat, one attacks in one's own 手番, once: the attack phase's one action (2-6, NS-53)
    may_act = not game.combat or (acting and game.step != "attacked")
    attack_offered = moving = False
    if may_act:
        main = acting and game.step in ("move", "attack")
        every = _targets(fighters, ch, sheet, fainted=True)
        mine = _side(sheet)
        # enemies and allies apart: an ally is never among the quick targets (its own,
        # never primary affordance, labelled as such)
        offers = {
            (kind, ally): _choices(
                [
                    v
                    for v in every
                    if (_side(v[1]) == mine) == ally
                    and may_target(table, game, ch.id, v[0].id, kind)
                ]
            )
            for kind in ("melee", "shoot")
            for ally in (False, True)
        }
        melee_ok = bool(offers["melee", False] and _weapons(sheet, "melee"))
        moving = acting and can_move_now(table, game, ch.id)
        for kind, label in (("melee", "近接攻撃する"), ("shoot", "射撃する")):
            targets = offers[kind, False]
            weapons = _weapons(sheet, kind)
            if acting:  # in one's 手番 the wielded weapon (and shuriken, unarmed), NS-39
                held = f.equipped or sheet.equipped
                weapons = [w for w in weapons if w.value in (held, "shuriken", "unarmed")]
            if targets and weapons:
                attack_offered = True
                out.append(
                    Affordance(
                        command="nstrpg.attack",
                        label=label,
                        args={"attacker": ch.id, "kind": kind},
                        choices={"target": targets, "weapon": weapons},
                        group=ch.name,
                        # melee first; a shot when no one is adjacent and no move is left (2-6)
                        primary=main and (kind == "melee" or not (melee_ok or moving)),
                    )
                )
                for w in weapons:
                    styles = _styles(sheet, f, str(w.value), kind)
                    if styles:
                        out.append(
                            Affordance(
                                command="nstrpg.attack",
                                label=f"{w.label}でスタイルを使って{label.removesuffix('する')}する",
                                args={"attacker": ch.id, "kind": kind, "weapon": w.value},
                                choices={"target": targets, "style": styles},
                                group=ch.name,
                            )
                        )
            friends = offers[kind, True]
            if friends and weapons:
                out.append(
                    Affordance(
                        command="nstrpg.attack",
                        label=f"味方に{label}",
                        args={"attacker": ch.id, "kind": kind},
                        choices={"target": friends, "weapon": weapons},
                        group=ch.name,
                        confirm=f"{ch.name}で味方を{'攻撃' if kind == 'melee' else '射撃'}しますか？",
                    )
                )
        if sheet.ninja:
            victims = _choices(
                [
                    v
                    for v in _targets(fighters, ch, sheet, fainted=False)
                    if NARAKU not in v[1].skills
                    and off_map(table, game, ch.id, v[0].id) is None
                    and map_adjacent(table, game, ch.id, v[0].id) is not False
                ]
            )
            if victims:
                out.append(
                    Affordance(
                        command="nstrpg.kaishaku",
                        label="カイシャクする",
                        args={"attacker": ch.id},
                        choices={"target": victims},
                        group=ch.name,
                    )
                )
    last = game.last_roll.get(ch.id)
    if (
        last is not None
        and not last.rerolled
        and sheet.auto().sixth_sense
        and not f.sixth_sense_used
    ):
        if last.kind == "check":
            out.append(
                Affordance(
                    command="nstrpg.reroll",
                    label="●ニンジャ第六感で振り直す",
                    args={"character_id": ch.id},
                    group=ch.name,
                )
            )
        else:
            memo = game.attacks.get(last.ref)
            if memo is not None and not memo.evaded and not last.evaded:
                idx = [
                    Choice(value=i, label=f"{i + 1}回目の攻撃")
                    for i, m in enumerate(memo.rolls)
                    if not m.auto and (m.template.id in game.pending or not m.success)
                ]
                if idx:
                    out.append(
                        Affordance(
                            command="nstrpg.reroll",
                            label="●ニンジャ第六感で攻撃を振り直す",
                            args={"character_id": ch.id},
                            choices={"index": idx},
                            group=ch.name,
                        )
                    )
    if game.combat and game.turn > 0 and not game.turn_over:
        if game.acting is None and nxt == ch.id:
            out.append(
                Affordance(
                    command="nstrpg.begin_turn_of",
                    label="手番を始める",
                    args={"character_id": ch.id},
                    choices={
                        "shuchu": [
                            Choice(value=False, label="通常"),
                            Choice(value=True, label="集中・移動フェイズなし"),
                        ]
                    },
                    group=ch.name,
                    primary=True,
                )
            )
        if acting:
            out.append(
                Affordance(
                    command="nstrpg.end_turn_of",
                    label="手番を終える",
                    args={"character_id": ch.id},
                    group=ch.name,
                    primary=not game.pending
                    and (game.step == "attacked" or not (attack_offered or moving)),
                )
            )
    return out


def _barrages(table: TableState, game: NsGame) -> list[Affordance]:
    """弾幕発生 on pending mob shots (NS-76): all of one target's at once for a ninja, else one by one."""
    by_target: dict[str, list[Hit]] = {}
    for h in game.pending.values():
        if h.from_mob and h.kind == "shoot":
            by_target.setdefault(h.target, []).append(h)
    divisors = [Choice(value=d, label=f"÷{d}") for d in (3, 6, 12)]
    out = []
    for target, hits in by_target.items():
        if target not in table.characters:
            continue
        ninja = bool(sheet_of(table.characters[target].sheet).ninja)
        groups = (
            [hits] if ninja and len(hits) > 1 and _group_ok(hits) is None else [[h] for h in hits]
        )
        for g in groups:
            out.append(
                Affordance(
                    command="nstrpg.barrage",
                    label=f"弾幕発生（{table.characters[target].name}へ{len(g)}発）",
                    args={"hits": [h.id for h in g]},
                    choices={"divisor": divisors},
                    group="GM",
                )
            )
    return out


def _side_out(game: NsGame, fighters: Fighters) -> bool:
    """One side has nobody able to act (NS-43, NS-44)."""
    able = {_side(sheet) for _, sheet, f in fighters if f.status == ACTIVE}
    return len(able) < 2


def _gm(table: TableState, game: NsGame, fighters: Fighters) -> list[Affordance]:
    """The GM's own actions: the sequence, damage, DKK and Wasshoi!, mobs."""
    on_map = [
        Choice(value=ch.id, label=ch.name) for ch, _, f in fighters if f.status in (ACTIVE, FAINTED)
    ]
    ninjas = [
        Choice(value=ch.id, label=ch.name)
        for ch, sheet, f in fighters
        if sheet.ninja and f.status in (ACTIVE, FAINTED)
    ]
    out: list[Affordance] = []
    G = "GM"
    if not game.combat:
        out.append(
            Affordance(
                command="nstrpg.start_combat",
                label="戦闘を始める",
                group=G,
                primary=len(on_map) >= 2,
            )
        )
        out.append(Affordance(command="nstrpg.start_scenario", label="シナリオを始める", group=G))
        out.append(Affordance(command="nstrpg.end_scenario", label="シナリオを終える", group=G))
    else:
        phase, _ = _phase(table, game, fighters)
        end_step = te.step(table, game)  # the ターン終了フェイズ's steps in order (NS-42)
        if end_step == "effects":
            out.append(
                Affordance(
                    command="nstrpg.resolve_effects",
                    label="継続系の効果を処理する",
                    group=G,
                    primary=not game.pending,
                )
            )
        if (game.turn == 0 or game.turn_over) and end_step != "wasshoi":
            out.append(
                Affordance(
                    command="nstrpg.start_turn",
                    label=f"ターン{game.turn + 1}を始める",
                    group=G,
                    primary=(game.turn == 0 and placement_due(table, game) is None)
                    or (game.turn_over and not _side_out(game, fighters)),
                )
            )
        elif phase == "turn_end":  # every 手番 over (NS-30): end_turn is refused before
            levels = cb.ATMOSPHERE_LEVELS[cb.ATMOSPHERE_LEVELS.index(game.atmosphere) :]
            out.append(
                Affordance(
                    command="nstrpg.end_turn",
                    label=f"ターン{game.turn}を終える",
                    choices={
                        "atmosphere": [
                            Choice(value=a, label=f"アトモスフィア: {_ATM[a]}") for a in levels
                        ]
                    },
                    group=G,
                    primary=end_step == "abilities" and not game.pending,
                )
            )
        out.append(Affordance(command="nstrpg.end_phase", label="フェイズを終える", group=G))
        if end_step != "wasshoi":
            out.append(
                Affordance(
                    command="nstrpg.end_combat",
                    label="戦闘を終える",
                    group=G,
                    # every enemy (or every PC) defeated: the combat ends at the turn's end (NS-43, G-NS-23)
                    primary=game.turn_over and _side_out(game, fighters),
                )
            )
        if end_step not in ("effects", "abilities"):  # Wasshoi! at the very end (2-15)
            out.append(
                Affordance(
                    command="nstrpg.wasshoi",
                    label="Wasshoi!判定",
                    group=G,
                    primary=game.wasshoi_due and game.acting is None,
                )
            )
    out.extend(_barrages(table, game))
    if game.pending:
        hits = [
            Choice(
                value=h.id,
                label=f"{_hit_label(table, h)}→{table.characters[h.target].name if h.target in table.characters else h.target}",
            )
            for h in game.pending.values()
        ]
        out.append(
            Affordance(
                command="nstrpg.override_hit",
                label="回避待ちの攻撃を取り消す",
                args={"cancel": True},
                choices={"hit": hits},
                group=G,
            )
        )
    if on_map:
        out.append(
            Affordance(
                command="nstrpg.inflict",
                label="ダメージを与える",
                choices={"target": on_map},
                group=G,
            )
        )
    if len(on_map) >= 2:
        out.append(
            Affordance(
                command="nstrpg.opposed_check",
                label="対抗判定",
                choices={
                    "sides": [
                        Choice(value={"character_id": c.value}, label=c.label) for c in on_map
                    ]
                },
                group=G,
            )
        )
    if ninjas:
        out.append(
            Affordance(
                command="nstrpg.gain_dkk",
                label="【DKK】を与える（目安）",
                choices={
                    "character_id": ninjas,
                    "guide": [Choice(value=g.id, label=g.text) for g in dk.DKK_GUIDE.values()],
                },
                group=G,
            )
        )
        out.append(
            Affordance(
                command="nstrpg.gain_dkk",
                label="【DKK】を与える",
                choices={
                    "character_id": ninjas,
                    "amount": [Choice(value=n, label=f"+{n}") for n in (1, 2, 3)],
                },
                group=G,
            )
        )
    if entry_done(game):
        pass  # 【殺】 is on the map: no entry left to reroll or choose (NS-100)
    elif game.entry_rerolls == 0 and not entry_possible(table, game):
        out.append(
            Affordance(command="nstrpg.reroll_entry", label="エントリー決定表を振り直す", group=G)
        )
    elif game.entry_rerolls >= 1:
        out.append(
            Affordance(
                command="nstrpg.reroll_entry",
                label="エントリーの出目を決める",
                choices={
                    "choose": [
                        Choice(value=r.number, label=f"{r.number}: {r.title}")
                        for r in dk.ENTRY_TABLE
                    ]
                },
                group=G,
            )
        )
    out.append(
        Affordance(
            command="nstrpg.create_mobs",
            label="モブ敵を作る（クローンヤクザ）",
            args={
                "name": "クローンヤクザ",
                "sheet": {"kind": "mob", "karate": 2, "neuron": 1, "wazamae": 2, "tairyoku": 1},
            },
            choices={"count": [Choice(value=n, label=f"{n}人") for n in (1, 2, 3, 5)]},
            group=G,
        )
    )
    if not any(ch.name == "ニンジャスレイヤー" for ch, _, _ in fighters):
        out.append(
            Affordance(
                command="nstrpg.create_ninja_slayer", label="ニンジャスレイヤーを出す", group=G
            )
        )
    return out


def affordances(
    table: TableState, viewer: Viewer, options: NsOptions | None = None
) -> list[Affordance]:
    """The nstrpg actions ``viewer`` may take now (the core adds chat, dice and characters).

    A player gets the actions of their own characters; a GM those of every
    character and the GM's own. ``primary`` marks the expected next step: the
    evasion of a pending hit, 手番開始 of the next in order, the acting
    character's attack and then 手番終了, then the GM's ``end_turn`` (NSTRPG 2-2 … 2-11).
    """
    if (
        viewer.member_id is None
        or viewer.member_id not in table.members
        or viewer.role not in ("gm", "player")
    ):
        return []
    game: NsGame = table.game or NsGame()
    out: list[Affordance] = []
    fighters = _fighters(table)
    nxt = (
        _next(table, game, fighters, options)
        if game.combat and game.acting is None and not game.turn_over
        else None
    )
    for ch, sheet, f in fighters:
        if _controls(table, viewer, ch):
            out.extend(_character(table, game, fighters, nxt, ch, sheet, f))
            out.extend(map_affordances(table, game, ch, viewer.is_gm))
    if viewer.is_gm:
        out.extend(_gm(table, game, fighters))
        out.extend(gm_map_affordances(table, game))
    return out
