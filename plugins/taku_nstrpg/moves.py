"""``decide`` of the map commands, and the questions the other rules ask the map.

:func:`move_now` says which move a character may make now (style and limits, NS-46 …
NS-52); :func:`decide_map` validates and records the map commands of
:mod:`taku_nstrpg.mapping`; :func:`on_map` answers adjacency, sight and range for the
attack phase (``None`` when the map cannot: no map, or someone not on it; then the
command's own ``adjacent`` flag and the GM decide, as without a map).
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core import kit
from taku.core.ruleset import Context
from taku.core.table import TableState
from taku.errors import InvalidCommand
from taku_nstrpg import board as bd
from taku_nstrpg import mapping as mp
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.abilities import ability_info
from taku_nstrpg.damage import ACTIVE
from taku_nstrpg.dkk import d3
from taku_nstrpg.state import NsGame, NsSheet, current, fighter_from_sheet

__all__ = ["decide_map", "enemies_of", "move_now", "on_map", "side"]

reject = kit.rejecter("nstrpg")

_S25 = "NSTRPG 2-5 移動フェイズ"
_WHY = {
    "empty_path": ("経路が空", _S25),
    "too_far": ("移動できるマス数を超えている（【脚力】、連続側転は2倍、最大20マス）", _S25),
    "off_map": ("マップの外には出られない", _S25),
    "not_a_step": ("経路のマスが隣り合っていない", _S25),
    "diagonal": ("通常移動ではナナメに移動できない", _S25 + " 通常移動"),
    "wall": ("壁は通れない", _S25),
    "enemy": ("通常移動では敵のいるマスに入れない", _S25 + " 通常移動"),
    "obstacle": ("通常移動では障害物のあるマスに入れない", _S25 + " 通常移動"),
    "blocked": (
        "ボス級の敵にブロックされたドア・窓は通れない",
        _S25 + " ブロックされた窓やドアの通過",
    ),
    "door_twice": ("同じドアを2回以上通過できない", _S25 + " 通常移動"),
    "occupied": ("他のキャラクターや障害物のあるマスで移動を終えられない", _S25 + " 通常移動"),
    "same_square": ("連続側転では移動開始マスで移動を終えられない", _S25 + " 連続側転"),
}


def side(sheet: NsSheet) -> int:
    """0: the player side (PCs), 1: the enemies (bosses and mobs)."""
    return 0 if sheet.kind == "pc" else 1


def _sheet(table: TableState, cid: str) -> NsSheet:
    return sheet_of(table.characters[cid].sheet)


def _alive(game: NsGame, cid: str) -> bool:
    f = game.fighters.get(cid)
    return f is None or f.status in (ACTIVE, "fainted")


def enemies_of(table: TableState, game: NsGame, cid: str) -> tuple[set[bd.Pos], set[bd.Pos]]:
    """Squares of ``cid``'s enemies and of its other allies on the map (the 気絶 included:
    they lie on their square; the 爆発四散 do not)."""
    b = game.board
    if b is None or cid not in table.characters:
        return set(), set()
    mine = side(_sheet(table, cid))
    foes, friends = set(), set()
    for k, p in b.positions.items():
        if k == cid or k not in table.characters or not _alive(game, k):
            continue
        (foes if side(_sheet(table, k)) != mine else friends).add(p)
    return foes, friends


def _bosses(table: TableState, game: NsGame, cid: str) -> set[bd.Pos]:
    b = game.board
    mine = side(_sheet(table, cid))
    out = set()
    for k, p in (b.positions if b else {}).items():
        if k in table.characters and k != cid:
            s = _sheet(table, k)
            f = game.fighters.get(k)
            if s.kind == "boss" and side(s) != mine and (f is None or f.status == ACTIVE):
                out.add(p)  # a 気絶 boss (worse than 拘束) does not block (NS-51)
    return out


def move_now(table: TableState, game: NsGame, cid: str) -> tuple[str, bd.MoveRules] | str:
    """The move ``cid`` may make now: ``(style, rules)``, or the reason id it may not.

    In a combat turn only the 手番 character moves: once in its move phase (通常移動 up to
    【脚力】, or 連続側転移動 up to twice 【脚力】 after a successful 連続側転判定; a failed one
    allows no move), and the D3 squares of 全力移動. Outside a turn (探索シーケンス) 【脚力】
    is ignored (NS-48): any normal move up to 20 squares.
    """
    b = game.board
    if b is None or b.map is None:
        return "no_map"
    if cid not in b.positions:
        return "not_placed"
    sheet = _sheet(table, cid)
    f = game.fighters.get(cid) or fighter_from_sheet(sheet)
    if f.status != ACTIVE:
        return "cannot_act"
    foes, friends = enemies_of(table, game, cid)
    rules = bd.MoveRules(
        limit=bd.MAX_MOVE,
        enemies=frozenset(foes),
        allies=frozenset(friends),
        bosses=frozenset(_bosses(table, game, cid)),
    )
    if not game.combat or game.turn == 0:
        return "normal", rules
    if game.acting != cid:
        return "not_your_turn"
    legs = current(sheet, f, "kyakuryoku")
    if cid in b.full_move:
        return "full", msgspec.structs.replace(rules, limit=b.full_move[cid])
    if game.step != "move":
        return "not_move_phase"
    if cid in b.moved:
        return "already_moved"
    if f.sokuten:
        if cid not in b.sokuten:
            return "sokuten_failed"
        return "sokuten", msgspec.structs.replace(
            rules, limit=2 * legs, sokuten=True, sixes=b.sokuten[cid]
        )
    return "normal", msgspec.structs.replace(rules, limit=legs)


_NOW = {
    "no_map": ("マップがない", "NSTRPG 2-5 移動フェイズ"),
    "not_placed": ("そのキャラクターはマップ上にいない", "NSTRPG 2-5 移動フェイズ"),
    "cannot_act": ("そのキャラクターは行動できない", "NSTRPG 2-12 気絶状態"),
    "not_your_turn": ("自分の手番ではない", "NSTRPG 2-3 イニシアチブと手番"),
    "not_move_phase": ("移動フェイズではない（集中状態、または攻撃フェイズに入った）", _S25),
    "already_moved": ("この移動フェイズの移動（1行動）は済んでいる", _S25),
    "sokuten_failed": (
        "連続側転判定に失敗したので、この移動フェイズは1マスも移動できない",
        _S25 + " 連続側転",
    ),
}


def _refuse(reason: str) -> None:
    message, section = _NOW.get(reason) or _WHY.get(reason) or ("移動できない", _S25)
    reject(reason, message, section)


def _square(m: bd.NsMap, p: Any) -> bd.Pos:
    x, y = p
    if not m.inside((x, y)):
        raise InvalidCommand(
            f"square {p} is off the map", code="command/invalid_square", detail="マップの外のマス"
        )
    return (x, y)


def decide_map(acc: Any, cmd: Any, ctx: Context[Any]) -> None:
    """The events of a map command (see :mod:`taku_nstrpg.mapping`)."""
    table: TableState = acc.table
    game: NsGame = acc.game
    match cmd:
        case mp.SetMap(text=text, sample=sample, name=name, reason=reason):
            if sample is not None:
                m: bd.NsMap | None = bd.SAMPLE_MAPS[sample]
                if name:
                    m = msgspec.structs.replace(m, name=name)
            elif text.strip():
                try:
                    m = bd.parse_map(text, name)
                except ValueError as e:
                    raise InvalidCommand(
                        f"bad map: {e}", code="command/invalid_map", detail=str(e)
                    ) from None
            else:
                m = None
            acc.add(mp.MapSet(map=m, sample=sample, reason=reason[:500]))
        case mp.EditMap(cells=cells, reason=reason):
            b = game.board
            if b is None or b.map is None:
                _refuse("no_map")
            for c in cells:
                _square(b.map, (c.x, c.y))
            acc.add(mp.MapEdited(cells=tuple(cells), reason=reason[:500]))
        case mp.Place(character_id=cid, at=at, reason=reason):
            kit.character(table, cid)
            b = game.board
            if b is None or b.map is None:
                _refuse("no_map")
            placing = game.combat and game.turn == 0 and cid not in b.positions
            if not ctx.is_gm and not placing:
                mp.gm_only(ctx, cmd, "配置の変更")
            if not ctx.is_gm:
                due = placement_due(table, game)
                if due != cid:
                    reject(
                        "not_your_placement",
                        "配置はイニシアチブの低い順（NS-33）",
                        "NSTRPG 2-3 配置時は逆イニシアチブ",
                    )
            if at is not None:
                p = _square(b.map, at)
                if b.map.cell(p) in "#O":
                    reject("occupied", "壁や障害物の上には置けない", _S25)
                if any(q == p and k != cid for k, q in b.positions.items() if _alive(game, k)):
                    reject("occupied", "そのマスには他のキャラクターがいる", _S25)
                at = p
            acc.add(
                mp.Placed(
                    character_id=cid,
                    at=at,
                    previous=b.positions.get(cid),
                    by_gm=ctx.is_gm,
                    reason=reason[:500],
                )
            )
        case mp.Move(character_id=cid, path=path, to=to):
            kit.character(table, cid)
            now = move_now(table, game, cid)
            if isinstance(now, str):
                _refuse(now)
            style, rules = now  # type: ignore[misc]
            b = game.board
            assert b is not None and b.map is not None
            start = b.positions[cid]
            steps = [_square(b.map, p) for p in path]
            if not steps:
                if to is None:
                    _refuse("empty_path")
                goal = _square(b.map, to)
                options = bd.reachable(b.map, start, rules)
                if goal not in options:
                    reject("unreachable", "そのマスへは今は移動できない", _S25)
                steps = options[goal]
            why = bd.check_path(b.map, start, steps, rules)
            if why is not None:
                _refuse(why)
            acc.add(mp.Moved(character_id=cid, start=start, path=tuple(steps), style=style))
        case mp.FullMove(character_id=cid):
            kit.character(table, cid)
            f = game.fighters.get(cid)
            if f is not None and f.status != ACTIVE:
                _refuse("cannot_act")
            if game.combat and game.turn > 0:
                if game.acting != cid:
                    _refuse("not_your_turn")
                if game.step not in ("move", "attack"):
                    reject(
                        "no_action_left",
                        "攻撃フェイズの行動（1行動）は済んでいる",
                        "NSTRPG 2-6 攻撃フェイズ",
                    )
            r = ctx.dice.roll(1, 6)
            acc.add(mp.FullMoveRolled(character_id=cid, roll=r, squares=d3(r.faces[0])))
        case mp.UseAbility(character_id=cid, ability=name, instant=instant, target=target):
            kit.character(table, cid)
            _use_ability(acc, cid, name, instant, target)


def placement_due(table: TableState, game: NsGame) -> str | None:
    """Sudden combat: whose placement is due (reverse 手番 order, NS-33, G-NS-25): the
    first fighter in placement order not yet on the map; ``None`` when all are placed."""
    from taku_nstrpg.play import order  # the 手番 order lives with ``turn``

    b = game.board
    if b is None or b.map is None:
        return None
    for cid, _ in reversed(order(table)):
        f = game.fighters.get(cid)
        if cid not in b.positions and (f is None or f.status == ACTIVE):
            return cid
    return None


def turn_key(game: NsGame, cid: str, duel: bool) -> int:
    """What 『2ターン連続使用不可』 counts: the turn, or in 一騎打ち the 手番 (NS-34)."""
    if duel:
        b = game.board
        return b.turns_taken.get(cid, 0) if b else 0
    return game.turn


def _use_ability(acc: Any, cid: str, name: str, instant: bool, target: str | None) -> None:
    from taku_nstrpg.play import duel_now

    game: NsGame = acc.game
    table: TableState = acc.table
    sheet = _sheet(table, cid)
    info = ability_info(sheet, name)
    b = game.board or mp.Board()
    duel = duel_now(table, game, acc.options)
    key = turn_key(game, cid, duel)
    if info.cooldown and game.combat:
        last = b.used.get(cid, {}).get(name)
        if last is not None and key - last <= 1:
            reject(
                "cooldown",
                f"{name}は『2ターン連続使用不可』"
                + ("（一騎打ちでは2手番連続使用不可）" if duel else ""),
                "NSTRPG 2-3 一騎打ち" if duel else "NSTRPG 2-16",
            )
    if info.needs_still and game.combat and game.turn > 0 and cid in b.moved:
        reject("moved", f"{name}は移動していない手番にだけ使える", "NSTRPG 2-15 ニンジャスレイヤー")
    if instant and game.combat and b.instant.get(cid) == game.phase:
        reject("one_instant", "瞬時行動は1フェイズに1つまで", "NSTRPG 2-2 手番とフェイズ")
    acc.add(
        mp.AbilityUsed(character_id=cid, ability=name, turn=key, instant=instant, target=target)
    )


def on_map(table: TableState, game: NsGame, a: str, t: str) -> bd.Pos | None:
    """``t``'s square when both ``a`` and ``t`` are on the map (else ``None``)."""
    b = game.board
    if b is None or b.map is None or a not in b.positions or t not in b.positions:
        return None
    return b.positions[t]
