"""What a viewer sees of a シャドー・ジャン2 table: everything (the game hides nothing),
with each player's score and the 流局 factor at hand. Whose move it is and the legal
moves are not here: they are the ruleset's ``turn`` and ``affordances``
(:mod:`taku_shadowjan.play`)."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame

__all__ = ["view"]


def view(table: TableState, viewer: Viewer, options: SjOptions) -> dict[str, Any]:
    """The state as builtins (:class:`~taku_shadowjan.state.SjGame`), plus ``scores``
    (character id -> points) and ``multiplier`` (the win factor, ×2 per 流局, SJ-27)."""
    game = table.game if isinstance(table.game, SjGame) else SjGame()
    out: dict[str, Any] = msgspec.to_builtins(game)
    out["scores"] = {cid: p.score for cid, p in game.players.items()}
    out["multiplier"] = 2**game.draws
    return out
