"""``decide`` of シャドー・ジャン2: one player's move, then the table runs on by itself.

Each handler checks that the move is the one the rules allow now (the moves
:func:`moves` lists, offered to clients as the ruleset's affordances), rolls through ``ctx.dice``, and hands over to
:mod:`taku_shadowjan._flow`, which carries the game on until a player must move
again. A move that is not legal now is rejected with ``rule/shadowjan/<reason>``
and writes nothing.
"""

from __future__ import annotations

from typing import Any, cast

import msgspec

from taku.core import kit
from taku.core.events import TimerCancelled, TimerExpired
from taku.core.play import Affordance, Choice
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import InvalidCommand
from taku_nstrpg import checks as ck
from taku_nstrpg import combat as cb
from taku_nstrpg import satsubatsu as sb
from taku_shadowjan import _flow as flow
from taku_shadowjan import _rules as rules
from taku_shadowjan import commands as c
from taku_shadowjan import events as ev
from taku_shadowjan._flow import Acc, reject, section
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import (
    BATTLE,
    DECLARE,
    ENDED,
    LOBBY,
    TURN,
    Critical,
    SjGame,
    SjHit,
    Step,
)

__all__ = ["decide", "moves", "on_timer", "waiting_for"]

MAX_PLAYERS = 4


def decide(table: TableState, command: Any, ctx: Context[SjOptions]) -> list[Emitted]:
    """The events of ``command`` and of every automatic step after it, then a
    ``shadowjan.to_move`` naming whose move it is now and the moves legal then.

    Who may send each command is its declared ``permit`` (the character's owner or a GM),
    enforced by the core before this runs.

    Raises:
        Rejected: ``rule/shadowjan/<reason>`` (listed in ``RULESET.errors``) when the rules
            do not allow the move now.
    """
    acc = Acc(
        table,
        ctx,
        ctx.options if isinstance(ctx.options, SjOptions) else kit.options(table, SjOptions),
    )
    match command:
        case c.Sit():
            _sit(acc, command)
        case c.Start():
            _start(acc)
        case c.Tenho() | c.Goumoupai() | c.Ikasama() | c.Neuron() | c.Betaori() | c.Tsumo():
            _turn_action(acc, command)
        case c.Declare():
            _declare(acc, command)
        case c.Attack():
            _attack(acc, command)
        case c.Evade():
            _evade(acc, command)
        case _:
            raise InvalidCommand(
                f"unknown command {type(command).__name__}", code="command/unknown_command"
            )
    return _to_move(acc, table)


TURN_TIMER = "持ち時間"
"""The label of the timers the ``turn_seconds`` option sets."""


def _to_move(acc: Acc, table: TableState) -> list[Emitted]:
    """``acc``'s events, then (outside the lobby and the end) the ``shadowjan.to_move``;
    with ``turn_seconds``, the last move's timer stopped and one set for this move."""
    if acc.opts.turn_seconds and acc.game.phase != LOBBY:
        for t in table.timers.values():
            if t.label == TURN_TIMER:
                acc.add(TimerCancelled(timer_id=t.id, label=t.label))
    if acc.game.phase not in (LOBBY, ENDED):
        # tell every client whose move it is now and what is legal (the server drives the game)
        who, step = waiting_for(acc.game)
        now = msgspec.structs.replace(table, game=acc.game)
        # outside the lobby and the end, the step is a move's (not "sit" or "ended")
        move = cast(Step, step)
        acc.add(ev.ToMove(character_id=who, step=move, moves=tuple(_moves(now, acc.opts))))
        if acc.opts.turn_seconds and not everyone_away(acc.game):
            acc.add(kit.timer(acc.ctx, acc.opts.turn_seconds, label=TURN_TIMER, character_id=who))
    return list(acc.out)


def everyone_away(game: SjGame) -> bool:
    """Whether a whole round of turns (one per player still in) has been passed by the
    timer with nobody moving: ``turn_seconds`` then sets no more timers, and the table
    waits, until someone moves again (a table whose players have all gone does not pass
    turns for ever)."""
    still_in = sum(1 for cid in game.seats if not game.players[cid].out)
    return game.idle_passes >= max(still_in, 1)


