"""``decide`` for 澱み流れ: one function per command, dispatched by type.

Pre-play, scenes and purchases are in :mod:`taku_yodomi._scenes`; round
progression, engagements, attacks and bad statuses in :mod:`taku_yodomi._combat`;
``evolve`` in :mod:`taku_yodomi._evolve`. This module holds the 流れ cards, plain
checks and 対決, 継続判定, 直感把握, 強制転換 and the choices at death.
"""

from __future__ import annotations

from typing import Literal

from taku.core.commands import Command
from taku.core.events import Private
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import Forbidden, InvalidCommand
from taku_yodomi import _combat, _scenes
from taku_yodomi import commands as C
from taku_yodomi._checks import d9
from taku_yodomi._common import (
    SETTLED_PURPOSES,
    ability,
    char,
    check,
    discard,
    draw,
    game_of,
    hand_audience,
    name,
    parse_cards,
    play_on,
    reject,
    require_controls,
    require_in_hand,
)
from taku_yodomi._evolve import evolve, project
from taku_yodomi.events import (
    ActionUsed,
    CardsGiven,
    CardsGivenNotice,
    CardsPassed,
    CheckBoosted,
    ConditionChanged,
    ContestResolved,
    ContinuousRolled,
    ContinuousRoundAdvanced,
    ContinuousStarted,
    ConversionResolved,
    CostPaid,
    DeathChosen,
    FullConversionDone,
    StatusRemoved,
)
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import Condition, Continuous, Game

__all__ = ["decide", "evolve", "initial_state"]

S_FLOW = "澱み流れ “流れ”ルール"
S_CHECK = "澱み流れ 行為判定ルール"
S_CONTEST = "澱み流れ 対決による判定"
S_CONT = "澱み流れ 継続判定"
S_INTU = "澱み流れ ［直感把握］ルール"
S_CONV = "澱み流れ ▼強制転換"
S_DEATH = "澱み流れ ▼死亡"


def initial_state(options: YodomiOptions | None) -> Game:
    return Game()


