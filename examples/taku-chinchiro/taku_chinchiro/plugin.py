"""The hookimpl that hands taku the チンチロリン ruleset (found through the
``taku.rulesets`` entry point in pyproject.toml)."""

from __future__ import annotations

from taku import Ruleset, hookimpl
from taku_chinchiro import game

RULESET: Ruleset[game.Game, game.Options] = Ruleset(
    id="chinchiro",
    name="チンチロリン",
    version="1.0.0",
    commands=(game.RollBowl, game.CloseRound),
    events=(game.Rolled, game.RoundClosed),
    initial_state=game.initial_state,
    decide=game.decide,
    evolve=game.evolve,
    view=game.view,
    options=game.Options,
    state=game.Game,
    chat=game.chat,
    render=game.render,
    affordances=game.affordances,
    turn=game.turn,
    errors=game.ERRORS,
    summary="三つのサイコロで役を作る。シゴロ、アラシ、ヒフミ、目。",
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
