"""``decide`` of nstrpg: every command's events, or one :class:`~taku.errors.Rejected`.

Rejections carry ``rule/nstrpg/<reason>`` and the rulebook section. A command
that lands damage returns its roll event and the ``damage_resolved`` events
together; nothing is half-applied. To compute several events in one command the
decider folds its own events through :func:`~taku_nstrpg._evolve.evolve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import msgspec

from taku.core import kit
from taku.core.events import CharacterCreated, CharacterUpdated
from taku.core.ruleset import Context, Emitted
from taku.core.table import Character, TableState
from taku.errors import Forbidden, InvalidCommand
from taku_nstrpg import checks as ck
from taku_nstrpg import combat as cb
from taku_nstrpg import commands as c
from taku_nstrpg import dkk as dk
from taku_nstrpg import events as ev
from taku_nstrpg import mapping as mp
from taku_nstrpg import satsubatsu as sb
from taku_nstrpg import turn_end as te
from taku_nstrpg._evolve import evolve, sheet_of
from taku_nstrpg._labels import RollStat
from taku_nstrpg._resolve import NARAKU, resolve_hit
from taku_nstrpg.damage import ACTIVE, FAINTED
from taku_nstrpg.moves import (
    check_shot,
    decide_map,
    entry_done,
    entry_possible,
    knockback_of,
    map_adjacent,
    placement_due,
    require_on_map,
    turn_due,
)
from taku_nstrpg.options import NsOptions
from taku_nstrpg.state import (
    Fighter,
    Hit,
    NsGame,
    NsSheet,
    current,
    evasion_per_turn,
    fighter_from_sheet,
    initiative,
)

__all__ = ["decide", "reject"]

_replace = msgspec.structs.replace


reject = kit.rejecter("nstrpg")
"""``reject(reason, message, section)``: raise ``rule/nstrpg/<reason>`` with the rulebook section."""

_Acc = kit.Emit[NsGame, NsOptions]


def _gm_field(ctx: Context[NsOptions], command: Any, what: str) -> None:
    """A field only a GM may set (the command itself is the owner's): ``command/forbidden``."""
    if not ctx.is_gm:
        tag = type(command).__struct_config__.tag
        raise Forbidden(
            f"{tag}: GM only: {what}",
            command=tag,
            role=ctx.role,
            reason=f"{what}はGMだけが指定できます",
        )


def _load(table: TableState, game: NsGame, cid: str) -> tuple[Character, NsSheet, Fighter]:
    ch = kit.character(table, cid)
    sheet = sheet_of(ch.sheet)
    return ch, sheet, game.fighters.get(cid) or fighter_from_sheet(sheet)


def _difficulty(text: str) -> int:
    try:
        return ck.parse_difficulty(text)
    except ValueError:
        raise InvalidCommand(
            f"not a difficulty: {text!r}", code="command/invalid_difficulty"
        ) from None


def _pool_stat(sheet: NsSheet, f: Fighter, stat: str) -> int:
    if stat == "jitsu":
        return (
            current(sheet, f, "neuron") + sheet.jitsu
        )  # ジツ発動: 【ニューロン】+【ジツ】 (2-6 その他の行動)
    if stat in ("tairyoku", "seishin"):
        # a check "with the named attribute" (抵抗判定, NS-10): the current value, none when spent
        return max(0, getattr(f, stat))
    if stat not in ("karate", "neuron", "wazamae", "kyakuryoku"):
        raise InvalidCommand(f"no attribute {stat!r} to roll", code="command/invalid_stat")
    return current(sheet, f, stat)


def _adrenaline(sheet: NsSheet, f: Fighter) -> None:
    if not sheet.ninja:
        # 「あらゆるニンジャは…使用できる」: a ninja's rule (NS-96)
        reject(
            "ninja_only",
            "アドレナリン・ブーストはニンジャのみ",
            "NSTRPG 2-14 アドレナリン・ブースト",
        )
    if f.adrenaline_used:
        reject(
            "adrenaline_used",
            "アドレナリン・ブーストは戦闘中1回のみ",
            "NSTRPG 2-14 アドレナリン・ブースト",
        )
    if f.seishin < 1:
        reject("no_seishin", "【精神力】が足りない", "NSTRPG 2-14 アドレナリン・ブースト")


def _own_turn(acc: _Acc, cid: str) -> None:
    """アドレナリン・ブースト → 集中 is for one's own attack phase (NS-96); ``acting`` unset: not tracked."""
    if acc.game.acting not in (None, cid):
        reject(
            "adrenaline_timing",
            "集中のアドレナリン・ブーストは自分の手番の攻撃フェイズのみ",
            "NSTRPG 2-14 アドレナリン・ブースト",
        )


def _one_action(acc: _Acc, cid: str) -> None:
    """The attack phase allows one action (攻撃 / 射撃 / その他の行動, NS-53) in one's own 手番."""
    if acc.game.acting == cid and acc.game.step == "attacked":
        reject(
            "no_action_left",
            "攻撃フェイズの行動（1行動）は済んでいる",
            "NSTRPG 2-6 攻撃フェイズ",
        )


def _quick(f: Fighter, n: int) -> None:
    if n > f.quick_dice:
        reject(
            "no_quick_dice", f"即応ダイスが足りない(残り{f.quick_dice})", "NSTRPG 2-1 即応ダイス"
        )


def _can_evade(sheet: NsSheet, f: Fighter) -> bool:
    return sheet.kind != "mob" and f.status == ACTIVE


def _land_or_wait(acc: _Acc, hits: Sequence[Hit], ctx: Context, opts: NsOptions) -> None:
    """Hits on targets that cannot evade (mobs, 気絶: NS-72, NS-86) land now; the rest wait."""
    for h in hits:
        if h.id not in acc.game.pending:
            continue
        _, sheet, f = _load(acc.table, acc.game, h.target)
        if not _can_evade(sheet, f) or not h.evadable:
            if f.status in (ACTIVE, FAINTED):
                acc.add(resolve_hit(acc.table, acc.game, acc.game.pending[h.id], ctx, opts))


def _secret_to(ctx: Context[Any]) -> tuple[str, ...]:
    """Who may see a check's result in the state: the roller and the GM for a secret
    (``S``-prefixed) chat check, everyone otherwise (``()``)."""
    return (ctx.actor, "@gm") if ctx.secret and ctx.actor is not None else ()


def decide(table: TableState, command: Any, ctx: Context) -> list[Emitted]:
    """The events of ``command``; see :mod:`taku_nstrpg.commands` for each command."""
    opts = ctx.options if isinstance(ctx.options, NsOptions) else kit.options(table, NsOptions)
    acc = _Acc(table, evolve, opts, table.game or NsGame())
    te.check_order(table, acc.game, command)  # the ターン終了フェイズ in its order (NS-42)
    _pending_first(acc, command)
    match command:
        case te.ResolveEffects():
            acc.add(te.effects_due(acc.game))
        case c.Check():
            _check(acc, command, ctx)
        case c.OpposedCheck():
            _opposed(acc, command, ctx, opts)
        case c.Attack():
            _attack(acc, command, ctx, opts)
        case c.Evade():
            _evade(acc, command, ctx, opts)
        case c.DeclareBarrage():
            _barrage(acc, command, ctx, opts)
        case c.Inflict():
            _inflict(acc, command, ctx, opts)
        case c.OverrideHit():
            _override_hit(acc, command, ctx)
        case c.Kaishaku():
            _kaishaku(acc, command, ctx, opts)
        case c.Reroll():
            _reroll(acc, command, ctx, opts)
        case (
            mp.SetMap()
            | mp.EditMap()
            | mp.Place()
            | mp.Move()
            | mp.FullMove()
            | mp.UseAbility()
            | mp.PlaceEntry()
            | mp.SetPcOrder()
        ):
            decide_map(acc, command, ctx)
        case c.BeginTurnOf(character_id=cid, shuchu=shuchu, equip=equip):
            _, sheet, bf = _load(table, acc.game, cid)
            turn_due(table, acc.game, cid, ctx, opts)
            if bf.status == FAINTED and (shuchu or equip is not None):
                # a 気絶 character's 手番 comes, with only 些細な行動 (NS-82)
                reject(
                    "cannot_act",
                    f"{table.characters[cid].name}は気絶状態：手番は来るが些細な行動しかできない"
                    "（集中も武器の切り替えもできない）",
                    "NSTRPG 2-12 気絶状態",
                )
            if equip is not None and equip not in _usable_weapons(sheet):
                reject(
                    "weapon_not_carried", f"{equip} を持っていない", "NSTRPG 2-4 武器を切り替える"
                )
            acc.add(ev.TurnBegan(character_id=cid, shuchu=shuchu, equip=equip))
        case c.EndTurnOf(character_id=cid):
            _load(table, acc.game, cid)
            acc.add(ev.TurnEndedFor(character_id=cid))
        case c.EndPhase():
            acc.add(ev.PhaseEnded())
        case c.StartCombat():
            if acc.game.combat:
                reject("in_combat", "既に戦闘中", "NSTRPG 2-2 シーケンスとターン")
            acc.add(ev.CombatStarted())
        case c.StartTurn():
            _turn_closed(acc, opts, "次のターンを始める")
            evasion = {
                k: evasion_per_turn(sheet_of(table.characters[k].sheet), f)
                for k, f in acc.game.fighters.items()
                if k in table.characters
            }
            inits = {  # the order of this turn is fixed now (2-3)
                k: initiative(sheet_of(table.characters[k].sheet), f)
                for k, f in acc.game.fighters.items()
                if k in table.characters
            }
            from taku_nstrpg.play import duel_now

            # 一騎打ち as of the new turn's start: last turn's 増援 are present now (NS-34)
            starting = _replace(acc.game, joined=(), turn_duel=None)
            duel = duel_now(table, starting, opts) if opts.ikkiuchi else None
            acc.add(
                ev.TurnStarted(turn=acc.game.turn + 1, evasion=evasion, initiative=inits, duel=duel)
            )
        case c.EndTurn(atmosphere=atmosphere):
            level = atmosphere or acc.game.atmosphere
            if level not in cb.ATMOSPHERE_LEVELS:
                raise InvalidCommand(
                    f"atmosphere is one of {cb.ATMOSPHERE_LEVELS}",
                    code="command/invalid_atmosphere",
                )
            if cb.ATMOSPHERE_LEVELS.index(level) < cb.ATMOSPHERE_LEVELS.index(acc.game.atmosphere):
                reject(
                    "atmosphere_drop",
                    "一度上昇したアトモスフィアは戦闘終了まで下がらない",
                    "NSTRPG 2-17 アトモスフィア",
                )
            _turn_closed(acc, opts, "ターン終了を宣言する")
            g = acc.game  # the continuing effects first, when not yet resolved (NS-42)
            if g.combat and g.turn > 0 and not g.turn_over and not g.effects_done:
                acc.add(te.effects_due(g))
            due = acc.game.wasshoi_due or acc.game.dkk_this_turn >= opts.wasshoi_dkk_per_turn
            acc.add(ev.TurnEnded(turn=acc.game.turn, atmosphere=level, wasshoi_due=due))
        case c.EndCombat():
            if not acc.game.combat:
                reject("not_in_combat", "戦闘中ではない", "NSTRPG 2-2 シーケンスとターン")
            revived = tuple(
                k for k, f in acc.game.fighters.items() if f.status == FAINTED and f.seishin >= 1
            )
            money = sum(
                sheet_of(table.characters[k].sheet).manken
                for k, f in acc.game.fighters.items()
                if k in table.characters
                and f.status != ACTIVE
                and not f.looted
                and sheet_of(table.characters[k].sheet).kind != "pc"
            )
            acc.add(ev.CombatEnded(revived=revived, money=money))
        case c.StartScenario():
            quick, emergency, penalty = {}, {}, {}
            for k, f in acc.game.fighters.items():
                if k not in table.characters:
                    continue
                fresh = fighter_from_sheet(
                    sheet_of(table.characters[k].sheet), opts.quick_dice_base
                )
                quick[k], emergency[k] = fresh.quick_dice, fresh.emergency_dice
                parts = sum(1 for n in f.injuries.values() if n > 0)
                penalty[k] = 2 if parts >= 2 else parts  # ●部位損傷 +1, two or more +2 (NS-21)
            acc.add(
                ev.ScenarioStarted(
                    scenario=acc.game.scenario,
                    quick_dice=quick,
                    emergency_dice=emergency,
                    injury_penalty=penalty,
                )
            )
        case c.EndScenario():
            pcs = [
                k
                for k in acc.game.fighters
                if k in table.characters and sheet_of(table.characters[k].sheet).kind == "pc"
            ]
            share = acc.game.money_pool // len(pcs) if pcs else 0
            shares = {k: share for k in pcs} if share else {}
            for k, s in shares.items():
                stored = table.characters[k].sheet
                acc.add(
                    CharacterUpdated(
                        character_id=k, sheet={"manken": int(stored.get("manken", 0)) + s}
                    )
                )
            acc.add(
                ev.ScenarioEnded(
                    scenario=acc.game.scenario,
                    money_pool=acc.game.money_pool - share * len(shares),
                    shares=shares,
                )
            )
        case c.GainDkk():
            _gain_dkk(acc, command, ctx, opts)
        case c.Wasshoi():
            _wasshoi(acc, command, ctx)
        case c.RerollEntry(choose=choose):
            n = acc.game.entry_rerolls
            if n < 0:
                reject(
                    "no_entry", "エントリー決定表を振っていない", "NSTRPG 2-15 どう考えても出現不能"
                )
            if entry_done(acc.game):
                reject(
                    "no_entry",
                    "【殺】はもう配置された（振り直すエントリーがない）",
                    "NSTRPG 2-15 どう考えても出現不能",
                )
            if choose is not None:
                if n < 1:
                    reject(
                        "reroll_first",
                        "まず1回だけ振り直すこと",
                        "NSTRPG 2-15 どう考えても出現不能",
                    )
                if not 1 <= choose <= 6:
                    raise InvalidCommand(
                        "the entry table has rows 1-6", detail="エントリー決定表の出目は1〜6"
                    )
                acc.add(ev.EntryRerolled(row=choose, chosen=True))
            else:
                if entry_possible(table, acc.game):
                    reject(
                        "entry_possible",
                        "その結果はこのマップで実現できるので振り直せない",
                        "NSTRPG 2-15 どう考えても出現不能",
                    )
                if n >= 1:
                    reject(
                        "reroll_once",
                        "振り直しは1回だけ。マスターが出目を決めること",
                        "NSTRPG 2-15 どう考えても出現不能",
                    )
                r = ctx.dice.roll(1, 6)
                acc.add(ev.EntryRerolled(row=r.faces[0], roll=r))
        case c.CreateMobs(name=name, count=count, sheet=raw):
            try:
                sheet = msgspec.convert(
                    {**raw, "kind": "mob", "mob_type": raw.get("mob_type") or name}, NsSheet
                )
            except msgspec.ValidationError as e:
                raise InvalidCommand(
                    f"bad character sheet: {e}", code="command/invalid_sheet"
                ) from None
            data = msgspec.json.decode(
                msgspec.json.encode(sheet)
            )  # plain JSON, as a replay reads it
            for i in range(1, count + 1):
                acc.add(
                    CharacterCreated(
                        character_id=ctx.new_id("c"), name=f"{name}{i}"[:64], owner=None, sheet=data
                    )
                )
        case c.CreateNinjaSlayer(name=name):
            data = msgspec.json.decode(
                msgspec.json.encode(msgspec.convert(dk.NINJA_SLAYER, NsSheet))
            )
            acc.add(
                CharacterCreated(
                    character_id=ctx.new_id("c"),
                    name=name[:64] or "ニンジャスレイヤー",
                    owner=None,
                    sheet=data,
                )
            )
        case c.AdjustValue(character_id=cid, field=field, value=value, reason=reason):
            _, _, f = _load(table, acc.game, cid)
            if field not in Fighter.__struct_fields__:
                raise InvalidCommand(f"no value {field!r}", code="command/invalid_path")
            try:
                msgspec.convert({**msgspec.to_builtins(f), field: value}, Fighter)
            except msgspec.ValidationError as e:
                raise InvalidCommand(
                    f"that value does not fit: {e}", code="command/invalid_value"
                ) from None
            if field == "dkk" and not 0 <= int(value) <= dk.DKK_MAX:
                reject("dkk_range", "【DKK】は0から12", "NSTRPG 2-15 DKKポイント")
            acc.add(
                ev.ValueAdjusted(
                    character_id=cid,
                    field=field,
                    value=value,
                    previous=getattr(f, field),
                    reason=reason[:500],
                )
            )
        case _:
            raise InvalidCommand(
                f"{type(command).__name__} is not an nstrpg command", code="command/unknown_command"
            )
    _knockbacks(acc, ctx, opts)
    return acc.out


_MOVES_ON = (c.BeginTurnOf, c.EndTurnOf, c.EndPhase, c.StartTurn, c.EndTurn, c.EndCombat)


def _pending_first(acc: _Acc, command: Any) -> None:
    """A hit waits for its target's evasion only within its phase (2-11: the target dodges
    it once or takes it at once; まとめて全弾回避 gathers one phase's damage): in a combat,
    a command that ends the phase, the 手番, the turn or the combat is refused while a hit
    is pending (``hits_pending``); ``evade`` (0 dice takes it) or the GM's ``override_hit``
    resolves it first."""
    g = acc.game
    if not g.combat or not g.pending or not isinstance(command, _MOVES_ON):
        return
    names = acc.table.characters
    waiting = "、".join(
        f"{names[h.target].name if h.target in names else h.target}への"
        f"{names[h.attacker].name if h.attacker in names else '環境'}の攻撃"
        for h in g.pending.values()
    )
    reject(
        "hits_pending",
        f"回避待ちの攻撃がある（{waiting}）：先に回避するかダメージを受ける",
        "NSTRPG 2-11 回避判定",
        hits=sorted(g.pending),
    )


def _turn_closed(acc: _Acc, opts: NsOptions, what: str) -> None:
    """``start_turn`` / ``end_turn`` only between turns (2-2, 2-9): refused while a 手番 runs
    or is still due this turn (``turn_open``), ``start_turn`` also before ``end_turn`` has
    closed the ターン終了フェイズ, ``end_turn`` twice (``turn_end_order``)."""
    from taku_nstrpg.play import _next

    g = acc.game
    S = "NSTRPG 2-2 シーケンスとターン"
    if not g.combat:
        reject("not_in_combat", "戦闘中ではない", S)
    if g.turn == 0:
        if what.startswith("ターン終了"):
            reject("turn_end_order", "まだターンが始まっていない（ターン1を始める）", S)
        due = placement_due(acc.table, g) if g.board is not None and g.board.sudden else None
        if due is not None:  # sudden combat: everyone placed first, lowest first (NS-33)
            who = acc.table.characters[due].name if due in acc.table.characters else due
            reject(
                "placement_due",
                f"まだ配置が済んでいない（次は{who}）：配置を終えてからターン1を始める",
                "NSTRPG 2-3 配置時は逆イニシアチブ",
                character_id=due,
            )
        return
    if g.acting is not None:
        who = acc.table.characters[g.acting].name if g.acting in acc.table.characters else g.acting
        reject("turn_open", f"{who}の手番中なので{what}ことはできない（先に手番を終える）", S)
    if g.turn_over:
        if what.startswith("ターン終了"):
            reject(
                "turn_end_order", f"ターン{g.turn}の終了は宣言済み", "NSTRPG 2-9 ターン終了フェイズ"
            )
        return
    nxt = _next(acc.table, g, None, opts)
    if nxt is not None:
        who = acc.table.characters[nxt].name
        reject("turn_open", f"まだ手番が残っている（次は{who}）ので{what}ことはできない", S)
    if what.startswith("次の"):
        reject(
            "turn_open",
            f"ターン{g.turn}の終了フェイズの途中：先にターン終了を宣言する",
            "NSTRPG 2-9 ターン終了フェイズ",
        )


def _knockbacks(acc: _Acc, ctx: Context, opts: NsOptions) -> None:
    """弾き飛ばし on the map (NS-93): each ``damage_resolved`` with a knockback moves its
    target (``knocked_back``); a wall hit deals 1 damage, 回避:NORMAL, melee for the
    atmosphere unless a mob caused it (NS-109)."""
    i = 0
    while i < len(acc.out):
        e = acc.out[i]
        i += 1
        if not isinstance(e, ev.DamageResolved) or not e.knockback:
            continue
        kb = knockback_of(acc.table, acc.game, e)
        if kb is None:
            continue
        acc.add(kb)
        if kb.wall:
            crash = c.Inflict(
                target=e.target,
                damage=1,
                kind="knockback",
                damage_kind="melee",
                source=e.source,
                reason="弾き飛ばしで激突",
            )
            _inflict(acc, crash, ctx, opts)


# --------------------------------------------------------------------------- checks


def _check(acc: _Acc, cmd: c.Check, ctx: Context) -> None:
    """NSTRPG 2-1: a pool of the attribute + bonus dice + 即応ダイス at the difficulty, modifiers summed."""
    ch, sheet, f = _load(acc.table, acc.game, cmd.character_id)
    if f.status != ACTIVE and cmd.purpose != "resistance":
        # 抵抗判定 happens even when the character cannot act (NS-10)
        reject("cannot_act", f"{ch.name} は行動できない({f.status})", "NSTRPG 2-12 気絶状態")
    if cmd.purpose not in ("check", "resistance", "sokuten", "attack_phase"):
        raise InvalidCommand(
            "purpose is check, resistance, sokuten or attack_phase", detail="判定の種類が正しくない"
        )
    if cmd.purpose == "sokuten" and acc.game.acting == cmd.character_id:
        b = acc.game.board
        if f.sokuten:
            reject("one_style", "移動スタイルは1フェイズに1個だけ", "NSTRPG 2-5 移動スタイルの宣言")
        if b is not None and cmd.character_id in b.moved:
            reject("already_moved", "移動した後には連続側転できない", "NSTRPG 2-5 連続側転")
    if cmd.purpose == "sokuten" and f.shuchu:
        # 集中状態 skips the whole move phase, so no movement style (NS-56)
        reject(
            "shuchu_no_move",
            "集中状態では移動フェイズを飛ばすので連続側転できない",
            "NSTRPG 2-4 集中状態に入る",
        )
    if cmd.stat == "dice":
        if cmd.quick_dice:
            reject(
                "fixed_dice", "固定ダイス数の判定に即応ダイスは使えない", "NSTRPG 2-1 即応ダイス"
            )
        pool = cmd.bonus_dice
    else:
        pool = _pool_stat(sheet, f, cmd.stat) + cmd.bonus_dice
    _quick(f, cmd.quick_dice)
    pool += cmd.quick_dice
    mods = cmd.modifiers + f.injury_penalty
    if cmd.purpose == "sokuten" and sheet.ninja and f.dkk >= 1:
        mods += acc.game.entry_sokuten  # fear of the 死神's entry (NS-99)
    if cmd.adrenaline:
        if cmd.purpose != "attack_phase":
            reject(
                "adrenaline_timing",
                "判定でのアドレナリン・ブーストは自分の攻撃フェイズのみ(集中状態)",
                "NSTRPG 2-14 アドレナリン・ブースト",
            )
        _own_turn(acc, cmd.character_id)
        _adrenaline(sheet, f)
    if cmd.purpose == "attack_phase":
        mods += (-1 if (f.shuchu or cmd.adrenaline) else 0) + (1 if f.sokuten else 0)
    level = ck.shift(_difficulty(cmd.difficulty), mods)
    roll, res = ck.roll_check(ctx.dice, pool, level)
    patterns = {}
    for p in cmd.patterns:
        try:
            patterns[p] = ck.Pattern.parse(p).matches(roll.faces)
        except ValueError:
            raise InvalidCommand(
                f"not a 【】 pattern: {p!r}", code="command/invalid_pattern"
            ) from None
    gained, kuzure = 0, None
    if cmd.purpose == "sokuten":
        # 連続側転: success gives 2 回避ダイス at once; failure leaves 崩れ (NS-49, NS-50)
        gained, kuzure = (2, None) if res.success else (0, True)
    acc.add(
        ev.CheckRolled(
            check_id=ctx.new_id("k"),
            character_id=cmd.character_id,
            stat=cmd.stat,
            pool=pool,
            roll=roll,
            difficulty=level,
            successes=res.successes,
            success=res.success,
            label=cmd.label[:200],
            purpose=cmd.purpose,
            patterns=patterns,
            quick_dice=cmd.quick_dice,
            adrenaline=cmd.adrenaline,
            evasion_gained=gained,
            kuzure=kuzure,
            secret_to=_secret_to(ctx),
        )
    )


def _opposed(acc: _Acc, cmd: c.OpposedCheck, ctx: Context, opts: NsOptions) -> None:
    """NS-11 対抗判定: the most successes wins; a tie has no winner (G-NS-03)."""
    if len(cmd.sides) < 2:
        raise InvalidCommand(
            "an opposed check needs two sides or more", detail="対抗判定には2人以上が必要"
        )
    level = _difficulty(cmd.difficulty)
    sides = []
    for s in cmd.sides:
        sch, _, f = _load(acc.table, acc.game, s.character_id)
        if f.status != ACTIVE:
            reject("cannot_act", f"{sch.name} は行動できない({f.status})", "NSTRPG 2-12 気絶状態")
        _quick(f, s.quick_dice)
    for s in cmd.sides:
        _, sheet, f = _load(acc.table, acc.game, s.character_id)
        pool = _pool_stat(sheet, f, s.stat) + s.bonus_dice + s.quick_dice
        lv = ck.shift(level, f.injury_penalty)
        roll, res = ck.roll_check(ctx.dice, pool, lv)
        sides.append(
            ev.OpposedRoll(
                character_id=s.character_id,
                stat=s.stat,
                pool=pool,
                roll=roll,
                successes=res.successes,
                quick_dice=s.quick_dice,
            )
        )
    result = ck.opposed([s.successes for s in sides])
    winner = sides[result.winner].character_id if result.winner is not None else None
    acc.add(
        ev.OpposedRolled(
            sides=tuple(sides),
            difficulty=level,
            winner=winner,
            margin=result.margin,
            label=cmd.label[:200],
        )
    )
    if cmd.damage_difference and winner is not None and len(sides) == 2 and result.margin > 0:
        loser = sides[1 - result.winner].character_id  # type: ignore[operator]
        hit = Hit(
            id=ctx.new_id("x"),
            attack_id="opposed",
            attacker=winner,
            target=loser,
            kind="other",
            damage=result.margin,
            evadable=False,
        )
        acc.game = _replace(acc.game, pending={**acc.game.pending, hit.id: hit})
        acc.add(resolve_hit(acc.table, acc.game, hit, ctx, opts, note="対抗判定の差分ダメージ"))


# --------------------------------------------------------------------------- attacks


def _usable_weapons(sheet: NsSheet) -> set[str]:
    return {"unarmed", "shuriken", sheet.equipped} | {w.id for w in sheet.carried()}


def _attack(acc: _Acc, cmd: c.Attack, ctx: Context, opts: NsOptions) -> None:
    """NSTRPG 2-6 攻撃フェイズ and 2-16 連続攻撃 / 連射: declare the split, roll each attack."""
    S = "NSTRPG 2-6 攻撃フェイズ"
    table, game = acc.table, acc.game
    ch, sheet, f = _load(table, game, cmd.attacker)
    if f.status != ACTIVE:
        reject("cannot_act", f"{ch.name} は行動できない", "NSTRPG 2-12 気絶状態")
    _one_action(acc, cmd.attacker)
    if cmd.kind not in ("melee", "shoot"):
        raise InvalidCommand("kind is melee or shoot", detail="攻撃の種類は近接攻撃か射撃")
    equipped = f.equipped or sheet.equipped
    equipped_w = sheet.weapon(equipped)
    if cmd.weapon is not None:
        if cmd.weapon not in _usable_weapons(sheet):
            reject("weapon_not_carried", f"{cmd.weapon} を持っていない", S)
        if game.acting == cmd.attacker and cmd.weapon not in (equipped, "shuriken", "unarmed"):
            # a switch is declared at 手番開始 only (NS-39): in one's 手番, the wielded weapon
            reject(
                "weapon_not_equipped",
                f"{cmd.weapon} は装備していない（持ち替えは手番開始のみ）",
                "NSTRPG 2-4 武器を切り替える",
            )
        weapon = sheet.weapon(cmd.weapon)
    elif cmd.kind == "shoot":
        weapon = (
            equipped_w
            if equipped_w is not None and equipped_w.kind in ("gun", "shuriken")
            else sheet.weapon("shuriken")
        )
    else:
        weapon = (
            equipped_w
            if equipped_w is not None and equipped_w.kind == "melee"
            else sheet.weapon("unarmed")
        )
    assert weapon is not None, "built-in weapons always resolve"
    if (cmd.kind == "melee") != (weapon.kind == "melee"):
        reject(
            "wrong_weapon",
            f"{weapon.name} では{'近接攻撃' if cmd.kind == 'melee' else '射撃'}できない",
            S,
        )
    # 咄嗟のスリケン投擲: shuriken while wielding another weapon: +1, no shooting style (NS-59)
    snap = weapon.id == "shuriken" and equipped not in ("unarmed", "shuriken")
    style = None
    if cmd.style is not None:
        if snap:
            reject(
                "no_style_on_snap",
                "咄嗟のスリケン投擲では射撃スタイルを使えない",
                "NSTRPG 2-4 咄嗟のスリケン投擲",
            )
        style = cb.STYLES.get(cmd.style)
        if style is None or cmd.style not in weapon.styles:
            reject("style_not_available", f"{weapon.name} にスタイル {cmd.style} はない", S)
    if cmd.adrenaline:
        _own_turn(acc, cmd.attacker)
        _adrenaline(sheet, f)
    shuchu = f.shuchu or cmd.adrenaline
    if style is not None and style.needs_shuchu and not shuchu:
        reject("needs_shuchu", f"{style.name} は集中状態でのみ使える", S)
    _quick(f, cmd.quick_dice)
    profile = cb.attack_profile(
        kind=cmd.kind,
        weapon=weapon,
        style=style,
        skills=sheet.auto(),
        ninja=sheet.is_ninja,
        shuchu=shuchu,
        sokuten=f.sokuten,
        snap_shuriken=snap,
        renzoku_plus=[sheet.renzoku_plus, *cmd.plus],
        rensha_plus=[sheet.rensha_plus, *cmd.plus],
        modifiers=cmd.modifiers + f.injury_penalty,
    )
    pool = current(sheet, f, profile.stat) + weapon.bonus_dice + cmd.bonus_dice + cmd.quick_dice
    if cmd.kind == "melee":
        pool += sheet.attack_bonus + (
            sheet.karate_attack_bonus if profile.stat == "karate" else 0
        )  # テッコ: カラテ only
    else:
        pool += sheet.shoot_bonus
    group: tuple[str, ...] = ()
    if cmd.pool_with:
        # pooled attack of identical mobs (NS-80, G-NS-10)
        if sheet.kind != "mob":
            reject(
                "pool_mobs_only",
                "まとめて判定できるのは同種のモブ敵だけ",
                "NSTRPG 2-11 まとめて全弾回避",
            )
        group = (cmd.attacker,)
        for mid in cmd.pool_with:
            mch, msheet, mf = _load(table, game, mid)
            if (
                mid in group
                or msheet.kind != "mob"
                or (msheet.mob_type or mch.name) != (sheet.mob_type or ch.name)
            ):
                reject(
                    "pool_mobs_only",
                    "まとめて判定できるのは同種のモブ敵だけ",
                    "NSTRPG 2-11 まとめて全弾回避",
                )
            if mf.status != ACTIVE:
                reject("cannot_act", f"{mch.name} は行動できない", "NSTRPG 2-12")
            group += (mid,)
            pool += current(msheet, mf, profile.stat)
    if pool < 1:
        reject("no_dice", "判定ダイスがない", S)
    splits = list(cmd.splits)
    if not splits:
        if cmd.target is None:
            raise InvalidCommand(
                "name a target or the splits", detail="ターゲットか攻撃の割り振りを指定すること"
            )
        splits = [c.Split(target=cmd.target, dice=pool)]
    if group and len(splits) != 1:
        reject("pool_single_attack", "まとめて振るモブの攻撃は1回", "NSTRPG 2-11")
    reason = cb.validate_split(pool, [s.dice for s in splits], [s.target for s in splits], profile)
    if reason is not None:
        msgs = {
            "too_many_dice": f"ダイスが足りない(判定ダイス{pool}個)",
            "too_many_attacks": f"攻撃回数は最大{profile.max_attacks}回",
            "single_target": "複数のターゲットに割り振れない(●マルチターゲットがない)",
        }
        reject(reason, msgs.get(reason, reason), "NSTRPG 2-16 ●連続攻撃 / ●連射")
    override = None
    if cmd.difficulty is not None:
        _gm_field(ctx, cmd, "攻撃の難易度")
        override = _difficulty(cmd.difficulty)
    attack_id = ctx.new_id("a")
    per_target: dict[str, int] = {}
    for s in splits:
        per_target[s.target] = per_target.get(s.target, 0) + 1
    rolls: list[ev.AttackRoll] = []
    hits: list[Hit] = []
    misses: list[Hit] = []
    karate_now = current(sheet, f, "karate")
    for i, s in enumerate(splits):
        tch, tsheet, tf = _load(table, game, s.target)
        if s.target == cmd.attacker or s.target in group:
            reject("self_target", "自分は攻撃できない", S)
        if tf.status not in (ACTIVE, FAINTED):
            reject("target_gone", f"{tch.name} はもういない", S)
        adjacent = s.adjacent if s.adjacent is not None else cmd.kind == "melee"
        require_on_map(table, game, cmd.attacker, s.target)  # a map: positions only (2-6)
        near = map_adjacent(table, game, cmd.attacker, s.target)
        if near is not None:
            adjacent = near  # on the map the squares decide (2-6), not the flag
            if cmd.kind == "shoot" and not cmd.area:
                check_shot(table, game, cmd.attacker, s.target, weapon)
        if cmd.kind == "melee" and not adjacent:
            reject("not_adjacent", "近接攻撃は隣接する敵だけ", "NSTRPG 2-6 近接攻撃")
        if cmd.kind == "shoot" and adjacent and not cmd.area:
            reject(
                "adjacent_target",
                "隣接している敵は射撃のターゲットに選べない",
                "NSTRPG 2-6 射撃とスリケン投擲",
            )
        level = (
            override
            if override is not None
            else ck.shift(profile.difficulty, -1 if tf.kuzure else 0)
        )  # 崩れ −1 (NS-50)
        if tf.status == FAINTED:
            # attacks on the 気絶 succeed automatically: no roll, no critical (NS-86, G-NS-27)
            rolls.append(
                ev.AttackRoll(
                    index=i,
                    target=s.target,
                    dice=s.dice,
                    difficulty=level,
                    successes=0,
                    success=True,
                    auto=True,
                )
            )
            faces: tuple[int, ...] = ()
            success, successes, crit = True, (s.dice if group else 0), ""
        else:
            roll, res = ck.roll_check(ctx.dice, s.dice, level)
            crit = sb.critical_of(
                roll.faces, success=res.success, satsubatsu=profile.satsubatsu, namu=profile.namu
            )
            rolls.append(
                ev.AttackRoll(
                    index=i,
                    target=s.target,
                    dice=s.dice,
                    difficulty=level,
                    successes=res.successes,
                    success=res.success,
                    roll=roll,
                    critical=crit,
                )
            )
            success, successes, faces = res.success, res.successes, roll.faces
        template = Hit(
            id=f"{attack_id}.{i}",
            attack_id=attack_id,
            attacker=cmd.attacker,
            target=s.target,
            kind=profile.kind,
            damage_kind=profile.damage_kind,
            damage=profile.damage * (successes if group else 1),
            tsuda=profile.tsuda,
            tsuda_on_six=profile.tsuda_on_six,
            no_tsuda=profile.no_tsuda,
            critical=crit,
            successes=successes,
            evasion_base=weapon.evasion,
            jisa=profile.jisa and per_target[s.target] >= 2,
            adjacent=adjacent,
            area=cmd.area,
            moving=cmd.moving,
            from_mob=sheet.kind == "mob",
            mob_type=(sheet.mob_type or ch.name) if sheet.kind == "mob" else "",
            group=group,
            stat=profile.stat,
            attacker_karate=karate_now,
            evadable=tf.status == ACTIVE,
            faces=faces,
            satsubatsu=str(profile.satsubatsu) if profile.satsubatsu else "",
            namu=str(profile.namu) if profile.namu else "",
            phase=game.phase,
        )
        (hits if success else misses).append(template)
    acc.add(
        ev.AttackRolled(
            attack_id=attack_id,
            attacker=cmd.attacker,
            kind=cmd.kind,
            weapon=weapon.id,
            stat=profile.stat,
            pool=pool,
            rolls=tuple(rolls),
            hits=tuple(hits),
            misses=tuple(misses),
            style=cmd.style,
            quick_dice=cmd.quick_dice,
            adrenaline=cmd.adrenaline,
            pool_with=tuple(cmd.pool_with),
        )
    )
    _land_or_wait(acc, hits, ctx, opts)


# --------------------------------------------------------------------------- evasion


def _hit_difficulty(
    acc: _Acc,
    hit: Hit,
    sheet: NsSheet,
    f: Fighter,
    adrenaline: bool,
    modifiers: int,
    opts: NsOptions,
) -> int:
    kind = (
        "melee" if hit.kind in ("counter", "knockback") or hit.moving else hit.damage_kind
    )  # NS-109
    base = hit.evasion_base
    barrage = hit.evasion_plus
    if barrage:
        base = max(
            base, min(base + barrage, opts.barrage_cap)
        )  # 弾幕 raises up to UH3, never lowers (NS-76)
        barrage = 0
    return cb.evasion_difficulty(
        base=base,
        namu=hit.critical == sb.NAMU,
        atmosphere=cb.atmosphere_modifier(acc.game.atmosphere, kind, from_mob=hit.from_mob),
        # a collision is melee only for the atmosphere, not for the defender's anti-melee modifiers
        defender=sheet.evasion_modifiers.get(
            hit.damage_kind if hit.kind == "knockback" else kind, 0
        ),
        adrenaline=adrenaline or f.adrenaline_evasion,
        barrage=barrage,
        modifiers=modifiers + (f.injury_penalty if opts.injury_penalty_on_evasion else 0),
    )


def _group_ok(hits: Sequence[Hit]) -> str | None:
    """まとめて全弾回避 (NS-74, G-NS-11): no two hits of one 時間差 sequence; 時間差 hits only from
    different mobs of one kind."""
    per_attack: dict[str, int] = {}
    for h in hits:
        per_attack[h.attack_id] = per_attack.get(h.attack_id, 0) + 1
    if any(h.jisa and per_attack[h.attack_id] > 1 for h in hits):
        return "jisa_no_group"
    same_mobs = all(h.from_mob for h in hits) and len({h.mob_type for h in hits}) == 1
    if any(h.jisa for h in hits) and not same_mobs:
        return "jisa_no_group"
    if not same_mobs and len({h.phase for h in hits}) > 1:
        return "other_phase"  # only one phase's damage goes together (NS-74)
    return None


def _evade(acc: _Acc, cmd: c.Evade, ctx: Context, opts: NsOptions) -> None:
    """NSTRPG 2-11 回避判定: the defender spends 0 or more 回避ダイス (+ 緊急回避ダイス) at NORMAL + modifiers."""
    S = "NSTRPG 2-11 回避判定"
    table = acc.table
    ch, sheet, f = _load(table, acc.game, cmd.defender)
    if not cmd.hits or len(set(cmd.hits)) != len(cmd.hits):
        raise InvalidCommand(
            "name the pending hits once each", detail="回避する攻撃を1つ以上、重ねずに指定すること"
        )
    hits = []
    for hid in cmd.hits:
        h = acc.game.pending.get(hid)
        if h is None or h.target != cmd.defender:
            reject("no_such_hit", f"{ch.name} に向かう攻撃 {hid} はない", S)
        hits.append(h)
    rolling = cmd.dice + cmd.emergency_dice > 0
    if rolling:
        if sheet.kind == "mob":
            reject("mob_cannot_evade", "モブ敵は回避を行えない", S)
        if f.status != ACTIVE:
            reject("cannot_evade", f"{ch.name} は回避できない", "NSTRPG 2-12 気絶状態")
        if any(not h.evadable for h in hits):
            reject("not_evadable", "回避不能", S)
        if len(hits) > 1:
            if not sheet.ninja:
                reject(
                    "group_needs_ninja",
                    "まとめて全弾回避はニンジャのみ",
                    "NSTRPG 2-11 まとめて全弾回避",
                )
            why = _group_ok(hits)
            if why is not None:
                msg = (
                    "『時間差』のダメージはまとめて回避できない"
                    if why == "jisa_no_group"
                    else "別のフェイズのダメージはまとめて回避できない"
                )
                reject(why, msg, "NSTRPG 2-11 まとめて全弾回避")
        if cmd.dice > max(f.evasion_dice, 0):
            reject("no_evasion_dice", f"回避ダイスが足りない(残り{f.evasion_dice})", S)
        if cmd.emergency_dice > f.emergency_dice:
            reject(
                "no_emergency_dice",
                f"緊急回避ダイスが足りない(残り{f.emergency_dice})",
                "NSTRPG 2-1 緊急回避ダイス",
            )
    if cmd.adrenaline:
        if not rolling:
            reject(
                "adrenaline_timing",
                "アドレナリン・ブーストは判定の直前に使う",
                "NSTRPG 2-14 アドレナリン・ブースト",
            )
        if acc.game.acting == cmd.defender:
            # the evasion −1 is for someone else's 手番 only; in one's own it gives 集中 (G-NS-21)
            reject(
                "adrenaline_timing",
                "回避のアドレナリン・ブーストは自分以外の手番のみ",
                "NSTRPG 2-14 アドレナリン・ブースト",
            )
        _adrenaline(sheet, f)
    if cmd.difficulty is not None:
        _gm_field(ctx, cmd, "回避の難易度")
        level = _difficulty(cmd.difficulty)
    else:
        # mixed difficulties in one group: the highest (NS-75)
        level = max(
            _hit_difficulty(acc, h, sheet, f, cmd.adrenaline, cmd.modifiers, opts) for h in hits
        )
    if not rolling:
        acc.add(ev.EvasionRolled(defender=cmd.defender, hits=tuple(cmd.hits), difficulty=level))
        for h in hits:
            if h.id in acc.game.pending and acc.game.fighters[cmd.defender].status in (
                ACTIVE,
                FAINTED,
            ):
                acc.add(resolve_hit(table, acc.game, acc.game.pending[h.id], ctx, opts))
        return
    if cmd.sixth_sense:
        if not rolling:
            reject("nothing_to_reroll", "振り直す回避判定がない", "NSTRPG 2-16 ●ニンジャ第六感")
        _sixth_sense(sheet, f)
    roll, res = ck.roll_check(ctx.dice, cmd.dice + cmd.emergency_dice, level)
    first = None
    if cmd.sixth_sense and not res.success:
        # ●ニンジャ第六感 on a failed 回避判定: the same dice and difficulty, once; the reroll stands
        first = roll
        roll, res = ck.roll_check(ctx.dice, cmd.dice + cmd.emergency_dice, level)
    acc.add(
        ev.EvasionRolled(
            defender=cmd.defender,
            hits=tuple(cmd.hits),
            dice=cmd.dice,
            emergency_dice=cmd.emergency_dice,
            difficulty=level,
            roll=roll,
            successes=res.successes,
            success=res.success,
            adrenaline=cmd.adrenaline,
            first=first,
        )
    )
    if not res.success:
        for h in hits:
            if h.id in acc.game.pending and acc.game.fighters[cmd.defender].status in (
                ACTIVE,
                FAINTED,
            ):
                acc.add(resolve_hit(table, acc.game, acc.game.pending[h.id], ctx, opts))
        return
    # カウンターカラテ (NS-77 … NS-79)
    if not cmd.counter or not sheet.ninja:
        if cmd.counter_target is not None:
            reject("no_counter", "カウンターカラテはニンジャのみ", "NSTRPG 2-11 カウンターカラテ")
        return
    compare = [h.successes for h in hits]
    attack_successes = max(compare) if opts.counter_compare == "max" else sum(compare)
    why = cb.can_counter(
        kinds=["counter" if h.kind == "counter" else h.kind for h in hits],
        evasion_successes=res.successes,
        attack_successes=attack_successes,
        adjacent=all(h.adjacent for h in hits),
        area=any(h.area for h in hits),
        moving=any(h.moving for h in hits),
        counter=any(h.kind == "counter" for h in hits),
    )
    candidates: list[str] = []
    for h in hits:
        for who in h.group or ((h.attacker,) if h.attacker else ()):
            if (
                who not in candidates
                and who in acc.game.fighters
                and acc.game.fighters[who].status in (ACTIVE, FAINTED)
            ):
                candidates.append(who)
    if why is not None or not candidates:
        if cmd.counter_target is not None:
            reject(
                why or "no_counter_target",
                "カウンターカラテは発生しない",
                "NSTRPG 2-11 カウンターカラテ",
            )
        return
    target = cmd.counter_target or candidates[0]
    if target not in candidates:
        reject(
            "bad_counter_target",
            "カウンターカラテの対象は攻撃してきた隣接する敵",
            "NSTRPG 2-11 複数のモブ敵に対するカウンター",
        )
    hit = Hit(
        id=ctx.new_id("h"),
        attack_id=ctx.new_id("ctr"),
        attacker=cmd.defender,
        target=target,
        kind="counter",
        damage_kind="melee",
        damage=1,
        from_mob=sheet.kind == "mob",
        stat="karate",
        attacker_karate=current(sheet, f, "karate"),
        evadable=True,
        phase=acc.game.phase,
    )
    acc.add(ev.CounterKarate(defender=cmd.defender, target=target, hit=hit))
    _land_or_wait(acc, [hit], ctx, opts)


def _barrage(acc: _Acc, cmd: c.DeclareBarrage, ctx: Context, opts: NsOptions) -> None:
    """NS-76 弾幕発生: GM only, mob shooting, declared before the evasion choice."""
    S = "NSTRPG 2-11 オプションルール:弾幕発生"
    hits = [acc.game.pending.get(h) for h in cmd.hits]
    if not hits or any(h is None for h in hits) or len(set(cmd.hits)) != len(cmd.hits):
        reject("no_such_hit", "その攻撃は回避待ちではない", S)
    real = [h for h in hits if h is not None]
    if (
        len({h.target for h in real}) != 1
        or any(not h.from_mob or h.kind != "shoot" for h in real)
        or _group_ok(real)
    ):
        reject("not_a_barrage", "弾幕発生はまとめて全弾回避できるモブ敵の射撃だけ", S)
    if len(real) > 1:
        tch = acc.table.characters.get(real[0].target)
        if tch is None or not sheet_of(tch.sheet).ninja:
            # several hits go together only for a ninja (NS-74), so only a ninja faces them as one 弾幕
            reject(
                "not_a_barrage",
                "弾幕発生はまとめて全弾回避できるモブ敵の射撃だけ(まとめて全弾回避はニンジャのみ)",
                S,
            )
    total = sum(h.damage for h in real)
    try:
        damage, plus = cb.barrage(total, cmd.divisor)
    except ValueError:
        raise InvalidCommand(
            "弾幕発生 divides by 3, 6 or 12", detail="弾幕発生は÷3、÷6、÷12"
        ) from None
    first = real[0]
    # hits of different evasion difficulties go together at the highest (NS-75), then +1/+2/+3
    base = max(h.evasion_base for h in real)
    hit = _replace(
        first,
        id=ctx.new_id("h"),
        damage=damage,
        evasion_base=base,
        evasion_plus=plus,
        successes=sum(h.successes for h in real),
        jisa=False,
    )
    acc.add(ev.BarrageDeclared(replaced=tuple(cmd.hits), divisor=cmd.divisor, total=total, hit=hit))


def _inflict(acc: _Acc, cmd: c.Inflict, ctx: Context, opts: NsOptions) -> None:
    ch, sheet, f = _load(acc.table, acc.game, cmd.target)
    if f.status not in (ACTIVE, FAINTED):
        reject("target_gone", f"{ch.name} はもういない", "NSTRPG 2-12")
    if cmd.damage_kind not in cb.DAMAGE_KINDS:
        raise InvalidCommand(
            f"damage_kind is one of {cb.DAMAGE_KINDS}", detail="ダメージの区分が正しくない"
        )
    hit = Hit(
        id=ctx.new_id("h"),
        attack_id=ctx.new_id("g"),
        attacker=cmd.source,
        target=cmd.target,
        kind=cmd.kind,
        damage_kind=cmd.damage_kind,
        damage=cmd.damage,
        evasion_base=_difficulty(cmd.evasion),
        from_mob=_inflicted_by_mob(acc.table, cmd),
        evadable=cmd.evadable,
        phase=acc.game.phase,
    )
    acc.add(ev.HitInflicted(hit=hit, reason=cmd.reason[:500]))
    _land_or_wait(acc, [hit], ctx, opts)


def _inflicted_by_mob(table: TableState, cmd: c.Inflict) -> bool:
    """Whether the atmosphere ignores this damage (NS-108): a mob's or the environment's.

    A 弾き飛ばし collision and a counter count as melee for the atmosphere
    (NS-109), so they are the environment's only when a mob caused them.
    """
    src = table.characters.get(cmd.source) if cmd.source is not None else None
    by_mob = src is not None and sheet_of(src.sheet).kind == "mob"
    if cmd.kind in ("knockback", "counter"):
        return by_mob or cmd.damage_kind == "mob"
    return by_mob or cmd.damage_kind in ("mob", "environment")


def _override_hit(acc: _Acc, cmd: c.OverrideHit, ctx: Context) -> None:
    h = acc.game.pending.get(cmd.hit)
    if h is None:
        reject("no_such_hit", "その攻撃は回避待ちではない", "NSTRPG 2-11")
    if cmd.cancel:
        acc.add(ev.HitOverridden(hit_id=cmd.hit, hit=None, reason=cmd.reason[:500]))
        return
    new = h
    if cmd.damage is not None:
        new = _replace(new, damage=max(0, cmd.damage))
    if cmd.evasion is not None:
        new = _replace(new, evasion_base=_difficulty(cmd.evasion), evasion_plus=0)
    acc.add(ev.HitOverridden(hit_id=cmd.hit, hit=new, reason=cmd.reason[:500]))


def _kaishaku(acc: _Acc, cmd: c.Kaishaku, ctx: Context, opts: NsOptions) -> None:
    """NS-87 カイシャク: the サツバツ! row 6 on a 気絶 enemy, no check."""
    S = "NSTRPG 2-12 気絶状態の者に対する攻撃やカイシャク"
    ch, sheet, f = _load(acc.table, acc.game, cmd.attacker)
    if not sheet.ninja:
        reject("ninja_only", "カイシャクはニンジャのみ", S)
    _one_action(acc, cmd.attacker)
    if f.status != ACTIVE:
        reject("cannot_act", f"{ch.name} は行動できない", S)
    tch, tsheet, tf = _load(acc.table, acc.game, cmd.target)
    if tf.status != FAINTED:
        reject("not_fainted", f"{tch.name} は気絶状態ではない", S)
    require_on_map(acc.table, acc.game, cmd.attacker, cmd.target)
    near = map_adjacent(acc.table, acc.game, cmd.attacker, cmd.target)
    if not (cmd.adjacent if near is None else near):
        # 「ニンジャは『気絶状態』の敵と隣接することで…『カイシャク』を宣言できる」(NS-87)
        reject("not_adjacent", "カイシャクは隣接する気絶状態の敵だけ", S)
    if NARAKU in tsheet.skills:
        reject(
            "naraku",
            f"{tch.name} は異様なアトモスフィアを漂わせておりカイシャクできない",
            "NSTRPG 2-15 ◉ナラク・ウィズイン",
        )
    weapon = sheet.weapon(f.equipped) or sheet.weapon("unarmed")
    assert weapon is not None
    hit = Hit(
        id=ctx.new_id("h"),
        attack_id="kaishaku",
        attacker=cmd.attacker,
        target=cmd.target,
        damage=weapon.damage,
        evadable=False,
    )
    # apply row 6 directly: 即死!, or 痛打+2D6 against 即死耐性
    if tsheet.instant_death_resistance:
        death = ctx.dice.roll(2, 6)
        out = resolve_hit(
            acc.table,
            _with(acc.game, hit),
            _replace(hit, tsuda=death.total),
            ctx,
            opts,
            note="カイシャク",
        )
        acc.add(_replace(out, row=6, death_roll=death, critical=sb.SATSUBATSU))
    else:
        acc.add(
            ev.DamageResolved(
                target=cmd.target,
                source=cmd.attacker,
                hit_id=None,
                amount=0,
                tairyoku=tf.tairyoku,
                seishin=tf.seishin,
                status="dead",
                row=6,
                instant_death=True,
                critical=sb.SATSUBATSU,
                note="カイシャク",
            )
        )


def _with(game: NsGame, hit: Hit) -> NsGame:
    return _replace(game, pending={**game.pending, hit.id: hit})


# --------------------------------------------------------------------------- ニンジャ第六感


def _sixth_sense(sheet: NsSheet, f: Fighter) -> None:
    S = "NSTRPG 2-16 ●ニンジャ第六感"
    if not sheet.auto().sixth_sense:
        reject("no_sixth_sense", "●ニンジャ第六感を持っていない", S)
    if f.sixth_sense_used:
        reject("sixth_sense_used", "ニンジャ第六感はシナリオ中1回限り", S)


def _reroll(acc: _Acc, cmd: c.Reroll, ctx: Context, opts: NsOptions) -> None:
    """NS-70 ●ニンジャ第六感 under the reroll principle (NS-15): same dice, same difficulty, once."""
    S = "NSTRPG 2-16 ●ニンジャ第六感"
    ch, sheet, f = _load(acc.table, acc.game, cmd.character_id)
    _sixth_sense(sheet, f)
    last = acc.game.last_roll.get(cmd.character_id)
    if last is None:
        reject("nothing_to_reroll", "振り直す判定がない", S)
    if last.rerolled:
        reject(
            "reroll_of_reroll", "振り直しの振り直しはできない", "NSTRPG 2-16 原則:振り直しルール"
        )
    if last.kind == "check":
        roll, res = ck.roll_check(ctx.dice, last.pool, last.difficulty)
        gained, kuzure = 0, None
        if last.purpose == "sokuten" and res.success != last.success:
            gained, kuzure = (2, False) if res.success else (-2, True)
        acc.add(
            ev.CheckRolled(
                check_id=ctx.new_id("k"),
                character_id=cmd.character_id,
                stat=cast(RollStat, last.stat),  # a check's stat (kind "check")
                pool=last.pool,
                roll=roll,
                difficulty=last.difficulty,
                successes=res.successes,
                success=res.success,
                label=last.label,
                purpose=last.purpose,
                patterns={p: ck.Pattern.parse(p).matches(roll.faces) for p in last.patterns},
                reroll_of=last.ref,
                secret_to=_secret_to(ctx),
                evasion_gained=gained,
                kuzure=kuzure,
            )
        )
        return
    memo = acc.game.attacks.get(last.ref)
    if memo is None or memo.evaded or last.evaded:
        reject("already_evaded", "敵が既に回避判定を行った攻撃は振り直せない", S)
    if not 0 <= cmd.index < len(memo.rolls):
        raise InvalidCommand(
            f"the attack has attacks 0-{len(memo.rolls) - 1}",
            detail=f"振り直せる攻撃は0〜{len(memo.rolls) - 1}回目",
        )
    m = memo.rolls[cmd.index]
    if m.auto:
        reject("nothing_to_reroll", "自動成功した攻撃は振り直せない", S)
    old = m.template
    was_pending = old.id in acc.game.pending
    if not was_pending and m.success:
        # it hit and was already evaded or resolved
        reject("already_resolved", "既にダメージが解決された攻撃は振り直せない", S)
    roll, res = ck.roll_check(ctx.dice, m.dice, m.difficulty)
    sat = ck.Pattern.parse(old.satsubatsu) if old.satsubatsu else None
    namu = ck.Pattern.parse(old.namu) if old.namu else None
    crit = sb.critical_of(roll.faces, success=res.success, satsubatsu=sat, namu=namu)
    new_hit = (
        _replace(old, critical=crit, successes=res.successes, faces=roll.faces)
        if res.success
        else None
    )
    acc.add(
        ev.AttackRerolled(
            attack_id=last.ref,
            attacker=cmd.character_id,
            index=cmd.index,
            roll=ev.AttackRoll(
                index=cmd.index,
                target=old.target,
                dice=m.dice,
                difficulty=m.difficulty,
                successes=res.successes,
                success=res.success,
                roll=roll,
                critical=crit,
            ),
            removed=old.id if was_pending else None,
            hit=new_hit,
        )
    )
    if new_hit is not None:
        _land_or_wait(acc, [new_hit], ctx, opts)


# --------------------------------------------------------------------------- DKK and Wasshoi!


def _gain_dkk(acc: _Acc, cmd: c.GainDkk, ctx: Context, opts: NsOptions) -> None:
    """NS-25: 【DKK】 gains (GM), capped at 12; 3 or more in a turn calls for Wasshoi! (NS-97)."""
    _, sheet, f = _load(acc.table, acc.game, cmd.character_id)
    roll = None
    if cmd.guide is not None:
        g = dk.DKK_GUIDE.get(cmd.guide)
        if g is None:
            raise InvalidCommand(
                f"DKK guide is one of {sorted(dk.DKK_GUIDE)}", detail="DKK獲得の目安が正しくない"
            )
        if g.dice == "D3":
            roll = ctx.dice.roll(1, 6)
            amount = dk.d3(roll.faces[0])
        elif g.dice == "2D3":
            roll = ctx.dice.roll(2, 6)
            amount = sum(dk.d3(x) for x in roll.faces)
        elif g.dice == "2D6":
            roll = ctx.dice.roll(2, 6)
            amount = roll.total
        else:
            amount = g.fixed
    elif cmd.amount is not None:
        amount = cmd.amount
    else:
        raise InvalidCommand(
            "give an amount or a guide", detail="【DKK】の点数か目安を指定すること"
        )
    after = dk.clamp_dkk(f.dkk + amount)
    total = acc.game.dkk_this_turn + max(amount, 0)
    due = acc.game.combat and total >= opts.wasshoi_dkk_per_turn
    acc.add(
        ev.DkkGained(
            character_id=cmd.character_id,
            amount=amount,
            before=f.dkk,
            after=after,
            roll=roll,
            guide=cmd.guide,
            turn_total=total,
            wasshoi_due=due,
            reason=cmd.reason[:500],
        )
    )


def _wasshoi(acc: _Acc, cmd: c.Wasshoi, ctx: Context) -> None:
    """NS-97 … NS-99: 2D6 at or below the highest 【DKK】 present; on success the entry d6."""
    table, game = acc.table, acc.game
    present = cmd.present
    if present is None:
        present = [
            k
            for k, f in game.fighters.items()  # the 気絶 are still on the map (NS-82)
            if k in table.characters
            and f.status in (ACTIVE, FAINTED)
            and sheet_of(table.characters[k].sheet).ninja
        ]
    values = []
    for k in present:
        _, sheet, f = _load(table, game, k)
        if sheet.ninja:
            values.append((f.dkk, k))
    target = cmd.target if cmd.target is not None else dk.wasshoi_target(v for v, _ in values)
    # the highest DKK is the first target; ties: the first in order, the GM may choose (G-NS-26)
    top = max(values, key=lambda v: v[0], default=(0, None))[1]
    roll = ctx.dice.roll(2, 6)
    success = dk.wasshoi(roll.total, target)
    entry = ctx.dice.roll(1, 6) if success else None
    acc.add(
        ev.WasshoiRolled(
            roll=roll,
            total=roll.total,
            target=target,
            success=success,
            target_ninja=top if success else None,
            entry=entry,
            entry_row=entry.faces[0] if entry else 0,
        )
    )
