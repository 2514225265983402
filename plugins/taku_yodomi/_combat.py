"""Round progression, engagements, attacks, damage and bad statuses.

澱み流れ 戦闘ルール, 攻撃と防御, キャラクターの状態について, バッドステータス一覧,
スポットルール (CHECKLIST YD-29 … YD-70, G-YD-08 … G-YD-12, G-YD-17).
"""

from __future__ import annotations

import math
from typing import Literal

import msgspec

from taku.core.dice import Roll
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku_yodomi import commands as C
from taku_yodomi._common import (
    MINOR_REMOVABLE,
    ability,
    char,
    check,
    discard,
    game_of,
    name,
    parse_cards,
    play_on,
    reject,
    require_controls,
    require_in_hand,
    sheet,
)
from taku_yodomi._evolve import project
from taku_yodomi.events import (
    ActionUsed,
    ActorChosen,
    AttackDeclared,
    AttackResolved,
    Blocked,
    CheckBoosted,
    CleanupDone,
    CombatEnded,
    CombatStarted,
    ConditionChanged,
    ContestResolved,
    Covered,
    Damaged,
    DisengageFailed,
    FlagChanged,
    Moved,
    SetupDone,
    StatusAdded,
    StatusRemoved,
    Waited,
)
from taku_yodomi.state import BAD_STATUSES, Acted, Attack, Combat, Condition, Game, Process

S_ROUND = "澱み流れ 戦闘ルール"
S_ENGAGE = "澱み流れ ＜[移動]と[エンゲージ]＞"
S_ATTACK = "澱み流れ ＜攻撃の手順＞"
S_STATE = "澱み流れ キャラクターの状態について"
S_BAD = "澱み流れ バッドステータス一覧"
S_SPOT = "澱み流れ スポットルール"


# --------------------------------------------------------------------------- helpers


def combat_of(game: Game) -> Combat:
    if game.combat is None:
        reject("no_combat", "戦闘中ではありません", S_ROUND)
    return game.combat


def engagement_of(combat: Combat, cid: str) -> str | None:
    for eid, members in combat.engagements.items():
        if cid in members:
            return eid
    return None


def enemies_in(game: Game, combat: Combat, cid: str, *, flying_only: bool = False) -> list[str]:
    """Enemies in ``cid``'s engagement (not 完全消滅); with ``flying_only`` only flying ones."""
    eid = engagement_of(combat, cid)
    if eid is None:
        return []
    me = game.chars[cid]
    out = []
    for other in combat.engagements[eid]:
        o = game.chars.get(other)
        if other == cid or o is None or o.side == me.side or o.condition == Condition.VANISHED:
            continue
        if flying_only and not o.flying:
            continue
        out.append(other)
    return out


def _action_value(table: TableState, cid: str) -> int:
    v = sheet(table, cid).get("action", 0)
    return int(v) if isinstance(v, int) else 0


def next_actor(
    table: TableState, game: Game, combat: Combat, *, done: str | None = None
) -> str | None:
    """G-YD-09: the 未行動 character with the highest 【行動値】 (PCs first on ties, then
    the order of joining); then the waiters, lowest 【行動値】 first (YD-32)."""
    ready = []
    waiting = []
    for i, cid in enumerate(combat.participants):
        c = game.chars.get(cid)
        if c is None or cid == done or c.acted != Acted.UNACTED:
            continue
        if c.condition not in (Condition.ACTIVE, Condition.YODOMI_LIFE):
            continue
        av = _action_value(table, cid)
        if cid in combat.waiting:
            waiting.append((av, i, cid))
        else:
            ready.append((-av, 0 if c.side == "pc" else 1, i, cid))
    if ready:
        return min(ready)[-1]
    if waiting:
        return min(waiting)[-1]
    return None