def on_timer(table: TableState, expired: TimerExpired, ctx: Context[SjOptions]) -> list[Emitted]:
    """A timer ran out (the ruleset's ``on_timer``): with the ``timeout_pass`` option, the
    turn the table waits for is passed (``shadowjan.turn_passed``): no action, or no
    ツモ判定 for a declared player; a テンホー・チーホー not declared lapses as on any
    first action (SJ-08, G-SJ-06); then the 手番終了 (振り込み判定 SJ-20, 流局 SJ-27, the
    next turn) as after any action. Only a turn is passed: a リーチ/ダマテン宣言 or a fight
    waits on.

    Raises:
        Rejected: (the expiry then changes nothing) ``timeout_pass_off``,
            ``nothing_to_pass`` (not at a turn), ``not_their_turn`` (the timer names
            another character).
    """
    acc = Acc(
        table,
        ctx,
        ctx.options if isinstance(ctx.options, SjOptions) else kit.options(table, SjOptions),
    )
    if not acc.opts.timeout_pass:
        reject(
            "timeout_pass_off", "時間切れで手番を飛ばすオプションがオフ", section("(オプション外)")
        )
    g = acc.game
    who, step = waiting_for(g) if g.phase not in (LOBBY, ENDED) else ("", "")
    if step not in ("action", "tsumo"):
        reject("nothing_to_pass", "飛ばせる手番がない", section("◆手番の処理"))
    if expired.character_id is not None and expired.character_id != who:
        reject("not_their_turn", "タイマーのキャラクターの手番ではない", section("◆手番の処理"))
    if acc.p(who).tenho_ok:
        # SJ-08, G-SJ-06: no テンホー・チーホー declared: the メンツ becomes 2
        acc.add(ev.TenhoDeclared(character_id=who, declared=False, mentsu=2))
    acc.add(ev.TurnPassed(character_id=who, step="tsumo" if step == "tsumo" else "action"))
    flow.turn_end(acc)
    return _to_move(acc, table)


# --------------------------------------------------------------------------- whose move


def waiting_for(game: SjGame) -> tuple[str, str]:
    """``(character_id, step)`` of the move the table waits for; ``("", "sit")`` in the lobby,
    ``("", "ended")`` at the end. Steps: ``action``, ``tsumo``, ``declare``, ``attack``, ``evade``."""
    match game.phase:
        case "lobby":
            return "", "sit"
        case "ended":
            return "", "ended"
        case "declare":
            return game.declaring[0], "declare"
        case "battle":
            w = flow.battle_waiting(game)
            assert w is not None, "a battle with nothing to do has been ended by the flow"
            return w
        case _:
            p = game.players[game.turn]
            return game.turn, "tsumo" if p.declaration else "action"


def _ikasama_base(uses: int) -> int:
    """SJ-12, G-SJ-04: HARD, +1 per earlier イカサマ this hand, never above UH3."""
    return min(ck.HARD + uses, ck.UH3)


def _attack_kinds(acc: Acc, cid: str) -> list[str]:
    b = acc.game.battle
    sheet = acc.sheet(cid)
    kinds = ["melee", "shuriken"]
    if sheet.jitsu >= 1:
        kinds.append("jitsu")
    if b is not None and b.kind == "ron" and any(w.kind == "gun" for w in sheet.carried()):
        kinds.append("gun")  # SJ-22: guns allowed in the ロン回避判定 only
    return kinds


def _targets(acc: Acc, cid: str) -> list[str]:
    b = acc.game.battle
    assert b is not None, "attacks happen in battles"
    live = set(acc.active())
    if b.kind == "ikusa":
        return [f for f in b.fighters if f != cid and f in live]
    return [d for d in b.defenders if d in live]


_ATTACK_JP = {
    "melee": "近接攻撃",
    "shuriken": "スリケン（遠隔攻撃）",
    "jitsu": "ジツ",
    "gun": "銃撃",
}
_STAT_JP = {"karate": "【カラテ】", "wazamae": "【ワザマエ】", "neuron": "【ニューロン】"}


