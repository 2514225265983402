"""Registration of the `yodomi` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_yodomi._errors import ERRORS
from taku_yodomi._render import render
from taku_yodomi.affordances import affordances, turn
from taku_yodomi.commands import ALL_COMMANDS
from taku_yodomi.decider import decide, evolve, initial_state
from taku_yodomi.dice import chat
from taku_yodomi.events import ALL_EVENTS
from taku_yodomi.options import YodomiOptions, YodomiSheet
from taku_yodomi.palette import palette
from taku_yodomi.state import Game
from taku_yodomi.templates import TEMPLATES
from taku_yodomi.view import hides_command, view

__all__ = ["RULESET", "taku_ruleset"]

RULESET: Ruleset[Game, YodomiOptions] = Ruleset(
    id="yodomi",
    name="澱み流れ",
    version="1.0",
    commands=ALL_COMMANDS,
    events=ALL_EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    options=YodomiOptions,
    sheet=YodomiSheet,
    state=Game,
    chat=chat,
    render=render,
    affordances=affordances,
    turn=turn,
    summary="2D9・D99の行為判定、トランプの「流れ」（非公開の手札）、パス、シーン進行とエンゲージ戦闘。",
    hidden_paths=(("deck",), ("hands",), ("discards",)),
    errors=ERRORS,
    sheet_templates=TEMPLATES,
    hides_command=hides_command,
    palette=palette,
)


@hookimpl
def taku_ruleset() -> Ruleset[Game, YodomiOptions]:
    return RULESET