def turn(table: TableState, ctx: Context, cid: str, kind: str) -> list[Emitted]:
    """Check that ``cid`` may take a ``minor``/``major`` action now; the events marking it.

    Outside combat any action is free (no events). In combat it must be the
    character's main process (YD-32); one minor, then the major ends the turn
    and the next actor is chosen (YD-33, YD-34, YD-37).
    """
    game = game_of(table)
    c = char(table, cid)
    if c.condition not in (Condition.ACTIVE, Condition.YODOMI_LIFE):
        reject("cannot_act", f"{name(table, cid)} は行動できません（{c.condition}）", S_STATE)
    if kind == "major" and "マヒ" in c.statuses:
        reject("paralysed", "マヒ: メジャーアクションを使えません", S_BAD)
    combat = game.combat
    if combat is None or cid not in combat.participants:
        return []
    if combat.process != Process.MAIN or combat.actor != cid:
        reject("not_your_turn", f"{name(table, cid)} のメインプロセスではありません", S_ROUND)
    if combat.major_done:
        # YD-32: minor, then major; the major action ends the main process
        reject("turn_over", "メジャーアクションの後は行動できません", S_ROUND)
    if kind == "minor":
        if combat.minor_done:
            reject("minor_used", "マイナーアクションはもう使いました", S_ROUND)
        return [ActionUsed(character_id=cid, action="minor")]
    return [ActionUsed(character_id=cid, action="major")]


def after_major(table: TableState, so_far: list[Emitted], cid: str) -> list[Emitted]:
    """The next actor once ``cid``'s major action (the events ``so_far``) ended its main process."""
    table = project(table, so_far)
    game = game_of(table)
    combat = game.combat
    if combat is None or cid not in combat.participants or combat.actor != cid:
        return []
    return [ActorChosen(character_id=next_actor(table, game, combat))]


def damage(
    table: TableState,
    ctx: Context,
    cid: str,
    amount: int,
    attribute: str = "",
    *,
    source: str = "",
    item: str | None = None,
    apply_defence: bool = True,
    pp_sp: tuple[int, int] | None = None,
    roll: Roll | None = None,
    attack: bool = True,
) -> list[Emitted]:
    """Damage to a character (YD-44 … YD-47, YD-50).

    The defence modifier for ``attribute`` is subtracted, a matching 防御属性 halves
    it (rounded up, G-YD-12), 【PP】 floors at 0 and reaching 0 is 戦闘不能; a
    戦闘不能 character takes damage on 【SP】 and dies at 0; a dead one hit again
    is 完全消滅. ``item``: 武器狙い, the damage goes to that item's 【PP】, without the
    owner's 防御修正 but halved by its 防御属性 (YD-70).
    ``attack=False`` (毒X, 極技+転倒): no attack, so it does nothing to a character already
    死亡 or out of play (only an attack makes the dead 完全消滅, YD-50).
    """
    game = game_of(table)
    c = char(table, cid)
    sh = sheet(table, cid)
    if not attack and c.condition in (Condition.DEAD, Condition.VANISHED, Condition.FLOW_DEATH):
        return []
    if c.condition == Condition.DEAD:
        # YD-50, YD-53: attacked while dead: 完全消滅, every 流れ discarded
        hand = game.hands.get(cid, [])
        gone: list[Emitted] = [discard(table, ctx, cid, hand, "完全消滅")] if hand else []
        return [
            *gone,
            ConditionChanged(
                character_id=cid,
                condition=Condition.VANISHED.value,
                reason="死亡状態で攻撃を受けた",
            ),
        ]
    if c.condition in (Condition.VANISHED, Condition.FLOW_DEATH):
        reject("not_in_play", f"{name(table, cid)} はもう場にいません", S_STATE)
    dmg = amount
    if apply_defence and attribute and item is None:
        # YD-70: a 武器狙い hit goes straight to the item's 【PP】: only the owner's 防御属性 still applies
        dmg -= int((sh.get("defense") or {}).get(attribute, 0))
    dmg = max(dmg, 0)
    halved = bool(attribute) and attribute in (sh.get("defense_attributes") or [])
    if halved:
        dmg = math.ceil(dmg / 2)
    pp, sp = pp_sp if pp_sp is not None else (c.pp, c.sp)
    if item is not None:
        if item not in c.item_pp:
            reject("unknown_item", f"{name(table, cid)} は「{item}」を持っていません", S_SPOT)
        left = max(c.item_pp[item] - dmg, 0)
        return [
            Damaged(
                character_id=cid,
                amount=dmg,
                attribute=attribute,
                halved=halved,
                to="item",
                item=item,
                pp=pp,
                sp=sp,
                item_pp=left,
                source=source,
                roll=roll,
            )
        ]
    out: list[Emitted] = []
    if c.condition == Condition.INCAPACITATED or c.condition == Condition.YODOMI_LIFE:
        sp = max(sp - dmg, 0)
        out.append(
            Damaged(
                character_id=cid,
                amount=dmg,
                attribute=attribute,
                halved=halved,
                to="sp",
                pp=pp,
                sp=sp,
                source=source,
                roll=roll,
            )
        )
        if sp == 0:
            out.append(
                ConditionChanged(character_id=cid, condition=Condition.DEAD.value, reason="【SP】0")
            )
        return out
    pp = max(pp - dmg, 0)
    out.append(
        Damaged(
            character_id=cid,
            amount=dmg,
            attribute=attribute,
            halved=halved,
            to="pp",
            pp=pp,
            sp=sp,
            source=source,
            roll=roll,
        )
    )
    if pp == 0:
        out.append(
            ConditionChanged(
                character_id=cid, condition=Condition.INCAPACITATED.value, reason="【PP】0"
            )
        )
    return out


