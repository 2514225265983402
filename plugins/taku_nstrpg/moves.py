"""``decide`` of the map commands, and the questions the other rules ask the map.

:func:`move_now` says which move a character may make now (style and limits, NS-46 …
NS-52); :func:`decide_map` validates and records the map commands of
:mod:`taku_nstrpg.mapping`; :func:`on_map` answers adjacency, sight and range for the
attack phase (``None`` when the map cannot: no map, or someone not on it; then the
command's own ``adjacent`` flag and the GM decide, as without a map).
"""

from __future__ import annotations

from typing import Any, NoReturn

import msgspec

from taku.core import kit
from taku.core.ruleset import Context
from taku.core.table import TableState
from taku_nstrpg import board as bd
from taku_nstrpg import mapping as mp
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.abilities import ability_info, has_ability, is_known_ability
from taku_nstrpg.damage import ACTIVE, FAINTED
from taku_nstrpg.dkk import d3
from taku_nstrpg.state import NsGame, NsSheet, current, fighter_from_sheet

__all__ = ["decide_map", "enemies_of", "move_now", "off_map", "on_map", "require_on_map", "side"]

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
    foes: set[bd.Pos] = set()
    friends: set[bd.Pos] = set()
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


def move_now(table: TableState, game: NsGame, cid: str) -> tuple[mp.MoveStyle, bd.MoveRules] | str:
    """The move ``cid`` may make now: ``(style, rules)``, or the reason id it may not.

    In a combat turn only the 手番 character moves: once in its move phase (通常移動 up to
    【脚力】, or 連続側転移動 up to twice 【脚力】 after a successful 連続側転判定; a failed one
    allows no move), and the D3 squares of 全力移動; before the first turn nobody moves (the GM
    places). Outside a combat (探索シーケンス) 【脚力】 is ignored (NS-48): any normal move up
    to 20 squares.
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
    if not game.combat:
        return "normal", rules
    if game.acting != cid:  # also before the first turn: no 手番 yet (the GM places, NS-33)
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


def _refuse(reason: str) -> NoReturn:
    message, section = _NOW.get(reason) or _WHY.get(reason) or ("移動できない", _S25)
    reject(reason, message, section)


def _square(m: bd.NsMap, p: Any) -> bd.Pos:
    x, y = p
    if not m.inside((x, y)):
        _refuse("off_map")
    return (x, y)


def decide_map(acc: Any, cmd: Any, ctx: Context[Any]) -> None:
    """The events of a map command (see :mod:`taku_nstrpg.mapping`)."""
    table: TableState = acc.table
    game: NsGame = acc.game
    match cmd:
        case mp.SetMap(text=text, sample=sample, name=name, reason=reason):
            if sample is not None:
                sample_map = bd.SAMPLE_MAPS[sample]
                m: bd.NsMap | None = (
                    msgspec.structs.replace(sample_map, name=name) if name else sample_map
                )
            elif text.strip():
                try:
                    m = bd.parse_map(text, name)
                except ValueError as e:
                    reject("bad_map", str(e), "NSTRPG 2-5 移動フェイズ（マップ）")
            else:
                m = None
            acc.add(mp.MapSet(map=m, sample=sample, reason=reason[:500]))
        case mp.EditMap(cells=cells, reason=reason):
            b = game.board
            if b is None or b.map is None:
                _refuse("no_map")
            standing = {tuple(p) for k, p in b.positions.items() if _alive(game, k)}
            for c in cells:
                _square(b.map, (c.x, c.y))
                if c.cell in "#O" and (c.x, c.y) in standing:
                    # nobody is left inside a wall (set_map drops such positions; 2-5)
                    reject(
                        "occupied",
                        f"{c.x + 1}列{c.y + 1}行にはキャラクターがいるので壁や障害物にできない"
                        "（先にキャラクターを動かす）",
                        _S25,
                    )
            acc.add(mp.MapEdited(cells=tuple(cells), reason=reason[:500]))
        case mp.Place(character_id=cid, at=at, reason=reason):
            kit.character(table, cid)
            b = game.board
            if b is None or b.map is None:
                _refuse("no_map")
            placing = game.combat and game.turn == 0 and cid not in b.positions
            if not ctx.is_gm and not placing:
                from taku_nstrpg.decider import _gm_field

                _gm_field(ctx, cmd, "配置の変更")
            if not ctx.is_gm:
                due = placement_due(table, game)
                if due != cid:
                    reject(
                        "not_your_placement",
                        "配置はイニシアチブの低い順（NS-33）",
                        "NSTRPG 2-3 配置時は逆イニシアチブ",
                    )
            if at is None:
                _window_escape(game, b, cid)
            if at is not None:
                p = _square(b.map, at)
                if b.map.cell(p) in "#O":
                    reject("blocked_square", "壁や障害物の上には置けない", _S25)
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
            style, rules = now
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
            if game.combat:  # before the first turn too: nobody has a 手番 yet
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
        case mp.PlaceEntry():
            _place_entry(acc, cmd, ctx)
        case mp.SetPcOrder(order=ids):
            for k in ids:
                if k not in table.characters or _sheet(table, k).kind != "pc":
                    reject(
                        "bad_pc_order",
                        "PCのIDを並べること",
                        "NSTRPG 2-3 イニシアチブが同値だった場合",
                    )
            if len(set(ids)) != len(ids):
                reject("bad_pc_order", "同じPCが2回ある", "NSTRPG 2-3 イニシアチブが同値だった場合")
            kept = [k for k in ids if k in game.pc_rank]
            if game.combat and kept != [k for k in game.pc_rank if k in table.characters]:
                # 「最初に1回だけ順番を決め、それを戦闘終了まで維持する」(NS-31): in a combat
                # the order already agreed stays; only PCs not yet in it are added
                reject(
                    "pc_order_kept",
                    "決めた同値のPCの順番は戦闘終了まで変えられない（新たに同値になったPCを加えるだけ）",
                    "NSTRPG 2-3 イニシアチブが同値だった場合",
                )
            acc.add(mp.PcOrderSet(order=tuple(ids)))
        case mp.UseAbility(character_id=cid, ability=name, instant=instant, target=target):
            kit.character(table, cid)
            _use_ability(acc, cid, name, instant, target, ctx)


def _window_escape(game: NsGame, b: mp.Board, cid: str) -> None:
    """Taking an active character off the map from a window square is an escape through it;
    refused for the window 【殺】 broke through (entry row 3) while he is next to it (NS-99, 2-15)."""
    at = b.positions.get(cid)
    f = game.fighters.get(cid)
    if at is None or at not in b.sealed_windows or f is None or f.status != ACTIVE:
        return
    s = b.positions.get(b.slayer) if b.slayer is not None and _alive(game, b.slayer) else None
    if s is not None and bd.distance(s, at) <= 1:
        reject(
            "window_sealed",
            f"{bd.square_name(at)}の窓は【殺】が隣接している間は脱出に使えない",
            "NSTRPG 2-15 死神のエントリー決定表 出目3",
        )


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


def _use_ability(
    acc: Any, cid: str, name: str, instant: bool, target: str | None, ctx: Context[Any]
) -> None:
    from taku_nstrpg.play import duel_now

    game: NsGame = acc.game
    table: TableState = acc.table
    sheet = _sheet(table, cid)
    f = game.fighters.get(cid)
    if f is not None and f.status not in (ACTIVE, FAINTED):
        _refuse("cannot_act")
    if f is not None and f.status == FAINTED and not ctx.is_gm:
        # 気絶状態: only 些細な行動 "特殊な能力を持たない限り" (NS-82): the GM decides
        # whether an ability says otherwise and uses it for the character
        reject(
            "cannot_act",
            f"{table.characters[cid].name}は気絶状態：能力はマスターの判断で使う",
            "NSTRPG 2-12 気絶状態",
        )
    if is_known_ability(name) and not has_ability(sheet, name):
        # the ◉ abilities with rules (ABILITIES) only for who has them: ◉ヘルタツマキ is
        # Ninja Slayer's (2-15); any other name (an item, a 瞬時行動) is only recorded
        reject(
            "no_ability",
            f"{table.characters[cid].name}は{name}を持っていない（シートのスキルにない）",
            "NSTRPG 2-16",
        )
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
    if info.area or info.damage_d6:
        _signature_shot(acc, cid, info, target, key, ctx)
        return
    acc.add(
        mp.AbilityUsed(character_id=cid, ability=name, turn=key, instant=instant, target=target)
    )


def _signature_shot(
    acc: Any, cid: str, info: Any, target: str | None, key: int, ctx: Context[Any]
) -> None:
    """◉ヘルタツマキ / ◉ツヨイ・スリケン (2-15): a 射撃判定 with 【ワザマエ】 (連射1 fixed) for
    1 【精神力】 as the attack-phase action; on a success everyone in the 5×5 around him
    (friend and foe alike, an area attack) or the one target in sight (not adjacent) takes
    the ability's damage: 1 (回避:NORMAL), 2 (回避:HARD) on a 【6,6】; D6 (回避:U-HARD)."""
    from taku_nstrpg import checks as ck
    from taku_nstrpg import events as ev
    from taku_nstrpg.abilities import area_targets
    from taku_nstrpg.decider import _land_or_wait, _one_action
    from taku_nstrpg.state import Hit

    table: TableState = acc.table
    game: NsGame = acc.game
    sheet = _sheet(table, cid)
    f = game.fighters.get(cid) or fighter_from_sheet(sheet)
    S = "NSTRPG 2-15 ニンジャスレイヤーの特殊スキル"
    if f.status != ACTIVE:
        _refuse("cannot_act")
    if game.combat and game.turn > 0 and game.acting != cid:
        _refuse("not_your_turn")
    _one_action(acc, cid)
    if f.seishin < info.seishin:
        reject("no_seishin", "【精神力】が足りない", S)
    b = game.board
    if info.area:
        if b is None or b.map is None:
            _refuse("no_map")
        if cid not in b.positions:
            _refuse("not_placed")
        targets = [k for k in area_targets(b.positions, cid, info.area) if _alive(game, k)]
    else:
        if target is None:
            reject(
                "no_target",
                f"{info.name}には対象が要る",
                "NSTRPG 2-15 ニンジャスレイヤーの特殊スキル",
            )
        kit.character(table, target)
        require_on_map(table, game, cid, target)
        near = map_adjacent(table, game, cid, target)
        if near:
            reject("adjacent_target", "隣接している敵は射撃のターゲットに選べない", S)
        if near is not None:
            check_shot(table, game, cid, target, None)
        targets = [target]
    level = ck.shift(info.difficulty, (-1 if f.shuchu else 0) + (1 if f.sokuten else 0))
    pool = current(sheet, f, "wazamae")
    roll, res = ck.roll_check(ctx.dice, pool, level)
    double = res.success and roll.faces.count(6) >= 2
    damage = info.damage_66 if double and info.damage_66 else info.damage
    evasion = info.evasion_66 if double and info.evasion_66 else info.evasion
    if res.success and info.damage_d6:
        damage = ctx.dice.roll(1, 6).faces[0]
    attack_id = ctx.new_id("a")
    hits = [
        Hit(
            id=f"{attack_id}.{i}",
            attack_id=attack_id,
            attacker=cid,
            target=k,
            kind="shoot",
            damage_kind="shuriken",
            damage=damage,
            evasion_base=evasion,
            adjacent=bool(map_adjacent(table, game, cid, k)),
            area=bool(info.area),
            stat="wazamae",
            faces=roll.faces,
            phase=game.phase,
        )
        for i, k in enumerate(targets if res.success else [])
    ]
    acc.add(
        mp.AbilityUsed(
            character_id=cid, ability=info.name, turn=key, target=target, seishin=info.seishin
        )
    )
    acc.add(
        ev.AttackRolled(
            attack_id=attack_id,
            attacker=cid,
            kind="shoot",
            weapon="shuriken",
            stat="wazamae",
            pool=pool,
            rolls=(
                ev.AttackRoll(
                    index=0,
                    target=targets[0] if targets else cid,
                    dice=pool,
                    difficulty=level,
                    successes=res.successes,
                    success=res.success,
                    roll=roll,
                ),
            ),
            hits=tuple(hits),
            area=tuple(targets) if info.area else (),
        )
    )
    _land_or_wait(acc, hits, ctx, acc.options)