def moves(table: TableState, game: SjGame, opts: SjOptions) -> list[Affordance]:
    """Every move legal now, whoever's it is, as affordances (◆手番の処理).

    Each names its command, a Japanese label, ``args`` with the acting
    ``character_id`` (none for ``shadowjan.start``), ``group`` the character's name,
    and ``choices`` for the open arguments (the ワザマエ 強化, the ツモ判定's attribute,
    the リーチ棒's target, the attack's kind and target, the 回避ダイス). Sending the
    args with one choice per key is a legal move. All are ``primary``: the table waits
    for exactly these. Nothing in a shadowjan table is hidden, so no label is.
    """
    acc = Acc(table, Context(actor=None, role="player", dice=None), opts)  # type: ignore[arg-type]  # reads only
    try:
        who, step = waiting_for(game)
    except (AssertionError, KeyError, IndexError):
        return []  # a replay stopped between two events of one command: nobody moves at that seq
    name = lambda cid: kit.character_name(table, cid)  # noqa: E731
    out: list[Affordance] = []

    def add(
        command: str,
        label: str,
        cid: str = "",
        choices: dict[str, list[Choice]] | None = None,
        **args: Any,
    ) -> None:
        out.append(
            Affordance(
                command=f"shadowjan.{command}",
                label=label,
                args={"character_id": cid, **args} if cid else dict(args),
                choices=choices or {},
                group=name(cid) if cid else "",
                primary=True,
            )
        )

    if step == "sit":
        seated = set(game.players)
        if len(seated) < MAX_PLAYERS:
            for cid, ch in table.characters.items():
                if cid not in seated:
                    add("sit", f"{ch.name}で着席", cid)
        if len(seated) >= 2:
            add("start", "対局開始")
        return out
    if step in ("ended", "resolving"):
        return out
    p = game.players[who]
    if step == "action":
        if p.tenho_ok and p.turns == 1:
            add("tenho", "テンホー・チーホー", who)
        if acc.stat(who, "karate") >= (2 if p.karate_uses == 0 else 3):
            add("karate", "カラテ判定（ゴーモーパイ）", who)
        base = _ikasama_base(p.ikasama_uses)
        enhance = [
            Choice(
                value=e,
                label=f"強化+{e}（{ck.difficulty_name(base + e)}、メンツ+{1 + e}）"
                if e
                else f"{ck.difficulty_name(base)}（メンツ+1）",
            )
            for e in range(0, ck.UH3 - base + 1)
        ]
        add("wazamae", "ワザマエ判定（イカサマ）", who, {"enhance": enhance})
        add("neuron", "ニューロン判定", who)
        if p.mentsu >= 2:
            add("betaori", "ベタオリ", who)
    elif step == "tsumo":
        add(
            "tsumo",
            "ツモ判定",
            who,
            {"stat": [Choice(value=k, label=v) for k, v in _STAT_JP.items()]},
        )
    elif step == "declare":
        sticks = [Choice(value=None, label="リーチ棒を投げない")]
        sticks += [
            Choice(value=t, label=f"リーチ棒を{name(t)}へ") for t in acc.active() if t != who
        ]
        add("declare", "リーチ", who, {"stick_target": sticks}, kind="riichi")
        add("declare", "ダマテン", who, kind="dama")
    elif step == "attack":
        b = game.battle
        assert b is not None, "attack step inside a battle"
        targets = _targets(acc, who)
        if b.kind == "ron" and b.uncovered:
            targets = [t for t in targets if t in b.uncovered] or targets
        kinds = [Choice(value=k, label=_ATTACK_JP[k]) for k in _attack_kinds(acc, who)]
        add(
            "attack",
            "攻撃",
            who,
            {"kind": kinds, "target": [Choice(value=t, label=name(t)) for t in targets]},
        )
    elif step == "evade":
        dice = [
            Choice(value=n, label=f"{n}ダイス" if n else "回避しない")
            for n in range(0, p.evasion_dice + 1)
        ]
        add("evade", "回避判定", who, {"dice": dice})
    return out