def add_status(
    table: TableState,
    ctx: Context,
    cid: str,
    status: str,
    x: int = 0,
    *,
    by: str | None = None,
    item: str | None = None,
) -> list[Emitted]:
    """A bad status and its side effects: 転倒 during 極技 deals 4D6 and ends 極技 (YD-61)."""
    c = char(table, cid)
    if status not in BAD_STATUSES:
        reject("unknown_status", f"バッドステータス「{status}」はありません", S_BAD)
    if status == "毒" and x < 1:
        reject("bad_status_value", "毒X の X は1以上です", S_BAD)
    if status == "使用不能" and not item:
        reject("bad_status_value", "使用不能は武器に対して発生します", S_BAD)
    if status == "水中" and c.flying:
        reject("flying", "飛行状態では水中になりません", S_BAD)
    out: list[Emitted] = []
    if status == "転倒" and "極技" in c.statuses:
        out.append(StatusRemoved(character_id=cid, status="極技", reason="転倒"))
        if c.condition not in (Condition.DEAD, Condition.VANISHED, Condition.FLOW_DEATH):
            r = ctx.dice.roll(4, 6)
            out += damage(
                table,
                ctx,
                cid,
                r.total,
                "",
                source="極技+転倒 4D6",
                apply_defence=False,
                roll=r,
                attack=False,
            )
    out.insert(0, StatusAdded(character_id=cid, status=status, x=x, by=by, item=item))
    return out


# --------------------------------------------------------------------------- round progression


def start_combat(table: TableState, cmd: C.StartCombat, ctx: Context) -> list[Emitted]:
    game = game_of(table)
    if game.combat is not None:
        reject("combat_running", "もう戦闘中です", S_ROUND)
    if not cmd.engagements:
        reject("empty_engagement", "エンゲージを一つ以上決めてください", S_ENGAGE)
    seen: list[str] = []
    engagements: dict[str, list[str]] = {}
    for i, group in enumerate(cmd.engagements, 1):
        if not group:
            reject("empty_engagement", "空のエンゲージは作れません", S_ENGAGE)
        for cid in group:
            char(table, cid)
            if cid in seen:
                reject("twice_engaged", f"{name(table, cid)} が二つのエンゲージにいます", S_ENGAGE)
            seen.append(cid)
        engagements[f"e{i}"] = list(group)
    for cid in cmd.surprised:
        if cid not in seen:
            reject("not_participant", f"{name(table, cid)} は戦闘に参加していません", S_SPOT)
    combat = Combat(
        participants=seen,
        engagements=engagements,
        surprised=list(cmd.surprised),
        next_engagement=len(engagements) + 1,
    )
    return [CombatStarted(combat=combat)]