def decide(table: TableState, command: Command, ctx: Context) -> list[Emitted]:
    """The events of one 澱み流れ command, or one ``Rejected`` (``rule/yodomi/<reason>``)."""
    match command:
        # 流れ
        case C.DealCards():
            return deal_cards(table, command, ctx)
        case C.GiveCards():
            return give_cards(table, command, ctx)
        case C.PlayCards():
            return play_cards(table, command, ctx)
        case C.PassCards():
            return pass_cards(table, command, ctx)
        case C.CutHand():
            return _scenes.cut_hand(table, command, ctx)
        # checks
        case C.RollCheck():
            return roll_check(table, command, ctx)
        case C.Contest():
            return contest(table, command, ctx)
        case C.StartContinuous():
            return start_continuous(table, command, ctx)
        case C.RollContinuous():
            return roll_continuous(table, command, ctx)
        case C.AdvanceContinuous():
            return advance_continuous(table, command, ctx)
        case C.Intuition():
            return intuition(table, command, ctx)
        case C.Purchase():
            return _scenes.purchase(table, command, ctx)
        # pre-play and scenes
        case C.ReadTrailer():
            return _scenes.read_trailer(table, command, ctx)
        case C.GiveHandout():
            return _scenes.give_handout(table, command, ctx)
        case C.Introduce():
            return _scenes.introduce(table, command, ctx)
        case C.RollKeyNumber():
            return _scenes.roll_key_number(table, command, ctx)
        case C.ChooseSuit():
            return _scenes.choose_suit(table, command, ctx)
        case C.StartScene():
            return _scenes.start_scene(table, command, ctx)
        case C.EnterScene():
            return _scenes.enter_scene(table, command, ctx)
        case C.LeaveScene():
            return _scenes.leave_scene(table, command, ctx)
        case C.NoteTopic():
            return _scenes.note_topic(table, command, ctx)
        case C.EndScene():
            return _scenes.end_scene(table, command, ctx)
        case C.Backstage():
            return _scenes.backstage(table, command, ctx)
        case C.BackstageSkill():
            return _scenes.backstage_skill(table, command, ctx)
        case C.GainPath():
            return _scenes.gain_path(table, command, ctx)
        case C.ChangeEmotion():
            return _scenes.change_emotion(table, command, ctx)
        case C.CloseSceneEnd():
            return _scenes.close_scene_end(table, command, ctx)
        # states
        case C.ForcedConversion():
            return forced_conversion(table, command, ctx)
        case C.FullConversion():
            return full_conversion(table, command, ctx)
        case C.PayCost():
            return pay_cost(table, command, ctx)
        case C.ChooseDeath():
            return choose_death(table, command, ctx)
        case C.AddStatus():
            return _combat.add_status_cmd(table, command, ctx)
        case C.RemoveStatus():
            return _combat.remove_status(table, command, ctx)
        # combat
        case C.StartCombat():
            return _combat.start_combat(table, command, ctx)
        case C.AdvanceRound():
            return _combat.advance(table, command, ctx)
        case C.EndCombat():
            return _combat.end_combat(table, command, ctx)
        case C.Wait():
            return _combat.wait(table, command, ctx)
        case C.Minor():
            return _combat.minor(table, command, ctx)
        case C.Move():
            return _combat.move(table, command, ctx)
        case C.Disengage():
            return _combat.disengage(table, command, ctx)
        case C.Block():
            return _combat.block(table, command, ctx)
        case C.Hide():
            return _combat.hide(table, command, ctx)
        case C.SetFlying():
            return _combat.set_flying(table, command, ctx)
        case C.Mount():
            return _combat.mount(table, command, ctx)
        case C.Attack():
            return _combat.attack(table, command, ctx)
        case C.Cover():
            return _combat.cover(table, command, ctx)
        case C.Defend():
            return _combat.defend(table, command, ctx)
        case _:
            raise InvalidCommand(
                f"{type(command).__name__} is not a yodomi command", code="command/unknown_command"
            )


# --------------------------------------------------------------------------- 流れ


def deal_cards(table: TableState, cmd: C.DealCards, ctx: Context) -> list[Emitted]:
    """GM: the top cards of the deck to a character, as many as the GM likes (YD-23)."""
    c = char(table, cmd.character_id)
    if not c.receives_flow:
        reject(
            "no_flow_receiving",
            f"{name(table, cmd.character_id)} は「流れ」を受け取れません",
            S_DEATH,
        )
    if c.condition == Condition.VANISHED:
        reject("not_in_play", "完全消滅したキャラクターには配れません", S_DEATH)
    if not 1 <= cmd.count <= 54:
        reject("bad_count", "1〜54枚を配ります", S_FLOW)
    return draw(table, ctx, cmd.character_id, cmd.count)


def give_cards(table: TableState, cmd: C.GiveCards, ctx: Context) -> list[Emitted]:
    """A player passes 流れ to another character at any time (YD-23); 流れとしての死 may
    still give (YD-51); nobody gives to a character that cannot receive (YD-51, YD-52)."""
    src = char(table, cmd.from_character)
    game = game_of(table)
    dst = char(table, cmd.to_character)
    if cmd.from_character == cmd.to_character:
        reject("same_character", "自分には渡せません", S_FLOW)
    if not dst.receives_flow or dst.condition == Condition.VANISHED:
        reject(
            "no_flow_receiving",
            f"{name(table, cmd.to_character)} は「流れ」を受け取れません",
            S_DEATH,
        )
    if src.condition in (Condition.VANISHED, Condition.YODOMI_LIFE):
        reject("no_flow", "「流れ」を渡せません", S_DEATH)
    cards = parse_cards(cmd.cards)
    if not cards:
        reject("no_cards", "渡すカードを選んでください", S_FLOW)
    require_in_hand(game, cmd.from_character, cards)
    return [
        Private(
            event=CardsGiven(
                from_character=cmd.from_character, to_character=cmd.to_character, cards=cards
            ),
            audience=hand_audience(table, ctx, cmd.from_character, cmd.to_character),
            redacted=CardsGivenNotice(
                from_character=cmd.from_character, to_character=cmd.to_character, count=len(cards)
            ),
        )
    ]


