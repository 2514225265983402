"""Commands, events, state and the decider of チンチロリン (all pure)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec

from taku import Context, Viewer
from taku.core import kit
from taku.core.commands import GM, Command
from taku.core.dice import Roll
from taku.core.events import Event, MemberJoined
from taku.core.play import Affordance, Turn, TurnSlot
from taku.core.table import check_permit
from taku_chinchiro.rules import Hand, read_hand

__all__ = [
    "CloseRound",
    "Game",
    "Options",
    "RollBowl",
    "Rolled",
    "RoundClosed",
    "affordances",
    "chat",
    "decide",
    "evolve",
    "initial_state",
    "render",
    "turn",
    "view",
]

ERRORS = {
    "turn_over": "この回はもう振り終わっている（3投まで、役が出たら終わり）",
    "nobody_rolled": "まだ誰も振っていないので回を締められない",
}
"""Every rejection reason of this ruleset (``rule/chinchiro/<reason>``), for the error catalogue."""

reject = kit.rejecter("chinchiro")


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """House rules. ``tries``: how many times a player may roll for a hand (the usual rule: 3)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="チンチロリンの設定")

    tries: Annotated[
        int,
        msgspec.Meta(
            title="振れる回数", description="役が出るまで振れる回数（ふつうは3投）", ge=1, le=10
        ),
    ] = 3


# ----------------------------------------------------------------- commands and events


class RollBowl(Command, frozen=True, kw_only=True, tag="chinchiro.roll"):
    """Roll three dice into the bowl (a player, on their own turn of the round)."""

    meta = msgspec.Meta(title="丼に振る", description="サイコロ3個を丼に振る")


class CloseRound(Command, frozen=True, kw_only=True, tag="chinchiro.close_round"):
    """GM: end the round; the best hand wins."""

    permit = GM
    meta = msgspec.Meta(title="回を締める", description="いちばん強い役の人が勝つ")


class Rolled(Event, frozen=True, kw_only=True, tag="chinchiro.rolled"):
    """A member rolled the bowl."""

    meta = msgspec.Meta(title="振った")

    member_id: Annotated[str, msgspec.Meta(title="振った人")]
    roll: Annotated[Roll, msgspec.Meta(title="出目")]
    hand: Annotated[Hand, msgspec.Meta(title="役")]
    try_no: Annotated[int, msgspec.Meta(title="何投目", ge=1)]


class RoundClosed(Event, frozen=True, kw_only=True, tag="chinchiro.round_closed"):
    """The GM closed the round."""

    meta = msgspec.Meta(title="回が締められた")

    round_no: Annotated[int, msgspec.Meta(title="第何回戦", ge=1)]
    winners: Annotated[tuple[str, ...], msgspec.Meta(title="勝った人")]
    best: Annotated[str, msgspec.Meta(title="勝った役")]


# ----------------------------------------------------------------- state


class Game(msgspec.Struct, frozen=True, kw_only=True):
    """The game: the round, each member's tries and hand this round, and wins so far."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="チンチロリンの場")

    round_no: Annotated[int, msgspec.Meta(title="第何回戦", ge=1)] = 1
    tries: Annotated[
        dict[str, int], msgspec.Meta(title="振った回数", description="メンバーごと")
    ] = {}
    hands: Annotated[
        dict[str, Hand], msgspec.Meta(title="役", description="メンバーごとのこの回の役")
    ] = {}
    wins: Annotated[dict[str, int], msgspec.Meta(title="勝ち数", description="メンバーごと")] = {}


def initial_state(options: Options | None) -> Game:
    return Game()


def _may_roll(game: Game, member: str, opts: Options) -> bool:
    done = member in game.hands and game.hands[member].final
    return not done and game.tries.get(member, 0) < opts.tries


def decide(table: Any, command: Command, ctx: Context[Options]) -> list[Event]:
    """The events of ``command`` (who may send it is declared on the command and checked by taku)."""
    game: Game = table.game
    opts = ctx.options
    match command:
        case RollBowl():
            assert ctx.actor is not None
            if not _may_roll(game, ctx.actor, opts):
                reject("turn_over", "この回はもう振り終わっています", "チンチロリン: 3投まで")
            roll = ctx.dice.roll(3, 6)
            faces = (roll.faces[0], roll.faces[1], roll.faces[2])
            return [
                Rolled(
                    member_id=ctx.actor,
                    roll=roll,
                    hand=read_hand(faces),
                    try_no=game.tries.get(ctx.actor, 0) + 1,
                )
            ]
        case CloseRound():
            if not game.hands:
                reject("nobody_rolled", "まだ誰も振っていません", "チンチロリン: 回の終わり")
            best = max(h.rank for h in game.hands.values())
            winners = tuple(sorted(m for m, h in game.hands.items() if h.rank == best))
            name = next(h.name for h in game.hands.values() if h.rank == best)
            return [RoundClosed(round_no=game.round_no, winners=winners, best=name)]
    raise AssertionError(f"not a chinchiro command: {command!r}")


def evolve(game: Game, event: Event, table: Any, options: Options) -> Game:
    replace = msgspec.structs.replace
    match event:
        case Rolled(member_id=m, hand=hand, try_no=n):
            return replace(game, tries={**game.tries, m: n}, hands={**game.hands, m: hand})
        case RoundClosed(winners=winners):
            wins = dict(game.wins)
            for w in winners:
                wins[w] = wins.get(w, 0) + 1
            return Game(round_no=game.round_no + 1, wins=wins)
        case MemberJoined():
            return game
    return game


def view(table: Any, viewer: Viewer, options: Options) -> Game:
    return table.game  # nothing is hidden in this game


def affordances(table: Any, viewer: Viewer, options: Options) -> list[Affordance]:
    """What ``viewer`` may do now: roll while they may, and (the GM) close the round."""
    game: Game = table.game
    out = []
    if viewer.member_id is not None and _may_roll(game, viewer.member_id, options):
        out.append(Affordance(command="chinchiro.roll", label="丼に振る", primary=True))
    if viewer.is_gm and game.hands:
        out.append(Affordance(command="chinchiro.close_round", label="回を締める", primary=not out))
    return out


def turn(table: Any, options: Options) -> Turn:
    """The round: everyone who has rolled, in the order they joined, done once their hand is final."""
    game: Game = table.game
    players = [m for m in table.members.values() if m.role != "spectator" and m.present]
    order = [
        TurnSlot(
            id=m.id,
            label=m.name,
            value=game.hands[m.id].name if m.id in game.hands else None,
            done=not _may_roll(game, m.id, options),
        )
        for m in players
    ]
    return Turn(round=game.round_no, round_label=f"第{game.round_no}回戦", order=order)


def chat(text: str, table: Any, ctx: Context[Options]) -> list[Event] | None:
    """``チンチロ`` (or ``CHINCHIRO``) in the chat rolls the bowl (under the command's permit)."""
    if text.strip().upper() in ("チンチロ", "CHINCHIRO"):
        command = RollBowl()
        check_permit(table, command, ctx)
        return decide(table, command, ctx)
    return None


def render(event: Event, table: Any, options: Options) -> str | None:
    def who(m: str) -> str:
        return kit.member_name(table, m)

    match event:
        case Rolled(member_id=m, roll=roll, hand=hand, try_no=n):
            return f"{who(m)}: チンチロリン！ {list(roll.faces)} → {hand.name}（{n}投目）"
        case RoundClosed(round_no=r, winners=winners, best=best):
            return f"第{r}回戦: {'、'.join(who(w) for w in winners)} の勝ち（{best}）"
    return None
