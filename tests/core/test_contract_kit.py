"""The conformance kit fails, with a clear message, on deliberately broken rulesets.

Each broken ruleset here has one defect the kit must name: an unlabelled field,
a view that leaks hidden state, a permit whose ``owner_field`` names no field (so
the declaration would let anyone act for any character), a reason raised but not
declared, and an affordance that builds no valid command.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec
import pytest

from taku.core import kit
from taku.core.commands import GM, Command, Permit
from taku.core.events import Event, Private
from taku.core.play import Affordance, Choice
from taku.core.ruleset import Context, Ruleset, Viewer
from taku.testing.ruleset_contract import RulesetContract

reject = kit.rejecter("broken")


class Draw(Command, frozen=True, kw_only=True, tag="broken.draw"):
    meta = msgspec.Meta(title="引く")


class Give(Command, frozen=True, kw_only=True, tag="broken.give"):
    permit = GM
    meta = msgspec.Meta(title="与える")

    to: Annotated[str, msgspec.Meta(title="相手")]


class Drawn(Event, frozen=True, kw_only=True, tag="broken.drawn"):
    meta = msgspec.Meta(title="引いた")

    member_id: Annotated[str, msgspec.Meta(title="メンバー")]
    card: Annotated[int, msgspec.Meta(title="札")]


class Unlabelled(Command, frozen=True, kw_only=True, tag="broken.unlabelled"):
    meta = msgspec.Meta(title="ラベルなし")

    amount: int = 1


class WrongOwner(Command, frozen=True, kw_only=True, tag="broken.heal"):
    permit = Permit(frozenset({"gm", "player"}), owner_fields=("characterid",), label="持ち主")
    meta = msgspec.Meta(title="回復")

    character_id: Annotated[str, msgspec.Meta(title="キャラクター")]


class Game(msgspec.Struct, frozen=True, kw_only=True):
    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="場")

    hands: Annotated[dict[str, list[int]], msgspec.Meta(title="手札")] = {}


def _decide(table: Any, command: Command, ctx: Context[None]) -> list[Event]:
    match command:
        case Draw():
            assert ctx.actor is not None
            return [Drawn(member_id=ctx.actor, card=ctx.dice.roll(1, 13).faces[0])]
        case Give():
            reject("undeclared_reason", "理由が宣言されていない")
    return []


def _evolve(game: Game, event: Event, table: Any, options: None) -> Game:
    if isinstance(event, Drawn):
        hand = [*game.hands.get(event.member_id, []), event.card]
        return Game(hands={**game.hands, event.member_id: hand})
    return game


def _private(table: Any, command: Command, ctx: Context[None]) -> list[Private]:
    """Draws are hidden: only the drawer sees the card."""
    assert ctx.actor is not None
    return [Private(event=e, audience=(ctx.actor,)) for e in _decide(table, command, ctx)]


def _honest_view(table: Any, viewer: Viewer, options: None) -> Game:
    mine = table.game.hands.get(viewer.member_id, [])
    return Game(hands={viewer.member_id: mine} if viewer.member_id else {})


def _leaky_view(table: Any, viewer: Viewer, options: None) -> Game:
    return table.game  # every hand, to everyone


def _render(event: Event, table: Any, options: None) -> str:
    return "札を引いた"


def _affordances(table: Any, viewer: Viewer, options: None) -> list[Affordance]:
    return [Affordance(command="broken.draw", label="引く")]


def _bad_affordances(table: Any, viewer: Viewer, options: None) -> list[Affordance]:
    return [
        Affordance(
            command="broken.draw", label="引く", choices={"count": [Choice(value=2, label="2枚")]}
        )
    ]


def _ruleset(**changes: Any) -> Ruleset[Any, Any]:
    base: dict[str, Any] = dict(
        id="broken",
        name="壊れたルール",
        version="1",
        commands=(Draw, Give),
        events=(Drawn,),
        initial_state=lambda options: Game(),
        decide=_private,
        evolve=_evolve,
        view=_honest_view,
        state=Game,
        render=_render,
        affordances=_affordances,
        hidden_paths=(("hands",),),
        errors={"undeclared_reason": "宣言された理由"},
    )
    base.update(changes)
    return Ruleset(**base)


def _kit(rs: Ruleset[Any, Any]) -> RulesetContract:
    class Kit(RulesetContract):
        ruleset = rs
        package = __name__
        steps = 20
        seeds = (3,)

    return Kit()


async def test_the_sound_ruleset_passes() -> None:
    k = _kit(_ruleset())
    k.test_tags()
    k.test_schema_labels()
    k.test_errors_declared()
    await k.test_permits()
    await k.test_random_play()


def test_an_unlabelled_field_is_named() -> None:
    k = _kit(_ruleset(commands=(Draw, Give, Unlabelled)))
    with pytest.raises(AssertionError, match=r"Unlabelled\.amount has no Japanese title"):
        k.test_schema_labels()


async def test_a_leaky_view_is_caught() -> None:
    k = _kit(_ruleset(view=_leaky_view))
    with pytest.raises(AssertionError, match=r"shows hidden hands"):
        await k.test_random_play()


async def test_a_permit_naming_no_field_is_caught() -> None:
    k = _kit(_ruleset(commands=(Draw, Give, WrongOwner)))
    with pytest.raises(
        AssertionError, match=r"broken\.heal: permit names owner_field 'characterid'"
    ):
        await k.test_permits()


def test_an_undeclared_reason_is_named() -> None:
    k = _kit(_ruleset(errors={}))
    with pytest.raises(
        AssertionError, match=r"not listed in Ruleset.errors: \['undeclared_reason'\]"
    ):
        k.test_errors_declared()


async def test_an_affordance_that_builds_no_command_is_named() -> None:
    k = _kit(_ruleset(affordances=_bad_affordances))
    with pytest.raises(
        AssertionError, match=r"affordance '引く' \(broken\.draw\) builds no valid command"
    ):
        await k.test_random_play()


def test_an_impure_import_is_named() -> None:
    k = _kit(_ruleset())
    k.package = "taku.store.sqlite"  # type: ignore[misc]
    with pytest.raises(AssertionError, match=r"imports sqlite3"):
        k.test_pure()


async def test_a_ruleset_without_affordances_or_render_is_named() -> None:
    with pytest.raises(AssertionError, match=r"has commands but no affordances\(\)"):
        await _kit(_ruleset(affordances=None)).test_random_play()
    with pytest.raises(AssertionError, match=r"has events but no render\(\)"):
        await _kit(_ruleset(render=None)).test_random_play()


refuse = kit.rejecter(
    "broken"
)  # a rejecter under another name: the source scan cannot see its reasons


def _refusing(table: Any, command: Command, ctx: Context[None]) -> list[Any]:
    refuse("hidden_reason", "宣言されていない理由")
    return []


async def test_an_undeclared_reason_raised_in_play_is_named() -> None:
    k = _kit(_ruleset(decide=_refusing))
    with pytest.raises(
        AssertionError, match=r"rule/broken/hidden_reason is not listed in Ruleset.errors"
    ):
        await k.test_random_play()