def advance(table: TableState, cmd: C.AdvanceRound, ctx: Context) -> list[Emitted]:
    """GM: the next process step.

    setup (YD-30: everyone not 戦闘不能/死亡 is 未行動; 不意打ち victims stay
    行動済み in round 1, YD-67) -> initiative (the next actor, G-YD-09) -> main
    (advancing here ends the actor's turn) -> cleanup (YD-36: 毒X damage,
    放心 ends) -> setup of the next round.
    """
    game = game_of(table)
    combat = combat_of(game)
    match combat.process:
        case Process.SETUP:
            unacted, acted = [], []
            for cid in combat.participants:
                c = game.chars.get(cid)
                if c is None:
                    continue
                if c.condition in (Condition.ACTIVE, Condition.YODOMI_LIFE) and not (
                    combat.round == 1 and cid in combat.surprised
                ):
                    unacted.append(cid)
                else:
                    acted.append(cid)
            return [SetupDone(round=combat.round, unacted=tuple(unacted), acted=tuple(acted))]
        case Process.INITIATIVE:
            return [ActorChosen(character_id=next_actor(table, game, combat))]
        case Process.MAIN:
            assert combat.actor is not None, "the main process always has an actor"
            return [
                ActionUsed(character_id=combat.actor, action="major", what="end"),
                ActorChosen(character_id=next_actor(table, game, combat, done=combat.actor)),
            ]
        case Process.CLEANUP:
            out: list[Emitted] = []
            for cid in combat.participants:
                c = game.chars.get(cid)
                if c is None:
                    continue
                x = c.statuses.get("毒")
                if x and c.condition not in (
                    Condition.DEAD,
                    Condition.VANISHED,
                    Condition.FLOW_DEATH,
                ):
                    # YD-56: 毒 is no attack: the dead do not vanish by it, the gone take nothing
                    r = ctx.dice.roll(x, 6)
                    out += damage(
                        table,
                        ctx,
                        cid,
                        r.total,
                        "",
                        source=f"毒{x}",
                        apply_defence=False,
                        roll=r,
                        attack=False,
                    )
                if "放心" in c.statuses:
                    out.append(
                        StatusRemoved(
                            character_id=cid, status="放心", reason="クリンナッププロセス"
                        )
                    )
            out.append(CleanupDone(round=combat.round))
            return out


def end_combat(table: TableState, cmd: C.EndCombat, ctx: Context) -> list[Emitted]:
    combat = combat_of(game_of(table))
    return [CombatEnded(rounds=combat.round)]


def wait(table: TableState, cmd: C.Wait, ctx: Context) -> list[Emitted]:
    char(table, cmd.character_id)
    game = game_of(table)
    combat = combat_of(game)
    if combat.process != Process.MAIN or combat.actor != cmd.character_id:
        reject("not_your_turn", "待機は自分のメインプロセスで宣言します", S_ROUND)
    if cmd.character_id in combat.waiting:
        reject("already_waiting", "もう待機しています", S_ROUND)
    if combat.minor_done:
        reject("already_acting", "行動を始めた後は待機できません", S_ROUND)
    after = msgspec.structs.replace(combat, waiting=[*combat.waiting, cmd.character_id])
    return [
        Waited(character_id=cmd.character_id),
        ActorChosen(character_id=next_actor(table, game, after)),
    ]


def minor(table: TableState, cmd: C.Minor, ctx: Context) -> list[Emitted]:
    char(table, cmd.character_id)
    kind: Literal["minor", "major"] = "major" if cmd.major else "minor"
    turn(table, ctx, cmd.character_id, kind)  # validates the timing
    out: list[Emitted] = [ActionUsed(character_id=cmd.character_id, action=kind, what=cmd.what)]
    if cmd.major:
        out += after_major(table, out, cmd.character_id)
    return out


# --------------------------------------------------------------------------- engagements


