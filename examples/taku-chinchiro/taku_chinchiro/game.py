"""Commands, events, state and the decider of チンチロリン (all pure)."""

from __future__ import annotations

from typing import Any

import msgspec

from taku import Context, Rejected, Viewer
from taku.core.commands import Command
from taku.core.dice import Roll
from taku.core.events import Event, MemberJoined

from taku_chinchiro.rules import Hand, read_hand

__all__ = [
    "CloseRound",
    "Game",
    "Options",
    "RollBowl",
    "Rolled",
    "RoundClosed",
    "chat",
    "decide",
    "evolve",
    "initial_state",
    "render",
    "view",
]


class Options(msgspec.Struct, frozen=True, kw_only=True):
    tries: int = 3
    """How many times a player may roll for a hand (the usual rule: 3)."""


# ----------------------------------------------------------------- commands and events


class RollBowl(Command, frozen=True, kw_only=True, tag="chinchiro.roll"):
    """Roll three dice into the bowl (a player, on their own turn of the round)."""


class CloseRound(Command, frozen=True, kw_only=True, tag="chinchiro.close_round"):
    """GM: end the round; the best hand wins."""


class Rolled(Event, frozen=True, kw_only=True, tag="chinchiro.rolled"):
    member_id: str
    roll: Roll
    hand: Hand
    try_no: int


class RoundClosed(Event, frozen=True, kw_only=True, tag="chinchiro.round_closed"):
    round_no: int
    winners: tuple[str, ...]
    best: str


# ----------------------------------------------------------------- state


class Game(msgspec.Struct, frozen=True, kw_only=True):
    round_no: int = 1
    tries: dict[str, int] = {}
    hands: dict[str, Hand] = {}
    wins: dict[str, int] = {}


def initial_state(options: Options | None) -> Game:
    return Game()


def decide(table: Any, command: Command, ctx: Context) -> list[Event]:
    game: Game = table.game
    opts: Options = ctx.options
    match command:
        case RollBowl():
            assert ctx.actor is not None
            done = ctx.actor in game.hands and game.hands[ctx.actor].final
            tries = game.tries.get(ctx.actor, 0)
            if done or tries >= opts.tries:
                raise Rejected("chinchiro", "turn_over", "この回はもう振り終わっています", section="チンチロリン: 3投まで")
            roll = ctx.dice.roll(3, 6)
            faces = (roll.faces[0], roll.faces[1], roll.faces[2])
            return [Rolled(member_id=ctx.actor, roll=roll, hand=read_hand(faces), try_no=tries + 1)]
        case CloseRound():
            ctx.require_gm("closing a round")
            if not game.hands:
                raise Rejected("chinchiro", "nobody_rolled", "まだ誰も振っていません")
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


def chat(text: str, table: Any, ctx: Context) -> list[Event] | None:
    """``チンチロ`` (or ``CHINCHIRO``) in the chat rolls the bowl."""
    if text.strip().upper() in ("チンチロ", "CHINCHIRO"):
        return decide(table, RollBowl(), ctx)
    return None


def render(event: Event, table: Any, options: Options) -> str | None:
    def who(m: str) -> str:
        member = table.members.get(m)
        return member.name if member else m

    match event:
        case Rolled(member_id=m, roll=roll, hand=hand, try_no=n):
            return f"{who(m)}: チンチロリン！ {list(roll.faces)} → {hand.name}（{n}投目）"
        case RoundClosed(round_no=r, winners=winners, best=best):
            return f"第{r}回戦: {'、'.join(who(w) for w in winners)} の勝ち（{best}）"
    return None