def _moves(table: TableState, opts: SjOptions) -> list[ev.Move]:
    """The legal moves of ``table`` spelled out for ``shadowjan.to_move``: one per choice."""
    out: list[ev.Move] = []
    for a in moves(table, table.game, opts):
        combos: list[tuple[str, dict[str, Any]]] = [("", {})]
        for key, choices in a.choices.items():
            combos = [
                (f"{lab}・{c.label}" if lab else c.label, {**args, key: c.value})
                for lab, args in combos
                for c in choices
            ]
        for lab, args in combos:
            command = {
                "type": a.command,
                **a.args,
                **{k: v for k, v in args.items() if v is not None},
            }
            out.append(
                ev.Move(
                    label=f"{a.label} {lab}" if lab else a.label,
                    character_id=a.args.get("character_id", ""),
                    command=command,
                )
            )
    return out


def _must_move(acc: Acc, cid: str, *steps: str) -> None:
    """The command's character must be the one the table waits for, at one of ``steps``."""
    g = acc.game
    if g.phase == LOBBY:
        reject("not_started", "対局はまだ始まっていない", section("ゲームの流れ"))
    if g.phase == ENDED:
        reject("game_over", "対局は終了している", section("◆ゲームの終了"))
    who, step = waiting_for(g)
    if cid != who:
        reject(
            "not_your_move",
            f"いまは {kit.character_name(acc.table, who)} の番({_STEP_JP[step]})",
            section("◆手番の処理"),
        )
    if step not in steps:
        reject(f"expected_{step}", f"いまは{_STEP_JP[step]}の番", section(_STEP_SECTION[step]))


_STEP_JP = {
    "action": "手番の行動",
    "tsumo": "ツモ判定",
    "declare": "リーチ/ダマテン宣言",
    "attack": "攻撃",
    "evade": "回避判定",
    "sit": "着席",
    "ended": "終了",
}
_STEP_SECTION = {
    "action": "◆手番の処理",
    "tsumo": "ツモ判定",
    "declare": "◆手番の処理 (リーチ/ダマテン)",
    "attack": "ロン回避判定",
    "evade": "ロン回避判定",
    "sit": "ゲームの流れ",
    "ended": "◆ゲームの終了",
}


# --------------------------------------------------------------------------- lobby


def _sit(acc: Acc, cmd: c.Sit) -> None:
    """SJ-02, SJ-03: a seat for an NSTRPG character that keeps to the equipment rules."""
    g = acc.game
    if g.phase != LOBBY:
        reject("already_started", "対局中は着席できない", section("ゲームの流れ"))
    if cmd.character_id in g.players:
        reject("already_seated", "すでに着席している", section("ゲームの流れ"))
    if len(g.players) >= MAX_PLAYERS:
        reject("table_full", "卓は4人まで", section("推奨人数"))
    try:
        sheet = flow.sheet_of(acc.table, cmd.character_id)
    except (KeyError, msgspec.ValidationError):
        reject(
            "bad_sheet", "ニンジャスレイヤーTRPGのキャラクターシートが必要", section("基本ルール")
        )
    why = rules.equipment_problem(sheet)
    if why is not None:
        reject("forbidden_equipment", why, section("基本ルール"))
    acc.add(
        ev.Seated(
            character_id=cmd.character_id,
            tairyoku=sheet.tairyoku,
            seishin=sheet.seishin,
            dkk=sheet.dkk,
        )
    )


def _start(acc: Acc) -> None:
    """SJ-04, SJ-05: seat order by 1d100, 25000 each, then the first deal."""
    g = acc.game
    if g.phase != LOBBY:
        reject("already_started", "対局はもう始まっている", section("ゲームの流れ"))
    if len(g.players) < 2:
        reject("not_enough_players", "2人以上で遊ぶ", section("推奨人数"))
    if not acc.ctx.is_gm and not any(
        acc.table.characters[cid].owner == acc.ctx.actor for cid in g.players
    ):
        reject("not_seated", "着席したプレイヤーだけが開始できる", section("ゲームの流れ"))
    rolls: list[ev.SeatRoll] = []
    seats = flow.seat_order(acc, list(g.players), rolls)
    acc.add(ev.GameStarted(rolls=tuple(rolls), seats=tuple(seats), score=acc.opts.start_score))
    flow.start_hand(acc, 1, seats[0])


