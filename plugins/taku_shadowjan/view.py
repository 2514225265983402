"""What a viewer sees of a シャドー・ジャン2 table: everything (the game hides nothing),
plus whose move it is and the moves legal now for this viewer (buttons)."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_shadowjan.decider import legal_moves, waiting_for
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame

__all__ = ["view"]


def _options(table: TableState) -> SjOptions:
    try:
        return msgspec.convert(table.options or {}, SjOptions)
    except msgspec.ValidationError:
        return SjOptions()


def view(table: TableState, viewer: Viewer) -> dict[str, Any]:
    """The state as builtins, with ``to_move``, ``step``, ``scores``, ``multiplier`` and
    ``legal_moves`` (only the moves of characters this viewer controls; all of them for a GM)."""
    game = table.game if isinstance(table.game, SjGame) else SjGame()
    out: dict[str, Any] = msgspec.to_builtins(game)
    try:
        who, step = waiting_for(game)
        moves = legal_moves(table, game, _options(table))
    except (AssertionError, KeyError, IndexError):
        # a replay stopped between two events of one command (the server plays every step
        # that needs no choice within a command): nobody is to move at that seq
        who, step, moves = "", "resolving", []

    def mine(m: dict[str, Any]) -> bool:
        cid = m["character_id"]
        if viewer.is_gm:
            return True
        if viewer.role == "spectator" or viewer.member_id is None:
            return False
        if not cid:
            return True
        ch = table.characters.get(cid)
        return ch is not None and ch.owner == viewer.member_id

    out["to_move"] = who
    out["step"] = step
    out["all_moves"] = [{"label": m["label"], "character_id": m["character_id"]} for m in moves]
    out["legal_moves"] = [m for m in moves if mine(m)]
    out["scores"] = {cid: p.score for cid, p in game.players.items()}
    out["multiplier"] = 2**game.draws
    return out