def on_map(table: TableState, game: NsGame, a: str, t: str) -> bd.Pos | None:
    """``t``'s square when both ``a`` and ``t`` are on the map (else ``None``)."""
    b = game.board
    if b is None or b.map is None or a not in b.positions or t not in b.positions:
        return None
    return b.positions[t]


def off_map(table: TableState, game: NsGame, *ids: str) -> str | None:
    """The first of ``ids`` not on the table's map (``None``: all on it, or no map)."""
    b = game.board
    if b is None or b.map is None:
        return None
    return next((k for k in ids if k not in b.positions), None)


def require_on_map(table: TableState, game: NsGame, *ids: str) -> None:
    """On a table with a map, adjacency, sight and range come from positions only (2-6):
    an attack from or at a character off the map is refused (``not_placed``), whatever
    ``adjacent`` flag the command carries."""
    k = off_map(table, game, *ids)
    if k is not None:
        name = table.characters[k].name if k in table.characters else k
        reject(
            "not_placed",
            f"{name}はマップ上にいない（マップのある卓では隣接・視線・射程は位置で決まる）",
            "NSTRPG 2-6 視線と射程の調べ方",
        )


def map_adjacent(table: TableState, game: NsGame, a: str, t: str) -> bool | None:
    """Whether ``t`` is adjacent to ``a`` on the map (2-6); ``None`` when the map cannot say."""
    p = on_map(table, game, a, t)
    if p is None:
        return None
    b = game.board
    assert b is not None
    return bd.adjacent(b.map, b.positions[a], p)