def move(table: TableState, cmd: C.Move, ctx: Context) -> list[Emitted]:
    """移動 (YD-39); flying characters may leave by 移動 unless a flying enemy is there (YD-65)."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    combat = combat_of(game)
    here = engagement_of(combat, cid)
    if cmd.engagement not in combat.engagements or cmd.engagement == here:
        reject("unknown_engagement", f"エンゲージ {cmd.engagement!r} には移動できません", S_ENGAGE)
    if c.passenger_of is not None:
        reject("passenger", "同乗状態では自分で移動できません", S_SPOT)
    for s in ("転倒", "地中"):
        if s in c.statuses:
            reject("cannot_move", f"{s}: 移動できません", S_BAD)
    if not cmd.major and "阻止" in c.statuses:
        reject("cannot_move", "阻止: マイナーアクションで移動できません", S_BAD)
    enemies = enemies_in(game, combat, cid, flying_only=c.flying)
    if enemies:
        reject("engaged", "敵とエンゲージしている間は移動できません（離脱を使います）", S_ENGAGE)
    out = turn(table, ctx, cid, "major" if cmd.major else "minor")
    out += _moved(table, game, combat, cid, cmd.engagement, disengage=False)
    if cmd.major:
        out += after_major(table, out, cid)
    return out


def _moved(
    table: TableState, game: Game, combat: Combat, cid: str, target: str, *, disengage: bool
) -> list[Emitted]:
    passengers = tuple(p for p, pc in game.chars.items() if pc.passenger_of == cid)
    out: list[Emitted] = [
        Moved(character_id=cid, engagement=target, passengers=passengers, disengage=disengage)
    ]
    for who in (cid, *passengers):
        w = game.chars[who]
        if (
            "極技" in w.statuses
            and w.kiwaza_by is not None
            and engagement_of(combat, w.kiwaza_by) != target
        ):
            out.append(StatusRemoved(character_id=who, status="極技", reason="別のエンゲージへ"))
        if "水中" in w.statuses:
            out.append(StatusRemoved(character_id=who, status="水中", reason="エンゲージを出た"))
    return out


def disengage(table: TableState, cmd: C.Disengage, ctx: Context) -> list[Emitted]:
    """離脱 (YD-40, major, no roll); from a 封鎖 engagement, win a 行動値 対決 against every
    blocker (the leaver is the action side; ties to the blocker, YD-41). ``cards`` (流れ) go on
    the leaver's first 対決; without a blocker there is no check to play them on."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    combat = combat_of(game)
    here = engagement_of(combat, cid)
    if here is None:
        reject("not_engaged", "エンゲージにいません", S_ENGAGE)
    if c.passenger_of is not None:
        reject("passenger", "同乗状態では自分で離脱できません", S_SPOT)
    if "地中" in c.statuses:
        reject("cannot_move", "地中: 離脱できません", S_BAD)
    if len(combat.engagements[here]) == 1:
        reject("alone", "一人のエンゲージからは離脱できません", S_ENGAGE)
    out = turn(table, ctx, cid, "major")
    flying_free = c.flying and not enemies_in(game, combat, cid, flying_only=True)
    blockers = (
        []
        if flying_free
        else [
            b
            for b in combat.blockers.get(here, [])
            if b in enemies_in(game, combat, cid)
            and game.chars[b].condition in (Condition.ACTIVE, Condition.YODOMI_LIFE)
        ]
    )
    if cmd.cards and not blockers:
        reject("no_check", "封鎖されていない離脱には判定がなく、「流れ」を出せません", S_ENGAGE)
    for i, b in enumerate(blockers):
        # the 流れ go on the leaver's first 対決 (one set of cards per command)
        mine, evs = check(
            table,
            ctx,
            cid,
            kind="2d9",
            base=_action_value(table, cid),
            purpose="block",
            label="封鎖 対決",
            key_reroll=cmd.key_reroll,
            cards=cmd.cards if i == 0 else (),
        )
        out += evs
        theirs, evs = check(
            table,
            ctx,
            b,
            kind="2d9",
            base=_action_value(table, b),
            purpose="block",
            label="封鎖 対決",
        )
        out += evs
        won = mine.value > theirs.value
        out.append(
            ContestResolved(
                action_check=mine.check_id,
                reaction_check=theirs.check_id,
                action_value=mine.value,
                reaction_value=theirs.value,
                winner="action" if won else "reaction",
            )
        )
        if not won:
            out.append(DisengageFailed(character_id=cid, blocker=b))
            return out + after_major(table, out, cid)
    new = f"e{combat.next_engagement}"
    out += _moved(table, game, combat, cid, new, disengage=True)
    return out + after_major(table, out, cid)