def play_cards(table: TableState, cmd: C.PlayCards, ctx: Context) -> list[Emitted]:
    """流れ on a check already rolled: the character's latest check, or an attack's hit
    check before the defence (YD-25, YD-26, G-YD-06)."""
    if not cmd.cards:
        reject("no_cards", "出すカードを選んでください", S_FLOW)
    on_attack = _combat.play_cards_on_attack(table, ctx, cmd.check_id, cmd.cards)
    if on_attack is not None:
        return on_attack
    game = game_of(table)
    for cid, k in game.last_check.items():
        if k.check_id == cmd.check_id:
            require_controls(table, ctx, cid)
            if k.purpose in SETTLED_PURPOSES:
                reject(
                    "check_settled",
                    "その判定の結果はもう適用されています（判定と一緒に「流れ」を出してください）",
                    S_FLOW,
                )
            new, played = play_on(table, ctx, k, cmd.cards)
            return [CheckBoosted(check=new), played]
    reject(
        "unknown_check", "その判定はないか、もう「流れ」を足せません（最新の判定だけです）", S_FLOW
    )


def pass_cards(table: TableState, cmd: C.PassCards, ctx: Context) -> list[Emitted]:
    """パス: no 流れ on a check the 流れ could still go on (the character's latest check,
    or an attack's hit check before the defence); afterwards none can (G-YD-06)."""
    game = game_of(table)
    for a in game.attacks.values():
        if a.hit.check_id == cmd.check_id and a.hit.cards_allowed and not a.hit.fumble:
            require_controls(table, ctx, a.attacker)
            return [CardsPassed(character_id=a.attacker, check_id=cmd.check_id)]
    for cid, k in game.last_check.items():
        if (
            k.check_id == cmd.check_id
            and k.cards_allowed
            and not k.fumble
            and k.purpose not in SETTLED_PURPOSES
        ):
            require_controls(table, ctx, cid)
            return [CardsPassed(character_id=cid, check_id=cmd.check_id)]
    reject(
        "unknown_check", "その判定はないか、もう「流れ」を足せません（最新の判定だけです）", S_FLOW
    )


# --------------------------------------------------------------------------- checks


def roll_check(table: TableState, cmd: C.RollCheck, ctx: Context) -> list[Emitted]:
    """A plain 2D9 or D99 check (YD-03, YD-11) for a character (or anonymous, GM)."""
    cid = cmd.character_id
    if cid is None:
        if not ctx.is_gm:
            # the declared permit covers the named character; a check without one is the GM's
            raise Forbidden(
                "anonymous checks are the GM's",
                role=ctx.role,
                reason="キャラクターなしの判定はGMだけが振れます",
            )
        if cmd.cards:
            reject("no_character", "「流れ」はキャラクターが使います", S_FLOW)
    c = char(table, cid) if cid is not None else None
    base = cmd.value + (ability(table, cid, cmd.ability) if cid else 0)
    if c is not None and cmd.add_pp:
        base += c.pp
    if c is not None and cmd.add_sp:
        base += c.sp
    if cmd.kind == "d99" and cmd.no_roll:
        reject("d99_no_roll", "D99判定は必ず振ります", S_CHECK)
    _, out = check(
        table,
        ctx,
        cid,
        kind=cmd.kind,
        base=base,
        modifier=cmd.modifier,
        difficulty=cmd.difficulty,
        key_reroll=cmd.key_reroll,
        no_roll=cmd.no_roll,
        label=cmd.label[:100],
        cards=cmd.cards,
    )
    return out


