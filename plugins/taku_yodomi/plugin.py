"""Registration of the `yodomi` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl

from taku_yodomi._render import render
from taku_yodomi.commands import ALL_COMMANDS
from taku_yodomi.decider import decide, evolve, initial_state
from taku_yodomi.dice import chat
from taku_yodomi.events import ALL_EVENTS
from taku_yodomi.options import YodomiOptions, YodomiSheet
from taku_yodomi.view import view

__all__ = ["RULESET", "taku_ruleset"]

RULESET = Ruleset(
    id="yodomi",
    name="澱み流れ",
    version="1.0",
    commands=ALL_COMMANDS,
    events=ALL_EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=lambda game, event, table, options: evolve(game, event, table),  # (transitional: options unused)
    view=lambda table, viewer, options: view(table, viewer),  # (transitional)
    options=YodomiOptions,
    sheet=YodomiSheet,
    chat=chat,
    render=lambda event, table, options: render(event, table),  # (transitional)
    summary="2D9 / D99 checks, the 流れ card deck with hidden hands, パス, scenes and engagement combat.",
    hidden_paths=(("deck",), ("hands",), ("discards",)),
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
