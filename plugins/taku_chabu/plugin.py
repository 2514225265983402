"""Registration of the `chabu` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_chabu._evolve import evolve, initial_state
from taku_chabu._play import affordances, turn
from taku_chabu._render import render
from taku_chabu.commands import COMMANDS
from taku_chabu.decider import ERRORS, decide
from taku_chabu.dice import chat
from taku_chabu.events import EVENTS
from taku_chabu.options import ChabuOptions
from taku_chabu.palette import palette
from taku_chabu.state import ChabuSheet, ChabuState
from taku_chabu.templates import TEMPLATES
from taku_chabu.view import view

RULESET: Ruleset[ChabuState, ChabuOptions] = Ruleset(
    id="chabu",
    name="ニンジャスレイヤー：theチャブＲＰＧ",
    version="0.1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    options=ChabuOptions,
    sheet=ChabuSheet,
    state=ChabuState,
    chat=chat,
    render=render,
    affordances=affordances,
    turn=turn,
    summary="1D100の判定（タツジン！／ウカツ！）、対抗判定、ラウンド進行、命中・回避・ダメージ、特技",
    errors=ERRORS,
    sheet_templates=TEMPLATES,
    palette=palette,
)


@hookimpl
def taku_ruleset() -> Ruleset[ChabuState, ChabuOptions]:
    return RULESET