def contest(table: TableState, cmd: C.Contest, ctx: Context) -> list[Emitted]:
    """対決 (YD-14, YD-15, G-YD-10): two 2D9 checks' 達成値; a tie goes to the reaction side."""
    game = game_of(table)
    found = {k.check_id: k for k in game.last_check.values()}
    a = found.get(cmd.action_check)
    r = found.get(cmd.reaction_check)
    if a is None or r is None:
        reject(
            "unknown_check",
            "対決する二つの判定が見つかりません（各キャラクターの最新の判定です）",
            S_CONTEST,
        )
    if a.kind != "2d9" or r.kind != "2d9":
        reject("no_d99_contest", "D99判定には対決は発生しません", S_CONTEST)
    if a.check_id == r.check_id or a.character_id == r.character_id:
        reject("same_side", "対決には二人が要ります", S_CONTEST)
    if not ctx.is_gm:
        require_controls(table, ctx, a.character_id or "")
    winner: Literal["action", "reaction"] = "action" if a.value > r.value else "reaction"
    return [
        ContestResolved(
            action_check=a.check_id,
            reaction_check=r.check_id,
            action_value=a.value,
            reaction_value=r.value,
            winner=winner,
        )
    ]


def start_continuous(table: TableState, cmd: C.StartContinuous, ctx: Context) -> list[Emitted]:
    """GM: a 継続判定, its target points, ability, accident and round limit (YD-16)."""
    if cmd.target_points < 1 or cmd.round_limit < 1:
        reject("bad_continuous", "目標ポイントと制限ラウンドは1以上です", S_CONT)
    q = Continuous(
        continuous_id=ctx.new_id("q"),
        target_points=cmd.target_points,
        ability=cmd.ability[:50],
        round_limit=cmd.round_limit,
        accident=cmd.accident[:200],
    )
    return [ContinuousStarted(continuous=q)]


def roll_continuous(table: TableState, cmd: C.RollContinuous, ctx: Context) -> list[Emitted]:
    """One roll of a 継続判定 chain (YD-16 … YD-18).

    The first roll of a round is a D99 against the ability + 【PP】; each success
    earns 1 point and the next roll of the chain is against the number just rolled;
    a critical earns 2 and keeps the target; a failure ends the chain for the
    round; a fumble ends it and triggers the accident the GM declared; without
    one, the default: lose 1D9 points, floor 0 (YD-18, G-YD-19). Reaching the target points finishes the check.
    """
    game = game_of(table)
    q = game.continuous.get(cmd.continuous_id)
    if q is None:
        reject("unknown_continuous", "その継続判定はありません", S_CONT)
    if q.finished:
        reject("continuous_finished", "その継続判定は終わっています", S_CONT)
    cid = cmd.character_id
    c = char(table, cid)
    if cid in q.done_this_round:
        reject("chain_over", "このラウンドの判定はもう終わりました", S_CONT)
    base = q.chain_target.get(cid)
    game = game_of(table)
    in_fight = game.combat is not None and cid in game.combat.participants
    if in_fight:
        # YD-20: in round progression a chain is the character's major action
        _combat.turn(table, ctx, cid, "major")
    if base is None:
        base = ability(table, cid, q.ability) + c.pp
    k, out = check(
        table,
        ctx,
        cid,
        kind="d99",
        base=base,
        modifier=cmd.modifier,
        key_reroll=cmd.key_reroll,
        purpose="continuous",
        label="継続判定",
        cards=cmd.cards,
    )
    gained, points, next_target = 0, q.points, None
    accident_roll = None
    lost = 0
    if k.fumble:
        if not q.accident:
            # YD-18: the 1D9 loss is the accident only when the GM declared none of its own
            accident_roll = ctx.dice.roll(ctx.options.accident_dice, 10)
            lost = sum(d9(f) for f in accident_roll.faces)
            points = max(points - lost, 0)
    elif k.critical:
        gained, next_target = 2, base
    elif k.success:
        gained, next_target = 1, k.value
    points += gained
    finished = points >= q.target_points
    if finished:
        next_target = None
    out.append(
        ContinuousRolled(
            continuous_id=q.continuous_id,
            character_id=cid,
            check_id=k.check_id,
            gained=gained,
            points=points,
            next_target=next_target,
            accident_roll=accident_roll,
            accident_points=lost,
            finished=finished,
            success=True if finished else None,
            accident=q.accident if k.fumble else "",
        )
    )
    if in_fight and next_target is None:
        out.append(ActionUsed(character_id=cid, action="major", what="継続判定"))
        out += _combat.after_major(table, out, cid)
    return out