# --------------------------------------------------------------------------- turn actions


def _turn_action(acc: Acc, cmd: Any) -> None:
    """◆手番の処理: exactly one action per turn (SJ-11 … SJ-17), or the ツモ判定 (SJ-21)."""
    cid = cmd.character_id
    if isinstance(cmd, c.Tsumo):
        _must_move(acc, cid, "tsumo")
        _tsumo(acc, cmd)
        return
    _must_move(acc, cid, "action")
    p = acc.p(cid)
    if isinstance(cmd, c.Tenho):
        if not (p.tenho_ok and p.turns == 1):
            reject(
                "no_tenho",
                "テンホー・チーホーは配牌で5メンツの者が最初の手番にだけ宣言できる",
                section("◆配牌"),
            )
        acc.add(ev.TenhoDeclared(character_id=cid))
        others = [o for o in acc.order_from(cid) if o != cid]
        acc.add(
            ev.BattleStarted(
                battle=flow.Battle(kind="tenho", defenders=(cid,), attackers=tuple(others))
            )
        )
        flow.advance_battle(acc)
        return
    if isinstance(cmd, c.Betaori) and p.mentsu < 2 and not p.tenho_ok:
        reject("betaori_below_zero", "メンツが0を下回るベタオリはできない", section("ベタオリ"))
    if p.tenho_ok:
        # SJ-08, G-SJ-06: no テンホー・チーホー declared: the メンツ becomes 2
        acc.add(ev.TenhoDeclared(character_id=cid, declared=False, mentsu=2))
        p = acc.p(cid)
    match cmd:
        case c.Goumoupai():
            _goumoupai(acc, cmd)
        case c.Ikasama():
            _ikasama(acc, cmd)
        case c.Neuron():
            _neuron(acc, cmd)
        case c.Betaori():
            acc.add(ev.Betaoried(character_id=cid, mentsu=p.mentsu - 2))
            flow.turn_end(acc)
        case _:
            raise AssertionError("dispatched above")