def block(table: TableState, cmd: C.Block, ctx: Context) -> list[Emitted]:
    cid = cmd.character_id
    char(table, cid)
    game = game_of(table)
    combat = combat_of(game)
    here = engagement_of(combat, cid)
    if here is None:
        reject("not_engaged", "エンゲージにいません", S_ENGAGE)
    out = turn(table, ctx, cid, "major") + [Blocked(character_id=cid, engagement=here)]
    return out + after_major(table, out, cid)


def hide(table: TableState, cmd: C.Hide, ctx: Context) -> list[Emitted]:
    cid = cmd.character_id
    char(table, cid)
    game = game_of(table)
    if game.combat is not None and enemies_in(game, game.combat, cid):
        reject("engaged", "敵とエンゲージしている間は隠密状態になれません", S_SPOT)
    turn(table, ctx, cid, "major")  # validates the timing
    out: list[Emitted] = [
        ActionUsed(character_id=cid, action="major", what="隠密"),
        FlagChanged(character_id=cid, flag="stealth", value=True),
    ]
    return out + after_major(table, out, cid)


def set_flying(table: TableState, cmd: C.SetFlying, ctx: Context) -> list[Emitted]:
    c = char(table, cmd.character_id)
    out: list[Emitted] = [
        FlagChanged(character_id=cmd.character_id, flag="flying", value=cmd.flying)
    ]
    if cmd.flying and "水中" in c.statuses:
        out.append(StatusRemoved(character_id=cmd.character_id, status="水中", reason="飛行状態"))
    return out


