"""Registration of the `hiden` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_hiden._render import render
from taku_hiden.commands import COMMANDS
from taku_hiden.decider import decide, evolve, initial_state
from taku_hiden.dice import chat
from taku_hiden.events import EVENTS
from taku_hiden.options import HidenOptions
from taku_hiden.state import HidenSheet
from taku_hiden.view import view

__all__ = ["RULESET", "taku_ruleset"]

RULESET = Ruleset(
    id="hiden",
    name="秘伝の声",
    version="1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=initial_state,
    decide=decide,
    evolve=lambda game, event, table, options: evolve(game, event, table),  # (transitional: options unused)
    view=lambda table, viewer, options: view(table, viewer),  # (transitional)
    options=HidenOptions,
    sheet=HidenSheet,
    chat=chat,
    render=lambda event, table, options: render(event, table),  # (transitional)
    summary="秘伝の声 第五章 行動判定: 2D+技能+能力値 対 難易度+2D、6ゾロ・1ゾロ、特徴修正、座布団、対抗判定、跳躍・持ち上げ・視界・疲労・発作の表",
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
