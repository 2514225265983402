"""Registration of the `chabu` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_chabu._evolve import evolve, initial_state
from taku_chabu._render import render
from taku_chabu.commands import COMMANDS
from taku_chabu.decider import decide
from taku_chabu.dice import chat
from taku_chabu.events import EVENTS
from taku_chabu.options import ChabuOptions
from taku_chabu.state import ChabuSheet
from taku_chabu.view import view

RULESET = Ruleset(
    id="chabu",
    name="ニンジャスレイヤー：theチャブＲＰＧ",
    version="0.1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=lambda game, event, table, options: evolve(game, event, table),  # (transitional: options unused)
    view=lambda table, viewer, options: view(table, viewer),  # (transitional)
    options=ChabuOptions,
    sheet=ChabuSheet,
    chat=chat,
    render=lambda event, table, options: render(event, table),  # (transitional)
    summary="1d100 判定、タツジン！／ウカツ！、対抗判定、ラウンド進行、命中・回避・ダメージ、特技",
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