def mount(table: TableState, cmd: C.Mount, ctx: Context) -> list[Emitted]:
    """同乗 (YD-68): a minor action to board or to get off."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    if cmd.rider is not None:
        char(table, cmd.rider)
        if cmd.rider == cid or game.chars[cmd.rider].passenger_of is not None:
            reject("bad_rider", "その相手には同乗できません", S_SPOT)
        if game.combat is not None and engagement_of(game.combat, cid) != engagement_of(
            game.combat, cmd.rider
        ):
            reject("not_engaged", "同じエンゲージの乗り手にしか同乗できません", S_SPOT)
    elif c.passenger_of is None:
        reject("not_passenger", "同乗していません", S_SPOT)
    out = turn(table, ctx, cid, "minor")
    return out + [FlagChanged(character_id=cid, flag="passenger_of", value=cmd.rider)]


# --------------------------------------------------------------------------- attacks


def attack(table: TableState, cmd: C.Attack, ctx: Context) -> list[Emitted]:
    """攻撃宣言 and 命中判定 (YD-42). A fumble misses at once (G-YD-08)."""
    cid = cmd.attacker
    c = char(table, cid)
    t = char(table, cmd.target)
    if t.stealth:
        reject("hidden_target", "隠密状態の相手は攻撃の目標にできません", S_SPOT)
    if t.condition in (Condition.VANISHED, Condition.FLOW_DEATH):
        reject("not_in_play", "その相手はもう場にいません", S_STATE)
    if cmd.weapon is not None and cmd.weapon in c.disabled_items:
        reject("weapon_disabled", f"使用不能の「{cmd.weapon}」では攻撃できません", S_BAD)
    opts = ctx.options
    out = turn(table, ctx, cid, "major")
    if c.stealth:
        out.append(FlagChanged(character_id=cid, flag="stealth", value=False))
    base = cmd.value + ability(table, cid, cmd.ability)
    extra = opts.called_shot_penalty if cmd.called_shot else 0
    if cmd.called_shot and cmd.called_shot not in t.item_pp:
        reject(
            "unknown_item",
            f"{name(table, cmd.target)} は「{cmd.called_shot}」を持っていません",
            S_SPOT,
        )
    for s, x in cmd.statuses.items():
        if s not in BAD_STATUSES:
            reject("unknown_status", f"バッドステータス「{s}」はありません", S_BAD)
        # refused here, before the roll: the defence must never be the command that fails
        if s == "毒" and x < 1:
            reject("bad_status_value", "毒X の X は1以上です", S_BAD)
        if s == "使用不能" and not cmd.called_shot:
            reject(
                "bad_status_value",
                "使用不能は武器に対して発生します（武器狙いで武器を指定してください）",
                S_BAD,
            )
    hit, evs = check(
        table,
        ctx,
        cid,
        kind="2d9",
        base=base,
        modifier=cmd.modifier,
        extra_penalty=extra,
        key_reroll=cmd.key_reroll,
        purpose="hit",
        label="命中判定",
        cards=cmd.cards,
    )
    out += evs
    attack_id = ctx.new_id("a")
    if hit.fumble:
        out.append(AttackResolved(attack_id=attack_id, winner="defender", fumble=True))
        return out + after_major(table, out, cid)
    a = Attack(
        attack_id=attack_id,
        attacker=cid,
        target=cmd.target,
        hit=hit,
        power=cmd.power,
        skill_bonus=cmd.skill_bonus,
        # YD-45: a weapon's attack attribute is the 基本能力値 used; a skill names its own
        attribute="澱み" if cmd.yodomi else (cmd.attribute or cmd.ability or ""),
        called_shot=cmd.called_shot,
        ambush=cmd.ambush,
        statuses=dict(cmd.statuses),
    )
    return out + [AttackDeclared(attack=a)]


def cover(table: TableState, cmd: C.Cover, ctx: Context) -> list[Emitted]:
    """かばう (YD-69): same engagement, 未行動; the coverer becomes 行動済み."""
    game = game_of(table)
    a = game.attacks.get(cmd.attack_id)
    if a is None:
        reject("unknown_attack", "その攻撃は解決済みか、ありません", S_ATTACK)
    c = char(table, cmd.character_id)
    combat = combat_of(game)
    if a.covered_by is not None or cmd.character_id == a.target:
        reject("cannot_cover", "この攻撃はかばえません", S_SPOT)
    if engagement_of(combat, cmd.character_id) != engagement_of(combat, a.target):
        reject("cannot_cover", "同じエンゲージにいなければかばえません", S_SPOT)
    if c.acted != Acted.UNACTED or c.condition not in (Condition.ACTIVE, Condition.YODOMI_LIFE):
        reject("cannot_cover", "未行動でなければかばえません", S_SPOT)
    return [Covered(attack_id=a.attack_id, character_id=cmd.character_id)]


def defend(table: TableState, cmd: C.Defend, ctx: Context) -> list[Emitted]:
    """防御判定, 命中決定, ダメージロール (YD-42 … YD-46): ties go to the defender."""
    game = game_of(table)
    opts = ctx.options
    a = game.attacks.get(cmd.attack_id)
    if a is None:
        reject("unknown_attack", "その攻撃は解決済みか、ありません", S_ATTACK)
    did = a.covered_by or a.target
    d = require_controls(table, ctx, did)
    # YD-47: a 戦闘不能 (or dead) defender cannot react: 判定値 + modifiers, no dice (YD-15)
    can_react = d.condition in (Condition.ACTIVE, Condition.YODOMI_LIFE)
    mode = cmd.mode if can_react else "none"
    if cmd.cards and not can_react:
        reject("cannot_react", "戦闘不能の間は「流れ」も使えません", S_STATE)
    if mode in ("evasion", "none") and not cmd.ability:
        base = cmd.value + int(sheet(table, did).get("evasion", 0) or 0)
    else:
        if not cmd.ability:
            reject("ability_needed", "防御に使う能力値を指定してください", S_ATTACK)
        base = cmd.value + ability(table, did, cmd.ability)
    extra = opts.ambush_reaction_penalty if a.ambush else 0
    out: list[Emitted] = []
    dk, evs = check(
        table,
        ctx,
        did,
        kind="2d9",
        base=base,
        modifier=cmd.modifier,
        extra_penalty=extra,
        key_reroll=cmd.key_reroll,
        no_roll=mode == "none",
        purpose="defence",
        label="防御判定",
        cards=cmd.cards,
    )
    out += evs
    hit_value = a.hit.value
    attacker_wins = hit_value > dk.value
    out.append(
        ContestResolved(
            action_check=a.hit.check_id,
            reaction_check=dk.check_id,
            action_value=hit_value,
            reaction_value=dk.value,
            winner="action" if attacker_wins else "reaction",
        )
    )
    countered = False
    if attacker_wins:
        item = a.called_shot if a.called_shot and a.called_shot in game.chars[did].item_pp else None
        dmg_events = damage(
            table,
            ctx,
            did,
            a.power + a.skill_bonus,
            a.attribute,
            source=name(table, a.attacker),
            item=item,
        )
        out += dmg_events
        fallen = any(
            isinstance(e, ConditionChanged) and e.condition == Condition.VANISHED
            for e in dmg_events
        )
        if not fallen:
            now = project(table, out)
            for s, x in a.statuses.items():
                if s == "水中" and game_of(now).chars[did].flying:
                    continue  # YD-62: no 水中 while flying
                evs = add_status(
                    now,
                    ctx,
                    did,
                    s,
                    x,
                    by=a.attacker if s == "極技" else None,
                    item=a.called_shot if s == "使用不能" else None,
                )
                out += evs
                now = project(now, evs)
    elif mode == "counter":
        countered = True
        out += damage(
            table,
            ctx,
            a.attacker,
            cmd.counter_power,
            cmd.counter_attribute,
            source=f"{name(table, did)}の突き返し",
        )
    out.append(
        AttackResolved(
            attack_id=a.attack_id,
            winner="attacker" if attacker_wins else "defender",
            defence_check=dk.check_id,
            countered=countered,
        )
    )
    return out + after_major(table, out, a.attacker)


# --------------------------------------------------------------------------- statuses


def add_status_cmd(table: TableState, cmd: C.AddStatus, ctx: Context) -> list[Emitted]:
    return add_status(table, ctx, cmd.character_id, cmd.status, cmd.x, by=cmd.by, item=cmd.item)


def remove_status(table: TableState, cmd: C.RemoveStatus, ctx: Context) -> list[Emitted]:
    """A minor action removes a status without a note; 蝕み goes by discarding one 流れ (YD-64)."""
    cid = cmd.character_id
    c = char(table, cid)
    game = game_of(table)
    if cmd.status == "使用不能":
        if cmd.item not in c.disabled_items:
            reject("no_status", "その武器は使用不能ではありません", S_BAD)
    elif cmd.status not in c.statuses:
        reject("no_status", f"{name(table, cid)} は{cmd.status}ではありません", S_BAD)
    if cmd.status == "蝕み":
        if not cmd.card:
            reject("card_needed", "蝕みは「流れ」を一枚捨てて解除します", S_BAD)
        (card,) = parse_cards([cmd.card])
        require_in_hand(game, cid, [card])
        return [
            discard(table, ctx, cid, [card], "蝕み"),
            StatusRemoved(character_id=cid, status="蝕み", reason="流れを捨てた"),
        ]
    if cmd.status not in MINOR_REMOVABLE:
        reject("not_removable", f"{cmd.status}はマイナーアクションでは解除できません", S_BAD)
    out = turn(table, ctx, cid, "minor")
    return out + [
        StatusRemoved(
            character_id=cid, status=cmd.status, reason="マイナーアクション", item=cmd.item
        )
    ]


def play_cards_on_attack(
    table: TableState, ctx: Context, check_id: str, cards: list[str]
) -> list[Emitted] | None:
    """流れ on an attack's hit check before the defence (``None``: not an attack's check)."""
    game = game_of(table)
    for a in game.attacks.values():
        if a.hit.check_id == check_id:
            require_controls(table, ctx, a.attacker)
            new, played = play_on(table, ctx, a.hit, cards)
            return [CheckBoosted(check=new), played]
    return None
