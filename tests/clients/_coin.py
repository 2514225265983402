"""A tiny "third-party" ruleset for the client tests: the web client must give it a
working panel without knowing it (state from its view, forms from its command
schema, its affordances as buttons). It is registered only in these tests."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from taku.core.commands import Command, owner_of
from taku.core.dice import Roll
from taku.core.events import CharacterCreated, Event
from taku.core.play import Affordance
from taku.core.ruleset import Context, Ruleset, Viewer
from taku.errors import Rejected


class Flip(Command, frozen=True, kw_only=True, tag="coin.flip"):
    """Flip a coin for a character."""

    permit = owner_of()

    character_id: str


class Bet(Command, frozen=True, kw_only=True, tag="coin.bet"):
    """Bet chips on a side."""

    permit = owner_of()

    character_id: str
    amount: int
    side: Literal["heads", "tails"] = "heads"


class Flipped(Event, frozen=True, kw_only=True, tag="coin.flipped"):
    character_id: str
    roll: Roll
    heads: bool


class BetPlaced(Event, frozen=True, kw_only=True, tag="coin.bet_placed"):
    character_id: str
    amount: int
    side: str


class CoinGame(msgspec.Struct, frozen=True, kw_only=True):
    flips: dict[str, int] = {}
    chips: dict[str, int] = {}


def decide(table: Any, command: Any, ctx: Context) -> list[Event]:
    match command:
        case Flip():
            roll = ctx.dice.roll(1, 2)
            return [Flipped(character_id=command.character_id, roll=roll, heads=roll.faces[0] == 1)]
        case Bet():
            have = table.game.chips.get(command.character_id, 0)
            if not 0 < command.amount <= have:
                raise Rejected("coin", "bad_amount", f"1〜{have}枚を賭けます", section="coin 1")
            return [
                BetPlaced(
                    character_id=command.character_id, amount=command.amount, side=command.side
                )
            ]
    raise AssertionError(command)


def evolve(game: CoinGame, event: Event, table: Any, options: None) -> CoinGame:
    match event:
        case CharacterCreated(character_id=cid):
            return msgspec.structs.replace(
                game, chips={**game.chips, cid: 10}, flips={**game.flips, cid: 0}
            )
        case Flipped(character_id=cid):
            return msgspec.structs.replace(
                game, flips={**game.flips, cid: game.flips.get(cid, 0) + 1}
            )
        case BetPlaced(character_id=cid, amount=n):
            return msgspec.structs.replace(
                game, chips={**game.chips, cid: game.chips.get(cid, 0) - n}
            )
    return game


def affordances(table: Any, viewer: Viewer, options: None) -> list[Affordance]:
    return [
        Affordance(
            command="coin.flip",
            label=f"{ch.name}: コインを投げる",
            args={"character_id": cid},
            primary=True,
        )
        for cid, ch in table.characters.items()
        if viewer.is_gm or ch.owner == viewer.member_id
    ]


def render(event: Event, table: Any, options: None) -> str | None:
    match event:
        case Flipped(character_id=cid, heads=heads):
            return f"{table.characters[cid].name}: コイン → {'表' if heads else '裏'}"
        case BetPlaced(character_id=cid, amount=n, side=side):
            return (
                f"{table.characters[cid].name}: {n}枚を{'表' if side == 'heads' else '裏'}に賭けた"
            )
    return None


COIN = Ruleset(
    id="coin",
    name="コイン（テスト用）",
    version="1",
    commands=(Flip, Bet),
    events=(Flipped, BetPlaced),
    initial_state=lambda options: CoinGame(),
    decide=decide,
    evolve=evolve,
    render=render,
    affordances=affordances,
    summary="a ruleset the web client does not know",
)
