"""Registration of the `nstrpg` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_nstrpg._evolve import evolve
from taku_nstrpg._render import render
from taku_nstrpg.commands import COMMANDS
from taku_nstrpg.decider import decide
from taku_nstrpg.dice import chat, dice_chat
from taku_nstrpg.errors import ERRORS
from taku_nstrpg.events import EVENTS
from taku_nstrpg.options import NsOptions
from taku_nstrpg.palette import palette
from taku_nstrpg.play import affordances, turn
from taku_nstrpg.state import NsGame, NsSheet
from taku_nstrpg.templates import TEMPLATES
from taku_nstrpg.view import view

__all__ = ["RULESET", "taku_ruleset"]


def _initial(options: NsOptions) -> NsGame:
    return NsGame()


RULESET: Ruleset[NsGame, NsOptions] = Ruleset(
    id="nstrpg",
    name="ニンジャスレイヤーTRPG 2版 コアルール",
    version="1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=_initial,
    decide=decide,
    evolve=evolve,
    view=view,
    options=NsOptions,
    sheet=NsSheet,
    state=NsGame,
    chat=chat,
    chat_dice=dice_chat,
    render=render,
    affordances=affordances,
    turn=turn,
    summary="判定（KIDS〜UHn、【】出目指定）、NinjaSlayer2互換ダイス、攻撃・回避・カウンターカラテ・サツバツ！・DKKとWasshoi!",
    errors=ERRORS,
    sheet_templates=TEMPLATES,
    palette=palette,
)


@hookimpl
def taku_ruleset() -> Ruleset[NsGame, NsOptions]:
    return RULESET