def check_shot(table: TableState, game: NsGame, a: str, t: str, weapon: Any) -> None:
    """A shot from ``a`` at ``t`` on the map: line of sight (NS-60: the shooter's enemies
    block it, its allies do not) and the weapon's 射程 (NS-61); rejects otherwise."""
    p = on_map(table, game, a, t)
    b = game.board
    if p is None or b is None:
        return
    foes, _ = enemies_of(table, game, a)
    if not bd.line_of_sight(b.map, b.positions[a], p, foes):
        reject("no_sight", "ターゲットへの視線が通っていない", "NSTRPG 2-6 視線と射程の調べ方")
    reach = getattr(weapon, "range", None)
    if reach is not None and bd.distance(b.positions[a], p) > reach:
        reject(
            "out_of_range",
            f"射程{reach}マスの外（{bd.distance(b.positions[a], p)}マス）",
            "NSTRPG 2-6 視線と射程の調べ方",
        )


def knockback_of(table: TableState, game: NsGame, event: Any) -> mp.KnockedBack | None:
    """The 弾き飛ばし of a ``damage_resolved`` with ``knockback`` squares on the map (NS-93):
    straight away from the attacker, ignoring characters, stopping at a wall; ``None`` when
    the map cannot place it (no map, someone off the map, the target gone)."""
    src, cid, n = event.source, event.target, event.knockback
    if n <= 0 or src is None:
        return None
    p = on_map(table, game, src, cid)
    b = game.board
    f = game.fighters.get(cid)
    if p is None or b is None or b.map is None or f is None or f.status not in (ACTIVE, "fainted"):
        return None
    others = [q for k, q in b.positions.items() if k != cid and _alive(game, k)]
    path, wall, end = bd.knockback(b.map, b.positions[src], p, n, others)
    return mp.KnockedBack(character_id=cid, start=p, path=tuple(path), end=end, wall=wall)