def _goumoupai(acc: Acc, cmd: c.Goumoupai) -> None:
    """SJ-11, G-SJ-02/03: 2 NORMAL checks (3 from the 2nd カラテ of this hand), +1 メンツ each success."""
    cid = cmd.character_id
    p = acc.p(cid)
    n = 2 if p.karate_uses == 0 else 3
    pool = acc.stat(cid, "karate")
    split = (
        list(cmd.split)
        if cmd.split is not None
        else [pool // n + (1 if i < pool % n else 0) for i in range(n)]
    )
    if len(split) != n:
        reject(
            "bad_split", f"ゴーモーパイは{n}回の判定に分ける", section("カラテ判定――ゴーモーパイ")
        )
    if pool < n or any(d < 1 for d in split):
        reject(
            "pool_too_small",
            f"カラテ{pool}を{n}つに分けられない",
            section("カラテ判定――ゴーモーパイ"),
        )
    if sum(split) > pool:
        reject(
            "too_many_dice", f"ダイスが足りない(カラテ{pool})", section("カラテ判定――ゴーモーパイ")
        )
    rolls, succ = [], []
    for d in split:
        r, res = ck.roll_check(acc.ctx.dice, d, ck.NORMAL)
        rolls.append(r)
        succ.append(res.successes)
    gained = sum(1 for s in succ if s > 0)
    acc.add(
        ev.ActionRolled(
            character_id=cid,
            action="karate",
            rolls=tuple(rolls),
            difficulties=(ck.NORMAL,) * n,
            successes=tuple(succ),
            gained=gained,
            mentsu=p.mentsu + gained,
        )
    )
    flow.after_action(acc)


def _ikasama(acc: Acc, cmd: c.Ikasama) -> None:
    """SJ-12 … SJ-14: HARD +1 per earlier イカサマ; 強化 up to UH3; failure is チョンボ and every other attacks."""
    cid = cmd.character_id
    p = acc.p(cid)
    base = _ikasama_base(p.ikasama_uses)
    level = base + cmd.enhance
    if level > ck.UH3:
        reject(
            "ikasama_cap",
            f"強化イカサマの難易度はUH3まで({ck.difficulty_name(base)}+{cmd.enhance})",
            section("ワザマエ判定――イカサマ"),
        )
    r, res = ck.roll_check(acc.ctx.dice, acc.stat(cid, "wazamae"), level)
    gained = 1 + cmd.enhance if res.success else 0
    acc.add(
        ev.ActionRolled(
            character_id=cid,
            action="wazamae",
            rolls=(r,),
            difficulties=(level,),
            successes=(res.successes,),
            gained=gained,
            mentsu=p.mentsu + gained,
            enhance=cmd.enhance,
            chombo=not res.success,
        )
    )
    if res.success:
        flow.after_action(acc)
        return
    others = [o for o in acc.order_from(cid) if o != cid]
    acc.add(
        ev.BattleStarted(
            battle=flow.Battle(kind="ikasama", defenders=(cid,), attackers=tuple(others))
        )
    )
    flow.advance_battle(acc)


def _neuron(acc: Acc, cmd: c.Neuron) -> None:
    """SJ-15: U-HARD, +1 メンツ, +1 more with two or more 6s."""
    cid = cmd.character_id
    p = acc.p(cid)
    r, res = ck.roll_check(acc.ctx.dice, acc.stat(cid, "neuron"), ck.UH)
    gained = (1 + (r.faces.count(6) >= 2)) if res.success else 0
    acc.add(
        ev.ActionRolled(
            character_id=cid,
            action="neuron",
            rolls=(r,),
            difficulties=(ck.UH,),
            successes=(res.successes,),
            gained=gained,
            mentsu=p.mentsu + gained,
        )
    )
    flow.after_action(acc)


def _tsumo(acc: Acc, cmd: c.Tsumo) -> None:
    """SJ-21: U-HARD; 6s accumulate; then ニンジャ殺すべし (SJ-28) on a failure."""
    cid = cmd.character_id
    p = acc.p(cid)
    r, _ = ck.roll_check(acc.ctx.dice, acc.stat(cid, cmd.stat), ck.UH)
    sixes = r.faces.count(6)
    total = p.sixes + sixes
    win = total >= acc.opts.tsumo_sixes
    acc.add(
        ev.TsumoRolled(
            character_id=cid,
            stat=cmd.stat,
            roll=r,
            sixes=sixes,
            total=total,
            needed=acc.opts.tsumo_sixes,
            win=win,
        )
    )
    if win:
        flow.score_tsumo(acc, cid, p.declaration)
        flow.hand_over(acc)
        return
    if flow.ninja_slayer_check(acc, cid):
        return
    flow.turn_end(acc)


def _declare(acc: Acc, cmd: c.Declare) -> None:
    """SJ-18, SJ-19, SJ-36: リーチ or ダマテン; a リーチ may throw the stick at once."""
    cid = cmd.character_id
    _must_move(acc, cid, "declare")
    if cmd.stick_target is not None:
        if cmd.kind != "riichi":
            reject(
                "stick_needs_riichi",
                "リーチ棒を投げられるのはリーチ宣言の時だけ",
                section("◆手番の処理"),
            )
        if cmd.stick_target == cid or cmd.stick_target not in acc.active():
            reject(
                "bad_stick_target",
                "リーチ棒は卓についている他のキャラクターへ",
                section("◆手番の処理"),
            )
    acc.add(ev.Declared(character_id=cid, kind=cmd.kind))
    if cmd.stick_target is None:
        flow.after_declaration(acc)
        return
    yumido = acc.opts.yumido and any("ユミドー" in s for s in acc.sheet(cid).skills)
    r = acc.roll(2, 3) if yumido else acc.roll(1, 6)  # SJ-36 リーチ棒強化: 2d3
    hit = SjHit(
        id=acc.ctx.new_id("h"),
        attacker=cid,
        target=cmd.stick_target,
        kind="stick",
        damage=r.total,
        damage_roll=r.faces,
        evasion=ck.UH2 if yumido else ck.UH,
    )
    acc.add(ev.StickThrown(character_id=cid, target=cmd.stick_target, roll=r, hit=hit))
    flow.advance_battle(acc)


# --------------------------------------------------------------------------- fights


def _attack(acc: Acc, cmd: c.Attack) -> None:
    """An attack (SJ-09, SJ-14, SJ-22, SJ-23) with the NSTRPG profiles of taku_nstrpg.combat."""
    cid = cmd.character_id
    _must_move(acc, cid, "attack")
    S = section("ロン回避判定")
    sheet = acc.sheet(cid)
    b = acc.game.battle
    assert b is not None, "attack step inside a battle"
    if cmd.kind not in _attack_kinds(acc, cid):
        if cmd.kind == "gun":
            reject("no_guns", "銃火器はロン回避判定(放銃)でだけ、持っていれば使える", S)
        reject("no_jitsu", "ジツを持っていない", S)
    ninja_crit = sheet.is_ninja and acc.opts.satsubatsu
    if cmd.kind == "melee":
        weapon = sheet.weapon("unarmed")
        if cmd.weapon is not None:
            w = sheet.weapon(cmd.weapon)
            if w is None or w.kind != "melee" or not rules.is_bio(w.id, w.name):
                reject(
                    "forbidden_weapon",
                    "近接武器は使えない(バイオサイバネのみ)",
                    section("基本ルール"),
                )
            weapon = w
        assert weapon is not None, "素手 is built in"
        prof = cb.attack_profile(
            kind="melee",
            weapon=weapon,
            style=None,
            skills=sheet.auto(),
            ninja=ninja_crit,
            renzoku_plus=[sheet.renzoku_plus],
        )
        pool = (
            acc.stat(cid, "karate")
            + weapon.bonus_dice
            + sheet.attack_bonus
            + sheet.karate_attack_bonus
        )
    elif cmd.kind in ("shuriken", "gun"):
        if cmd.kind == "gun":
            guns = [w for w in sheet.carried() if w.kind == "gun"]
            weapon = next((w for w in guns if w.id == cmd.weapon), None) if cmd.weapon else guns[0]
            if weapon is None:
                reject("weapon_not_carried", f"{cmd.weapon} を持っていない", S)
        else:
            weapon = sheet.weapon("shuriken")
        assert weapon is not None, "スリケン is built in"
        prof = cb.attack_profile(
            kind="shoot",
            weapon=weapon,
            style=None,
            skills=sheet.auto(),
            ninja=False,
            rensha_plus=[sheet.rensha_plus],
        )
        pool = acc.stat(cid, "wazamae") + weapon.bonus_dice + sheet.shoot_bonus
    else:
        # ジツ (G: 【ニューロン】+【ジツ】 at NORMAL, damage 1, one attack or an area attack)
        prof = cb.AttackProfile(
            kind="shoot",
            damage_kind="jitsu",
            stat="neuron",
            difficulty=ck.NORMAL,
            damage=1,
            max_attacks=1,
            multi=cmd.area,
        )
        pool = acc.stat(cid, "neuron") + sheet.jitsu
    if cmd.area and cmd.kind != "jitsu":
        reject("area_jitsu_only", "範囲攻撃はジツで", S)
    splits = list(cmd.splits)
    if not splits:
        if cmd.target is None:
            reject("no_target", "攻撃の対象(target か splits)を指定する", S)
        splits = [c.Split(target=cmd.target, dice=max(pool, 1))]
    allowed = _targets(acc, cid)
    for s in splits:
        if s.target not in allowed:
            reject(
                "bad_target", f"{kit.character_name(acc.table, s.target)} は攻撃の対象ではない", S
            )
    if cmd.area:
        if len({s.target for s in splits}) != len(splits):
            reject("bad_split", "範囲攻撃は対象ごとに1回", S)
        if pool < 1:
            reject("too_many_dice", "ダイスがない", S)
        r, res = ck.roll_check(acc.ctx.dice, pool, prof.difficulty)
        rolls = [
            ev.AttackRoll(
                target=s.target,
                dice=pool,
                difficulty=prof.difficulty,
                roll=r,
                successes=res.successes,
                success=res.success,
            )
            for s in splits
        ]
    else:
        why = cb.validate_split(pool, [s.dice for s in splits], [s.target for s in splits], prof)
        if why is not None:
            msgs = {
                "too_many_dice": f"ダイスが足りない(判定ダイス{pool}個)",
                "too_many_attacks": f"攻撃回数は最大{prof.max_attacks}回",
                "single_target": "複数のターゲットに割り振れない",
            }
            reject(why, msgs.get(why, why), "NSTRPG 2-16 ●連続攻撃 / ●連射")
        rolls = []
        for s in splits:
            r, res = ck.roll_check(acc.ctx.dice, s.dice, prof.difficulty)
            crit: Critical = (
                sb.critical_of(
                    r.faces, success=res.success, satsubatsu=prof.satsubatsu, namu=prof.namu
                )
                if cmd.kind == "melee"
                else ""
            )
            rolls.append(
                ev.AttackRoll(
                    target=s.target,
                    dice=s.dice,
                    difficulty=prof.difficulty,
                    roll=r,
                    successes=res.successes,
                    success=res.success,
                    critical=crit,
                )
            )
    hits = tuple(
        SjHit(
            id=acc.ctx.new_id("h"),
            attacker=cid,
            target=ar.target,
            kind=cmd.kind,
            damage=prof.damage,
            successes=ar.successes,
            critical=ar.critical,
            faces=ar.roll.faces,
            area=cmd.area,
        )
        for ar in rolls
        if ar.success
    )
    acc.add(
        ev.AttackRolled(
            character_id=cid, kind=cmd.kind, pool=pool, rolls=tuple(rolls), hits=hits, area=cmd.area
        )
    )
    flow.advance_battle(acc)


def _evade(acc: Acc, cmd: c.Evade) -> None:
    """NSTRPG 2-11 回避判定 against the first waiting hit; カウンターカラテ follows by itself (NS-77)."""
    cid = cmd.character_id
    _must_move(acc, cid, "evade")
    p = acc.p(cid)
    if cmd.dice > p.evasion_dice:
        reject(
            "no_evasion_dice", f"回避ダイスが足りない(残り{p.evasion_dice})", "NSTRPG 2-11 回避判定"
        )
    hit = acc.game.pending[0]
    level = flow.evasion_level(acc, hit)
    if cmd.dice == 0:
        acc.add(ev.EvasionRolled(character_id=cid, hit_id=hit.id, dice=0, difficulty=level))
        flow.land(acc, hit)
        flow.advance_battle(acc)
        return
    r, res = ck.roll_check(acc.ctx.dice, cmd.dice, level)
    acc.add(
        ev.EvasionRolled(
            character_id=cid,
            hit_id=hit.id,
            dice=cmd.dice,
            difficulty=level,
            roll=r,
            successes=res.successes,
            success=res.success,
        )
    )
    if not res.success:
        flow.land(acc, hit)
    elif (
        acc.sheet(cid).ninja
        and hit.attacker in acc.active()
        and cb.can_counter(
            kinds=[hit.kind],
            evasion_successes=res.successes,
            attack_successes=hit.successes,
            adjacent=True,
            area=hit.area,
        )
        is None
    ):
        # カウンターカラテは発生する (SJ-09, SJ-22): a 1-damage hit back on the attacker (NS-77)
        counter = SjHit(
            id=acc.ctx.new_id("h"), attacker=cid, target=hit.attacker, kind="counter", damage=1
        )
        acc.add(ev.CounterKarate(character_id=cid, hit=counter))
    flow.advance_battle(acc)


__all__ += ["BATTLE", "DECLARE", "TURN"]