def advance_continuous(table: TableState, cmd: C.AdvanceContinuous, ctx: Context) -> list[Emitted]:
    q = game_of(table).continuous.get(cmd.continuous_id)
    if q is None or q.finished:
        reject("unknown_continuous", "その継続判定はないか、終わっています", S_CONT)
    nxt = q.round + 1
    over = nxt > q.round_limit
    return [
        ContinuousRoundAdvanced(
            continuous_id=q.continuous_id,
            round=min(nxt, q.round_limit),
            finished=over,
            success=False if over else None,
        )
    ]


def intuition(table: TableState, cmd: C.Intuition, ctx: Context) -> list[Emitted]:
    """直感把握: D99 against 【PP】 + a base ability; 流れ may raise the target (YD-21)."""
    c = char(table, cmd.character_id)
    base = c.pp + ability(table, cmd.character_id, cmd.ability)
    _, out = check(
        table,
        ctx,
        cmd.character_id,
        kind="d99",
        base=base,
        modifier=cmd.modifier,
        key_reroll=cmd.key_reroll,
        purpose="intuition",
        label="直感把握",
        cards=cmd.cards,
    )
    return out


# --------------------------------------------------------------------------- states


def forced_conversion(table: TableState, cmd: C.ForcedConversion, ctx: Context) -> list[Emitted]:
    """強制転換 (YD-49): D99 against current 【SP】, no 流れ on the target.

    Success (below SP): 【PP】 + roll, 【SP】 - roll, bad statuses cleared.
    Critical: 完全転換 (the player then moves any SP to PP: ``full_conversion``).
    Fumble, or a roll equal to the current SP: 完全失敗, death (G-YD-13: also
    when that roll is a double). Failure: still 戦闘不能; try again in a setup process.
    """
    cid = cmd.character_id
    c = char(table, cid)
    if c.condition != Condition.INCAPACITATED:
        reject("not_incapacitated", "強制転換は戦闘不能のときに行います", S_CONV)
    if not c.may_convert:
        reject(
            "not_now", "強制転換は戦闘不能になったときか、セットアッププロセスで行います", S_CONV
        )
    k, out = check(
        table,
        ctx,
        cid,
        kind="d99",
        base=c.sp,
        key_reroll=cmd.key_reroll,
        purpose="conversion",
        label="強制転換",
        cards_allowed=False,
        with_status_penalty=False,
    )
    pp, sp = c.pp, c.sp
    outcome: Literal["success", "full", "failure", "complete_failure"]
    if k.fumble or k.value == c.sp:
        outcome = "complete_failure"
    elif k.critical:
        outcome = "full"
    elif k.success:
        outcome = "success"
        pp, sp = c.pp + k.value, c.sp - k.value
    else:
        outcome = "failure"
    out.append(
        ConversionResolved(character_id=cid, check_id=k.check_id, outcome=outcome, pp=pp, sp=sp)
    )
    if outcome in ("success", "full"):
        # YD-49: 全ての[バッドステータス]が解除: 使用不能 (on a weapon) is one of them too
        out += [
            StatusRemoved(character_id=cid, status="使用不能", reason="強制転換", item=i)
            for i in c.disabled_items
        ]
    return out