def may_target(table: TableState, game: NsGame, a: str, t: str, kind: str) -> bool:
    """Whether the map allows ``a`` to attack ``t`` with ``kind`` (``melee``: adjacent;
    ``shoot``: not adjacent, in line of sight); ``True`` when the map cannot say."""
    if off_map(table, game, a, t) is not None:
        return False  # a map decides by positions: nobody off it is reachable (2-6)
    near = map_adjacent(table, game, a, t)
    if near is None:
        return True
    if kind == "melee":
        return near
    if near:
        return False
    b = game.board
    assert b is not None
    foes, _ = enemies_of(table, game, a)
    return bd.line_of_sight(b.map, b.positions[a], b.positions[t], foes)


def entry_candidates(table: TableState, game: NsGame, slayer: str | None = None) -> list[bd.Pos]:
    """The squares 【殺】 may enter on for the pending entry row (NS-99), nearest first;
    ``[]`` when there is no map, no pending row, or the row is impossible here."""
    b = game.board
    if b is None or b.map is None or not b.entry_row or b.entry_target not in b.positions:
        return []
    target = b.positions[b.entry_target]
    taken = [p for k, p in b.positions.items() if k != slayer and _alive(game, k)]
    npcs = [
        p
        for k, p in b.positions.items()
        if k in table.characters
        and k not in (slayer, b.entry_target)
        and _alive(game, k)
        and _sheet(table, k).kind != "pc"
        and table.characters[k].name != "ニンジャスレイヤー"
    ]
    return bd.entry_squares(b.map, target, b.entry_row, taken, npcs)


def entry_done(game: NsGame) -> bool:
    """On a map, 【殺】 was placed by the last entry row (``place_entry``): nothing is left to
    reroll or choose (NS-100). Without a map the GM places him by hand: never ``True``."""
    b = game.board
    return game.entry_rerolls >= 0 and b is not None and b.map is not None and not b.entry_row


def entry_possible(table: TableState, game: NsGame) -> bool:
    """A pending entry row can be carried out on this map (no map: the GM judges, ``False``)."""
    return bool(entry_candidates(table, game))


