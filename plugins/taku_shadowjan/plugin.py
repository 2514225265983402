"""Registration of the `shadowjan` ruleset (hookimpls only, no logic)."""

from __future__ import annotations

from taku.core.ruleset import Ruleset
from taku.hookspecs import hookimpl
from taku_shadowjan._evolve import evolve
from taku_shadowjan._render import render
from taku_shadowjan.commands import COMMANDS
from taku_shadowjan.decider import decide
from taku_shadowjan.dice import chat
from taku_shadowjan.events import EVENTS
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame, SjSheet
from taku_shadowjan.view import view

__all__ = ["RULESET", "taku_ruleset"]

RULESET = Ruleset(
    id="shadowjan",
    name="シャドー・ジャン2",
    version="1.0",
    commands=COMMANDS,
    events=EVENTS,
    initial_state=lambda options: SjGame(),
    decide=decide,
    evolve=lambda game, event, table, options: evolve(game, event, table),  # (transitional: options unused)
    view=lambda table, viewer, options: view(table, viewer),  # (transitional)
    options=SjOptions,
    sheet=SjSheet,
    chat=chat,
    render=lambda event, table, options: render(event, table),  # (transitional)
    summary="NSTRPGの判定と攻撃で打つ麻雀: 配牌からテンホー・チーホー戦、リーチ棒、振り込み、ロン回避判定、流局、ニンジャ殺すべし、最終順位まで自動進行",
)


@hookimpl
def taku_ruleset() -> Ruleset:
    return RULESET