def full_conversion(table: TableState, cmd: C.FullConversion, ctx: Context) -> list[Emitted]:
    """完全転換: reduce 【SP】 by any amount and recover as much 【PP】 (SP stays above 0)."""
    c = char(table, cmd.character_id)
    if not c.full_conversion_pending:
        reject("no_full_conversion", "完全転換の処理はありません", S_CONV)
    if not 0 <= cmd.amount < c.sp:
        reject("bad_amount", f"0〜{c.sp - 1}の間で選んでください", S_CONV)
    return [
        FullConversionDone(
            character_id=cmd.character_id,
            amount=cmd.amount,
            pp=c.pp + cmd.amount,
            sp=c.sp - cmd.amount,
        )
    ]


def pay_cost(table: TableState, cmd: C.PayCost, ctx: Context) -> list[Emitted]:
    """代償の消費 (YD-35): 【PP】 paid down to 0 makes 直感把握 due; 【SP】 0 is 死亡.

    澱みとしての生 pays no 【PP】 costs, and each 流れ a cost asks for is 10 【SP】
    instead (YD-52). 流れ paid as a cost are discarded face down.
    """
    cid = cmd.character_id
    c = char(table, cid)
    if cmd.pp < 0 or cmd.sp < 0 or not (cmd.pp or cmd.sp or cmd.cards):
        reject("bad_cost", "支払う代償を指定してください", "澱み流れ ▼メインプロセス 代償の消費")
    if c.condition not in (Condition.ACTIVE, Condition.YODOMI_LIFE):
        reject("cannot_act", "代償を払えるのは行動できるキャラクターだけです", "澱み流れ ▼戦闘不能")
    out: list[Emitted] = []
    pp_paid, sp_paid, flow = cmd.pp, cmd.sp, 0
    if c.condition == Condition.YODOMI_LIFE:
        pp_paid = 0
        sp_paid += 10 * len(cmd.cards)
    elif cmd.cards:
        cards = parse_cards(cmd.cards)
        require_in_hand(game_of(table), cid, cards)
        out.append(discard(table, ctx, cid, cards, "代償"))
        flow = len(cards)
    if pp_paid > c.pp:
        reject(
            "not_enough_pp", f"【PP】が足りません（{c.pp}）", "澱み流れ ▼メインプロセス 代償の消費"
        )
    pp, sp = c.pp - pp_paid, max(c.sp - sp_paid, 0)
    out.append(
        CostPaid(
            character_id=cid,
            pp_paid=pp_paid,
            sp_paid=sp_paid,
            pp=pp,
            sp=sp,
            flow_cards=flow,
            what=cmd.what[:100],
            intuition_due=pp_paid > 0 and pp == 0,
        )
    )
    if sp == 0 and sp_paid > 0:
        out.append(
            ConditionChanged(
                character_id=cid, condition=Condition.DEAD.value, reason="代償で【SP】0"
            )
        )
    return out


def choose_death(table: TableState, cmd: C.ChooseDeath, ctx: Context) -> list[Emitted]:
    """At 死亡: 流れとしての死 (out of the game, 5 流れ, gives but never receives, YD-51) or
    澱みとしての生 (discard every 流れ, +200 【SP】, acts at 【PP】0, YD-52, G-YD-21)."""
    cid = cmd.character_id
    c = char(table, cid)
    if c.condition != Condition.DEAD:
        reject("not_dead", "死亡しているときだけ選べます", S_DEATH)
    opts = ctx.options
    game = game_of(table)
    out: list[Emitted] = []
    if cmd.choice == "flow":
        out.append(DeathChosen(character_id=cid, choice="flow", sp=c.sp))
        out += draw(project(table, out), ctx, cid, opts.flow_death_cards, reason="流れとしての死")
        return out
    hand = game.hands.get(cid, [])
    if hand:
        out.append(discard(table, ctx, cid, hand, "澱みとしての生"))
    out.append(DeathChosen(character_id=cid, choice="yodomi", sp=c.sp + opts.yodomi_life_sp))
    return out