def _place_entry(acc: Any, cmd: mp.PlaceEntry, ctx: Context[Any]) -> None:
    table: TableState = acc.table
    game: NsGame = acc.game
    kit.character(table, cmd.character_id)
    b = game.board
    if b is None or b.map is None:
        _refuse("no_map")
    if not b.entry_row:
        reject("no_entry", "エントリー決定表を振っていない", "NSTRPG 2-15 どう考えても出現不能")
    options = entry_candidates(table, game, cmd.character_id)
    if not options:
        reject(
            "entry_impossible",
            f"エントリー{b.entry_row}はこのマップでは実現できない",
            "NSTRPG 2-15 どう考えても出現不能",
        )
    at = options[0] if cmd.at is None else tuple(cmd.at)
    if at not in options:
        reject(
            "entry_impossible",
            f"そのマスはエントリー{b.entry_row}の位置ではない",
            "NSTRPG 2-15 死神のエントリー決定表",
        )
    if b.entry_row == 6:  # the NPC nearest the target was 【殺】 all along
        for k, p in b.positions.items():
            if p == at and k != cmd.character_id:
                acc.add(
                    mp.Placed(
                        character_id=k, at=None, previous=p, by_gm=True, reason="正体は【殺】だった"
                    )
                )
    acc.add(
        mp.Placed(
            character_id=cmd.character_id,
            at=at,
            previous=b.positions.get(cmd.character_id),
            by_gm=True,
            reason=f"死神のエントリー{b.entry_row}",
            entry=True,
        )
    )


def turn_due(table: TableState, game: NsGame, cid: str, ctx: Context[Any], opts: Any) -> None:
    """手番開始 in initiative order (NS-30, NS-31): during a combat turn only the next in order
    may begin, nobody while another's 手番 runs, nobody once every slot has acted (no second
    手番 in a turn); on a tie among enemies the GM picks which enemy goes first (each time).
    Outside a combat turn nothing is checked."""
    from taku_nstrpg.play import _next, order, sits_out

    if not game.combat or game.turn == 0 or game.turn_over:
        return
    out = sits_out(game, cid)
    if out == "joined":
        reject(
            "joined_this_turn",
            "このターンに加わったキャラクターは次のターンから行動する",
            "NSTRPG 2-2 シーケンスとターン",
        )
    if out == "not_placed":
        reject(
            "not_placed",
            "マップ上にいないキャラクターには手番がない（先に配置する）",
            "NSTRPG 2-3 イニシアチブと手番",
        )
    if game.acting is not None and game.acting != cid:
        reject("not_your_turn", "別のキャラクターの手番中", "NSTRPG 2-3 イニシアチブと手番")
    nxt = _next(table, game, None, opts)
    if nxt is None:
        # every slot of the order has acted: the ターン終了フェイズ, no second 手番 (NS-30)
        reject(
            "not_your_turn",
            "このターンの手番はすべて終わった（ターン終了フェイズ）",
            "NSTRPG 2-3 イニシアチブと手番",
        )
    if nxt == cid:
        return
    slots = order(table, None, opts)
    value = {k: max(v, 1) for k, v in reversed(slots)}  # first slot's value per character
    due = value.get(nxt)
    tied_enemy = (
        _sheet(table, nxt).kind != "pc"
        and cid in value
        and _sheet(table, cid).kind != "pc"
        and value[cid] == due
        and game.acted.count(cid) < sum(1 for k, _ in slots if k == cid)
    )
    if not (ctx.is_gm and tied_enemy):
        reject(
            "not_your_turn",
            f"手番はイニシアチブ順: 次は{table.characters[nxt].name}",
            "NSTRPG 2-3 イニシアチブと手番",
        )


def can_move_now(table: TableState, game: NsGame, cid: str) -> bool:
    """A move on the map is possible now (some square reachable)."""
    now = move_now(table, game, cid)
    if isinstance(now, str):
        return False
    b = game.board
    assert b is not None and b.map is not None
    return bool(bd.reachable(b.map, b.positions[cid], now[1]))


def adjacent_enemy(table: TableState, game: NsGame, cid: str) -> bool:
    """An enemy able to act stands adjacent to ``cid`` on the map."""
    b = game.board
    if b is None or b.map is None or cid not in b.positions:
        return False
    mine = side(_sheet(table, cid))
    for k, p in b.positions.items():
        f = game.fighters.get(k)
        if (
            k != cid
            and k in table.characters
            and f is not None
            and f.status == ACTIVE
            and side(_sheet(table, k)) != mine
            and bd.adjacent(b.map, b.positions[cid], p)
        ):
            return True
    return False
