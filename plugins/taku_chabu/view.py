"""``view`` of the ``chabu`` ruleset: nothing in it is hidden.

The text has no secret information (no hands, no hidden rolls), so every
viewer sees the whole game state, plus each character's 状態 (CH-11) and whose
turn it is, derived for clients.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core.ruleset import Viewer
from taku_chabu._rules import current_actor, status_of
from taku_chabu.state import ChabuState

__all__ = ["view"]


def view(table: Any, viewer: Viewer) -> dict[str, Any]:
    """The game as JSON data: the state, ``status`` per character and ``turn``."""
    game = table.game if isinstance(table.game, ChabuState) else ChabuState()
    data: dict[str, Any] = msgspec.to_builtins(game)
    data["status"] = {cid: status_of(game, cid) for cid in game.chars}
    data["turn"] = current_actor(game, table)
    return data
