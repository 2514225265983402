"""Registration of the `hiden` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_hiden._common import ERRORS
from taku_hiden._render import render
from taku_hiden.commands import COMMANDS
from taku_hiden.decider import decide, evolve, initial_state
from taku_hiden.dice import chat
from taku_hiden.events import EVENTS
from taku_hiden.options import HidenOptions
from taku_hiden.palette import palette
from taku_hiden.play import affordances
from taku_hiden.state import HidenSheet, HidenState
from taku_hiden.templates import TEMPLATES
from taku_hiden.view import view

__all__ = ["RULESET", "taku_ruleset"]

RULESET: Ruleset[HidenState, HidenOptions] = Ruleset(
    id="hiden",
    name="秘伝の声",
    version="1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    view=view,
    options=HidenOptions,
    sheet=HidenSheet,
    state=HidenState,
    chat=chat,
    render=render,
    affordances=affordances,
    turn=None,  # chapter 5 has no order of play: the GM calls for checks as the story needs them
    summary="秘伝の声 第五章 行動判定: 2D＋技能＋能力値 対 難易度＋2D、6ゾロ・1ゾロ、特徴による修正、座布団、対抗判定、跳躍・持ち上げ・視界・疲労・発作の表",
    errors=ERRORS,
    sheet_templates=TEMPLATES,
    palette=palette,
)


@hookimpl
def taku_ruleset() -> Ruleset[HidenState, HidenOptions]:
    return RULESET
